#!/usr/bin/python3
"""Performance per area and per power of each router configuration (the SPIN
paper's Sec. VI table), from the C model's saturation throughput and the cell
library's area, clock and power.

Inputs:
  build/sweep/points.csv    the latency sweep of scripts/sweep.py (`make sweep`)
  build/synth/summary.csv   the synthesis summary (`make synth`): the rows
                            router,<config>,,area_um2 / clock_ps / power_mw

For each traffic pattern and configuration:
  sat       the saturation rate of the series (sweep.py's rule: the first
            offered rate whose average latency exceeds 3x the zero-load
            latency, or that does not drain)
  thr       saturation throughput, flits/node/cycle: the highest accepted
            throughput of the series' points at offered rates up to and
            including sat (all points when the series never saturates)
  thr_ns    thr at the clock the configuration reaches: thr / clock_ns,
            flits/node/ns
  per_mm2   thr_ns / area in mm^2
  per_mw    thr_ns / power in mW (the power of synth/synth.mk's activity run,
            at the configuration's own clock)
  peak      the highest accepted throughput of any point of the series
            (past saturation too, drained or not: what the network carries
            when pushed), and peak_ns, peak_per_mm2, peak_per_mw from it
and each divided by west-first 1 VC's on the same pattern (*_norm).

Outputs in OUT (build/ppa): ppa.csv, ppa.md (the tables and the issue's
goals, met or not), ppa.png (the normalised figures, one panel each).
Standard library plus matplotlib (Debian's python3-matplotlib); run with
/usr/bin/python3.  `make ppa` runs it (scripts/eval.mk).  A missing input, a
configuration without its synthesis rows or a series without its sweep
points stops it with exit status 2 and a message naming the file and what
is missing.
"""

import argparse
import csv
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sweep  # noqa: E402  (the saturation rule and the rate grid)

# (sweep id, synth configuration, label), in the order of the tables.  The
# sweep's fmin_*_spin are the synthesis rows favors_1vc_spin / minad_*_spin
# (routing is route-table content; the router logic is NumVcs and Spin).
CONFIGS = [
    ("wf_1vc", "wf_1vc", "west-first, 1 VC"),
    ("wf_2vc", "wf_2vc", "west-first, 2 VCs"),
    ("wf_3vc", "wf_3vc", "west-first, 3 VCs"),
    ("esc_2vc", "esc_2vc", "escape VC, 2 VCs"),
    ("esc_3vc", "esc_3vc", "escape VC, 3 VCs"),
    ("fmin_1vc_spin", "favors_1vc_spin", "FAvORS-Min + SPIN, 1 VC"),
    ("nmin_1vc_spin", "nmin_1vc_spin", "FAvORS-NMin + SPIN, 1 VC"),
    ("fmin_2vc_spin", "minad_2vc_spin", "minimal adaptive + SPIN, 2 VCs"),
    ("fmin_3vc_spin", "minad_3vc_spin", "minimal adaptive + SPIN, 3 VCs"),
]
SYNTH_OF = {c[0]: c[1] for c in CONFIGS}
# The sweep's modes with early credits (contract 5: live, early and the
# windows with them) read the synthesis rows built with them (synth/configs.mk,
# SYNTH_EARLY=1): NAME_ec; local, paper and window the rows NAME.
SYNTH_SUFFIX = {"live": "_ec", "early": "_ec", "window_early": "_ec", "window4_early": "_ec"}


def synth_names(mode):
    """{sweep config: synthesis row} for the points of the sweep's mode."""
    return {c: s + SYNTH_SUFFIX.get(mode, "") for c, s, _ in CONFIGS}
LABEL = {c[0]: c[2] for c in CONFIGS}
BASE = "wf_1vc"
TRAFFICS = ["uniform_random", "transpose", "tornado", "bit_reverse", "bit_rotation", "shuffle",
            "neighbor"]
METRICS = ["area_um2", "clock_ps", "power_mw"]

