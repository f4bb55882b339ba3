"""The co-simulation regression's one table of cases (make regress).

Each case is data: a command, what kind of outcome it must have, and the
counters of its --json summary it must reach.  test_regress.py runs them;
`pytest tb/regress -k WORD` selects them by id (ids are the names below,
lower case, spaces as '-', "N VC" as "Nvc").

Kinds of outcome:
  drains     exit 0, the network drained, every packet arrived intact and
             (co-simulation) the RTL matched the C model on every cycle
  deadlocks  exit 1 at the drain limit, packets left undelivered, and
             (co-simulation) both models still agreeing on every cycle
  error      bad input: exit 2 and a message matching a pattern
  passes     exit 0 and nothing else (a shell check of the tools' output)
  powerup    the power-up self-check (test_powerup in test_regress.py)

Counters: `at_least={key: min}`, `at_most={key: max}` and
`exactly={key: value}` on the JSON keys of docs/usage.md (summary.json),
integers or fractions (throughput).  Every run with SPIN on must name both
`probes_sent` and `spins` (test_table_spin_cases_count_probes_and_spins),
and is also checked for spin_bound_violations 0 and, with 1 VC, for
probes_forked 0 (see test_regress.py).

VSEED: every co-simulation case gets a Verilator seed for the power-up
values of the registers reset does not clear; the matrix rotates it over
1..7 from case to case (next_vseed), so the regression runs under several
VSEEDs (test_table_uses_several_vseeds).

Mode: the router's default is the live mode (contract section 13).  The
SPIN cases built around the paper's protocol, whose deadlocks and counts
were measured on the paper's router, run it with `--mode paper`; the
section "live" runs the default past saturation.

Commands name the built binaries by placeholder: {spinsim}, {cosim_pP_vV}
(build/rtl/pP-vV/Vcosim), {cosim_pP_vV_nK} (build/rtl/pP-vV-nK/Vcosim: K NIC
ports a router), {top_mesh3x3_v2} (the generated network top of
make sim-top), {data} (cmodel/tests/data), {logdir} (BUILD/regress);
conftest.py fills them in.
"""

import re
import shlex
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Case:
    name: str                 # as printed; the test id is slug(name)
    kind: str                 # drains, deadlocks, error, powerup
    argv: tuple               # the command, with {placeholders}
    section: str
    vcs: int = 1
    spin: bool = False
    cosim: bool = False       # the RTL is compared (a Vcosim binary)
    at_least: dict = field(default_factory=dict)
    exactly: dict = field(default_factory=dict)
    at_most: dict = field(default_factory=dict)
    pattern: str = ""         # error: the message the output must match
    cost: float = 1.0         # rough seconds on one core; long ones start first

    @property
    def id(self):
        return slug(self.name)


def slug(name):
    s = name.lower()
    s = re.sub(r"\b(\d) vc\b", r"\1vc", s)
    s = re.sub(r"[^a-z0-9_.+]+", "-", s)
    return s.strip("-")


def _opt(args, key, default):
    if key in args:
        return args[args.index(key) + 1]
    return default


def _case(name, kind, argv, section, cosim, **kw):
    args = list(argv)
    kw.setdefault("vcs", int(_opt(args, "--vcs", 1)))
    return Case(name=name, kind=kind, argv=tuple(argv), section=section, cosim=cosim,
                spin=_opt(args, "--spin", "0") == "1", **kw)


# The live mode's router-local rules alone: the live mode before the NICs'
# window and early credits became part of it (contract 13).  A case built
# around SPIN's recoveries, whose counts were measured on it, says
# local=True: the window keeps most of its deadlocks from forming.  Knobs the
# case names itself are kept.
LOCAL_KNOBS = (("--admit", "1"), ("--window", "0"), ("--window-slack", "0"), ("--early-credit", "0"),
               ("--throttle", "0"))


def with_local(args):
    """ARGS with the live mode's window, early credits and recovery throttle
    off, and admission always on, where ARGS does not name them."""
    words = shlex.split(args)
    return " ".join([args] + [f"{k} {v}" for k, v in LOCAL_KNOBS if k not in words])


def cosim(section, name, vcs, vseed, args, ports=5, nics=1, kind="drains", local=False, **kw):
    """A co-simulation of the router array built for PORTS ports (NICS of
    them NIC ports), VCS VCs; LOCAL: the router-local rules alone."""
    binary = f"cosim_p{ports}_v{vcs}" + (f"_n{nics}" if nics > 1 else "")
    args = with_local(args) if local else args
    argv = [f"{{{binary}}}", "--vcs", str(vcs)] + shlex.split(args)
    argv.append(f"+verilator+seed+{vseed}")
    return _case(name, kind, argv, section, True, **kw)


def cmodel(section, name, args, kind="drains", local=False, **kw):
    """The C model alone (spinsim); LOCAL: the router-local rules alone."""
    args = with_local(args) if local else args
    return _case(name, kind, ["{spinsim}"] + shlex.split(args), section, False, **kw)


def error(section, name, pattern, command):
    """Bad input: COMMAND must exit 2 with a message matching PATTERN."""
    return Case(name=name, kind="error", argv=tuple(shlex.split(command)), section=section,
                pattern=pattern)


def passes(section, name, argv):
    """ARGV (a list: placeholders are filled in) must exit 0."""
    return Case(name=name, kind="passes", argv=tuple(argv), section=section)


CASES = []
add = CASES.append

# ---- co-simulation: C model against RTL, every cycle ----
S = "matrix"
_vseed = 1


def next_vseed():
    global _vseed
    _vseed = _vseed % 7 + 1
    return _vseed


for v in (1, 2, 3):
    for r in ("xy", "west_first"):
        for t in ("uniform_random", "bit_complement", "hotspot"):
            vs = next_vseed()
            add(cosim(S, f"mesh2x2 {v} VC {r} {t} 0.6", v, vs,
                      f"--topo mesh2x2 --routing {r} --traffic {t} --rate 0.6 --cycles 3000"
                      f" --seed {v * 10 + vs}"))
        for t, rate in (("uniform_random", "0.3"), ("transpose", "0.3"), ("tornado", "0.4"),
                        ("neighbor", "0.5"), ("shuffle", "0.3")):
            vs = next_vseed()
            add(cosim(S, f"mesh4x4 {v} VC {r} {t} {rate}", v, vs,
                      f"--topo mesh4x4 --routing {r} --traffic {t} --rate {rate} --cycles 5000"
                      f" --seed {v + vs}"))
        for t, rate, cyc in (("uniform_random", "0.1", 10000), ("uniform_random", "0.6", 4000),
                             ("transpose", "0.2", 5000), ("bit_reverse", "0.2", 5000),
                             ("bit_rotation", "0.3", 4000)):
            vs = next_vseed()
            add(cosim(S, f"mesh8x8 {v} VC {r} {t} {rate}", v, vs,
                      f"--topo mesh8x8 --routing {r} --traffic {t} --rate {rate} --cycles {cyc}"
                      f" --seed {v * 3 + vs}", cost=20 if rate == "0.6" else 10))
    vs = next_vseed()
    add(cosim(S, f"mesh3x5 {v} VC west_first uniform_random 0.4 (W != H)", v, vs,
              "--topo mesh3x5 --routing west_first --traffic uniform_random --rate 0.4"
              " --cycles 4000"))
    add(cosim(S, f"mesh5x3 {v} VC xy tornado 0.3 (W != H)", v, vs,
              "--topo mesh5x3 --routing xy --traffic tornado --rate 0.3 --cycles 4000"))
    add(cosim(S, f"mesh4x4 {v} VC xy trace mesh4x4_hotspot", v, vs,
              "--topo mesh4x4 --traffic trace:tb/traces/mesh4x4_hotspot.trace --cycles 1"))
    add(cosim(S, f"mesh4x4 {v} VC long packets only, 0.8", v, vs,
              "--topo mesh4x4 --routing west_first --long-frac 1 --rate 0.8 --cycles 3000"))
    # FAvORS-Min without SPIN: loads below its deadlocks, so every packet drains
    add(cosim(S, f"mesh8x8 {v} VC favors_min uniform_random 0.05", v, vs,
              "--topo mesh8x8 --routing favors_min --rate 0.05 --cycles 10000", cost=10))
    add(cosim(S, f"mesh4x4 {v} VC favors_min transpose 0.1", v, vs,
              "--topo mesh4x4 --routing favors_min --traffic transpose --rate 0.1 --cycles 5000"))
add(cosim(S, "mesh8x8 2 VC west_first transpose 0.2, 20000 cycles", 2, 3,
          "--topo mesh8x8 --routing west_first --traffic transpose --rate 0.2 --cycles 20000",
          cost=35))
add(cosim(S, "mesh8x8 1 VC xy uniform_random 0.1, 30000 cycles, seed 7", 1, 5,
          "--topo mesh8x8 --traffic uniform_random --rate 0.1 --cycles 30000 --seed 7", cost=25))

# ---- 4 VCs per port (the most a router takes) ----
S = "vc4"
add(cosim(S, "mesh4x4 4 VC xy uniform_random 0.3", 4, 3,
          "--topo mesh4x4 --routing xy --rate 0.3 --cycles 5000"))
add(cosim(S, "mesh8x8 4 VC west_first bit_rotation 0.3", 4, 5,
          "--topo mesh8x8 --routing west_first --traffic bit_rotation --rate 0.3 --cycles 4000",
          cost=10))
add(cosim(S, "mesh4x4 4 VC escape uniform_random 0.7", 4, 6,
          "--topo mesh4x4 --routing escape --rate 0.7 --cycles 4000"))

# ---- escape-VC routing (Duato: VC 0 west-first, the others minimal adaptive) ----
# Loads past saturation: the route set is re-tried every cycle, and every
# packet must still drain (the escape VC keeps the network deadlock-free).
S = "escape"
for v in (2, 3):
    vs = next_vseed()
    add(cosim(S, f"mesh4x4 {v} VC escape uniform_random 0.7", v, vs,
              f"--topo mesh4x4 --routing escape --rate 0.7 --cycles 4000 --seed {v + 20}"))
    add(cosim(S, f"mesh4x4 {v} VC escape tornado 0.5", v, vs,
              f"--topo mesh4x4 --routing escape --traffic tornado --rate 0.5 --cycles 4000"
              f" --seed {v + 21}"))
    add(cosim(S, f"mesh8x8 {v} VC escape transpose 0.4", v, vs,
              f"--topo mesh8x8 --routing escape --traffic transpose --rate 0.4 --cycles 3000"
              f" --seed {v + 22}", cost=10))
    add(cosim(S, f"mesh3x5 {v} VC escape tornado 0.5 (W != H)", v, vs,
              f"--topo mesh3x5 --routing escape --traffic tornado --rate 0.5 --cycles 4000"
              f" --seed {v + 23}"))
add(cosim(S, "mesh8x8 2 VC escape uniform_random 0.2, 20000 cycles", 2, 4,
          "--topo mesh8x8 --routing escape --rate 0.2 --cycles 20000 --seed 9", cost=25))
# C model alone, far past saturation, several seeds and patterns: drains
for topo, v, t, rate in (("mesh8x8", 2, "uniform_random", "0.9"), ("mesh8x8", 3, "transpose", "0.9"),
                         ("mesh8x8", 2, "tornado", "0.9"), ("mesh4x4", 4, "bit_reverse", "0.9"),
                         ("mesh6x3", 2, "hotspot", "0.9")):
    for s in (1, 2, 3):
        add(cmodel(S, f"{topo} {v} VC escape {t} {rate}, seed {s}, C model: drains",
                   f"--quiet --topo {topo} --vcs {v} --routing escape --traffic {t} --rate {rate}"
                   f" --cycles 5000 --seed {s} --drain-limit 400000", cost=5))

# ---- other topologies (FAvORS-Min routes any topology) ----
S = "topologies"
T = "tb/topologies/mesh3x3_failed_links.topo"
add(cosim(S, "failed_links favors_min 0.1", 1, 2,
          f"--topo file:{T} --routing favors_min --rate 0.1 --cycles 5000"))
add(cosim(S, "failed_links 2 VC favors_min hotspot 0.2", 2, 3,
          f"--topo file:{T} --routing favors_min --traffic hotspot --rate 0.2 --cycles 5000"))
add(cosim(S, "torus4x4 2 VC favors_min tornado 0.1", 2, 4,
          "--topo torus4x4 --routing favors_min --traffic tornado --rate 0.1 --cycles 5000"))
add(cosim(S, "ring-6 (3-port routers) favors_min 0.08", 1, 5,
          "--quiet --topo ring-6 --routing favors_min --rate 0.08 --cycles 5000", ports=3))
add(cosim(S, "failed_links favors_min 0.3, paper mode, deadlocks alike in both models", 1, 6,
          f"--mode paper --topo file:{T} --routing favors_min --rate 0.3 --cycles 5000"
          " --drain-limit 3000 --quiet", kind="deadlocks"))
add(cosim(S, "mesh8x8 2 VC favors_min 0.25, paper mode, deadlocks alike in both models", 2, 2,
          "--mode paper --topo mesh8x8 --routing favors_min --rate 0.25 --cycles 8000"
          " --drain-limit 4000 --quiet", kind="deadlocks", cost=20))

# ---- the generated network top (make sim-top), Verilated whole ----
# Checks spingen's wiring: corner, edge and inner routers of a 3x3 mesh.
S = "top"
add(Case(name="top mesh3x3 2 VC west_first 0.4", kind="drains", section=S, vcs=2, cosim=True,
         argv=("{top_mesh3x3_v2}", "--topo", "mesh3x3", "--vcs", "2", "--routing", "west_first",
               "--rate", "0.4", "--cycles", "4000", "+verilator+seed+3"), cost=5))
