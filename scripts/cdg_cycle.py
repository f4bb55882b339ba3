#!/usr/bin/env python3
"""The channel dependency graph of a trace's flows on a topology, and a cycle in it.

    scripts/cdg_cycle.py TOPO TRACE [--flows S:D,...] [--expect cycle|none]

TOPO is a topology file (docs/topology.md), TRACE a trace (docs/traffic.md);
its flows are the distinct (src, dst) pairs of its packets, or those of
--flows.  A channel is one direction of a link, written R:P -> R':P' (out of
port P of router R, into port P' of router R').  A flow uses every channel of
every minimal route from its source to its destination, as FAvORS-Min may
(ROUTE_MINIMAL, docs/topology.md: out of R toward D, any port whose peer is
one hop closer to D).  The graph has an edge from channel a to channel b when
some flow may take b right after a.  A credit loop (a deadlock of 1-VC
buffers) can only form on a cycle of this graph (Dally and Seitz); the script
prints the shortest one, with the flows that make each turn, or says there is
none.

A comment line `# router R: NAME` in TOPO names router R in the output.

Exit status: 0 when the outcome is the one --expect asks for (a cycle, by
default), 1 when it is not, 2 on bad input (the file and line named).
"""

import argparse
import re
import sys
from collections import deque


class BadInput(Exception):
    pass


def read_topology(path):
    """(routers, links, names): links as (a, pa, b, pb), names {router: text}."""
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        raise BadInput(f"{path}: cannot open: {e.strerror}")
    n, links, names, used = None, [], {}, {}
    for ln, raw in enumerate(text.splitlines(), 1):
        m = re.match(r"\s*#\s*router\s+(\d+)\s*:\s*(.*?)\s*$", raw)
        if m:
            names[int(m.group(1))] = m.group(2)
        f = raw.split("#", 1)[0].split()
        if not f:
            continue
        where = f"{path}:{ln}"
        if f[0] == "routers":
            if n is not None or len(f) != 2 or not f[1].isdigit() or int(f[1]) < 1:
                raise BadInput(f"{where}: expected 'routers N' once, N >= 1")
            n = int(f[1])
        elif f[0] == "link":
            if n is None:
                raise BadInput(f"{where}: 'link' before 'routers N'")
            if len(f) not in (3, 5) or (len(f) == 5 and f[3] != "latency"):
                raise BadInput(f"{where}: expected 'link A:P B:Q [latency L]'")
            ends = []
            for e in f[1:3]:
                m = re.fullmatch(r"(\d+):(\d+)", e)
                if not m:
                    raise BadInput(f"{where}: endpoint '{e}' is not ROUTER:PORT")
                r, p = int(m.group(1)), int(m.group(2))
                if r >= n or not 1 <= p <= 7:
                    raise BadInput(f"{where}: endpoint '{e}' out of range (routers 0..{n - 1}, ports 1..7)")
                if (r, p) in used:
                    raise BadInput(f"{where}: port {p} of router {r} used twice (first on line {used[(r, p)]})")
                used[(r, p)] = ln
                ends.append((r, p))
            if ends[0][0] == ends[1][0]:
                raise BadInput(f"{where}: self-loop on router {ends[0][0]}")
            links.append(ends[0] + ends[1])
        elif f[0] == "coord":
            continue
        else:
            raise BadInput(f"{where}: unknown keyword '{f[0]}' (expected routers, link or coord)")
    if n is None:
        raise BadInput(f"{path}: missing 'routers N' line")
    return n, links, names


