#!/usr/bin/env python3
"""summary.py: build/synth/summary.md and summary.csv from the Yosys reports.

Run by `make synth` / `make synth-summary` (synth/synth.mk):
    python3 synth/summary.py --dir build/synth --configs 'xy_1vc wf_1vc ...' \
        --compare 'wf_1vc:wf_2vc wf_1vc:wf_3vc' --spin-pairs 'wf_1vc:favors_1vc_spin'
Reads, per router configuration, build/synth/<config>/: config.txt,
flat_stat.json, flat_cmos.txt, ltp.txt, hier_stat.json, hier_stat.txt,
hier_cmos.txt, hier_cmos.json, ice40_stat.json, router.time, router.rtl,
router.log (one Yosys run per configuration), and the cell-library results
cell_stat.txt, cell_spin.txt, cell_spin_stat.txt (Yosys), cell_clock.txt and
cell_power.txt (synth/cell.py, OpenSTA) with the liberty file cell.lib; and
every build/synth/net_*/ written by `make synth-network`.  A configuration
whose Yosys reports exist but whose cell-library results are missing or
empty stops the summary (exit 1): no empty column.  Standard library only.

summary.csv is in long form, one figure per line:
    section,config,item,metric,value
section: router | submodule | compare | spin | network | time
"""
import argparse
import csv
import json
import os
import re
import sys

# The Yosys runs of one configuration (synth/synth.mk): JOB.time, .rtl, .log.
SYNTH_JOBS = ('router',)

# Flip-flop cell types: generic gates ($_DFF_P_, $_SDFFE_PN0P_, ...) and iCE40.
FF_RE = re.compile(r'^\$_(DFF|DFFE|SDFF|SDFFE|SDFFCE|DFFSR|DFFSRE|ALDFF|ALDFFE)_')
ICE40_FF_RE = re.compile(r'^SB_DFF')
TRANS_RE = re.compile(r'Estimated number of transistors:\s+(\d+)(\+?)')
# Paper (SPIN): the 1-VC router is 36% smaller than 2 VCs, 52% than 3 VCs.
PAPER_SMALLER = {2: 36, 3: 52}
# Paper (SPIN): SPIN adds 4% to the area of a west-first router.
PAPER_SPIN_OVERHEAD = 4
# Order of the per-submodule table; modules not listed follow.
MODULE_ORDER = ['spin_router', 'spin_input_port', 'spin_fifo', 'spin_route_select',
                'spin_rr_arbiter', 'spin_switch_alloc', 'spin_crossbar',
                'spin_ovc_tracker', 'spin_lfsr', 'spin_unit', 'spin_sm_in', 'spin_fsm',
                'spin_loop_buf', 'spin_probe_mgr', 'spin_move_mgr', 'spin_sm_out',
                'spin_route_table', 'spin_network']
# The SPIN parts (rtl/spin_unit.sv and the modules it instantiates).
SPIN_MODULES = ['spin_unit', 'spin_sm_in', 'spin_fsm', 'spin_loop_buf', 'spin_probe_mgr',
                'spin_move_mgr', 'spin_sm_out']
WHAT = {
    'spin_router': 'top glue: output link registers, head/tail bit and downstream VC of each winner',
    'spin_input_port': 'route state per VC, route-compute select, stage-1 muxes',
    'spin_fifo': 'VC buffers (storage flops, read mux, pointers)',
    'spin_route_select': 'pick one port of the route-table mask',
    'spin_rr_arbiter': 'round-robin arbiters (VC per input, input per output)',
    'spin_switch_alloc': 'output stage of the switch allocator (without its arbiters)',
    'spin_crossbar': '5x5 crossbar of link words (AND-OR of one-hot selects)',
    'spin_ovc_tracker': 'free downstream VCs per output',
    'spin_lfsr': '32-bit LFSR',
    'spin_unit': 'SPIN glue: the handled port\'s VC views, the forwarded message, the observation',
    'spin_sm_in': 'SPIN input stage: one special message a cycle (class, rotating priority), '
                  'its register (SmPipe 2) and the hop counted on arrival',
    'spin_fsm': 'SPIN counter FSM, spin, arm chain, watch, epoch (without the loop buffer)',
    'spin_loop_buf': 'SPIN loop buffer: the loop\'s cycles, first port (and fork entries)',
    'spin_probe_mgr': 'SPIN probe manager, one for all inputs, with a mark per input',
    'spin_move_mgr': 'SPIN move manager, one for all inputs: next hop, accept, freeze',
    'spin_sm_out': 'SPIN output stage: the handled message against the FSM\'s per output, '
                   'and its register (SmPipe 1, 2)',
    'spin_route_table': 'route-table lookups (outside the router)',
    'spin_network': 'network top: wiring only',
}


def norm(name):
    """Yosys module name as printed by stat: no leading backslash."""
    return name[1:] if name.startswith('\\') else name


def base_name(name):
    """Module name before uniquification: $paramod$<hash>\\spin_fifo and
    $paramod\\spin_rr_arbiter\\N=... are both named after the RTL module."""
    name = norm(name)
    if name.startswith('$paramod'):
        return name.split('\\')[1]
    return name


def read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def read_json(path):
    """A `stat -json` report.  Yosys 0.23 writes it with a trailing comma
    (`},` before the closing brace) when no top module is known; the scripts
    clear the top attribute because with one the hierarchy is printed as text
    inside the JSON.  So drop commas before a closing brace or bracket."""
    text = read_text(path)
    if text is None:
        return None
    return json.loads(re.sub(r',(\s*[}\]])', r'\1', text))


def only_module(stat):
    """The figures of a flattened design (one module)."""
    mods = list(stat['modules'].values())
    if len(mods) != 1:
        raise ValueError('expected one module, found %d' % len(mods))
    return mods[0]


def read_kv(path):
    text = read_text(path)
    if text is None:
        return None
    kv = {}
    for line in text.splitlines():
        if line.startswith('#') or '=' not in line:
            continue
        k, v = line.split('=', 1)
        kv[k.strip()] = v.strip()
    return kv


def read_time(path):
    """{'wall': s, 'cpu': s} from JOB.time: 'wall N', then the shell's
    `times` (second line: user and system CPU of the children)."""
    text = read_text(path)
    if not text:
        return {}
    res = {}
    m = re.search(r'^wall (\d+)', text, re.M)
    if m:
        res['wall'] = int(m.group(1))
    lines = [l for l in text.splitlines() if re.match(r'^\d+m[\d.]+s', l)]
    if len(lines) >= 2:
        res['cpu'] = round(sum(int(a) * 60 + float(b)
                               for a, b in re.findall(r'(\d+)m([\d.]+)s', lines[1])))
    return res


def read_hash(path):
    text = read_text(path)
    return text.strip() if text else None


def count_ffs(by_type, regex=FF_RE):
    return sum(n for t, n in by_type.items() if regex.match(norm(t)))


def transistors_by_module(text):
    """{module: (count, exact)} from `stat -tech cmos` output; 'design
    hierarchy' is the whole design, instances included."""
    res, mod = {}, None
    for line in text.splitlines():
        m = re.match(r'^=== (.*) ===$', line.strip())
        if m:
            mod = norm(m.group(1))
            continue
        m = TRANS_RE.search(line)
        if m and mod is not None:
            res[mod] = (int(m.group(1)), m.group(2) == '')
    return res


def hierarchy_cells_total(text):
    """Number of cells of the 'design hierarchy' section of stat -top."""
    part = text.split('=== design hierarchy ===', 1)
    if len(part) < 2:
        return None
    m = re.search(r'Number of cells:\s+(\d+)', part[1])
    return int(m.group(1)) if m else None


def yosys_version(log):
    m = re.search(r'Yosys (\d[^\n]*?\(git sha1 [0-9a-f]+[^)]*\))', log or '')
    return m.group(1) if m else 'unknown'