add(Case(name="top mesh3x3 2 VC escape 0.6", kind="drains", section=S, vcs=2, cosim=True,
         argv=("{top_mesh3x3_v2}", "--topo", "mesh3x3", "--vcs", "2", "--routing", "escape",
               "--rate", "0.6", "--cycles", "3000", "+verilator+seed+2"), cost=5))

add(Case(name="top mesh3x3 2 VC favors_nmin 0.4", kind="drains", section=S, vcs=2, cosim=True,
         argv=("{top_mesh3x3_v2}", "--topo", "mesh3x3", "--vcs", "2", "--routing", "favors_nmin",
               "--rate", "0.4", "--cycles", "3000", "+verilator+seed+4"), at_least=dict(detours=40), cost=5))  # 60
# window-gated admission (--admit 2, contract 6): each router's admission
# is an input the harness sets every cycle from its NIC's window (one bit a
# router of the top's admit_i); with it the run carries 0.538, with
# admission always on 0.484
add(Case(name="top mesh3x3 2 VC favors_min 0.6, window-gated admission", kind="drains", section=S,
         vcs=2, cosim=True,
         argv=("{top_mesh3x3_v2}", "--topo", "mesh3x3", "--vcs", "2", "--routing", "favors_min",
               "--rate", "0.6", "--cycles", "3000", "--admit", "2", "+verilator+seed+5"),
         at_least=dict(throughput=0.52), cost=5))  # 0.5381

# ---- power-up state: two VSEEDs start differently (test_powerup) ----
# The co-simulation runs a few cycles with --waves under VSEEDs 1, 2 and 1
# again; the values at time 0 of the waveform must differ between 1 and 2,
# be equal between 1 and 1, and not be all zero.
S = "powerup"
add(Case(name="powerup router array mesh4x4 1 VC", kind="powerup", section=S, cosim=True,
         argv=("{cosim_p5_v1}", "--vcs", "1", "--topo", "mesh4x4", "--rate", "0",
               "--cycles", "2")))
add(Case(name="powerup router array mesh4x4 4 VC", kind="powerup", section=S, cosim=True, vcs=4,
         argv=("{cosim_p5_v4}", "--vcs", "4", "--topo", "mesh4x4", "--rate", "0",
               "--cycles", "2")))
add(Case(name="powerup top mesh3x3 2 VC", kind="powerup", section=S, cosim=True, vcs=2,
         argv=("{top_mesh3x3_v2}", "--vcs", "2", "--topo", "mesh3x3", "--rate", "0",
               "--cycles", "2")))

# ---- SPIN, paper mode: both models recover alike ----
# These cases run the SPIN paper's router (--mode paper: no admission, no
# rerouting, no probe adoption), whose deadlocks they were built around; the
# live mode has its own section below.  Every case here with SPIN on names a minimum (or an exact number) of
# probes_sent and spins, set a little below what the case did when it was
# written (the comment after it); see the module's docstring.
S = "spin"


def spin(section, name, vcs, vseed, args, ports=5, **kw):
    """A co-simulation of the paper's router with SPIN on."""
    return cosim(section, name, vcs, vseed, "--mode paper --spin 1 " + args, ports=ports, **kw)


def paper(section, name, vcs, vseed, args, ports=5, **kw):
    """A co-simulation of the paper's router (SPIN as ARGS say)."""
    return cosim(section, name, vcs, vseed, "--mode paper " + args, ports=ports, **kw)


RING5 = "--topo ring-5 --routing favors_min --traffic trace:tb/scenarios/ring5_clockwise.trace --cycles 1"
add(spin(S, "ring-5 clockwise scenario, SPIN", 1, 3, RING5, ports=3,
         at_least=dict(probes_sent=15, spins=4)))  # 17, 4
add(paper(S, "ring-5 clockwise scenario, no SPIN: deadlocks alike", 1, 4,
          RING5 + " --drain-limit 2000 --quiet", ports=3, kind="deadlocks"))
add(spin(S, "ring-6 favors_min 0.3, SPIN", 1, 5,
         "--topo ring-6 --routing favors_min --rate 0.3 --cycles 5000", ports=3,
         at_least=dict(probes_sent=12, spins=3)))  # 13, 3 (20, 3 with the old unit)
for s, probes, spins in ((1, 415, 22), (2, 230, 22), (3, 120, 12)):  # 461 28, -, 137 13
    add(spin(S, f"mesh4x4 1 VC favors_min 0.3 seed {s}, SPIN", 1, s,
             f"--topo mesh4x4 --routing favors_min --rate 0.3 --cycles 5000 --seed {s}",
             at_least=dict(probes_sent=probes, spins=spins)))
add(paper(S, "mesh4x4 1 VC favors_min 0.3, no SPIN: deadlocks alike", 1, 2,
          "--topo mesh4x4 --routing favors_min --rate 0.3 --cycles 5000 --drain-limit 3000 --quiet",
          kind="deadlocks"))
# the paper's router at 0.07: it deadlocks without SPIN (42,559 of 149,777
# packets arrive) and drains with it; the C model alone (the live section
# co-simulates make sim's run).  (0.08 until the special messages were
# redesigned: with one message handled a cycle the paper mode at 0.08 on
# this mesh now tips into saturation, where it collapses; docs/results.md.)
add(cmodel(S, "mesh8x8 1 VC favors_min 0.07, 100000 cycles, SPIN, C model",
           "--mode paper --spin 1 --topo mesh8x8 --routing favors_min --rate 0.07 --cycles 100000",
           at_least=dict(probes_sent=7, spins=1), cost=3))  # 8, 1
# the same load at t_DD 32, a seed that deadlocks within 10,000 cycles
add(spin(S, "mesh8x8 1 VC favors_min 0.08, t_DD 32, seed 9, SPIN", 1, 7,
         "--topo mesh8x8 --routing favors_min --rate 0.08 --cycles 10000 --tdd 32 --seed 9",
         at_least=dict(probes_sent=18, spins=1), cost=6))  # 20, 1 (46, 3 with the old unit)
# neighbor traffic at 0.27 deadlocks often (4-router loops); at t_DD 32 the
# mesh stays live and drains (20 deadlocks resolved in these 50,000 cycles)
add(spin(S, "mesh8x8 1 VC favors_min neighbor 0.27, t_DD 32, 50000 cycles, SPIN", 1, 1,
         "--topo mesh8x8 --routing favors_min --traffic neighbor --rate 0.27 --cycles 50000"
         " --tdd 32", at_least=dict(probes_sent=1000, spins=18), cost=45))  # 1100, 20
# SPIN on without deadlocks (deterministic routing, or loads below them):
# probes and kill_moves still take link slots, so timing changes; nothing may
# spin
for r, probes in (("xy", 45), ("west_first", 1300)):  # 51, 1436
    add(spin(S, f"mesh8x8 1 VC {r} 0.3, SPIN on, congested, no deadlock", 1, 2,
             f"--quiet --topo mesh8x8 --routing {r} --rate 0.3 --cycles 4000",
             at_least=dict(probes_sent=probes), exactly=dict(spins=0, deadlocks_resolved=0),
             cost=8))
# Adaptive routing with several VCs, congested but below its deadlocks: at
# the default t_DD of 128 these loads send no probe at all, so they run at
# t_DD 32, where counters expire and probes go out (and fork), and still
# nothing may spin.
# probes_sent, probes_forked of the 4x4 run, then of the 8x8 run:
# 2 VCs 278 21, 31 4; 3 VCs 190 17, 324 37 (2 VCs, old unit: 321 21, 44 2)
for v, rate8, p4, f4, p8, f8 in ((2, "0.2", 250, 18, 28, 2), (3, "0.28", 170, 15, 290, 33)):
    add(spin(S, f"mesh4x4 {v} VC favors_min 0.6, t_DD 32, SPIN on, no false positive", v, v,
             "--quiet --topo mesh4x4 --routing favors_min --rate 0.6 --cycles 5000 --tdd 32",
             at_least=dict(probes_sent=p4, probes_forked=f4),
             exactly=dict(false_positives=0, spins=1 if v == 2 else 0)))
    # (with 2 VCs one probe now comes back over VCs that all wait and spins
    # once, on a loop that would have cleared: the run drains without SPIN)
    add(spin(S, f"mesh8x8 {v} VC favors_min {rate8}, t_DD 32, SPIN on, no deadlock", v, v,
             f"--quiet --topo mesh8x8 --routing favors_min --rate {rate8} --cycles 6000 --tdd 32",
             at_least=dict(probes_sent=p8, probes_forked=f8), exactly=dict(spins=0), cost=10))
# Past its saturation minimal adaptive routing with 4 VCs deadlocks often
# (106 resolved, some with 3 spins, in 13,550 cycles)
add(spin(S, "mesh8x8 4 VC favors_min 0.4, t_DD 32, SPIN", 4, 4,
         "--topo mesh8x8 --routing favors_min --rate 0.4 --cycles 2000 --tdd 32",
         at_least=dict(probes_sent=12300, spins=105, probes_forked=20000), cost=25))
# (13729 probes, 28767 forked, 117 spins; before special messages carried
# idx, 32 path entries instead of 34: 16258, 22919, 122)
# A jammed 1-VC mesh, the paper's router far past saturation: it keeps
# resolving deadlocks (25,799 probes, 28 spins).  Until the special messages
# were redesigned, routers frozen for others' recoveries left on their own
# timeout here (10 of them); the redesigned unit's move-class messages no
# longer get lost in this run (0), and the timeout is exercised by the FSM's
# unit bench (tb/unit/spin_fsm_tb.cpp, its "FROZEN timeout" corner)
JAM = "--mode paper --spin 1 --topo mesh8x8 --routing favors_min --rate 0.2 --tdd 16 --cycles 5000 --drain-limit 3000 --quiet"
add(cmodel(S, "jammed 1-VC mesh, C model: deadlocks resolved far past saturation", JAM,
           kind="deadlocks", at_least=dict(probes_sent=23000, spins=25)))
add(cosim(S, "mesh8x8 1 VC favors_min 0.2, t_DD 16, SPIN on, jammed: both models alike", 1, 3,
          JAM, kind="deadlocks", at_least=dict(probes_sent=23000, spins=25), cost=10))
add(spin(S, "mesh8x8 2 VC favors_min 0.25, SPIN on: both models alike", 2, 3,
         "--topo mesh8x8 --routing favors_min --rate 0.25 --cycles 6000 --drain-limit 3000 --quiet",
         kind="deadlocks", at_least=dict(probes_sent=2500, spins=29, probes_forked=6200),
         cost=15))  # 2953, 32, 20413 (2786, 48, 6901 with the old unit)
add(spin(S, "failed_links favors_min 0.3, SPIN on", 1, 4,
         f"--quiet --topo file:{T} --routing favors_min --rate 0.3 --cycles 5000",
         at_least=dict(probes_sent=70, spins=14)))  # 80, 16

# ---- probes that fork: random traffic with several VCs ----
# With 2 to 4 VCs the VCs at a probe's arrival port can wait for different
# output ports, and the probe is copied out of each (contract 12.3).  These
# runs deadlock past saturation, fork probes, spin, and drain.
S = "forks"
# (probes_sent, spins, probes_forked: 5064 34 2673, 3661 30 1508, 2917 29
# 1448.  2 VCs ran at 0.3 until the special messages lost their path: the
# old unit's probes then spun a network that drains as well without SPIN
# (latency 1,267 against 28 cycles); now nothing spins there, and 0.4 is
# the load that deadlocks.)
for v, rate, probes, spins, forked in ((2, "0.4", 4500, 30, 2400), (3, "0.5", 3300, 27, 1350),
                                       (4, "0.5", 2600, 26, 1300)):
    add(spin(S, f"mesh6x6 {v} VC favors_min {rate}, t_DD 32, forks, SPIN", v, v + 1,
             f"--topo mesh6x6 --routing favors_min --rate {rate} --cycles 2000 --tdd 32",
             at_least=dict(probes_sent=probes, spins=spins, probes_forked=forked), cost=10))

# ---- directed scenarios (docs/scenarios.md) ----
# Their outcomes are checked cycle by cycle on the C model by
# cmodel/tests/test_spin_scenarios.c; here both models must agree on every
# cycle of each and end with the counters that test derives, in the paper's
# router (two with one live-mode mechanism on): with SmPipe 0 (the paper's
# timing, the paper mode's default) and, for most, SmPipe 2 (a special
# message takes two cycles more a hop, so C = 3m on 1-cycle links, and
# counters that expire again before the move reaches them send more
# probes); fig8_output_tie, whose t_DD = 5h is chosen for it, with SmPipe 2
# only, and fig8_one_offer with t_DD = 10h for each.  No recovery of these
# may end on a frozen router's timeout.  (ring5_cycmax, a CycW narrower
# than the network needs, is the C test's alone: the co-simulation's
# routers are built with wider fields and the C model refuses narrower ones
# as an option.)
S = "scenarios"


def scenario(name, ports, vcs, vseed, args, pipe=0, **counts):
    """A directed scenario co-simulated with SmPipe PIPE: COUNTS are the
    exact counters it ends with (the names of summary.json), but
    probes_sent_min, a minimum."""
    at_least = {}
    if "probes_sent_min" in counts:
        at_least["probes_sent"] = counts.pop("probes_sent_min")
    counts.setdefault("frozen_timeouts", 0)
    return spin(S, name + (f", SmPipe {pipe}" if pipe else ""), vcs, vseed,
                args + (f" --sm-pipe {pipe}" if pipe else ""), ports=ports, exactly=counts,
                at_least=at_least)


def file_args(sc, topo, tdd=32):
    return (f"--topo file:tb/scenarios/{topo}.topo --routing favors_min --tdd {tdd}"
            f" --traffic trace:tb/scenarios/{sc}.trace --cycles 1")


def ring_args(sc, topo, tdd=32):
    return (f"--topo {topo} --routing favors_min --tdd {tdd}"
            f" --traffic trace:tb/scenarios/{sc}.trace --cycles 1")


