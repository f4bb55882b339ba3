"""The soak campaign (make soak; not part of make test).

Long co-simulations, the RTL compared with the C model on every cycle, over
topologies (meshes, tori, a ring, a dragonfly, a topology file), 1 to 4 VCs,
the four routing functions, traffic patterns, seeds and Verilator seeds
(VSEED), with SPIN below, at and past saturation.  More than 10^8
router-cycles in all (cycles simulated, drain included, times routers).

Outcomes, one per case:
  drained   exit 0: every packet arrived intact, the models agreed
  jammed    exit 1 at the drain limit, the models still agreeing: FAvORS-Min
            with SPIN past its saturation can jam today (docs/results.md);
            allowed only where the table says so (jam_ok), and counted
  mismatch  the models differed: always a failure
  failed    anything else (a packet lost or corrupted, an RTL assertion, a
            jam where none is allowed, a crash, a timeout): a failure
Each case writes BUILD/soak/<id>.log, <id>.json and <id>.outcome.json;
soak_report.py adds them up into BUILD/soak/summary.md.

pytest does not collect this file by itself (it is not test_*.py): make
soak names it.
"""

import json
import re

import pytest

from cases import cosim
from conftest import BUILD, run_case

SOAKDIR = BUILD / "soak"

# (topology, ports, VCs, routing, traffic, rate, SPIN, t_DD, cycles, jam_ok)
# Saturation (docs/results.md, and a C-model run of each case before it was
# added): FAvORS-Min with 1 VC near 0.08-0.1 flits/node/cycle on uniform
# random on the 8x8 mesh, with 2 VCs near 0.2, with 3 VCs near 0.3.
M8 = "mesh8x8"
F3 = "file:tb/topologies/mesh3x3_failed_links.topo"
UR = "uniform_random"
RUNS = [
    # FAvORS-Min, 1 VC, SPIN, uniform random: below, at and past saturation
    (M8, 5, 1, "favors_min", UR, 0.06, 1, 128, 100000, False),
    (M8, 5, 1, "favors_min", UR, 0.07, 1, 128, 100000, True),
    (M8, 5, 1, "favors_min", UR, 0.08, 1, 128, 100000, True),
    (M8, 5, 1, "favors_min", UR, 0.08, 1, 32, 100000, True),
    (M8, 5, 1, "favors_min", UR, 0.08, 1, 32, 100000, True),
    (M8, 5, 1, "favors_min", UR, 0.09, 1, 32, 60000, True),
    (M8, 5, 1, "favors_min", UR, 0.10, 1, 128, 60000, True),
    (M8, 5, 1, "favors_min", UR, 0.12, 1, 32, 40000, True),
    (M8, 5, 1, "favors_min", UR, 0.20, 1, 16, 20000, True),
    # FAvORS-Min, 1 VC, SPIN, other patterns
    (M8, 5, 1, "favors_min", "neighbor", 0.27, 1, 32, 100000, True),
    (M8, 5, 1, "favors_min", "transpose", 0.06, 1, 32, 60000, False),
    (M8, 5, 1, "favors_min", "tornado", 0.06, 1, 16, 60000, True),
    (M8, 5, 1, "favors_min", "bit_complement", 0.06, 1, 32, 40000, True),
    (M8, 5, 1, "favors_min", "hotspot", 0.05, 1, 32, 40000, False),
    (M8, 5, 1, "favors_min", "shuffle", 0.08, 1, 32, 40000, True),
    # FAvORS-Min, 2 to 4 VCs, SPIN: at and past saturation (probes fork)
    (M8, 5, 2, "favors_min", UR, 0.20, 1, 32, 30000, True),
    (M8, 5, 2, "favors_min", UR, 0.22, 1, 64, 20000, True),
    (M8, 5, 2, "favors_min", UR, 0.25, 1, 32, 15000, True),
    (M8, 5, 2, "favors_min", UR, 0.30, 1, 128, 10000, True),
    (M8, 5, 3, "favors_min", UR, 0.28, 1, 128, 15000, True),
    (M8, 5, 3, "favors_min", UR, 0.30, 1, 32, 15000, True),
    (M8, 5, 3, "favors_min", "transpose", 0.30, 1, 32, 15000, True),
    (M8, 5, 4, "favors_min", UR, 0.40, 1, 32, 10000, True),
    (M8, 5, 4, "favors_min", UR, 0.50, 1, 128, 8000, True),
    ("mesh6x6", 5, 2, "favors_min", UR, 0.30, 1, 32, 20000, True),
    ("mesh6x6", 5, 3, "favors_min", UR, 0.50, 1, 32, 20000, True),
    ("mesh6x6", 5, 4, "favors_min", UR, 0.50, 1, 32, 20000, True),
    # deadlock-free routing (XY, west-first, escape VC): every run drains,
    # SPIN on or off, past saturation (the drain limit leaves time for the
    # backlog at the sources)
    (M8, 5, 1, "xy", UR, 0.30, 1, 128, 20000, False),
    (M8, 5, 1, "xy", "transpose", 0.20, 0, 128, 30000, False),
    (M8, 5, 2, "west_first", UR, 0.40, 1, 32, 15000, False),
    (M8, 5, 3, "west_first", "bit_reverse", 0.30, 0, 128, 15000, False),
    (M8, 5, 4, "xy", UR, 0.50, 1, 64, 10000, False),
    (M8, 5, 2, "escape", UR, 0.60, 0, 128, 15000, False),
    (M8, 5, 3, "escape", "tornado", 0.50, 0, 128, 15000, False),
    (M8, 5, 4, "escape", UR, 0.90, 0, 128, 8000, False),
    ("mesh16x16", 5, 1, "west_first", UR, 0.05, 1, 128, 15000, False),
    # other topologies, FAvORS-Min with SPIN (the only routing they take)
    ("mesh16x16", 5, 1, "favors_min", UR, 0.04, 1, 32, 15000, False),
    ("torus4x4", 5, 1, "favors_min", UR, 0.40, 1, 32, 60000, True),
    ("torus4x4", 5, 2, "favors_min", UR, 0.60, 1, 32, 40000, True),
    ("torus4x4", 5, 4, "favors_min", "tornado", 0.60, 1, 32, 30000, True),
    ("torus8x8", 5, 1, "favors_min", UR, 0.20, 1, 32, 40000, True),
    ("torus8x8", 5, 3, "favors_min", UR, 0.45, 1, 32, 15000, True),
    ("ring-8", 3, 1, "favors_min", UR, 0.15, 1, 32, 100000, True),
    ("ring-16", 3, 1, "favors_min", UR, 0.10, 1, 32, 60000, True),
    ("dragonfly-4-1-1", 5, 1, "favors_min", UR, 0.30, 1, 32, 60000, True),
    ("dragonfly-4-1-1", 5, 2, "favors_min", UR, 0.50, 1, 32, 40000, True),
    ("dragonfly-4-1-2", 6, 2, "favors_min", UR, 0.50, 1, 32, 30000, True),
    (F3, 5, 1, "favors_min", UR, 0.25, 1, 32, 100000, True),
    (F3, 5, 2, "favors_min", "hotspot", 0.30, 1, 32, 60000, True),
    ("file:tb/scenarios/theta.topo", 6, 2, "favors_min", UR, 0.50, 1, 32, 60000, True),
    # links longer than one cycle (contract section 1; SPIN counts cycles)
    ("mesh8x8@2", 5, 1, "favors_min", UR, 0.08, 1, 128, 60000, True),
    ("mesh8x8@3", 5, 2, "favors_min", UR, 0.20, 1, 32, 30000, True),
    ("dragonfly-4-1-2@8", 6, 2, "favors_min", UR, 0.50, 1, 32, 30000, True),
    ("file:tb/topologies/mesh4x4_mixed_latency.topo", 5, 1, "favors_min", UR, 0.30, 1, 32, 60000,
     True),
]


