#!/usr/bin/env bash
# Co-simulation regression: runs the C model and the RTL in lockstep over a
# matrix of meshes, VC counts, routings, traffic patterns, loads and seeds,
# plus the bad-input cases that must fail cleanly.  Called by `make regress`
# (part of `make test`) after it has built the co-simulation binaries:
#   build/rtl/p5-v{1,2,3}/Vcosim   router array, 5-port routers
#   build/rtl/p3-v1/Vcosim         3-port routers (rings)
#   build/cmodel/spinsim
# Prints one line per case and ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
LOG=$BUILD/regress
mkdir -p "$LOG"
pass=0
fail=0
n=0

# run NAME EXPECTED_STATUS COMMAND...: the command must exit with EXPECTED_STATUS.
run() {
  local name=$1 want=$2
  shift 2
  n=$((n + 1))
  local log="$LOG/$n.log"
  local t0=$SECONDS
  "$@" > "$log" 2>&1
  local rc=$?
  if [ "$rc" -eq "$want" ]; then
    pass=$((pass + 1))
    printf 'PASS %-64s %3ds\n' "$name" $((SECONDS - t0))
  else
    fail=$((fail + 1))
    printf 'FAIL %-64s exit %d, expected %d (log %s)\n' "$name" "$rc" "$want" "$log"
    tail -15 "$log" | sed 's/^/     /'
  fi
}

# expect_error NAME PATTERN COMMAND...: exit 2 and a message matching PATTERN.
expect_error() {
  local name=$1 pattern=$2
  shift 2
  n=$((n + 1))
  local log="$LOG/$n.log"
  "$@" > "$log" 2>&1
  local rc=$?
  if [ "$rc" -eq 2 ] && grep -Eq "$pattern" "$log"; then
    pass=$((pass + 1))
    printf 'PASS %-64s (%s)\n' "$name" "$(grep -Em1 "$pattern" "$log" | cut -c1-70)"
  else
    fail=$((fail + 1))
    printf 'FAIL %-64s exit %d, wanted 2 and /%s/ (log %s)\n' "$name" "$rc" "$pattern" "$log"
    tail -5 "$log" | sed 's/^/     /'
  fi
}

# deadlock_same NAME COMMAND...: the run must deadlock (exit 1, packets left)
# with both models still agreeing on every cycle (mismatches 0).
deadlock_same() {
  local name=$1
  shift
  n=$((n + 1))
  local log="$LOG/$n.log"
  "$@" > "$log" 2>&1
  local rc=$?
  if [ "$rc" -eq 1 ] && grep -q "mismatches 0" "$log" && grep -q "NOT drained" "$log"; then
    pass=$((pass + 1))
    printf 'PASS %-64s (%s)\n' "$name" "$(grep -m1 'cycles compared' "$log" | sed 's/^ *//')"
  else
    fail=$((fail + 1))
    printf 'FAIL %-64s exit %d (log %s)\n' "$name" "$rc" "$log"
    tail -15 "$log" | sed 's/^/     /'
  fi
}

cosim() {  # cosim VCS VSEED ARGS...
  local v=$1 vs=$2
  shift 2
  "$BUILD/rtl/p5-v$v/Vcosim" --vcs "$v" --quiet "$@" "+verilator+seed+$vs"
}

vseed=1
next_vseed() { vseed=$((vseed % 7 + 1)); }

echo "== co-simulation: C model against RTL, every cycle =="
for v in 1 2 3; do
  for r in xy west_first; do
    for t in uniform_random bit_complement hotspot; do
      next_vseed
      run "mesh2x2 $v VC $r $t 0.6" 0 cosim $v $vseed --topo mesh2x2 --routing $r --traffic $t \
        --rate 0.6 --cycles 3000 --seed $((v * 10 + vseed))
    done
    for spec in "uniform_random 0.3" "transpose 0.3" "tornado 0.4" "neighbor 0.5" "shuffle 0.3"; do
      set -- $spec
      next_vseed
      run "mesh4x4 $v VC $r $1 $2" 0 cosim $v $vseed --topo mesh4x4 --routing $r --traffic $1 \
        --rate $2 --cycles 5000 --seed $((v + vseed))
    done
    for spec in "uniform_random 0.1 10000" "uniform_random 0.6 4000" "transpose 0.2 5000" \
                "bit_reverse 0.2 5000" "bit_rotation 0.3 4000"; do
      set -- $spec
      next_vseed
      run "mesh8x8 $v VC $r $1 $2" 0 cosim $v $vseed --topo mesh8x8 --routing $r --traffic $1 \
        --rate $2 --cycles $3 --seed $((v * 3 + vseed))
    done
  done
  next_vseed
  run "mesh3x5 $v VC west_first uniform_random 0.4 (W != H)" 0 cosim $v $vseed --topo mesh3x5 \
    --routing west_first --traffic uniform_random --rate 0.4 --cycles 4000
  run "mesh5x3 $v VC xy tornado 0.3 (W != H)" 0 cosim $v $vseed --topo mesh5x3 --routing xy \
    --traffic tornado --rate 0.3 --cycles 4000
  run "mesh4x4 $v VC xy trace tb/traces/mesh4x4_hotspot.trace" 0 cosim $v $vseed --topo mesh4x4 \
    --traffic trace:tb/traces/mesh4x4_hotspot.trace --cycles 1
  run "mesh4x4 $v VC long packets only, 0.8" 0 cosim $v $vseed --topo mesh4x4 --routing west_first \
    --long-frac 1 --rate 0.8 --cycles 3000
  # FAvORS-Min without SPIN: loads below its deadlocks, so every packet drains
  run "mesh8x8 $v VC favors_min uniform_random 0.05" 0 cosim $v $vseed --topo mesh8x8 \
    --routing favors_min --rate 0.05 --cycles 10000
  run "mesh4x4 $v VC favors_min transpose 0.1" 0 cosim $v $vseed --topo mesh4x4 \
    --routing favors_min --traffic transpose --rate 0.1 --cycles 5000