# (scenario, topology, VCs, SmPipe, probes sent, returned, forked, spins,
# resolved, false positives): the figures test_spin_scenarios derives; router
# K forks the probe in the two theta cases.  Unchanged since special messages
# lost their hop count and path index (a move-class message home or lost by
# its delay against lc + 2, the kill_move counting down like a move): every
# cycle and count stayed.
for sc, topo, v, pipe, sent, ret, forked, spins, res, fp in (
        ("theta_fig4", "theta", 2, 0, 7, 1, 1, 1, 1, 0),
        ("theta_fig4", "theta", 2, 2, 9, 1, 1, 1, 1, 0),
        ("fig5a_case1", "theta", 2, 0, 7, 1, 1, 1, 1, 0),
        ("fig5a_case1", "theta", 2, 2, 9, 1, 1, 1, 1, 0),
        ("fig5a_case2", "fig8", 1, 0, 12, 3, 0, 2, 2, 1),
        ("fig5a_case2", "fig8", 1, 2, 13, 3, 0, 2, 2, 1),
        ("fig5b_case1", "fig8", 1, 0, 9, 1, 0, 1, 1, 0),
        ("fig5b_case1", "fig8", 1, 2, 17, 1, 0, 1, 1, 0),
        ("fig5b_case2", "fig8", 1, 0, 9, 1, 0, 1, 1, 0),
        ("fig5b_case2", "fig8", 1, 2, 17, 1, 0, 1, 1, 0),
        ("lasso_probe_mark", "lasso", 1, 0, 25, 1, 0, 1, 1, 0),
        ("lasso_probe_mark", "lasso", 1, 2, 26, 1, 0, 1, 1, 0),
        ("fig8_kill_release", "fig8", 1, 0, 6, 1, 0, 1, 1, 0),
        ("fig8_kill_release", "fig8", 1, 2, 16, 1, 0, 1, 1, 0)):
    add(scenario(f"scenario {sc} ({topo}.topo, {v} VC)", 6 if topo == "theta" else 5, v,
                 2 + pipe, file_args(sc, topo), pipe, probes_sent=sent, probes_returned=ret,
                 probes_forked=forked, spins=spins, deadlocks_resolved=res, false_positives=fp))
# probe adoption (contract 12.4) on lasso_probe_mark's run: router 2, where
# router 0's probe comes round, takes the ring's loop in C = cyc - mark_cyc
# (5h) cycles; one spin, 7 probes (9 with SmPipe 2)
for pipe in (0, 2):
    add(scenario("scenario lasso_adopt (lasso.topo, 1 VC, adoption)", 5, 1, 6 + pipe // 2,
                 file_args("lasso_probe_mark", "lasso") + " --adopt 1", pipe,
                 probes_sent=9 if pipe else 7, probes_adopted=1, probes_returned=0,
                 probes_forked=0, moves_sent=1, spins=1, deadlocks_resolved=1,
                 false_positives=0, longest_loop_hops=5, longest_loop_cycles=5 * (1 + pipe)))
# the output stage's tie: router 0's own probe, forwarded through it on the
# figure 8 of fig5b_case2, against the probe its counter offers for the same
# port in the same cycle (t_DD = 5h = 15): the forwarded one goes, the new
# one is dropped; one more own probe loses to the move (28 sent, 2 dropped
# for contention)
add(scenario("scenario fig8_output_tie (fig8.topo, 1 VC, t_DD 15)", 5, 1, 6,
             file_args("fig5b_case2", "fig8", 15), 2, probes_sent=28,
             probes_dropped_contention=2, probes_returned=1, probes_forked=0, spins=1,
             deadlocks_resolved=1, false_positives=0))
# the FSM's one offer a cycle (contract 12.2): router 0's probe comes home in
# the cycle its counter expires watching a VC routed to port 1; the move
# (port 3) replaces the counter's probe, which is counted dropped (t_DD =
# 10h = C: 10 with SmPipe 0, 30 with SmPipe 2; 17 probes sent, 17 dropped)
for pipe in (0, 2):
    add(scenario(f"scenario fig8_one_offer (fig8.topo, 1 VC, t_DD {10 * (1 + pipe)})", 5, 1,
                 1 + pipe, file_args("fig5b_case2", "fig8", 10 * (1 + pipe)), pipe,
                 probes_sent=17, probes_dropped=17, probes_dropped_contention=1,
                 probes_returned=1, probes_forked=0, moves_sent=1, spins=1,
                 deadlocks_resolved=1, false_positives=0, longest_loop_hops=10,
                 longest_loop_cycles=10 * (1 + pipe)))
# a move lost away from its sender (12.5: delay < lc + 2): link 1-2 fails in
# cycle 40, between router 0's probe and its move at router 1, whose waiting
# head routes again (the paper's router with rerouting) into the chain
# behind router 5; the move and the kill_move are lost at router 9, a false
# positive, then the loop of 9 through the detour is resolved (C = 9h).  At
# least the first wave's 9 probes and router 0's second.
for pipe in (0, 2):
    add(scenario("scenario detour_move_lost (detour.topo, 1 VC, link 1-2 fails)", 5, 1,
                 4 + pipe, file_args("detour_move_lost", "detour")
                 + " --reroute 1 --faults 40@1:1", pipe,
                 probes_sent_min=10, probes_returned=2, probes_forked=0, moves_sent=2,
                 probe_moves_sent=1, kill_moves_sent=2, moves_dropped=3, spins=1,
                 deadlocks_resolved=1, false_positives=1, longest_loop_hops=9,
                 longest_loop_cycles=9 * (1 + pipe), links_failed=1))
for pipe, sent in ((0, 7), (2, 10)):
    add(scenario("scenario ring7_multispin (ring-7)", 3, 1, 3 + pipe,
                 ring_args("ring7_multispin", "ring-7"), pipe, probes_sent=sent,
                 probes_returned=1, probe_moves_sent=2, spins=2, deadlocks_resolved=1,
                 false_positives=0))
# congestion without a deadlock: every probe that comes back ends as a false
# positive, and nothing spins (50 probes, 2 returned); t_DD 15, so that
# router 0's first probe meets the free VC on the move (the test's comment)
add(spin(S, "scenario ring9_false_positive (ring-9)", 1, 4,
         ring_args("ring9_false_positive", "ring-9", 15),
         ports=3, at_least=dict(probes_sent=45, probes_returned=2, false_positives=2),
         exactly=dict(spins=0, deadlocks_resolved=0, frozen_timeouts=0)))
# every probe dropped at router 1 (ejection, priority, empty VC): no move, no spin
add(scenario("scenario line4_eject_drop (line4.topo)", 3, 1, 5,
             file_args("line4_eject_drop", "line4", 8), probes_sent=3, probes_dropped=3,
             probes_dropped_not_blocked=2, probes_dropped_outranked=1, moves_sent=0, spins=0))
# four recoveries of the loop of 40, one spin each (106 probes)
add(scenario("scenario ring40_long_loop (ring-40, 40-hop loop)", 3, 1, 6,
             ring_args("ring40_long_loop", "ring-40"), probes_sent_min=100, probes_returned=4,
             spins=4, deadlocks_resolved=4, false_positives=0, longest_loop_hops=40,
             longest_loop_cycles=40))
# a loop of 65 cycles (75 with SmPipe 2), past the 63 a move's delay once
# carried: four recoveries, one spin each; the first alone sends 17 probes
# (19) before its move is home (52 and 61 in the run)
for pipe in (0, 2):
    add(scenario("scenario ring5_65_cycles (ring-5@13, 65-cycle loop)", 3, 1, 7 - pipe,
                 ring_args("ring5_clockwise", "ring-5@13"), pipe,
                 probes_sent_min=19 if pipe else 17, probes_returned=4, spins=4,
                 deadlocks_resolved=4, false_positives=0, longest_loop_hops=5,
                 longest_loop_cycles=75 if pipe else 65))

# ---- the seeds' networks (docs/scenarios.md, "Credit loops of the Mellanox paper") ----
# Each deadlocks without SPIN and drains with it at the default t_DD (128),
# in the paper's router (--mode paper: SmPipe 0) and in the live one's
# local rules (SmPipe 2, local=True: with window-gated admission and the
# window these traces form fewer deadlocks), both models compared every cycle.  Fig. 1: the fat tree with
# two failed links, whose one loop is 11 -> 23 -> 12 -> 22 -> 11; Fig. 4:
# the 4-switch ring.  The minimum spins of each; measured: Fig. 1, 2 spins
# (paper) and 1 (live); Fig. 4, 53 and 17.
S = "seeds"
for sc, vs, (n_paper, n_live) in (("mellanox_fig1_fattree", 2, (1, 1)),
                                  ("mellanox_fig4_ring", 3, (40, 7))):   # 2 1, 53 17
    SEED_ARGS = (f"--topo file:tb/scenarios/{sc}.topo --routing favors_min"
                 f" --traffic trace:tb/scenarios/{sc}.trace --cycles 1")
    for mode, n in (("paper", n_paper), ("live", n_live)):
        add(cosim(S, f"seed scenario {sc}, {mode} mode, no SPIN: deadlocks", 1, vs,
                  f"--mode {mode} --spin 0 {SEED_ARGS} --drain-limit 3000 --quiet", kind="deadlocks",
                  local=mode == "live"))
        add(cosim(S, f"seed scenario {sc}, {mode} mode, SPIN: drains", 1, vs + 2,
                  f"--mode {mode} --spin 1 {SEED_ARGS}",
                  at_least=dict(probes_sent=1, spins=n, deadlocks_resolved=n), local=mode == "live"))
# Fig. 6: the miswired three-level fat tree (a reconstruction: 60 routers of
# up to 7 ports, the 9 flows of the paper).  The paper's router deadlocks
# (2,774 of 3,600 packets arrive; a non-deadlocked run of this trace drains
# in about 8,300 cycles after the trace's end, so 12,000 tell the two apart)
# and drains with SPIN, which resolves loops of 6 through the three loop
# flows (31 probes, 2 spins, 2 resolved when written); the live router's
# rerouting keeps it out of the loop without SPIN.  The same trace on the
# tree as intended drains without SPIN.  scripts/cdg_cycle.py shows the
# dependency cycle of the loop flows' minimal routes on the miswired tree, and
# none on the intended one.
FIG6 = ("--routing favors_min --traffic trace:tb/scenarios/mellanox_fig6_fattree.trace"
        " --cycles 1")
FIG6_MIS = "--topo file:tb/scenarios/mellanox_fig6_fattree.topo " + FIG6
add(cosim(S, "seed scenario mellanox_fig6_fattree, paper mode, no SPIN: deadlocks", 1, 2,
          f"--mode paper --spin 0 {FIG6_MIS} --drain-limit 12000 --quiet", ports=7,
          kind="deadlocks", at_most=dict(packets_delivered=3000), cost=15))
add(cosim(S, "seed scenario mellanox_fig6_fattree, paper mode, SPIN: drains", 1, 3,
          f"--mode paper --spin 1 {FIG6_MIS}", ports=7,
          at_least=dict(probes_sent=20, spins=1, deadlocks_resolved=1), cost=12))
add(cosim(S, "seed scenario mellanox_fig6_fattree, live mode, no SPIN: drains", 1, 4,
          f"--mode live --spin 0 {FIG6_MIS}", ports=7, cost=12))
add(cmodel(S, "seed scenario mellanox_fig6_fattree, paper mode, no SPIN, C model: deadlocks",
           f"--mode paper --spin 0 {FIG6_MIS} --drain-limit 12000 --quiet", kind="deadlocks",
           at_most=dict(packets_delivered=3000)))
add(cmodel(S, "seed scenario mellanox_fig6_fattree, paper mode, SPIN, C model: drains",
           f"--mode paper --spin 1 {FIG6_MIS}",
           at_least=dict(probes_sent=20, spins=1, deadlocks_resolved=1)))
add(cmodel(S, "seed scenario mellanox_fig6_intended (no mistake), paper mode, no SPIN, C model: drains",
           f"--mode paper --spin 0 --topo file:tb/scenarios/mellanox_fig6_intended.topo {FIG6}"
           " --drain-limit 12000"))
CDG = ["python3", "scripts/cdg_cycle.py"]
FIG6_TRACE = "tb/scenarios/mellanox_fig6_fattree.trace"
# the loop flows alone (hosts 9 -> 15, 13 -> 32, 30 -> 17 are routers 36 -> 42,
# 40 -> 59, 57 -> 44) close a cycle of 6 channels through edge switches E7,
# E14 and E15
add(passes(S, "cdg_cycle: the Fig. 6 loop flows close a cycle of 6 on the miswired tree", [
    "bash", "-c", 'set -o pipefail; "$@" | tee /dev/stderr | grep "^cycle of 6 channels" > /dev/null', "_", *CDG,
    "tb/scenarios/mellanox_fig6_fattree.topo", FIG6_TRACE, "--flows", "36:42,40:59,57:44"]))
add(passes(S, "cdg_cycle: no cycle for the 9 Fig. 6 flows on the tree as intended",
           CDG + ["tb/scenarios/mellanox_fig6_intended.topo", FIG6_TRACE, "--expect", "none"]))
# the script against the credit loop of Fig. 1: a cycle of 4 with the two
# links failed, none on the whole tree
add(passes(S, "cdg_cycle: the Fig. 1 loop, a cycle of 4, with the two links failed", [
    "bash", "-c", 'set -o pipefail; "$@" | tee /dev/stderr | grep "^cycle of 4 channels" > /dev/null', "_", *CDG,
    "tb/scenarios/mellanox_fig1_fattree.topo", "tb/scenarios/mellanox_fig1_fattree.trace"]))
add(passes(S, "cdg_cycle: no cycle on the whole Fig. 1 tree",
           CDG + ["tb/scenarios/mellanox_fig1_failover.topo",
                  "tb/scenarios/mellanox_fig1_fattree.trace", "--expect", "none"]))