def vseed_of(i):
    """A different Verilator seed for every case, spread over 1..2^31-1."""
    return (i + 1) * 2654435761 % 2147483647 or 1


def router_count(topo):
    topo = topo.split("@")[0] if not topo.startswith("file:") else topo   # meshWxH@L
    if topo.startswith("file:"):
        with open(topo[5:]) as f:
            for line in f:
                t = line.split("#")[0].split()
                if t and t[0] == "routers":
                    return int(t[1])
    m = re.fullmatch(r"(?:mesh|torus)(\d+)x(\d+)", topo)
    if m:
        return int(m[1]) * int(m[2])
    if topo.startswith("ring-"):
        return int(topo[5:])
    if topo.startswith("dragonfly-"):
        a, _, h = (int(x) for x in topo.split("-")[1:])
        return a * (a * h + 1)
    raise ValueError(topo)


def soak_cases():
    out = []
    for i, (topo, ports, v, routing, traffic, rate, spin, tdd, cycles, jam_ok) in \
            enumerate(RUNS):
        seed = i + 1
        short = topo.split("/")[-1].removesuffix(".topo")
        name = (f"soak {short} {v} VC {routing} {traffic} {rate} SPIN={spin} t_DD {tdd}"
                f" {cycles} cycles seed {seed}")
        args = (f"--quiet --topo {topo} --routing {routing} --traffic {traffic} --rate {rate}"
                f" --spin {spin} --tdd {tdd} --cycles {cycles} --seed {seed}"
                f" --drain-limit {max(20000, cycles // 2) if jam_ok else 10 * cycles}")
        c = cosim("soak", name, v, vseed_of(i), args, ports=ports,
                  kind="drains_or_jams" if jam_ok else "drains",
                  cost=router_count(topo) * cycles / 1.5e5)
        out.append(c)
    return out


