#!/usr/bin/env bash
# End-to-end test of `rdmasim sweep --slurm` on a real single-node Slurm (Debian's slurm-wlm and munge,
# installed and started by install.sh and start.sh): writes the job array and merge job for the example
# study, submits them (submit-slurm.sh: the array, then the merge with --dependency=afterok), waits, and
# compares the merged results.csv, results.json and index.html byte for byte with a local run.
# Where Slurm cannot be installed or started here, prints a NOTICE saying why and exits 0 (skipped);
# a run that starts and then differs or fails exits 1.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$(pwd)
study=scenarios/studies/sources-and-arrivals.yaml
work="$root/simulator/target/slurm-e2e"
skip() { echo "NOTICE: Slurm end-to-end test skipped: $*"; exit 0; }
tools/slurm/install.sh > "$root/simulator/target/slurm-install.log" 2>&1 \
  || skip "slurm-wlm and munge could not be installed ($(tail -1 "$root/simulator/target/slurm-install.log"))"
start_out=$(tools/slurm/start.sh 2>&1) || skip "the single-node cluster did not start: $start_out"
eval "$(echo "$start_out" | grep '^export SLURM_CONF=')"
rm -rf "$work"
mkdir -p "$work"
./rdmasim sweep "$study" --threads 2 --out "$work/local" > /dev/null 2>&1
./rdmasim sweep "$study" --slurm --shards 3 --cpus 1 --memory 800M --time 00:10:00 --out "$work/slurm" > /dev/null
ids=$(sh "$work/slurm/submit-slurm.sh")
echo "submitted: $ids"
array=$(echo "$ids" | sed -E 's/array job ([0-9]+), merge job ([0-9]+)/\1/')
merge=$(echo "$ids" | sed -E 's/array job ([0-9]+), merge job ([0-9]+)/\2/')
deadline=$((SECONDS + ${SLURM_E2E_TIMEOUT:-600}))
while squeue -h -j "$array,$merge" 2> /dev/null | grep -q .; do
  if [ $SECONDS -gt $deadline ]; then
    scancel "$array" "$merge" || true
    echo "FAIL: the jobs did not finish in time"; squeue; exit 1
  fi
  sleep 2
done
state=$(scontrol show job "$merge" 2> /dev/null | grep -o 'JobState=[A-Z_]*' | head -1)
if [ "$state" != "JobState=COMPLETED" ]; then
  echo "FAIL: merge job $merge ended $state"; cat "$work"/slurm/slurm-*.out 2> /dev/null | tail -20; exit 1
fi
for f in results.csv results.json index.html; do
  if ! cmp "$work/local/$f" "$work/slurm/$f"; then
    echo "FAIL: $f of the Slurm run differs from the local run"; exit 1
  fi
done
echo "Slurm end-to-end: 3 array tasks and the afterok merge job reproduce the local run byte for byte" \
  "($(($(wc -l < "$work/local/results.csv") - 1)) rows)"
