"""Every target `make help` lists is run by `make test`, or this file says
why not (issue: a broken `make bench` went unnoticed because nothing ran it).

The table RUN_BY says, for each target of the Makefile and its fragments,
how make test runs it: as one of its steps (TEST_STEP_NAMES), through
another target that make test runs, from a test file (which must name the
target in a make call), here (the quick runs below), or not at all, with
the reason.  The checks fail when a target has no row, when a row points at
a step, a target or a test that does not run it, or when a quick run breaks.
Part of make regress."""

import csv
import os
import re
import subprocess
from pathlib import Path

import pytest

from test_make import make_targets

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / os.environ.get("BUILD", "build")

STEP = "step"          # one of make test's steps
VIA = "via"            # a target that a step (or another row) runs: (VIA, target)
TEST = "test"          # a test file that calls make with it: (TEST, file, text of the call)
HERE = "here"          # one of the quick runs of this file
WHY = "not run"        # (WHY, reason)

RUN_BY = {
    "lint": (STEP,), "test-c": (STEP,), "sweep-check": (STEP,), "test-c-san": (STEP,),
    "fuzz-short": (STEP,), "unit-rtl": (STEP,), "formal": (STEP,), "waves-check": (STEP,),
    "regress": (STEP,),
    "test": (WHY, "it is make test itself (this file runs inside it)"),
    "deps": (VIA, "lint"),
    "lengths": (VIA, "lint"),
    "regress-build": (VIA, "regress"),
    "regress-run": (VIA, "regress"),
    "regress-top": (WHY, "regress-build builds the same two network tops (REGRESS_TOP, "
                         "REGRESS_TOP_L3) by their file names; regress-top is the name for them alone"),
    "fuzz-build": (VIA, "fuzz-short"),
    "unit-rtl-build": (WHY, "unit-rtl builds the same binaries (UNIT_BUILD/<config>/Vtest) as "
                            "prerequisites of its runs"),
    "all": (VIA, "regress-build"),
    "help": (TEST, "tb/regress/test_make.py", 'help_words("help")'),
    "synth-help": (TEST, "tb/regress/test_make.py", 'help_words("synth-help")'),
    "pictures": (TEST, "tb/regress/test_knobs.py", 'make("pictures", '),
    "sim": (TEST, "tb/regress/test_knobs.py", 'make("sim", '),
    "sim-run": (VIA, "sim"),
    "sim-sc": (HERE,),
    "sim-sc-run": (VIA, "sim-sc"),
    "sc-example": (HERE,),
    "sim-top": (HERE,),
    "bench": (HERE,),
    "sweep": (HERE,),
    "check": (WHY, "its steps are make test's or parts of them: test-c and lint are steps, "
                   "check-build builds a subset of regress-build's and unit-rtl's binaries, "
                   "unit-check runs one configuration of each unit bench (unit-rtl runs all) and "
                   "check-cosim runs the cases marked check (regress runs all)"),
    "check-build": (WHY, "a part of make check; see the row of check"),
    "check-cosim": (WHY, "a part of make check; see the row of check"),
    "unit-check": (WHY, "a part of make check; see the row of check"),
    "formal-list": (HERE,),
    "formal-selftest": (WHY, "each proof run again on a deliberate break (about 3 minutes more); "
                             "make formal proves the unbroken design"),
    "waves": (WHY, "opens GTKWave's window; waves-check runs the same scripts/gtkw.py views "
                   "against real waveforms without a display"),
    "fuzz": (WHY, "the long fuzz campaign (FUZZ_TIME per target); fuzz-short runs the same "
                  "targets for a short time"),
    "unit-rtl-clean": (WHY, "removes the unit benches' builds that make test has just made"),
    "clean": (WHY, "removes build/, where make test keeps its binaries"),
    "soak": (WHY, "the long co-simulation campaign, about an hour on 2 cores"),
    "mutate": (WHY, "unit benches, builds and six co-simulations a mutant: 4 to 7 minutes for 20 "
                    "to 25 with ccache warm, far more from scratch; test_mutate.py checks its draw "
                    "and options, test_knobs its make knobs"),
    "sweep-sat": (WHY, "runs of 10^6 cycles at 1x, 2x and 3x saturation, hours; the quick "
                       "sweep here runs the same script"),
    "bench-vflags": (WHY, "builds the co-simulation once per Verilator flag set (six builds)"),
    "ppa": (WHY, "needs make synth's summary of every configuration and a full make sweep "
                 "(scripts/test_ppa.py, in sweep-check, tests it on made-up inputs)"),
    "synth": (WHY, "Yosys and OpenSTA over every configuration, tens of minutes; "
                   "make synth CONFIG=<one> is the short form"),
    "synth-summary": (WHY, "the summary step of make synth (see its row)"),
    "synth-network": (WHY, "synthesizes a whole network, minutes per topology"),
    "synth-router": (WHY, "Yosys, OpenSTA and an activity run, 1.5 to 3 minutes a network; "
                          "test_knobs.py runs it with make -n (its parameters and refusals)"),
    "synth-selftest": (WHY, "synthesizes deliberately broken routers, minutes"),
    "synth-lint": (VIA, "lint"),
    "synth-jobs": (WHY, "the Yosys, OpenSTA and power runs of make synth, without its summary "
                        "(see the row of synth)"),
    "synth-force": (WHY, "make synth again without its cache"),
    "synth-cosim": (WHY, "needs the synthesized netlist of make synth"),
}


