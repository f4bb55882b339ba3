#!/usr/bin/env python3
"""selftest.py: every sanity check of the synthesis flow must fail on RTL that
breaks it.  Run by `make synth-selftest` (synth/synth.mk).

For each case, the RTL is copied to <out>/<case>/rtl/, one module of the copy
is broken by a small text edit (rtl/ itself is never touched), and Yosys runs
the prelude of the flow plus synth/checks.ys on it.  A case passes when Yosys
fails with the expected message (or, for "clean", succeeds).

Then the cell-library steps (docs/synthesis.md, "Cell library"): each must
stop with a message, never leave an empty column: OpenSTA on a netlist with
no register-to-register path, OpenSTA without the liberty file, the summary
of a configuration whose power or clock result is missing, and `make synth`
with a bad knob value (exit status 2, the knob named).  Standard library only.
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


# A cell netlist with no flip-flop: OpenSTA finds no register-to-register path.
NO_PATH_NETLIST = """module spin_router(clk_i, a_i, z_o);
  input clk_i;
  input a_i;
  output z_o;
  BUF_X1 u_buf (.A(a_i), .Z(z_o));
endmodule
"""

# Minimal reports of one configuration as synth/summary.py reads them: a
# router of one flip-flop, its area and clock; cell_power.txt is left out or
# broken by the cases.
FAKE_REPORTS = {
    'config.txt': 'name=fake\nnum_vcs=1\nextra=\nparams=NumPorts=5 NumVcs=1\nsame_as=\n',
    'flat_stat.json': '{"modules": {"\\\\spin_router": {"num_cells": 2, '
                      '"num_cells_by_type": {"$_DFF_P_": 1, "$_AND_": 1}}}}',
    'hier_stat.json': '{"modules": {"\\\\spin_router": {"num_cells": 2, '
                      '"num_cells_by_type": {"$_DFF_P_": 1, "$_AND_": 1}}}}',
    'hier_cmos.json': '{"modules": {"\\\\spin_router": {"num_cells": 2, '
                      '"num_cells_by_type": {"$_DFF_P_": 1, "$_NAND_": 1}}}}',
    'hier_cmos.txt': '=== spin_router ===\n   Estimated number of transistors: 20\n',
    'hier_stat.txt': '',
    'flat_cmos.txt': '=== spin_router ===\n   Estimated number of transistors: 20\n',
    'cell_stat.txt': "=== spin_router ===\n     DFF_X1   1\n     AND2_X1   1\n"
                     "   Chip area for module '\\spin_router': 5.586000\n",
    'cell_spin.txt': '',
    'cell_spin_stat.txt': '',
    'cell_clock.txt': 'reg2reg_ps=100\nin2reg_ps=90\nreg2out_ps=80\nin2out_ps=none\n'
                      'clock_ps=100\nbound=reg2reg\n',
}
GOOD_POWER = ('power_mw=1.0\ninternal_mw=0.5\nswitching_mw=0.4\nleakage_mw=0.1\n'
              'ff_power_mw=0.3\nflop_activity_mean=0.1\nflop_duty_mean=0.5\n'
              'input_activity_mean=0.1\nflops=1\nflops_matched=1\nrouters=1\ncycles=10\n'
              'warmup=10\nclock_ps=100\nrun=--topo mesh2x2\n')

# (name, files changed from FAKE_REPORTS (None: removed), expected message)
SUMMARY_CASES = [
    ('summary_clean', {'cell_power.txt': GOOD_POWER}, None),
    ('summary_no_power', {}, r'cell_power.txt: no power'),
    ('summary_no_clock', {'cell_power.txt': GOOD_POWER, 'cell_clock.txt': None},
     r'cell_clock.txt: no clock period'),
    ('summary_no_area', {'cell_power.txt': GOOD_POWER, 'cell_stat.txt': ''},
     r'no area of spin_router'),
    ('summary_stale_power', {'cell_power.txt': GOOD_POWER.replace('clock_ps=100', 'clock_ps=90')},
     r'power at 90 ps, but the clock is now 100 ps'),
    ('summary_no_spin', {'cell_power.txt': GOOD_POWER,
                         'config.txt': 'name=fake\nnum_vcs=1\nextra=-GSpin=1\n'
                                       'params=NumPorts=5 NumVcs=1 Spin=1\nsame_as=\n'},
     r'no \*u_spin instance'),
]

# (name, make arguments, expected message): make synth stops before any run.
KNOB_CASES = [
    ('knob_config', ['CONFIG=no_such_row'], r'CONFIG=no_such_row: unknown no_such_row'),
    ('knob_jobs', ['SYNTH_JOBS=two'], r'SYNTH_JOBS=two: expected a number of parallel Yosys runs'),
    ('knob_dedup', ['SYNTH_DEDUP=2'], r'SYNTH_DEDUP=2: expected 0 or 1'),
    ('knob_rate', ['SYNTH_ACT_RATE=1.5'], r'SYNTH_ACT_RATE=1.5: expected'),
    ('knob_cycles', ['SYNTH_ACT_CYCLES=0'], r'SYNTH_ACT_CYCLES=0: expected'),
    ('knob_liberty', ['SYNTH_CELL_LIB=/nonexistent/stdcells.lib'],
     r'SYNTH_CELL_LIB=/nonexistent/stdcells.lib: no such liberty file'),
    ('knob_sta', ['STA=/nonexistent/sta'], r'STA=/nonexistent/sta: OpenSTA not found'),
]


def run_case(name, cmd, cwd, expect, want_rc=None):
    """Run cmd; ok when it fails with a line matching expect (or, with
    expect None, succeeds).  Prints one line."""
    res = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True)
    out = res.stdout
    with open(os.path.join(cwd, 'output.txt'), 'w') as fh:
        fh.write(out)
    if expect is None:
        ok = res.returncode == 0
        what = 'exit %d' % res.returncode
    else:
        hit = [l for l in out.splitlines() if re.search(expect, l)]
        ok = res.returncode != 0 and bool(hit) and (want_rc is None or res.returncode == want_rc)
        what = 'exit %d: %s' % (res.returncode, (hit or out.splitlines()[-1:] or ['no output'])[0]
                                .strip()[:100])
    print('selftest: %-19s %-4s %s' % (name, 'ok' if ok else 'FAIL', what))
    if not ok:
        print('          expected %s; output: %s' % (
            'success' if expect is None else 'a failure matching %r' % expect,
            os.path.join(cwd, 'output.txt')))
    return ok


def fresh(d):
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    return d


def cell_cases(args):
    """The cell-library steps and the knobs; returns the number of failures."""
    synth = os.path.abspath(args.synth)
    root = os.path.dirname(synth)
    py = [args.python]
    failures = 0
    if not os.path.isfile(args.liberty):
        print('selftest: cell library %s missing: make deps installs it' % args.liberty)
        return 1
    # OpenSTA on a netlist without a register-to-register path.
    d = fresh(os.path.abspath(os.path.join(args.out, 'sta_no_path')))
    os.symlink(os.path.abspath(args.liberty), os.path.join(d, 'cell.lib'))
    with open(os.path.join(d, 'cell_flat.v'), 'w') as fh:
        fh.write(NO_PATH_NETLIST)
    failures += not run_case('sta_no_path', py + [os.path.join(synth, 'cell.py'), 'sta', '--dir',
                                                  d, '--sta', args.sta], d,
                             r'found no reg2reg path')
    # OpenSTA without the liberty file.
    d = fresh(os.path.abspath(os.path.join(args.out, 'sta_no_liberty')))
    os.symlink('/nonexistent/stdcells.lib', os.path.join(d, 'cell.lib'))
    with open(os.path.join(d, 'cell_flat.v'), 'w') as fh:
        fh.write(NO_PATH_NETLIST)
    failures += not run_case('sta_no_liberty', py + [os.path.join(synth, 'cell.py'), 'sta',
                                                     '--dir', d, '--sta', args.sta], d,
                             r'cell.lib: the liberty file .* missing')
    # The summary of a configuration with a result missing or broken.
    for name, change, expect in SUMMARY_CASES:
        top = fresh(os.path.abspath(os.path.join(args.out, name)))
        d = os.path.join(top, 'fake')
        os.makedirs(d)
        files = dict(FAKE_REPORTS)
        files.update(change)
        for f, text in files.items():
            if text is not None:
                with open(os.path.join(d, f), 'w') as fh:
                    fh.write(text)
        os.symlink(os.path.abspath(args.liberty), os.path.join(d, 'cell.lib'))
        failures += not run_case(name, py + [os.path.join(synth, 'summary.py'), '--dir', top,
                                             '--configs', 'fake'], top, expect)
    # make synth with a bad knob: exit 2 and the knob named, before any run.
    for name, margs, expect in KNOB_CASES:
        d = fresh(os.path.abspath(os.path.join(args.out, name)))
        failures += not run_case(name, [args.make, '--no-print-directory', '-C', root, 'synth']
                                 + margs, d, expect, want_rc=2)
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--yosys', default='yosys')
    ap.add_argument('--sta', default='sta')
    ap.add_argument('--python', default=sys.executable)
    ap.add_argument('--make', default='make')
    ap.add_argument('--liberty', required=True, help='the cell library (SYNTH_CELL_LIB)')
    ap.add_argument('--rtl', required=True, help='rtl/ directory (read only)')
    ap.add_argument('--synth', required=True, help='synth/ directory (checks.ys)')
    ap.add_argument('--out', required=True, help='scratch directory')
    args = ap.parse_args()

    rtl = os.path.abspath(args.rtl)
    checks = os.path.join(os.path.abspath(args.synth), 'checks.ys')
    srcs = sorted(f for f in os.listdir(rtl) if f.endswith('.sv'))
    hdrs = sorted(f for f in os.listdir(rtl) if f.endswith('.svh'))   # included, not read
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
        for f in srcs + hdrs:
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
    failures += cell_cases(args)
    print('selftest: %s (%d case(s) did not behave as expected)' % (
        'PASSED' if failures == 0 else 'FAILED', failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
