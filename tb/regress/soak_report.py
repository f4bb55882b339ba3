#!/usr/bin/env python3
"""Adds up the soak campaign (make soak) into one Markdown summary.

  python3 tb/regress/soak_report.py BUILD/soak [--elapsed SECONDS]

Reads every <id>.outcome.json that soak.py wrote, prints the totals
(cases, router-cycles, mismatches, outcomes, time) and a table of the cases.
Exit status 1 when a case had an outcome its row does not allow.  Cases
that left no outcome (not selected, or stopped before the end) are listed.
"""

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("--elapsed", type=int, help="wall time of the campaign, seconds")
    o = p.parse_args()
    from soak import SOAK
    recs = []
    missing = []
    for c in SOAK:
        f = Path(o.dir) / f"{c.id}.outcome.json"
        if f.exists():
            recs.append(json.loads(f.read_text()))
        else:
            missing.append(c.id)
    out = Counter(r["outcome"] for r in recs)
    rc = sum(r["router_cycles"] for r in recs)
    cyc = sum(r["cycles"] or 0 for r in recs)
    mism = sum(1 for r in recs if r["outcome"] == "mismatch")
    bad = [r for r in recs if not r["allowed"]]
    wall = sum(r["wall_seconds"] or 0 for r in recs)
    print("# Soak campaign (make soak)\n")
    print(f"- cases: {len(recs)} of {len(SOAK)} run"
          + (f" ({len(missing)} left no outcome, e.g. {', '.join(missing[:3])})"
             if missing else ""))
    print(f"- router-cycles co-simulated: {rc:,} ({rc:.3g}); cycles: {cyc:,}")
    print(f"- cases with a mismatch between the models: {mism}")
    print("- outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(out.items())))
    jams = [r for r in recs if r["outcome"] == "jammed"]
    print(f"- jammed (allowed, both models agreeing to the drain limit): {len(jams)}, of which"
          f" {sum(1 for r in jams if r['vcs'] == 1)} with 1 VC")
    print(f"- outcomes not allowed by their row: {len(bad)}"
          + (f" ({', '.join(r['id'] for r in bad)})" if bad else ""))
    print(f"- spins {sum(r['spins'] or 0 for r in recs):,}, deadlocks resolved "
          f"{sum(r['deadlocks_resolved'] or 0 for r in recs):,}, probes forked "
          f"{sum(r['probes_forked'] or 0 for r in recs):,}, m-1 bound broken "
          f"{sum(r['spin_bound_violations'] or 0 for r in recs)}")
    print(f"- VSEEDs: {len({r['vseed'] for r in recs})} different; VC counts "
          f"{sorted({r['vcs'] for r in recs})}")
    print(f"- simulation time, summed over the cases: {wall:,.0f} s"
          + (f"; campaign wall time {o.elapsed} s" if o.elapsed is not None else ""))
    print("\n| case | outcome | routers | cycles | router-cycles | spins | forked | wall s |")
    print("|---|---|---|---|---|---|---|---|")
    for r in recs:
        print(f"| {r['name']} | {r['outcome']} | {r['routers']} | {r['cycles']} | "
              f"{r['router_cycles']:.3g} | {r['spins']} | {r['probes_forked']} | "
              f"{(r['wall_seconds'] or 0):.0f} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
