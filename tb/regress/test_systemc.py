"""SystemC: the co-simulation with the routers as SystemC modules (make
sim-sc, tb/sc/rtl_sc.cpp) compares every cycle with no mismatch while SPIN
resolves deadlocks; the C model as a SystemC module (tb/sc/spin_noc_sc.h),
through the example system of tb/sc/example.cpp (make sc-example): with
SPIN every packet the system sent arrives once, without it the same run
deadlocks; bad arguments are refused.  Part of make regress."""

import json
import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / os.environ.get("BUILD", "build")
EXAMPLE = BUILD / "sc" / "example"
SC_COSIM = BUILD / "rtl-sc" / "p5-v1" / "Vcosim"
ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
RUN = ["--topo", "mesh4x4", "--rate", "0.3", "--cycles", "5000", "--paper"]


def run(*args):
    return subprocess.run([str(EXAMPLE)] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, env=ENV, timeout=600)


def figures(out):
    m = re.search(r"sent (\d+), arrived (\d+) .*errors (\d+)", out)
    k = re.search(r"spins (\d+), deadlocks resolved (\d+)", out)
    assert m and k, out
    return [int(x) for x in m.groups() + k.groups()]


def test_systemc_example_spin_on_delivers_all():
    r = run(*RUN, "--spin", "1")
    assert r.returncode == 0, r.stdout
    sent, arrived, errors, spins, resolved = figures(r.stdout)
    assert sent > 5000 and arrived == sent and errors == 0, r.stdout
    assert resolved >= 3 and spins >= resolved, r.stdout


def test_systemc_example_spin_off_deadlocks():
    r = run(*RUN, "--spin", "0")
    assert r.returncode == 1, r.stdout
    sent, arrived, errors, spins, resolved = figures(r.stdout)
    assert arrived < sent and errors == 0 and spins == 0, r.stdout


def test_systemc_example_bad_arguments():
    for args, want in ((["--rate", "2"], "--rate: not a rate"), (["--topo", "mesh1x0"], "example: "),
                       (["--cycles"], "missing value"), (["--color", "red"], "unknown option")):
        r = run(*args)
        assert r.returncode == 2 and want in r.stdout, (args, r.stdout)


def test_sim_sc_mesh4x4_compares_and_recovers(tmp_path):
    out = tmp_path / "summary.json"
    r = subprocess.run([str(SC_COSIM), "--topo", "mesh4x4", "--routing", "favors_min", "--vcs", "1",
                        "--spin", "1", "--mode", "paper", "--rate", "0.35", "--cycles", "3000",
                        "--json", str(out), "+verilator+seed+5"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV, timeout=600)
    assert r.returncode == 0, r.stdout
    s = json.loads(out.read_text())
    assert s["mode"] == "cosim-sc" and s["compared"] and s["mismatches"] == 0, r.stdout
    assert s["drained"] and s["deadlocks_resolved"] >= 3, r.stdout


def test_sim_sc_refuses_what_it_was_not_built_for():
    r = subprocess.run([str(SC_COSIM), "--topo", "ring-8", "--routing", "favors_min", "--spin", "1"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV, timeout=60)
    assert r.returncode == 2 and "built for 5-port routers" in r.stdout, r.stdout