# The goals (issue 30): FAvORS-Min + SPIN 1 VC against escape VC 2 VCs.
GOAL_PATTERNS = {"transpose": 1.0, "tornado": 1.0, "bit_reverse": 1.0, "bit_rotation": 1.0,
                 "uniform_random": 0.9}
GOAL_SMALLER = [("wf_3vc", 45.0), ("wf_2vc", 30.0)]

# The figures of a row, each also divided by west-first 1 VC's (_norm).
FIGS = ["thr", "thr_ns", "per_mm2", "per_mw", "peak", "peak_ns", "peak_per_mm2", "peak_per_mw"]
FIELDS = ["traffic", "config", "synth_config", "vcs", "sat_rate", "sat_status",
          "clock_ps", "area_um2", "power_mw"] + FIGS + [k + "_norm" for k in FIGS]


class Fail(Exception):
    """Bad or missing input: exit status 2."""


def read_csv(path, what, skip_comment=False):
    if not os.path.isfile(path):
        raise Fail("%s: no such file (%s)" % (path, what))
    with open(path, newline="") as f:
        lines = [ln for ln in f if not (skip_comment and ln.startswith("#"))]
    return list(csv.DictReader(lines))


def synth_figures(path, configs, synth_of=SYNTH_OF):
    """{synth config: {metric: float}} from summary.csv, for the synthesis rows of CONFIGS."""
    rows = read_csv(path, "run `make synth` first", skip_comment=True)
    if rows and not {"section", "config", "metric", "value"} <= set(rows[0]):
        raise Fail("%s: not a synthesis summary (expected the columns section,config,item,metric,value)"
                   % path)
    got = {}
    for r in rows:
        if r["section"] == "router" and r.get("item", "") == "" and r["metric"] in METRICS:
            got.setdefault(r["config"], {})[r["metric"]] = r["value"]
    out = {}
    for c in configs:
        s = synth_of[c]
        for m in METRICS:
            v = got.get(s, {}).get(m)
            if v is None:
                raise Fail("%s: no row router,%s,,%s (configuration %s; `make synth CONFIG=%s`)"
                           % (path, s, m, c, s))
            try:
                x = float(v)
            except ValueError:
                x = -1.0
            if not x > 0:
                raise Fail("%s: router,%s,,%s is %r, not a positive number" % (path, s, m, v))
            out.setdefault(s, {})[m] = x
    return out


def saturation(path, configs, traffics, mode, cycles, rates):
    """{(config, traffic): analyse_rows result plus thr} from the sweep's points."""
    rows = read_csv(path, "run `make sweep` first")
    if rows and "throughput" not in rows[0]:
        raise Fail("%s: not a sweep's points.csv (no throughput column)" % path)
    out = {}
    for c in configs:
        for t in traffics:
            pts = [r for r in rows if r["config"] == c and r["traffic"] == t and r["mode"] == mode
                   and r["cycles"] == str(cycles)]
            if not pts:
                raise Fail("%s: no points of %s, %s, mode %s, %d cycles (`make sweep SWEEP_MODES=%s "
                           "SWEEP_CONFIGS=%s SWEEP_TRAFFIC=%s SWEEP_CYCLES=%d`)"
                           % (path, c, t, mode, cycles, mode, c, t, cycles))
            shas = sorted({r["spinsim_sha256"] for r in pts})
            if len(shas) > 1:
                raise Fail("%s: the points of %s, %s, mode %s come from %d spinsim binaries (%s); "
                           "sweep again into an empty directory" % (path, c, t, mode, len(shas),
                                                                   ", ".join(shas)))
            by_rate = {}
            for r in pts:
                by_rate[sweep.fmt_rate(float(r["rate"]))] = r
            series = []
            for x in rates:
                r = by_rate.get(sweep.fmt_rate(x))
                if r is None:
                    break
                series.append(r)
                if sweep.analyse_rows(series, rates)["complete"]:
                    break
            res = sweep.analyse_rows(series, rates)
            if not res["complete"]:
                nxt = rates[len(series)] if len(series) < len(rates) else None
                raise Fail("%s: the series %s, %s, mode %s is incomplete (no point at rate %s); "
                           "run `make sweep` to finish it" % (path, c, t, mode,
                                                             sweep.fmt_rate(nxt) if nxt else "-"))
            if res["error"] is not None:
                raise Fail("%s: the series %s, %s, mode %s ends in a model error at rate %s (%s)"
                           % (path, c, t, mode, res["error"]["rate"], res["error"]["fail_reason"]))
            lim = res["sat"] if res["sat"] is not None else float("inf")
            thr = [float(r["throughput"]) for r in series
                   if float(r["rate"]) <= lim + 1e-9 and r["throughput"] != ""]
            if not thr:
                raise Fail("%s: %s, %s, mode %s: no accepted throughput up to saturation" % (path, c, t, mode))
            res["thr"] = max(thr)
            res["peak"] = max(thr + [float(r["throughput"]) for r in series if r["throughput"] != ""])
            out[(c, t)] = res
    return out


