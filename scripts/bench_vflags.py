#!/usr/bin/python3
"""Co-simulation speed under different Verilator flag sets, side by side.

`make bench-vflags` (scripts/eval.mk) builds the 5-port, 1-VC co-simulation
once per flag set (VCHECK and VOPT of the Makefile) under
build/vflags/<name>/ and then runs this script with one --variant per build:

    --variant NAME=BINARY=FLAGS   (FLAGS: the VOPT and VCHECK of that build)

Each case (mesh8x8 at 0.1 and 0.6, mesh16x16 at 0.1; xy routing, 1 VC,
uniform random, --drain-limit 0) runs --runs times per variant; the variants
take turns run by run, so that they share the machine's load.  The report
gives the median cycles/s and cycles per CPU-second of each, and its ratio to
the first variant (the checking build).  Every run still compares the RTL
with the C model every cycle, and a mismatch stops the bench.

Outputs: build/bench/vflags.csv (every run), build/bench/vflags.md (medians).
"""

import argparse
import csv
import os
import resource
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import provenance, run_once, write_report  # noqa: E402  (same directory)

CASES = [("mesh8x8", 0.1, 10000), ("mesh8x8", 0.6, 4000), ("mesh16x16", 0.1, 2500)]
FIELDS = ["variant", "flags", "topo", "rate", "run", "cycles", "exit_code",
          "sim_cycles_per_second", "cpu_seconds", "cycles_per_cpu_second", "loadavg_1min"]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=BINARY=FLAGS")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="build/bench")
    a = ap.parse_args()
    variants = []
    for v in a.variant:
        parts = v.split("=", 2)
        if len(parts) != 3 or not parts[0] or not parts[1]:
            sys.exit("bench_vflags: --variant %r: expected NAME=BINARY=FLAGS" % v)
        if not os.access(parts[1], os.X_OK):
            sys.exit("bench_vflags: --variant %s: %s is not an executable (make bench-vflags "
                     "builds it)" % (parts[0], parts[1]))
        variants.append(tuple(parts))
    if not variants:
        sys.exit("bench_vflags: no --variant given")
    if a.runs < 1:
        sys.exit("bench_vflags: --runs must be at least 1")
    os.makedirs(a.out, exist_ok=True)
    csv_path = os.path.join(a.out, "vflags.csv")
    md_path = os.path.join(a.out, "vflags.md")

    t0 = time.time()
    rows = []
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for topo, rate, cycles in CASES:
            for k in range(a.runs):
                for name, binary, flags in variants:
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    _, rc, d, load = run_once(binary, "cosim", topo, rate, cycles, a.seed)
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                    row = {"variant": name, "flags": flags, "topo": topo, "rate": rate,
                           "run": k + 1, "cycles": d["cycles"], "exit_code": rc,
                           "sim_cycles_per_second": d["sim_cycles_per_second"],
                           "cpu_seconds": round(cpu, 3),
                           "cycles_per_cpu_second": round(d["cycles"] / cpu, 1) if cpu > 0 else 0,
                           "loadavg_1min": "%.2f" % load}
                    w.writerow(row)
                    f.flush()
                    rows.append(row)
                    print("  %-9s %-9s rate %.1f run %d: %7.0f cycles/s (%.2f s CPU, load %.1f)" % (
                        name, topo, rate, k + 1, d["sim_cycles_per_second"], cpu, load), flush=True)
    elapsed = time.time() - t0

    base = variants[0][0]
    med = {}
    for name, _, _ in variants:
        for topo, rate, _ in CASES:
            rs = [r for r in rows if r["variant"] == name and r["topo"] == topo and r["rate"] == rate]
            med[(name, topo, rate)] = (
                statistics.median(float(r["sim_cycles_per_second"]) for r in rs),
                statistics.median(float(r["cycles_per_cpu_second"]) for r in rs))
    L = ["# Co-simulation speed by Verilator flags (`scripts/bench_vflags.py`)", "",
         "Written on %s UTC; %d run(s) per case and variant, the variants taking turns; median "
         "shown; bench time %.0f s; work tree: %s." % (
             time.strftime("%Y-%m-%d %H:%M", time.gmtime()), a.runs, elapsed, provenance()), "",
         "Runs: `Vcosim --topo T --routing xy --vcs 1 --traffic uniform_random --rate R --cycles N "
         "--drain-limit 0 --seed %d`, the 5-port 1-VC router array (SPIN and escape routing built "
         "in, both off), compared with the C model every cycle.  Ratio: median cycles/s over the "
         "`%s` build's (cycles per CPU-second in brackets)." % (a.seed, base), "",
         "| variant | Verilator flags (VOPT, VCHECK) | " +
         " | ".join("%s %.1f" % (t, r) for t, r, _ in CASES) + " |",
         "|---|---|" + "---|" * len(CASES)]
    for name, _, flags in variants:
        cells = []
        for topo, rate, _ in CASES:
            wall, cpu = med[(name, topo, rate)]
            bw, bc = med[(base, topo, rate)]
            cells.append("%.0f cycles/s, %.2fx (%.2fx)" % (wall, wall / bw, cpu / bc))
        L.append("| %s | `%s` | %s |" % (name, flags.strip() or "-", " | ".join(cells)))
    write_report("bench_vflags", L, csv_path, md_path, elapsed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
