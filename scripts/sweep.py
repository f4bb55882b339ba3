#!/usr/bin/python3
"""Offered-load sweeps of the C model on mesh8x8 (the SPIN paper's Fig. 7 setup),
past saturation.

Latency sweep: for each configuration, router mode (live: the default router;
paper: `spinsim --mode paper`) and traffic pattern, runs build/cmodel/spinsim
at rising offered rates (0.02, 0.04, ... 0.50, then 0.55, 0.60, ... 1.00
flits/node/cycle by default) until the first rate at or above 3x that
series' saturation rate (or the end of the grid).

Saturation rule: the first offered rate where the average latency exceeds
3x the zero-load latency (the average latency at the lowest rate of the sweep)
or the run does not drain within --drain-limit cycles (= --cycles).  Past
saturation the sources build a backlog that would take longer than the run
itself to deliver; the drain limit stays at --cycles, so no point costs more
than twice its injection time, and a point that does not drain is a data
point (status not_drained), as its accepted throughput is measured over the
measurement window.

Post-saturation runs (--post-saturation): for each series, its saturation
rate S from the latency sweep above (run first, resumed from points.csv),
then runs at 1x, 2x and 3x S (capped at 1.0) for --sat-cycles cycles
(1,000,000) with each seed of --sat-seeds (1,2,3) and a drain limit of
--sat-drain cycles (3x --sat-cycles: enough for a network that keeps
accepting its saturation rate to deliver a 3x backlog), and writes
post_saturation.md.  A series that does not saturate within the grid, or
whose sweep hit a model error, gets no runs (its row says why).

Every finished point is appended to OUT/points.csv at once, so an interrupted
sweep resumes where it stopped: a point already in the CSV with the same run
parameters (mode included) and the same spinsim binary (sha256) is not run
again.  A run that does not drain (spinsim exit status 1, "packets left
undelivered at the drain limit") is a data point; any other failure of exit
status 1 (a corrupted or lost packet) is recorded as a model error and ends
that series' sweep; exit status 2 (bad input) stops everything.

Outputs in OUT (build/sweep, or build/sweep/quick with --quick):
  points.csv            one row per point (latency sweep and post-saturation runs)
  latency_<traffic>.png average latency vs offered load, one line per configuration
                        (a panel per mode)
  accepted_<traffic>.png accepted vs offered load, one line per configuration
  saturation.md         saturation, zero-load latency and peak tables,
                        FAvORS-Min 1 VC vs west-first 1 VC, model errors
  spin_counters.png     spins and false positives vs offered load (SPIN configurations)
  post_saturation.md    with --post-saturation: accepted at 1x, 2x, 3x saturation

Standard library only, plus matplotlib for the plots; run with /usr/bin/python3
(Debian's python3-matplotlib).  `make sweep` and `make sweep-sat` run it
(scripts/eval.mk).  Bad options and SWEEP_* environment values stop it with
exit status 2 and a message naming them.
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TOPO = "mesh8x8"
# Links failing at run time (spinsim --faults; empty: none).
FAULTS = ""

# (id, label, routing, vcs, spin), in the order of the tables.
CONFIGS = [
    ("xy_1vc", "XY, 1 VC", "xy", 1, 0),
    ("wf_1vc", "west-first, 1 VC", "west_first", 1, 0),
    ("fmin_1vc_spin", "FAvORS-Min + SPIN, 1 VC", "favors_min", 1, 1),
    ("nmin_1vc_spin", "FAvORS-NMin + SPIN, 1 VC", "favors_nmin", 1, 1),
    ("wf_2vc", "west-first, 2 VCs", "west_first", 2, 0),
    ("wf_3vc", "west-first, 3 VCs", "west_first", 3, 0),
    ("esc_2vc", "escape VC, 2 VCs", "escape", 2, 0),
    ("esc_3vc", "escape VC, 3 VCs", "escape", 3, 0),
    ("fmin_2vc_spin", "minimal adaptive (FAvORS-Min) + SPIN, 2 VCs", "favors_min", 2, 1),
    ("fmin_3vc_spin", "minimal adaptive (FAvORS-Min) + SPIN, 3 VCs", "favors_min", 3, 1),
    ("dfmin_2vc", "dragonfly minimal, 2 VCs", "df_min", 2, 0),
    ("ugal_3vc", "UGAL-L, 3 VCs", "ugal", 3, 0),
]
LABELS = {c[0]: c[1] for c in CONFIGS}
# The dragonfly's own routings (--topo dragonfly-...): not in the default list
# of a mesh sweep, and on a dragonfly the default list is theirs and FAvORS'.
DF_CONFIGS = ["dfmin_2vc", "ugal_3vc"]
DF_DEFAULT = ["fmin_1vc_spin", "nmin_1vc_spin", "dfmin_2vc", "ugal_3vc"]

# live: the default router (window-gated admission, rerouting, probe
# adoption, the NICs' window of 1 to 4 with a slack of 8, early credits,
# the recovery throttle; contract 13); unthrottled: live without the
# recovery throttle (contract 8); local: the live mode's three router-local
# rules alone (admission always on, no window, no early credits, no
# throttle); paper: --mode paper; window: local + the window of 1 (contract
# 8); early: local + early credits (contract 5); window_early: both;
# window4_early: local + the window of 1 to 4 with a slack of 8 and early
# credits (unthrottled with admission always on).
MODES = ["live", "unthrottled", "local", "paper", "window", "early", "window_early",
         "window4_early"]
DEFAULT_MODES = ["live", "paper"]
_LOCAL = ["--mode", "live", "--admit", "1", "--window", "0", "--window-slack", "0",
          "--early-credit", "0", "--throttle", "0"]
MODE_ARGS = {"live": ["--mode", "live"], "unthrottled": ["--mode", "live", "--throttle", "0"],
             "local": _LOCAL, "paper": ["--mode", "paper"],
             "window": _LOCAL + ["--window", "1"],
             "early": _LOCAL + ["--early-credit", "1"],
             "window_early": _LOCAL + ["--window", "1", "--early-credit", "1"],
             "window4_early": _LOCAL + ["--window", "4", "--window-slack", "8",
                                        "--early-credit", "1"]}

TRAFFICS = ["uniform_random", "transpose", "bit_reverse", "bit_rotation", "shuffle", "tornado",
            "neighbor"]
# Patterns the sweep accepts besides the default ones (spinsim's synthetic patterns).
OTHER_TRAFFICS = ["bit_complement", "group_shift"]
# A dragonfly sweep's default patterns.
DF_TRAFFICS = ["uniform_random", "group_shift"]

# The latency sweep of a series goes on to the first rate >= PAST x its saturation rate.
PAST = 3
# The post-saturation runs: these multiples of the saturation rate, capped at 1.0.
MULTS = (1, 2, 3)
# The goal: accepted at 2x and 3x saturation >= 90% of the peak.
GOAL = 0.90

DEFAULT_RATES = "0.02:0.5:0.02,0.55:1:0.05"
QUICK_RATES = "0.04:0.48:0.04,0.6:1:0.1"

# The paper's claims: FAvORS-Min 1 VC (with SPIN) over west-first 1 VC, saturation throughput.
PAPER_FMIN_VS_WF = {"transpose": "+80%", "bit_reverse": "+20%", "bit_rotation": "+18%",
                    "uniform_random": "-3%"}

DRAIN_REASON = "packets left undelivered at the drain limit"

FIELDS = [
    "config", "routing", "vcs", "spin", "mode", "traffic", "rate", "cycles", "warmup",
    "drain_limit", "seed", "tdd", "spinsim_sha256", "status", "exit_code", "fail_reason",
    "avg_latency", "p99_latency", "max_latency", "measured_packets", "throughput",
    "node_throughput_min", "node_throughput_max", "jain_index",
    "packets_created", "packets_injected", "packets_delivered", "sim_cycles", "probes_sent",
    "probes_adopted", "moves_sent", "probe_moves_sent", "kill_moves_sent", "spins",
    "deadlocks_resolved", "false_positives", "wall_seconds",
]
# The columns that identify a point: a CSV row matching all of them is reused.
KEY = ["config", "mode", "traffic", "rate", "cycles", "warmup", "drain_limit", "seed", "tdd",
       "spinsim_sha256"]
JSON_KEYS = ["avg_latency", "p99_latency", "max_latency", "measured_packets", "throughput",
             "node_throughput_min", "node_throughput_max", "jain_index",
             "packets_created", "packets_injected", "packets_delivered", "probes_sent",
             "probes_adopted", "moves_sent", "probe_moves_sent", "kill_moves_sent", "spins",
             "deadlocks_resolved", "false_positives", "wall_seconds"]


class BadInput(Exception):
    """A bad option or environment value: exit status 2."""


def die(msg):
    print("sweep: " + msg, file=sys.stderr)
    sys.exit(2)


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


def parse_rates(spec):
    """START:STOP:STEP segments (or single rates), comma separated, into a rising list."""
    rates = []
    try:
        for seg in spec.split(","):
            parts = [float(x) for x in seg.split(":")]
            if len(parts) == 1:
                rates.append(round(parts[0], 4))
                continue
            if len(parts) != 3:
                raise ValueError
            lo, hi, st = parts
            if not (st > 0 and hi >= lo):
                raise ValueError
            n = int(math.floor((hi - lo) / st + 1e-9)) + 1
            rates += [round(lo + i * st, 4) for i in range(n)]
    except ValueError:
        raise BadInput("--rates %r: expected START:STOP:STEP segments or rates, comma separated, "
                       "e.g. %s" % (spec, DEFAULT_RATES))
    if not rates or any(not 0 < r <= 1 for r in rates) or any(b <= a for a, b in zip(rates, rates[1:])):
        raise BadInput("--rates %r: the rates must rise, each above 0 and at most 1" % spec)
    return rates


def fnum(row, key):
    """A number of a CSV row, or None when empty."""
    v = row.get(key, "")
    return float(v) if v not in ("", None) else None


def analyse_rows(rows, rates, past=PAST):
    """The saturation rule on one series' points (in rate order, as the sweep runs them).

    Returns zero (zero-load latency: the average latency at the first rate, when it
    drained), sat (the saturation rate: the first rate whose average latency exceeds
    3x zero, or that did not drain, or any rate when there is no zero), sat_row, peak
    (the highest accepted throughput of any point), error (the first model-error
    row; the series ends there) and complete (whether the sweep of this series is
    over: an error, a point at or past past x sat, or the whole grid).
    """
    res = {"rows": rows, "zero": None, "sat": None, "sat_row": None, "error": None,
           "complete": False, "peak": None}
    for i, row in enumerate(rows):
        if row["status"] == "error":
            res["error"] = row
            break
        drained = row["status"] == "drained"
        lat = fnum(row, "avg_latency")
        if i == 0 and drained:
            res["zero"] = lat
        thr = fnum(row, "throughput")
        if thr is not None:
            res["peak"] = thr if res["peak"] is None else max(res["peak"], thr)
        if res["sat"] is None and (not drained or res["zero"] is None or lat is None
                                   or lat > 3 * res["zero"]):
            res["sat"] = float(row["rate"])
            res["sat_row"] = row
    if res["error"] is not None:
        res["complete"] = True
    elif rows and len(rows) >= len(rates):
        res["complete"] = True
    elif res["sat"] is not None:
        res["complete"] = float(rows[-1]["rate"]) >= past * res["sat"] - 1e-9
    return res


def sat_rates(sat):
    """The post-saturation rates of a saturation rate: MULTS x sat, capped at 1.0."""
    return [round(min(1.0, m * sat), 4) for m in MULTS]


def summarize(rows):
    """Mean, min and max accepted throughput, the lowest per-node minimum, mean
    Jain's index, and drain counts over the runs (seeds) of one post-saturation rate."""
    ok = [r for r in rows if r["status"] != "error"]
    thr = [float(r["throughput"]) for r in ok]
    out = {"n": len(rows), "errors": len(rows) - len(ok), "mean": None, "min": None, "max": None,
           "node_min": None, "jain": None,
           "drained": sum(1 for r in rows if r["status"] == "drained"), "delivered_frac": None}
    if thr:
        out.update(mean=sum(thr) / len(thr), min=min(thr), max=max(thr))
    nm = [float(r["node_throughput_min"]) for r in ok if r["node_throughput_min"] != ""]
    jn = [float(r["jain_index"]) for r in ok if r["jain_index"] != ""]
    if nm:
        out["node_min"] = min(nm)
    if jn:
        out["jain"] = sum(jn) / len(jn)
    fr = [int(r["packets_delivered"]) / int(r["packets_created"]) for r in ok
          if r["packets_created"] not in ("", "0")]
    if fr:
        out["delivered_frac"] = min(fr)
    return out


