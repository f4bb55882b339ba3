"""Make knobs, output files and exit statuses (docs/usage.md, "How the knobs
are checked" and "Output files and exit statuses").  Part of make regress.

- No way in through a knob: every knob of make help, of scripts/eval.mk, of
  synth/synth.mk and ARGS is given values that a shell would run (`;`,
  quotes, backticks, `$(...)`, a newline, blanks): make stops with exit
  status 2 naming the knob, and the command in the value never runs.  A
  file name may hold any of those characters: it reaches the binary whole.
- Outputs never stale: a run that is refused leaves no summary, record or
  picture of an earlier run; a failed run leaves its own.
- Exit statuses: 2 only before the run, 1 for a run that failed, also when
  its files cannot be written at its end.
- Link failures: 256 faults on a 64x64 mesh after the end of a short run
  cost no table (memory), fault files take long comments.
"""

import ast
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / os.environ.get("BUILD", "build")
SPINSIM = BUILD / "cmodel" / "spinsim"
COSIM = BUILD / "rtl" / "p5-v1" / "Vcosim"


def need(binary):
    if not binary.exists():
        pytest.fail(f"{binary} is not built: run make regress (it builds every binary the "
                    "cases use)", pytrace=False)


def make(*args, dry=False, env=None):
    """make (-n when dry) from the repository root; (status, output)."""
    argv = ["make", "--no-print-directory"] + (["-n"] if dry else []) + list(args)
    if BUILD != ROOT / "build":
        argv.append(f"BUILD={os.environ['BUILD']}")
    e = dict(os.environ, **(env or {}))
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):   # not the enclosing make's
        e.pop(k, None)
    p = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors="replace", env=e, timeout=600)
    return p.returncode, p.stdout


def payloads(marker):
    """Values a shell would run: each creates marker if anything runs it.  As
    make command-line text: `$$` is a `$` in the value."""
    m = shlex.quote(str(marker))
    return [
        f"1 ; touch {m} ; echo",
        f"1' ; touch {m} ; echo '",
        f'1" ; touch {m} ; echo "',
        f"`touch {m}`",
        f"1`touch {m}`",
        f"$$(touch {m})",
        f"1\ntouch {m}",
        f"1 && touch {m}",
        f"1|touch {m}",
        "1 2",
        "1 ",
    ]


# knob -> (goal, make -n?, base arguments).  A run with SEED=1 etc. of the
# base arguments is tiny if a check let a value through.
TINY = ["TOPO=mesh2x2", "CYCLES=10"]
MAIN_KNOBS = ["TOPO", "ROUTING", "VCS", "TRAFFIC", "RATE", "LONG_FRAC", "CYCLES", "DRAIN_LIMIT", "SEED", "WAVES",
              "SPEED", "VSEED", "SPIN", "TDD", "SPIN_MODE", "ADMIT", "REROUTE", "ADOPT", "ADMIT_OCC",
              "WINDOW", "WINDOW_SLACK", "EARLY_CREDIT", "WINDOW_NOTICE", "THROTTLE", "MIN_CYCLES", "PGO", "NATIVE",
              "FAULTS",
              "VIEW", "ROUTER", "WAVE_FROM", "WAVE_TO", "PORTS", "REGRESS_JOBS", "TEST_STEPS",
              "UNIT_SEEDS", "UNIT_CYCLES", "FUZZ_TIME", "FUZZ_SHORT", "SC_ARGS", "BUILD", "THREADS"]
EVAL_KNOBS = [("sweep", k) for k in ("SWEEP_CYCLES", "SWEEP_TRAFFIC", "SWEEP_CONFIGS", "SWEEP_MODES",
                                     "SWEEP_QUICK", "SWEEP_JOBS", "SWEEP_SAT_CYCLES",
                                     "SWEEP_SAT_SEEDS", "SWEEP_SAT_DRAIN", "SWEEP_ENGINE",
                                     "SWEEP_FAULTS")] + [("ppa", "PPA_MODE")] + \
             [("bench", "BENCH_RUNS"), ("bench", "BENCH_QUICK"), ("bench-vflags", "VFLAGS_VARIANTS")] + \
             [("mutate", "MUTATE_SEED"), ("mutate", "MUTATE_COUNT")]
