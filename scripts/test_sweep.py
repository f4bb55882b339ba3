#!/usr/bin/python3
"""Checks of scripts/sweep.py that run no simulation (make sweep-check, in make test):
the saturation rule and where a series stops, the post-saturation rates and
table cells, the rate grid, the refusal of bad knobs (sweep.py and make), and
that scripts/eval.mk knows the names sweep.py knows.  About a second.

Run from the repository root: /usr/bin/python3 scripts/test_sweep.py
"""

import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import sweep  # noqa: E402

RATES = [0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.14, 0.16, 0.18, 0.20, 0.22, 0.24]


def point(rate, status="drained", lat=20.0, thr=None, seed=1, node_min=None, jain=None,
          created=1000, delivered=None):
    thr = rate if thr is None else thr
    return {"rate": sweep.fmt_rate(rate), "status": status, "avg_latency": "" if lat is None else str(lat),
            "throughput": str(thr), "seed": str(seed),
            "node_throughput_min": "" if node_min is None else str(node_min),
            "jain_index": "" if jain is None else str(jain),
            "packets_created": str(created),
            "packets_delivered": str(created if delivered is None else delivered)}


class SaturationRule(unittest.TestCase):
    def test_latency_over_3x_zero_load(self):
        rows = [point(0.02, lat=20), point(0.04, lat=25), point(0.06, lat=60),   # 60 = 3x: not yet
                point(0.08, lat=60.5, thr=0.079)]
        r = sweep.analyse_rows(rows, RATES)
        self.assertEqual(r["zero"], 20)
        self.assertEqual(r["sat"], 0.08)
        self.assertAlmostEqual(r["peak"], 0.079)
        self.assertFalse(r["complete"])        # runs on to 3 x 0.08 = 0.24

    def test_not_drained_saturates_and_series_runs_to_3x(self):
        rows = [point(0.02), point(0.04), point(0.06, status="not_drained", lat=30, thr=0.05)]
        r = sweep.analyse_rows(rows, RATES)
        self.assertEqual(r["sat"], 0.06)
        self.assertFalse(r["complete"])
        rows += [point(x, status="not_drained", lat=900, thr=0.055) for x in (0.08, 0.10, 0.12, 0.14, 0.16)]
        self.assertFalse(sweep.analyse_rows(rows, RATES)["complete"])     # 0.16 < 0.18
        rows.append(point(0.18, status="not_drained", lat=900, thr=0.057))
        r = sweep.analyse_rows(rows, RATES)
        self.assertTrue(r["complete"])                                     # 0.18 = 3 x 0.06
        self.assertAlmostEqual(r["peak"], 0.057)    # the peak counts points that did not drain

    def test_no_zero_load_point(self):
        r = sweep.analyse_rows([point(0.02, status="not_drained", lat=None, thr=0.001)], RATES)
        self.assertEqual(r["sat"], 0.02)
        self.assertIsNone(r["zero"])

    def test_model_error_ends_the_series(self):
        rows = [point(0.02), point(0.04, status="error", lat=None)]
        r = sweep.analyse_rows(rows, RATES)
        self.assertTrue(r["complete"])
        self.assertIs(r["error"], rows[1])
        self.assertIsNone(r["sat"])

    def test_grid_end_without_saturation(self):
        rows = [point(x) for x in RATES]
        r = sweep.analyse_rows(rows, RATES)
        self.assertIsNone(r["sat"])
        self.assertTrue(r["complete"])
        self.assertFalse(sweep.analyse_rows(rows[:-1], RATES)["complete"])