SOAK = soak_cases()


def classify(r):
    s = r.summary
    if s and s.get("mismatches", 0) != 0:
        return "mismatch"
    if r.rc == 0 and s and s["passed"] and s["drained"]:
        return "drained"
    if (r.rc == 1 and s and not s["drained"]
            and "FAILED: packets left undelivered at the drain limit" in r.output):
        return "jammed"
    return "failed"


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=pytest.mark.soak)
                                  for c in SOAK])
def test_soak(case):
    r = run_case(case, logdir=SOAKDIR)
    outcome = classify(r)
    allowed = ("drained", "jammed") if case.kind == "drains_or_jams" else ("drained",)
    s = r.summary or {}
    rec = {"id": case.id, "name": case.name, "outcome": outcome,
           "allowed": outcome in allowed, "vcs": case.vcs, "spin": case.spin,
           "vseed": int(case.argv[-1].rsplit("+", 1)[1]),
           "routers": router_count(case.argv[case.argv.index("--topo") + 1]),
           "command": " ".join(r.argv)}
    for k in ("cycles", "mismatches", "packets_created", "packets_delivered", "probes_sent",
              "probes_forked", "spins", "deadlocks_resolved", "false_positives",
              "frozen_timeouts", "spin_bound_violations", "throughput", "wall_seconds"):
        rec[k] = s.get(k)
    rec["router_cycles"] = (rec["cycles"] or 0) * rec["routers"]
    (SOAKDIR / f"{case.id}.outcome.json").write_text(json.dumps(rec, indent=1) + "\n")
    assert outcome in allowed, f"outcome {outcome}, allowed {allowed}\n{r.where()}"
    if case.spin and s:
        assert s["spin_bound_violations"] == 0, f"m-1 bound broken\n{r.where()}"
        if case.vcs == 1:
            # one VC waits for one port: a probe cannot fork (contract 12.3)
            assert s["probes_forked"] == 0, f"a probe forked with 1 VC\n{r.where()}"
