"""make sweep through an external engine (scripts/sweep.py --engine): GNU
parallel on this machine, and the Slurm array task driven by hand, give the
same points.csv as the sweep's own pool; a corrupted result and a result of
another spinsim are refused and run again.  Part of make regress."""

import csv
import glob
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / os.environ.get("BUILD", "build")
SWEEP = [sys.executable, str(ROOT / "scripts" / "sweep.py"), "--spinsim", str(BUILD / "cmodel" / "spinsim"),
         "--configs", "xy_1vc,fmin_1vc_spin", "--modes", "live", "--traffic", "uniform_random,tornado",
         "--cycles", "400", "--rates", "0.1:0.9:0.4", "--post-saturation", "--sat-cycles", "500",
         "--sat-seeds", "1,2", "--jobs", "2"]
# Columns that differ between two runs of the same point.
VOLATILE = {"wall_seconds"}
ENV = {k: v for k, v in os.environ.items() if not k.startswith("SWEEP_")}


def sweep(out, *extra):
    return subprocess.run(SWEEP + ["--out", str(out)] + list(extra), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=ENV, timeout=600)


def points(out):
    with open(out / "points.csv", newline="") as f:
        rows = [{k: v for k, v in r.items() if k not in VOLATILE} for r in csv.DictReader(f)]
    return sorted(rows, key=lambda r: sorted(r.items()))


def slurm_rounds(out, tamper=None):
    """Runs the sweep with the Slurm engine, each round's array tasks by hand."""
    log = ""
    for _ in range(30):
        r = sweep(out, "--engine", "slurm")
        log += r.stdout
        if r.returncode == 0:
            return log
        assert r.returncode == 3, r.stdout
        jobs = out / "jobs.txt"
        n = len(jobs.read_text().splitlines())
        assert f"sbatch --array=1-{n} " in r.stdout, r.stdout
        for i in range(1, n + 1):
            t = subprocess.run(["bash", str(ROOT / "scripts" / "sweep_slurm.sh"), str(jobs)],
                               env=dict(ENV, SLURM_ARRAY_TASK_ID=str(i)), cwd=ROOT)
            assert t.returncode == 0
        if tamper:
            tamper(out)
            tamper = None
    raise AssertionError("the Slurm sweep did not finish in 30 rounds:\n" + log)


def test_engines_give_the_pool_s_points(tmp_path):
    local = sweep(tmp_path / "local")
    assert local.returncode == 0, local.stdout
    par = sweep(tmp_path / "parallel", "--engine", "parallel")
    assert par.returncode == 0, par.stdout
    assert "a round of" in par.stdout
    slurm_rounds(tmp_path / "slurm")
    want = points(tmp_path / "local")
    assert len(want) >= 10 and any(r["cycles"] == "500" for r in want)   # sweep and post-saturation points
    assert points(tmp_path / "parallel") == want
    assert points(tmp_path / "slurm") == want
    assert not glob.glob(str(tmp_path / "slurm" / "runs" / "*.row"))


def test_engine_refuses_bad_results(tmp_path):
    def tamper(out):
        results = sorted(glob.glob(str(out / "runs" / "*.json")))
        assert len(results) >= 2
        Path(results[0]).write_text("{not json")
        Path(results[1][:-5] + ".rc").write_text("binary\n")
    log = slurm_rounds(tmp_path / "slurm", tamper)
    assert "unreadable result" in log and "ran another spinsim" in log, log
    ref = sweep(tmp_path / "local")
    assert ref.returncode == 0
    assert points(tmp_path / "slurm") == points(tmp_path / "local")


def test_engine_knobs_refused():
    r = subprocess.run(["make", "-C", str(ROOT), "-n", "sweep", "SWEEP_ENGINE=pbs"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 2 and "SWEEP_ENGINE=pbs: expected local, parallel or slurm" in r.stdout, r.stdout
    r = subprocess.run(["make", "-C", str(ROOT), "-n", "sweep", "SWEEP_ENGINE=parallel",
                        "SWEEP_HOSTS=/nonexistent/hosts"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 2 and "SWEEP_HOSTS=/nonexistent/hosts: no such file" in r.stdout, r.stdout
    r = subprocess.run(["bash", str(ROOT / "scripts" / "sweep_slurm.sh"), "/dev/null"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
    assert r.returncode != 0 and "SLURM_ARRAY_TASK_ID" in r.stdout, r.stdout
