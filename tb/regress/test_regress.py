"""The co-simulation regression (make regress): every case of cases.py.

Run from the repository root after `make regress` has built the binaries:
  /usr/bin/python3 -m pytest tb/regress -n auto             all cases
  /usr/bin/python3 -m pytest tb/regress -k mesh8x8          the 8x8 ones
  /usr/bin/python3 -m pytest tb/regress -k "spin and 2vc"   SPIN on, 2 VCs
Marks (usable with -k or -m): the section of cases.py (matrix, vc4, escape,
topologies, top, powerup, spin, forks, scenarios, liveness, live, bad_input),
`spin` for SPIN on, `cmodel` for the C model alone.
"""

import re

import pytest

import powerup
from cases import CASES, CHECK
from conftest import LOGDIR, expand, run_case

RUNS = [c for c in CASES if c.kind in ("drains", "deadlocks", "error", "passes")]
POWERUP = [c for c in CASES if c.kind == "powerup"]


def param(case):
    marks = [getattr(pytest.mark, case.section)]
    if case.id in CHECK:
        marks.append(pytest.mark.check)
    if case.spin:
        marks.append(pytest.mark.spin)
    if not case.cosim and case.kind != "error":
        marks.append(pytest.mark.cmodel)
    return pytest.param(case, id=case.id, marks=marks)


def counter_problems(case, s):
    """What the summary S of CASE gets wrong in its counters (a list)."""
    bad = []
    want = dict(case.exactly)
    if case.spin:
        # m-1 spins always suffice for a loop of m routers (contract 12.6).
        want.setdefault("spin_bound_violations", 0)
        if case.vcs == 1:
            # The fork rule (contract 12.3) sends one copy out of each distinct
            # output port that the VCs at the arrival port wait for.  With 1 VC
            # per port there is one VC, so one port: a probe can never fork.
            want.setdefault("probes_forked", 0)
    for key, v in want.items():
        if key not in s:
            bad.append(f"{key} missing from the summary")
        elif s[key] != v:
            bad.append(f"{key} {s[key]}, expected {v}")
    for key, v in case.at_least.items():
        if key not in s:
            bad.append(f"{key} missing from the summary")
        elif s[key] < v:
            bad.append(f"{key} {s[key]}, expected at least {v}")
    for key, v in case.at_most.items():
        if key not in s:
            bad.append(f"{key} missing from the summary")
        elif s[key] > v:
            bad.append(f"{key} {s[key]}, expected at most {v}")
    return bad


def figures(s):
    if not s:
        return ""
    keys = ["cycles", "packets_delivered"]
    if s.get("spin"):
        keys += ["probes_sent", "probes_forked", "probes_returned", "spins",
                 "deadlocks_resolved", "false_positives"]
    return ", ".join(f"{k} {s[k]}" for k in keys if k in s)


@pytest.mark.parametrize("case", [param(c) for c in RUNS])
def test_case(case):
    r = run_case(case)
    s = r.summary
    if case.kind == "error":
        # Bad input: exit status 2 and a message that says what is wrong.
        assert r.rc == 2, f"exit {r.rc}, expected 2\n{r.where()}"
        assert re.search(case.pattern, r.output), \
            f"no message matching /{case.pattern}/\n{r.where()}"
        return
    if case.kind == "passes":
        assert r.rc == 0, f"exit {r.rc}, expected 0\n{r.where()}"
        return
    if case.kind == "drains":
        assert r.rc == 0, f"exit {r.rc}, expected 0 (drains)\n{r.where()}"
        assert s is not None, f"no JSON summary\n{r.where()}"
        assert s["passed"] and s["drained"], f"not drained\n{r.where()}"
    else:
        # deadlocks: stuck at the drain limit, and nothing else wrong.
        assert r.rc == 1, f"exit {r.rc}, expected 1 (deadlocks)\n{r.where()}"
        assert s is not None, f"no JSON summary\n{r.where()}"
        assert not s["drained"], f"drained, expected a deadlock\n{r.where()}"
        assert "FAILED: packets left undelivered at the drain limit" in r.output, \
            f"failed for another reason than the drain limit\n{r.where()}"
    if case.cosim:
        assert s["compared"] and s["mismatches"] == 0, \
            f"mismatches {s['mismatches']}: the C model and the RTL differ\n{r.where()}"
    assert s["spin"] == case.spin, f"spin {s['spin']} in the summary\n{r.where()}"
    bad = counter_problems(case, s)
    assert not bad, "; ".join(bad) + f"\n  ({figures(s)})\n{r.where()}"


@pytest.mark.parametrize("case", [param(c) for c in POWERUP])
def test_powerup(case):
    argv = expand(case.argv)
    ok, report = powerup.check(argv[0], argv[1:], str(LOGDIR / case.id))
    print("\n".join(report))
    assert ok, "\n".join(report)


def test_powerup_check_fails_on_zero_reset():
    """The check itself: with +verilator+rand+reset+0 (every unreset register
    zero, whatever the seed) two VSEEDs start alike, and it must say so."""
    case = POWERUP[0]
    argv = expand(case.argv) + ["+verilator+rand+reset+0"]
    ok, report = powerup.check(argv[0], argv[1:], str(LOGDIR / (case.id + "-zero")))
    assert not ok, "the check passed on a zero power-up:\n" + "\n".join(report)
    assert any("differ in 0 signals" in line for line in report), "\n".join(report)


# ---- the table itself ----

def test_check_tier_exists():
    """Every case named for make check is in the table, and the tier covers
    what it promises: SPIN on and off, 1 and 3 VCs, co-simulation."""
    by_id = {c.id: c for c in CASES}
    unknown = [i for i in CHECK if i not in by_id]
    assert not unknown, f"make check names cases that do not exist: {unknown}"
    chosen = [by_id[i] for i in CHECK]
    assert {True, False} <= {c.spin for c in chosen if c.cosim}, "SPIN on and off"
    assert {1, 3} <= {c.vcs for c in chosen if c.cosim}, "1 and 3 VCs"

def test_table_ids_unique():
    ids = [c.id for c in CASES]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    assert not dup, f"case ids used twice: {dup}"


def test_table_spin_cases_count_probes_and_spins():
    """Every run with SPIN on asserts how many probes it sends and how many
    spins it makes (a minimum, or an exact number such as spins 0)."""
    missing = [c.name for c in RUNS if c.spin and c.kind != "error"
               and not all(k in c.at_least or k in c.exactly for k in ("probes_sent", "spins"))]
    assert not missing, f"SPIN cases without a probes_sent and a spins check: {missing}"
    zero_probes = [c.name for c in RUNS if c.spin and c.exactly.get("probes_sent") == 0]
    assert not zero_probes, f"SPIN cases that send no probe: {zero_probes}"


def test_table_forks_with_several_vcs():
    """Random-traffic cases with 2, 3 and 4 VCs whose probes must fork."""
    for v in (2, 3, 4):
        forks = [c for c in RUNS if c.vcs == v and c.kind == "drains"
                 and c.at_least.get("probes_forked", 0) > 0 and "trace:" not in " ".join(c.argv)]
        assert forks, f"no random-traffic case with {v} VCs that must fork a probe"


def test_table_uses_several_vseeds():
    """The co-simulation cases run under several Verilator seeds."""
    seeds = {a for c in CASES if c.cosim for a in c.argv if a.startswith("+verilator+seed+")}
    assert len(seeds) >= 5, f"only {sorted(seeds)}"
