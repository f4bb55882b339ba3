#!/usr/bin/env python3
"""Power-up self-check: two VSEEDs start a co-simulation differently.

The co-simulation powers up the registers that reset does not clear with
random values (Verilator reset mode 2, seeded by +verilator+seed+N; see
tb/cosim.cpp).  This check runs a short co-simulation three times with a
waveform (--waves): VSEED A, VSEED B, and VSEED A again.  It converts each
FST to VCD with fst2vcd (Debian's gtkwave package) and reads the values at
time 0 (the $dumpvars block, before the first clock edge and before reset
has acted).  It passes when
  - every run exits 0 (the run itself passed),
  - A and B differ in at least one signal and many bits,
  - A and A again are identical (the seed, nothing else, sets them),
  - neither A nor B is all zero: of the bits where they differ, each run
    holds at least a quarter at 1 (random values hold half).

Used by the regression (test_powerup in test_regress.py) for the router
array and the network top, and by `make synth-cosim` for the netlist:

  python3 tb/regress/powerup.py --out DIR -- BINARY ARGS...
"""

import argparse
import os
import subprocess
import sys

# Fewer differing bits than this means the power-up values are not random:
# one FIFO slot of one VC of one router alone holds a 128-bit flit.
MIN_DIFF_BITS = 128


def time0_values(vcd_text):
    """{signal name: value at time 0} from a VCD's $dumpvars block.

    Signals that share an identifier code (aliases) keep the first name."""
    names = {}
    values = {}
    lines = iter(vcd_text.splitlines())
    scope = []
    for line in lines:
        tok = line.split()
        if not tok:
            continue
        if tok[0] == "$scope":
            scope.append(tok[2])
        elif tok[0] == "$upscope":
            scope.pop()
        elif tok[0] == "$var":
            # $var wire 8 ! name [7:0] $end
            code, name = tok[3], tok[4]
            names.setdefault(code, ".".join(scope + [name]))
        elif tok[0] == "$dumpvars":
            break
    else:
        raise ValueError("no $dumpvars block")
    for line in lines:
        s = line.strip()
        if not s:
            continue
        if s.startswith("$end"):
            break
        if s[0] in "bBrR":
            val, code = s[1:].split()
        else:
            val, code = s[0], s[1:]
        if code in names:
            values[names[code]] = val.lower()
    if not values:
        raise ValueError("empty $dumpvars block")
    return values


def ones(values):
    return sum(v.count("1") for v in values.values())


def bits(values):
    return sum(len(v) for v in values.values())


def ones_in(values, names):
    return sum(values.get(n, "").count("1") for n in names)


def diff(a, b):
    """(signals that differ, bits that differ) between two value maps."""
    sigs, nbits = [], 0
    for name in sorted(set(a) | set(b)):
        va, vb = a.get(name, ""), b.get(name, "")
        if va != vb:
            sigs.append(name)
            w = max(len(va), len(vb))
            va, vb = va.rjust(w, "0"), vb.rjust(w, "0")
            nbits += sum(x != y for x, y in zip(va, vb))
    return sigs, nbits


def run_once(binary, args, vseed, fst, log, timeout=600):
    """Runs the co-simulation with a waveform; returns (exit status, values)."""
    cmd = [binary] + list(args) + ["--waves", fst, f"+verilator+seed+{vseed}"]
    with open(log, "w") as f:
        f.write(" ".join(cmd) + "\n")
        f.flush()
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout).returncode
    if rc != 0 or not os.path.exists(fst):
        return rc, None
    vcd = subprocess.run(["fst2vcd", fst], capture_output=True, text=True, check=True,
                         timeout=timeout).stdout
    return rc, time0_values(vcd)


def check(binary, args, out, vseeds=(1, 2)):
    """Runs the check; returns (ok, report lines)."""
    os.makedirs(out, exist_ok=True)
    a, b = vseeds
    runs = {}
    report = []
    for label, vs in (("A", a), ("B", b), ("A again", a)):
        tag = f"vseed{vs}" + ("-again" if label == "A again" else "")
        fst = os.path.join(out, f"{tag}.fst")
        rc, vals = run_once(binary, args, vs, fst, os.path.join(out, f"{tag}.log"))
        if rc != 0 or vals is None:
            return False, [f"power-up: the run with VSEED {vs} failed (exit {rc}; "
                           f"log {os.path.join(out, tag + '.log')})"]
        runs[label] = vals
    va, vb, va2 = runs["A"], runs["B"], runs["A again"]
    sigs, nbits = diff(va, vb)
    same_sigs, _ = diff(va, va2)
    total = bits(va)
    report.append(f"power-up: {len(va)} signals, {total} bits at time 0")
    regs = [n for n in sigs if n.endswith("_q")] or sigs  # registers first
    report.append(f"power-up: VSEED {a} and {b} differ in {len(sigs)} signals, {nbits} bits"
                  + (f" (e.g. {', '.join(regs[:3])})" if sigs else ""))
    report.append(f"power-up: VSEED {a} twice: {len(same_sigs)} signals differ")
    oa, ob = ones_in(va, sigs), ones_in(vb, sigs)
    report.append(f"power-up: bits at 1 in those signals: {oa} under VSEED {a}, {ob} under "
                  f"VSEED {b} (all signals: {ones(va)} and {ones(vb)})")
    ok = True
    if nbits < MIN_DIFF_BITS:
        report.append(f"power-up: FAILED: VSEED {a} and {b} should differ in at least "
                      f"{MIN_DIFF_BITS} bits")
        ok = False
    if same_sigs:
        report.append(f"power-up: FAILED: the same VSEED {a} gave other values "
                      f"({', '.join(same_sigs[:3])})")
        ok = False
    if min(oa, ob) < nbits // 4:
        report.append("power-up: FAILED: a run powered up (nearly) all zero where they differ")
        ok = False
    return ok, report


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="directory for the waveforms and logs")
    p.add_argument("--vseeds", type=int, nargs=2, default=(1, 2), metavar=("A", "B"))
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- BINARY ARGS...")
    o = p.parse_args()
    cmd = o.command[1:] if o.command[:1] == ["--"] else o.command
    if not cmd:
        p.error("no co-simulation command given")
    ok, report = check(cmd[0], cmd[1:], o.out, tuple(o.vseeds))
    print("\n".join(report))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