add(error(S, "bad input: cdg_cycle given a trace for a topology", r"mellanox_fig6_fattree.trace:7: "
          r"unknown keyword '0'", f"python3 scripts/cdg_cycle.py {FIG6_TRACE} {FIG6_TRACE}"))

# ---- links of 2 to 16 cycles (contract section 1): L - 1 more registers
# each way; SPIN's probes count the extra cycles (x) and its timers run in
# cycles round the loop (12.1).  The figures after each case are what it did
# when written.
S = "latency"
L_RING5 = ("--routing favors_min --traffic trace:tb/scenarios/ring5_clockwise.trace --cycles 1"
           " --drain-limit 5000")
# the ring's loop of 5 hops at 1, 3 and 12 cycles a link (5, 15 and 60
# cycles round): one spin each, as with 1-cycle links
for lat, vs in ((3, 2), (12, 3)):
    add(spin(S, f"ring-5@{lat}: 5 hops of {lat} cycles, the paper's walk-through", 1, vs,
             f"--topo ring-5@{lat} {L_RING5}", ports=3,
             exactly=dict(deadlocks_resolved=4, spins=4, probes_returned=4),
             at_least=dict(probes_sent=10)))  # 17, 14
# 5 hops of 13 cycles: 65 cycles round (75 with SmPipe 2), past the 63 the
# fixed-width messages of before could carry; the widths are the network's
# own now (12.9), so every loop it can form is resolved
add(spin(S, "ring-5@13: a loop of 65 link cycles, resolved (network-sized widths)", 1, 4,
         f"--topo ring-5@13 {L_RING5}", ports=3,
         exactly=dict(probes_returned=4, deadlocks_resolved=4, spins=4, frozen_timeouts=0),
         at_least=dict(probes_sent=5)))  # 14
# links past 16 cycles (XlatW 10 in the co-simulation's routers): 5 hops of
# 1,024 cycles, a loop of 5,130 cycles with SmPipe 2.  t_DD auto (the hop
# diameter 2 x 1,024 = 2,048, contract 12.3) makes the rotating priority's
# epoch outlast the loop; with the paper's 128 (epoch 512) every probe of the
# loop is outranked on its way round and the ring jams for good.
L_RING5_1K = ("--topo ring-5@1024 --routing favors_min --traffic trace:tb/scenarios/ring5_clockwise.trace"
              " --cycles 1")
add(cosim(S, "ring-5@1024: a loop of 5,130 cycles, live, t_DD auto", 1, 5,
          f"--spin 1 {L_RING5_1K} --drain-limit 120000", ports=3,
          exactly=dict(deadlocks_resolved=4, spins=4, tdd=2048), at_least=dict(probes_sent=30),
          cost=3))  # probes 71
add(cmodel(S, "ring-5@1024 with t_DD 128: every probe outranked, deadlocks (C model)",
           f"--spin 1 {L_RING5_1K} --tdd 128 --drain-limit 60000 --quiet", kind="deadlocks",
           exactly=dict(probes_returned=0, spins=0), at_least=dict(probes_sent=1000)))  # 2300
# A loop t_DD auto does not find (tb/scenarios/ring32_chords.topo, written
# by scripts/long_loop_scenarios.py): all 32 routers of a ring over
# 300-cycle links, chords of 1 cycle making the hop diameter 5 (auto: 1,500,
# epoch 6,000), the loop of 9,664 cycles run against the ids' order, so the
# rotating top reaches a router ahead of every probe.  t_DD cover (contract
# 12.3: a third of the longest loop the network can form, 19,520 cycles)
# finds it.
L_CHORD = ("--topo file:tb/scenarios/ring32_chords.topo --routing favors_min"
           " --traffic trace:tb/scenarios/ring32_ccw.trace --cycles 1")
add(cmodel(S, "ring32 with chords, a loop of 9,664 cycles against the ids, t_DD auto: deadlocks (C model)",
           f"--spin 1 {L_CHORD} --drain-limit 60000 --quiet", kind="deadlocks",
           exactly=dict(probes_returned=0, spins=0, tdd=1500), at_least=dict(probes_sent=1000)))  # 1304
add(cosim(S, "ring32 with chords, a loop of 9,664 cycles against the ids, t_DD cover", 1, 3,
          f"--spin 1 {L_CHORD} --tdd cover --drain-limit 300000",
          exactly=dict(deadlocks_resolved=4, spins=4, tdd=6507), at_least=dict(probes_sent=50),
          cost=5))  # probes 100
add(paper(S, "mesh4x4@2 1 VC favors_min 0.3, no SPIN: deadlocks alike in both models", 1, 5,
          "--spin 0 --topo mesh4x4@2 --routing favors_min --rate 0.3 --cycles 4000"
          " --drain-limit 3000 --quiet", kind="deadlocks"))
add(spin(S, "mesh4x4@2 1 VC favors_min 0.3, SPIN", 1, 6,
         "--topo mesh4x4@2 --routing favors_min --rate 0.3 --cycles 6000",
         at_least=dict(probes_sent=500, spins=25, deadlocks_resolved=25), cost=3))  # 825 43 43
add(spin(S, "mesh4x4@3 1 VC favors_min 0.3, SPIN", 1, 7,
         "--topo mesh4x4@3 --routing favors_min --rate 0.3 --cycles 6000",
         at_least=dict(probes_sent=300, spins=20, deadlocks_resolved=20), cost=3))  # 563 35 35
T_MIX = "tb/topologies/mesh4x4_mixed_latency.topo"
add(spin(S, "mesh4x4 links of 1, 2, 3 and 16 cycles, 1 VC favors_min 0.4, SPIN", 1, 1,
         f"--topo file:{T_MIX} --routing favors_min --rate 0.4 --cycles 6000 --drain-limit 80000",
         at_least=dict(probes_sent=900, spins=30, deadlocks_resolved=30), cost=5))  # 1449 55 55
add(cosim(S, "mesh4x4 links of 1, 2, 3 and 16 cycles, 1 VC favors_min 0.4, live, SPIN", 1, 2,
          f"--spin 1 --topo file:{T_MIX} --routing favors_min --rate 0.4 --cycles 6000"
          " --drain-limit 80000", at_least=dict(probes_sent=60, spins=2), cost=5, local=True))  # 78 2
add(spin(S, "ring-6@3 favors_min 0.3, SPIN", 1, 3,
         "--topo ring-6@3 --routing favors_min --rate 0.3 --cycles 5000", ports=3,
         at_least=dict(probes_sent=30, spins=4, deadlocks_resolved=4)))  # 50 8 8
# the 2-VC dragonfly does not deadlock at any load: its global links of 4
# cycles co-simulated without SPIN
add(cosim(S, "dragonfly-4-1-2@4 (global links of 4 cycles) 2 VC favors_min 0.9, no SPIN: drains",
          2, 4, "--spin 0 --topo dragonfly-4-1-2@4 --routing favors_min --rate 0.9 --cycles 4000",
          ports=6, cost=3))
# 2 VCs: probes fork over links of 2 cycles and loops are resolved
add(spin(S, "mesh6x6@2 2 VC favors_min 0.4, SPIN", 2, 5,
         "--topo mesh6x6@2 --routing favors_min --rate 0.4 --cycles 4000",
         at_least=dict(probes_sent=3000, probes_forked=2000, spins=50), cost=8))  # 4755 3336 79
add(cmodel(S, "mesh8x8@2 1 VC favors_min 0.3, live, SPIN, C model: drains",
           "--spin 1 --topo mesh8x8@2 --routing favors_min --rate 0.3 --cycles 20000",
           at_least=dict(probes_sent=40, spins=1), cost=2, local=True))  # spins 1 (4 with the old unit)
add(Case(name="top mesh3x3@3 1 VC favors_min 0.5, paper mode, SPIN", kind="drains", section=S,
         vcs=1, spin=True, cosim=True,
         argv=("{top_mesh3x3_l3_v1}", "--topo", "mesh3x3@3", "--vcs", "1", "--routing", "favors_min",
               "--mode", "paper", "--spin", "1", "--rate", "0.5", "--cycles", "4000",
               "+verilator+seed+6"),
         at_least=dict(probes_sent=15, spins=2, deadlocks_resolved=2), cost=5))  # 28 4 4
# the recovery throttle (contract 8) with an epoch of 32 cycles on the same
# network: it turns on after each recovery, and the harness sets every
# router's admission (admit_i) and the top's occupancy admission
# (admit_occ_i) every cycle
add(Case(name="top mesh3x3@3 1 VC favors_min 0.5, paper mode, SPIN, recovery throttle of 32 cycles",
         kind="drains", section=S, vcs=1, spin=True, cosim=True,
         argv=("{top_mesh3x3_l3_v1}", "--topo", "mesh3x3@3", "--vcs", "1", "--routing", "favors_min",
               "--mode", "paper", "--spin", "1", "--rate", "0.5", "--cycles", "4000",
               "--throttle", "32", "--seed", "6", "+verilator+seed+6"),
         at_least=dict(probes_sent=15, spins=3, throttle_turned_on=3, throttle_cycles=200),
         cost=5))  # C model: 7 resolved, turned on 7 times, 576 cycles

# ---- links that fail at run time (contract 4.4): the tables of both models
# are rewritten at the fault's cycle; what was committed to the link crosses
S = "faults"
# The Mellanox paper's Fig. 1 as it happens: the full fat tree carries the
# four flows, links 12-21 and 11-24 fail at cycle 400, the recomputed minimal
# routes close the credit loop 11 -> 23 -> 12 -> 22 -> 11.
FAIL_ARGS = ("--topo file:tb/scenarios/mellanox_fig1_failover.topo --routing favors_min"
             " --traffic trace:tb/scenarios/mellanox_fig1_fattree.trace --cycles 1"
             " --faults file:tb/scenarios/mellanox_fig1_failover.faults")
for mode in ("live", "paper"):
    add(cosim(S, f"seed scenario mellanox_fig1_failover, {mode} mode, no SPIN: deadlocks", 1, 3,
              f"--mode {mode} --spin 0 {FAIL_ARGS} --drain-limit 3000 --quiet", kind="deadlocks",
              exactly=dict(links_failed=2), local=mode == "live"))
# live: one recovery (5,491 cycles); the paper's router (SmPipe 0) re-forms
# the loop after every spin and needs 347 recoveries (54,618 cycles)
add(cosim(S, "seed scenario mellanox_fig1_failover, live mode, SPIN: drains", 1, 4,
          f"--mode live --spin 1 {FAIL_ARGS}",
          exactly=dict(links_failed=2), at_least=dict(probes_sent=1, spins=1, deadlocks_resolved=1),
          local=True))
add(cosim(S, "seed scenario mellanox_fig1_failover, paper mode, SPIN: drains", 1, 5,
          f"--mode paper --spin 1 {FAIL_ARGS} --drain-limit 60000",
          exactly=dict(links_failed=2),
          at_least=dict(probes_sent=1000, spins=300, deadlocks_resolved=300), cost=3))  # 1302 347
# synthetic load over failing links, every fault applied in the run
add(cosim(S, "mesh4x4 1 VC favors_min 0.3, 3 links fail, SPIN", 1, 6,
          "--spin 1 --topo mesh4x4 --routing favors_min --rate 0.3 --cycles 6000"
          " --faults 1000@5:1,2500@10:3,2500@6:4",
          exactly=dict(links_failed=3), at_least=dict(probes_sent=40, spins=4), cost=3, local=True))  # 63 7
add(cosim(S, "mesh4x4 2 VC favors_min 0.4, 2 links fail at cycles 0 and 3000, no SPIN", 2, 7,
          "--spin 0 --topo mesh4x4 --routing favors_min --rate 0.4 --cycles 6000"
          " --faults 3000@9:3,0@2:3", exactly=dict(links_failed=2), cost=3))
add(cosim(S, "mesh4x4 1 VC favors_nmin 0.3, 2 links fail, SPIN", 1, 1,
          "--spin 1 --topo mesh4x4 --routing favors_nmin --rate 0.3 --cycles 6000"
          " --faults 1500@5:3,3000@9:1", exactly=dict(links_failed=2),
          at_least=dict(detours=1, probes_sent=30, spins=4), cost=3, local=True))  # 53 7
add(cosim(S, "links of 1 to 16 cycles, the 16-cycle one failing, 1 VC favors_min 0.3, SPIN", 1, 2,
          "--spin 1 --topo file:tb/topologies/mesh4x4_mixed_latency.topo --routing favors_min"
          " --rate 0.3 --cycles 6000 --faults 1000@5:3,3000@9:1 --drain-limit 80000",
          exactly=dict(links_failed=2), at_least=dict(probes_sent=20, spins=2), cost=3, local=True))  # 30 3
# a random irregular network (scripts/random_topology.py, its first line)
# with links of 1 to 300 cycles, two of them failing: t_DD auto 1,200 (hop
# diameter 4 x 300), three deadlocks resolved (loops of up to 6 hops)
add(cosim(S, "random 12 routers, links of 1 to 300 cycles, 2 fail, 1 VC favors_min 0.3, SPIN", 1, 3,
          "--spin 1 --topo file:tb/topologies/random12_long.topo --routing favors_min --rate 0.3"
          " --cycles 1500 --drain-limit 600000 --faults 6209@11:1,7508@11:2 --min-cycles 0",
          exactly=dict(links_failed=2, tdd=1200), at_least=dict(probes_sent=90, spins=2),
          cost=3, local=True))  # probes 186, spins 3 (least-hop routes: minimal in cycles,
# the same run drains by cycle 3,336 with no deadlock, before the links fail)
add(passes(S, "scripts/random_topology.py: writes random12_long.topo and its faults again",
            ["sh", "-c", "mkdir -p build/regress && python3 scripts/random_topology.py --routers 12"
             " --max-ports 5 --max-latency 300 --extra 6 --faults 2 --seed 12"
             " --out build/regress/random12_long.topo | grep -qx 6209@11:1,7508@11:2 &&"
             " cmp build/regress/random12_long.topo tb/topologies/random12_long.topo"]))
