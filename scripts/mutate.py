#!/usr/bin/env python3
"""Mutation campaign: does the verification catch a small break?

Each mutant is one operator of one line of the RTL or of the C model's
twins flipped (< and <=, == and !=, && and ||, 1'b0 and 1'b1, + 1 and + 2,
a dropped !, ...), in a copy of the repository's last commit.  A mutant is
caught by the first of, in order:

  1. the unit benches of the mutated module (tb/unit/unit.mk: every
     configuration of the module, every bench for spin_pkg.sv; seed 1,
     --unit-cycles cycles);
  2. its build failing (an RTL parameter check, the C compiler's -Werror);
  3. six co-simulation runs (make sim TOPO=mesh8x8, the live mode with
     SmPipe 2; the paper's router, SmPipe 0, 1 VC; SPIN with 3 VCs and
     occupancy admission;
     FAvORS-NMin with the injection window and SmPipe 1; 4-cycle links with
     early credits and a link failing; escape-VC routing with 3 VCs), any
     mismatch, failed run or hang;
  4. for a C file, the C model's own tests (make test-c).

A mutant none of them catches is MISSED.  Some mutants change nothing
(an equivalent mutant: the flip cannot be observed); the report cannot
tell them from real escapes, so each MISSED row needs a reader.

Usage: scripts/mutate.py [--seed N] [--count N] [--out DIR] [--unit-cycles N]
Writes DIR/report.md (default build/mutate) and prints each result as it
comes.  Exit status 0 when it ran (whatever it found), 2 on bad options,
1 when --fail-on-missed is given and a mutant was missed.
"""
import argparse
import glob
import os
import random
import re
import shutil
import signal
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The files mutated: every RTL module and the C model's datapath and SPIN
# twins, the router and the network.
FILES = ["rtl/spin_*.sv", "cmodel/spin_*.c", "cmodel/router.c", "cmodel/network.c",
         "cmodel/route_select.h", "cmodel/arbiter.h", "cmodel/lfsr.h"]

# (from, to): each flips one occurrence in the code part of a line.
OPS = [(" < ", " <= "), (" <= ", " < "), (" == ", " != "), (" != ", " == "),
       (" && ", " || "), (" || ", " && "), ("1'b1", "1'b0"), ("1'b0", "1'b1"),
       (" + 1", " + 2"), (" - 1", " - 2"), (" > ", " >= "), (" >= ", " > "), ("!", "")]

# Lines not mutated: checks and messages (a flipped check is a stricter or
# weaker test, not a break of the design: assertions, the RTL's parameter
# checks, lines with a string), declarations, preprocessor lines.
SKIP = ("assert", "$error", "$fatal", "$display", "gen_check", '"', "localparam", "parameter",
        "#include", "#define", "#if", "#endif", "else $")

# The co-simulation runs of stage 3 (binaries of the copy's build/).
COSIM_RUNS = [
    ["make", "-s", "sim", "TOPO=mesh8x8"],
    ["build/rtl/p5-v1/Vcosim", "--topo", "mesh4x4", "--routing", "favors_min", "--vcs", "1",
     "--rate", "0.3", "--cycles", "5000", "--spin", "1", "--mode", "paper"],
    ["build/rtl/p5-v3/Vcosim", "--topo", "mesh6x6", "--routing", "favors_min", "--vcs", "3",
     "--rate", "0.5", "--cycles", "3000", "--spin", "1", "--tdd", "32", "--admit-occ", "1"],
    ["build/rtl/p5-v1/Vcosim", "--topo", "mesh4x4", "--routing", "favors_nmin", "--vcs", "1",
     "--rate", "0.3", "--cycles", "3000", "--spin", "1", "--window", "2", "--sm-pipe", "1"],
    ["build/rtl/p5-v1/Vcosim", "--topo", "mesh4x4@4", "--routing", "favors_min", "--vcs", "1",
     "--rate", "0.3", "--cycles", "3000", "--spin", "1", "--early-credit", "1",
     "--faults", "1000@5:1"],
    ["build/rtl/p5-v3/Vcosim", "--topo", "mesh4x4", "--routing", "escape", "--vcs", "3",
     "--rate", "0.6", "--cycles", "3000"],
]


