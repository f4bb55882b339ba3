#!/usr/bin/python3
"""Offered-load sweeps of the C model on mesh8x8 (the SPIN paper's Fig. 7 setup).

For each configuration and traffic pattern, runs build/cmodel/spinsim at rising
offered rates (0.02, 0.04, ... 0.50 flits/node/cycle by default) and stops that
sweep two points after saturation.

Saturation rule: the first offered rate where the average latency exceeds
3x the zero-load latency (the average latency at the lowest rate of the sweep)
or the run does not drain within --drain-limit cycles.

Every finished point is appended to OUT/points.csv at once, so an interrupted
sweep resumes where it stopped: a point already in the CSV with the same run
parameters and the same spinsim binary (sha256) is not run again.  A run that
does not drain (spinsim exit status 1, "packets left undelivered at the drain
limit") is a data point; any other failure of exit status 1 (a corrupted or
lost packet) is recorded as a model error and ends that configuration's sweep;
exit status 2 (bad input) stops everything.

Outputs in OUT (build/sweep, or build/sweep/quick with --quick):
  points.csv            one row per point
  latency_<traffic>.png average latency vs offered load, one line per configuration
  saturation.md         saturation table, FAvORS-Min 1 VC vs west-first 1 VC,
                        model errors
  spin_counters.png     spins and false positives vs offered load (SPIN configurations)

Standard library only, plus matplotlib for the plots; run with /usr/bin/python3
(Debian's python3-matplotlib).  `make sweep` runs it (scripts/eval.mk).
"""

import argparse
import concurrent.futures
import csv
import glob
import hashlib
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

TOPO = "mesh8x8"

# (id, label, routing, vcs, spin) in the order of the paper's Fig. 7.
CONFIGS = [
    ("wf_1vc", "west-first, 1 VC", "west_first", 1, 0),
    ("fmin_1vc_spin", "FAvORS-Min + SPIN, 1 VC", "favors_min", 1, 1),
    ("wf_3vc", "west-first, 3 VCs", "west_first", 3, 0),
    ("fmin_3vc_spin", "minimal adaptive (FAvORS-Min) + SPIN, 3 VCs", "favors_min", 3, 1),
    ("esc_3vc", "escape VC, 3 VCs", "escape", 3, 0),
    ("esc_2vc", "escape VC, 2 VCs", "escape", 2, 0),
]

TRAFFICS = ["uniform_random", "transpose", "bit_reverse", "bit_rotation", "tornado", "neighbor"]

# The paper's claims: FAvORS-Min 1 VC (with SPIN) over west-first 1 VC, saturation throughput.
PAPER_FMIN_VS_WF = {"transpose": "+80%", "bit_reverse": "+20%", "bit_rotation": "+18%",
                    "uniform_random": "-3%"}

DRAIN_REASON = "packets left undelivered at the drain limit"

FIELDS = [
    "config", "routing", "vcs", "spin", "traffic", "rate", "cycles", "warmup",
    "drain_limit", "seed", "tdd", "spinsim_sha256", "status", "exit_code", "fail_reason",
    "avg_latency", "p99_latency", "max_latency", "measured_packets", "throughput",
    "packets_created", "packets_delivered", "sim_cycles", "probes_sent", "moves_sent",
    "probe_moves_sent", "kill_moves_sent", "spins", "deadlocks_resolved",
    "false_positives", "wall_seconds",
]
# The columns that identify a point: a CSV row matching all of them is reused.
KEY = ["config", "traffic", "rate", "cycles", "warmup", "drain_limit", "seed", "tdd",
       "spinsim_sha256"]
JSON_KEYS = ["avg_latency", "p99_latency", "max_latency", "measured_packets", "throughput",
             "packets_created", "packets_delivered", "probes_sent", "moves_sent",
             "probe_moves_sent", "kill_moves_sent", "spins", "deadlocks_resolved",
             "false_positives", "wall_seconds"]