class Rates(unittest.TestCase):
    def test_post_saturation_rates_capped(self):
        self.assertEqual(sweep.sat_rates(0.12), [0.12, 0.24, 0.36])
        self.assertEqual(sweep.sat_rates(0.4), [0.4, 0.8, 1.0])
        self.assertEqual(sweep.sat_rates(0.6), [0.6, 1.0, 1.0])

    def test_default_grid(self):
        g = sweep.parse_rates(sweep.DEFAULT_RATES)
        self.assertEqual(g[0], 0.02)
        self.assertEqual(g[-1], 1.0)
        self.assertIn(0.5, g)
        self.assertIn(0.55, g)
        self.assertTrue(all(b > a for a, b in zip(g, g[1:])))
        # every saturation rate of the grid up to 1/3 has a point at or past 3x
        for s in g:
            if s <= 1 / 3:
                self.assertTrue(any(abs(x - round(3 * s, 4)) < 1e-9 or x > 3 * s for x in g), s)

    def test_bad_grids(self):
        for spec in ("0.1:0.05:0.01", "a:b:c", "0:0.5:0.1", "0.1:0.5:0", "0.5,0.4", "0.2:1.2:0.5", ""):
            with self.assertRaises(sweep.BadInput, msg=spec):
                sweep.parse_rates(spec)


class PostSaturationTable(unittest.TestCase):
    def runs(self, rate, thrs, **kw):
        return [point(rate, thr=t, seed=i + 1, **kw) for i, t in enumerate(thrs)]

    def test_goal_met(self):
        per = [self.runs(0.12, [0.115, 0.116, 0.117]),
               self.runs(0.24, [0.120, 0.125, 0.127], node_min=0.06, jain=0.8),
               self.runs(0.36, [0.126, 0.127, 0.128])]
        cells, goal = sweep.post_sat_row(0.12, 0.13, per, 3)
        head = sweep.POST_SAT_HEADER[2:]
        c = dict(zip(head, cells))
        self.assertEqual(c["saturation (2x, 3x)"], "0.12 (0.24, 0.36)")
        self.assertEqual(c["peak"], "0.130")
        self.assertEqual(c["accepted at 1x"], "0.116 (0.115..0.117)")
        self.assertEqual(c["at 2x"], "0.124 (0.120..0.127)")
        self.assertEqual(c["2x / peak"], "95%")
        self.assertEqual(c["3x / peak"], "98%")
        self.assertEqual(c[">= 90%"], "yes")
        self.assertEqual(c["min node at 2x (/ mean)"], "0.060 (0.48x)")
        self.assertEqual(c["Jain at 2x"], "0.80")
        self.assertEqual(c["drained"], "all 9")
        self.assertEqual(goal, {"ratio": True, "drained": True})

    def test_collapse_and_not_drained(self):
        per = [self.runs(0.12, [0.003, 0.004, 0.002]),
               self.runs(0.24, [0.002, 0.002, 0.001], status="not_drained", node_min=0.0, jain=0.4,
                         delivered=100),
               self.runs(0.36, [0.003, 0.002, 0.002], status="not_drained", delivered=50)]
        cells, goal = sweep.post_sat_row(0.12, 0.08, per, 3)
        c = dict(zip(sweep.POST_SAT_HEADER[2:], cells))
        self.assertEqual(c["peak"], "0.080")        # the sweep's peak, above the runs' means
        self.assertEqual(c[">= 90%"], "**no**")
        self.assertEqual(c["drained"], "3 of 9 (least delivered 5.0%)")
        self.assertEqual(goal, {"ratio": False, "drained": False})

    def test_peak_from_the_runs(self):
        per = [self.runs(0.1, [0.1] * 3), self.runs(0.2, [0.2] * 3), self.runs(0.3, [0.18] * 3)]
        cells, goal = sweep.post_sat_row(0.1, 0.15, per, 3)
        c = dict(zip(sweep.POST_SAT_HEADER[2:], cells))
        self.assertEqual(c["peak"], "0.200")
        self.assertEqual(c["3x / peak"], "90%")
        self.assertTrue(goal["ratio"])

    def test_missing_seeds_and_errors_leave_the_goal_open(self):
        per = [self.runs(0.1, [0.1] * 3), self.runs(0.2, [0.1, 0.1]), self.runs(0.3, [0.1] * 3)]
        cells, goal = sweep.post_sat_row(0.1, 0.1, per, 3)
        c = dict(zip(sweep.POST_SAT_HEADER[2:], cells))
        self.assertIn("[2 of 3 seeds]", c["at 2x"])
        self.assertIsNone(goal["ratio"])
        per[1].append(point(0.2, status="error", lat=None, thr="", seed=3))
        cells, goal = sweep.post_sat_row(0.1, 0.1, per, 3)
        c = dict(zip(sweep.POST_SAT_HEADER[2:], cells))
        self.assertIn("[1 model error(s)]", c["at 2x"])
        self.assertIsNone(goal["ratio"])


