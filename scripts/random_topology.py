#!/usr/bin/env python3
"""Random irregular topologies in the topology file format (docs/topology.md).

    python3 scripts/random_topology.py --routers N [--max-ports P]
        [--max-latency L] [--extra E] [--faults K] [--seed S] --out PATH

Writes PATH: `routers N`, then a random spanning tree and E more links
(no router over P ports, NIC port included), each link's latency drawn
from 1, 2, 3, L and 1..L.  Prints on stdout K links that may fail at run
time, as `--faults` items (CYCLE@ROUTER:PORT, cycles 500 to 8000), chosen
so that the network stays connected after all of them.  The same seed
gives the same file and faults.  Used for docs/results.md ("Links of up to
1,024 cycles") and for trying the models on networks nobody drew by hand.
"""
import argparse
import random
import sys


def connected(n, edges):
    adj = {i: [] for i in range(n)}
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    seen, todo = {0}, [0]
    while todo:
        u = todo.pop()
        for v in adj[u]:
            if v not in seen:
                seen.add(v)
                todo.append(v)
    return len(seen) == n


def build(a):
    r = random.Random(a.seed)
    ports = [1] * a.routers           # next free port; 0 is the NIC
    peers = [set() for _ in range(a.routers)]
    links = []

    def add(x, y):
        if x == y or y in peers[x] or ports[x] >= a.max_ports or ports[y] >= a.max_ports:
            return False
        lat = r.choice([1, 1, 1, 2, 3, a.max_latency, r.randint(1, a.max_latency)])
        links.append((x, ports[x], y, ports[y], lat))
        ports[x] += 1
        ports[y] += 1
        peers[x].add(y)
        peers[y].add(x)
        return True

    order = list(range(a.routers))
    r.shuffle(order)
    for i in range(1, a.routers):
        for _ in range(1000):
            if add(order[i], order[r.randrange(i)]):
                break
        else:
            sys.exit("random_topology: --max-ports %d leaves no room for a spanning tree" % a.max_ports)
    extra, tries = a.extra, 0
    while extra > 0 and tries < 100 * (a.extra + 1):
        tries += 1
        if add(r.randrange(a.routers), r.randrange(a.routers)):
            extra -= 1
    up = [(x, y) for x, _, y, _, _ in links]
    faults = []
    cand = links[:]
    r.shuffle(cand)
    for x, p, y, _, _ in cand:
        if len(faults) >= a.faults:
            break
        rest = [e for e in up if e != (x, y)]
        if connected(a.routers, rest):
            up = rest
            faults.append("%d@%d:%d" % (r.randint(500, 8000), x, p))
    return links, faults


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--routers", type=int, required=True)
    ap.add_argument("--max-ports", type=int, default=7)
    ap.add_argument("--max-latency", type=int, default=16)
    ap.add_argument("--extra", type=int, default=0)
    ap.add_argument("--faults", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if not 2 <= a.routers <= 65535:
        ap.error("--routers must be 2..65535")
    if not 3 <= a.max_ports <= 16:
        ap.error("--max-ports must be 3..16 (the NIC port included)")
    if not 1 <= a.max_latency <= 1024:
        ap.error("--max-latency must be 1..1024")
    if a.extra < 0 or a.faults < 0:
        ap.error("--extra and --faults must be 0 or more")
    links, faults = build(a)
    with open(a.out, "w") as f:
        f.write("# random_topology.py --routers %d --max-ports %d --max-latency %d --extra %d"
                " --faults %d --seed %d\n" % (a.routers, a.max_ports, a.max_latency, a.extra,
                                               a.faults, a.seed))
        f.write("routers %d\n" % a.routers)
        for x, p, y, q, lat in links:
            f.write("link %d:%d %d:%d%s\n" % (x, p, y, q, " latency %d" % lat if lat > 1 else ""))
    print(",".join(faults))


if __name__ == "__main__":
    main()
