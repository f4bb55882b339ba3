#!/usr/bin/env python3
"""Writes the long-loop scenarios of docs/scenarios.md ("Long loops and
faulted meshes") under tb/scenarios/: mesh16x16_loop100.topo and .trace (a
100-hop loop on a 16x16 mesh), ring28_500.topo and .trace (a 28-hop loop
of 500 cycles over long links) and ring32_chords.topo with ring32_ccw.trace
(a loop of all 32 routers against their id order, 9,664 cycles, on a
network of hop diameter 5: the loop t_DD auto does not find).

Usage: scripts/long_loop_scenarios.py [--check] [DIR]
  DIR      where the files go (default tb/scenarios)
  --check  write nothing; exit 1 naming each file of DIR that differs from
           what this script writes (the regression runs it)
"""
import os
import sys

MESH = 16          # mesh16x16: router y * 16 + x; ports 1 east, 2 west, 3 north, 4 south
ROWS, XMAX = 10, 9   # the serpentine: rows 0..9 over x = 1..9, back down x = 0
RING, L, L_LAST = 28, 16, 12
CHORD_RING, CHORD_L = 32, 300


def rid(x, y):
    return y * MESH + x


def loop_path():
    """The closed path of 100 routers, from router 1: row 0 east over
    x = 1..9, row 1 west, ..., row 9 west, then down x = 0 to router 0."""
    path = []
    for y in range(ROWS):
        xs = range(1, XMAX + 1) if y % 2 == 0 else range(XMAX, 0, -1)
        path += [rid(x, y) for x in xs]
    path += [rid(0, y) for y in range(ROWS - 1, -1, -1)]
    assert len(path) == 100 and len(set(path)) == 100
    return path


def xy(r):
    return r % MESH, r // MESH


def left_out(path):
    """Where the path turns, a packet two hops ahead goes diagonally and the
    mesh has a second minimal route, through the fourth corner of the square
    its three routers span; the link of that route that is not on the path
    is left out: its first link, or its second where the first is on the path
    (one per turn, one for the two turns of a U-turn)."""
    n = len(path)
    on = {frozenset((path[i], path[(i + 1) % n])) for i in range(n)}
    out = []
    for i in range(n):
        a, b, c = path[i], path[(i + 1) % n], path[(i + 2) % n]
        (ax, ay), (cx, cy) = xy(a), xy(c)
        if ax == cx or ay == cy:
            continue
        d = rid(cx, ay) if xy(b) == (ax, cy) else rid(ax, cy)   # the fourth corner
        # the route's first link, or its second where the first is the path's
        e = frozenset((a, d)) if frozenset((a, d)) not in on else frozenset((d, c))
        if e not in on and e not in out:
            out.append(e)
    return out


MESH_TOPO_HEAD = """\
# A 16x16 mesh (ports as mesh16x16's: 1 east, 2 west, 3 north, 4 south;
# router y*16 + x) with 11 links left out, for the 100-hop loop of
# mesh16x16_loop100.trace (docs/scenarios.md, "Long loops and faulted
# meshes"; written by scripts/long_loop_scenarios.py).  The loop is a
# closed path of 100 routers: a serpentine of 10 rows over x = 1..9
# (row 0 east, row 1 west, ..., row 9 west) and back down x = 0.  Each
# router sends a packet two hops ahead along it; where the path turns, the
# packet's destination is diagonal and the mesh has a second minimal
# route, through the fourth corner of the square.  The 11 links left out
# (one per turn, or one for the two turns of a U-turn) are each the link
# of that second route that is not on the path:
"""

MESH_TRACE_HEAD = """\
# On mesh16x16_loop100.topo (both written by scripts/long_loop_scenarios.py):
# each of the 100 routers of the loop (the serpentine of 10 rows over
# x = 1..9 and back down x = 0, starting at router 1) sends one 5-flit
# packet two hops ahead along it in cycle 0; with one VC the 100 buffers of
# the loop fill and deadlock in a loop of 100 hops.
# cycle src dst flits
"""

RING_TOPO_HEAD = """\
# A ring of 28 routers over long links, for the 500-cycle loop of
# ring28_500.trace (docs/scenarios.md, "Long loops and faulted meshes";
# written by scripts/long_loop_scenarios.py): router i's port 1 leads to
# router i+1's port 2 (as ring-28's); 27 links of 16 cycles (the longest
# the router took when it was written), and the link 27 -> 0 of 12.  With SmPipe 2 (the live
# mode's) a special message takes L + 2 cycles a hop, so the loop round
# the ring is 27 x 18 + 14 = 500 cycles; with SmPipe 0 (the paper's
# timing), 27 x 16 + 12 = 444.
"""

RING_TRACE_HEAD = """\
# On ring28_500.topo (both written by scripts/long_loop_scenarios.py):
# every router sends two 5-flit packets two hops round the ring (router i
# to router i+2), in cycles 0 and 1; with one VC the ring's 28 buffers fill
# and deadlock in a loop of 28 hops and 500 cycles (SmPipe 2).
# cycle src dst flits
"""