def step_names():
    text = (ROOT / "Makefile").read_text()
    m = re.search(r"^TEST_STEP_NAMES\s*:=\s*(.*)$", text, re.M)
    assert m, "Makefile: no TEST_STEP_NAMES"
    return m.group(1).split()


def test_every_target_has_a_row():
    targets = make_targets()
    missing = sorted(t for t in targets if t not in RUN_BY)
    assert not missing, "targets with no row in RUN_BY: " + ", ".join(missing)
    stale = sorted(t for t in RUN_BY if t not in targets)
    assert not stale, "rows for targets that do not exist: " + ", ".join(stale)


def test_rows_hold():
    steps = step_names()
    text = (ROOT / "Makefile").read_text()
    for t, row in RUN_BY.items():
        kind = row[0]
        if kind == STEP:
            assert t in steps, f"{t}: not a step of make test ({' '.join(steps)})"
        elif kind == VIA:
            parent = row[1]
            assert RUN_BY[parent][0] in (STEP, VIA, TEST, HERE), f"{t}: {parent} is not run"
            # the parent's rule names t (a prerequisite or a recursive make)
            rule = re.search(r"^%s\s*:[^=].*?(?=^\S)" % re.escape(parent), text, re.M | re.S)
            fragments = "".join(p.read_text() for p in ROOT.glob("*/*.mk")) + \
                "".join(p.read_text() for p in ROOT.glob("tb/*/*.mk"))
            rule = rule or re.search(r"^%s\s*:[^=].*?(?=^\S)" % re.escape(parent), fragments,
                                     re.M | re.S)
            assert rule, f"{t}: no rule for {parent}"
            body = rule.group(0)
            named = t in re.findall(r"[a-z][a-z0-9-]*", body) or \
                (t == "all" and "$(SPINSIM) $(SPINGEN)" in body) or \
                (t == "sim-run" and "sim-run" in body)
            assert named, f"{t}: {parent}'s rule does not run it:\n{body}"
        elif kind == TEST:
            assert row[2] in (ROOT / row[1]).read_text(), f"{t}: {row[1]} has no {row[2]}"
        elif kind == WHY:
            assert len(row[1]) > 20, f"{t}: say why it is not run"
        elif kind == HERE:
            assert "make(\"%s\"" % t in Path(__file__).read_text(), f"{t}: no quick run here"


def make(*args, timeout=900):
    argv = ["make", "--no-print-directory"] + list(args)
    if BUILD != ROOT / "build":
        argv.append(f"BUILD={os.environ['BUILD']}")
    env = dict(os.environ)
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(k, None)
    p = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors="replace", env=env, timeout=timeout)
    return p.returncode, p.stdout


def test_formal_list_names_the_proofs():
    rc, out = make("formal-list")
    assert rc == 0, out
    assert re.search(r"^job\s+spin_fsm_p5_v1\b", out, re.M), out