def table(sat, synth, configs, traffics, synth_of=SYNTH_OF):
    """The rows of ppa.csv (dicts of numbers and names)."""
    rows = []
    for t in traffics:
        base = None
        for c in [BASE] + [x for x in configs if x != BASE]:
            s = synth_of[c]
            f = synth[s]
            res = sat[(c, t)]
            clock_ns = f["clock_ps"] / 1000.0
            thr = res["thr"]
            thr_ns = thr / clock_ns
            peak_ns = res["peak"] / clock_ns
            row = {"traffic": t, "config": c, "synth_config": s,
                   "vcs": int(c.split("_")[1][0]),
                   "sat_rate": res["sat"],
                   "sat_status": ("none" if res["sat"] is None else res["sat_row"]["status"]),
                   "thr": thr, "clock_ps": f["clock_ps"], "area_um2": f["area_um2"],
                   "power_mw": f["power_mw"], "thr_ns": thr_ns,
                   "per_mm2": thr_ns / (f["area_um2"] / 1e6), "per_mw": thr_ns / f["power_mw"],
                   "peak": res["peak"], "peak_ns": peak_ns,
                   "peak_per_mm2": peak_ns / (f["area_um2"] / 1e6), "peak_per_mw": peak_ns / f["power_mw"]}
            if base is None:
                base = row
            for k in FIGS:
                row[k + "_norm"] = row[k] / base[k]
            rows.append(row)
    order = {c: i for i, c in enumerate(configs)}
    rows.sort(key=lambda r: (traffics.index(r["traffic"]), order[r["config"]]))
    return rows


def goals(rows, synth, configs, synth_of=SYNTH_OF):
    """The issue's goals as measured: a list of (goal, measured, met: True/False/None)."""
    out = []
    by = {(r["traffic"], r["config"]): r for r in rows}
    for key, name in (("per_mm2", "per mm^2"), ("per_mw", "per mW"),
                      ("peak_per_mm2", "per mm^2 at the peak"), ("peak_per_mw", "per mW at the peak")):
        for t, need in GOAL_PATTERNS.items():
            f, e = by.get((t, "fmin_1vc_spin")), by.get((t, "esc_2vc"))
            goal = "%s: FAvORS-Min + SPIN 1 VC >= %.1fx escape VC 2 VCs, %s" % (t, need, name)
            if f is None or e is None:
                out.append((goal, "not measured", None))
                continue
            ratio = f[key] / e[key]
            out.append((goal, "%.2fx (%.4g vs %.4g)" % (ratio, f[key], e[key]), ratio >= need - 1e-12))
    a1 = synth.get(synth_of["fmin_1vc_spin"], {}).get("area_um2") if "fmin_1vc_spin" in configs else None
    for other, need in GOAL_SMALLER:
        goal = "FAvORS-Min + SPIN 1 VC router >= %.0f%% smaller than %s" % (need, LABEL[other])
        ao = synth.get(synth_of[other], {}).get("area_um2") if other in configs else None
        if a1 is None or ao is None:
            out.append((goal, "not measured", None))
            continue
        smaller = 100.0 * (1 - a1 / ao)
        out.append((goal, "%.1f%% (%.0f vs %.0f um^2)" % (smaller, a1, ao), smaller >= need - 1e-12))
    return out


