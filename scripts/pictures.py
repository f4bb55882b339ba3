#!/usr/bin/env python3
"""Pictures of a run: the deadlocks SPIN resolved, drawn on the topology, and
the load of every link.

Reads the run's record (spinsim or the co-simulation with --deadlocks FILE
--links FILE; make sim writes both into build/<topo>/) and writes:

  deadlocks.png  the topology, with the loops of the resolved deadlocks drawn
                 as arrows along their links; loops that recur (the same set
                 of links) are counted, and the most frequent ones are drawn
                 and numbered, with their count, length and routers in the
                 legend
  links.png      every directed link coloured by the flits it carried per
                 cycle of the run, with a colour bar

Usage:
  scripts/pictures.py DIR            reads DIR/deadlocks.json, DIR/links.json
  scripts/pictures.py --deadlocks F --links F --out-dir DIR [--top N]

Routers sit at their coordinates (meshes, tori, rings, topology files with
coord lines), otherwise on a circle.  Needs matplotlib (Debian's
python3-matplotlib).  The pictures it is asked for are removed first, and
each is written under a temporary name and renamed, so a missing or
malformed record (exit status 2) or a failure leaves no picture of an
earlier run behind, and no half-written one.
"""
import argparse
import collections
import json
import math
import os
import sys

TOP = 6            # loops drawn and numbered in deadlocks.png
COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#17becf", "#bcbd22", "#7f7f7f"]


class BadRecord(Exception):
    pass


def load(path, key):
    try:
        with open(path) as f:
            rec = json.load(f)
        if not isinstance(rec.get(key), list) or not isinstance(rec.get("routers"), int):
            raise BadRecord("%s: no '%s' list or 'routers' count: not a record of spinsim" % (path, key))
        return rec
    except OSError as e:
        raise BadRecord("%s: %s" % (path, e.strerror))
    except ValueError as e:
        raise BadRecord("%s: not JSON (%s)" % (path, e))


def positions(rec):
    """Router id -> (x, y): the record's coordinates, else a circle."""
    n = rec["routers"]
    c = rec.get("coords")
    if c and len(c) == n:
        return {r: (float(c[r][0]), float(c[r][1])) for r in range(n)}
    return {r: (math.cos(2 * math.pi * r / n) * n / 4, math.sin(2 * math.pi * r / n) * n / 4)
            for r in range(n)}


def shifted(pos, a, b, off):
    """The segment a->b moved sideways by off (to its right), shortened at
    both ends so arrows stop short of the routers."""
    (x0, y0), (x1, y1) = pos[a], pos[b]
    dx, dy = x1 - x0, y1 - y0
    d = math.hypot(dx, dy) or 1.0
    nx, ny = dy / d, -dx / d
    s = min(0.18, 0.25 * d) / d
    return (x0 + dx * s + nx * off, y0 + dy * s + ny * off,
            x1 - dx * s + nx * off, y1 - dy * s + ny * off)


def base(ax, rec, pos, links=None):
    """Routers as labelled squares and the links as grey lines."""
    drawn = set()
    for l in (links or []):
        key = tuple(sorted((l["router"], l["to"])))
        if key in drawn:
            continue
        drawn.add(key)
        (x0, y0), (x1, y1) = pos[l["router"]], pos[l["to"]]
        ax.plot([x0, x1], [y0, y1], color="#dddddd", lw=1, zorder=1)
    n = rec["routers"]
    small = n > 100
    for r, (x, y) in pos.items():
        ax.scatter([x], [y], s=40 if small else 260, marker="s", color="#f0f0f0",
                   edgecolors="#888888", zorder=2)
        if not small:
            ax.text(x, y, str(r), ha="center", va="center", fontsize=7, zorder=3)
    ax.set_aspect("equal")
    ax.axis("off")


def loop_key(d):
    return frozenset((h["router"], h["out_port"]) for h in d["loop"])


