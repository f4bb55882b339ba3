"""scripts/mutate.py (make mutate) without its builds: the draw of mutants
and the options.  The campaign itself takes minutes a mutant and is not
run here (test_targets.py says so)."""
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import mutate  # noqa: E402


def test_mutants_are_one_flip_of_one_code_line():
    ms = mutate.mutants(str(ROOT), 1, 40)
    assert len(ms) == 40
    assert len({(f, i) for f, i, _, _ in ms}) == 40, "a line drawn twice"
    for f, i, old, new in ms:
        lines = (ROOT / f).read_text().split("\n")
        assert lines[i] == old, (f, i)
        assert new != old, (f, i)
        assert any(old.split("//")[0].count(a) == 1 and new == old.split("//")[0].replace(a, b, 1)
                   + old[len(old.split("//")[0]):] for a, b in mutate.OPS), (f, i, old, new)
        assert not any(k in old for k in mutate.SKIP), (f, i, old)
        s = old.strip()
        assert not s.startswith(("//", "/*", "*")), (f, i, old)


def test_the_draw_follows_the_seed():
    assert mutate.mutants(str(ROOT), 7, 10) == mutate.mutants(str(ROOT), 7, 10)
    assert mutate.mutants(str(ROOT), 7, 10) != mutate.mutants(str(ROOT), 8, 10)


def test_rtl_and_c_both_drawn():
    files = {f for f, _, _, _ in mutate.mutants(str(ROOT), 1, 60)}
    assert any(f.startswith("rtl/") for f in files) and any(f.startswith("cmodel/") for f in files)


def test_no_assertion_region_mutated():
    """Lines between `ifndef SYNTHESIS and its `endif are the RTL's checks."""
    for f, i, old, new in mutate.mutants(str(ROOT), 4, 300):
        if f.endswith(".sv"):
            depth = 0
            for line in (ROOT / f).read_text().split("\n")[:i]:
                s = line.strip()
                if s.startswith("`ifndef SYNTHESIS") or (depth and s.startswith("`if")):
                    depth += 1
                elif depth and s.startswith("`endif"):
                    depth -= 1
            assert depth == 0, (f, i + 1, old)


def test_no_nonblocking_assignment_flipped():
    for f, i, old, new in mutate.mutants(str(ROOT), 3, 200):
        if f.endswith(".sv"):
            assert not (" <= " in old and " < " in new and old.lstrip().split(" ")[0].endswith("_q")), old


def test_bad_options_refused():
    for args in (["--seed", "x"], ["--count", "0"], ["--count", "1;ls"], ["--unit-cycles", "-1"],
                 ["--seed", "99999999999"]):
        p = subprocess.run([sys.executable, str(ROOT / "scripts" / "mutate.py")] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        assert p.returncode == 2, (args, p.stderr)
        assert "--" + args[0].lstrip("-") in p.stderr, (args, p.stderr)


def test_a_timeout_kills_what_the_command_started(tmp_path):
    """A hung co-simulation is make's grandchild: on timeout the whole
    process group goes, not only the command run."""
    marker = tmp_path / "still_running"
    rc, out = mutate.run(["bash", "-c", f"(sleep 3; touch {marker}) & sleep 30"], str(tmp_path),
                         timeout=1)
    assert rc == 124 and "timed out after 1 s" in out
    time.sleep(4)
    assert not marker.exists(), "a process the command started ran on after the timeout"
    assert mutate.run(["bash", "-c", "echo ok; exit 3"], str(tmp_path)) == (3, "ok\n")