def read_flows(path, n):
    """The distinct (src, dst) pairs of a trace, in order of first appearance."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        raise BadInput(f"{path}: cannot open: {e.strerror}")
    flows = []
    for ln, raw in enumerate(lines, 1):
        f = raw.split("#", 1)[0].split()
        if not f:
            continue
        if len(f) != 4 or not all(x.isdigit() for x in f):
            raise BadInput(f"{path}:{ln}: expected 4 decimal fields (cycle src dst flits)")
        s, d = int(f[1]), int(f[2])
        if s >= n or d >= n or s == d:
            raise BadInput(f"{path}:{ln}: src {s}, dst {d}: need two different routers of 0..{n - 1}")
        if (s, d) not in flows:
            flows.append((s, d))
    return flows


def parse_flows(spec, n):
    flows = []
    for item in spec.split(","):
        m = re.fullmatch(r"\s*(\d+):(\d+)\s*", item)
        if not m or int(m.group(1)) >= n or int(m.group(2)) >= n or m.group(1) == m.group(2):
            raise BadInput(f"--flows: '{item}' is not SRC:DST (two different routers of 0..{n - 1})")
        flows.append((int(m.group(1)), int(m.group(2))))
    return flows


def distances(n, adj, src):
    d = [-1] * n
    d[src] = 0
    q = deque([src])
    while q:
        u = q.popleft()
        for _, v, _ in adj[u]:
            if d[v] < 0:
                d[v] = d[u] + 1
                q.append(v)
    return d


def dependency_graph(n, links, flows):
    """{channel: {next channel: set of flows}}; a channel is (a, pa, b, pb)."""
    adj = [[] for _ in range(n)]
    for a, pa, b, pb in links:
        adj[a].append((pa, b, pb))
        adj[b].append((pb, a, pa))
    dist = {}

    def d(x):
        if x not in dist:
            dist[x] = distances(n, adj, x)
        return dist[x]

    graph = {}
    for s, t in flows:
        ds, dt = d(s), d(t)
        if dt[s] < 0:
            raise BadInput(f"flow {s} -> {t}: router {t} cannot be reached from router {s}")
        # the channels of the flow's minimal routes
        on = {u: [(u, pu, v, pv) for pu, v, pv in adj[u] if ds[u] + 1 + dt[v] == dt[s]]
              for u in range(n) if ds[u] >= 0 and dt[u] >= 0 and ds[u] + dt[u] == dt[s]}
        for chans in on.values():
            for c in chans:
                if c[2] == t:
                    continue
                for c2 in on.get(c[2], ()):
                    graph.setdefault(c, {}).setdefault(c2, set()).add((s, t))
    return graph


def shortest_cycle(graph):
    """The shortest cycle (a list of channels), or None; ties go to the lowest channel."""
    best = None
    for start in sorted(graph):
        prev = {start: None}
        q = deque([start])
        found = None
        while q and found is None:
            u = q.popleft()
            for v in sorted(graph.get(u, ())):
                if v == start:
                    found = u
                    break
                if v not in prev:
                    prev[v] = u
                    q.append(v)
        if found is not None:
            cyc = [found]
            while prev[cyc[-1]] is not None:
                cyc.append(prev[cyc[-1]])
            cyc.reverse()
            if best is None or len(cyc) < len(best):
                best = cyc
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("topo", help="topology file (docs/topology.md)")
    ap.add_argument("trace", help="trace file (docs/traffic.md): its (src, dst) pairs are the flows")
    ap.add_argument("--flows", help="only these flows: SRC:DST,... (router numbers)")
    ap.add_argument("--expect", choices=("cycle", "none"), default="cycle",
                    help="exit 0 when there is a cycle (default) or when there is none")
    a = ap.parse_args(argv)
    try:
        n, links, names = read_topology(a.topo)
        flows = read_flows(a.trace, n)
        if a.flows:
            want = parse_flows(a.flows, n)
            missing = [f for f in want if f not in flows]
            if missing:
                raise BadInput(f"--flows: {missing[0][0]}:{missing[0][1]} is not a flow of {a.trace}")
            flows = want
        graph = dependency_graph(n, links, flows)
    except BadInput as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    def name(r):
        return f"{r} ({names[r]})" if r in names else str(r)

    def flow(f):
        return f"{f[0]}->{f[1]}"

    turns = sum(len(v) for v in graph.values())
    chans = set(graph) | {c for v in graph.values() for c in v}
    print(f"{len(flows)} flows:")
    for f in flows:
        print(f"  {flow(f)}" + (f"    {names[f[0]]} -> {names[f[1]]}" if f[0] in names and f[1] in names else ""))
    print(f"channel dependency graph of their minimal routes: {len(chans)} channels, "
          f"{turns} dependencies")
    cyc = shortest_cycle(graph)
    if cyc is None:
        print("no cycle: no credit loop can form")
    else:
        print(f"cycle of {len(cyc)} channels (each turn: the flows that take it):")
        for i, c in enumerate(cyc):
            nxt = cyc[(i + 1) % len(cyc)]
            fl = ", ".join(flow(f) for f in sorted(graph[c][nxt]))
            print(f"  {name(c[0])}:{c[1]} -> {name(c[2])}:{c[3]}    then {fl}")
    ok = (cyc is not None) == (a.expect == "cycle")
    if not ok:
        print(f"FAILED: expected {'a cycle' if a.expect == 'cycle' else 'no cycle'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
