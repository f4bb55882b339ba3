"""Build paths and the case runner of the co-simulation regression.

`make regress` builds the binaries (the router array for 3-, 5-, 6- and 7-port
routers, the network top of mesh3x3 with 2 VCs, spinsim) and then runs
pytest on this directory.  BUILD (environment, default build/) says where
they are; each case writes its output to BUILD/regress/<id>.log and its
summary to BUILD/regress/<id>.json.
"""

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cases import CASES  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / os.environ.get("BUILD", "build")
LOGDIR = BUILD / "regress"
# A case that runs longer than this is a hang: it fails instead of holding
# make test until CI's limit.
CASE_TIMEOUT = 1800

SECTIONS = sorted({c.section for c in CASES})


def placeholders():
    """The {names} a case's command may use, and the paths they stand for."""
    p = {"spinsim": BUILD / "cmodel" / "spinsim",
         "data": "cmodel/tests/data",
         "top_mesh3x3_v2": BUILD / "mesh3x3" / "v2" / "top" / "Vcosim",
         "top_mesh3x3_l3_v1": BUILD / "mesh3x3@3" / "v1" / "top" / "Vcosim",
         "logdir": LOGDIR}
    for ports in (3, 5, 6, 7):
        for vcs in (1, 2, 3, 4):
            p[f"cosim_p{ports}_v{vcs}"] = BUILD / "rtl" / f"p{ports}-v{vcs}" / "Vcosim"
    # concentration: K NIC ports a router
    p["cosim_p7_v1_n2"] = BUILD / "rtl" / "p7-v1-n2" / "Vcosim"
    p["cosim_p15_v1_n4"] = BUILD / "rtl" / "p15-v1-n4" / "Vcosim"
    return {k: str(v) for k, v in p.items()}


def expand(argv):
    ph = placeholders()
    return [a.format_map(ph) for a in argv]


class Result:
    def __init__(self, case, argv, rc, output, summary, log):
        self.case, self.argv, self.rc = case, argv, rc
        self.output, self.summary, self.log = output, summary, log

    def tail(self, n=15):
        return "\n".join("     " + l for l in self.output.splitlines()[-n:])

    def where(self):
        return f"log {self.log}\n  $ {shlex.join(self.argv)}\n{self.tail()}"


def run_case(case, extra=(), tag="", logdir=None):
    """Runs CASE's command from the repository root (with --json, except for
    bad input); writes LOGDIR/<id>.log and .json; returns a Result."""
    import json
    logdir = logdir or LOGDIR
    logdir.mkdir(parents=True, exist_ok=True)
    argv = expand(case.argv) + list(extra)
    if argv[0].startswith(str(BUILD)) and not Path(argv[0]).exists():
        pytest.fail(f"{argv[0]} is not built: run make regress (it builds every binary "
                    "the cases use)", pytrace=False)
    log = logdir / f"{case.id}{tag}.log"
    js = logdir / f"{case.id}{tag}.json"
    if js.exists():
        js.unlink()
    if case.kind not in ("error", "passes"):
        argv += ["--json", str(js)]
        # Verilator's plusargs last, as make sim puts them
        argv.sort(key=lambda a: a.startswith("+"))
    try:
        p = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=CASE_TIMEOUT)
        rc, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        rc = "timeout"
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) \
            else (e.stdout or "")
        out += f"\n(killed after {CASE_TIMEOUT} s)\n"
    log.write_text(f"$ {shlex.join(argv)}\n{out}")
    summary = None
    if js.exists():
        try:
            summary = json.loads(js.read_text())
        except ValueError as e:
            out += f"\n(invalid JSON summary {js}: {e})\n"
    return Result(case, argv, rc, out, summary, log)


def pytest_configure(config):
    for s in SECTIONS:
        config.addinivalue_line("markers", f"{s}: cases of the {s} section of cases.py")
    config.addinivalue_line("markers", "spin: runs with SPIN on")
    config.addinivalue_line("markers", "check: the everyday tier (make check)")
    config.addinivalue_line("markers", "cmodel: the C model alone")
    config.addinivalue_line("markers", "soak: the soak campaign (soak.py, make soak)")


def pytest_collection_modifyitems(items):
    # The long cases first, so that the parallel workers end together.
    def cost(item):
        c = getattr(item, "callspec", None)
        case = c.params.get("case") if c else None
        return -case.cost if case is not None else 0
    items.sort(key=cost)