def draw_deadlocks(dl, links, out, top):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    pos = positions(dl)
    fig, ax = plt.subplots(figsize=(9, 8))
    base(ax, dl, pos, links["links"] if links else None)
    loops = [d for d in dl["deadlocks"] if d.get("closed", True) and d.get("loop")]
    count = collections.Counter(loop_key(d) for d in loops)
    first = {}
    for d in loops:
        first.setdefault(loop_key(d), d)
    busiest = count.most_common(top)
    handles = []
    for i, (key, k) in enumerate(busiest):
        d = first[key]
        col = COLOURS[i % len(COLOURS)]
        off = 0.04 + 0.035 * i
        for h in d["loop"]:
            nxt = [x for x in links["links"] if x["router"] == h["router"] and x["port"] == h["out_port"]] \
                if links else []
            if not nxt:
                continue
            x0, y0, x1, y1 = shifted(pos, h["router"], nxt[0]["to"], off)
            ax.annotate("", xy=(x1, y1), xytext=(x0, y0), zorder=4,
                        arrowprops=dict(arrowstyle="-|>", color=col, lw=2, shrinkA=0, shrinkB=0))
        # the number at the middle of the loop, nudged apart from the others
        cx = sum(pos[h["router"]][0] for h in d["loop"]) / len(d["loop"])
        cy = sum(pos[h["router"]][1] for h in d["loop"]) / len(d["loop"])
        ax.text(cx + 0.12 * (i % 3 - 1), cy + 0.12 * (i // 3 % 3 - 1), "#%d" % (i + 1), color=col,
                fontsize=10, weight="bold", ha="center", va="center", zorder=5)
        routers = [h["router"] for h in d["loop"]]
        path = "-".join(str(r) for r in routers[:12]) + ("-..." if len(routers) > 12 else "")
        handles.append(plt.Line2D([], [], color=col, lw=2,
                                  label="#%d: %d time%s, %d hops: %s" % (i + 1, k, "s" if k > 1 else "",
                                                                         len(routers), path)))
    total = len(dl["deadlocks"]) + dl.get("truncated", 0)
    if not loops:
        title = "%s: no deadlock resolved in %d cycles" % (dl["topo"], dl["cycles"])
    else:
        title = ("%s: %d deadlocks resolved, %d spins, %d distinct loops in %d cycles;\n"
                 "the %d most frequent drawn (arrows: the loop's direction)"
                 % (dl["topo"], total, dl.get("spins", 0), len(count), dl["cycles"], len(busiest)))
    ax.set_title(title, fontsize=10)
    if handles:
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.01), fontsize=8,
                  frameon=False, ncol=1)
    fig.tight_layout()
    save(fig, out)
    plt.close(fig)


def draw_links(ln, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import cm, colors
    pos = positions(ln)
    fig, ax = plt.subplots(figsize=(9, 8))
    base(ax, ln, pos, None)
    cyc = max(1, ln["cycles"])
    loads = [l["flits"] / cyc for l in ln["links"]]
    top = max(loads + [1e-9])
    norm = colors.Normalize(vmin=0, vmax=top)
    cmap = cm.get_cmap("viridis")
    for l, v in zip(ln["links"], loads):
        x0, y0, x1, y1 = shifted(pos, l["router"], l["to"], 0.07)
        ax.annotate("", xy=(x1, y1), xytext=(x0, y0), zorder=3,
                    arrowprops=dict(arrowstyle="-|>", color=cmap(norm(v)), lw=2.5, shrinkA=0, shrinkB=0))
    sm = cm.ScalarMappable(norm=norm, cmap=cmap)
    sm.set_array([])
    fig.colorbar(sm, ax=ax, shrink=0.7, label="flits per cycle (whole run, drain included)")
    busiest = max(ln["links"], key=lambda l: l["flits"]) if ln["links"] else None
    title = "%s: link load over %d cycles" % (ln["topo"], ln["cycles"])
    if busiest:
        title += "; busiest %d -> %d (port %d), %.3f flits/cycle" % (
            busiest["router"], busiest["to"], busiest["port"], busiest["flits"] / cyc)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    save(fig, out)
    plt.close(fig)


def save(fig, out):
    """Writes the figure to out through a temporary file renamed into place."""
    tmp = "%s.tmp%d" % (out, os.getpid())
    try:
        fig.savefig(tmp, dpi=90, format="png")
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", nargs="?", help="a run directory holding deadlocks.json and links.json")
    ap.add_argument("--deadlocks", help="deadlocks.json (spinsim --deadlocks)")
    ap.add_argument("--links", help="links.json (spinsim --links)")
    ap.add_argument("--out-dir", help="where the pictures go (the run directory)")
    ap.add_argument("--top", type=int, default=TOP, help="loops drawn (%d)" % TOP)
    a = ap.parse_args()
    if a.dir:
        a.deadlocks = a.deadlocks or os.path.join(a.dir, "deadlocks.json")
        a.links = a.links or os.path.join(a.dir, "links.json")
        a.out_dir = a.out_dir or a.dir
    if not a.out_dir or not (a.deadlocks or a.links):
        ap.error("give a run directory, or --deadlocks/--links and --out-dir")
    if a.top < 1:
        ap.error("--top: at least 1")
    # the pictures of an earlier run go first, whatever happens next
    if a.deadlocks:
        remove(os.path.join(a.out_dir, "deadlocks.png"))
    if a.links:
        remove(os.path.join(a.out_dir, "links.png"))
    try:
        ln = load(a.links, "links") if a.links else None
        dl = load(a.deadlocks, "deadlocks") if a.deadlocks else None
    except BadRecord as e:
        print("pictures: %s" % e, file=sys.stderr)
        return 2
    os.makedirs(a.out_dir, exist_ok=True)
    if dl:
        draw_deadlocks(dl, ln, os.path.join(a.out_dir, "deadlocks.png"), a.top)
        print("pictures: %s" % os.path.join(a.out_dir, "deadlocks.png"))
    if ln:
        draw_links(ln, os.path.join(a.out_dir, "links.png"))
        print("pictures: %s" % os.path.join(a.out_dir, "links.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