SYNTH_KNOBS = [("synth", k) for k in ("CONFIG", "SYNTH_JOBS", "SYNTH_DEDUP", "SYNTH_NET_FLAT", "SYNTH_EARLY",
                                      "SYNTH_COMPARE", "SYNTH_SPIN_PAIRS", "SYNTH_RTL_DIR")] + \
              [("synth-network", "TOPO"), ("synth-network", "VCS")] + \
              [("synth-router", k) for k in ("TOPO", "TRAFFIC", "FAULTS", "SYNTH_SHOW")] + \
              [("synth-router-run", "SYNTH_ROUTER_PARAMS")]


def refused(rc, out, knob, marker):
    assert not marker.exists(), f"{knob}: the command in the value ran:\n{out}"
    assert rc == 2, f"{knob}: exit status {rc}, want 2:\n{out}"
    assert f"{knob}=" in out and ("expected" in out or "unknown" in out), out


@pytest.mark.parametrize("knob", MAIN_KNOBS)
def test_main_knob_refuses_shell_text(knob, tmp_path):
    """Every knob of the Makefile, every payload: exit 2 at once, nothing runs.
    `pictures` would run the C model if a value got through."""
    need(SPINSIM)
    marker = tmp_path / "ran"
    for v in payloads(marker):
        if knob in ("UNIT_SEEDS", "SC_ARGS") and v in ("1 2", "1 "):
            continue   # lists of words: blanks separate them
        rc, out = make("pictures", *TINY, f"{knob}={v}")
        refused(rc, out, knob, marker)


@pytest.mark.parametrize("goal,knob", EVAL_KNOBS + SYNTH_KNOBS)
def test_fragment_knob_refuses_shell_text(goal, knob, tmp_path):
    """The knobs of scripts/eval.mk and synth/synth.mk, checked for their
    targets (make -n: a value let through would start hours of work)."""
    marker = tmp_path / "ran"
    for v in payloads(marker):
        if v in ("1 2", "1 ") and knob in ("SWEEP_TRAFFIC", "SWEEP_CONFIGS", "SWEEP_MODES", "SWEEP_SAT_SEEDS",
                                          "VFLAGS_VARIANTS", "CONFIG", "SYNTH_COMPARE", "SYNTH_SPIN_PAIRS",
                                          "SYNTH_ROUTER_PARAMS"):
            continue   # lists: blanks separate names (an unknown name is refused: test_knob_classes)
        rc, out = make(goal, f"{knob}={v}", dry=True)
        refused(rc, out, knob, marker)