def warnings_of(log):
    """Yosys warnings (ABC's own chatter excluded), without duplicates."""
    seen = []
    for line in (log or '').splitlines():
        if line.startswith('Warning:') and line not in seen:
            seen.append(line)
    return seen


class Hierarchy:
    """Per-module figures of a design synthesized with its hierarchy kept."""

    def __init__(self, stat_json, cmos_json, cmos_text):
        self.mods = {norm(k): v for k, v in stat_json['modules'].items()}
        cmos_mods = {norm(k): v for k, v in cmos_json['modules'].items()}
        trans = transistors_by_module(cmos_text)
        self.children = {}
        for m, d in self.mods.items():
            self.children[m] = {norm(t): n for t, n in d['num_cells_by_type'].items()
                                if norm(t) in self.mods}
        instantiated = {c for ch in self.children.values() for c in ch}
        tops = [m for m in self.mods if m not in instantiated]
        if len(tops) != 1:
            raise ValueError('expected one top module, found %s' % tops)
        self.top = tops[0]
        self.own = {}
        for m, d in self.mods.items():
            by_type = d['num_cells_by_type']
            cmos_by_type = cmos_mods.get(m, {}).get('num_cells_by_type', {})
            self.own[m] = {
                'cells': d['num_cells'] - sum(self.children[m].values()),
                'ffs': count_ffs(by_type),
                'transistors': trans.get(m, (0, False))[0],
                'cmos_cells': (cmos_mods.get(m, {}).get('num_cells', 0)
                               - sum(n for t, n in cmos_by_type.items() if norm(t) in self.mods)),
            }
        self.inst = {m: 0 for m in self.mods}
        self._count(self.top, 1)
        self.incl = {}
        for m in self.mods:
            self._inclusive(m)
        self.trans_total = trans.get('design hierarchy', trans.get(self.top, (None, False)))

    def _count(self, m, n):
        self.inst[m] += n
        for c, k in self.children[m].items():
            self._count(c, n * k)

    def _inclusive(self, m):
        if m not in self.incl:
            tot = dict(self.own[m])
            for c, k in self.children[m].items():
                for key, v in self._inclusive(c).items():
                    tot[key] += k * v
            self.incl[m] = tot
        return self.incl[m]

    def parents(self, m):
        return sorted({base_name(p) for p, ch in self.children.items() if m in ch})

    def by_base(self, key='own'):
        """{base: {variants, instances, cells, ffs, transistors}}: own logic of
        each uniquified module times its instances, summed per RTL module."""
        table = self.own if key == 'own' else self.incl
        res = {}
        for m in self.mods:
            b = base_name(m)
            r = res.setdefault(b, {'variants': 0, 'instances': 0, 'cells': 0,
                                   'ffs': 0, 'transistors': 0})
            r['variants'] += 1
            r['instances'] += self.inst[m]
            for k in ('cells', 'ffs', 'transistors'):
                r[k] += self.inst[m] * table[m][k]
        return res

    def total(self):
        return self.incl[self.top]


class CellError(Exception):
    pass


LIB_CACHE = {}


def liberty_cells(path):
    """{cell: (area, sequential)} of a liberty file; sequential: the cell has
    an ff or latch group.  Also '__wire_load__': the default wire-load model."""
    real = os.path.realpath(path)
    if real in LIB_CACHE:
        return LIB_CACHE[real]
    text = read_text(path)
    if not text:
        raise CellError('%s: the liberty file is missing or empty' % path)
    cells = {}
    parts = re.split(r'\n\s*cell\s*\(\s*"?([\w]+)"?\s*\)\s*\{', text)
    for name, body in zip(parts[1::2], parts[2::2]):
        m = re.search(r'^\s*area\s*:\s*([\d.eE+-]+)', body, re.M)
        seq = re.search(r'^\s*(ff|latch)\s*\(', body, re.M) is not None
        cells[name] = (float(m.group(1)) if m else 0.0, seq)
    m = re.search(r'default_wire_load\s*:\s*"?([^";]+)"?', parts[0])
    cells['__wire_load__'] = (m.group(1).strip() if m else 'none', False)
    m = re.search(r'^library\s*\(\s*"?(\w+)', parts[0], re.M)
    cells['__name__'] = (m.group(1) if m else '?', False)
    LIB_CACHE[real] = cells
    return cells


def stat_liberty(text):
    """{module: (area, {cell type: count})} from `stat -liberty` output."""
    res, mod, by = {}, None, {}
    for line in text.splitlines():
        m = re.match(r'^=== (.*) ===$', line.strip())
        if m:
            mod, by = norm(m.group(1)), {}
            continue
        m = re.match(r'^\s+(\S+)\s+(\d+)$', line)
        if m and mod is not None and not line.strip().startswith('Number'):
            by[norm(m.group(1))] = int(m.group(2))
        m = re.search(r"Chip area for module '(.*)': ([\d.]+)", line)
        if m:
            res[norm(m.group(1))] = (float(m.group(2)), by)
    return res


def load_cell(r, d):
    """The cell-library figures of a configuration (area, clock, power);
    CellError when a result is missing or empty."""
    cfg = r['cfg']
    lib = liberty_cells(os.path.join(d, 'cell.lib'))
    text = read_text(os.path.join(d, 'cell_stat.txt'))
    st = stat_liberty(text or '')
    if 'spin_router' not in st or st['spin_router'][0] <= 0:
        raise CellError('%s: no area of spin_router (router_cell.ys did not run?)'
                        % os.path.join(d, 'cell_stat.txt'))
    area, by = st['spin_router']
    unknown = [t for t in by if t not in lib]
    if unknown:
        raise CellError('%s: cell types not in the liberty file: %s'
                        % (os.path.join(d, 'cell_stat.txt'), ', '.join(unknown[:5])))
    c = {'area_um2': area,
         'area_ff_um2': sum(n * lib[t][0] for t, n in by.items() if lib[t][1]),
         'cell_count': sum(by.values()),
         'cell_ffs': sum(n for t, n in by.items() if lib[t][1]),
         'wire_load': lib['__wire_load__'][0], 'library': lib['__name__'][0]}
    c['area_logic_um2'] = area - c['area_ff_um2']
    # The SPIN unit, hierarchy kept: the module of the *u_spin instance and the
    # modules under it, own area times instances inside the unit.
    spin = read_text(os.path.join(d, 'cell_spin.txt'))
    spin_stat = read_text(os.path.join(d, 'cell_spin_stat.txt'))
    if spin is None or spin_stat is None:
        raise CellError('%s: missing (router_cell.ys did not finish?)'
                        % os.path.join(d, 'cell_spin.txt'))
    # `select -list` of whole modules: the module's name, then its objects
    # (module/object); the first module is the one of the u_spin instance.
    listed = [norm(l.strip()) for l in spin.splitlines() if l.strip() and '/' not in l]
    has_spin = 'Spin=1' in (cfg.get('params') or '')
    if has_spin:
        if not listed:
            raise CellError('%s: no *u_spin instance in spin_router, but Spin=1'
                            % os.path.join(d, 'cell_spin.txt'))
        top = listed[0]
        own = {m: a for m, (a, _) in stat_liberty(spin_stat).items()}
        h = r.get('hier')
        if h is None or top not in h.children:
            raise CellError('%s: module %s is not in hier_stat.json' % (d, top))
        missing = []

        def incl(m):
            if m not in own:
                missing.append(m)
                return 0.0
            return own[m] + sum(k * incl(ch) for ch, k in h.children[m].items())
        c['area_spin_um2'] = incl(top)
        if missing:
            raise CellError('%s: no cell area for %s' % (
                os.path.join(d, 'cell_spin_stat.txt'), ', '.join(missing[:3])))
        c['spin_module'] = top
    clk = read_kv(os.path.join(d, 'cell_clock.txt'))
    if not clk or not clk.get('clock_ps', '').isdigit():
        raise CellError('%s: no clock period (OpenSTA step)' % os.path.join(d, 'cell_clock.txt'))
    for k in ('reg2reg', 'in2reg', 'reg2out', 'in2out'):
        v = clk.get(k + '_ps')
        c[k + '_ps'] = int(v) if v and v.isdigit() else None
        c[k + '_path'] = '%s -> %s' % (clk.get(k + '_from'), clk.get(k + '_to'))
    if c['reg2reg_ps'] is None:
        raise CellError('%s: no register-to-register path' % os.path.join(d, 'cell_clock.txt'))
    c['clock_ps'] = int(clk['clock_ps'])
    c['bound'] = clk.get('bound')
    pw = read_kv(os.path.join(d, 'cell_power.txt'))
    if not pw or not pw.get('power_mw'):
        raise CellError('%s: no power (activity run or OpenSTA step)'
                        % os.path.join(d, 'cell_power.txt'))
    if pw.get('clock_ps') != clk['clock_ps']:
        raise CellError('%s: power at %s ps, but the clock is now %s ps: run make synth again'
                        % (os.path.join(d, 'cell_power.txt'), pw.get('clock_ps'), clk['clock_ps']))
    for k in ('power_mw', 'internal_mw', 'switching_mw', 'leakage_mw', 'ff_power_mw',
              'flop_activity_mean', 'flop_duty_mean', 'input_activity_mean'):
        c[k] = float(pw[k])
    # Energy per clock cycle: routers at different clocks compare by it.
    c['energy_pj'] = c['power_mw'] * c['clock_ps'] / 1000.0
    for k in ('flops', 'flops_matched', 'routers', 'cycles', 'warmup'):
        c['act_' + k] = int(pw[k])
    c['act_run'] = pw.get('run', '')
    for key, kv in (('sta', clk), ('power', pw)):
        for t in ('wall_s', 'cpu_s'):
            try:
                c['%s_%s' % (key, t)] = float(kv.get(t))
            except (TypeError, ValueError):
                c['%s_%s' % (key, t)] = None
    if c['power_mw'] <= 0:
        raise CellError('%s: power %s mW' % (os.path.join(d, 'cell_power.txt'), pw['power_mw']))
    return c


