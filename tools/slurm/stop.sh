#!/usr/bin/env bash
# Stops the slurmd and slurmctld start.sh started (by the pid files in STATE); MUNGE is left running.
STATE=${STATE:-/tmp/rdmasim-slurm}
for d in slurmd slurmctld; do
  if [ -f "$STATE/$d.pid" ]; then
    kill "$(cat "$STATE/$d.pid")" 2> /dev/null || true
  fi
done