class Knobs(unittest.TestCase):
    def env(self, **kw):
        e = {k: v for k, v in os.environ.items() if not k.startswith("SWEEP_")}
        e.update(kw)
        return e

    def test_sweep_py_refuses_bad_values(self):
        for var, val in (("SWEEP_SAT_CYCLES", "1e6"), ("SWEEP_SAT_SEEDS", "1 x"), ("SWEEP_SAT_DRAIN", "0"),
                         ("SWEEP_MODES", "fast"), ("SWEEP_CONFIGS", "xy_2vc"), ("SWEEP_TRAFFIC", "hotspot"),
                         ("SWEEP_QUICK", "yes"), ("SWEEP_JOBS", "-1"), ("SWEEP_CYCLES", "5")):
            p = subprocess.run([sys.executable, os.path.join(HERE, "sweep.py"), "--spinsim", "/nonexistent"],
                               env=self.env(**{var: val}), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT)
            self.assertEqual(p.returncode, 2, (var, val, p.stderr))
            self.assertIn(var, p.stderr)

    def test_options_defaults(self):
        old = dict(os.environ)
        try:
            for k in [k for k in os.environ if k.startswith("SWEEP_")]:
                del os.environ[k]
            a = sweep.options([])
            self.assertEqual(a.sat_cycles, 1000000)
            self.assertEqual(a.sat_drain, 3000000)
            self.assertEqual(a.sat_seeds, [1, 2, 3])
            self.assertEqual(a.modes, ["live", "paper"])
            self.assertEqual(a.traffic, sweep.TRAFFICS)
            self.assertEqual(a.drain_limit, a.cycles)
            self.assertEqual(a.tdd, "auto")
            a = sweep.options(["--sat-cycles", "1000", "--sat-seeds", "3,1", "--modes", "paper"])
            self.assertEqual((a.sat_drain, a.sat_seeds, a.modes), (3000, [1, 3], ["paper"]))
            self.assertEqual(sweep.options(["--tdd", "64"]).tdd, 64)
            self.assertEqual(sweep.options(["--tdd", "cover"]).tdd, "cover")
            for bad in ("1", "autox", "6 4", "auto;ls", "-5", "32769"):
                with self.assertRaises(sweep.BadInput, msg=bad):
                    sweep.options(["--tdd", bad])
        finally:
            os.environ.clear()
            os.environ.update(old)

    def test_eval_mk_names_agree(self):
        with open(os.path.join(HERE, "eval.mk")) as f:
            mk = f.read()

        def names(var):
            m = re.search(r"^%s\s*:=\s*(.*)$" % var, mk, re.M)
            self.assertIsNotNone(m, var)
            return m.group(1).split()
        self.assertEqual(names("SWEEP_TRAFFIC_NAMES"), sweep.TRAFFICS + sweep.OTHER_TRAFFICS)
        self.assertEqual(names("SWEEP_CONFIG_NAMES"), [c[0] for c in sweep.CONFIGS])
        self.assertEqual(names("SWEEP_MODE_NAMES"), sweep.MODES)

    def test_every_config_has_a_plot_style(self):
        self.assertEqual(sorted(sweep.Plots.STYLE), sorted(c[0] for c in sweep.CONFIGS))

    def test_make_refuses_bad_values(self):
        for var, val in (("SWEEP_SAT_CYCLES", "abc"), ("SWEEP_SAT_SEEDS", "1,0"), ("SWEEP_MODES", "live,x"),
                         ("SWEEP_SAT_DRAIN", "-5"), ("SWEEP_CONFIGS", "bogus")):
            p = subprocess.run(["make", "-n", "--no-print-directory", "sweep-sat", "%s=%s" % (var, val)],
                               env=self.env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=ROOT)
            self.assertEqual(p.returncode, 2, (var, val))
            self.assertIn(var + "=", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