add(Case(name="top mesh3x3 2 VC favors_min 0.4, link 4:1 fails at cycle 1500", kind="drains",
         section=S, vcs=2, cosim=True,
         argv=("{top_mesh3x3_v2}", "--topo", "mesh3x3", "--vcs", "2", "--routing", "favors_min",
               "--rate", "0.4", "--cycles", "3000", "--faults", "1500@4:1", "+verilator+seed+6"),
         exactly=dict(links_failed=1), cost=5))
add(cmodel(S, "mesh8x8 1 VC favors_min 0.1, 4 links fail, SPIN, C model",
           "--spin 1 --topo mesh8x8 --routing favors_min --rate 0.1 --cycles 40000"
           " --faults 5000@27:1,5000@36:3,15000@9:1,25000@50:2",
           exactly=dict(links_failed=4),
           at_least=dict(probes_sent=500, spins=15, deadlocks_resolved=15), cost=2, local=True))  # 888 27 27
# a fault past the end of the run is never applied
add(cmodel(S, "a fault after the run is not applied, C model",
           "--topo mesh4x4 --routing favors_min --rate 0.1 --cycles 2000 --faults 1000@5:1,999999@6:1",
           exactly=dict(links_failed=1)))
FAULT_ERRORS = [
    ("a failure that disconnects the network",
     r"error: --faults \(FAULTS\) item 2: with the links failed by cycle 100: mesh4x4: router 0 "
     r"cannot reach router 1 \(disconnected network\)",
     "{spinsim} --topo mesh4x4 --routing favors_min --faults 100@0:1,100@0:3"),
    ("a fault file that disconnects the network names its line",
     r"error: .*bad_disconnect.faults:4: with the links failed by cycle 20: .*disconnected network",
     "{spinsim} --topo file:tb/scenarios/mellanox_fig1_failover.topo --routing favors_min"
     " --faults file:{data}/bad_disconnect.faults"),
    ("xy routing over a failed link", r"no xy route from router 5 to router \d+$",
     "{spinsim} --topo mesh4x4 --routing xy --faults 10@5:1"),
    ("escape routing over a failed link: its west-first VC", r"no west-first route from router 5 to router \d+$",
     "{spinsim} --topo mesh4x4 --routing escape --vcs 2 --faults 10@5:3"),
    ("a fault on a port without a link", r"router 0 port 2 of mesh4x4 has no link",
     "{spinsim} --topo mesh4x4 --routing favors_min --faults 10@0:2"),
    ("a fault on port 0", r"item 1: link '5:0' is not ROUTER:PORT",
     "{spinsim} --topo mesh4x4 --routing favors_min --faults 10@5:0"),
    ("a link failing twice", r"item 2: link 6:2-5:1 fails twice \(first at --faults \(FAULTS\) item 1\)",
     "{spinsim} --topo mesh4x4 --routing favors_min --faults 10@5:1,20@6:2"),
    ("a fault cycle past 10^15", r"cycle '1000000000000001' is not a number in 0..10\^15",
     "{spinsim} --topo mesh4x4 --routing favors_min --faults 1000000000000001@5:1"),
    ("a fault without @", r"item 1: '10:5:1' is not CYCLE@ROUTER:PORT",
     "{spinsim} --topo mesh4x4 --routing favors_min --faults 10:5:1"),
    ("a fault file line with an extra field", r"bad_extra.faults:3: extra field 'x'",
     "{spinsim} --topo mesh4x4 --routing favors_min --faults file:{data}/bad_extra.faults"),
    ("a missing fault file", r"cannot open .*no_such.faults",
     "{spinsim} --topo mesh4x4 --routing favors_min --faults file:{data}/no_such.faults"),
    ("co-simulation: a failure that disconnects the network", r"disconnected network",
     "{cosim_p5_v1} --vcs 1 --topo mesh4x4 --routing favors_min --faults 100@0:1,100@0:3"),
    ("make sim FAULTS with a space", r"FAULTS=1 2: expected CYCLE@ROUTER:PORT",
     "make --no-print-directory sim 'FAULTS=1 2'"),
]
for name, pattern, command in FAULT_ERRORS:
    add(error(S, f"bad input: {name}", pattern, command))

# ---- FAvORS-NMin (contract 4.3): the source may send a packet through an
# intermediate router; every case counts the packets that took a detour (so
# the decision, the second lookup and the header rewrite all ran) and, with
# SPIN, the spins under the 2m-1 bound (spin_bound_violations 0, checked for
# every SPIN case).  The figures after each case are what it did when written.
S = "nmin"
add(spin(S, "mesh4x4 1 VC favors_nmin 0.35, SPIN", 1, 5,
         "--topo mesh4x4 --routing favors_nmin --rate 0.35 --cycles 4000",
         at_least=dict(detours=900, probes_sent=1600, spins=90), cost=8))  # 1046 1847 101
add(cosim(S, "mesh8x8 1 VC favors_nmin bit_complement 0.3, live, SPIN", 1, 6,
          "--spin 1 --topo mesh8x8 --routing favors_nmin --traffic bit_complement --rate 0.3"
          " --cycles 5000", at_least=dict(detours=300, probes_sent=1600, spins=60),
          cost=25, local=True))  # 337 1803 72
add(spin(S, "ring-6 favors_nmin 0.3, SPIN", 1, 7,
         "--topo ring-6 --routing favors_nmin --rate 0.3 --cycles 5000", ports=3,
         at_least=dict(detours=450, probes_sent=120, spins=25)))  # 501 140 29
add(spin(S, "mesh3x3 failed links favors_nmin 0.3, SPIN", 1, 1,
         f"--topo file:{T} --routing favors_nmin --rate 0.3 --cycles 5000",
         at_least=dict(detours=550, probes_sent=500, spins=60)))  # 635 582 71
# the same runs under favors_min: no packet leaves toward an intermediate
add(cmodel(S, "mesh4x4 1 VC favors_min 0.35, SPIN: no detour, C model",
           "--mode paper --spin 1 --topo mesh4x4 --routing favors_min --rate 0.35 --cycles 4000",
           exactly=dict(detours=0), at_least=dict(probes_sent=80, spins=9)))  # 87 10

# ---- liveness, C model, paper mode: 1,000,000 cycles, 8x8, FAvORS-Min, 1 VC ----
S = "liveness"
# (0.08 with the unit before the redesign of the special messages: at 0.08
# the redesigned unit, one message handled a cycle, lets 2 of 3 seeds tip
# into saturation; docs/results.md, "The paper mode at 0.08")
LIVE = "--mode paper --topo mesh8x8 --routing favors_min --vcs 1 --rate 0.07 --cycles 1000000 --drain-limit 20000"
add(cmodel(S, "liveness 0.07, SPIN=0: deadlocks", LIVE + " --spin 0", kind="deadlocks", cost=20))
for s, probes, spins in ((1, 420, 4), (2, 420, 7)):  # 468 5, 473 8
    add(cmodel(S, f"liveness 0.07, SPIN=1, t_DD 32, seed {s}: drains",
               f"{LIVE} --spin 1 --tdd 32 --seed {s}",
               at_least=dict(probes_sent=probes, spins=spins), cost=35))
# neighbor 0.27: many deadlocks, and a network that stays live (297 and 333
# resolved)
NEIGH = ("--mode paper --topo mesh8x8 --routing favors_min --vcs 1 --traffic neighbor --rate 0.27"
         " --cycles 1000000 --drain-limit 20000")
add(cmodel(S, "liveness neighbor 0.27, SPIN=0: deadlocks", NEIGH + " --spin 0",
           kind="deadlocks", cost=20))
for s, probes, spins in ((1, 21000, 270), (2, 23000, 300)):  # 23332, 25867 (old unit 27201 297, 40756 333)
    add(cmodel(S, f"liveness neighbor 0.27, SPIN=1, t_DD 32, seed {s}: drains",
               f"{NEIGH} --spin 1 --tdd 32 --seed {s}",
               at_least=dict(probes_sent=probes, spins=spins), cost=50))

# ---- the live mode (the default: admission, rerouting, probe adoption) ----
# Contract section 13.  The counts after each case are what it did when it
# was written; the minimums sit a little below.
S = "live"


def live(section, name, vcs, vseed, args, ports=5, **kw):
    """A co-simulation of the default (live) router with SPIN on."""
    return cosim(section, name, vcs, vseed, "--spin 1 " + args, ports=ports, **kw)


# make sim's default run (TOPO=mesh8x8, RATE 0.1): the live router deadlocks
# without SPIN and drains with it
add(live(S, "mesh8x8 1 VC favors_min 0.1, 100000 cycles (make sim), live", 1, 2,
         "--topo mesh8x8 --routing favors_min --rate 0.1 --cycles 100000",
         at_least=dict(probes_sent=3, spins=1), cost=80))  # 4, 1
# the routers evaluated on two threads, the C model's step beside them
# (make sim's default where the machine has two CPUs): the same comparison
add(live(S, "mesh8x8 1 VC favors_min 0.3, live, routers on 2 threads (--threads 2)", 1, 3,
         "--topo mesh8x8 --routing favors_min --rate 0.3 --cycles 10000 --threads 2",
         at_least=dict(probes_sent=60, spins=2, deadlocks_resolved=2), cost=6, local=True))  # 115, 3, 3
add(cmodel(S, "mesh8x8 1 VC favors_min 0.1, live, no SPIN, C model: deadlocks",
           "--topo mesh8x8 --routing favors_min --rate 0.1 --cycles 100000 --drain-limit 20000"
           " --quiet", kind="deadlocks", cost=3))
# past saturation (0.12 on uniform random): deadlocks resolved, loops adopted
add(live(S, "mesh8x8 1 VC favors_min 0.24 (2x saturation), live", 1, 4,
         "--topo mesh8x8 --routing favors_min --rate 0.24 --cycles 20000 --drain-limit 100000",
         at_least=dict(probes_sent=200, spins=5), cost=35, local=True))  # 227, 7 (2 adopted)
add(live(S, "mesh8x8 1 VC favors_min bit_rotation 0.3, live: loops adopted", 1, 5,
         "--topo mesh8x8 --routing favors_min --traffic bit_rotation --rate 0.3 --cycles 20000"
         " --drain-limit 100000 --quiet",
         at_least=dict(probes_sent=200, spins=16, probes_adopted=1), cost=35, local=True))  # adopted 1 (4 with the old unit)
add(live(S, "mesh8x8 1 VC favors_min tornado 0.24, live", 1, 6,
         "--topo mesh8x8 --routing favors_min --traffic tornado --rate 0.24 --cycles 20000"
         " --drain-limit 100000", at_least=dict(probes_sent=210, spins=7), cost=50, local=True))  # spins 8 (13 with the old unit)
add(live(S, "mesh4x4 1 VC favors_min 0.6, live", 1, 7,
         "--topo mesh4x4 --routing favors_min --rate 0.6 --cycles 10000 --drain-limit 100000",
         at_least=dict(probes_sent=18, spins=2), cost=6, local=True))  # 20, 3
# mesh16x16 past saturation (0.06 on uniform random): before a probe's
# coming round was matched to its own mark and the mark kept the sender of
# highest priority (contract 12.4), seeds 1 and 2 did not drain within 100,000 cycles (one
# 18-VC loop held about 750 packets through false positive after false
# positive, no packet delivered for 30,000 cycles); now it drains by cycle
# 113,121
add(cmodel(S, "mesh16x16 1 VC favors_min 0.1, live, C model: the drain resolves every deadlock",
           "--topo mesh16x16 --routing favors_min --rate 0.1 --cycles 30000 --drain-limit 100000"
           " --spin 1 --quiet",
           at_least=dict(probes_sent=50000, spins=70, probes_adopted=65), cost=8, local=True))  # 55204, 82, 78
# the default live mode (window-gated admission, the NICs' window of 1 to 4
# with a slack of 8 and early credits, contract 13) at 3x saturation: it
# holds the peak, fairly, where the router-local rules alone (--admit 1
# --window 0 --window-slack 0 --early-credit 0) accept 0.0144 at 2x with
# Jain's index 0.59; with admission always on (--admit 1) 0.0766
add(cmodel(S, "mesh16x16 1 VC favors_min 0.18 (3x saturation), live (window-gated admission, window, early credits), C model",
           "--topo mesh16x16 --routing favors_min --rate 0.18 --cycles 30000 --drain-limit 300000"
           " --spin 1 --quiet",
           at_least=dict(probes_sent=80, spins=1, throughput=0.07, jain_index=0.9),
           cost=3))  # 119, 3, 0.0772, 0.919
# the same mesh at 2x saturation with occupancy admission (contract 6): it
# holds the peak (0.0598 at 30,000 cycles) where the live mode alone
# accepts 0.0252; co-simulated, 44,770 cycles (20,000 of injection: the
# 30,000 of before took 66,195 and the regression's longest 41 s)
add(live(S, "mesh16x16 1 VC favors_min 0.12 (2x saturation), live, occupancy admission",
         1, 3, "--topo mesh16x16 --routing favors_min --rate 0.12 --cycles 20000"
         " --drain-limit 300000 --admit-occ 1",
         at_least=dict(probes_sent=600, spins=1, throughput=0.065), cost=40, local=True))  # 1571, 4, 0.0668
add(cmodel(S, "mesh16x16 1 VC favors_min 0.18 (3x saturation), live, occupancy admission, C model",
           "--topo mesh16x16 --routing favors_min --rate 0.18 --cycles 30000 --drain-limit 300000"
           " --spin 1 --admit-occ 1 --quiet",
           at_least=dict(probes_sent=300, throughput=0.065), exactly=dict(spins=1),
           cost=8, local=True))  # 347, 0.0718: one deadlock forms (none with the live branch's marks)
