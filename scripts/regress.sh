#!/usr/bin/env bash
# Co-simulation regression: runs the C model and the RTL in lockstep over a
# matrix of meshes, VC counts, routings, traffic patterns, loads and seeds,
# plus the bad-input cases that must fail cleanly.  Called by `make regress`
# (part of `make test`) after it has built the co-simulation binaries:
#   build/rtl/p5-v{1,2,3,4}/Vcosim router array, 5-port routers
#   build/rtl/p3-v1/Vcosim         3-port routers (rings)
#   build/rtl/p6-v2/Vcosim         6-port routers, 2 VCs (tb/scenarios/theta.topo)
#   build/cmodel/spinsim
# Prints one line per case and ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
LOG=$BUILD/regress
mkdir -p "$LOG"
n=0
rm -f "$LOG"/*.pass "$LOG"/*.fail
# Cases run JOBS at a time (default: one per core); each prints its line when
# it ends, so the order of the lines varies.
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
spawn() {
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  "$@" &
}
verdict() {  # verdict N ok|fail LINE...
  local k=$1 v=$2
  shift 2
  printf '%s\n' "$@"
  if [ "$v" = ok ]; then : > "$LOG/$k.pass"; else : > "$LOG/$k.fail"; fi
}

# run NAME EXPECTED_STATUS COMMAND...: the command must exit with EXPECTED_STATUS.
run() { n=$((n + 1)); spawn run_case $n "$@"; }
run_case() {
  local k=$1 name=$2 want=$3
  shift 3
  local log="$LOG/$k.log" t0=$SECONDS
  "$@" > "$log" 2>&1
  local rc=$?
  if [ "$rc" -eq "$want" ]; then
    verdict $k ok "$(printf 'PASS %-64s %3ds' "$name" $((SECONDS - t0)))"
  else
    verdict $k fail "$(printf 'FAIL %-64s exit %d, expected %d (log %s)' "$name" "$rc" "$want" "$log")" \
      "$(tail -15 "$log" | sed 's/^/     /')"
  fi
}

# expect_error NAME PATTERN COMMAND...: exit 2 and a message matching PATTERN.
expect_error() { n=$((n + 1)); spawn expect_error_case $n "$@"; }
expect_error_case() {
  local k=$1 name=$2 pattern=$3
  shift 3
  local log="$LOG/$k.log"
  "$@" > "$log" 2>&1
  local rc=$?
  if [ "$rc" -eq 2 ] && grep -Eq "$pattern" "$log"; then
    verdict $k ok "$(printf 'PASS %-64s (%s)' "$name" "$(grep -Em1 "$pattern" "$log" | cut -c1-70)")"
  else
    verdict $k fail "$(printf 'FAIL %-64s exit %d, wanted 2 and /%s/ (log %s)' "$name" "$rc" "$pattern" "$log")" \
      "$(tail -5 "$log" | sed 's/^/     /')"
  fi
}

# deadlock_same NAME COMMAND...: the run must deadlock (exit 1, packets left at
# the drain limit, no other failure) with, in a co-simulation, both models
# still agreeing on every cycle (mismatches 0).
deadlock_same() { n=$((n + 1)); spawn deadlock_same_case $n "$@"; }
deadlock_same_case() {
  local k=$1 name=$2
  shift 2
  local log="$LOG/$k.log"
  "$@" > "$log" 2>&1
  local rc=$?
  if [ "$rc" -eq 1 ] && grep -q "NOT drained" "$log" &&
     grep -q "FAILED: packets left undelivered at the drain limit" "$log" &&
     { ! grep -q "cycles compared" "$log" || grep -q "mismatches 0" "$log"; }; then
    verdict $k ok "$(printf 'PASS %-64s (%s)' "$name" \
      "$(grep -m1 -E 'cycles compared|packets  ' "$log" | sed 's/^ *//')")"
  else
    verdict $k fail "$(printf 'FAIL %-64s exit %d (log %s)' "$name" "$rc" "$log")" \
      "$(tail -15 "$log" | sed 's/^/     /')"
  fi
}