@pytest.mark.parametrize("knob,bad,word", [
    # numbers: ranges, forms
    ("VCS", "0", "VCS=0: expected 1, 2, 3 or 4"), ("VCS", "5", "VCS=5"), ("VCS", "01", "VCS=01"),
    ("CYCLES", "0", "CYCLES=0"), ("CYCLES", "1000000000000001", "CYCLES=1000000000000001"),
    ("CYCLES", "10k", "CYCLES=10k"), ("CYCLES", "-5", "CYCLES=-5"),
    ("DRAIN_LIMIT", "1000000000000001", "DRAIN_LIMIT=1000000000000001"), ("DRAIN_LIMIT", "1e5", "DRAIN_LIMIT=1e5"), ("SEED", "18446744073709551616", "SEED="),
    ("TDD", "1", "TDD=1"), ("TDD", "32769", "TDD=32769"), ("VSEED", "0", "VSEED=0"),
    ("VSEED", "2147483648", "VSEED=2147483648"), ("RATE", "1.5", "RATE=1.5"), ("RATE", "1e-1", "RATE=1e-1"),
    ("RATE", "0.1.2", "RATE=0.1.2"), ("RATE", ".", "RATE=."), ("LONG_FRAC", "2", "LONG_FRAC=2"),
    ("WAVES", "2", "WAVES=2"), ("ROUTER", "65536", "ROUTER=65536"), ("PORTS", "17", "PORTS=17"),
    ("ADMIT", "3", "ADMIT=3: expected 0, 1 or 2"),
    ("THROTTLE", "8", "THROTTLE=8: expected 0 or an epoch of 16 to 1048576 cycles"),
    ("THROTTLE", "1048577", "THROTTLE=1048577: expected 0 or an epoch of 16 to 1048576 cycles"),
    ("REROUTE", "2", "REROUTE=2: expected 0 or 1"), ("MIN_CYCLES", "2", "MIN_CYCLES=2: expected 0 or 1"),
    # names
    ("ROUTING", "XY", "ROUTING=XY: expected xy, west_first"), ("SPIN_MODE", "fast", "SPIN_MODE=fast"),
    ("VIEW", "all", "VIEW=all"), ("TRAFFIC", "zigzag", "TRAFFIC=zigzag"),
    ("TRAFFIC", "hotspot:x", "TRAFFIC=hotspot:x"), ("TRAFFIC", "trace:", "TRAFFIC=trace:: expected trace:PATH"),
    ("TOPO", "file:", "TOPO=file:: expected file:PATH"), ("TOPO", "mesh4x4;x", "TOPO=mesh4x4;x"),
    ("REGRESS_JOBS", "many", "REGRESS_JOBS=many"),
    # lists
    ("TEST_STEPS", "lint bogus", "TEST_STEPS=lint bogus: unknown bogus"), ("UNIT_SEEDS", "1,x", "UNIT_SEEDS=1,x"),
    # FAULTS: the inline form
    ("FAULTS", "1000@5:1,", "FAULTS=1000@5:1,"), ("FAULTS", "1000@5", "FAULTS=1000@5"),
    ("FAULTS", "1000@5:1,,2000@6:1", "FAULTS="), ("FAULTS", "file:", "FAULTS=file:: expected file:PATH"),
    # a value that holds control characters is not echoed to the terminal
    ("SEED", "1\x1b[2J", "SEED=(a value with control or non-ASCII characters, not shown)"),
])
def test_knob_classes(knob, bad, word):
    rc, out = make("pictures", *TINY, f"{knob}={bad}", dry=True)
    assert rc == 2 and word in out and "Stop." in out, out
    assert "\x1b" not in out


def test_good_values_pass():
    rc, out = make("pictures", "TOPO=mesh4x4@2", "ROUTING=west_first", "VCS=4", "TRAFFIC=hotspot:3",
                   "RATE=.5", "LONG_FRAC=1", "CYCLES=1000000000000000", "SEED=18446744073709551615",
                   "TDD=32768", "VSEED=2147483647", "FAULTS=10@5:1,20@6:3", "REGRESS_JOBS=logical",
                   "TEST_STEPS=lint,regress", "UNIT_SEEDS=1,2 3", "ADMIT=2", "THROTTLE=16", dry=True)
    assert rc == 0, out
    assert "--faults \"$SPIN_NOC_FAULTS\"" in out and "--seed 18446744073709551615" in out, out
    assert "--drain-limit" not in out, out
    rc, out = make("pictures", "DRAIN_LIMIT=1000000000000000", dry=True)
    assert rc == 0 and "--drain-limit 1000000000000000" in out, out
    rc, out = make("pictures", "TDD=auto", dry=True)
    assert rc == 0 and "--tdd auto" in out, out
    rc, out = make("pictures", "TDD=cover", dry=True)
    assert rc == 0 and "--tdd cover" in out, out
    rc, out = make("pictures", "TDD=auto cover", dry=True)
    assert rc != 0 and "TDD" in out, out
    rc, out = make("sweep", "SWEEP_TRAFFIC=tornado,neighbor", "SWEEP_SAT_SEEDS=3 4", "SWEEP_MODES=paper",
                   dry=True)
    assert rc == 0, out
    rc, out = make("synth", "CONFIG=wf_1vc xy_1vc", "SYNTH_JOBS=1", dry=True)
    assert rc == 0, out