def load_router(d, name):
    cfg = read_kv(os.path.join(d, 'config.txt'))
    r = {'name': name, 'dir': d, 'cfg': cfg}
    if cfg is None:
        return r
    flat = read_json(os.path.join(d, 'flat_stat.json'))
    if flat is not None:
        des = only_module(flat)
        r['cells'] = des['num_cells']
        r['ffs'] = count_ffs(des['num_cells_by_type'])
        r['cell_types'] = des['num_cells_by_type']
    fc = read_json(os.path.join(d, 'flat_cmos.json'))
    if fc is not None:
        r['cmos_gates'] = only_module(fc)['num_cells']
    text = read_text(os.path.join(d, 'flat_cmos.txt'))
    if text:
        t = transistors_by_module(text)
        vals = [v for k, v in t.items()]
        if vals:
            r['transistors'], r['transistors_exact'] = vals[-1]
    text = read_text(os.path.join(d, 'ltp.txt'))
    if text:
        m = re.search(r'length=(\d+)', text)
        if m:
            r['ltp'] = int(m.group(1))
        # Named end points: the first entry and the last public (\name) one.
        names = re.findall(r'^\s*\d+: \\(\S+)', text, re.M)
        if names:
            r['ltp_from'], r['ltp_to'] = names[0], names[-1]
    ice = read_json(os.path.join(d, 'ice40_stat.json'))
    if ice is not None:
        by = only_module(ice)['num_cells_by_type']
        r['ice40_luts'] = by.get('SB_LUT4', 0)
        r['ice40_ffs'] = count_ffs(by, ICE40_FF_RE)
        r['ice40_carry'] = by.get('SB_CARRY', 0)
        r['ice40_bram'] = by.get('SB_RAM40_4K', 0)
    hs = read_json(os.path.join(d, 'hier_stat.json'))
    hc = read_json(os.path.join(d, 'hier_cmos.json'))
    ht = read_text(os.path.join(d, 'hier_cmos.txt'))
    if hs is not None and hc is not None and ht is not None:
        r['hier'] = Hierarchy(hs, hc, ht)
        r['hier_cells_yosys'] = hierarchy_cells_total(read_text(os.path.join(d, 'hier_stat.txt')) or '')
    if 'cells' in r and 'hier' in r:
        r['cell'] = load_cell(r, d)
    r['times'] = {j: read_time(os.path.join(d, j + '.time')) for j in SYNTH_JOBS}
    r['rtl'] = {j: read_hash(os.path.join(d, j + '.rtl')) for j in SYNTH_JOBS}
    r['logs'] = {j: read_text(os.path.join(d, j + '.log')) for j in SYNTH_JOBS}
    return r


def load_network(d):
    cfg = read_kv(os.path.join(d, 'config.txt'))
    st = read_json(os.path.join(d, 'net_stat.json'))
    cj = read_json(os.path.join(d, 'net_cmos.json'))
    ct = read_text(os.path.join(d, 'net_cmos.txt'))
    if cfg is None or st is None or cj is None or ct is None:
        return None
    t = read_time(os.path.join(d, 'net.time'))
    n = {'dir': d, 'cfg': cfg, 'time': t.get('wall'), 'cpu': t.get('cpu'),
         'rtl': read_hash(os.path.join(d, 'net.rtl')),
         'log': read_text(os.path.join(d, 'net.log'))}
    h = Hierarchy(st, cj, ct)
    n['hier'] = h
    tot = h.total()
    n['cells'], n['ffs'], n['transistors'] = tot['cells'], tot['ffs'], tot['transistors']
    bb = h.by_base('own')
    n['routers'] = bb.get('spin_router', {}).get('instances', 0)
    if cfg.get('flat') == '1':
        # Flattened: one module; count the routers from the generated top.
        text = read_text(os.path.join(d, 'spin_network.sv')) or ''
        n['routers'] = len(re.findall(r'^\s*\) u_router_\d+ \(', text, re.M))
        lt = read_text(os.path.join(d, 'ltp.txt'))
        m = re.search(r'length=(\d+)', lt or '')
        n['ltp'] = int(m.group(1)) if m else None
    return n


def pretty(name):
    """$paramod\\spin_rr_arbiter\\N=32'00..0101 -> spin_rr_arbiter N=5."""
    parts = norm(name).split('\\')
    if not parts[0].startswith('$paramod') or len(parts) < 2:
        return norm(name)
    args = []
    for p in parts[2:]:
        m = re.match(r"^(\w+)=(\d+)'([01]+)$", p)
        args.append('%s=%d' % (m.group(1), int(m.group(3), 2)) if m else p)
    return ' '.join([parts[1]] + args)


def fmt(v, pct=False):
    if v is None:
        return 'n/a'
    if pct:
        return '%.1f%%' % v
    if isinstance(v, float):
        v = int(round(v))
    return '{:,}'.format(v).replace(',', ' ')


def overhead(off, on):
    if off is None or on is None or off == 0:
        return None
    return 100.0 * (on - off) / off


def pair_list(text):
    res = []
    for pair in (text or '').split():
        if ':' in pair:
            res.append(tuple(pair.split(':', 1)))
    return res


def smaller(base, other):
    if base is None or other is None or other == 0:
        return None
    return 100.0 * (other - base) / other


class Report:
    """The summary as it is written: markdown lines (out) and CSV rows
    (section, config, item, metric, value)."""

    def __init__(self):
        self.md = []
        self.rows = []

    def out(self, line):
        self.md.append(line)


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--dir', required=True, help='build/synth')
    ap.add_argument('--configs', required=True, help='configuration names, table order')
    ap.add_argument('--compare', default='', help='BASE:OTHER pairs')
    ap.add_argument('--spin-pairs', default='',
                    help='SPIN_OFF:SPIN_ON pairs of the SPIN overhead table')
    ap.add_argument('--rtl-hash', default='', help='SHA-256 prefix of the current RTL')
    ap.add_argument('--show', default='',
                    help='a configuration whose cell-library figures to print')
    return ap.parse_args()


