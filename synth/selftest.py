#!/usr/bin/env python3
"""selftest.py: every sanity check of the synthesis flow must fail on RTL that
breaks it.  Run by `make synth-selftest` (synth/synth.mk).

For each case, the RTL is copied to <out>/<case>/rtl/, one module of the copy
is broken by a small text edit (rtl/ itself is never touched), and Yosys runs
the prelude of the flow plus synth/checks.ys on it.  A case passes when Yosys
fails with the expected message (or, for "clean", succeeds).  Standard
library only.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

# (name, file, regex, replacement, -chparam overrides, expected error regex)
CASES = [
    ('clean', None, None, None, {}, None),
    # always_comb that does not assign state_d when step_i is low: a latch.
    # Yosys's proc already refuses it in an always_comb ...
    ('latch_comb', 'spin_lfsr.sv', r'\n\s*state_d = state_q;\n', '\n', {},
     r'Latch inferred for signal'),
    # ... but not in a Verilog-2001 always @(*): the latch check does.
    ('latch_always', 'spin_lfsr.sv', r'always_comb begin\n\s*state_d = state_q;\n',
     'always @(*) begin\n', {},
     r'Assertion failed: selection is not empty: t:\$dlatch'),
    # req_o depends on gnt_i, which the switch allocator derives from req_o:
    # a combinational loop through three modules, invisible module by module.
    ('loop', 'spin_input_port.sv', r'assign req_o(\s*)= arb_valid;',
     r'assign req_o\1= arb_valid & ~gnt_i;', {},
     r'found logic loop'),
    # Two drivers on one output bit.
    ('multi_driver', 'spin_crossbar.sv', r'\nendmodule',
     '\n  assign out_flit_o[0] = win_valid_i[0] & win_valid_i[1];\nendmodule', {},
     r'multiple conflicting drivers'),
    # A wire read but never driven.
    ('undriven', 'spin_lfsr.sv', r'if \(step_i\) state_d',
     'if (step_i && stray) state_d', {},
     r'is used but has no driver'),
    # An instance of a module that does not exist.
    ('unknown_module', 'spin_router.sv', r'spin_crossbar #\(', 'spin_crossbar_typo #(', {},
     r"is not part of the design"),
    # A module marked as a black box: it would count as 0 cells.
    ('blackbox', 'spin_lfsr.sv', r'\nmodule spin_lfsr', '\n(* blackbox *)\nmodule spin_lfsr', {},
     r'Assertion failed: selection is not empty: =A:blackbox'),
    # A parameter the router rejects at elaboration ($error in a generate).
    ('bad_parameter', None, None, None, {'BufDepth': '4'},
     r'BufDepth must hold the longest packet'),
]

PARAMS = {'NumPorts': '5', 'NumVcs': '2', 'BufDepth': '5', 'FlitW': '128'}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--yosys', default='yosys')
    ap.add_argument('--rtl', required=True, help='rtl/ directory (read only)')
    ap.add_argument('--synth', required=True, help='synth/ directory (checks.ys)')
    ap.add_argument('--out', required=True, help='scratch directory')
    args = ap.parse_args()

    rtl = os.path.abspath(args.rtl)
    checks = os.path.join(os.path.abspath(args.synth), 'checks.ys')
    srcs = sorted(f for f in os.listdir(rtl) if f.endswith('.sv'))
    if 'spin_pkg.sv' not in srcs:
        print('selftest: no spin_pkg.sv in %s' % rtl)
        return 2
    srcs.remove('spin_pkg.sv')
    srcs.insert(0, 'spin_pkg.sv')

    failures = 0
    for name, fname, pat, repl, over, expect in CASES:
        d = os.path.abspath(os.path.join(args.out, name))
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(os.path.join(d, 'rtl'))
        for f in srcs:
            shutil.copy(os.path.join(rtl, f), os.path.join(d, 'rtl', f))
        if fname:
            p = os.path.join(d, 'rtl', fname)
            with open(p) as fh:
                text = fh.read()
            new, n = re.subn(pat, repl, text, count=1)
            if n != 1:
                print('selftest: %-15s ERROR: the edit no longer applies to %s (pattern %r)'
                      % (name, fname, pat))
                failures += 1
                continue
            with open(p, 'w') as fh:
                fh.write(new)
        params = dict(PARAMS, **over)
        chparam = ' '.join('-chparam %s %s' % kv for kv in params.items())
        cmd = [args.yosys, '-q', '-l', os.path.join(d, 'yosys.log'), '-p',
               'read_verilog -sv -DSYNTHESIS %s; hierarchy -check -top spin_router %s; script %s'
               % (' '.join(os.path.join(d, 'rtl', f) for f in srcs), chparam, checks)]
        with open(os.path.join(d, 'command.txt'), 'w') as fh:
            fh.write(' '.join("'%s'" % c if ' ' in c else c for c in cmd) + '\n')
        res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True)
        with open(os.path.join(d, 'yosys.log')) as fh:
            log = fh.read()
        err = [l for l in log.splitlines() if 'ERROR' in l or 'Assertion failed' in l]
        if expect is None:
            ok = res.returncode == 0
            what = 'Yosys exit %d, checks pass' % res.returncode
        else:
            hit = [l for l in (log + res.stdout).splitlines() if re.search(expect, l)]
            ok = res.returncode != 0 and bool(hit)
            what = 'Yosys exit %d: %s' % (res.returncode,
                                          (hit or err or ['no error line'])[0].strip()[:100])
        edit = ('%s edited' % fname) if fname else (
            'params %s' % over if over else 'unmodified copy')
        print('selftest: %-15s %-4s %-26s %s' % (name, 'ok' if ok else 'FAIL', edit, what))
        if not ok:
            failures += 1
            print('          expected %s; log: %s' % (
                'success' if expect is None else 'an error matching %r' % expect,
                os.path.join(d, 'yosys.log')))
    print('selftest: %s (%d case(s) did not behave as expected)' % (
        'PASSED' if failures == 0 else 'FAILED', failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