def test_synth_router_is_sized_by_the_network():
    """make synth-router takes its parameters from spingen --router-params and
    make sim's knobs (make -n: the Yosys command it would run), and refuses a
    radix the RTL does not take and a t_DD cover past 32768."""
    rc, out = make("synth-router", "TOPO=dragonfly-4-2-2@4", "VCS=2", "ROUTING=favors_nmin",
                   "TDD=cover", "EARLY_CREDIT=1", dry=True)
    assert rc == 0, out
    want = ("-chparam NumPorts 7 ", "-chparam NumNics 2 ", "-chparam NumVcs 2 ", "-chparam IdW 6 ",
            "-chparam XlatW 2 ", "-chparam Spin 1 ", "-chparam SmPipe 2 ", "-chparam EarlyCredit 1 ",
            "-chparam Nmin 1")
    for w in want:
        assert w in out, f"{w!r} not in:\n{out}"
    assert "NumPorts 5" not in out, out
    assert "p7-v2-n2/Vcosim" in out and "--topo dragonfly-4-2-2@4" in out and "--tdd cover" in out, out
    rc, out = make("synth-router", "TOPO=dragonfly-2-8-16", dry=True)
    assert rc == 2 and "radix" in out, out
    rc, out = make("synth-router", "TOPO=dragonfly-8-4-4@100", "TDD=cover", dry=True)
    assert rc == 2 and "over 32768" in out, out


def test_help_and_clean_are_safe(tmp_path):
    """make help prints knob values (a file name as it is, nothing run); make
    clean checks BUILD, which its recipe removes."""
    marker = tmp_path / "ran"
    topo = f"file:a b'c\"$$(touch {marker})`touch {marker}`.topo"
    rc, out = make("help", f"TOPO={topo}", f"TRAFFIC=trace:x;touch {marker}")
    assert rc == 0 and not marker.exists(), out
    assert f"TOPO=file:a b'c\"$(touch {marker})`touch {marker}`.topo" in out, out
    rc, out = make("help", "VCS=7")
    assert rc == 2 and "VCS=7" in out, out
    for v in (f"build ; touch {marker}", f"build`touch {marker}`", "build\nx", "a b"):
        rc, out = make("clean", f"BUILD={v}", dry=True)
        refused(rc, out, "BUILD", marker)


def test_the_issue_injection_creates_nothing(tmp_path):
    """Issue 32: make pictures ... 'SEED=1 ; touch /tmp/x ; echo' ran touch
    and exited 0."""
    need(SPINSIM)
    marker = tmp_path / "x"
    rc, out = make("pictures", "TOPO=mesh4x4", "CYCLES=2000", f"SEED=1 ; touch {marker} ; echo")
    assert rc == 2 and not marker.exists(), out
    assert "SEED=1 ; touch" in out and "expected a seed" in out, out


