#!/bin/sh
# Make SimGrid's Python bindings importable by /usr/bin/python3 (Debian's python3-simgrid).
# Idempotent: exits 0 at once when `import simgrid` already works. Runs apt-get update only
# when the package is unknown to apt or the install from the current lists fails.
# Needs root (or sudo without a password) and no stdin; without either it prints a NOTICE and exits 0.
# Exits 1 when an install it could try fails. Usage: tools/simgrid-peer/install.sh
set -eu

PY=/usr/bin/python3
PKG=python3-simgrid

have_simgrid() {
    [ -x "$PY" ] && "$PY" -c 'import simgrid' >/dev/null 2>&1
}

if have_simgrid; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
else
    # as chromium's and Slurm's installs in .ci/run: say so and let the caller go on (the tests that
    # need SimGrid are skipped, each saying why)
    echo "NOTICE: $PKG is missing and cannot be installed here (not root, no passwordless sudo); the SimGrid cross-check tests will be skipped"
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
APT="$SUDO apt-get -y -q -o Dpkg::Use-Pty=0"
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

install_pkg() {
    $APT install --no-install-recommends "$PKG" </dev/null >"$LOG" 2>&1
}

# Try the current package lists first; refresh them only if that fails.
if ! { apt-cache show "$PKG" >/dev/null 2>&1 && install_pkg; }; then
    $SUDO apt-get -q update </dev/null >"$LOG" 2>&1 || { cat "$LOG" >&2; exit 1; }
    install_pkg || { cat "$LOG" >&2; exit 1; }
fi

if ! have_simgrid; then
    echo "install.sh: $PKG installed but '$PY -c \"import simgrid\"' still fails" >&2
    exit 1
fi
exit 0