# Seconds a co-simulation run may take (each takes under a minute unbroken):
# a mutant that hangs a model is caught by this.
COSIM_TIMEOUT = 600


def code_lines(path):
    """(index, line) of the lines of PATH that hold code, outside comments
    and outside the RTL's `ifndef SYNTHESIS regions (its assertions)."""
    out, in_block, checks = [], False, 0
    with open(path) as f:
        for i, line in enumerate(f):
            s = line.strip()
            if s.startswith("`ifndef SYNTHESIS") or (checks and s.startswith("`if")):
                checks += 1
                continue
            if checks:
                checks -= s.startswith("`endif")
                continue
            if in_block:
                in_block = "*/" not in s
                continue
            if s.startswith("/*") and "*/" not in s:
                in_block = True
                continue
            if not s or s.startswith(("//", "/*", "*", "`")) or any(k in s for k in SKIP):
                continue
            # a nonblocking assignment's <= is not a comparison
            if path.endswith(".sv") and re.match(r"^\s*[\w.\[\]:+ ]+<=", line):
                continue
            out.append((i, line.rstrip("\n")))
    return out


def mutants(tree, seed, count):
    """COUNT mutants (file, line index, old line, new line), drawn with SEED."""
    cands = []
    for pat in FILES:
        for path in sorted(glob.glob(os.path.join(tree, pat))):
            rel = os.path.relpath(path, tree)
            for i, line in code_lines(path):
                code = line.split("//")[0]
                for a, b in OPS:
                    if code.count(a) != 1:
                        continue
                    if a == "!" and ("!=" in code or not re.search(r"!\s*[\w(]", code)):
                        continue
                    if a in (" + 1", " - 1") and re.search(re.escape(a) + r"[\d']", code):
                        continue   # a longer number, or a sized literal (1'b1)
                    cands.append((rel, i, line, code.replace(a, b, 1) + line[len(code):]))
    rng = random.Random(seed)
    rng.shuffle(cands)
    seen, out = set(), []
    for m in cands:
        if (m[0], m[1]) not in seen:
            seen.add((m[0], m[1]))
            out.append(m)
        if len(out) == count:
            break
    return out


def run(cmd, cwd, timeout=1800):
    """(exit status, output) of CMD in CWD; 124 on timeout.  CMD runs in a
    process group of its own, killed whole on timeout: a hung co-simulation
    is make's grandchild and would otherwise run on after the campaign."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return 124, "timed out after %d s" % timeout


def unit_configs(tree):
    """Every unit bench configuration's name (tb/unit/unit.mk)."""
    rc, out = run(["make", "-pn", "-f", "tb/unit/unit.mk", "unit-rtl-build"], tree)
    return sorted(set(re.findall(r"^build/unit/(\w+)/Vtest:", out, re.M)))


def first_line(text, pattern):
    for line in text.splitlines():
        if re.search(pattern, line):
            return line.strip()[:160]
    return text.strip().splitlines()[-1][:160] if text.strip() else ""