def mesh_files():
    path = loop_path()
    out = left_out(path)
    assert len(out) == 11, len(out)
    topo = [MESH_TOPO_HEAD]
    for e in sorted(out, key=lambda e: sorted(e)):
        a, b = sorted(e)
        topo.append(f"#   {a} ({xy(a)[0]},{xy(a)[1]}) - {b} ({xy(b)[0]},{xy(b)[1]})\n")
    topo.append("# so every route the trace uses is the only minimal one.\n")
    topo.append(f"routers {MESH * MESH}\n")
    for r in range(MESH * MESH):
        x, y = xy(r)
        if x < MESH - 1 and frozenset((r, r + 1)) not in out:
            topo.append(f"link {r}:1 {r + 1}:2\n")
        if y < MESH - 1 and frozenset((r, r + MESH)) not in out:
            topo.append(f"link {r}:3 {r + MESH}:4\n")
    topo += [f"coord {r} {r % MESH} {r // MESH}\n" for r in range(MESH * MESH)]
    n = len(path)
    trace = [MESH_TRACE_HEAD] + [f"0 {path[i]} {path[(i + 2) % n]} 5\n" for i in range(n)]
    return {"mesh16x16_loop100.topo": "".join(topo), "mesh16x16_loop100.trace": "".join(trace)}


def ring_files():
    topo = [RING_TOPO_HEAD, f"routers {RING}\n"]
    for i in range(RING):
        lat = L if i < RING - 1 else L_LAST
        topo.append(f"link {i}:1 {(i + 1) % RING}:2 latency {lat}\n")
    # drawn round the edge of an 8x8 square
    side = RING // 4
    for i in range(RING):
        k, j = divmod(i, side)
        x, y = ((j, 0), (side, j), (side - j, side), (0, side - j))[k]
        topo.append(f"coord {i} {x} {y}\n")
    trace = [RING_TRACE_HEAD]
    for c in (0, 1):
        trace += [f"{c} {i} {(i + 2) % RING} 5\n" for i in range(RING)]
    return {"ring28_500.topo": "".join(topo), "ring28_500.trace": "".join(trace)}


CHORD_TOPO_HEAD = """\
# A ring of 32 routers over links of 300 cycles (router i's port 1 to router
# i+1's port 2, as ring-32@300's) and chords of 1 cycle: router i's port 3
# to router i+16's, and port 4 to router i+8's (i = 0..7 and 16..23), for
# the loop of ring32_ccw.trace (docs/scenarios.md, "Long loops and faulted
# meshes"; written by scripts/long_loop_scenarios.py).  The chords make the
# hop diameter small, so t_DD auto is a few times 300; the loop round the
# ring is 32 x 302 = 9,664 cycles (SmPipe 2).
"""

CHORD_TRACE_HEAD = """\
# On ring32_chords.topo (both written by scripts/long_loop_scenarios.py):
# every router sends four 5-flit packets two hops round the ring against
# the id order (router i to router i-2), in cycles 0 to 3; with one VC the
# ring's buffers fill and deadlock in a loop of 32 hops and 9,664 cycles.
# A probe goes round against the order in which the top router rotates,
# so the rotation reaches a router ahead of it within an epoch (4 t_DD):
# with t_DD auto every probe is dropped as outranked and the loop stands;
# t_DD cover finds it.
# cycle src dst flits
"""


def chord_files():
    n = CHORD_RING
    topo = [CHORD_TOPO_HEAD, f"routers {n}\n"]
    topo += [f"link {i}:1 {(i + 1) % n}:2 latency {CHORD_L}\n" for i in range(n)]
    topo += [f"link {i}:3 {i + n // 2}:3\n" for i in range(n // 2)]
    topo += [f"link {i}:4 {i + n // 4}:4\n" for i in list(range(n // 4)) + list(range(n // 2, 3 * n // 4))]
    trace = [CHORD_TRACE_HEAD]
    for c in range(4):
        trace += [f"{c} {i} {(i - 2) % n} 5\n" for i in range(n)]
    return {"ring32_chords.topo": "".join(topo), "ring32_ccw.trace": "".join(trace)}


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    bad_args = [a for a in args if a.startswith("-")] or args[1:]
    if bad_args:
        what = "unknown option" if bad_args[0].startswith("-") else "one DIR only, not also"
        print(f"error: {what} '{bad_args[0]}'\n\n{__doc__.strip()}", file=sys.stderr)
        return 2
    d = args[0] if args else "tb/scenarios"
    files = {**mesh_files(), **ring_files(), **chord_files()}
    bad = 0
    for name, text in files.items():
        p = os.path.join(d, name)
        if check:
            try:
                with open(p) as f:
                    same = f.read() == text
            except OSError as e:
                print(f"{p}: {e.strerror}", file=sys.stderr)
                same = False
            if not same:
                print(f"{p}: differs from what scripts/long_loop_scenarios.py writes",
                      file=sys.stderr)
                bad = 1
        else:
            with open(p, "w") as f:
                f.write(text)
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