# spin_resolves NAME MIN_SPINS COMMAND...: a run with SPIN on that drains
# (exit 0; in a co-simulation, mismatches 0) after at least MIN_SPINS spins,
# none of its recoveries spinning more than m-1 times for a loop of m routers.
spin_resolves() { n=$((n + 1)); spawn spin_resolves_case $n "$@"; }
spin_resolves_case() {
  local k=$1 name=$2 min=$3
  shift 3
  local log="$LOG/$k.log" t0=$SECONDS
  "$@" > "$log" 2>&1
  local rc=$? spins
  spins=$(sed -n 's/.* spins \([0-9]*\)$/\1/p' "$log" | head -1)
  if [ "$rc" -eq 0 ] && [ "${spins:-0}" -ge "$min" ] && grep -q "m-1 bound broken 0" "$log" &&
     { ! grep -q "cycles compared" "$log" || grep -q "mismatches 0" "$log"; }; then
    verdict $k ok "$(printf 'PASS %-64s %3ds (%s spins)' "$name" $((SECONDS - t0)) "$spins")"
  else
    verdict $k fail "$(printf 'FAIL %-64s exit %d, %s spins, wanted >= %d (log %s)' "$name" "$rc" "${spins:-no}" "$min" "$log")" \
      "$(tail -15 "$log" | sed 's/^/     /')"
  fi
}