# mesh32x32 at 2x saturation (about 0.03): level 1 accepts 0.0179 and does
# not drain within 10x the run; level 2 (no busy input) holds it above the
# peak and drains
add(cmodel(S, "mesh32x32 1 VC favors_min 0.06 (2x saturation), live, occupancy admission 2, C model",
           "--topo mesh32x32 --routing favors_min --rate 0.06 --cycles 10000 --drain-limit 100000"
           " --spin 1 --admit-occ 2 --quiet",
           at_least=dict(probes_sent=40, throughput=0.033), exactly=dict(spins=0),
           cost=8, local=True))  # 55, 0.0361: no deadlock forms
# the NICs' injection window (contract 8): a node with one packet in flight
# starts no other; past saturation it keeps a 1-VC mesh of any size at its
# peak, fairly (mesh32x32 at 3x: 0.0339, Jain 0.956; without it 0.0000);
# with the window no deadlock forms there, so SPIN only sends probes
add(cmodel(S, "mesh32x32 1 VC favors_min 0.09 (3x saturation), live, window 1, C model: no deadlock forms",
           "--topo mesh32x32 --routing favors_min --rate 0.09 --cycles 10000 --drain-limit 100000"
           " --spin 1 --window 1 --quiet",
           at_least=dict(probes_sent=1, throughput=0.032, jain_index=0.93), exactly=dict(spins=0),
           cost=10))  # 8 probes, 0.0339, 0.956
add(cmodel(S, "mesh16x16 1 VC favors_min 0.18 (3x saturation), live, window 1, C model",
           "--topo mesh16x16 --routing favors_min --rate 0.18 --cycles 30000 --drain-limit 300000"
           " --spin 1 --window 1 --quiet",
           at_least=dict(probes_sent=40, spins=1, throughput=0.059, jain_index=0.95),
           cost=4, local=True))  # 70 probes, 1 spin, 0.0620, 0.970
# twelve links of mesh8x8 that fail, every EVERY cycles from EVERY on (0: from
# the start): --faults of the liveness suite (docs/results.md)
TWELVE_LINKS = "9:1 12:3 18:2 21:4 27:1 30:3 36:2 42:1 45:4 50:3 53:1 19:4".split()


def twelve_links(every):
    return ",".join("%d@%s" % (every * (i + 1), link) for i, link in enumerate(TWELVE_LINKS))


# the window with early credits (contract 5), the suite's window_early: twelve
# links failed from the start at 2x saturation hold 90% of their peak (0.067;
# the window alone 0.0479, the live mode 0.0130), and mesh32x32 at 3x carries
# more than with the window alone (0.0339)
add(cmodel(S, "mesh8x8 1 VC favors_min 0.12 (2x saturation), 12 links failed from the start, window 1, early credits, C model",
           "--topo mesh8x8 --routing favors_min --rate 0.12 --cycles 100000 --drain-limit 1000000"
           " --spin 1 --window 1 --early-credit 1 --throttle 0 --quiet --faults " + twelve_links(0),
           at_least=dict(probes_sent=3000, spins=100, throughput=0.061, jain_index=0.95),
           cost=2))  # 5996, 217, 0.0648, 0.975
add(cmodel(S, "mesh32x32 1 VC favors_min 0.12 (3x saturation), live, window 1, early credits, C model",
           "--topo mesh32x32 --routing favors_min --rate 0.12 --cycles 20000 --drain-limit 200000"
           " --spin 1 --window 1 --early-credit 1 --quiet",
           at_least=dict(probes_sent=5, spins=1, throughput=0.036, jain_index=0.95),
           cost=8))  # 21, 1, 0.0389, 0.977
# delivery notices (contract 8): a packet leaves its node's window only when
# the notice of its delivery is back; the self-tuned window with them (and a
# slack of 16) still keeps mesh16x16 at its peak at 3x saturation (without
# a window: 0.0096, Jain 0.56)
add(cmodel(S, "mesh16x16 1 VC favors_min 0.18 (3x saturation), live, window 1 to 4 with delivery notices, C model",
           "--topo mesh16x16 --routing favors_min --rate 0.18 --cycles 30000 --drain-limit 300000"
           " --spin 1 --window 4 --window-slack 16 --window-notice 1 --quiet",
           at_least=dict(probes_sent=2, spins=1, throughput=0.058, jain_index=0.88,
                         window_cuts=10000, window_grows=10000),
           cost=4, local=True))  # 5 probes, 1 spin, 0.0634, 0.911, 129825 halvings, 277096 growths
# window-gated admission (--admit 2, contract 6): admission only while a
# router's NIC has its window cut to half or less.  Co-simulated past
# saturation (the router array's cfg_admit_i set every cycle; 0.1474 against
# admission always on 0.1379 in the C model), and in the C model it carries
# more of transpose than admission always on (0.1548); it holds mesh16x16 at
# 3x saturation (the live mode's case above)
add(live(S, "mesh8x8 1 VC favors_min 0.24 (2x saturation), live, window-gated admission", 1, 6,
         "--topo mesh8x8 --routing favors_min --rate 0.24 --cycles 5000 --drain-limit 100000"
         " --admit 2", at_least=dict(probes_sent=20, spins=1, throughput=0.143),
         cost=4))  # 31, 1, 0.1474
add(cmodel(S, "mesh8x8 1 VC favors_min transpose 0.3, live, window-gated admission, no SPIN, C model",
           "--topo mesh8x8 --routing favors_min --traffic transpose --rate 0.3 --cycles 30000"
           " --drain-limit 300000 --spin 0 --admit 2 --quiet",
           at_least=dict(throughput=0.165, jain_index=0.8),
           cost=2))  # 0.1713, 0.821 (with SPIN on the same: no probe is sent)
# the recovery throttle (contract 8): twelve links failed from the start,
# past saturation, form deadlocks faster than SPIN resolves them while
# every node keeps several packets in flight; the throttle (a window of 1
# and admission everywhere while recoveries fill more than an eighth of an
# epoch) keeps the live mode at its peak (0.070 at 0.07; without the
# throttle, --throttle 0: 0.0474, Jain 0.93).  Co-simulated with an epoch of
# 256 cycles, which turns it on and off many times (the router array's
# cfg_admit_i and cfg_admit_occ_i set every cycle)
add(cmodel(S, "mesh8x8 1 VC favors_min 0.16 (2x saturation), 12 links failed from the start, live (recovery throttle), C model",
           "--topo mesh8x8 --routing favors_min --rate 0.16 --cycles 50000 --drain-limit 500000"
           " --spin 1 --quiet --faults " + twelve_links(0),
           at_least=dict(probes_sent=1000, spins=40, throughput=0.068, jain_index=0.92,
                         throttle_turned_on=1, throttle_cycles=50000),
           cost=2))  # 2593 probes, 83 spins, 0.0735, Jain 0.948, turned on 4 times, 81,920 cycles
add(live(S, "mesh8x8 1 VC favors_min 0.3, 12 links failed from the start, live, recovery throttle of 256 cycles", 1, 4,
         "--topo mesh8x8 --routing favors_min --rate 0.3 --cycles 5000 --drain-limit 100000"
         " --throttle 256 --faults " + twelve_links(0),
         at_least=dict(probes_sent=400, spins=15, throttle_turned_on=10, throttle_cycles=5000),
         cost=6))  # 807 probes, 26 spins, turned on 17 times, 7,936 cycles
# the live mode (window-gated admission, window of 1 to 4, early credits, the
# recovery throttle) with four central links
# failing at run time, at 0.1 (past this network's saturation): it drains at
# the default limit and shares fairly (the local rules alone: 0.0196, not
# drained by cycle 200,000; docs/scenarios.md)
add(cmodel(S, "mesh8x8 1 VC favors_min 0.1, 4 links failing at run time, live (window, early credits), C model",
           "--topo mesh8x8 --routing favors_min --rate 0.1 --cycles 100000 --spin 1 --quiet"
           " --faults 5000@27:1,10000@35:4,15000@36:2,20000@28:3",
           exactly=dict(links_failed=4),
           at_least=dict(probes_sent=900, spins=25, throughput=0.085, jain_index=0.95),
           cost=2))  # 1174, 27, 0.0925, 0.978 (without the throttle: 1090, 25, 0.0935)
# twelve links failing at run time, past saturation: with the window every
# packet is delivered and the nodes share fairly (without it: 0.0328, Jain
# 0.83, 2,668 spins, 849,876 cycles)
add(cmodel(S, "mesh8x8 1 VC favors_min 0.2, 12 links failing at run time, live, window 1, C model",
           "--topo mesh8x8 --routing favors_min --rate 0.2 --cycles 80000 --drain-limit 800000"
           " --spin 1 --window 1 --throttle 0 --quiet --faults " + twelve_links(5000),
           at_least=dict(probes_sent=5000, spins=100, throughput=0.065, jain_index=0.95),
           cost=4))  # 9557, 336, 0.0727, 0.980
# the self-tuned window of 1 to 2 on 4-cycle links: a packet late past its
# zero-load latency over the links' cycles halves its node's window, one on
# time grows it; co-simulated (20,914 cycles compared), and a deadlock still
# forms under the window and SPIN resolves it
add(live(S, "mesh8x8@4 1 VC favors_min 0.2, live, window 1 to 2", 1, 4,
         "--topo mesh8x8@4 --routing favors_min --rate 0.2 --cycles 5000 --drain-limit 100000"
         " --window 2", at_least=dict(window_held=100000, window_cuts=1000, window_grows=1000,
                                      probes_sent=10, spins=1),
         cost=20, local=True))  # 624030 held, 16167 halvings, 2715 growths, 16 probes, 1 spin
# early credits (contract 5): a downstream VC is free in the cycle its credit
# arrives; past saturation one VC carries more (0.1315 without them, C
# model), a deadlock still forms and SPIN resolves it
add(live(S, "mesh8x8 1 VC favors_min 0.4, live, early credits", 1, 5,
         "--topo mesh8x8 --routing favors_min --rate 0.4 --cycles 4000 --early-credit 1",
         at_least=dict(probes_sent=10, spins=1, throughput=0.145), cost=6, local=True))  # 31, 1, 0.1543
add(live(S, "mesh8x8@4 1 VC favors_min 0.3, live, early credits", 1, 6,
         "--topo mesh8x8@4 --routing favors_min --rate 0.3 --cycles 4000 --early-credit 1",
         at_least=dict(probes_sent=20, spins=1), cost=10, local=True))  # 74, 1
add(cosim(S, "mesh4x4@2 1 VC xy 0.4, live, window 1 with delivery notices, early credits", 1, 8,
          "--topo mesh4x4@2 --routing xy --rate 0.4 --cycles 3000 --window 1"
          " --window-notice 1 --early-credit 1",
          at_least=dict(window_held=100000), cost=2))
add(cosim(S, "mesh8x8 2 VCs escape transpose 0.5, live, early credits", 2, 7,
          "--topo mesh8x8 --routing escape --traffic transpose --rate 0.5 --cycles 4000"
          " --early-credit 1", at_least=dict(throughput=0.198), cost=5))  # 0.2068; 0.1857 without
add(live(S, "ring-6 favors_min 0.5, live", 1, 1,
         "--topo ring-6 --routing favors_min --rate 0.5 --cycles 10000 --drain-limit 100000",
         ports=3, at_least=dict(probes_sent=12, spins=2)))  # 14, 3
add(live(S, "failed_links favors_min 0.5, live", 1, 2,
         f"--topo file:{T} --routing favors_min --rate 0.5 --cycles 10000 --drain-limit 100000",
         at_least=dict(probes_sent=14, spins=2), local=True))  # 16, 3
# several VCs far past saturation: admission keeps them free of deadlocks;
# t_DD 32 sends probes (187 and 934 when written), and nothing may spin
for v, p in ((2, 160), (4, 730)):  # 4 VCs: 812
    add(live(S, f"mesh8x8 {v} VC favors_min 0.8, live, t_DD 32, no deadlock", v, v,
             "--quiet --topo mesh8x8 --routing favors_min --rate 0.8 --cycles 5000 --tdd 32"
             " --drain-limit 100000", at_least=dict(probes_sent=p),
             exactly=dict(spins=0, deadlocks_resolved=0), cost=20, local=True))
# admission and rerouting apply to every routing function
add(cosim(S, "mesh8x8 1 VC west_first 0.3, live (admission, rerouting)", 1, 3,
          "--quiet --topo mesh8x8 --routing west_first --rate 0.3 --cycles 5000"
          " --drain-limit 100000", cost=8))
add(cosim(S, "mesh8x8 3 VC escape 0.7, live (admission)", 3, 4,
          "--quiet --topo mesh8x8 --routing escape --rate 0.7 --cycles 5000 --drain-limit 100000",
          cost=8))
# No collapse past saturation, C model (50,000 cycles, then the drain): the
# live router keeps at least 90% of its peak where the paper's router
# carries almost nothing (the last case); the live mode (with its window and
# early credits) about 0.139 on uniform random, 0.113 on tornado, 0.200 on
# bit_rotation, its router-local rules alone (local) 0.125, 0.095 and 0.171.
# A change that brings the collapse back fails here.
NC = "--quiet --topo mesh8x8 --routing favors_min --spin 1 --cycles 50000 --drain-limit 400000"
for name, args, local, tput, p, sp in (
        ("uniform_random 0.36 (3x saturation)", "--rate 0.36", False, 0.125, 30, 2),  # 0.1392 36 2
        ("tornado 0.3", "--traffic tornado --rate 0.3", False, 0.1, 85, 10),  # 0.1128 98 12
        ("bit_rotation 0.45", "--traffic bit_rotation --rate 0.45", False, 0.18, 90, 19),  # 0.1995 103 22
        ("uniform_random 0.36 (3x saturation)", "--rate 0.36", True, 0.112, 730, 14),  # 0.1232 813 16
        ("tornado 0.3", "--traffic tornado --rate 0.3", True, 0.085, 590, 22),  # 0.0943 657 25
        ("bit_rotation 0.45", "--traffic bit_rotation --rate 0.45", True, 0.15, 520, 33)):  # 0.1712 574 37
    add(cmodel(S, f"no collapse: {name}, {'local' if local else 'live'}, C model", f"{NC} {args}",
               at_least=dict(throughput=tput, probes_sent=p, spins=sp), cost=4, local=local))