done
run "mesh8x8 2 VC west_first transpose 0.2, 50000 cycles" 0 cosim 2 3 --topo mesh8x8 \
  --routing west_first --traffic transpose --rate 0.2 --cycles 50000
run "mesh8x8 1 VC xy uniform_random 0.1, 30000 cycles, seed 7" 0 cosim 1 5 --topo mesh8x8 \
  --traffic uniform_random --rate 0.1 --cycles 30000 --seed 7

echo "== other topologies (FAvORS-Min routes any topology) =="
T=tb/topologies/mesh3x3_failed_links.topo
run "file:$T favors_min 0.1" 0 cosim 1 2 --topo file:$T --routing favors_min --rate 0.1 --cycles 5000
run "file:$T 2 VC favors_min hotspot 0.2" 0 cosim 2 3 --topo file:$T \
  --routing favors_min --traffic hotspot --rate 0.2 --cycles 5000
run "torus4x4 2 VC favors_min tornado 0.1" 0 cosim 2 4 --topo torus4x4 --routing favors_min \
  --traffic tornado --rate 0.1 --cycles 5000
run "ring-6 (3-port routers) favors_min 0.08" 0 "$BUILD/rtl/p3-v1/Vcosim" --vcs 1 --quiet \
  --topo ring-6 --routing favors_min --rate 0.08 --cycles 5000 +verilator+seed+5
deadlock_same "file:$T favors_min 0.3 deadlocks alike in both models" \
  "$BUILD/rtl/p5-v1/Vcosim" --vcs 1 --topo file:$T --routing favors_min --rate 0.3 \
  --cycles 5000 --drain-limit 3000 --quiet +verilator+seed+6
deadlock_same "mesh8x8 2 VC favors_min 0.25 deadlocks alike in both models" \
  "$BUILD/rtl/p5-v2/Vcosim" --vcs 2 --topo mesh8x8 --routing favors_min --rate 0.25 \
  --cycles 8000 --drain-limit 4000 --quiet +verilator+seed+2

echo "== bad input: a clear message and exit status 2 =="
D=cmodel/tests/data
expect_error "topology file with a port used twice" "bad_port_twice.topo:[0-9]+:" \
  "$BUILD/cmodel/spinsim" --topo file:$D/bad_port_twice.topo
expect_error "disconnected topology file" "not connected" \
  "$BUILD/cmodel/spinsim" --topo file:$D/bad_disconnected.topo
expect_error "missing topology file" "cannot open" "$BUILD/cmodel/spinsim" --topo file:/nonexistent.topo
expect_error "unknown topology name" "unknown topology" "$BUILD/cmodel/spinsim" --topo hypercube4
expect_error "trace with decreasing cycles" "bad_decreasing.trace:[0-9]+:" \
  "$BUILD/cmodel/spinsim" --topo mesh8x8 --traffic trace:$D/bad_decreasing.trace
expect_error "trace naming a node outside the mesh" "mesh4x4_hotspot.trace:[0-9]+:" \
  "$BUILD/cmodel/spinsim" --topo mesh2x2 --traffic trace:tb/traces/mesh4x4_hotspot.trace
expect_error "unknown traffic pattern" "unknown" "$BUILD/cmodel/spinsim" --traffic zigzag
expect_error "pattern needing 2^k nodes on 3x3" "power-of-two" "$BUILD/cmodel/spinsim" --topo mesh3x3 --traffic transpose
expect_error "rate out of range" "rate" "$BUILD/cmodel/spinsim" --rate 1.5
expect_error "non-numeric cycles" "cycles" "$BUILD/cmodel/spinsim" --cycles 10k
expect_error "VC count out of range" "vcs" "$BUILD/cmodel/spinsim" --vcs 5
expect_error "unknown routing" "routing" "$BUILD/cmodel/spinsim" --routing zigzag
expect_error "unknown option" "unknown option" "$BUILD/cmodel/spinsim" --frobnicate
expect_error "xy routing on a ring" "mesh" "$BUILD/cmodel/spinsim" --topo ring-6
expect_error "link latency 2 (not built yet)" "latency" \
  "$BUILD/cmodel/spinsim" --topo file:$D/good.topo --routing west_first
expect_error "co-simulation built for 1 VC, run with 2" "built for 5-port routers with 1 VC" \
  "$BUILD/rtl/p5-v1/Vcosim" --topo mesh4x4 --vcs 2
expect_error "make sim VCS=7" "VCS=7" make --no-print-directory sim VCS=7
expect_error "make sim WAVES=yes" "WAVES=yes" make --no-print-directory sim WAVES=yes
expect_error "make sim TOPO=mesh0x4" "mesh0x4|W and H|width" make --no-print-directory sim TOPO=mesh0x4

expect_error "spinsim --spin 2" "spin" "$BUILD/cmodel/spinsim" --spin 2
expect_error "spinsim --tdd 1" "tdd" "$BUILD/cmodel/spinsim" --spin 1 --tdd 1

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
