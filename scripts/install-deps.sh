#!/usr/bin/env bash
# Installs the Debian packages spin-noc needs, and only those that are missing.
# Called by `make sim`, `make test`, `make synth` and .ci/run; safe to run again.
# Usage: scripts/install-deps.sh [--check]   (--check: list what is missing, install nothing)
set -euo pipefail

# command -> Debian package that provides it
declare -A PKG_OF=(
  [verilator]=verilator
  [yosys]=yosys
  [gtkwave]=gtkwave
  [fst2vcd]=gtkwave
  [xvfb-run]=xvfb       # make waves-check loads both views in GTKWave on a virtual display
  [g++]=g++
  [gcc]=gcc
  [make]=make
  [python3]=python3
  [clang-14]=clang-14
  [parallel]=parallel   # GNU parallel: make sweep SWEEP_ENGINE=parallel
  [ccache]=ccache       # Verilator builds compile through it (OBJCACHE in the Makefile)
  [yosys-smtbmc]=yosys # make formal: the model checker (Debian's yosys ships it)
  [z3]=z3               # make formal: the SMT solver under yosys-smtbmc
)
# files that have no command of their own -> package
declare -A FILE_PKG=(
  [/usr/include/zlib.h]=zlib1g-dev
  [/usr/include/systemc.h]=libsystemc-dev
  # libFuzzer and the sanitizer runtimes of clang-14 (make fuzz)
  [/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a]=libclang-rt-14-dev
)
# Python modules (imported by Debian's python3) -> package: matplotlib for
# the sweep plots, pytest and xdist (pytest-xdist) for make regress and
# make soak
declare -A PY_PKG=(
  [matplotlib]=python3-matplotlib
  [pytest]=python3-pytest
  [xdist]=python3-pytest-xdist
)

missing=()
for cmd in "${!PKG_OF[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${PKG_OF[$cmd]}")
done
for f in "${!FILE_PKG[@]}"; do
  [ -e "$f" ] || missing+=("${FILE_PKG[$f]}")
done
# Debian's python3 (a python3 earlier on PATH may not see Debian's modules)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
for m in "${!PY_PKG[@]}"; do
  if ! command -v "$PY" >/dev/null 2>&1 || ! "$PY" -c "import $m" >/dev/null 2>&1; then
    missing+=("${PY_PKG[$m]}")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
if [ "${1:-}" = "--check" ]; then
  printf 'missing: %s\n' "${missing[*]}"
  exit 1
fi

# one package can provide several commands (gtkwave and fst2vcd)
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "install-deps: not root and no sudo; install these packages by hand: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done" >&2