def caught_by(tree, rel, configs, unit_cycles):
    """What catches the mutant applied in TREE, or None."""
    mod = os.path.splitext(os.path.basename(rel))[0]
    mod = mod[len("spin_"):] if mod.startswith("spin_") else mod
    # benches named otherwise: spin_sm_in's holds spin_unit.c's input stage
    mod = {"arbiter": "rr_arbiter", "unit": "sm_in"}.get(mod, mod)
    # the package's functions and constants are in every module: every bench
    mine = configs if mod == "pkg" else [c for c in configs if c == mod or c.startswith(mod + "_")]
    for c in mine:
        rc, out = run(["make", "-s", "-j2", "build/unit/%s/Vtest" % c], tree)
        if rc != 0:
            return "build of unit bench %s: %s" % (c, first_line(out, r"[Ee]rror"))
        rc, out = run(["build/unit/%s/Vtest" % c, "+verilator+seed+1", "+verilator+rand+reset+2",
                       "+cycles+%d" % unit_cycles], tree, 600)
        if rc != 0:
            return "unit bench %s: %s" % (c, first_line(out, r"FAIL|failed|rror"))
    rc, out = run(["make", "-s", "build/rtl/p5-v1/Vcosim", "build/rtl/p5-v3/Vcosim",
                   "build/cmodel/spinsim"], tree)
    if rc != 0:
        return "build: %s" % first_line(out, r"[Ee]rror")
    for cmd in COSIM_RUNS:
        rc, out = run(cmd, tree, COSIM_TIMEOUT)
        if rc != 0:
            return "co-simulation `%s`: %s" % (" ".join(cmd[:4]), first_line(
                out, r"MISMATCH|mismatches [1-9]|FAILED|error|Assertion"))
    if rel.startswith("cmodel/"):
        rc, out = run(["make", "-s", "test-c"], tree)
        if rc != 0:
            return "make test-c: %s" % first_line(out, r"FAIL|rror")
    return None


def options(argv):
    ap = argparse.ArgumentParser(description="Mutation campaign (docs/usage.md, make mutate).")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--count", default="20")
    ap.add_argument("--unit-cycles", default="200000")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "mutate"))
    ap.add_argument("--fail-on-missed", action="store_true")
    a = ap.parse_args(argv)
    for name, lo, hi in (("seed", 0, 2 ** 32 - 1), ("count", 1, 10000), ("unit_cycles", 1, 10 ** 9)):
        v = getattr(a, name)
        if not re.fullmatch(r"\d{1,10}", str(v)) or not lo <= int(v) <= hi:
            ap.error("--%s=%r: expected an integer from %d to %d" % (name.replace("_", "-"), v, lo, hi))
        setattr(a, name, int(v))
    return a


def main(argv):
    a = options(argv)
    tree = os.path.join(a.out, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(a.out, exist_ok=True)
    rc, out = run(["git", "clone", "-q", ROOT, tree], a.out)
    if rc != 0:
        sys.exit("mutate: git clone of %s failed: %s" % (ROOT, out.strip()))
    head = run(["git", "rev-parse", "--short", "HEAD"], tree)[1].strip()
    configs = unit_configs(tree)
    ms = mutants(tree, a.seed, a.count)
    rows, missed = [], 0
    print("mutate: %d mutants of commit %s (seed %d) in %s" % (len(ms), head, a.seed, tree), flush=True)
    for k, (rel, i, old, new) in enumerate(ms, 1):
        run(["git", "checkout", "-q", "--", "."], tree)
        path = os.path.join(tree, rel)
        with open(path) as f:
            lines = f.read().split("\n")
        lines[i] = new
        with open(path, "w") as f:
            f.write("\n".join(lines))
        how = caught_by(tree, rel, configs, a.unit_cycles)
        missed += how is None
        rows.append((k, "%s:%d" % (rel, i + 1), old.strip(), new.strip(), how or "**MISSED**"))
        print("mutate: %d/%d %s:%d %s" % (k, len(ms), rel, i + 1, how or "MISSED"), flush=True)
    run(["git", "checkout", "-q", "--", "."], tree)
    md = ["# Mutation campaign (scripts/mutate.py)", "",
          "Commit %s, seed %d, %d mutants, unit benches at %d cycles: %d caught, %d missed. "
          "A missed mutant may be equivalent (no behaviour changes); each needs a reader."
          % (head, a.seed, len(ms), a.unit_cycles, len(ms) - missed, missed), "",
          "| # | where | line | mutant | caught by |", "|---|---|---|---|---|"]
    esc = lambda s: s.replace("|", "\\|")
    md += ["| %d | %s | `%s` | `%s` | %s |" % (k, w, esc(o), esc(n), esc(h)) for k, w, o, n, h in rows]
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("mutate: %d of %d caught; %s" % (len(ms) - missed, len(ms), os.path.join(a.out, "report.md")))
    return 1 if a.fail_on_missed and missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