def show_router(r):
    """One configuration's cell-library figures, printed (make synth-router)."""
    c = r.get('cell')
    if not c:
        print('synth: %s has no cell-library figures' % r['name'], file=sys.stderr)
        return 1
    print('%s: %s' % (r['name'], (r['cfg'] or {}).get('params', '')))
    print('  area      %s um^2: flip-flops %s, logic %s, SPIN unit %s' % (
        fmt(c['area_um2']), fmt(c['area_ff_um2']), fmt(c['area_logic_um2']),
        fmt(c['area_spin_um2']) if 'area_spin_um2' in c else '-'))
    print('  clock     %s ps (%d MHz), bound by %s' % (
        fmt(c['clock_ps']), int(round(1e6 / c['clock_ps'])), c['bound']))
    print('  power     %.2f mW at that clock, %.1f pJ a cycle (activity: %s)' % (
        c['power_mw'], c['energy_pj'], c['act_run']))
    return 0


def load_networks(d):
    """Every network synthesized under d (net_*/ with its reports)."""
    nets = []
    if os.path.isdir(d):
        for e in sorted(os.listdir(d)):
            if e.startswith('net_') and os.path.isdir(os.path.join(d, e)):
                n = load_network(os.path.join(d, e))
                if n is not None:
                    nets.append(n)
    return nets


def write_header(rep, args, done, nets):
    """Title, Yosys version, shared parameters, the RTL read."""
    out = rep.out
    version = 'unknown'
    for r in done:
        version = yosys_version(r['logs'].get('router'))
        break
    out('<!-- GENERATED by synth/summary.py from %s/*/ (make synth); do not edit, never commit. -->'
        % args.dir)
    out('# spin-noc synthesis summary')
    out('')
    params = sorted({(r['cfg'] or {}).get('params', '') for r in done})
    shared = None
    for p in params:
        kv = dict(x.split('=', 1) for x in p.split() if '=' in x)
        common = {k: v for k, v in kv.items() if k in ('NumPorts', 'BufDepth', 'FlitW')}
        shared = common if shared is None or shared == common else {}
    out('Yosys %s.  Router parameters shared by all configurations: %s.  '
        'How the figures are made and what they mean: docs/synthesis.md.' % (
            version, ', '.join('%s %s' % kv for kv in sorted((shared or {}).items())) or 'see config.txt'))
    out('')
    hashes = sorted({h for r in done for h in r['rtl'].values() if h} |
                    {n['rtl'] for n in nets if n.get('rtl')})
    stale = [h for h in hashes if args.rtl_hash and h != args.rtl_hash]
    out('RTL read (SHA-256 of rtl/*.sv, first 16 hex digits): %s%s' % (
        ', '.join(hashes) or 'n/a',
        ('; **the RTL has changed since (now %s): re-run make synth**' % args.rtl_hash)
        if stale else ' (the current rtl/)'))
    out('')



def write_routers(rep, routers, done, spin_pairs):
    """One row per router configuration, the longest paths, what routing is."""
    out, rows = rep.out, rep.rows
    out('## Routers (generic synthesis, flattened)')
    out('')
    out('| config | VCs | extra parameters | cells | flip-flops | longest path (cells) | '
        'CMOS gates | transistors (est.) | iCE40 LUT4 | iCE40 FFs | iCE40 carries | '
        'area µm² | clock ps | power mW | note |')
    out('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|')
    for r in routers:
        cfg = r['cfg'] or {}
        if 'cells' not in r:
            out('| %s | %s | %s | not synthesized | | | | | | | | | | | |'
                % (r['name'], cfg.get('num_vcs', '?'), cfg.get('extra', '') or '-'))
            continue
        cl = r['cell']
        note = []
        if cfg.get('same_as'):
            note.append('same parameters as %s: synthesized once, reports copied' % cfg['same_as'])
        for off, on in spin_pairs:
            if on == r['name']:
                note.append('SPIN on; the same router without SPIN: %s' % off)
        if not r.get('transistors_exact', True):
            note.append('transistor count incomplete (unknown cell type)')
        if r.get('ice40_bram'):
            note.append('%d SB_RAM40_4K' % r['ice40_bram'])
        out('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            r['name'], cfg.get('num_vcs'), cfg.get('extra') or '-', fmt(r.get('cells')),
            fmt(r.get('ffs')), fmt(r.get('ltp')), fmt(r.get('cmos_gates')),
            fmt(r.get('transistors')),
            fmt(r.get('ice40_luts')), fmt(r.get('ice40_ffs')), fmt(r.get('ice40_carry')),
            fmt(cl['area_um2']), fmt(cl['clock_ps']), '%.2f' % cl['power_mw'],
            '; '.join(note)))
        for metric in ('cells', 'ffs', 'ltp', 'cmos_gates', 'transistors', 'ice40_luts',
                       'ice40_ffs', 'ice40_carry'):
            rows.append(('router', r['name'], '', metric, r.get(metric)))
        for metric in ('area_um2', 'area_ff_um2', 'area_logic_um2', 'area_spin_um2'):
            if metric in cl:
                rows.append(('router', r['name'], '', metric, round(cl[metric], 1)))
        for metric in ('clock_ps', 'reg2reg_ps', 'in2reg_ps', 'reg2out_ps', 'in2out_ps'):
            if cl.get(metric) is not None:
                rows.append(('router', r['name'], '', metric, cl[metric]))
        rows.append(('router', r['name'], '', 'clock_bound', cl['bound']))
        for metric, key in (('power_mw', 'power_mw'), ('power_internal_mw', 'internal_mw'),
                            ('power_switching_mw', 'switching_mw'),
                            ('power_leakage_mw', 'leakage_mw'), ('power_ff_mw', 'ff_power_mw')):
            rows.append(('router', r['name'], '', metric, round(cl[key], 4)))
        rows.append(('router', r['name'], '', 'num_vcs', cfg.get('num_vcs')))
    out('')
    paths = ['%s: %s -> %s' % (r['name'], r['ltp_from'], r['ltp_to']) for r in done
             if r.get('ltp_from') and not (r['cfg'] or {}).get('same_as')]
    if paths:
        out('Longest path (`ltp -noff`, first and last named signal; see ltp.txt): '
            + '; '.join('`%s`' % p for p in paths) + '.')
        out('')
    out('Routing (xy, west-first, FAvORS-Min, minimal adaptive) is the content of the route '
        'table, which is outside the router (spin_route_table), plus the run-time input '
        'cfg_favors_i, so xy_1vc and wf_1vc are the same router logic, and a FAvORS-Min or '
        'minimal adaptive router without SPIN is the wf_* router of the same VC count.  The '
        'SPIN rows (Spin=1) are compared with those rows: %s.  The esc_* rows (Escape=1) '
        'carry escape-VC routing, switched on by the run-time input cfg_escape_i: a route '
        'set of two masks per VC and a second port selector per input.' % (
            ', '.join('%s against %s' % (on, off) for off, on in spin_pairs) or 'none listed'))
    out('')