# json_at_least NAME KEY MIN COMMAND...: the summary the run writes with
# --json must give KEY >= MIN (the run's exit status is not checked here).
json_at_least() { n=$((n + 1)); spawn json_at_least_case $n "$@"; }
json_at_least_case() {
  local k=$1 name=$2 key=$3 min=$4
  shift 4
  local log="$LOG/$k.log" got
  "$@" --json "$LOG/$k.json" > "$log" 2>&1
  got=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' \
        "$LOG/$k.json" "$key" 2>> "$log")
  if [ -n "$got" ] && [ "$got" -ge "$min" ] 2>/dev/null; then
    verdict $k ok "$(printf 'PASS %-64s (%s %s)' "$name" "$key" "$got")"
  else
    verdict $k fail "$(printf 'FAIL %-64s %s %s, wanted >= %d (log %s)' "$name" "$key" \
      "${got:-missing}" "$min" "$log")" "$(tail -5 "$log" | sed 's/^/     /')"
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

echo "== 4 VCs per port (the most a router takes) =="
run "mesh4x4 4 VC xy uniform_random 0.3" 0 cosim 4 3 --topo mesh4x4 --routing xy \
  --rate 0.3 --cycles 5000
run "mesh8x8 4 VC west_first bit_rotation 0.3" 0 cosim 4 5 --topo mesh8x8 --routing west_first \
  --traffic bit_rotation --rate 0.3 --cycles 4000
run "mesh4x4 4 VC escape uniform_random 0.7" 0 cosim 4 6 --topo mesh4x4 --routing escape \
  --rate 0.7 --cycles 4000

echo "== escape-VC routing (Duato: VC 0 west-first, the others minimal adaptive) =="
# Loads past saturation: the route set is re-tried every cycle, and every
# packet must still drain (the escape VC keeps the network deadlock-free).
for v in 2 3; do
  next_vseed
  run "mesh4x4 $v VC escape uniform_random 0.7" 0 cosim $v $vseed --topo mesh4x4 \
    --routing escape --rate 0.7 --cycles 4000 --seed $((v + 20))
  run "mesh4x4 $v VC escape tornado 0.5" 0 cosim $v $vseed --topo mesh4x4 --routing escape \
    --traffic tornado --rate 0.5 --cycles 4000 --seed $((v + 21))
  run "mesh8x8 $v VC escape transpose 0.4" 0 cosim $v $vseed --topo mesh8x8 --routing escape \
    --traffic transpose --rate 0.4 --cycles 3000 --seed $((v + 22))
  run "mesh3x5 $v VC escape tornado 0.5 (W != H)" 0 cosim $v $vseed --topo mesh3x5 \
    --routing escape --traffic tornado --rate 0.5 --cycles 4000 --seed $((v + 23))
done
run "mesh8x8 2 VC escape uniform_random 0.2, 20000 cycles" 0 cosim 2 4 --topo mesh8x8 \
  --routing escape --rate 0.2 --cycles 20000 --seed 9
# C model alone, far past saturation, several seeds and patterns: drains
for spec in "mesh8x8 2 uniform_random 0.9" "mesh8x8 3 transpose 0.9" "mesh8x8 2 tornado 0.9" \
            "mesh4x4 4 bit_reverse 0.9" "mesh6x3 2 hotspot 0.9"; do
  set -- $spec
  for s in 1 2 3; do
    run "$1 $2 VC escape $3 $4, seed $s, C model: drains" 0 "$BUILD/cmodel/spinsim" --quiet \
      --topo $1 --vcs $2 --routing escape --traffic $3 --rate $4 --cycles 5000 --seed $s \
      --drain-limit 400000
  done
done

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

echo "== SPIN: both models recover alike =="
# spin_resolves runs without --quiet: it reads the SPIN counters of the summary.
spincosim() {  # spincosim BINARY VCS VSEED ARGS...
  local bin=$1 v=$2 vs=$3
  shift 3
  "$bin" --vcs "$v" --spin 1 "$@" "+verilator+seed+$vs"
}
A1=$BUILD/rtl/p5-v1/Vcosim
A3=$BUILD/rtl/p3-v1/Vcosim
spin_resolves "ring-5 clockwise scenario, SPIN" 1 spincosim $A3 1 3 --topo ring-5 \
  --routing favors_min --traffic trace:tb/scenarios/ring5_clockwise.trace --cycles 1
deadlock_same "ring-5 clockwise scenario, no SPIN: deadlocks alike" "$A3" --vcs 1 --topo ring-5 \
  --routing favors_min --traffic trace:tb/scenarios/ring5_clockwise.trace --cycles 1 \
  --drain-limit 2000 --quiet +verilator+seed+4
spin_resolves "ring-6 favors_min 0.3, SPIN" 1 spincosim $A3 1 5 --topo ring-6 \
  --routing favors_min --rate 0.3 --cycles 5000
for s in 1 2 3; do
  spin_resolves "mesh4x4 1 VC favors_min 0.3 seed $s, SPIN" 5 spincosim $A1 1 $s --topo mesh4x4 \
    --routing favors_min --rate 0.3 --cycles 5000 --seed $s
done
deadlock_same "mesh4x4 1 VC favors_min 0.3, no SPIN: deadlocks alike" "$A1" --vcs 1 \
  --topo mesh4x4 --routing favors_min --rate 0.3 --cycles 5000 --drain-limit 3000 --quiet \
  +verilator+seed+2
# make sim's default run: it deadlocks without SPIN (37,237 of 170,971
# packets arrive) and drains with it
spin_resolves "mesh8x8 1 VC favors_min 0.08, 100000 cycles (make sim), SPIN" 2 spincosim \
  $A1 1 1 --topo mesh8x8 --routing favors_min --rate 0.08 --cycles 100000
spin_resolves "mesh8x8 1 VC favors_min 0.08, t_DD 32, SPIN" 0 spincosim $A1 1 7 \
  --topo mesh8x8 --routing favors_min --rate 0.08 --cycles 10000 --tdd 32
# neighbor traffic at 0.27 deadlocks often (4-router loops); at t_DD 32 the
# mesh stays live and drains (20 deadlocks resolved in these 50,000 cycles)
spin_resolves "mesh8x8 1 VC favors_min neighbor 0.27, t_DD 32, 50000 cycles, SPIN" 15 \
  spincosim $A1 1 1 --topo mesh8x8 --routing favors_min --traffic neighbor --rate 0.27 \
  --cycles 50000 --tdd 32
# The directed scenarios of docs/scenarios.md (their exact outcomes are checked
# on the C model by cmodel/tests/test_spin_scenarios.c): here both models must
# agree on every cycle of each, and drain after the spins the scenario needs.
A6=$BUILD/rtl/p6-v2/Vcosim
for spec in "theta_fig4 theta 2 1" "fig5a_case1 theta 2 1" "fig5a_case2 fig8 1 2" \
            "fig5b_case1 fig8 1 1" "fig5b_case2 fig8 1 1" "lasso_probe_mark lasso 1 1" \
            "fig8_kill_release fig8 1 1"; do
  set -- $spec
  bin=$A1
  [ "$2" = theta ] && bin=$A6
  spin_resolves "scenario $1 (file:tb/scenarios/$2.topo, $3 VC)" $4 spincosim $bin $3 2 \
    --topo file:tb/scenarios/$2.topo --routing favors_min --tdd 32 \
    --traffic trace:tb/scenarios/$1.trace --cycles 1
done
spin_resolves "scenario ring7_multispin (ring-7)" 2 spincosim $A3 1 3 --topo ring-7 \
  --routing favors_min --tdd 32 --traffic trace:tb/scenarios/ring7_multispin.trace --cycles 1
spin_resolves "scenario ring9_false_positive (ring-9)" 0 spincosim $A3 1 4 --topo ring-9 \
  --routing favors_min --tdd 16 --traffic trace:tb/scenarios/ring9_false_positive.trace --cycles 1
spin_resolves "scenario line4_eject_drop (file:tb/scenarios/line4.topo)" 0 spincosim $A3 1 5 \
  --topo file:tb/scenarios/line4.topo --routing favors_min --tdd 8 \
  --traffic trace:tb/scenarios/line4_eject_drop.trace --cycles 1
spin_resolves "scenario ring40_long_loop (ring-40, 40-hop loop)" 1 spincosim $A3 1 6 --topo ring-40 \
  --routing favors_min --tdd 32 --traffic trace:tb/scenarios/ring40_long_loop.trace --cycles 1
# SPIN on without deadlocks (deterministic routing, or loads below them): probes
# and kill_moves still take link slots, so timing changes; nothing may spin
for r in xy west_first; do
  run "mesh8x8 1 VC $r 0.3, SPIN on, congested, no deadlock" 0 spincosim $A1 1 2 --quiet \
    --topo mesh8x8 --routing $r --rate 0.3 --cycles 4000
done
for v in 2 3; do
  run "mesh4x4 $v VC favors_min 0.6, SPIN on" 0 spincosim $BUILD/rtl/p5-v$v/Vcosim $v $v --quiet \
    --topo mesh4x4 --routing favors_min --rate 0.6 --cycles 5000
  run "mesh8x8 $v VC favors_min 0.2, SPIN on" 0 spincosim $BUILD/rtl/p5-v$v/Vcosim $v $v --quiet \
    --topo mesh8x8 --routing favors_min --rate 0.2 --cycles 6000
done
# Past its saturation minimal adaptive routing with 4 VCs deadlocks often
# (106 resolved, some with 3 spins, in 13,550 cycles)
spin_resolves "mesh8x8 4 VC favors_min 0.4, t_DD 32, SPIN" 50 spincosim $BUILD/rtl/p5-v4/Vcosim 4 4 \
  --topo mesh8x8 --routing favors_min --rate 0.4 --cycles 2000 --tdd 32
# A jammed 1-VC mesh: routers frozen for others' recoveries leave on their
# own timeout (SPIN_RELEASE), which the C model must count (it counts 6)
JAM="--vcs 1 --spin 1 --topo mesh8x8 --routing favors_min --rate 0.2 --tdd 16 --cycles 5000"
JAM="$JAM --drain-limit 3000 --quiet"
json_at_least "jammed 1-VC mesh, C model: frozen routers time out" frozen_timeouts 1 \
  "$BUILD/cmodel/spinsim" $JAM
deadlock_same "mesh8x8 1 VC favors_min 0.2, t_DD 16, SPIN on, jammed: both models alike" \
  "$A1" $JAM +verilator+seed+3
deadlock_same "mesh8x8 2 VC favors_min 0.25, SPIN on: both models alike" \
  "$BUILD/rtl/p5-v2/Vcosim" --vcs 2 --spin 1 --topo mesh8x8 --routing favors_min --rate 0.25 \
  --cycles 6000 --drain-limit 3000 --quiet +verilator+seed+3
run "file:$T favors_min 0.3, SPIN on" 0 spincosim $A1 1 4 --quiet --topo file:$T \
  --routing favors_min --rate 0.3 --cycles 5000

echo "== liveness, C model: 1,000,000 cycles, 8x8, FAvORS-Min, 1 VC, 0.08 =="
# spin_resolves and deadlock_same on the C model alone (no co-simulation).
LIVE="--topo mesh8x8 --routing favors_min --vcs 1 --rate 0.08 --cycles 1000000 --drain-limit 20000"
deadlock_same "SPIN=0: deadlocks" "$BUILD/cmodel/spinsim" $LIVE --spin 0
for s in 1 2; do
  spin_resolves "SPIN=1, t_DD 32, seed $s: drains" 5 "$BUILD/cmodel/spinsim" $LIVE --spin 1 \
    --tdd 32 --seed $s
done
echo "== liveness, C model: 1,000,000 cycles, 8x8, FAvORS-Min, 1 VC, neighbor 0.27 =="
# Many deadlocks, and a network that stays live: 297 and 333 resolved
NEIGH="--topo mesh8x8 --routing favors_min --vcs 1 --traffic neighbor --rate 0.27"
NEIGH="$NEIGH --cycles 1000000 --drain-limit 20000"
deadlock_same "neighbor, SPIN=0: deadlocks" "$BUILD/cmodel/spinsim" $NEIGH --spin 0
for s in 1 2; do
  spin_resolves "neighbor, SPIN=1, t_DD 32, seed $s: drains" 200 "$BUILD/cmodel/spinsim" $NEIGH \
    --spin 1 --tdd 32 --seed $s
done

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
expect_error "link latency 3 (not built yet): file and line" \
  "good.topo:7: link latency 3 is not supported yet \(only 1\)" \
  "$BUILD/cmodel/spinsim" --topo file:$D/good.topo --routing west_first
expect_error "co-simulation built for 1 VC, run with 2" "built for 5-port routers with 1 VC" \
  "$BUILD/rtl/p5-v1/Vcosim" --topo mesh4x4 --vcs 2
expect_error "make sim VCS=7" "VCS=7" make --no-print-directory sim VCS=7
expect_error "make sim WAVES=yes" "WAVES=yes" make --no-print-directory sim WAVES=yes
expect_error "make sim SPEED=2" "SPEED=2" make --no-print-directory sim SPEED=2
expect_error "make sim SPEED=1 WAVES=1" "without waveforms" make --no-print-directory sim SPEED=1 WAVES=1
expect_error "make sim TOPO=mesh0x4" "mesh0x4|W and H|width" make --no-print-directory sim TOPO=mesh0x4

expect_error "escape routing with 1 VC" "error: --routing escape needs --vcs 2, 3 or 4" \
  "$BUILD/cmodel/spinsim" --routing escape --vcs 1
expect_error "escape routing with SPIN on: names --spin 0" "run it with --spin 0$" \
  "$BUILD/cmodel/spinsim" --routing escape --vcs 2 --spin 1
expect_error "escape routing on a torus" "meshes only" \
  "$BUILD/cmodel/spinsim" --routing escape --vcs 2 --topo torus4x4
expect_error "escape routing on a topology file: the escape VC's reason" \
  "escape routing applies to meshes only \(its escape VC, VC 0, is routed west-first\); 'file:.*' is a topology file" \
  "$BUILD/cmodel/spinsim" --routing escape --vcs 2 --topo file:tb/topologies/mesh3x3_failed_links.topo
expect_error "make sim ROUTING=escape VCS=1" "ROUTING=escape needs VCS" \
  make --no-print-directory sim ROUTING=escape VCS=1
expect_error "make sim ROUTING=escape SPIN=1" "use SPIN=0" \
  make --no-print-directory sim ROUTING=escape SPIN=1
expect_error "spinsim --spin 2" "spin" "$BUILD/cmodel/spinsim" --spin 2
expect_error "spinsim --tdd 1" "tdd" "$BUILD/cmodel/spinsim" --spin 1 --tdd 1
# cycles: at most 10^15 (traffic.h, SIM_MAX_CYCLE), so that no cycle count
# overflows; a long idle stretch is skipped, not simulated cycle by cycle
expect_error "trace packet at cycle 2^64-1" \
  "bad_cycle_max.trace:2: cycle '18446744073709551615' out of range \[0, 10\^15\]" \
  "$BUILD/cmodel/spinsim" --traffic trace:$D/bad_cycle_max.trace
expect_error "trace packet at cycle 10^15 + 1" \
  "bad_cycle_limit.trace:3: cycle '1000000000000001' out of range \[0, 10\^15\]" \
  "$BUILD/cmodel/spinsim" --traffic trace:$D/bad_cycle_limit.trace
expect_error "--cycles beyond 10^15" "error: --cycles: 2000000000000000 is more than 10\^15 cycles" \
  "$BUILD/cmodel/spinsim" --cycles 2000000000000000
expect_error "--drain-limit 2^64-1" "error: --drain-limit: 18446744073709551615 is more than 10\^15" \
  "$BUILD/cmodel/spinsim" --drain-limit 18446744073709551615
run "trace at cycles 10^12 and 10^15, C model: idle stretches skipped" 0 \
  timeout 60 "$BUILD/cmodel/spinsim" --quiet --topo mesh4x4 --traffic trace:$D/huge_gap.trace \
  --cycles 1 --warmup 0
run "trace at cycles 10^12 and 10^15, co-simulation: skipped in both models" 0 \
  timeout 60 "$BUILD/rtl/p5-v1/Vcosim" --vcs 1 --quiet --topo mesh4x4 --routing favors_min \
  --traffic trace:$D/huge_gap.trace --cycles 1 --warmup 0 +verilator+seed+2
# SPIN on: only whole periods of the rotating priority are skipped (the RTL
# counts them in ep_q/top_q); Fig. 5(a) case I four times, up to 10^15
spin_resolves "scenario fig5a_case1 x4, idle gaps up to 10^15, SPIN: skipped alike" 4 \
  timeout 60 "$BUILD/rtl/p6-v2/Vcosim" --vcs 2 --spin 1 --topo file:tb/scenarios/theta.topo \
  --routing favors_min --tdd 32 --traffic trace:$D/theta_idle_gaps.trace --cycles 1 \
  +verilator+seed+5
# raw control bytes of a bad file or argument are shown escaped (\xNN)
for f in bad_control.topo:--topo:file bad_control.trace:--traffic:trace; do
  IFS=: read -r file opt kind <<< "$f"
  run "control bytes of $file shown as \\xNN, none sent raw" 0 bash -c \
    '"$1" "$2" "$3" > /dev/null 2> "$4"; [ $? -eq 2 ] && grep -qF "\x1b" "$4" &&
     ! LC_ALL=C grep -q "[[:cntrl:]]" "$4"' _ \
    "$BUILD/cmodel/spinsim" "$opt" "$kind:$D/$file" "$LOG/ctl-$file.err"
done
expect_error "control bytes in an option value shown as \\xNN" "unknown topology 'hyper\\\\x1b\\[2J'" \
  "$BUILD/cmodel/spinsim" --topo "$(printf 'hyper\033[2J')"
# summary.json: string values escaped, so a path with " or \ is valid JSON
run "summary.json with \" and \\ in the trace path is valid JSON" 0 bash -c \
  'mkdir -p "$1" && cp tb/traces/mesh4x4_hotspot.trace "$1/$2" &&
   "$3" --topo mesh4x4 --traffic "trace:$1/$2" --cycles 1 --quiet --json "$1/s.json" &&
   python3 -c "import json, sys; t = json.load(open(sys.argv[1]))[\"traffic\"];
assert t == \"trace:\" + sys.argv[2], t" "$1/s.json" "$1/$2"' _ \
  "$LOG/json-path" 'a"b\c.trace' "$BUILD/cmodel/spinsim"

wait
pass=$(find "$LOG" -name '*.pass' | wc -l)
fail=$(find "$LOG" -name '*.fail' | wc -l)
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ $((pass + fail)) -eq "$n" ]