def provenance():
    """The commit of the work tree, and whether cmodel/ differs from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "cmodel"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "not a git work tree"
    return "commit %s%s" % (head, ", with uncommitted changes in cmodel/" if dirty else ", cmodel/ unchanged")


def fmt_rate(r):
    return "%.2f" % r if abs(r * 100 - round(r * 100)) < 1e-9 else "%.4f" % r


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


class Sweep:
    def __init__(self, args):
        self.a = args
        self.cfg = {c[0]: c for c in CONFIGS}
        # Run a private copy: a rebuild of build/cmodel/spinsim during the
        # sweep (another make in the same tree) must not mix two models in one
        # sweep.  The CSV and the report name the copy's hash.
        tmp = os.path.join(args.out, ".spinsim.%d.tmp" % os.getpid())
        shutil.copy2(args.spinsim, tmp)
        self.binhash = sha256(tmp)
        self.exe = os.path.join(args.out, ".spinsim-" + self.binhash)
        os.replace(tmp, self.exe)
        self.provenance = provenance()
        self.csv_path = os.path.join(args.out, "points.csv")
        self.done = {}          # key tuple -> row (dict of strings)
        self.procs = set()      # running spinsim processes
        self.ran = 0
        self.reused = 0

    # ---- the CSV ----
    def key(self, row):
        return tuple(str(row[k]) for k in KEY)

    def load(self):
        if not os.path.exists(self.csv_path):
            return
        with open(self.csv_path, newline="") as f:
            rd = csv.DictReader(f)
            if rd.fieldnames != FIELDS:
                sys.exit("sweep: %s has other columns than this script writes; "
                         "move it away or delete it" % self.csv_path)
            for row in rd:
                self.done[self.key(row)] = row

    def append(self, row):
        new = not os.path.exists(self.csv_path) or os.path.getsize(self.csv_path) == 0
        with open(self.csv_path, "a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=FIELDS)
            if new:
                w.writeheader()
            w.writerow(row)
            f.flush()
            os.fsync(f.fileno())
        self.done[self.key(row)] = row

    # ---- one point ----
    def base_row(self, cid, traffic, rate):
        _, _, routing, vcs, spin = self.cfg[cid]
        return {"config": cid, "routing": routing, "vcs": vcs, "spin": spin,
                "traffic": traffic, "rate": fmt_rate(rate), "cycles": self.a.cycles,
                "warmup": self.a.warmup, "drain_limit": self.a.drain_limit,
                "seed": self.a.seed, "tdd": self.a.tdd, "spinsim_sha256": self.binhash}

    def command(self, row, json_path=None, exe=None):
        cmd = [exe or self.a.spinsim, "--topo", TOPO, "--routing", row["routing"],
               "--vcs", str(row["vcs"]), "--spin", str(row["spin"]), "--tdd", str(row["tdd"]),
               "--traffic", row["traffic"], "--rate", row["rate"],
               "--cycles", str(row["cycles"]), "--warmup", str(row["warmup"]),
               "--drain-limit", str(row["drain_limit"]), "--seed", str(row["seed"])]
        if json_path:
            cmd += ["--json", json_path, "--quiet"]
        return cmd

    def run_point(self, row):
        """Runs spinsim for one point (in a worker thread; the work is the child process)."""
        fd, jpath = tempfile.mkstemp(prefix="point-", suffix=".json", dir=self.a.out)
        os.close(fd)
        try:
            cmd = self.command(row, jpath, exe=self.exe)
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.procs.add(p)
            try:
                out, err = p.communicate(timeout=self.a.timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                p.communicate()
                row.update(status="error", exit_code="", fail_reason="timeout after %d s" % self.a.timeout)
                return row
            finally:
                self.procs.discard(p)
            if p.returncode not in (0, 1):
                raise RuntimeError("spinsim exit %d: %s\n  command: %s" % (
                    p.returncode, (err or out).strip(), shlex.join(cmd)))
            with open(jpath) as f:
                d = json.load(f)
        finally:
            os.unlink(jpath)
        reason = ""
        for line in out.splitlines():
            if line.strip().startswith("FAILED:"):
                reason = line.strip()[len("FAILED:"):].strip()
        if p.returncode == 0:
            status = "drained"
        elif reason == DRAIN_REASON:
            status = "not_drained"
        else:
            status = "error"
        row.update(status=status, exit_code=p.returncode, fail_reason=reason,
                   sim_cycles=d.get("cycles", ""))
        for k in JSON_KEYS:
            row[k] = d.get(k, "")
        return row

    # ---- the sweep ----
    def run(self):
        rates = self.a.rates
        series = [(c, t) for t in self.a.traffic for c in self.a.configs]
        state = {s: {"i": 0, "zero": None, "sat": None, "stop": False} for s in series}
        t0 = time.time()

        def classify(s, row):
            """Updates the series state with a finished point; returns True to go on."""
            st = state[s]
            i = st["i"]
            if row["status"] == "error":
                st["stop"] = True
                return
            lat = float(row["avg_latency"]) if row["avg_latency"] != "" else float("nan")
            if i == 0 and row["status"] == "drained":
                st["zero"] = lat
            if st["sat"] is None:
                if row["status"] != "drained" or st["zero"] is None or lat > 3 * st["zero"]:
                    st["sat"] = i
            st["i"] = i + 1
            if st["i"] >= len(rates) or (st["sat"] is not None and st["i"] > st["sat"] + 2):
                st["stop"] = True

        def next_row(s):
            st = state[s]
            return self.base_row(s[0], s[1], rates[st["i"]])

        running = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.a.jobs) as ex:
            pending = list(series)
            while pending or running:
                # Points already in the CSV are taken as they are, without running.
                progressed = True
                while progressed:
                    progressed = False
                    for s in list(pending):
                        if state[s]["stop"]:
                            pending.remove(s)
                            continue
                        row = next_row(s)
                        old = self.done.get(self.key(row))
                        if old is not None:
                            self.reused += 1
                            classify(s, old)
                            progressed = True
                # Start points until every job slot is busy; one point per series at a time.
                for s in list(pending):
                    if len(running) >= self.a.jobs:
                        break
                    if s in running.values() or state[s]["stop"]:
                        continue
                    fut = ex.submit(self.run_point, next_row(s))
                    running[fut] = s
                    pending.remove(s)
                if not running:
                    continue
                finished, _ = concurrent.futures.wait(
                    running, return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in finished:
                    s = running.pop(fut)
                    row = fut.result()      # a bad-input RuntimeError stops the sweep here
                    self.append(row)
                    self.ran += 1
                    classify(s, row)
                    lat = row["avg_latency"]
                    print("  %-15s %-15s rate %s  %-11s latency %s%s" % (
                        s[0], s[1], row["rate"], row["status"],
                        ("%.1f" % float(lat)) if lat != "" else "-",
                        ("  (" + row["fail_reason"] + ")") if row["status"] == "error" else ""),
                        flush=True)
                    if not state[s]["stop"]:
                        pending.append(s)
        self.elapsed = time.time() - t0

    # ---- results ----
    def rows_of(self, cid, traffic):
        """The current points of one series, by rate, in sweep order up to where it stopped."""
        out = []
        for r in self.a.rates:
            row = self.done.get(self.key(self.base_row(cid, traffic, r)))
            if row is None:
                break
            out.append(row)
            if row["status"] == "error":
                break
        return out

    def analyse(self, cid, traffic):
        rows = self.rows_of(cid, traffic)
        res = {"rows": rows, "zero": None, "sat": None, "sat_row": None, "error": None,
               "complete": False, "peak": None}
        for i, row in enumerate(rows):
            if row["status"] == "error":
                res["error"] = row
                break
            lat = float(row["avg_latency"]) if row["avg_latency"] != "" else float("nan")
            if i == 0 and row["status"] == "drained":
                res["zero"] = lat
            if row["status"] == "drained":
                thr = float(row["throughput"])
                res["peak"] = thr if res["peak"] is None else max(res["peak"], thr)
            if res["sat"] is None and (row["status"] != "drained" or res["zero"] is None
                                       or lat > 3 * res["zero"]):
                res["sat"] = float(row["rate"])
                res["sat_row"] = row
        n = len(self.a.rates)
        if res["error"] is not None:
            res["complete"] = True
        elif res["sat"] is not None:
            k = self.a.rates.index(float(res["sat_row"]["rate"]))
            res["complete"] = len(rows) >= min(n, k + 3)
        else:
            res["complete"] = len(rows) == n
        return res

    def sat_cell(self, res):
        if res["sat"] is not None:
            cell = fmt_rate(res["sat"])
            if res["sat_row"]["status"] != "drained":
                cell += " (nd)"
            return cell
        if res["error"] is not None:
            return "error at %s" % res["error"]["rate"]
        if res["complete"]:
            return "> %s" % fmt_rate(self.a.rates[-1])
        return "incomplete"

    def report(self):
        a = self.a
        labels = {c[0]: c[1] for c in CONFIGS}
        R = {(c, t): self.analyse(c, t) for t in a.traffic for c in a.configs}
        L = []
        L.append("# Saturation, %s (C model, build/cmodel/spinsim)" % TOPO)
        L.append("")
        L.append("Written by `scripts/sweep.py` on %s UTC." % time.strftime("%Y-%m-%d %H:%M", time.gmtime()))
        L.append("")
        L.append("- Runs: `spinsim --topo %s --traffic T --routing R --vcs V --spin S --tdd %d "
                 "--rate X --cycles %d --warmup %d --drain-limit %d --seed %d` "
                 "(long-frac 0.5: mean packet 3 flits)."
                 % (TOPO, a.tdd, a.cycles, a.warmup, a.drain_limit, a.seed))
        L.append("- Offered rates: %s to %s flits/node/cycle in steps of %s; a configuration's sweep "
                 "stops two points after its saturation point." % (
                     fmt_rate(a.rates[0]), fmt_rate(a.rates[-1]), fmt_rate(a.rates[1] - a.rates[0])
                     if len(a.rates) > 1 else "-"))
        L.append("- spinsim sha256 (first 16 hex digits): `%s`; work tree when this report was "
                 "written: %s." % (self.binhash, self.provenance))
        L.append("- **Saturation rule:** the first offered rate where the average latency exceeds "
                 "3x the zero-load latency (the average latency at the lowest rate, %s) or the run "
                 "does not drain within the drain limit. `(nd)`: that point did not drain. "
                 "The resolution is one rate step." % fmt_rate(a.rates[0]))
        L.append("")
        L.append("## Saturation rate (offered flits/node/cycle)")
        L.append("")
        cols = [labels[c] for c in a.configs]
        L.append("| traffic | " + " | ".join(cols) + " |")
        L.append("|---|" + "---|" * len(cols))
        for t in a.traffic:
            cells = [self.sat_cell(R[(c, t)]) for c in a.configs]
            L.append("| %s | %s |" % (t, " | ".join(cells)))
        L.append("")
        L.append("")
        L.append("## Zero-load latency (cycles, at %s) and peak accepted throughput "
                 "(flits/node/cycle, over the drained points)" % fmt_rate(a.rates[0]))
        L.append("")
        L.append("| traffic | " + " | ".join(labels[c] for c in a.configs) + " |")
        L.append("|---|" + "---|" * len(a.configs))
        for t in a.traffic:
            cells = []
            for c in a.configs:
                r = R[(c, t)]
                z = "%.1f" % r["zero"] if r["zero"] is not None else "-"
                pk = "%.3f" % r["peak"] if r["peak"] is not None else "-"
                cells.append("%s / %s" % (z, pk))
            L.append("| %s | %s |" % (t, " | ".join(cells)))
        L.append("")
        if "wf_1vc" in a.configs and "fmin_1vc_spin" in a.configs:
            L.append("## FAvORS-Min + SPIN, 1 VC, against west-first, 1 VC")
            L.append("")
            L.append("Change of the saturation rate, (FAvORS-Min - west-first) / west-first.")
            L.append("")
            L.append("| traffic | west-first 1 VC | FAvORS-Min + SPIN 1 VC | measured | paper |")
            L.append("|---|---|---|---|---|")
            for t in a.traffic:
                w, f = R[("wf_1vc", t)], R[("fmin_1vc_spin", t)]
                if w["sat"] is not None and f["sat"] is not None:
                    d = "%+.0f%%" % (100.0 * (f["sat"] - w["sat"]) / w["sat"])
                else:
                    d = "-"
                L.append("| %s | %s | %s | %s | %s |" % (t, self.sat_cell(w), self.sat_cell(f), d,
                                                          PAPER_FMIN_VS_WF.get(t, "-")))
            L.append("")
        # Points that did not drain, and model errors.
        nd = [(c, t, row) for (c, t), r in R.items() for row in r["rows"] if row["status"] == "not_drained"]
        errs = [(c, t, r["error"]) for (c, t), r in R.items() if r["error"] is not None]
        L.append("## Points that did not drain")
        L.append("")
        if nd:
            L.append("Delivered / created packets and accepted throughput of each; a throughput far "
                     "below the offered rate with most packets undelivered is a network that "
                     "stopped (deadlock not resolved), not a slow drain.")
            L.append("")
            L.append("| configuration | traffic | rate | delivered / created | accepted | spins | deadlocks resolved |")
            L.append("|---|---|---|---|---|---|---|")
            for c, t, row in nd:
                L.append("| %s | %s | %s | %s / %s | %.4f | %s | %s |" % (
                    labels[c], t, row["rate"], row["packets_delivered"], row["packets_created"],
                    float(row["throughput"]), row["spins"], row["deadlocks_resolved"]))
        else:
            L.append("None.")
        L.append("")
        L.append("## Model errors (spinsim exit status 1 other than the drain limit)")
        L.append("")
        if errs:
            L.append("Each ends its configuration's sweep. Reproduce with the command shown.")
            L.append("")
            for c, t, row in errs:
                L.append("- %s, %s, rate %s: `%s`" % (labels[c], t, row["rate"], row["fail_reason"]))
                L.append("  `%s`" % shlex.join(self.command(row)))
        else:
            L.append("None.")
        L.append("")
        inc = [(c, t) for (c, t), r in R.items() if not r["complete"]]
        if inc:
            L.append("Incomplete series (the sweep was interrupted or limited): " +
                     ", ".join("%s/%s" % (c, t) for c, t in inc))
            L.append("")
        path = os.path.join(a.out, "saturation.md")
        with open(path, "w") as f:
            f.write("\n".join(L))
        return path, R

    def plots(self, R):
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("sweep: matplotlib is missing (python3-matplotlib; `make deps`): no plots", file=sys.stderr)
            return []
        a = self.a
        labels = {c[0]: c[1] for c in CONFIGS}
        style = {"wf_1vc": ("tab:blue", "o", "-"), "fmin_1vc_spin": ("tab:red", "s", "-"),
                 "wf_3vc": ("tab:blue", "o", "--"), "fmin_3vc_spin": ("tab:red", "s", "--"),
                 "esc_3vc": ("tab:green", "^", "--"), "esc_2vc": ("tab:green", "^", ":")}
        written = []
        for t in a.traffic:
            fig, ax = plt.subplots(figsize=(7, 4.5))
            zeros = [R[(c, t)]["zero"] for c in a.configs if R[(c, t)]["zero"] is not None]
            top = 5 * max(zeros) if zeros else 100
            marked = set()
            for c in a.configs:
                col, mk, ls = style[c]
                rows = R[(c, t)]["rows"]
                xs = [float(r["rate"]) for r in rows if r["status"] == "drained"]
                ys = [float(r["avg_latency"]) for r in rows if r["status"] == "drained"]
                ax.plot(xs, ys, color=col, marker=mk, linestyle=ls, markersize=4, label=labels[c])
                for r in rows:
                    if r["status"] == "drained":
                        continue
                    kind = "not drained" if r["status"] == "not_drained" else "model error"
                    ax.plot([float(r["rate"])], [top], linestyle="none", color=col,
                            marker="x" if kind == "not drained" else "D", markersize=7,
                            clip_on=False, label=None)
                    marked.add(kind)
            if "not drained" in marked:
                ax.plot([], [], linestyle="none", marker="x", color="k", label="did not drain (at top edge)")
            if "model error" in marked:
                ax.plot([], [], linestyle="none", marker="D", color="k", label="model error (at top edge)")
            ax.set_ylim(0, top)
            ax.set_xlim(0, a.rates[-1] + 0.01)
            ax.set_xlabel("offered load (flits/node/cycle)")
            ax.set_ylabel("average latency (cycles)")
            ax.set_title("%s, %s, t_DD %d, %d cycles" % (TOPO, t, a.tdd, a.cycles))
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=8, loc="upper right")
            fig.tight_layout()
            p = os.path.join(a.out, "latency_%s.png" % t)
            fig.savefig(p, dpi=110)
            plt.close(fig)
            written.append(p)
        spin_cfgs = [c for c in a.configs if self.cfg[c][4] == 1]
        if spin_cfgs:
            fig, axes = plt.subplots(2, len(spin_cfgs), figsize=(5.5 * len(spin_cfgs), 7), squeeze=False)
            for j, c in enumerate(spin_cfgs):
                for i, (key, name) in enumerate([("spins", "spins"), ("false_positives", "false positives")]):
                    ax = axes[i][j]
                    ymax = 1
                    for t in a.traffic:
                        rows = [r for r in R[(c, t)]["rows"] if r[key] != ""]
                        xs = [float(r["rate"]) for r in rows]
                        ys = [int(r[key]) for r in rows]
                        ymax = max([ymax] + ys)
                        line, = ax.plot(xs, ys, marker="o", markersize=3, label=t)
                        for st, mk in (("not_drained", "x"), ("error", "D")):
                            nx = [float(r["rate"]) for r in rows if r["status"] == st]
                            ny = [int(r[key]) for r in rows if r["status"] == st]
                            ax.plot(nx, ny, linestyle="none", marker=mk, markersize=6,
                                    color="k" if st == "not_drained" else line.get_color(),
                                    markeredgecolor="k")
                    ax.set_yscale("symlog", linthresh=1)
                    ax.set_ylim(0, ymax * 2)
                    ax.set_xlabel("offered load (flits/node/cycle)")
                    ax.set_ylabel("%s per run" % name)
                    ax.set_title("%s: %s" % (labels[c], name), fontsize=10)
                    ax.grid(True, alpha=0.3)
                    if i == 0 and j == 0:
                        ax.plot([], [], linestyle="none", marker="x", color="k", label="did not drain")
                        ax.plot([], [], linestyle="none", marker="D", color="w", markeredgecolor="k",
                                label="model error (run cut short)")
                        ax.legend(fontsize=7)
            fig.suptitle("SPIN counters over the whole run, %s, t_DD %d, %d injection cycles + drain"
                         % (TOPO, a.tdd, a.cycles), fontsize=10)
            fig.tight_layout()
            p = os.path.join(a.out, "spin_counters.png")
            fig.savefig(p, dpi=110)
            plt.close(fig)
            written.append(p)
        return written


def env_or(name, default):
    v = os.environ.get(name, "")
    return v if v.strip() else default


def main():
    quick_env = env_or("SWEEP_QUICK", "0") not in ("0", "")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spinsim", default="build/cmodel/spinsim")
    ap.add_argument("--out", default=None, help="output directory (build/sweep; build/sweep/quick with --quick)")
    ap.add_argument("--quick", action="store_true", default=quick_env,
                    help="short runs, coarse steps: checks the tooling, not the network (env SWEEP_QUICK=1)")
    ap.add_argument("--cycles", type=int, default=None, help="injection cycles per point (env SWEEP_CYCLES; 20000)")
    ap.add_argument("--warmup", type=int, default=None, help="warm-up cycles (cycles/10)")
    ap.add_argument("--drain-limit", type=int, default=None, help="drain limit in cycles (= cycles)")
    ap.add_argument("--traffic", default=None,
                    help="traffic patterns, comma or space separated (env SWEEP_TRAFFIC; all six)")
    ap.add_argument("--configs", default=None,
                    help="configurations, comma separated: " + ",".join(c[0] for c in CONFIGS))
    ap.add_argument("--rates", default=None, help="START:STOP:STEP (0.02:0.5:0.02; quick 0.04:0.48:0.04)")
    ap.add_argument("--seed", type=int, default=int(env_or("SWEEP_SEED", "1")))
    ap.add_argument("--tdd", type=int, default=128)
    ap.add_argument("--jobs", type=int, default=int(env_or("SWEEP_JOBS", str(os.cpu_count() or 1))))
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per point before it counts as an error")
    ap.add_argument("--report-only", action="store_true", help="run nothing; rewrite the table and plots from the CSV")
    a = ap.parse_args()

    if a.cycles is None:
        a.cycles = int(env_or("SWEEP_CYCLES", "3000" if a.quick else "20000"))
    if a.warmup is None:
        a.warmup = a.cycles // 10
    if a.drain_limit is None:
        a.drain_limit = a.cycles
    if a.out is None:
        a.out = "build/sweep/quick" if a.quick else "build/sweep"
    tr = a.traffic if a.traffic is not None else env_or("SWEEP_TRAFFIC", "")
    a.traffic = [t for t in tr.replace(",", " ").split()] or list(TRAFFICS)
    a.configs = [c for c in (a.configs or "").replace(",", " ").split()] or [c[0] for c in CONFIGS]
    for c in a.configs:
        if c not in {x[0] for x in CONFIGS}:
            sys.exit("sweep: unknown configuration %r (known: %s)" % (c, ", ".join(x[0] for x in CONFIGS)))
    spec = a.rates or ("0.04:0.48:0.04" if a.quick else "0.02:0.5:0.02")
    try:
        lo, hi, st = (float(x) for x in spec.split(":"))
        n = int(math.floor((hi - lo) / st + 1e-9)) + 1
        a.rates = [round(lo + i * st, 4) for i in range(n)]
        assert n >= 1 and st > 0 and 0 < lo <= 1
    except (ValueError, AssertionError):
        sys.exit("sweep: --rates %r: expected START:STOP:STEP, e.g. 0.02:0.5:0.02" % spec)
    a.jobs = max(1, a.jobs)
    if not os.access(a.spinsim, os.X_OK):
        sys.exit("sweep: %s not found: run `make spinsim` first" % a.spinsim)
    os.makedirs(a.out, exist_ok=True)
    for stale in glob.glob(os.path.join(a.out, "point-*.json")):   # left by an interrupted sweep
        os.unlink(stale)

    sw = Sweep(a)
    sw.load()
    print("sweep: %s, %d configuration(s) x %d traffic pattern(s), rates %s..%s, %d cycles "
          "(warm-up %d, drain limit %d), seed %d, t_DD %d, %d job(s) -> %s" % (
              TOPO, len(a.configs), len(a.traffic), fmt_rate(a.rates[0]), fmt_rate(a.rates[-1]),
              a.cycles, a.warmup, a.drain_limit, a.seed, a.tdd, a.jobs, a.out), flush=True)
    print("sweep: saturation = first rate with average latency > 3x zero-load latency "
          "(latency at %s) or a run that does not drain" % fmt_rate(a.rates[0]), flush=True)
    sw.elapsed = 0.0
    if not a.report_only:
        try:
            sw.run()
        except RuntimeError as e:       # bad input (exit status 2): nothing to resume
            for p in list(sw.procs):
                p.kill()
            print("sweep: %s" % e, file=sys.stderr)
            os._exit(2)
        except KeyboardInterrupt:
            for p in list(sw.procs):
                p.kill()
            print("\nsweep: interrupted; %d point(s) of this run are in %s: run it again to resume"
                  % (sw.ran, sw.csv_path), file=sys.stderr)
            os._exit(130)
    path, R = sw.report()
    plots = sw.plots(R)
    print("sweep: %d point(s) run, %d taken from %s, %.0f s" % (sw.ran, sw.reused, sw.csv_path, sw.elapsed))
    with open(path) as f:
        print(f.read())
    print("sweep: wrote %s" % ", ".join([sw.csv_path, path] + plots))
    if not plots:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