def fmt(x, nd=3):
    return "%.*f" % (nd, x)


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        f.write("# GENERATED by scripts/ppa.py from the sweep's points.csv and build/synth/summary.csv;"
                " do not edit, never commit.\n")
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for r in rows:
            d = dict(r)
            d["sat_rate"] = "" if r["sat_rate"] is None else sweep.fmt_rate(r["sat_rate"])
            for k in FIGS + [x + "_norm" for x in FIGS]:
                d[k] = "%.6g" % r[k]
            for k in ("clock_ps", "area_um2", "power_mw"):
                d[k] = "%g" % r[k]
            w.writerow(d)


def write_md(path, rows, synth, configs, traffics, gl, a, synth_of=SYNTH_OF):
    L = ["<!-- GENERATED by scripts/ppa.py; do not edit, never commit. -->",
         "# Performance per area and per power, mesh8x8 (C model saturation, cell library)", "",
         "Written by `scripts/ppa.py` on %s UTC from `%s` (mode %s, %d-cycle points) and `%s`."
         % (time.strftime("%Y-%m-%d %H:%M", time.gmtime()), a.points, a.mode, a.cycles, a.synth), "",
         "- thr: saturation throughput, flits/node/cycle: the highest accepted throughput at offered "
         "rates up to the saturation rate (sweep.py's rule; `(nd)`: the saturation point did not drain).",
         "- thr/ns: thr / clock period (ns), flits/node/ns; /mm^2: that per mm^2 of router area; "
         "/mW: that per mW of the router's power (its activity run, at its own clock).",
         "- peak: the highest accepted throughput of any point of the series (past saturation "
         "too); peak/mm^2 and peak/mW as above, from it.",
         "- `x`: divided by west-first 1 VC's on the same pattern.", "",
         "## Area, clock and power (build/synth/summary.csv)", "",
         "| configuration | synthesis row | area (um^2) | clock (ps) | power (mW) |",
         "|---|---|---|---|---|"]
    for c in configs:
        f = synth[synth_of[c]]
        L.append("| %s | `%s` | %.0f | %.0f | %.2f |" % (LABEL[c], synth_of[c], f["area_um2"],
                                                       f["clock_ps"], f["power_mw"]))
    L.append("")
    for t in traffics:
        L += ["## %s" % t, "",
              "| configuration | sat. rate | thr | x | thr/ns | x | /mm^2 | x | /mW | x "
              "| peak | peak/mm^2 | x | peak/mW | x |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            if r["traffic"] != t:
                continue
            sr = ("> %s" % sweep.fmt_rate(a.rates[-1]) if r["sat_rate"] is None else
                  sweep.fmt_rate(r["sat_rate"]) + (" (nd)" if r["sat_status"] != "drained" else ""))
            L.append("| %s | %s | %s | %.2f | %s | %.2f | %.3f | %.2f | %.4f | %.2f | %s | %.3f | %.2f "
                     "| %.4f | %.2f |" % (
                         LABEL[r["config"]], sr, fmt(r["thr"]), r["thr_norm"], fmt(r["thr_ns"], 4),
                         r["thr_ns_norm"], r["per_mm2"], r["per_mm2_norm"], r["per_mw"], r["per_mw_norm"],
                         fmt(r["peak"]), r["peak_per_mm2"], r["peak_per_mm2_norm"], r["peak_per_mw"],
                         r["peak_per_mw_norm"]))
        L.append("")
    L += ["## The issue's goals", "", "| goal | measured | met |", "|---|---|---|"]
    for g, m, ok in gl:
        L.append("| %s | %s | %s |" % (g, m, {None: "-", True: "yes", False: "**no**"}[ok]))
    L.append("")
    with open(path, "w") as f:
        f.write("\n".join(L))


def plot(path, rows, configs, traffics):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    panels = [("thr_norm", "saturation throughput"), ("thr_ns_norm", "saturation throughput at the clock"),
              ("per_mm2_norm", "saturation throughput at the clock per mm^2"),
              ("per_mw_norm", "saturation throughput at the clock per mW")]
    fig, axes = plt.subplots(len(panels), 1, figsize=(12, 3.2 * len(panels)), sharex=True)
    by = {(r["traffic"], r["config"]): r for r in rows}
    w = 0.85 / len(configs)
    for ax, (key, title) in zip(axes, panels):
        for j, c in enumerate(configs):
            xs = [i - 0.425 + (j + 0.5) * w for i in range(len(traffics))]
            ax.bar(xs, [by[(t, c)][key] for t in traffics], width=w, color="C%d" % (j % 10),
                   label=LABEL[c])
        ax.axhline(1.0, color="k", linewidth=0.6, linestyle=":")
        ax.set_ylabel("x west-first 1 VC")
        ax.set_title(title, fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
    axes[-1].set_xticks(range(len(traffics)))
    axes[-1].set_xticklabels(traffics)
    axes[0].legend(fontsize=7, ncol=3, loc="upper left")
    fig.suptitle("mesh8x8, C model saturation throughput; cell-library area, clock and power "
                 "(normalised to west-first 1 VC)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def options(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--points", default="build/sweep/points.csv", help="the sweep's points.csv")
    ap.add_argument("--synth", default="build/synth/summary.csv", help="the synthesis summary.csv")
    ap.add_argument("--out", default="build/ppa", help="output directory (build/ppa)")
    ap.add_argument("--mode", default="live", choices=sweep.MODES,
                    help="router mode of the points (live); live and early read the synthesis rows "
                         "NAME_ec, local the rows NAME")
    ap.add_argument("--cycles", default="20000", help="injection cycles of the points (20000)")
    ap.add_argument("--rates", default=sweep.DEFAULT_RATES, help="the sweep's rate grid (%s)"
                    % sweep.DEFAULT_RATES)
    ap.add_argument("--configs", default=",".join(c[0] for c in CONFIGS),
                    help="configurations, comma separated (all; %s among them)" % BASE)
    ap.add_argument("--traffic", default=",".join(TRAFFICS), help="patterns, comma separated")
    ap.add_argument("--no-plot", action="store_true", help="skip ppa.png")
    a = ap.parse_args(argv)
    try:
        a.cycles = sweep.pos_int(a.cycles, "--cycles", 10)
        a.rates = sweep.parse_rates(a.rates)
        a.configs = sweep.name_list(a.configs, "--configs", [c[0] for c in CONFIGS])
        a.traffic = sweep.name_list(a.traffic, "--traffic", sweep.TRAFFICS + sweep.OTHER_TRAFFICS)
    except sweep.BadInput as e:
        raise Fail(str(e))
    if BASE not in a.configs:
        raise Fail("--configs: %s (the base of the normalisation) must be among them" % BASE)
    if not a.traffic:
        raise Fail("--traffic: no pattern given")
    return a


def main(argv=None):
    try:
        a = options(argv)
        synth_of = synth_names(a.mode)
        synth = synth_figures(a.synth, a.configs, synth_of)
        sat = saturation(a.points, a.configs, a.traffic, a.mode, a.cycles, a.rates)
    except Fail as e:
        print("ppa: %s" % e, file=sys.stderr)
        return 2
    rows = table(sat, synth, a.configs, a.traffic, synth_of)
    gl = goals(rows, synth, a.configs, synth_of)
    os.makedirs(a.out, exist_ok=True)
    written = [os.path.join(a.out, "ppa.csv"), os.path.join(a.out, "ppa.md")]
    write_csv(written[0], rows)
    write_md(written[1], rows, synth, a.configs, a.traffic, gl, a, synth_of)
    if not a.no_plot:
        written.append(os.path.join(a.out, "ppa.png"))
        plot(written[-1], rows, a.configs, a.traffic)
    with open(written[1]) as f:
        print(f.read())
    print("ppa: wrote %s" % ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