def post_sat_row(sat, peak, per_mult, seeds):
    """One line of the post-saturation table.

    sat: the saturation rate (None: not found), peak: the sweep's peak accepted
    throughput, per_mult: for each of MULTS the list of point rows (one per seed
    run so far), seeds: the number of seeds asked for.  Returns the cells after
    the configuration, mode and traffic columns, and a dict: ratio, whether the
    2x and 3x means reach GOAL x peak (None when it cannot tell: runs missing or
    in error), and drained, whether every run drained.
    """
    S = [summarize(rs) for rs in per_mult]
    # The peak: the highest accepted throughput of the sweep or of these runs' means.
    pk = max([v for v in [peak] + [s["mean"] for s in S] if v is not None], default=None)
    rates = sat_rates(sat)

    def acc(s, rate, m):
        if s["n"] == 0:
            return "-"
        if s["mean"] is None:
            return "error"
        cell = "%.3f (%.3f..%.3f)" % (s["mean"], s["min"], s["max"])
        if s["n"] < seeds:
            cell += " [%d of %d seeds]" % (s["n"], seeds)
        if s["errors"]:
            cell += " [%d model error(s)]" % s["errors"]
        return cell

    def ratio(s):
        if s["mean"] is None or not pk:
            return "-", None
        r = s["mean"] / pk
        return "%.0f%%" % (100 * r), r
    r2, v2 = ratio(S[1])
    r3, v3 = ratio(S[2])
    full = all(s["n"] >= seeds and s["errors"] == 0 for s in S[1:])
    goal = None if (v2 is None or v3 is None or not full) else (v2 >= GOAL - 1e-9 and v3 >= GOAL - 1e-9)
    two = S[1]
    node = "-" if two["node_min"] is None else "%.3f" % two["node_min"]
    if two["node_min"] is not None and two["mean"]:
        node += " (%.2fx)" % (two["node_min"] / two["mean"])
    jain = "-" if two["jain"] is None else "%.2f" % two["jain"]
    n = sum(s["n"] for s in S)
    d = sum(s["drained"] for s in S)
    if n == 0:
        drained = "-"
    elif d == n:
        drained = "all %d" % n
    else:
        fr = [s["delivered_frac"] for s in S if s["delivered_frac"] is not None]
        drained = "%d of %d" % (d, n) + (" (least delivered %.1f%%)" % (100 * min(fr)) if fr else "")
    rcell = "%s (%s)" % (fmt_rate(sat), ", ".join(fmt_rate(r) for r in rates[1:]))
    cells = [rcell, "-" if pk is None else "%.3f" % pk] + \
            [acc(S[i], rates[i], MULTS[i]) for i in range(len(MULTS))] + \
            [r2, r3, {None: "-", True: "yes", False: "**no**"}[goal], node, jain, drained]
    return cells, {"ratio": goal, "drained": n > 0 and d == n}


POST_SAT_HEADER = ["configuration", "mode", "saturation (2x, 3x)", "peak",
                   "accepted at 1x", "at 2x", "at 3x", "2x / peak", "3x / peak",
                   ">= 90%", "min node at 2x (/ mean)", "Jain at 2x", "drained"]