# with 3 VCs: admission keeps the network free of deadlocks at this load
# (3 probes when written), and nothing may spin
add(cmodel(S, "no collapse: uniform_random 0.9, 3 VCs, live, no deadlock, C model",
           f"{NC} --vcs 3 --rate 0.9", at_least=dict(throughput=0.29, probes_sent=1),
           exactly=dict(spins=0, deadlocks_resolved=0), cost=7, local=True))
# the premise: the paper's router collapses at the same load (0.0028; 21574
# probes, 107 spins)
add(cmodel(S, "collapse: uniform_random 0.36, paper mode, C model",
           "--quiet --mode paper --topo mesh8x8 --routing favors_min --spin 1 --cycles 50000"
           " --drain-limit 3000 --rate 0.36", kind="deadlocks",
           at_least=dict(probes_sent=15000, spins=50), at_most=dict(throughput=0.02), cost=2))

# ---- long loops and faulted meshes (docs/scenarios.md, "Long loops"): loops
# longer than a probe reached before the special messages' fields were sized
# to the network (63 cycles, 32 hops), each deadlocking without SPIN and
# draining with it, both models compared every cycle.  The figures after a
# case are what it did when written.
S = "longloops"
LOOP100 = ("--topo file:tb/scenarios/mesh16x16_loop100.topo --routing favors_min"
           " --traffic trace:tb/scenarios/mesh16x16_loop100.trace --cycles 1")
RING28 = ("--topo file:tb/scenarios/ring28_500.topo --routing favors_min"
          " --traffic trace:tb/scenarios/ring28_500.trace --cycles 1")
# without SPIN the loop stands: one loop, every VC of it waiting and no other
for sc, ports, args, hops, cyc in (("mesh16x16_loop100", 5, LOOP100, 100, 300),
                                   ("ring28_500", 3, RING28, 28, 500)):
    add(cosim(S, f"scenario {sc}, no SPIN: deadlocks in a loop of {hops} hops, {cyc} cycles",
              1, next_vseed(), f"--spin 0 {args} --drain-limit 2000 --quiet", ports=ports,
              kind="deadlocks",
              exactly=dict(packets_delivered=0, loops_standing=1, loops_standing_beyond_reach=0,
                           loops_standing_longest_hops=hops, loops_standing_longest_cycles=cyc,
                           vcs_waiting=hops), cost=2))
# no loop, but a link of 1,000 cycles: the run does not drain in 500 cycles,
# and the two VCs waiting wait behind that link's far end (diag_behind)
add(cosim(S, "line4_long: no loop, 2 VCs waiting behind a link of 1,000 cycles", 1, next_vseed(),
          "--topo file:{data}/line4_long.topo --traffic trace:{data}/line4_long.trace"
          " --routing favors_min --cycles 1 --spin 0 --drain-limit 500 --quiet", ports=3,
          kind="deadlocks",
          exactly=dict(packets_delivered=0, loops_standing=0, vcs_waiting=2, waiting_fronts=1,
                       vcs_behind_fronts=2, front_link="1:2->2:1", front_link_latency=1000,
                       vcs_behind_front_link=2)))
# with SPIN, live (SmPipe 2) and paper (SmPipe 0): the 100-hop loop in one
# spin (1,642 and 642 cycles; 400 and 171 probes, most outranked); the ring
# of 28 in two recoveries, one spin each (4,861 and 4,349 cycles)
for sc, ports, args, hops, res, cyc in (("mesh16x16_loop100", 5, LOOP100, 100, 1, (300, 100)),
                                        ("ring28_500", 3, RING28, 28, 2, (500, 444))):
    for mode, c in (("live", cyc[0]), ("paper", cyc[1])):
        add(cosim(S, f"scenario {sc}, {mode} mode, SPIN: the {hops}-hop, {c}-cycle loop resolved",
                  1, next_vseed(), f"--mode {mode} --spin 1 {args}", ports=ports,
                  exactly=dict(probes_returned=res, probes_forked=0, spins=res,
                               deadlocks_resolved=res, false_positives=0, frozen_timeouts=0,
                               longest_loop_hops=hops, longest_loop_cycles=c, loops_standing=0),
                  at_least=dict(probes_sent=100), cost=2))
# the record says why: deadlocks.json lists the loop standing, its 100 VCs
# each waiting for the next one's input port on the topology (links.json
# gives the wiring), and the text summary has the "loops standing" line
# (the script's braces are doubled: conftest fills in {placeholders})
LOOP100_RECORD = """import json, sys
d = json.load(open(sys.argv[1] + "/d.json"))
links = json.load(open(sys.argv[1] + "/l.json"))["links"]
peer = {{(k["router"], k["port"]): (k["to"], k["to_port"]) for k in links}}
assert d["standing_total"] == 1 and len(d["standing"]) == 1, d["standing_total"]
s = d["standing"][0]
v = s["vcs"]
assert (s["hops"], s["cycles"], s["beyond_reach"], s["frozen"], len(v)) == (100, 300, False, 0, 100), s
assert len({{(x["router"], x["in_port"]) for x in v}}) == 100
for a, b in zip(v, v[1:] + v[:1]):
    assert peer[(a["router"], a["out_port"])] == (b["router"], b["in_port"]), (a, b)
"""
add(passes(S, "scenario mesh16x16_loop100, no SPIN: the summary and deadlocks.json give the loop", [
    "bash", "-c", 'dir=$1 bin=$2 py=$3; shift 3; mkdir -p "$dir" && '
    '"$bin" "$@" --deadlocks "$dir/d.json" --links "$dir/l.json" > "$dir/out.txt"; '
    '[ $? -eq 1 ] && grep -qx "  loops standing       1 at the end, longest 100 hops, '
    '300 cycles, 100 VCs waiting" "$dir/out.txt" && python3 -c "$py" "$dir"', "_",
    "{logdir}/loop100-record", "{spinsim}", LOOP100_RECORD] + shlex.split(LOOP100)
    + ["--spin", "0", "--drain-limit", "2000"]))
# the scenario files are what scripts/long_loop_scenarios.py writes
add(passes(S, "scripts/long_loop_scenarios.py --check: the scenario files as it writes them",
           ["python3", "scripts/long_loop_scenarios.py", "--check"]))
add(error(S, "bad input: long_loop_scenarios.py with an unknown option",
          r"error: unknown option '--chek'", "python3 scripts/long_loop_scenarios.py --chek"))
# The fault cases of issue 29, which jammed for good when a probe reached 63
# cycles: mesh8x8@8 with links 27-28 and 36-35 failing at cycle 5,000 (a loop
# of 10 hops, 100 cycles stands without SPIN), and mesh8x8@4 with the four
# links of the central square failing (12 to 14 hops, 72 to 84 cycles), under
# favors_min and favors_nmin, uniform random at 0.05.  Without SPIN they stay
# stuck with such a loop standing; with SPIN they drain, resolving loops past
# 63 cycles.  The whole 20,000-cycle runs in the C model (with SPIN: 74,778,
# 54,492, 40,936 and 40,880 cycles; 32, 24, 25 and 29 resolved when written; 16 to 19 since the marks keep their age; longest 180,
# 160, 108 and 108 cycles), 8,000 cycles co-simulated (5, -, 4 and 2
# resolved; longest 140, -, 84 and 84 cycles; 4, -, 2 and 2 s).
# They run the router-local rules (local=True): the live mode's window keeps
# these loops from forming at 0.05.
# On mesh8x8@4 the live mode's rerouting takes 2 (favors_min) and 3
# (favors_nmin) heads routed to a failed link out by another output: the
# summary counts them (packets_rerouted_around_failed_link).
FAULTED = (("mesh8x8@8", "5000@27:1,5000@36:2", 2, 0),
           ("mesh8x8@4", "5000@27:1,5000@27:3,5000@28:3,5000@35:1", 4, 1))
for topo, faults, n, rerouted in FAULTED:
    for r in ("favors_min", "favors_nmin"):
        args = f"--topo {topo} --routing {r} --rate 0.05 --faults {faults}"
        name = f"{topo} 1 VC {r} 0.05, {n} links fail"
        add(cmodel(S, f"{name}, no SPIN: deadlocks, a loop past 63 cycles standing, C model",
                   f"--spin 0 {args} --cycles 20000 --drain-limit 20000 --quiet",
                   kind="deadlocks", exactly=dict(links_failed=n, loops_standing_beyond_reach=0),
                   at_least=dict(loops_standing=1, loops_standing_longest_cycles=64), local=True))
        add(cmodel(S, f"{name}, SPIN: drains, loops past 63 cycles resolved, C model",
                   f"--spin 1 {args} --cycles 20000 --quiet",
                   exactly=dict(links_failed=n, loops_standing=0),
                   at_least=dict(probes_sent=1000, spins=14, deadlocks_resolved=14,
                                 longest_loop_cycles=64,
                                 packets_rerouted_around_failed_link=rerouted), cost=2,
                   local=True))
        if (topo, r) != ("mesh8x8@8", "favors_nmin"):
            add(cosim(S, f"{name}, SPIN, 8000 cycles: drains, loops past 63 cycles resolved", 1,
                      next_vseed(), f"--spin 1 {args} --cycles 8000 --quiet",
                      exactly=dict(links_failed=n, loops_standing=0),
                      at_least=dict(probes_sent=300, spins=2, deadlocks_resolved=2,
                                    longest_loop_cycles=64), cost=5, local=True))

# ---- dragonflies with concentration (p NIC ports a router, contract
# section 1) and long global links; radix 15 co-simulated (the router array
# p15-v1-n4: the paper's dragonfly-8-4-4, and dragonfly-2-4-10 with SPIN);
# the routings df_min and ugal (4.5) in the C model ----
S = "dragonfly"
DF422 = "--topo dragonfly-4-2-2@4"   # 9 groups of 4 routers, 2 NICs each: 72 nodes, radix 7
add(live(S, "dragonfly-4-2-2@4 (2 NICs a router, global links of 4 cycles) 1 VC favors_min 0.5,"
         " live, SPIN, least-hop routes", 1, 6,
         f"{DF422} --routing favors_min --rate 0.5 --cycles 3000 --min-cycles 0",
         ports=7, nics=2, at_least=dict(probes_sent=80, spins=3, deadlocks_resolved=3),
         cost=4, local=True))  # 159 6 6
# the same with routes minimal in cycles (--min-cycles 1, contract 4): one
# global link a packet, fewer loops; the tables differ from the least-hop
# ones on this network, and the RTL reads them
add(live(S, "dragonfly-4-2-2@4 1 VC favors_min 0.5, live, SPIN, routes minimal in cycles", 1, 6,
         f"{DF422} --routing favors_min --rate 0.5 --cycles 3000 --min-cycles 1",
         ports=7, nics=2, at_least=dict(probes_sent=30, spins=1, deadlocks_resolved=1),
         cost=4))  # 74 probes, 3 spins (the local rules: 54, 1)
add(live(S, "dragonfly-4-2-2@4 1 VC favors_nmin 0.4, live, SPIN", 1, 7,
         f"{DF422} --routing favors_nmin --rate 0.4 --cycles 3000",
         ports=7, nics=2, at_least=dict(detours=1500, probes_sent=60, spins=2), cost=4, local=True))  # 3144 125 4
add(spin(S, "dragonfly-4-2-2@4 1 VC favors_min hotspot 0.6, SPIN", 1, 1,
         f"{DF422} --routing favors_min --traffic hotspot --rate 0.6 --cycles 1000",
         ports=7, nics=2, at_least=dict(probes_sent=500, spins=40, deadlocks_resolved=40),
         cost=8))  # 92 spins
add(live(S, "dragonfly-4-2-2@4 1 VC favors_nmin group_shift 0.2, live, SPIN", 1, 3,
         f"{DF422} --routing favors_nmin --traffic group_shift --rate 0.2 --cycles 2000 --seed 2",
         ports=7, nics=2, at_least=dict(detours=1200, probes_sent=240, spins=4),
         cost=4, local=True))  # 2573 276 5
add(live(S, "dragonfly-4-2-2@4 1 VC favors_min 0.3, a local and a global link fail, live, SPIN",
         1, 4, f"{DF422} --routing favors_min --rate 0.3 --cycles 2000 --seed 4"
         " --faults 500@3:5,800@10:2", ports=7, nics=2, exactly=dict(links_failed=2),
         at_least=dict(probes_sent=25, spins=1), cost=3, local=True))  # 28 1
DF2410 = "--topo dragonfly-2-4-10@4"   # 21 groups of 2 routers, 4 NICs each: 168 nodes, radix 15
add(spin(S, "dragonfly-2-4-10@4 (radix 15, 4 NICs a router) 1 VC favors_min 0.5, SPIN on:"
         " both models alike", 1, next_vseed(),
         f"{DF2410} --routing favors_min --rate 0.5 --cycles 2000 --drain-limit 2000 --quiet",
         ports=15, nics=4, kind="deadlocks",
         at_least=dict(probes_sent=900, spins=9, deadlocks_resolved=9), cost=6))  # 1019 10 10
add(cosim(S, "dragonfly-8-4-4@4 (the paper's: 264 routers, 1,056 nodes, radix 15) 1 VC favors_min"
          " 0.05, no SPIN", 1, next_vseed(),
          "--spin 0 --topo dragonfly-8-4-4@4 --routing favors_min --rate 0.05 --cycles 600",
          ports=15, nics=4, at_least=dict(packets_delivered=10000), cost=15))  # 10576