def write_cells(rep, done, byname, spin_pairs):
    """The cell library: area, clock and power per configuration."""
    out, rows = rep.out, rep.rows
    cells = [r for r in done if r.get('cell')]
    if cells:
        c0 = cells[0]['cell']
        out('## Cell library (%s, FreePDK45, typical corner)' % c0['library'])
        out('')
        out('Area from `stat -liberty` of the flattened router mapped by ABC (delay mapping, '
            'buffering, sizing) with the wire-load model %s; clock period from OpenSTA on that '
            'netlist with the same wire-load model, inputs and outputs at the clock edge (0 '
            'delay); power at that clock from OpenSTA, with the toggle rates of every '
            'flip-flop and router input of the activity run propagated through the logic.  '
            'docs/synthesis.md, "Cell library (FreePDK45)".' % c0['wire_load'])
        out('')
        out('| config | area µm² | flip-flops µm² | logic µm² | SPIN unit µm² | reg->reg ps | '
            'in->reg ps | reg->out ps | in->out ps | clock ps (MHz) | bound by | power mW | '
            'internal / switching / leakage mW | flip-flops mW | energy pJ/cycle |')
        out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---:|---:|')
        for r in cells:
            c = r['cell']
            out('| %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s (%d) | %s | %.2f | '
                '%.2f / %.2f / %.2f | %.2f | %.1f |' % (
                    r['name'], fmt(c['area_um2']), fmt(c['area_ff_um2']),
                    fmt(100.0 * c['area_ff_um2'] / c['area_um2'], pct=True),
                    fmt(c['area_logic_um2']),
                    fmt(c['area_spin_um2']) if 'area_spin_um2' in c else '-',
                    fmt(c['reg2reg_ps']), fmt(c['in2reg_ps']), fmt(c['reg2out_ps']),
                    fmt(c['in2out_ps']) if c['in2out_ps'] is not None else 'none',
                    fmt(c['clock_ps']), int(round(1e6 / c['clock_ps'])), c['bound'],
                    c['power_mw'], c['internal_mw'], c['switching_mw'], c['leakage_mw'],
                    c['ff_power_mw'], c['energy_pj']))
            rows.append(('router', r['name'], '', 'energy_pj_per_cycle', round(c['energy_pj'], 2)))
        out('')
        out('Activity runs (each configuration\'s own; toggles per cycle averaged over the '
            'routers of the run and the cycles counted):')
        out('')
        out('| config | run | routers x cycles | flip-flops named in the run | '
            'flip-flop toggles/cycle | time at 1 |')
        out('|---|---|---:|---:|---:|---:|')
        for r in cells:
            c = r['cell']
            out('| %s | `%s` | %d x %d | %d of %d | %.4f | %.3f |' % (
                r['name'], c['act_run'], c['act_routers'], c['act_cycles'],
                c['act_flops_matched'], c['act_flops'], c['flop_activity_mean'],
                c['flop_duty_mean']))
            rows.append(('router', r['name'], '', 'act_flop_toggles', c['flop_activity_mean']))
        out('')
        paths = ['%s: %s' % (r['name'], r['cell']['reg2reg_path']) for r in cells
                 if not (r['cfg'] or {}).get('same_as')]
        out('Worst register-to-register paths (the register each end holds; `_N_`: a '
            'flip-flop Yosys named itself): ' + '; '.join('`%s`' % p for p in paths) + '.')
        out('')
        for off, on in spin_pairs:
            a, b = byname.get(off, {}).get('cell'), byname.get(on, {}).get('cell')
            if a and b:
                out('SPIN, %s against %s: area %s (the SPIN unit %s µm² with its hierarchy '
                    'kept), clock %s ps against %s ps, energy per cycle %s (power %s, each at '
                    'its own clock).' % (
                        on, off, fmt(overhead(a['area_um2'], b['area_um2']), pct=True),
                        fmt(b.get('area_spin_um2')), fmt(b['clock_ps']), fmt(a['clock_ps']),
                        fmt(overhead(a['energy_pj'], b['energy_pj']), pct=True),
                        fmt(overhead(a['power_mw'], b['power_mw']), pct=True)))
                rows.append(('spin', on, off, 'area_um2_overhead_pct',
                             round(overhead(a['area_um2'], b['area_um2']), 2)))
        out('')

def write_compare(rep, args, byname):
    """The 1-VC router against more VCs ("X% smaller")."""
    out, rows = rep.out, rep.rows
    out('## The 1-VC router against more VCs')
    out('')
    out('"X% smaller" = (other - base) / other.  Paper: the 1-VC router (FAvORS with SPIN) '
        'is 36% smaller than 2 VCs and 52% smaller than 3 VCs; its column is shown for every '
        '1-VC base, with or without SPIN.')
    out('')
    out('| base vs other | cells | flip-flops | transistors (est.) | iCE40 LUT4 | iCE40 FFs | paper |')
    out('|---|---:|---:|---:|---:|---:|---:|')
    for pair in args.compare.split():
        if ':' not in pair:
            continue
        b, o = pair.split(':', 1)
        rb, ro = byname.get(b), byname.get(o)
        if not rb or not ro or 'cells' not in rb or 'cells' not in ro:
            out('| %s vs %s | not synthesized | | | | | |' % (b, o))
            continue
        vals = [smaller(rb.get(k), ro.get(k)) for k in
                ('cells', 'ffs', 'transistors', 'ice40_luts', 'ice40_ffs')]
        try:
            nb, no = int(rb['cfg']['num_vcs']), int(ro['cfg']['num_vcs'])
        except (KeyError, ValueError):
            nb, no = None, None
        paper = '%d%%' % PAPER_SMALLER[no] if nb == 1 and no in PAPER_SMALLER else '-'
        out('| %s vs %s | %s | %s | %s | %s | %s | %s |' % (
            b, o, *[fmt(v, pct=True) for v in vals], paper))
        for k, v in zip(('cells', 'ffs', 'transistors', 'ice40_luts', 'ice40_ffs'), vals):
            rows.append(('compare', '%s:%s' % (b, o), '', k + '_smaller_pct',
                         None if v is None else round(v, 2)))
        if paper != '-':
            rows.append(('compare', '%s:%s' % (b, o), '', 'paper_smaller_pct', PAPER_SMALLER[no]))
    out('')
    out('Why ours may differ from the paper: these are Yosys generic-gate counts and a '
        'transistor estimate of this RTL, not standard-cell area of the paper\'s router.  Here a '
        'VC adds a 5-flit buffer of 135-bit words, its route state and a wider VC arbiter per '
        'input port, while the crossbar, the switch allocator, the output registers and the '
        'head/tail select in spin_router are shared by all VCs (breakdown below); the percentage '
        'depends on how large that shared part is.  The cell count comes from `abc -fast` and '
        'depends more on how the RTL is written than the transistor estimate, which comes from '
        'a full ABC run (docs/synthesis.md, "What each figure means").')
    out('')