def md_table(header, rows):
    L = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    L += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return L


def finish_row(row, rc, out, d):
    """Fills a point's row from spinsim's exit status, stdout and JSON summary."""
    reason = ""
    for line in out.splitlines():
        if line.strip().startswith("FAILED:"):
            reason = line.strip()[len("FAILED:"):].strip()
    if rc == 0:
        status = "drained"
    elif reason == DRAIN_REASON:
        status = "not_drained"
    else:
        status = "error"
    row.update(status=status, exit_code=rc, fail_reason=reason,
               sim_cycles=d.get("cycles", ""))
    for k in JSON_KEYS:
        row[k] = d.get(k, "")
    return row


class Sweep:
    """The sweep's plan and its points: the series to run (configuration,
    mode, traffic), the points of each (base_row, sat_row) and the spinsim
    command of one, the points run so far (points.csv, done), what each
    series' points say (analyse_all) and which points come next (next_round,
    sat_plan).  LocalPool or Engine runs the points, Reports and Plots write
    the results."""

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
        self.elapsed = 0.0
        self.series = [(c, m, t) for t in args.traffic for m in args.modes for c in args.configs]

    # ---- the CSV ----
    def key(self, row):
        return tuple(str(row[k]) for k in KEY)

    def load(self):
        if not os.path.exists(self.csv_path):
            return
        with open(self.csv_path, newline="") as f:
            rd = csv.DictReader(f)
            if rd.fieldnames != FIELDS:
                die("%s has other columns than this script writes (an older sweep's, without "
                    "the mode column?); move it away or delete it" % self.csv_path)
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
    def base_row(self, cid, mode, traffic, rate, cycles=None, drain=None, seed=None):
        _, _, routing, vcs, spin = self.cfg[cid]
        cycles = self.a.cycles if cycles is None else cycles
        return {"config": cid, "routing": routing, "vcs": vcs, "spin": spin, "mode": mode,
                "traffic": traffic, "rate": fmt_rate(rate), "cycles": cycles,
                "warmup": self.a.warmup if cycles == self.a.cycles else cycles // 10,
                "drain_limit": self.a.drain_limit if drain is None else drain,
                "seed": self.a.seed if seed is None else seed, "tdd": self.a.tdd,
                "spinsim_sha256": self.binhash}

    def sat_row(self, cid, mode, traffic, rate, seed):
        return self.base_row(cid, mode, traffic, rate, cycles=self.a.sat_cycles,
                             drain=self.a.sat_drain, seed=seed)

    def command(self, row, json_path=None, exe=None):
        cmd = [exe or self.a.spinsim, "--topo", TOPO] + (["--faults", FAULTS] if FAULTS else []) + \
            MODE_ARGS[row["mode"]] + [
               "--routing", row["routing"],
               "--vcs", str(row["vcs"]), "--spin", str(row["spin"]), "--tdd", str(row["tdd"]),
               "--traffic", row["traffic"], "--rate", row["rate"],
               "--cycles", str(row["cycles"]), "--warmup", str(row["warmup"]),
               "--drain-limit", str(row["drain_limit"]), "--seed", str(row["seed"])]
        if json_path:
            cmd += ["--json", json_path, "--quiet"]
        return cmd

    def log(self, row):
        lat = row["avg_latency"]
        print("  %-14s %-5s %-14s rate %-6s %s%-11s accepted %s  latency %s%s" % (
            row["config"], row["mode"], row["traffic"], row["rate"],
            "" if str(row["cycles"]) == str(self.a.cycles) else "seed %s " % row["seed"],
            row["status"], row["throughput"] if row["throughput"] != "" else "-",
            ("%.1f" % float(lat)) if lat != "" else "-",
            ("  (" + row["fail_reason"] + ")") if row["status"] == "error" else ""), flush=True)

    # ---- what the points say ----
    def rows_of(self, cid, mode, traffic):
        """The current points of one series, by rate, in sweep order up to where it stopped."""
        out = []
        for r in self.a.rates:
            row = self.done.get(self.key(self.base_row(cid, mode, traffic, r)))
            if row is None:
                break
            out.append(row)
            if analyse_rows(out, self.a.rates)["complete"]:
                break
        return out

    def analyse(self, cid, mode, traffic):
        return analyse_rows(self.rows_of(cid, mode, traffic), self.a.rates)

    def analyse_all(self):
        return {s: self.analyse(*s) for s in self.series}

    # ---- the points to run next ----
    def sat_plan(self, R):
        """The post-saturation points of every series with a saturation rate."""
        plan, seen = [], set()
        for s in self.series:
            res = R[s]
            if res["sat"] is None or res["error"] is not None:
                continue
            for rate in sat_rates(res["sat"]):
                for seed in self.a.sat_seeds:
                    row = self.sat_row(s[0], s[1], s[2], rate, seed)
                    if self.key(row) not in seen:
                        seen.add(self.key(row))
                        plan.append(row)
        return plan

    def next_round(self):
        """The points needed next: one per incomplete series of the latency
        sweep (as the local pool runs them); once every series is complete,
        the post-saturation points (--post-saturation) not in the CSV."""
        rates, need = self.a.rates, []
        for s in self.series:
            rows = []
            while not analyse_rows(rows, rates)["complete"]:
                row = self.base_row(s[0], s[1], s[2], rates[len(rows)])
                old = self.done.get(self.key(row))
                if old is None:
                    need.append(row)
                    break
                rows.append(old)
        if need or not self.a.post_saturation:
            return need
        return [r for r in self.sat_plan(self.analyse_all()) if self.key(r) not in self.done]