for r, v, rate, t, exp in (("df_min", 2, "0.15", "uniform_random", {}),
                           ("ugal", 3, "0.15", "uniform_random", dict(detours=20000)),
                           ("ugal", 3, "0.05", "group_shift", dict(detours=30000))):
    add(cmodel(S, f"dragonfly-8-4-4@4 (1,056 nodes, radix 15) {v} VC {r} {t} {rate}, C model",
               f"--topo dragonfly-8-4-4@4 --routing {r} --vcs {v} --traffic {t} --rate {rate}"
               " --cycles 3000", at_least=exp, cost=2))

# ---- bad input: a clear message and exit status 2 ----
# One line a case: (name, pattern the output must match, command).  The
# command is split like a shell line; {spinsim}, {cosim_p5_v1} and {data}
# (cmodel/tests/data) stand for the built binaries and the test data.
S = "bad_input"
BAD_INPUT = [
    ("spinsim --routing ugal with 2 VCs", r"routing ugal needs VCS >= 3",
     "{spinsim} --topo dragonfly-4-2-2 --routing ugal --vcs 2"),
    ("spinsim --routing df_min on a mesh", r"routing df_min applies to dragonflies only",
     "{spinsim} --topo mesh4x4 --routing df_min --vcs 2"),
    ("make sim TOPO=dragonfly-8-4-6 (radix 17)", r"radix p\+a-1\+h = 17 exceeds TOPO_MAX_PORTS \(16\)",
     "make --no-print-directory sim TOPO=dragonfly-8-4-6 CYCLES=100"),
    ("topology file with a port used twice", r"bad_port_twice.topo:[0-9]+:",
     "{spinsim} --topo file:{data}/bad_port_twice.topo"),
    ("disconnected topology file", r"not connected",
     "{spinsim} --topo file:{data}/bad_disconnected.topo"),
    ("missing topology file", r"cannot open", "{spinsim} --topo file:/nonexistent.topo"),
    ("unknown topology name", r"unknown topology", "{spinsim} --topo hypercube4"),
    ("trace with decreasing cycles", r"bad_decreasing.trace:[0-9]+:",
     "{spinsim} --topo mesh8x8 --traffic trace:{data}/bad_decreasing.trace"),
    ("trace naming a node outside the mesh", r"mesh4x4_hotspot.trace:[0-9]+:",
     "{spinsim} --topo mesh2x2 --traffic trace:tb/traces/mesh4x4_hotspot.trace"),
    ("unknown traffic pattern", r"unknown", "{spinsim} --traffic zigzag"),
    ("pattern needing 2^k nodes on 3x3", r"power-of-two",
     "{spinsim} --topo mesh3x3 --traffic transpose"),
    ("rate out of range", r"rate", "{spinsim} --rate 1.5"),
    ("non-numeric cycles", r"cycles", "{spinsim} --cycles 10k"),
    ("VC count out of range", r"vcs", "{spinsim} --vcs 5"),
    ("unknown routing", r"routing", "{spinsim} --routing zigzag"),
    ("unknown option", r"unknown option", "{spinsim} --frobnicate"),
    ("deadlock record to an unwritable path", r"--deadlocks: cannot write /nonexistent/d.json",
     "{spinsim} --topo mesh4x4 --cycles 100 --quiet --deadlocks /nonexistent/d.json"),
    ("link record without a file name", r"--links needs a value", "{spinsim} --links"),
    ("xy routing on a ring", r"mesh", "{spinsim} --topo ring-6"),
    ("link latency 1025 (the router takes 1 to 1024): file and line",
     r"bad_latency_slow.topo:4: link latency 1025: the router takes 1 to 1024$",
     "{spinsim} --topo file:{data}/bad_latency_slow.topo --routing favors_min"),
    ("mesh4x4@1025: a generated topology's latency", r"'mesh4x4@1025': link latency must be 1..1024",
     "{spinsim} --topo mesh4x4@1025 --routing favors_min"),
    ("mesh4x4@: no latency after @", r"'mesh4x4@': missing latency",
     "{spinsim} --topo mesh4x4@ --routing favors_min"),
    ("co-simulation built for 1 VC, run with 2", r"built for 5-port routers with 1 NIC port and 1 VC",
     "{cosim_p5_v1} --topo mesh4x4 --vcs 2"),
    ("make sim VCS=7", r"VCS=7", "make --no-print-directory sim VCS=7"),
    ("make sim WAVES=yes", r"WAVES=yes", "make --no-print-directory sim WAVES=yes"),
    ("make sim SPEED=2", r"SPEED=2", "make --no-print-directory sim SPEED=2"),
    ("make sim SPEED=1 WAVES=1", r"without waveforms",
     "make --no-print-directory sim SPEED=1 WAVES=1"),
    ("make sim TOPO=mesh0x4", r"mesh0x4|W and H|width", "make --no-print-directory sim TOPO=mesh0x4"),
    ("escape routing with 1 VC", r"error: --routing escape needs --vcs 2, 3 or 4",
     "{spinsim} --routing escape --vcs 1"),
    ("escape routing with SPIN on: names --spin 0", r"run it with --spin 0$",
     "{spinsim} --routing escape --vcs 2 --spin 1"),
    ("escape routing on a torus", r"meshes only",
     "{spinsim} --routing escape --vcs 2 --topo torus4x4"),
    ("escape routing on a topology file: the escape VC's reason",
     r"escape routing applies to meshes only \(its escape VC, VC 0, is routed west-first\); "
     r"'file:.*' is a topology file",
     "{spinsim} --routing escape --vcs 2 --topo file:tb/topologies/mesh3x3_failed_links.topo"),
    ("make sim ROUTING=favors_nmn", r"ROUTING=favors_nmn: expected xy, west_first, escape, favors_min or favors_nmin",
     "make --no-print-directory sim ROUTING=favors_nmn"),
    ("spinsim --routing favors_nmn", r"--routing: unknown routing 'favors_nmn' \(expected xy, west_first, escape, favors_min, favors_nmin, df_min or ugal\)",
     "{spinsim} --routing favors_nmn"),
    ("make sim ROUTING=escape VCS=1", r"ROUTING=escape needs VCS",
     "make --no-print-directory sim ROUTING=escape VCS=1"),
    ("make sim ROUTING=escape SPIN=1", r"use SPIN=0",
     "make --no-print-directory sim ROUTING=escape SPIN=1"),
    ("spinsim --spin 2", r"spin", "{spinsim} --spin 2"),
    ("spinsim --tdd 1", r"--tdd: must be 2..32768, auto or cover", "{spinsim} --spin 1 --tdd 1"),
    ("spinsim --tdd autox", r"--tdd: must be 2..32768, auto or cover", "{spinsim} --spin 1 --tdd autox"),
    ("spinsim --tdd cover past 32768", r"--tdd cover: dragonfly-8-4-4@100 can form a loop of \d+ cycles, which needs t_DD \d+, over 32768",
     "{spinsim} --spin 1 --tdd cover --topo dragonfly-8-4-4@100 --routing favors_min"),
    ("spinsim --window 9", r"--window: 9 is more than 8 packets", "{spinsim} --window 9"),
    ("spinsim --early-credit 2", r"early-credit", "{spinsim} --early-credit 2"),
    ("spinsim --window-notice 2", r"window-notice", "{spinsim} --window 1 --window-notice 2"),
    ("spinsim --window -1", r"--window: '-1' is not a non-negative integer", "{spinsim} --window -1"),
    ("spinsim --window-slack 100001", r"--window-slack: 100001 is more than 100000 cycles",
     "{spinsim} --window 2 --window-slack 100001"),
    # cycles: at most 10^15 (traffic.h, SIM_MAX_CYCLE), so that no cycle
    # count overflows; a long idle stretch is skipped (the cases below)
    ("trace packet at cycle 2^64-1",
     r"bad_cycle_max.trace:2: cycle '18446744073709551615' out of range \[0, 10\^15\]",
     "{spinsim} --traffic trace:{data}/bad_cycle_max.trace"),
    ("trace packet at cycle 10^15 + 1",
     r"bad_cycle_limit.trace:3: cycle '1000000000000001' out of range \[0, 10\^15\]",
     "{spinsim} --traffic trace:{data}/bad_cycle_limit.trace"),
    ("--cycles beyond 10^15", r"error: --cycles: 2000000000000000 is more than 10\^15 cycles",
     "{spinsim} --cycles 2000000000000000"),
    ("--drain-limit 2^64-1", r"error: --drain-limit: 18446744073709551615 is more than 10\^15",
     "{spinsim} --drain-limit 18446744073709551615"),
    ("control bytes in an option value shown as \\xNN", r"unknown topology 'hyper\\x1b\[2J'",
     "{spinsim} --topo 'hyper\x1b[2J'"),
]
for name, pattern, command in BAD_INPUT:
    add(error(S, f"bad input: {name}", pattern, command))

# Traces with packets 10^12 and 10^15 cycles apart: the idle stretches are
# skipped (contract, section 10), so each run ends within a minute.
add(_case("trace at cycles 10^12 and 10^15, C model: idle stretches skipped", "drains",
          ["timeout", "60", "{spinsim}", "--topo", "mesh4x4", "--traffic",
           "trace:{data}/huge_gap.trace", "--cycles", "1", "--warmup", "0"], S, False))
add(_case("trace at cycles 10^12 and 10^15, co-simulation: skipped in both models", "drains",
          ["timeout", "60", "{cosim_p5_v1}", "--vcs", "1", "--topo", "mesh4x4", "--routing",
           "favors_min", "--traffic", "trace:{data}/huge_gap.trace", "--cycles", "1",
           "--warmup", "0", "+verilator+seed+2"], S, True))
# SPIN on: only whole periods of the rotating priority are skipped (the RTL
# counts them in ep_q/top_q); Fig. 5(a) case I four times, up to 10^15 apart.
# It simulates about 790,000 cycles (20 s on an idle machine, over 60 s on a
# loaded one): the limit is 300 s, where a run that skipped nothing would
# take years.
add(_case("scenario fig5a_case1 x4, idle gaps up to 10^15, SPIN: skipped alike", "drains",
          ["timeout", "300", "{cosim_p6_v2}", "--vcs", "2", "--spin", "1", "--topo",
           "file:tb/scenarios/theta.topo", "--routing", "favors_min", "--tdd", "32",
           "--traffic", "trace:{data}/theta_idle_gaps.trace", "--cycles", "1",
           "--window", "0", "--window-slack", "0", "--early-credit", "0",
           "+verilator+seed+5"], S, True, at_least={"probes_sent": 4, "spins": 4}))
# Raw control bytes of a bad file are shown escaped (\xNN), none sent raw.
for f, opt, kind in (("bad_control.topo", "--topo", "file"),
                     ("bad_control.trace", "--traffic", "trace")):
    add(passes(S, f"control bytes of {f} shown as \\xNN, none sent raw", [
        "bash", "-c", '"$1" "$2" "$3" > /dev/null 2> "$4"; [ $? -eq 2 ] && '
        'grep -qF "\\x1b" "$4" && ! LC_ALL=C grep -q "[[:cntrl:]]" "$4"', "_",
        "{spinsim}", opt, f"{kind}:{{data}}/{f}", f"{{logdir}}/ctl-{f}.err"]))
# summary.json: string values escaped, so a path with " or \ is valid JSON
add(passes(S, "summary.json with a quote and a backslash in the trace path is valid JSON", [
    "bash", "-c", 'mkdir -p "$1" && cp tb/traces/mesh4x4_hotspot.trace "$1/$2" && '
    '"$3" --topo mesh4x4 --traffic "trace:$1/$2" --cycles 1 --quiet --json "$1/s.json" && '
    'python3 -c "import json, sys; t = json.load(open(sys.argv[1]))[\\"traffic\\"]; '
    'assert t == \\"trace:\\" + sys.argv[2], t" "$1/s.json" "$1/$2"', "_",
    "{logdir}/json-path", 'a"b\\c.trace', "{spinsim}"]))

# ---- the everyday tier (make check) ----
# A few short cases chosen for coverage, run by `make check` (pytest -m check)
# on the router builds it makes (5 ports with 1 and 3 VCs; 7 ports with 2
# NICs, concentration, which no unit bench or formal job instantiates): XY and FAvORS-Min,
# SPIN on and off, the live and the paper mode, 1 and 3 VCs, escape-VC and
# FAvORS-NMin routing, links of several latencies, an irregular topology
# (the Mellanox fat tree) with links failing at run time, a directed
# scenario ending in a kill_move, the power-up randomisation and bad input.
# test_check_tier_exists (test_regress.py) fails when an id is not a case.
CHECK = (
    "mesh4x4-1vc-xy-uniform_random-0.3",
    "mesh4x4-1vc-favors_min-0.3-seed-1-spin",
    "mesh4x4-1vc-favors_min-0.3-no-spin-deadlocks-alike",
    "mesh4x4-1vc-favors_min-0.6-live",
    "mesh4x4-1vc-favors_nmin-0.35-spin",
    "mesh4x4-3vc-favors_min-0.6-t_dd-32-spin-on-no-false-positive",
    "mesh4x4-3vc-escape-tornado-0.5",
    "mesh4x4-links-of-1-2-3-and-16-cycles-1vc-favors_min-0.4-spin",
    "seed-scenario-mellanox_fig1_failover-live-mode-spin-drains",
    "seed-scenario-mellanox_fig1_fattree-paper-mode-spin-drains",
    "scenario-fig5a_case2-fig8.topo-1vc",
    "dragonfly-4-2-2-4-2-nics-a-router-global-links-of-4-cycles-1vc-favors_min-0.5-live-spin-least-hop-routes",
    "powerup-router-array-mesh4x4-1vc",
    "bad-input-topology-file-with-a-port-used-twice",
    "bad-input-a-failure-that-disconnects-the-network",
)
