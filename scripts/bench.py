#!/usr/bin/python3
"""Simulation speed of the standalone C model and of the co-simulation.

Runs build/cmodel/spinsim and build/rtl/p5-v1/Vcosim (one 5-port, 1-VC build
serves every mesh) on mesh4x4, mesh8x8 and mesh16x16, xy routing, 1 VC,
uniform random traffic, at a light load (0.1) and a saturated load (0.6),
several times each (3), one run at a time, and reports the median of:

  - cycles/s and router-cycles/s as the binary reports them
    (sim_cycles_per_second, router_cycles_per_second: simulated cycles over
    the wall time of the simulation, build and start-up excluded);
  - cycles per CPU-second: simulated cycles over the user + system CPU time of
    the process (start-up included).  Less sensitive to other load on the
    machine than the wall-clock figure.

Every run uses --drain-limit 0: it stops when injection stops, so it
simulates exactly --cycles cycles whatever the load.  It then exits 1 with
"packets left undelivered at the drain limit" when packets are still in
flight; that is expected here.  Any other failure stops the bench.

The co-simulation runs twice: on one thread, and with --threads 2 (the
routers on two threads, the C model's step beside them).

With --baseline BINARY, a second C model binary (for example the build of an
older commit) runs the same C model cases, each of its runs right before the
matching run of --spinsim, so that both see the same machine load; bench.md
then also gives the speed of --spinsim over the baseline.  --cosim-baseline
BINARY does the same for the co-simulation (one thread).

Outputs: build/bench/bench.csv (every run) and build/bench/bench.md (medians);
build/bench/quick/ with --quick.  `make bench` runs it (scripts/eval.mk).
"""

import argparse
import csv
import json
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

TOPOS = ["mesh4x4", "mesh8x8", "mesh16x16"]
RATES = [0.1, 0.6]
# Injection cycles per run, chosen for runs of about 1 to 5 s on one core.
CYCLES = {
    "spinsim": {"mesh4x4": 800000, "mesh8x8": 200000, "mesh16x16": 50000},
    "cosim": {"mesh4x4": 40000, "mesh8x8": 10000, "mesh16x16": 2500},
}
CYCLES["baseline"] = CYCLES["spinsim"]
CYCLES["cosim2"] = CYCLES["cosim_base"] = CYCLES["cosim"]
LABEL = {"spinsim": "C model (spinsim)", "baseline": "C model, baseline",
         "cosim": "co-simulation (Vcosim)", "cosim2": "co-simulation, 2 threads (Vcosim --threads 2)",
         "cosim_base": "co-simulation, baseline"}
# The extra arguments of a simulator's runs.
EXTRA = {"cosim2": ["--threads", "2"]}
# A baseline runs each case right before the simulator it is the baseline of.
BASE_OF = {"spinsim": "baseline", "cosim": "cosim_base"}
DRAIN_REASON = "packets left undelivered at the drain limit"
FIELDS = ["sim", "topo", "rate", "run", "cycles", "exit_code", "throughput",
          "sim_cycles_per_second", "router_cycles_per_second", "wall_seconds",
          "cpu_seconds", "cycles_per_cpu_second", "loadavg_1min"]


