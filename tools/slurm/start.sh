#!/usr/bin/env bash
# Starts a single-node Slurm cluster for tests: MUNGE, slurmctld and slurmd on this machine, with a
# minimal slurm.conf in STATE (default /tmp/rdmasim-slurm): one node with this machine's cores and
# memory, one partition, no cgroups, no accounting. Prints the SLURM_CONF to export and exits 0 when
# `sinfo` shows the node idle; otherwise prints why and exits 1. tools/slurm/stop.sh stops it.
set -euo pipefail
STATE=${STATE:-/tmp/rdmasim-slurm}
mkdir -p "$STATE/ctld" "$STATE/spool"
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
cat > "$STATE/slurm.conf" <<CONF
ClusterName=rdmasim-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/spool
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
SlurmctldPort=${SLURMCTLD_PORT:-6817}
SlurmdPort=${SLURMD_PORT:-6818}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MpiDefault=none
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$STATE/slurm.conf"

# MUNGE: a key if the package left none, then the daemon as its own user when there is one
if [ ! -s /etc/munge/munge.key ]; then
  mkdir -p /etc/munge
  if command -v mungekey > /dev/null 2>&1; then mungekey --create --force > /dev/null; else
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2> /dev/null; fi
  chown munge:munge /etc/munge/munge.key 2> /dev/null || true
  chmod 400 /etc/munge/munge.key
fi
mkdir -p /run/munge /var/lib/munge /var/log/munge
chown munge:munge /run/munge /var/lib/munge /var/log/munge 2> /dev/null || true
if ! munge -n > /dev/null 2>&1; then
  if id munge > /dev/null 2>&1; then runuser -u munge -- munged; else munged --force; fi
  sleep 1
fi
if ! munge -n | unmunge > /dev/null 2>&1; then
  echo "tools/slurm/start.sh: munged did not start (munge -n | unmunge fails)" >&2
  exit 1
fi

if ! { [ -f "$STATE/slurmctld.pid" ] && kill -0 "$(cat "$STATE/slurmctld.pid")" 2> /dev/null; }; then
  slurmctld -i -f "$SLURM_CONF" || { echo "tools/slurm/start.sh: slurmctld did not start; see $STATE/slurmctld.log" >&2; exit 1; }
fi
if ! { [ -f "$STATE/slurmd.pid" ] && kill -0 "$(cat "$STATE/slurmd.pid")" 2> /dev/null; }; then
  slurmd -f "$SLURM_CONF" || { echo "tools/slurm/start.sh: slurmd did not start; see $STATE/slurmd.log" >&2; exit 1; }
fi
for _ in $(seq 1 60); do
  if sinfo -h -N -o '%t' 2> /dev/null | grep -Eq '^(idle|mix|alloc)'; then
    echo "export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  scontrol update NodeName="$host" State=RESUME > /dev/null 2>&1 || true
  sleep 1
done
echo "tools/slurm/start.sh: the node did not come up idle: $(sinfo -h -N -o '%N %t %E' 2>&1 | head -1);" \
  "see $STATE/slurmctld.log and $STATE/slurmd.log" >&2
exit 1
