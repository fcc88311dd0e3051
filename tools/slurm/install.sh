#!/usr/bin/env bash
# Installs Debian's Slurm (slurm-wlm: slurmctld, slurmd and the client commands) and MUNGE, the
# authentication Slurm's daemons use, for the single-node test cluster start.sh brings up. Needs root
# (or passwordless sudo) and Debian's package archive; prints why and exits 1 when it cannot.
set -euo pipefail
if command -v sbatch > /dev/null 2>&1 && command -v slurmctld > /dev/null 2>&1 && command -v munged > /dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo > /dev/null 2>&1 && sudo -n true 2> /dev/null; then SUDO="sudo -n"; else
    echo "tools/slurm/install.sh: not root and no passwordless sudo: cannot install slurm-wlm and munge" >&2
    exit 1
  fi
fi
if ! command -v apt-get > /dev/null 2>&1; then
  echo "tools/slurm/install.sh: no apt-get: slurm-wlm and munge are installed from Debian's packages" >&2
  exit 1
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends slurm-wlm munge > /dev/null
command -v sbatch > /dev/null && command -v slurmctld > /dev/null && command -v munged > /dev/null