def test_file_names_reach_the_binary_whole(tmp_path):
    """TOPO=file:, TRAFFIC=trace: and FAULTS=file: with quotes, `$`,
    backticks, `;`, blanks and a newline in the path: the run uses those
    files, and runs nothing else."""
    need(SPINSIM)
    marker = f"knobs_ran_{os.getpid()}"    # in the repository root, make's directory
    d = tmp_path / "we ird"
    d.mkdir()
    name = f"a'b\"c$(touch {marker})`touch {marker}`;x\ny"
    topo = d / (name + ".topo")
    topo.write_text("routers 4\nlink 0:1 1:2\nlink 1:1 2:2\nlink 2:1 3:2\nlink 3:1 0:2\n"
                    "coord 0 0 0\ncoord 1 1 0\ncoord 2 1 1\ncoord 3 0 1\n")
    trace = d / (name + ".trace")
    trace.write_text("# a trace\n0 0 2 5\n3 1 3 1\n")
    faults = d / (name + ".faults")
    faults.write_text("# " + "long comment " * 200 + "\n5000 0:1  # " + "x" * 3000 + "\n")
    mk = lambda p: str(p).replace("$", "$$")   # make text
    rc, out = make("pictures", f"TOPO=file:{mk(topo)}", "ROUTING=favors_min", f"TRAFFIC=trace:{mk(trace)}",
                   f"FAULTS=file:{mk(faults)}", "CYCLES=100")
    assert rc == 0 and not (ROOT / marker).exists() and not (d / marker).exists(), out
    assert "packets              created 2, injected 2, delivered 2 (drained)" in out, out
    assert "link failures        0 of 1 applied" in out, out
    # <T>: every character but letters, digits and . _ - + @ turned into _
    tdir = BUILD / ("file_" + "".join("" if c == "\n" else c if c.isalnum() or c in "._-+@" else "_"
                                      for c in str(topo)))
    s = json.loads((tdir / "cmodel" / "summary.json").read_text())
    # (the summary keeps the first 127 characters of a topology's name)
    assert f"file:{topo}".startswith(s["topology"]) and len(s["topology"]) >= min(127, len(str(topo)))
    assert s["traffic"] == f"trace:{trace}" and s["passed"], s
    assert (tdir / "cmodel" / "deadlocks.png").exists() and (tdir / "cmodel" / "links.png").exists()
    subprocess.run(["rm", "-rf", str(tdir)])


def test_args_reach_pytest_as_words(tmp_path):
    """ARGS is split as a shell would split it, and nothing in it runs."""
    marker = tmp_path / "ran"
    show = [sys.executable, "-c", "import sys; print(repr(sys.argv[1:]))"]
    args = f"-k 'spin and 2vc' \"a b\" `touch {marker}` $(touch {marker}) x;y"
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "with_args.py"), "V", "ARGS", "--"] + show +
                       ["first"], env=dict(os.environ, V=args), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    assert p.returncode == 0 and not marker.exists(), p.stdout
    assert ast.literal_eval(p.stdout) == ["first", "-k", "spin and 2vc", "a b", "`touch", f"{marker}`",
                              "$(touch", f"{marker})", "x;y"], p.stdout
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "with_args.py"), "V", "ARGS", "--"] + show,
                       env=dict(os.environ, V="-k 'open"), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    assert p.returncode == 2 and "ARGS=-k 'open: No closing quotation" in p.stdout, p.stdout
    # through make: pytest gets the words (collection only)
    rc, out = make("regress-run", "REGRESS_JOBS=0", "ARGS=--co -q -k 'waves_window and from_to'")
    assert rc == 0 and "test_make.py::test_waves_window_from_to" in out, out
    rc, out = make("regress-run", "REGRESS_JOBS=0", f"ARGS=--co -q `touch {marker}` $$(touch {marker}) ';'")
    assert rc != 0 and not marker.exists(), out
    assert "not found: " in out and "`touch" in out, out
    rc, out = make("regress-run", "REGRESS_JOBS=0", "ARGS=-k 'open")
    assert rc == 2 and "No closing quotation" in out, out


# ---- outputs never stale ----

def plant(paths):
    for p in paths:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text('{"stale": true, "passed": true}\n')


def test_refused_pictures_leave_nothing():
    """Issue 32: a good run, then a refused one (a fault on a port without a
    link): the second exits 2 and leaves no summary, record or picture."""
    need(SPINSIM)
    topo = "mesh4x4@1"            # a directory of its own (build/mesh4x4@1/)
    out_dir = BUILD / topo / "cmodel"
    files = [out_dir / f for f in ("summary.json", "deadlocks.json", "links.json", "deadlocks.png",
                                   "links.png")]
    rc, out = make("pictures", f"TOPO={topo}", "CYCLES=2000", "RATE=0.3", "FAULTS=1000@5:1,1500@6:3")
    assert rc == 0 and all(f.exists() for f in files), out
    rc, out = make("pictures", f"TOPO={topo}", "CYCLES=2000", "FAULTS=1000@0:2")
    assert rc == 2 and "router 0 port 2 of mesh4x4@1 has no link" in out, out
    assert not [f for f in files if f.exists()], out
    # refused by make itself (a knob), or by the binary (a file it reads)
    for bad in ("RATE=2", "SEED=1;x", "TRAFFIC=trace:/nonexistent.trace"):
        plant(files)
        rc, out = make("pictures", f"TOPO={topo}", bad)
        assert rc == 2 and not [f for f in files if f.exists()], (bad, out)
    # make -n runs nothing, and removes nothing
    plant(files)
    rc, out = make("pictures", f"TOPO={topo}", "RATE=2", dry=True)
    assert rc == 2 and all(f.exists() for f in files), out