def provenance():
    """The commit of the work tree, and which model sources differ from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, check=True).stdout.strip()
        dirty = [d for d in ("cmodel", "rtl", "tb") if subprocess.run(
            ["git", "status", "--porcelain", "--", d], stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, check=True).stdout.strip()]
    except (OSError, subprocess.CalledProcessError):
        return "not a git work tree"
    return "commit %s%s" % (head, (", with uncommitted changes in " + ", ".join(d + "/" for d in dirty))
                            if dirty else ", model sources unchanged")


def write_report(tag, lines, csv_path, md_path, elapsed):
    """Writes the report lines to md_path and prints them, then where they went."""
    lines = lines + [""]
    with open(md_path, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))
    print("%s: wrote %s, %s (%.0f s)" % (tag, csv_path, md_path, elapsed))


def run_once(binary, sim, topo, rate, cycles, seed):
    fd, jpath = tempfile.mkstemp(prefix="bench-", suffix=".json")
    os.close(fd)
    cmd = [binary, "--topo", topo, "--routing", "xy", "--vcs", "1", "--traffic", "uniform_random",
           "--rate", "%g" % rate, "--cycles", str(cycles), "--drain-limit", "0",
           "--seed", str(seed), "--quiet", "--json", jpath] + EXTRA.get(sim, [])
    load = os.getloadavg()[0]
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = p.communicate()
        rc = p.returncode
        reason = ""
        for line in out.splitlines():
            if line.strip().startswith("FAILED:"):
                reason = line.strip()[len("FAILED:"):].strip()
        if rc not in (0, 1) or (rc == 1 and reason != DRAIN_REASON):
            raise RuntimeError("%s failed (exit %d%s): %s\n  command: %s" % (
                sim, rc, ", " + reason if reason else "", (err or out).strip()[-2000:], shlex.join(cmd)))
        with open(jpath) as f:
            d = json.load(f)
    finally:
        os.unlink(jpath)
    return cmd, rc, d, load


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spinsim", default="build/cmodel/spinsim")
    ap.add_argument("--cosim", default="build/rtl/p5-v1/Vcosim")
    ap.add_argument("--baseline", default=None,
                    help="another spinsim binary, run side by side with --spinsim")
    ap.add_argument("--cosim-baseline", default=None,
                    help="another Vcosim binary (5 ports, 1 VC), run side by side with --cosim")
    ap.add_argument("--runs", type=int, default=3, help="runs per case; the median is reported")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None, help="output directory (build/bench; build/bench/quick with --quick)")
    ap.add_argument("--quick", action="store_true", help="one run per case, 1/10 of the cycles")
    ap.add_argument("--sims", default="spinsim,cosim,cosim2",
                    help="spinsim, cosim (1 thread), cosim2 (--threads 2); comma separated")
    a = ap.parse_args()
    if a.quick:
        a.runs = 1
    a.out = a.out or ("build/bench/quick" if a.quick else "build/bench")
    return a


def plan_jobs(sims, runs):
    """Run order: the simulators one after the other, except that each
    baseline run comes right before the matching spinsim run."""
    jobs = []
    for sim in sims:
        if sim in BASE_OF.values():
            continue
        for topo in TOPOS:
            for rate in RATES:
                for k in range(runs):
                    if BASE_OF.get(sim) in sims:
                        jobs.append((BASE_OF[sim], topo, rate, k))
                    jobs.append((sim, topo, rate, k))
    return jobs


def run_jobs(a, binaries, jobs, csv_path):
    """Runs every job, one at a time, each a row of csv_path as it ends;
    returns the rows."""
    rows = []
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for sim, topo, rate, k in jobs:
            cycles = CYCLES[sim][topo] // (10 if a.quick else 1)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            cmd, rc, d, load = run_once(binaries[sim], sim, topo, rate, cycles, a.seed)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            row = {"sim": sim, "topo": topo, "rate": rate, "run": k + 1,
                   "cycles": d["cycles"], "exit_code": rc, "throughput": d["throughput"],
                   "sim_cycles_per_second": d["sim_cycles_per_second"],
                   "router_cycles_per_second": d["router_cycles_per_second"],
                   "wall_seconds": d["wall_seconds"], "cpu_seconds": round(cpu, 3),
                   "cycles_per_cpu_second": round(d["cycles"] / cpu, 1) if cpu > 0 else "",
                   "loadavg_1min": "%.2f" % load}
            w.writerow(row)
            f.flush()
            rows.append(row)
            print("  %-7s %-9s rate %.1f run %d: %8.0f cycles/s, %.3g router-cycles/s "
                  "(%.2f s wall, %.2f s CPU, load %.1f)" % (
                      sim, topo, rate, k + 1, d["sim_cycles_per_second"],
                      d["router_cycles_per_second"], d["wall_seconds"], cpu, load), flush=True)
    return rows


def report_head(a, sims, rows, elapsed):
    """bench.md's title, the machine and the method, and the table's header."""
    return [
        "# Simulation speed (`scripts/bench.py`)", "",
        "Written on %s UTC; %d run(s) per case, median shown; bench time %.0f s." % (
            time.strftime("%Y-%m-%d %H:%M", time.gmtime()), a.runs, elapsed), "",
        "- Machine: %s, %d CPU(s), Python %s; 1-minute load average %.2f to %.2f during the runs." % (
            platform.machine(), os.cpu_count() or 0, platform.python_version(),
            min(float(r["loadavg_1min"]) for r in rows), max(float(r["loadavg_1min"]) for r in rows)),
        "- Work tree: %s." % provenance(),
        "- Runs: `BINARY --topo T --routing xy --vcs 1 --traffic uniform_random --rate R "
        "--cycles N --drain-limit 0 --seed %d` (warm-up N/10), one at a time; BINARY is `%s` "
        "(C model) or `%s` (co-simulation, RTL compared with the C model every cycle)." % (
            a.seed, a.spinsim, a.cosim)
        + (" The baseline C model is `%s`; each of its runs comes right before the matching "
           "spinsim run." % a.baseline if "baseline" in sims else "")
        + (" The baseline co-simulation is `%s`; each of its runs comes right before the matching "
           "co-simulation run." % a.cosim_baseline if "cosim_base" in sims else "")
        + (" `--threads 2`: the routers evaluated on two threads, the C model's step beside "
           "them (tb/lanes.h)." if "cosim2" in sims else ""),
        "- cycles/s and router-cycles/s: as the binary reports them (wall time of the simulation). "
        "cycles/CPU-s: simulated cycles over the process's user + system CPU time, start-up included.",
        "- accepted: accepted throughput (flits/node/cycle) of the run: below the offered rate "
        "when the network is saturated.", "",
        "| simulator | topology | routers | offered | accepted | cycles | cycles/s | router-cycles/s | cycles/CPU-s |",
        "|---|---|---|---|---|---|---|---|---|"]


def median_rows(L, sims, rows):
    """One line of L per simulator, topology and rate: the medians of its
    runs.  Returns them by (sim, topo, rate)."""
    nodes = {"mesh4x4": 16, "mesh8x8": 64, "mesh16x16": 256}
    med = {}
    for sim in sims:
        for topo in TOPOS:
            for rate in RATES:
                rs = [r for r in rows if r["sim"] == sim and r["topo"] == topo and r["rate"] == rate]
                m = {k: statistics.median(float(r[k]) for r in rs)
                     for k in ("sim_cycles_per_second", "router_cycles_per_second",
                               "cycles_per_cpu_second", "throughput")}
                med[(sim, topo, rate)] = m
                L.append("| %s | %s | %d | %.1f | %.3f | %d | %.0f | %.3g | %.0f |" % (
                    LABEL[sim], topo,
                    nodes[topo], rate, m["throughput"], int(rs[0]["cycles"]),
                    m["sim_cycles_per_second"], m["router_cycles_per_second"], m["cycles_per_cpu_second"]))
    return med


def ratios(L, med, title, num, den, digits):
    """A table of med[num] over med[den], wall and CPU, per topology and rate."""
    L.extend(["", title, "", "| topology | offered | wall | CPU |", "|---|---|---|---|"])
    for topo in TOPOS:
        for rate in RATES:
            n, d = med[(num, topo, rate)], med[(den, topo, rate)]
            L.append("| %s | %.1f | %.*fx | %.*fx |" % (
                topo, rate, digits, n["sim_cycles_per_second"] / d["sim_cycles_per_second"],
                digits, n["cycles_per_cpu_second"] / d["cycles_per_cpu_second"]))


def main():
    a = parse_args()
    sims = [s for s in a.sims.split(",") if s]
    bad = [s for s in sims if s not in ("spinsim", "cosim", "cosim2")]
    if bad:
        sys.exit("bench: --sims: unknown simulator %s (spinsim, cosim, cosim2)" % ", ".join(bad))
    if a.baseline and "spinsim" in sims:
        sims.insert(sims.index("spinsim"), "baseline")
    if a.cosim_baseline and "cosim" in sims:
        sims.insert(sims.index("cosim"), "cosim_base")
    binaries = {"spinsim": a.spinsim, "cosim": a.cosim, "cosim2": a.cosim, "baseline": a.baseline,
                "cosim_base": a.cosim_baseline}
    for s in sims:
        if not os.access(binaries[s], os.X_OK):
            sys.exit("bench: %s not found (make spinsim; make sim-run PORTS=5 VCS=1 TOPO=mesh4x4 CYCLES=100)"
                     % binaries[s])
    os.makedirs(a.out, exist_ok=True)
    csv_path = os.path.join(a.out, "bench.csv")
    md_path = os.path.join(a.out, "bench.md")
    t0 = time.time()
    rows = run_jobs(a, binaries, plan_jobs(sims, a.runs), csv_path)
    elapsed = time.time() - t0
    L = report_head(a, sims, rows, elapsed)
    med = median_rows(L, sims, rows)
    if "spinsim" in sims and "cosim" in sims:
        ratios(L, med, "C model speed over co-simulation speed (median cycles/s; cycles/CPU-s):",
               "spinsim", "cosim", 1)
    if "baseline" in sims:
        ratios(L, med, "C model speed over the baseline's (median cycles/s; cycles/CPU-s):",
               "spinsim", "baseline", 2)
    if "cosim_base" in sims:
        ratios(L, med, "Co-simulation speed over the baseline's (median cycles/s; cycles/CPU-s):",
               "cosim", "cosim_base", 2)
    if "cosim2" in sims and "cosim" in sims:
        ratios(L, med, "Co-simulation on 2 threads over 1 thread (median cycles/s; cycles/CPU-s; "
               "on a machine with other work, the second thread waits for a CPU):",
               "cosim2", "cosim", 2)
    write_report("bench", L, csv_path, md_path, elapsed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