def write_spin_overhead(rep, spin_pairs, byname):
    """SPIN on against off, flattened; returns the pairs measured:
    [(off, on, {metric: overhead %})]."""
    out, rows = rep.out, rep.rows
    out('## What SPIN costs')
    out('')
    out('Overhead = (SPIN on - SPIN off) / SPIN off, for the same router (NumVcs, NumPorts, '
        'BufDepth, FlitW) synthesized with Spin=1 and with Spin=0, flattened; the iCE40 '
        'columns from synth_ice40.  Paper: SPIN adds %d%% to a west-first router.'
        % PAPER_SPIN_OVERHEAD)
    out('')
    out('| SPIN on vs off | cells | flip-flops | CMOS gates | transistors (est.) | iCE40 LUT4 | '
        'iCE40 FFs | longest path (cells) | paper |')
    out('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
    spin_metrics = ('cells', 'ffs', 'cmos_gates', 'transistors', 'ice40_luts', 'ice40_ffs')
    measured = []   # (off, on, {metric: pct}) of the pairs with figures
    for off, on in spin_pairs:
        roff, ron = byname.get(off), byname.get(on)
        if not roff or not ron or 'cells' not in roff or 'cells' not in ron:
            out('| %s vs %s | not synthesized | | | | | | | |' % (on, off))
            continue
        vals = {k: overhead(roff.get(k), ron.get(k)) for k in spin_metrics}
        measured.append((roff, ron, vals))
        out('| %s vs %s | %s | %s | %s | %s | %s | %s | %s -> %s | +%d%% |' % (
            on, off, *['+' + fmt(vals[k], pct=True) if vals[k] is not None and vals[k] >= 0
                       else fmt(vals[k], pct=True) for k in spin_metrics],
            fmt(roff.get('ltp')), fmt(ron.get('ltp')), PAPER_SPIN_OVERHEAD))
        for k in spin_metrics:
            rows.append(('spin', '%s:%s' % (off, on), '', k + '_overhead_pct',
                         None if vals[k] is None else round(vals[k], 2)))
            rows.append(('spin', '%s:%s' % (off, on), '', k + '_added',
                         None if roff.get(k) is None or ron.get(k) is None
                         else ron[k] - roff[k]))
        rows.append(('spin', '%s:%s' % (off, on), '', 'ltp_off', roff.get('ltp')))
        rows.append(('spin', '%s:%s' % (off, on), '', 'ltp_on', ron.get('ltp')))
        rows.append(('spin', '%s:%s' % (off, on), '', 'paper_overhead_pct', PAPER_SPIN_OVERHEAD))
    out('')
    return measured


# The SPIN parts of the hierarchical table: (label, module, own or incl).
SPIN_PARTS = [('input stage (spin_sm_in)', 'spin_sm_in', 'own'),
              ('SPIN FSM (spin_fsm without the loop buffer)', 'spin_fsm', 'own'),
              ('loop buffer (spin_loop_buf)', 'spin_loop_buf', 'own'),
              ('probe manager (spin_probe_mgr)', 'spin_probe_mgr', 'own'),
              ('move manager (spin_move_mgr)', 'spin_move_mgr', 'own'),
              ('output stage (spin_sm_out)', 'spin_sm_out', 'own'),
              ('unit glue (spin_unit own)', 'spin_unit', 'own'),
              ('**SPIN unit, total** (spin_unit with its submodules)', 'spin_unit', 'incl')]


def write_spin_parts(rep, measured):
    """The SPIN parts, from the runs with the hierarchy kept; returns each
    SPIN-on router's spin_unit with its submodules: {name: figures}."""
    out, rows = rep.out, rep.rows
    hier_pairs = [(roff, ron) for roff, ron, _ in measured
                  if roff.get('hier') is not None and ron.get('hier') is not None]
    unit = {}   # on-name -> spin_unit inclusive figures
    if hier_pairs:
        out('SPIN parts, from the runs with the hierarchy kept (instances x own cells, as in '
            'the per-submodule tables below).  "router hooks" is the rest of the hierarchical '
            'difference between SPIN on and off: the logic added to spin_router itself (the '
            'crossbar steered for a spin flit, a special message ahead of the crossbar, arm '
            'notices on the credits).  '
            'The input ports\' SPIN hooks (frozen VCs, the spin flit) are in spin_input_port '
            'in both runs, because with the hierarchy kept Yosys does not see that Spin=0 '
            'leaves them unused; the flattened SPIN-off router drops them.')
        out('')
        head = '| SPIN part | instances |'
        rule = '|---|---:|'
        for roff, ron in hier_pairs:
            head += ' %s cells | FFs | transistors | %% of %s |' % (ron['name'], roff['name'])
            rule += '---:|---:|---:|---:|'
        out(head)
        out(rule)
        bbs = [(ron['hier'].by_base('own'), ron['hier'].by_base('incl')) for _, ron in hier_pairs]
        offt = [roff['hier'].total() for roff, _ in hier_pairs]
        for label, m, key in SPIN_PARTS + [('router hooks (spin_router own)', None, 'hooks')]:
            line = '| %s |' % label
            inst = ''
            for i, (roff, ron) in enumerate(hier_pairs):
                own, incl = bbs[i]
                if key == 'hooks':
                    tot_on = ron['hier'].total()
                    u = incl.get('spin_unit')
                    v = {k: tot_on[k] - offt[i][k] - (u[k] if u else 0)
                         for k in ('cells', 'ffs', 'transistors')}
                    inst = '1'
                else:
                    v = (own if key == 'own' else incl).get(m)
                    if v is None:
                        line += ' - | - | - | - |'
                        continue
                    inst = str(v['instances'])
                if key == 'incl':
                    unit[ron['name']] = v
                line += ' %s | %s | %s | %s |' % (
                    fmt(v['cells']), fmt(v['ffs']), fmt(v['transistors']),
                    fmt(100.0 * v['transistors'] / offt[i]['transistors'], pct=True)
                    if offt[i]['transistors'] else 'n/a')
                item = m if key != 'hooks' else 'router_hooks'
                if key == 'incl':
                    item = 'spin_unit_inclusive'
                for k in ('cells', 'ffs', 'transistors'):
                    rows.append(('spin', ron['name'], item, k, v[k]))
            out(line.replace('| %s |' % label, '| %s | %s |' % (label, inst), 1))
        out('')
        out('"%% of" = transistors of the part / transistors of the SPIN-off router, both with '
            'the hierarchy kept (%s).' % ', '.join(
                '%s: %s' % (roff['name'], fmt(t['transistors']))
                for (roff, _), t in zip(hier_pairs, offt)))
        out('')
    return unit


def spin_pair_sentences(roff, ron, vals, unit):
    """What SPIN adds to one router, against the paper, and its largest parts."""
    text = []
    t = vals['transistors']
    text.append('%s adds %s transistors (est.), %s cells, %s flip-flops and %s iCE40 '
                'LUTs to %s (SPIN off); the paper reports %d%%, which is %s.' % (
                    'SPIN in ' + ron['name'], fmt(t, pct=True),
                    fmt(vals['cells'], pct=True), fmt(vals['ffs'], pct=True),
                    fmt(vals['ice40_luts'], pct=True), roff['name'], PAPER_SPIN_OVERHEAD,
                    'close to ours (within 1.5 points)' if t is not None
                    and abs(t - PAPER_SPIN_OVERHEAD) <= 1.5 else
                    ('below ours' if t is not None and t > PAPER_SPIN_OVERHEAD
                     else 'above ours')))
    u = unit.get(ron['name'])
    h = ron.get('hier')
    if u and h is not None:
        own = h.by_base('own')
        sp = sorted(((own[m]['transistors'], m) for m in SPIN_MODULES if m in own),
                    reverse=True)
        if u['transistors'] and len(sp) >= 2:
            text.append('Its SPIN unit is %s transistors and %s flip-flops (hierarchy '
                        'kept); the largest parts are %s (%s of the unit, %s flip-flops: '
                        '%s) and %s (%s, %s flip-flops: %s).' % (
                            fmt(u['transistors']), fmt(u['ffs']),
                            sp[0][1], fmt(100.0 * sp[0][0] / u['transistors'], pct=True),
                            fmt(own[sp[0][1]]['ffs']), WHAT.get(sp[0][1], ''), sp[1][1],
                            fmt(100.0 * sp[1][0] / u['transistors'], pct=True),
                            fmt(own[sp[1][1]]['ffs']), WHAT.get(sp[1][1], '')))
            ffs_share = 100.0 * u['ffs'] / u['transistors'] * 16
            text.append('So %s of the unit\'s transistor estimate is flip-flops (16 '
                        'each): SPIN here is mostly combinational logic that moves '
                        'whole special-message words.' % fmt(ffs_share, pct=True)
                        if ffs_share < 25 else
                        'So %s of the unit\'s transistor estimate is flip-flops (16 '
                        'each).' % fmt(ffs_share, pct=True))
    return text


def spin_scaling_sentences(measured, unit):
    """The SPIN unit and its overhead with the fewest and the most VCs."""
    text = []
    if len(measured) >= 2:
        (a_off, a_on, a_v), (b_off, b_on, b_v) = measured[0], measured[-1]
        ua, ub = unit.get(a_on['name']), unit.get(b_on['name'])
        if ua and ub and a_v['transistors'] is not None and b_v['transistors'] is not None:
            text.append('The SPIN unit has %s transistors with %s VC(s) and %s with %s, '
                        'while the router without SPIN has %s and %s (flattened): the '
                        'overhead is %s with %s VC(s) and %s with %s, so it depends on '
                        'how large the router it is added to is.' % (
                            fmt(ua['transistors']), a_off['cfg'].get('num_vcs'),
                            fmt(ub['transistors']), b_off['cfg'].get('num_vcs'),
                            fmt(a_off.get('transistors')), fmt(b_off.get('transistors')),
                            fmt(a_v['transistors'], pct=True), a_off['cfg'].get('num_vcs'),
                            fmt(b_v['transistors'], pct=True), b_off['cfg'].get('num_vcs')))
    return text


def one_vc_sentences(measured, args, byname):
    """The 1-VC SPIN router against more VCs, and why buffers weigh."""
    text = []
    for roff, ron, vals in measured:
        if ron['cfg'].get('num_vcs') != '1':
            continue
        cmp_rows = []
        for b, o in pair_list(args.compare):
            if b != ron['name'] or o not in byname or 'cells' not in byname[o]:
                continue
            ro = byname[o]
            nv = int(ro['cfg']['num_vcs'])
            s_on = smaller(ron.get('transistors'), ro.get('transistors'))
            s_off = smaller(roff.get('transistors'), ro.get('transistors'))
            if s_on is None or s_off is None:
                continue
            cmp_rows.append('%s %s than %s (%s smaller without SPIN; paper %s smaller)' % (
                fmt(abs(s_on), pct=True), 'smaller' if s_on >= 0 else 'larger', o,
                fmt(s_off, pct=True),
                '%d%%' % PAPER_SMALLER[nv] if nv in PAPER_SMALLER else '-'))
        if cmp_rows:
            text.append('In transistors (est.), %s is %s.' % (ron['name'],
                                                              '; '.join(cmp_rows)))
        h = roff.get('hier')
        if h is not None:
            fifo = h.by_base('own').get('spin_fifo')
            tot = h.total()
            if fifo and tot['transistors']:
                text.append('The VC buffers (spin_fifo) are %s of the transistors of %s '
                            '(hierarchy kept), so each added VC adds mostly buffer: where '
                            'our "smaller than" exceeds the paper\'s, the buffers weigh '
                            'more in our count than in the paper\'s cell-library area, '
                            'where the paper\'s exceeds ours, less.  The paper\'s figures '
                            'are for its own router and cell library, which are not '
                            'reproduced here; ours are generic-gate counts and a transistor '
                            'estimate of this RTL.' % (
                                fmt(100.0 * fifo['transistors'] / tot['transistors'],
                                    pct=True), roff['name']))
    return text


def write_spin_measured(rep, measured, unit, args, byname):
    """The SPIN figures in words, against the paper."""
    if not measured:
        return
    rep.out('### Measured against the paper')
    rep.out('')
    text = []
    for roff, ron, vals in measured:
        text += spin_pair_sentences(roff, ron, vals, unit)
    text += spin_scaling_sentences(measured, unit)
    text += one_vc_sentences(measured, args, byname)
    rep.out('  '.join(text))
    rep.out('')


def write_submodules(rep, done):
    """Per RTL module, from the runs with the hierarchy kept."""
    out = rep.out
    out('## Per submodule (generic synthesis, hierarchy kept)')
    out('')
    out('Yosys keeps one module per parameter set and names it after the parameters '
        '(e.g. `$paramod\\spin_rr_arbiter\\N=...`, or `$paramod$<hash>\\spin_fifo` when the '
        'name would be long).  Each RTL module below is the sum over those variants of its own '
        'cells (submodule instances excluded) times its number of instances.  The hierarchical '
        'total is larger than the flattened one: without flattening, no optimisation crosses a '
        'module boundary.')
    for r in done:
        if r.get('hier') is not None:
            write_submodule_table(rep, r)


def write_submodule_table(rep, r):
    """One router's per-module table, its inclusive figures, its checks
    against Yosys's totals and the parameter variants."""
    out, rows = rep.out, rep.rows
    h = r['hier']
    bb = h.by_base('own')
    tot = h.total()
    same = (r['cfg'] or {}).get('same_as')
    if same:
        out('')
        out('### %s' % r['name'])
        out('')
        out('Same parameters as %s: same figures.' % same)
        for m, v in sorted(bb.items()):
            for k in ('instances', 'cells', 'ffs', 'transistors'):
                rows.append(('submodule', r['name'], m, k, v[k]))
        for k in ('cells', 'ffs', 'transistors'):
            rows.append(('submodule', r['name'], 'total_hier', k, tot[k]))
        return
    out('')
    out('### %s' % r['name'])
    out('')
    out('| module | instances | variants | cells | % of cells | flip-flops | '
        'transistors (est.) | % of transistors | what |')
    out('|---|---:|---:|---:|---:|---:|---:|---:|---|')
    order = [m for m in MODULE_ORDER if m in bb] + sorted(m for m in bb if m not in MODULE_ORDER)
    for m in order:
        v = bb[m]
        label = m + (' (own)' if m == base_name(h.top) else '')
        out('| %s | %d | %d | %s | %s | %s | %s | %s | %s |' % (
            label, v['instances'], v['variants'], fmt(v['cells']),
            fmt(100.0 * v['cells'] / tot['cells'], pct=True), fmt(v['ffs']),
            fmt(v['transistors']),
            fmt(100.0 * v['transistors'] / tot['transistors'], pct=True)
            if tot['transistors'] else 'n/a', WHAT.get(m, '')))
        for k in ('instances', 'cells', 'ffs', 'transistors'):
            rows.append(('submodule', r['name'], m, k, v[k]))
    out('| **total, hierarchy kept** | | | %s | 100%% | %s | %s | 100%% | flattened: %s cells, '
        '%s FFs, %s transistors |' % (
            fmt(tot['cells']), fmt(tot['ffs']), fmt(tot['transistors']), fmt(r.get('cells')),
            fmt(r.get('ffs')), fmt(r.get('transistors'))))
    rows.append(('submodule', r['name'], 'total_hier', 'cells', tot['cells']))
    rows.append(('submodule', r['name'], 'total_hier', 'ffs', tot['ffs']))
    rows.append(('submodule', r['name'], 'total_hier', 'transistors', tot['transistors']))
    write_submodule_notes(rep, r, tot)


def write_submodule_notes(rep, r, tot):
    """The inclusive figures, the checks against Yosys's own totals, the
    variants of a module."""
    out, rows = rep.out, rep.rows
    h = r['hier']
    incl = h.by_base('incl')
    parts = []
    for m in ('spin_input_port', 'spin_switch_alloc', 'spin_fsm', 'spin_unit'):
        if m in incl:
            parts.append('%s with its submodules: %s cells, %s transistors' % (
                m, fmt(incl[m]['cells']), fmt(incl[m]['transistors'])))
            rows.append(('submodule', r['name'], m + '_inclusive', 'cells', incl[m]['cells']))
            rows.append(('submodule', r['name'], m + '_inclusive', 'transistors',
                         incl[m]['transistors']))
    if parts:
        out('')
        out('Inclusive: ' + '; '.join(parts) + '.')
    checks = []
    if r.get('hier_cells_yosys') is not None and r['hier_cells_yosys'] != tot['cells']:
        checks.append('Yosys hierarchy total %d cells differs from the sum above'
                      % r['hier_cells_yosys'])
    ty = h.trans_total
    if ty and ty[0] is not None and ty[0] != tot['transistors']:
        checks.append('Yosys hierarchy total %d transistors differs from the sum above' % ty[0])
    if checks:
        out('')
        out('**Inconsistent:** ' + '; '.join(checks) + '.')
    details = []
    for m in sorted(h.mods, key=lambda x: (base_name(x), x)):
        if sum(1 for x in h.mods if base_name(x) == base_name(m)) > 1:
            details.append('%s x%d in %s: %d cells each' % (
                pretty(m), h.inst[m],
                ', '.join(h.parents(m)) or 'top', h.own[m]['cells']))
    if details:
        out('')
        out('Variants: ' + '; '.join(details) + '.')


def write_network(rep, nets):
    """The whole networks synthesized."""
    out, rows = rep.out, rep.rows
    out('')
    out('## Whole network')
    out('')
    if not nets:
        out('Not synthesized yet: `make synth-network TOPO=mesh8x8 VCS=1` (see docs/synthesis.md).')
    else:
        out('| topology | VCs | method | routers | cells | flip-flops | transistors (est.) | '
            'cells per router | spin_router | spin_route_table | Yosys wall / CPU (s) |')
        out('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|')
        for n in nets:
            cfg = n['cfg']
            flat = cfg.get('flat') == '1'
            bb = n['hier'].by_base('incl')
            key = 'net_%s_v%s%s' % (cfg.get('topo'), cfg.get('vcs'), '_flat' if flat else '')
            per = n['cells'] / n['routers'] if n['routers'] else None
            rt = bb.get('spin_router', {})
            tb = bb.get('spin_route_table', {})
            out('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
                cfg.get('topo'), cfg.get('vcs'),
                'flattened' if flat else 'hierarchy kept, x instances',
                fmt(n['routers']), fmt(n['cells']), fmt(n['ffs']), fmt(n['transistors']),
                fmt(per), '-' if flat else '%s x %s cells' % (
                    rt.get('instances', 0), fmt(rt.get('cells', 0) // max(rt.get('instances', 1), 1))),
                '-' if flat else '%s x %s cells' % (
                    tb.get('instances', 0), fmt(tb.get('cells', 0) // max(tb.get('instances', 1), 1))),
                '%s / %s' % (fmt(n['time']), fmt(n.get('cpu')))))
            for k in ('routers', 'cells', 'ffs', 'transistors'):
                rows.append(('network', key, '', k, n.get(k)))
            rows.append(('network', key, '', 'wall_s', n.get('time')))
            rows.append(('network', key, '', 'cpu_s', n.get('cpu')))
            if flat and n.get('ltp') is not None:
                rows.append(('network', key, '', 'ltp', n['ltp']))
        out('')
        out('cells per router: the network total divided by the routers (route tables and '
            'wiring included).  ' + 'Hierarchy kept: Yosys synthesizes spin_router and spin_route_table once each (all '
            'instances share their parameters) and the totals are module figures times instance '
            'counts; nothing is optimised across a router boundary (e.g. the idle inputs of '
            'unused mesh-edge ports are not propagated into the routers).  The route table is an '
            'input of the network (configuration), so its lookups are multiplexers, not constants.')



def write_times(rep, done):
    """Wall clock and CPU of each Yosys run."""
    out, rows = rep.out, rep.rows
    out('')
    out('## Yosys run times (wall clock, seconds)')
    out('')
    out('Wall clock / CPU (Yosys and ABC, user + system) of the one Yosys run per configuration '
        '(hierarchy kept, flattened, iCE40 and cell library in one process), and of the '
        'OpenSTA timing step and the power step (the activity run, fst2vcd, the count, '
        'OpenSTA) of synth/cell.py.  Not counted here: the Verilator builds of the '
        'co-simulation binaries (build/rtl/p5-v<N>/build.log).')
    out('')
    out('| config | Yosys wall clock / CPU | timing wall / CPU | power wall / CPU |')
    out('|---|---:|---:|---:|')
    sums = {'wall': 0, 'cpu': 0}
    cell_sums = {'wall': 0.0, 'cpu': 0.0}
    for r in done:
        t = r['times']
        copied = (r['cfg'] or {}).get('same_as')
        cells = []
        for j in SYNTH_JOBS:
            tj = t.get(j) or {}
            cells.append('%s / %s' % (fmt(tj.get('wall')), fmt(tj.get('cpu'))))
            if not copied:
                for k in sums:
                    sums[k] += tj.get(k) or 0
            for k in ('wall', 'cpu'):
                rows.append(('time', r['name'], j, k + '_s', tj.get(k)))
        c = r.get('cell') or {}
        for key in ('sta', 'power'):
            cells.append('%s / %s' % (fmt(c.get(key + '_wall_s')), fmt(c.get(key + '_cpu_s'))))
            for k in ('wall', 'cpu'):
                cell_sums[k] += c.get('%s_%s_s' % (key, k)) or 0
                rows.append(('time', r['name'], key, k + '_s', c.get('%s_%s_s' % (key, k))))
        out('| %s%s | %s |' % (r['name'], ' (copied from %s)' % copied if copied else '',
                              ' | '.join(cells)))
    out('')
    out('Sum over the runs made: Yosys %s s wall clock, %s s CPU; timing and power steps %s s '
        'wall clock, %s s CPU.  `make synth` runs two at a time (make -j2); on an otherwise '
        'idle 2-core machine it takes about half the CPU sum, plus the Verilator builds.'
        % (fmt(sums['wall']), fmt(sums['cpu']), fmt(cell_sums['wall']), fmt(cell_sums['cpu'])))
    out('')


def write_warnings(rep, done, nets):
    """The checks every run passed, and Yosys's warnings."""
    out = rep.out
    out('## Checks and warnings')
    out('')
    out('Every run above passed: no black box, no latch, no combinational loop, no conflicting '
        'or missing driver (`check -assert` before and after synthesis and after flattening), '
        'no unknown module (`hierarchy -check`).  A failed check stops `make synth`.')
    warns = []
    for r in done:
        for j, log in r['logs'].items():
            for w in warnings_of(log):
                if w not in warns:
                    warns.append(w)
    for n in nets:
        for w in warnings_of(n['log']):
            if w not in warns:
                warns.append(w)
    out('')
    if warns:
        out('Yosys warnings (%d distinct):' % len(warns))
        out('')
        for w in warns[:40]:
            out('- `%s`' % w)
    else:
        out('Yosys printed no warnings.')
    out('')


def write_files(args, rep, done, routers, nets):
    """summary.md and summary.csv."""
    md, rows = rep.md, rep.rows
    os.makedirs(args.dir, exist_ok=True)
    md_path = os.path.join(args.dir, 'summary.md')
    with open(md_path, 'w') as f:
        f.write('\n'.join(md))
    csv_path = os.path.join(args.dir, 'summary.csv')
    with open(csv_path, 'w', newline='') as f:
        f.write('# GENERATED by synth/summary.py from %s/*/; do not edit, never commit.\n'
                % args.dir)
        w = csv.writer(f)
        w.writerow(['section', 'config', 'item', 'metric', 'value'])
        for row in rows:
            w.writerow(['' if x is None else x for x in row])
    print('synth: wrote %s and %s (%d of %d configurations, %d network(s))'
          % (md_path, csv_path, len(done), len(routers), len(nets)))
    return 0


def main():
    args = parse_args()
    try:
        routers = [load_router(os.path.join(args.dir, n), n) for n in args.configs.split()]
    except CellError as e:
        print('synth-summary: %s' % e, file=sys.stderr)
        print('synth-summary: no summary written: run make synth (for that configuration) again',
              file=sys.stderr)
        return 1
    done = [r for r in routers if 'cells' in r]
    nets = load_networks(args.dir)
    byname = {r['name']: r for r in routers}
    spin_pairs = pair_list(args.spin_pairs)
    rep = Report()
    write_header(rep, args, done, nets)
    write_routers(rep, routers, done, spin_pairs)
    write_cells(rep, done, byname, spin_pairs)
    write_compare(rep, args, byname)
    measured = write_spin_overhead(rep, spin_pairs, byname)
    unit = write_spin_parts(rep, measured)
    write_spin_measured(rep, measured, unit, args, byname)
    write_submodules(rep, done)
    write_network(rep, nets)
    write_times(rep, done)
    write_warnings(rep, done, nets)
    rc = write_files(args, rep, done, routers, nets)
    if args.show:
        if args.show not in byname:
            print('synth-summary: no configuration %s' % args.show, file=sys.stderr)
            return 1
        return rc or show_router(byname[args.show])
    return rc


if __name__ == '__main__':
    sys.exit(main())