def test_failed_pictures_leave_their_own_record():
    """A run that fails (exit 1) keeps its own summary, record and pictures."""
    need(SPINSIM)
    topo = "mesh3x3@1"
    out_dir = BUILD / topo / "cmodel"
    plant([out_dir / "summary.json"])
    rc, out = make("pictures", f"TOPO={topo}", "SPIN=0", "SPIN_MODE=paper", "RATE=0.6", "CYCLES=3000")
    assert rc == 2 and "Error 1" in out, out
    s = json.loads((out_dir / "summary.json").read_text())
    assert s["passed"] is False and not s["drained"] and s["topology"] == topo, s
    assert (out_dir / "deadlocks.png").exists() and (out_dir / "links.png").exists()


def test_refused_sim_leaves_nothing():
    """make sim: the summary, the record, the pictures and the waveform of an
    earlier run go before the run; a refused one leaves none."""
    need(COSIM)
    topo = "mesh4x4@1"
    d = BUILD / topo
    files = [d / f for f in ("summary.json", "deadlocks.json", "links.json", "deadlocks.png", "links.png")] + \
            [ROOT / "waves" / f"{topo}.fst", ROOT / "waves" / f"{topo}.deadlocks.json"]
    plant(files)
    rc, out = make("sim", f"TOPO={topo}", "CYCLES=100", "FAULTS=1000@0:2", "WAVES=1")
    assert rc == 2 and "has no link" in out, out
    assert not [f for f in files if f.exists()], out


# ---- exit statuses and output files of the binaries ----