def test_bench_quick_reports_both_simulators():
    """make bench BENCH_QUICK=1 (the co-simulation binary is regress-build's)."""
    rc, out = make("bench", "BENCH_QUICK=1")
    assert rc == 0, out
    rows = list(csv.DictReader(open(BUILD / "bench" / "quick" / "bench.csv")))
    assert {r["sim"] for r in rows} == {"spinsim", "cosim", "cosim2"}, rows
    for r in rows:
        assert float(r["sim_cycles_per_second"]) > 0, r
        assert 0 < float(r["throughput"]) <= float(r["rate"]) + 0.01, r
    md = (BUILD / "bench" / "quick" / "bench.md").read_text()
    assert "C model speed over co-simulation speed" in md, md
    assert "Co-simulation on 2 threads over 1 thread" in md, md


def test_sweep_quick_writes_its_tables(tmp_path):
    """make sweep SWEEP_QUICK=1 on one configuration and pattern."""
    rc, out = make("sweep", "SWEEP_QUICK=1", "SWEEP_CONFIGS=xy_1vc,fmin_1vc_spin",
                   "SWEEP_TRAFFIC=transpose", "SWEEP_MODES=live", "SWEEP_JOBS=2")
    assert rc == 0, out
    sat = (BUILD / "sweep" / "quick" / "saturation.md").read_text()
    assert "transpose" in sat and "XY, 1 VC" in sat, sat
    assert (BUILD / "sweep" / "quick" / "latency_transpose.png").stat().st_size > 0


def test_sim_top_compares_the_generated_network():
    """make sim-top on the regression's mesh3x3 network top (2 VCs)."""
    rc, out = make("sim-top", "TOPO=mesh3x3", "VCS=2", "ROUTING=west_first", "CYCLES=3000")
    assert rc == 0, out
    assert re.search(r"mismatches 0\b", out), out
    assert "(drained)" in out, out


def test_sim_sc_compares():
    """make sim-sc on the SystemC build regress-build made; past saturation
    with window-gated admission, each router's admission set every cycle."""
    rc, out = make("sim-sc", "TOPO=mesh4x4", "CYCLES=2000", "RATE=0.5", "ADMIT=2")
    assert rc == 0, out
    assert re.search(r"mismatches 0\b", out) and "(drained)" in out, out
    assert "admission gated by the window" in out, out


def test_sim_sc_throttle_compares():
    """make sim-sc with the recovery throttle turning on and off (an epoch
    of 32 cycles on a 1-VC mesh with 3-cycle links in the paper mode): each
    router's admission and occupancy admission set every cycle."""
    rc, out = make("sim-sc", "TOPO=mesh3x3@3", "SPIN_MODE=paper", "RATE=0.5", "CYCLES=4000",
                   "THROTTLE=32", "SEED=6")
    assert rc == 0, out
    assert re.search(r"mismatches 0\b", out) and "(drained)" in out, out
    m = re.search(r"recovery throttle +on (\d+) of \d+ cycles, turned on (\d+) times", out)
    assert m and int(m.group(1)) > 0 and int(m.group(2)) >= 3, out


def test_sc_example_runs():
    """make sc-example with its default arguments."""
    rc, out = make("sc-example")
    assert rc == 0, out
    assert re.search(r"arrived (\d+) \(all, once each\), errors 0", out), out


def test_sim_build_knobs():
    """PGO=1 and NATIVE=1, make sim's build knobs (docs/usage.md): make -n
    shows the profile-guided build (-fprofile-generate, a training run,
    -fprofile-use) and -march=native, each in a directory of its own; the
    default build has neither; other values stop make (exit 2, naming the
    knob).  The builds themselves are measured in docs/results.md."""
    rc, out = make("-n", "-B", "PGO=1", "NATIVE=1", "sim-run")
    assert rc == 0, out
    assert "rtl-pgo-native/p5-v1/Vcosim" in out, out
    build = out.find("verilator --cc")     # after the stamp, which lists the flags
    gen, train, use = (out.find(w, build) for w in ("-fprofile-generate", "--cycles 5000",
                                                    "-fprofile-use"))
    assert 0 <= build < gen < train < use, out
    assert "-march=native" in out, out
    rc, out = make("-n", "-B", "sim-run")
    assert rc == 0 and "rtl/p5-v1/Vcosim" in out, out
    assert "fprofile" not in out and "march=native" not in out, out
    for bad in ("PGO=2", "NATIVE=yes"):
        rc, out = make("help", bad)
        assert rc == 2 and bad in out and "expected" in out, (bad, out)