class LocalPool:
    """Runs the points in this script's thread pool, jobs at a time: the
    latency sweep rate by rate (run), then a list of points (run_rows)."""

    def __init__(self, sw):
        self.sw = sw
        self.a = sw.a

    def run_point(self, row, timeout):
        """Runs spinsim for one point (in a worker thread; the work is the child process)."""
        fd, jpath = tempfile.mkstemp(prefix="point-", suffix=".json", dir=self.a.out)
        os.close(fd)
        try:
            cmd = self.sw.command(row, jpath, exe=self.sw.exe)
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.sw.procs.add(p)
            try:
                out, err = p.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                p.communicate()
                row.update(status="error", exit_code="", fail_reason="timeout after %d s" % timeout)
                return row
            finally:
                self.sw.procs.discard(p)
            if p.returncode not in (0, 1):
                raise RuntimeError("spinsim exit %d: %s\n  command: %s" % (
                    p.returncode, (err or out).strip(), shlex.join(cmd)))
            with open(jpath) as f:
                d = json.load(f)
        finally:
            os.unlink(jpath)
        return finish_row(row, p.returncode, out, d)

    def run(self):
        """Runs each series rate by rate until analyse_rows says it is complete."""
        rates = self.a.rates
        rows = {s: [] for s in self.sw.series}
        t0 = time.time()

        def next_row(s):
            return self.sw.base_row(s[0], s[1], s[2], rates[len(rows[s])])

        def over(s):
            return analyse_rows(rows[s], rates)["complete"]

        running = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.a.jobs) as ex:
            pending = list(self.sw.series)
            while pending or running:
                # Points already in the CSV are taken as they are, without running.
                for s in list(pending):
                    while not over(s):
                        old = self.sw.done.get(self.sw.key(next_row(s)))
                        if old is None:
                            break
                        self.sw.reused += 1
                        rows[s].append(old)
                    if over(s):
                        pending.remove(s)
                # Start points until every job slot is busy; one point per series at a time.
                for s in list(pending):
                    if len(running) >= self.a.jobs:
                        break
                    fut = ex.submit(self.run_point, next_row(s), self.a.timeout)
                    running[fut] = s
                    pending.remove(s)
                if not running:
                    continue
                finished, _ = concurrent.futures.wait(
                    running, return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in finished:
                    s = running.pop(fut)
                    row = fut.result()      # a bad-input RuntimeError stops the sweep here
                    self.sw.append(row)
                    self.sw.ran += 1
                    rows[s].append(row)
                    self.sw.log(row)
                    if not over(s):
                        pending.append(s)
        self.sw.elapsed += time.time() - t0

    def run_rows(self, plan):
        """Runs every point of PLAN not yet in the CSV, jobs at a time."""
        todo = [r for r in plan if self.sw.key(r) not in self.sw.done]
        self.sw.reused += len(plan) - len(todo)
        print("sweep: post-saturation: %d point(s), %d already in %s" % (
            len(plan), len(plan) - len(todo), self.sw.csv_path), flush=True)
        t0 = time.time()
        # At most jobs points submitted at a time: an interrupt (or a bad-input
        # error) then leaves only the running ones for the pool to wait for.
        running = set()
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.a.jobs) as ex:
            while todo or running:
                while todo and len(running) < self.a.jobs:
                    running.add(ex.submit(self.run_point, todo.pop(0), self.a.sat_timeout))
                finished, running = concurrent.futures.wait(
                    running, return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in finished:
                    row = fut.result()
                    self.sw.append(row)
                    self.sw.ran += 1
                    self.sw.log(row)
        self.sw.elapsed += time.time() - t0


class Engine:
    """Runs the points through an external engine (GNU parallel, Slurm), in
    rounds of jobs: each job a shell line that leaves runs/<id>.{json,out,rc},
    collected into the CSV before the next round is planned."""

    def __init__(self, sw):
        self.sw = sw
        self.a = sw.a

    def runs_dir(self):
        return os.path.join(self.a.out, "runs")

    def job_id(self, row):
        return hashlib.sha1("|".join(self.sw.key(row)).encode()).hexdigest()[:16]

    def job_line(self, row):
        """One self-contained shell command: checks that the host runs this
        sweep's spinsim, runs one point and leaves runs/<id>.{json,out,rc}."""
        base = os.path.join(os.path.abspath(self.runs_dir()), self.job_id(row))
        exe = os.path.abspath(self.sw.exe)
        cmd = shlex.join(self.sw.command(row, base + ".json", exe=exe))
        q = shlex.quote
        return ('if [ "$(sha256sum %s 2>/dev/null | cut -c1-16)" != %s ]; then echo binary > %s; '
                "else %s > %s 2>&1; echo $? > %s; fi"
                % (q(exe), self.sw.binhash, q(base + ".rc"), cmd, q(base + ".out"), q(base + ".rc")))

    def collect(self):
        """Takes the finished jobs of runs/ into the CSV.  A result that is
        malformed or from another spinsim is reported and its files removed,
        so that the next round runs the point again.  Returns the number of
        jobs without a result yet."""
        pending = 0
        for rpath in sorted(glob.glob(os.path.join(self.runs_dir(), "*.row"))):
            base = rpath[:-4]
            if not os.path.exists(base + ".rc"):
                pending += 1
                continue
            why = None
            try:
                with open(rpath) as f:
                    row = json.load(f)
                with open(base + ".rc") as f:
                    rc = f.read().strip()
                if rc == "binary":
                    why = "ran another spinsim than %s (sha256 %s...): the hosts must share it" % (
                        self.sw.exe, self.sw.binhash)
                elif rc not in ("0", "1"):
                    with open(base + ".out") as f:
                        why = "spinsim exit %s: %s" % (rc, f.read().strip()[-300:])
                elif row.get("spinsim_sha256") != self.sw.binhash:
                    why = "planned for spinsim %s, this sweep runs %s" % (
                        row.get("spinsim_sha256"), self.sw.binhash)
                else:
                    with open(base + ".json") as f:
                        d = json.load(f)
                    with open(base + ".out") as f:
                        out = f.read()
                    if not isinstance(d, dict) or "throughput" not in d or "cycles" not in d:
                        why = "a summary without throughput or cycles"
                    else:
                        row = finish_row(row, int(rc), out, d)
            except (OSError, ValueError, AttributeError) as e:
                why = "unreadable result (%s)" % e
            if why:
                print("sweep: job %s: %s; it runs again" % (os.path.basename(base), why), flush=True)
            elif self.sw.key(row) not in self.sw.done:
                self.sw.append(row)
                self.sw.ran += 1
                self.sw.log(row)
            for ext in (".row", ".rc", ".json", ".out"):
                if os.path.exists(base + ext):
                    os.unlink(base + ext)
        return pending

    def run(self):
        """Rounds of jobs through the external engine.  parallel: runs each
        round to its end, then plans the next.  slurm: writes the round's
        jobs, prints the sbatch command and returns False; run the sweep
        again once the array has finished (it collects, then plans)."""
        os.makedirs(self.runs_dir(), exist_ok=True)
        jobs_path = os.path.join(self.a.out, "jobs.txt")
        t0 = time.time()
        try:
            while True:
                pending = self.collect()
                if pending:
                    print("sweep: %d job(s) of the last round have no result in %s yet: when they "
                          "have finished, run the sweep again" % (pending, self.runs_dir()), flush=True)
                    return False
                rows = self.sw.next_round()
                if not rows:
                    return True
                with open(jobs_path, "w") as f:
                    for row in rows:
                        with open(os.path.join(self.runs_dir(), self.job_id(row) + ".row"), "w") as rf:
                            json.dump(row, rf)
                        f.write(self.job_line(row) + "\n")
                print("sweep: a round of %d job(s): %s" % (len(rows), jobs_path), flush=True)
                if self.a.engine == "slurm":
                    print("sweep: submit it with\n  sbatch --array=1-%d %s %s\nsweep: then, once the "
                          "array has finished, run the sweep again" % (
                              len(rows), os.path.join(ROOT, "scripts", "sweep_slurm.sh"),
                              os.path.abspath(jobs_path)), flush=True)
                    return False
                cmd = ["parallel", "--will-cite", "--jobs", str(self.a.jobs)]
                if self.a.hosts:
                    cmd += ["--sshloginfile", self.a.hosts]
                with open(jobs_path) as f:
                    r = subprocess.run(cmd, stdin=f)
                if r.returncode > 100:
                    raise RuntimeError("GNU parallel failed (exit %d): %s" % (r.returncode, shlex.join(cmd)))
                # a job parallel lost (a host gone) left no result: planned again
                for rpath in glob.glob(os.path.join(self.runs_dir(), "*.row")):
                    if not os.path.exists(rpath[:-4] + ".rc"):
                        os.unlink(rpath)
        finally:
            self.sw.elapsed += time.time() - t0


class Reports:
    """saturation.md (the latency sweep) and post_saturation.md (the runs at
    1x, 2x and 3x saturation), from what the points say (R: analyse_all)."""

    def __init__(self, sw):
        self.sw = sw
        self.a = sw.a

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

    def header(self, title):
        return ["# %s, %s (C model, build/cmodel/spinsim)" % (title, TOPO), "",
                "Written by `scripts/sweep.py` on %s UTC." % time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                "",
                "- spinsim sha256 (first 16 hex digits): `%s`; work tree when this report was "
                "written: %s." % (self.sw.binhash, self.sw.provenance),
                "- Modes: `live` is the default router (window-gated injection admission, "
                "rerouting, SPIN probe adoption, the NICs' window of 1 to 4 with a slack of 8, "
                "early credits, the recovery throttle; contract section 13), `unthrottled` the "
                "live mode with `--throttle 0` (contract section 8), `local` its three "
                "router-local rules alone (`--admit 1 --window 0 --window-slack 0 "
                "--early-credit 0 --throttle 0`), `paper` is `spinsim --mode "
                "paper`, `window` the local router with `--window 1` (contract section 8), "
                "`early` the local router with `--early-credit 1` (contract section 5), "
                "`window_early` with both, `window4_early` with `--window 4 --window-slack 8 "
                "--early-credit 1` (the unthrottled live mode with admission always on)."]

    def sweep_rule(self):
        a = self.a
        return ("**Saturation rule:** the first offered rate where the average latency exceeds "
                "3x the zero-load latency (the average latency at the lowest rate, %s) or the run "
                "does not drain within the drain limit (%d cycles). `(nd)`: that point did not "
                "drain. The resolution is one rate step." % (fmt_rate(a.rates[0]), a.drain_limit))

    def series_rows(self, cols_of):
        """Table rows: one per configuration and mode, one cell per traffic pattern."""
        out = []
        for c in self.a.configs:
            for m in self.a.modes:
                out.append([LABELS[c], m] + [cols_of(c, m, t) for t in self.a.traffic])
        return out

    def write(self, name, L):
        path = os.path.join(self.a.out, name)
        with open(path, "w") as f:
            f.write("\n".join(L))
        return path

    # ---- saturation.md ----
    def saturation(self, R):
        """saturation.md; returns its path."""
        L = self.header("Saturation") + self.sweep_runs()
        L += self.sat_tables(R)
        L += self.fmin_vs_wf(R)
        L += self.not_drained(R)
        L += self.errors_section([(s, r["error"]) for s, r in R.items() if r["error"] is not None])
        inc = [s for s, r in R.items() if not r["complete"]]
        if inc:
            L.append("Incomplete series (the sweep was interrupted or limited): " +
                     ", ".join("%s/%s/%s" % s for s in inc))
            L.append("")
        return self.write("saturation.md", L)

    def sweep_runs(self):
        """How the latency sweep's points ran."""
        a = self.a
        return ["- Runs: `spinsim --topo %s --mode M --traffic T --routing R --vcs V --spin S "
                "--tdd %s --rate X --cycles %d --warmup %d --drain-limit %d --seed %d` "
                "(long-frac 0.5: mean packet 3 flits)."
                % (topo_args(), a.tdd, a.cycles, a.warmup, a.drain_limit, a.seed),
                "- Offered rates: %s (%d rates); a series stops at the first rate at or above "
                "%dx its saturation rate." % (", ".join(fmt_rate(r) for r in a.rates), len(a.rates), PAST),
                "- " + self.sweep_rule(),
                ""]

    def sat_tables(self, R):
        """Saturation rate; zero-load latency and peak accepted throughput."""
        a = self.a
        L = ["## Saturation rate (offered flits/node/cycle)", ""]
        L += md_table(["configuration", "mode"] + a.traffic,
                      self.series_rows(lambda c, m, t: self.sat_cell(R[(c, m, t)])))
        L.append("")
        L.append("## Zero-load latency (cycles, at %s) and peak accepted throughput "
                 "(flits/node/cycle, any offered rate)" % fmt_rate(a.rates[0]))
        L.append("")

        def zp(c, m, t):
            r = R[(c, m, t)]
            return "%s / %s" % ("%.1f" % r["zero"] if r["zero"] is not None else "-",
                                "%.3f" % r["peak"] if r["peak"] is not None else "-")
        L += md_table(["configuration", "mode"] + a.traffic, self.series_rows(zp))
        L.append("")
        return L

    def fmin_vs_wf(self, R):
        """FAvORS-Min + SPIN, 1 VC, against west-first, 1 VC, and the paper."""
        a = self.a
        if "wf_1vc" not in a.configs or "fmin_1vc_spin" not in a.configs:
            return []
        L = ["## FAvORS-Min + SPIN, 1 VC, against west-first, 1 VC", "",
             "Change of the saturation rate, (FAvORS-Min - west-first) / west-first.", ""]
        rows = []
        for t in a.traffic:
            for m in a.modes:
                w, f = R[("wf_1vc", m, t)], R[("fmin_1vc_spin", m, t)]
                if w["sat"] is not None and f["sat"] is not None:
                    d = "%+.0f%%" % (100.0 * (f["sat"] - w["sat"]) / w["sat"])
                else:
                    d = "-"
                rows.append([t, m, self.sat_cell(w), self.sat_cell(f), d,
                             PAPER_FMIN_VS_WF.get(t, "-")])
        L += md_table(["traffic", "mode", "west-first 1 VC", "FAvORS-Min + SPIN 1 VC",
                       "measured", "paper"], rows)
        L.append("")
        return L

    def not_drained(self, R):
        """The first point of each series that did not drain."""
        L = ["## First point that did not drain, per series", ""]
        nd = []
        for s, r in R.items():
            for row in r["rows"]:
                if row["status"] == "not_drained":
                    nd.append((s, row))
                    break
        if nd:
            L.append("Delivered / created packets and accepted throughput; a throughput far "
                     "below the offered rate with most packets undelivered is a network that "
                     "stopped (deadlock not resolved), not a slow drain. Past saturation the "
                     "sources' backlog alone keeps a run from draining within the limit.")
            L.append("")
            L += md_table(["configuration", "mode", "traffic", "rate", "delivered / created",
                           "accepted", "spins", "deadlocks resolved"],
                          [[LABELS[c], m, t, row["rate"], "%s / %s" % (row["packets_delivered"],
                            row["packets_created"]), "%.4f" % float(row["throughput"]),
                            row["spins"], row["deadlocks_resolved"]] for (c, m, t), row in nd])
        else:
            L.append("None.")
        L.append("")
        return L

    def errors_section(self, errs):
        L = ["## Model errors (spinsim exit status 1 other than the drain limit)", ""]
        if errs:
            L.append("Each ends its series. Reproduce with the command shown.")
            L.append("")
            for (c, m, t), row in errs:
                L.append("- %s, %s, %s, rate %s, seed %s: `%s`" % (
                    LABELS[c], m, t, row["rate"], row["seed"], row["fail_reason"]))
                L.append("  `%s`" % shlex.join(self.sw.command(row)))
        else:
            L.append("None.")
        L.append("")
        return L

    # ---- post_saturation.md ----
    def post_saturation(self, R):
        """post_saturation.md; returns its path."""
        L = self.header("Past saturation") + self.post_sat_runs()
        tables, goal_rows = self.post_sat_tables(R)
        L += tables
        L += self.goal_section(goal_rows)
        L += self.errors_section(self.post_sat_errors(R))
        return self.write("post_saturation.md", L)

    def post_sat_runs(self):
        """How the post-saturation runs ran, and what the columns mean."""
        a = self.a
        return [
            "- Runs: `spinsim --topo %s --mode M --traffic T --routing R --vcs V --spin S "
            "--tdd %s --rate X --cycles %d --warmup %d --drain-limit %d --seed N`, seeds %s."
            % (topo_args(), a.tdd, a.sat_cycles, a.sat_cycles // 10, a.sat_drain,
               ", ".join(map(str, a.sat_seeds))),
            "- Saturation rate: from the latency sweep (`saturation.md`, %d-cycle runs, "
            "seed %d). %s" % (a.cycles, a.seed, self.sweep_rule()),
            "- 1x, 2x, 3x: the saturation rate and its multiples, capped at 1.0 (2x and 3x "
            "in brackets after it). Accepted: flits/node/cycle over the measurement window, "
            "mean over the seeds (min..max).",
            "- Peak: the highest accepted throughput of the configuration at any offered "
            "rate of the latency sweep, or of the 1x/2x/3x means here. `>= 90%`: whether "
            "the 2x and 3x means both reach 90% of it (the goal for FAvORS-Min + SPIN).",
            "- Min node: the lowest accepted throughput of one source node at 2x, over the "
            "seeds (in brackets: as a fraction of the 2x mean). Jain: Jain's fairness index "
            "of the per-node throughput at 2x, mean over the seeds.",
            "- Drained: runs (all multiples and seeds) that delivered every packet within "
            "the drain limit of %d cycles. Past saturation the sources hold a backlog of "
            "(offered - accepted) x cycles flits per node, which a network that keeps its "
            "accepted rate delivers in (offered / accepted - 1) x %d cycles; a run that "
            "needs longer counts as not drained (least delivered share in brackets)."
            % (a.sat_drain, a.sat_cycles),
            ""]

    def post_sat_tables(self, R):
        """One table per traffic pattern; returns its lines and, for the SPIN
        configurations, (config, mode, traffic, goal) of each row."""
        a = self.a
        seeds = a.sat_seeds
        L, goal_rows = [], []
        for t in a.traffic:
            L.append("## %s" % t)
            L.append("")
            rows = []
            for c in a.configs:
                for m in a.modes:
                    res = R[(c, m, t)]
                    if res["error"] is not None:
                        rows.append([LABELS[c], m, "model error at %s in the sweep" % res["error"]["rate"]]
                                    + [""] * (len(POST_SAT_HEADER) - 3))
                        continue
                    if res["sat"] is None:
                        rows.append([LABELS[c], m, self.sat_cell(res) + ": no runs"]
                                    + [""] * (len(POST_SAT_HEADER) - 3))
                        continue
                    per = [[self.sw.done[k] for k in (self.sw.key(self.sw.sat_row(c, m, t, r, s)) for s in seeds)
                            if k in self.sw.done] for r in sat_rates(res["sat"])]
                    cells, goal = post_sat_row(res["sat"], res["peak"], per, len(seeds))
                    rows.append([LABELS[c], m] + cells)
                    if self.sw.cfg[c][4] == 1:
                        goal_rows.append((c, m, t, goal))
            L += md_table(POST_SAT_HEADER, rows)
            L.append("")
        return L, goal_rows

    def goal_section(self, goal_rows):
        """Where FAvORS-Min + SPIN meets the goal, per mode."""
        if not goal_rows:
            return []
        L = ["## The goal: FAvORS-Min + SPIN at 2x and 3x saturation >= 90% of its peak", "",
             "Met: 2x and 3x means >= 90% of the peak and every run drained.", ""]
        for m in self.a.modes:
            g = [x for x in goal_rows if x[1] == m]
            met = [x for x in g if x[3]["ratio"] is True and x[3]["drained"]]
            miss = [x for x in g if x[3]["ratio"] is False]
            nd = [x for x in g if x[3]["ratio"] is True and not x[3]["drained"]]
            unk = [x for x in g if x[3]["ratio"] is None]
            L.append("- %s: met in %d of %d rows%s%s%s" % (
                m, len(met), len(g),
                "; below 90%%: %s" % ", ".join("%s %s" % (LABELS[c], t) for c, _, t, _ in miss) if miss else "",
                "; 90%% reached but not every run drained: %s" % ", ".join(
                    "%s %s" % (LABELS[c], t) for c, _, t, _ in nd) if nd else "",
                "; incomplete: %d" % len(unk) if unk else ""))
        L.append("")
        return L

    def post_sat_errors(self, R):
        """The post-saturation runs that ended in a model error."""
        errs = []
        for s in self.sw.series:
            res = R[s]
            if res["sat"] is None:
                continue
            for r in sat_rates(res["sat"]):
                for seed in self.a.sat_seeds:
                    row = self.sw.done.get(self.sw.key(self.sw.sat_row(s[0], s[1], s[2], r, seed)))
                    if row is not None and row["status"] == "error":
                        errs.append((s, row))
        return errs


class Plots:
    """latency_<traffic>.png and accepted_<traffic>.png (a panel per mode, a
    line per configuration) and spin_counters.png, with matplotlib."""

    STYLE = {"xy_1vc": ("tab:gray", "o"), "wf_1vc": ("tab:blue", "o"), "fmin_1vc_spin": ("tab:red", "o"),
             "nmin_1vc_spin": ("tab:brown", "D"),
             "wf_2vc": ("tab:pink", "^"), "wf_3vc": ("tab:cyan", "s"), "esc_2vc": ("tab:olive", "^"), "esc_3vc": ("tab:green", "s"),
             "fmin_2vc_spin": ("tab:orange", "^"), "fmin_3vc_spin": ("tab:purple", "s"),
             "dfmin_2vc": ("tab:olive", "^"), "ugal_3vc": ("tab:green", "s")}
    MODE_LS = {"live": "-", "local": (0, (5, 1)), "paper": "--", "window": ":", "early": "-.", "window_early": (0, (1, 1)),
               "window4_early": (0, (3, 1, 1, 1)), "unthrottled": (0, (5, 2, 1, 2))}

    def __init__(self, sw):
        self.sw = sw
        self.a = sw.a

    def write(self, R):
        """Every plot; returns their paths ([] without matplotlib)."""
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("sweep: matplotlib is missing (python3-matplotlib; `make deps`): no plots", file=sys.stderr)
            return []
        written = []
        for t in self.a.traffic:
            for kind in ("latency", "accepted"):
                written.append(self.curves(plt, R, t, kind))
        spin_cfgs = [c for c in self.a.configs if self.sw.cfg[c][4] == 1]
        if spin_cfgs:
            written.append(self.spin_counters(plt, R, spin_cfgs))
        return written

    def curves(self, plt, R, t, kind):
        """Latency or accepted throughput against offered load for traffic t."""
        a = self.a
        zeros = [R[(c, m, t)]["zero"] for c in a.configs for m in a.modes
                 if R[(c, m, t)]["zero"] is not None]
        top = 5 * max(zeros) if zeros else 100
        fig, axes = plt.subplots(1, len(a.modes), figsize=(6.5 * len(a.modes), 4.8),
                                 squeeze=False, sharey=True)
        for j, m in enumerate(a.modes):
            self.panel(axes[0][j], R, t, m, kind, top)
        fig.tight_layout()
        p = os.path.join(a.out, "%s_%s.png" % (kind, t))
        fig.savefig(p, dpi=110)
        plt.close(fig)
        return p

    def panel(self, ax, R, t, m, kind, top):
        """One mode's panel: a line per configuration, points that did not
        drain or ended in a model error marked."""
        a = self.a
        xmax = a.rates[-1] + 0.02
        marked = set()
        for c in a.configs:
            col, mk = self.STYLE[c]
            rows = R[(c, m, t)]["rows"]
            if kind == "latency":
                pts = [r for r in rows if r["status"] == "drained"]
                ys = [float(r["avg_latency"]) for r in pts]
            else:
                pts = [r for r in rows if r["status"] != "error"]
                ys = [float(r["throughput"]) for r in pts]
            xs = [float(r["rate"]) for r in pts]
            ax.plot(xs, ys, color=col, marker=mk, linestyle=self.MODE_LS[m],
                    markersize=3.5, linewidth=1.2, label=LABELS[c])
            for r in rows:
                if r["status"] == "drained":
                    continue
                nd = r["status"] == "not_drained"
                if kind == "accepted" and nd:
                    continue    # plotted on its line; drain says nothing of accepted
                y = top if kind == "latency" else (0 if not nd else float(r["throughput"]))
                ax.plot([float(r["rate"])], [y], linestyle="none", color=col,
                        marker="x" if nd else "D", markersize=6, clip_on=False)
                marked.add("not drained" if nd else "model error")
        if kind == "latency":
            if "not drained" in marked:
                ax.plot([], [], linestyle="none", marker="x", color="k",
                        label="did not drain (at top edge)")
            ax.set_ylim(0, top)
            ax.set_ylabel("average latency (cycles)")
        else:
            ax.plot([0, xmax], [0, xmax], color="k", linewidth=0.6, linestyle=":",
                    label="accepted = offered")
            ax.set_ylim(0, None)
            ax.set_ylabel("accepted throughput (flits/node/cycle)")
        if "model error" in marked:
            ax.plot([], [], linestyle="none", marker="D", color="k", label="model error")
        ax.set_xlim(0, xmax)
        ax.set_xlabel("offered load (flits/node/cycle)")
        ax.set_title("%s, %s, %s mode, t_DD %s, %d cycles" % (TOPO, t, m, a.tdd, a.cycles),
                     fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="upper right" if kind == "latency" else "upper left")

    def spin_counters(self, plt, R, spin_cfgs):
        """Spins and false positives against offered load, SPIN configurations."""
        a = self.a
        fig, axes = plt.subplots(2, len(spin_cfgs), figsize=(5.5 * len(spin_cfgs), 7), squeeze=False)
        for j, c in enumerate(spin_cfgs):
            for i, (key, name) in enumerate([("spins", "spins"), ("false_positives", "false positives")]):
                ax = axes[i][j]
                ymax = 1
                for k, t in enumerate(a.traffic):
                    color = "C%d" % (k % 10)
                    for m in a.modes:
                        rows = [r for r in R[(c, m, t)]["rows"] if r[key] != ""]
                        xs = [float(r["rate"]) for r in rows]
                        ys = [int(r[key]) for r in rows]
                        ymax = max([ymax] + ys)
                        ax.plot(xs, ys, marker="o", markersize=2.5, color=color,
                                linestyle=self.MODE_LS[m], label="%s, %s" % (t, m))
                        nx = [float(r["rate"]) for r in rows if r["status"] == "error"]
                        ny = [int(r[key]) for r in rows if r["status"] == "error"]
                        ax.plot(nx, ny, linestyle="none", marker="D", markersize=6, color=color,
                                markeredgecolor="k")
                ax.set_yscale("symlog", linthresh=1)
                ax.set_ylim(0, ymax * 2)
                ax.set_xlabel("offered load (flits/node/cycle)")
                ax.set_ylabel("%s per run" % name)
                ax.set_title("%s: %s" % (LABELS[c], name), fontsize=10)
                ax.grid(True, alpha=0.3)
                if i == 0 and j == 0:
                    ax.plot([], [], linestyle="none", marker="D", color="w", markeredgecolor="k",
                            label="model error (run cut short)")
                    ax.legend(fontsize=6, ncol=2)
        fig.suptitle("SPIN counters over the whole run (solid: live, dashed: paper), %s, t_DD %s, "
                     "%d injection cycles + drain" % (TOPO, a.tdd, a.cycles), fontsize=10)
        fig.tight_layout()
        p = os.path.join(a.out, "spin_counters.png")
        fig.savefig(p, dpi=110)
        plt.close(fig)
        return p


# ---- options and environment ----
def env_or(name, default):
    v = os.environ.get(name, "")
    return v if v.strip() else default


def pos_int(text, what, lo=1):
    """TEXT as an integer >= LO, or BadInput naming WHAT."""
    try:
        v = int(str(text).strip(), 10)
    except ValueError:
        v = None
    if v is None or v < lo:
        raise BadInput("%s=%r: expected an integer of at least %d" % (what, str(text), lo))
    return v


def name_list(text, what, known):
    items = str(text).replace(",", " ").split()
    for x in items:
        if x not in known:
            raise BadInput("%s: unknown %r (known: %s)" % (what, x, ", ".join(known)))
    return items


def option_parser(quick_env):
    """The command line; every value is checked after parsing (options)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spinsim", default="build/cmodel/spinsim")
    ap.add_argument("--topo", default=None,
                    help="the topology (env SWEEP_TOPO; mesh8x8); a dragonfly-a-p-h[@G] sweeps "
                         "%s on %s by default" % (",".join(DF_DEFAULT), ",".join(DF_TRAFFICS)))
    ap.add_argument("--faults", default=None,
                    help="links failing at run time, as spinsim --faults (env SWEEP_FAULTS; none); "
                         "the output directory's name ends in +faults-<hash>")
    ap.add_argument("--out", default=None, help="output directory (build/sweep; build/sweep/quick with --quick; "
                    "another topology than mesh8x8 in a subdirectory of it named after the topology)")
    ap.add_argument("--quick", action="store_true", default=quick_env == "1",
                    help="short runs, coarse steps: checks the tooling, not the network (env SWEEP_QUICK=1)")
    ap.add_argument("--cycles", default=None, help="injection cycles per point (env SWEEP_CYCLES; 20000)")
    ap.add_argument("--warmup", default=None, help="warm-up cycles (cycles/10)")
    ap.add_argument("--drain-limit", default=None, help="drain limit in cycles (= cycles)")
    ap.add_argument("--traffic", default=None,
                    help="traffic patterns, comma or space separated (env SWEEP_TRAFFIC; the seven of "
                         "the issue: %s)" % ", ".join(TRAFFICS))
    ap.add_argument("--configs", default=None,
                    help="configurations, comma separated (env SWEEP_CONFIGS; all): "
                         + ",".join(c[0] for c in CONFIGS))
    ap.add_argument("--modes", default=None, help="router modes (env SWEEP_MODES; live,paper; also local, window, "
                    "early, window_early, window4_early)")
    ap.add_argument("--rates", default=None, help="START:STOP:STEP segments, comma separated (%s; "
                    "quick %s)" % (DEFAULT_RATES, QUICK_RATES))
    ap.add_argument("--seed", default=None, help="seed of the latency sweep (env SWEEP_SEED; 1)")
    ap.add_argument("--tdd", default="auto", help="t_DD of every run: auto (spinsim's own: 128, or "
                    "the hop diameter times the longest link where more), cover (a third of the longest loop "
                    "the network can form, where more than 128) or an integer from 2 to 32768")
    ap.add_argument("--jobs", default=None, help="parallel runs (env SWEEP_JOBS; the CPU count)")
    ap.add_argument("--timeout", default="1800", help="seconds per sweep point before it counts as an error")
    ap.add_argument("--post-saturation", action="store_true",
                    help="after the latency sweep, the 1x/2x/3x saturation runs: post_saturation.md")
    ap.add_argument("--sat-cycles", default=None,
                    help="injection cycles of a post-saturation run (env SWEEP_SAT_CYCLES; 1000000)")
    ap.add_argument("--sat-seeds", default=None,
                    help="seeds of the post-saturation runs (env SWEEP_SAT_SEEDS; 1,2,3)")
    ap.add_argument("--sat-drain", default=None,
                    help="drain limit of a post-saturation run (env SWEEP_SAT_DRAIN; 3 x sat-cycles)")
    ap.add_argument("--sat-timeout", default=None,
                    help="seconds per post-saturation run before it counts as an error "
                         "(max(1800, (sat-cycles + sat-drain) / 1000))")
    ap.add_argument("--engine", default=None,
                    help="who runs the points (env SWEEP_ENGINE): local (this script's pool, the default), "
                         "parallel (GNU parallel, rounds of jobs; --hosts for ssh hosts) or slurm "
                         "(writes each round's jobs for scripts/sweep_slurm.sh)")
    ap.add_argument("--hosts", default=None,
                    help="with --engine parallel: GNU parallel's --sshloginfile (env SWEEP_HOSTS)")
    ap.add_argument("--report-only", action="store_true", help="run nothing; rewrite the tables and plots from the CSV")
    return ap


def topo_args():
    """The topology as the runs name it: --topo, and --faults when links fail."""
    return TOPO + (" --faults " + FAULTS if FAULTS else "")


def check_run_options(a):
    """The topology, the points' cycles, the output directory, what is swept
    (traffic, configurations, modes, rates), seed, t_DD, jobs, timeout."""
    global TOPO
    TOPO = a.topo if a.topo is not None else env_or("SWEEP_TOPO", TOPO)
    if not TOPO or any(ch.isspace() for ch in TOPO):
        raise BadInput("--topo %r: expected a spinsim topology name" % TOPO)
    dfly = TOPO.startswith("dragonfly")
    global FAULTS
    FAULTS = a.faults if a.faults is not None else env_or("SWEEP_FAULTS", "")
    if any(ch.isspace() for ch in FAULTS):
        raise BadInput("--faults %r: expected spinsim's --faults (CYCLE@ROUTER:PORT,...)" % FAULTS)

    src = "--cycles" if a.cycles is not None else "SWEEP_CYCLES"
    a.cycles = pos_int(a.cycles if a.cycles is not None else env_or("SWEEP_CYCLES", "3000" if a.quick else "20000"),
                       src, 10)
    a.warmup = a.cycles // 10 if a.warmup is None else pos_int(a.warmup, "--warmup", 0)
    if a.warmup >= a.cycles:
        raise BadInput("--warmup %d: must be below --cycles %d" % (a.warmup, a.cycles))
    a.drain_limit = a.cycles if a.drain_limit is None else pos_int(a.drain_limit, "--drain-limit")
    if a.out is None:
        a.out = "build/sweep/quick" if a.quick else "build/sweep"
        if TOPO != "mesh8x8" or FAULTS:   # points.csv does not name the topology: one directory each
            a.out = os.path.join(a.out, TOPO.replace("/", "_").replace(":", "_") +
                                 ("+faults-" + hashlib.sha1(FAULTS.encode()).hexdigest()[:8] if FAULTS else ""))
    src = "--traffic" if a.traffic is not None else "SWEEP_TRAFFIC"
    a.traffic = name_list(a.traffic if a.traffic is not None else env_or("SWEEP_TRAFFIC", ""), src,
                          TRAFFICS + OTHER_TRAFFICS) or list(DF_TRAFFICS if dfly else TRAFFICS)
    src = "--configs" if a.configs is not None else "SWEEP_CONFIGS"
    a.configs = name_list(a.configs if a.configs is not None else env_or("SWEEP_CONFIGS", ""), src,
                          [c[0] for c in CONFIGS]) or (list(DF_DEFAULT) if dfly else
                                                       [c[0] for c in CONFIGS if c[0] not in DF_CONFIGS])
    if not dfly and set(a.configs) & set(DF_CONFIGS):
        raise BadInput("%s: %s route dragonflies only (--topo dragonfly-a-p-h)"
                       % (src, ",".join(sorted(set(a.configs) & set(DF_CONFIGS)))))
    src = "--modes" if a.modes is not None else "SWEEP_MODES"
    a.modes = name_list(a.modes if a.modes is not None else env_or("SWEEP_MODES", ""), src, MODES) or list(DEFAULT_MODES)
    a.rates = parse_rates(a.rates or (QUICK_RATES if a.quick else DEFAULT_RATES))
    a.seed = pos_int(a.seed if a.seed is not None else env_or("SWEEP_SEED", "1"),
                     "--seed" if a.seed is not None else "SWEEP_SEED")
    if str(a.tdd).strip() in ("auto", "cover"):
        a.tdd = str(a.tdd).strip()
    elif not str(a.tdd).strip().isdigit() or not 2 <= int(a.tdd) <= 32768:
        raise BadInput("--tdd=%r: expected auto, cover or an integer from 2 to 32768" % str(a.tdd))
    else:
        a.tdd = int(a.tdd)
    src = "--jobs" if a.jobs is not None else "SWEEP_JOBS"
    a.jobs = pos_int(a.jobs if a.jobs is not None else env_or("SWEEP_JOBS", str(os.cpu_count() or 1)), src)
    a.timeout = pos_int(a.timeout, "--timeout")


def check_sat_options(a):
    """The post-saturation runs: cycles, drain limit, seeds (their timeout
    after the engine's checks, in options)."""
    src = "--sat-cycles" if a.sat_cycles is not None else "SWEEP_SAT_CYCLES"
    a.sat_cycles = pos_int(a.sat_cycles if a.sat_cycles is not None
                           else env_or("SWEEP_SAT_CYCLES", "1000000"), src, 10)
    src = "--sat-drain" if a.sat_drain is not None else "SWEEP_SAT_DRAIN"
    a.sat_drain = pos_int(a.sat_drain if a.sat_drain is not None
                          else env_or("SWEEP_SAT_DRAIN", str(3 * a.sat_cycles)), src)
    src = "--sat-seeds" if a.sat_seeds is not None else "SWEEP_SAT_SEEDS"
    seeds = str(a.sat_seeds if a.sat_seeds is not None else env_or("SWEEP_SAT_SEEDS", "1 2 3"))
    a.sat_seeds = sorted({pos_int(x, src) for x in seeds.replace(",", " ").split()})
    if not a.sat_seeds:
        raise BadInput("%s: no seed given" % src)


def check_engine_options(a):
    """Who runs the points, and GNU parallel's hosts."""
    src = "--engine" if a.engine is not None else "SWEEP_ENGINE"
    a.engine = a.engine if a.engine is not None else env_or("SWEEP_ENGINE", "local")
    if a.engine not in ("local", "parallel", "slurm"):
        raise BadInput("%s=%r: expected local, parallel or slurm" % (src, a.engine))
    src = "--hosts" if a.hosts is not None else "SWEEP_HOSTS"
    a.hosts = a.hosts if a.hosts is not None else (env_or("SWEEP_HOSTS", "") or None)
    if a.hosts is not None:
        if a.engine != "parallel":
            raise BadInput("%s=%s: only with the parallel engine (SWEEP_ENGINE=parallel)" % (src, a.hosts))
        if not os.path.isfile(a.hosts):
            raise BadInput("%s=%s: no such file (GNU parallel's --sshloginfile)" % (src, a.hosts))
    if a.engine == "parallel" and not shutil.which("parallel"):
        raise BadInput("%s=parallel: GNU parallel is not installed (Debian package parallel; "
                       "scripts/install-deps.sh)" % src)


def options(argv=None):
    quick_env = env_or("SWEEP_QUICK", "0")
    if quick_env not in ("0", "1"):
        raise BadInput("SWEEP_QUICK=%r: expected 0 or 1" % quick_env)
    a = option_parser(quick_env).parse_args(argv)
    check_run_options(a)
    check_sat_options(a)
    check_engine_options(a)
    a.sat_timeout = (pos_int(a.sat_timeout, "--sat-timeout") if a.sat_timeout is not None
                     else max(1800, (a.sat_cycles + a.sat_drain) // 1000))
    return a


def main():
    try:
        a = options()
    except BadInput as e:
        die(str(e))
    if not os.access(a.spinsim, os.X_OK):
        die("%s not found: run `make spinsim` first" % a.spinsim)
    os.makedirs(a.out, exist_ok=True)
    for stale in glob.glob(os.path.join(a.out, "point-*.json")):   # left by an interrupted sweep
        os.unlink(stale)

    sw = Sweep(a)
    sw.load()
    print("sweep: %s, %d configuration(s) x %d mode(s) x %d traffic pattern(s), %d rates %s..%s, "
          "%d cycles (warm-up %d, drain limit %d), seed %d, t_DD %s, %d job(s) -> %s" % (
              TOPO, len(a.configs), len(a.modes), len(a.traffic), len(a.rates), fmt_rate(a.rates[0]),
              fmt_rate(a.rates[-1]), a.cycles, a.warmup, a.drain_limit, a.seed, a.tdd, a.jobs, a.out),
          flush=True)
    print("sweep: saturation = first rate with average latency > 3x zero-load latency "
          "(latency at %s) or a run that does not drain; each series runs to %dx its saturation"
          % (fmt_rate(a.rates[0]), PAST), flush=True)
    if a.post_saturation:
        print("sweep: post-saturation: 1x, 2x, 3x saturation (capped at 1.0), %d cycles, drain limit "
              "%d, seeds %s" % (a.sat_cycles, a.sat_drain, ",".join(map(str, a.sat_seeds))), flush=True)
    try:
        if a.engine != "local" and not a.report_only:
            if not Engine(sw).run():
                return 3                # a Slurm round submitted or running: run again
            R = sw.analyse_all()
        else:
            pool = LocalPool(sw)
            if not a.report_only:
                pool.run()
            R = sw.analyse_all()
            if a.post_saturation and not a.report_only:
                pool.run_rows(sw.sat_plan(R))
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
    reports = Reports(sw)
    written = [sw.csv_path, reports.saturation(R)]
    if a.post_saturation:
        written.append(reports.post_saturation(R))
    plots = Plots(sw).write(R)
    print("sweep: %d point(s) run, %d taken from %s, %.0f s" % (sw.ran, sw.reused, sw.csv_path, sw.elapsed))
    with open(written[-1]) as f:
        print(f.read())
    print("sweep: wrote %s" % ", ".join(written + plots))
    if not plots:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