def run(argv, cwd=None):
    p = subprocess.run([str(a) for a in argv], cwd=cwd or ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace", timeout=600)
    return p.returncode, p.stdout


SMALL = ["--topo", "mesh4x4", "--cycles", "300", "--quiet"]
# fails: no SPIN, the paper's router far past saturation, a short drain limit
FAILS = ["--topo", "mesh4x4", "--routing", "favors_min", "--rate", "0.6", "--cycles", "2000",
         "--mode", "paper", "--drain-limit", "200", "--quiet"]


@pytest.mark.parametrize("binary", ["spinsim", "cosim"])
def test_outputs_checked_before_the_run(binary, tmp_path):
    exe = SPINSIM if binary == "spinsim" else COSIM
    need(exe)
    a = tmp_path / "summary.json"
    # a file of an earlier run goes as soon as the options are read, even
    # when the run is refused after that
    plant([a])
    rc, out = run([exe, "--topo", "mesh0x4", "--json", a])
    assert rc == 2 and "width must be >= 1" in out and not a.exists(), out
    for opt, path, why in (("--json", tmp_path, "is a directory"),
                           ("--deadlocks", tmp_path / "no" / "d.json", "No such file or directory"),
                           ("--links", a / "x.json", "Not a directory"),
                           ("--json", "", "an empty file name")):
        plant([a])
        rc, out = run([exe] + SMALL + [opt, path])
        assert rc == 2 and f"error: {opt}: " in out and why in out, out
        assert "cycles simulated" not in out, out           # refused before the run
    rc, out = run([exe] + SMALL + ["--json", a, "--links", a])
    assert rc == 2 and "is also the --json file" in out, out
    if binary == "cosim":
        rc, out = run([exe] + SMALL + ["--waves", tmp_path / "no" / "w.fst"])
        assert rc == 2 and "error: --waves: cannot write" in out, out
        rc, out = run([exe] + SMALL + ["--waves-on-fail", tmp_path])
        assert rc == 2 and "error: --waves-on-fail: " in out and "is a directory" in out, out
        for bad in ("-5", "1x", "1000000000000001", ""):
            rc, out = run([exe] + SMALL + ["--trace-from", bad])
            assert rc == 2 and "--trace-from" in out, (bad, out)
    # no temporary file is left beside the outputs
    rc, out = run([exe] + SMALL + ["--json", a, "--deadlocks", tmp_path / "d.json"])
    assert rc == 0 and json.loads(a.read_text())["passed"], out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.json", "summary.json"]


@pytest.mark.parametrize("binary", ["spinsim", "cosim"])
def test_exit_status_of_a_run_whose_files_fail(binary, tmp_path):
    """/dev/full passes the check (a device, writable) and fails the write at
    the end: the run that passed exits 1 with the file named; a failed run
    stays 1; bad input stays 2."""
    exe = SPINSIM if binary == "spinsim" else COSIM
    need(exe)
    rc, out = run([exe] + SMALL + ["--json", "/dev/full"])
    assert rc == 1 and "error: --json: cannot write /dev/full: No space left on device" in out, out
    rc, out = run([exe] + FAILS + ["--json", "/dev/full", "--links", "/dev/full"])
    assert rc == 1 and "FAILED:" in out and "error: --links: cannot write /dev/full" in out, out
    rc, out = run([exe] + FAILS + ["--json", tmp_path / "s.json"])
    assert rc == 1 and json.loads((tmp_path / "s.json").read_text())["passed"] is False, out
    rc, out = run([exe] + SMALL + ["--json", "/dev/full", "--rate", "2"])
    assert rc == 2, out


def test_faults_given_twice_refused():
    need(SPINSIM)
    rc, out = run([SPINSIM] + SMALL + ["--faults", "100@5:1", "--faults", "200@6:1"])
    assert rc == 2 and "error: --faults given twice ('100@5:1', then '200@6:1')" in out, out
    rc, out = run([SPINSIM] + SMALL + ["--faults", "file:"])
    assert rc == 2 and "error: --faults (FAULTS): 'file:' without a path (give file:PATH)" in out, out


def test_faults_after_the_run_cost_no_tables(tmp_path):
    """mesh64x64, 256 faults after a 100-cycle run: the tables of every stage
    built before the run took 4.4 GB; now none is built (peak memory of the
    run, measured from a process of its own)."""
    need(SPINSIM)
    lines = []
    for k in range(256):   # four east links a row, at columns that vary by row
        lines.append("%d %d:1" % (1000 * (k + 1), 64 * (k // 4) + (k * 13 + (k // 4) * 7) % 63))
    f = tmp_path / "late.faults"
    f.write_text("\n".join(lines) + "\n")
    probe = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
             "print('maxrss_kb', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
             "sys.exit(r.returncode)")
    rc, out = run([sys.executable, "-c", probe, SPINSIM, "--topo", "mesh64x64", "--routing", "favors_min",
                   "--cycles", "100", "--faults", f"file:{f}"])
    assert rc == 0 and "link failures        0 of 256 applied" in out, out
    kb = int(out.split("maxrss_kb")[1].split()[0])
    assert kb < 1024 * 1024, f"{kb} kB: the fault tables were built before the run"
    # a stage that disconnects the network is still refused before the run,
    # naming its line
    f.write_text("# cut router 0 off\n10 0:1\n10 0:3   # both of its links\n")
    rc, out = run([SPINSIM, "--topo", "mesh64x64", "--routing", "favors_min", "--cycles", "100",
                   "--faults", f"file:{f}"])
    assert rc == 2 and f"{f}:3: with the links failed by cycle 10: mesh64x64: router 0 cannot reach " \
                       "router 1 (disconnected network)" in out, out
