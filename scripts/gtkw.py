#!/usr/bin/env python3
"""GTKWave save files for one router of a co-simulation, and their check.

Writes two views of router R (default router_5) of a waveform written by
`make sim WAVES=1` (tb/cosim.cpp --waves):

  router  link words and credits per port, split into fields (a special
          message's sender, t and x, and with several VCs its fork entries,
          beside a flit's head, tail, vc and data); VC state per input port;
          switch allocation; the LFSR
  spin    the SPIN unit (rtl/spin_unit.sv): the FSM's registers (state,
          counter, watched VC, recovery, top, epoch), the loop buffer, the
          moves' records, frozen/armed/spinning per VC, the probe marks, the
          input stage (smi_q and the message handled), the output stage
          (smo_q), special messages and arm notices on every link

Usage:
  scripts/gtkw.py --out-dir waves [--fst FST] [--ports 5] [--vcs 1] [--flitw 128] [--router 5]
  scripts/gtkw.py --check FST [--values] [--gtkwave] [same options]

A special message's layout (docs/microarchitecture.md 12.1,
rtl/spin_sm_layout.svh) depends on the router's IdW and CycW, and the FSM's
counters on TddW.  They are read from the parameters of the router in the
FST (--fst, or the FST of --check); with no FST, from the -G flags the
co-simulation routers are built with (ARRAY_SM in the Makefile).  --check
also compares the layout the views cut with the RTL's (the localparams of
spin_unit in the FST) and --ports/--vcs/--flitw with the router's.

--check reads the FST's hierarchy (fst2vcd, from the gtkwave package) and
checks that every signal both views name exists there with the width the view
assumes and that every bit a view picks lies inside it.  --values also reads
the value changes and checks that the fields the views split out hold legal
values (link kind 0..5, a head bit only on a flit, VC fields below --vcs,
FSM state 0..6; on a special message a sender below the router count, a
probe's cycles at most CycMax and its first port below --ports, a move's
delay at most 2 lc + 2, the bits above the message 0), which fails if a
field is cut at the wrong bits.  --gtkwave also loads both views in GTKWave
on a virtual display (xvfb-run) and counts the traces it shows, since GTKWave
leaves out a trace it cannot resolve without a word.  The check writes its
copies of the views beside the FST.

Constants come from rtl/spin_pkg.sv (link word, credit word; checked against
it) and docs/microarchitecture.md (sections 2 and 12.1).  Standard library
only.
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---- constants of rtl/spin_pkg.sv (checked against it by pkg_check) ----
PKG = {"CtlW": 7, "CredW": 6, "VcW": 2, "KindW": 3, "OccW": 3, "MaxPktLen": 5,
       "MaxPorts": 16, "MaxVcs": 4, "SmFkW": 6, "SpinSettle": 6, "StateW": 3}
BUF_DEPTH = 5                        # spin_router's default, used by the co-simulation
KINDS = ["idle", "flit", "probe", "move", "probe_move", "kill_move"]
STATES = ["OFF", "DD", "MOVE", "PROBE_MOVE", "FORWARD_PROGRESS", "KILL_MOVE", "FROZEN"]
MESH_PORTS = ["nic", "east", "west", "north", "south"]
FORKS_SHOWN = 4                      # fork entries shown one by one (V > 1)
# the largest hop (12.1): a link of 1,024 cycles (XlatW 10, the
# co-simulation's), then SmPipe 2, plus one
HOP_MAX = 1027
# spin_router's parameters the views depend on, and the localparams of
# spin_sm_layout.svh that --check compares with the layout computed here
WIDTH_PARAMS = ("IdW", "CycW", "TddW")
LAYOUT_PARAMS = ("SmTLsb", "SmXLsb", "SmFkLsb", "SmChW", "SmForkLsb", "SmK", "SmW", "SmCycMax")

# GTKWave trace flags (the @ lines)
F_HEX, F_DEC, F_BIN, F_RJUST, F_COMMENT, F_FILTER = 0x2, 0x4, 0x8, 0x20, 0x200, 0x2000
HEX, DEC, BIN = F_RJUST | F_HEX, F_RJUST | F_DEC, F_RJUST | F_BIN


def pkg_check():
    """Stop if rtl/spin_pkg.sv no longer says what PKG and STATES assume."""
    path = os.path.join(ROOT, "rtl", "spin_pkg.sv")
    text = open(path).read()
    for name, val in PKG.items():
        m = re.search(r"localparam int unsigned %s\s*=\s*(\d+)\s*;" % name, text)
        if not m or int(m.group(1)) != val:
            sys.exit("gtkw.py: %s: %s is not %d any more; update PKG" % (path, name, val))
    m = re.search(r"typedef enum logic \[(?:2|StateW-1):0\] \{(.*?)\}\s*spin_state_e;", text, re.S)
    names = [s.strip() for s in m.group(1).split(",")] if m else []
    if len(names) != len(STATES):
        sys.exit("gtkw.py: %s: spin_state_e has %d states, expected %d; update STATES"
                 % (path, len(names), len(STATES)))


def clog2(n):
    return max(0, (n - 1).bit_length())


class Layout:
    """A special message's fields in the data word (12.1) and the SPIN
    registers' widths, for a router of ports x vcs, FlitW flitw and the
    build's IdW, CycW, TddW: rtl/spin_sm_layout.svh and spin_unit.sv in
    Python (--check compares them with the RTL's localparams in the FST)."""

    def __init__(self, ports, vcs, flitw, widths):
        self.idw, self.cycw, self.tddw = (widths[k] for k in WIDTH_PARAMS)
        self.t_lsb = self.idw
        self.x_lsb = self.t_lsb + self.cycw
        self.fk_lsb = self.x_lsb + self.cycw
        self.chw = clog2(vcs) if vcs > 1 else 1
        self.fork_lsb = self.fk_lsb + (PKG["SmFkW"] if vcs > 1 else 0)
        kfit = (flitw - self.fork_lsb) // self.chw if flitw > self.fork_lsb else 0
        self.k = min(kfit, 63) if vcs > 1 else 0
        self.w = self.fork_lsb + self.k * self.chw
        self.cyc_max = ((1 << self.cycw) - 3) // 2
        self.cntw = max(self.tddw, self.cycw + 1)
        self.epw = self.tddw + 2
        self.forkw = self.k * self.chw if vcs > 1 else 1

    def params(self):
        """The values of LAYOUT_PARAMS."""
        return {"SmTLsb": self.t_lsb, "SmXLsb": self.x_lsb, "SmFkLsb": self.fk_lsb,
                "SmChW": self.chw, "SmForkLsb": self.fork_lsb, "SmK": self.k, "SmW": self.w,
                "SmCycMax": self.cyc_max}


def makefile_widths():
    """IdW, CycW, TddW of the -G flags the co-simulation routers are built
    with (ARRAY_SM in the Makefile)."""
    path = os.path.join(ROOT, "Makefile")
    m = re.search(r"^ARRAY_SM\s*:=(.*)$", open(path).read(), re.M)
    flags = dict(re.findall(r"-G(\w+)=(\d+)", m.group(1))) if m else {}
    missing = [k for k in WIDTH_PARAMS if k not in flags]
    if missing:
        sys.exit("gtkw.py: %s: ARRAY_SM sets no %s; give --fst" % (path, ", ".join(missing)))
    return {k: int(flags[k]) for k in WIDTH_PARAMS}, "ARRAY_SM of the Makefile"


def fst_params(fst, router):
    """The parameters of spin_router, and the layout localparams of its
    spin_unit, of router_<router> in the FST (of the first router that has
    them when that one is not in it): {name: value}, or None when no router
    of the FST has SPIN built."""
    proc = subprocess.Popen(["fst2vcd", fst], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    scope, want, ids = [], {}, {}
    own = "router_%d" % router
    for line in proc.stdout:
        t = line.split()
        if not t:
            continue
        if t[0] == "$scope":
            scope.append(t[2])
        elif t[0] == "$upscope":
            scope.pop()
        elif t[0] == "$var" and t[1] == "parameter" and len(scope) >= 2 \
                and scope[1] == "spin_router" and scope[0].startswith("router_"):
            name = t[4]
            inner = scope[2:]
            if (not inner and name in ("NumPorts", "NumVcs", "FlitW", "Spin") + WIDTH_PARAMS) \
                    or (inner == ["gen_spin", "u_spin"] and name in LAYOUT_PARAMS):
                want.setdefault(scope[0], []).append((t[3], name))
        elif t[0] == "$enddefinitions":
            break
    # the values: the dump of time 0, up to the next time
    stamps = 0
    for line in proc.stdout:
        if line.startswith("#"):
            stamps += 1
            if stamps > 1:
                break
            continue
        tok = line.split()
        if len(tok) == 2 and tok[0][:1] == "b" and re.fullmatch("[01]+", tok[0][1:]):
            ids[tok[1]] = int(tok[0][1:], 2)
    proc.kill()
    proc.wait()
    order = [own] + sorted(r for r in want if r != own)
    for r in order:
        if r in want:
            vals = {name: ids[i] for i, name in want[r] if i in ids}
            if vals.get("Spin") == 1 and all(k in vals for k in WIDTH_PARAMS):
                return vals
    return None


class Sig:
    """A signal of the dump: full name and width (GTKWave's naming: a vector
    is name[msb:0], a one-bit vector name[0], a scalar just name)."""

    def __init__(self, path, width, scalar=False):
        self.path, self.width, self.scalar = path, width, scalar

    def name(self):
        if self.scalar:
            return self.path
        if self.width == 1:
            return "%s[0]" % self.path
        return "%s[%d:0]" % (self.path, self.width - 1)


class View:
    """The lines of one save file, and what each labelled trace holds (its
    role and the word it is cut from, for --check --values)."""

    def __init__(self, filters, ports, vcs, lay):
        self.lines = []
        self.flags = None
        self.filters = filters       # name -> (index, path of the filter file)
        self.ports, self.vcs, self.lay = ports, vcs, lay
        self.meta = {}               # label -> (role, group)

    def _flags(self, f):
        if f != self.flags:
            self.lines.append("@%x" % f)
            self.flags = f

    def _label(self, label, role, group):
        assert label not in self.meta, label
        self.meta[label] = (role or label.split()[0], group)

    def comment(self, text=""):
        self._flags(F_COMMENT)
        self.lines.append("-" + text)

    def sig(self, s, fmt=HEX, label=None, role=None, group=None, filt=None):
        if filt:
            self.field(label or s.path.rsplit(".", 1)[1], s, 0, s.width, fmt, filt, role, group)
            return
        if label:
            self._label(label, role, group)
        self._flags(BIN if s.width == 1 and fmt == HEX else fmt)
        self.lines.append(("+{%s} " % label if label else "") + s.name())

    def field(self, label, s, lo, width, fmt=HEX, filt=None, role=None, group=None):
        """Bits [lo+width-1:lo] of s, under label.  A field that is the whole
        signal is shown as the signal itself."""
        assert 0 <= lo and lo + width <= s.width, (s.path, lo, width)
        self._label(label, role, group)
        if filt:
            idx, path = self.filters[filt]
            self._flags(fmt | F_FILTER)
            self.lines.append("^%d %s" % (idx, path))
            self.flags = None        # the next trace states its own flags
        else:
            self._flags(BIN if width == 1 and fmt == HEX else fmt)
        if lo == 0 and width == s.width and not filt:
            self.lines.append("+{%s} %s" % (label, s.name()))
            return
        msb = s.width - 1
        bits = " ".join("(%d)%s" % (msb - b, s.name()) for b in range(lo + width - 1, lo - 1, -1))
        self.lines.append("#{%s} %s" % (label, bits))

    def sm_fields(self, s, base, name, kind_lo=None):
        """The fields of a special message whose data word starts at bit
        base of s (12.1), labelled '<field> <name>'; with kind_lo, its kind
        first (from bit kind_lo of s)."""
        L = self.lay
        if kind_lo is not None:
            self.field("kind %s" % name, s, kind_lo, PKG["KindW"], DEC, filt="kind",
                       role="smkind", group=name)
        self.field("sender %s" % name, s, base, L.idw, DEC, group=name)
        self.field("t %s" % name, s, base + L.t_lsb, L.cycw, DEC, group=name)
        self.field("x %s" % name, s, base + L.x_lsb, L.cycw, DEC, group=name)
        if self.vcs > 1:
            self.field("fk %s" % name, s, base + L.fk_lsb, PKG["SmFkW"], DEC, group=name)
            for i in range(min(FORKS_SHOWN, L.k)):
                self.field("fork[%d] %s" % (i, name), s, base + L.fork_lsb + i * L.chw, L.chw,
                           DEC, role="fork", group=name)


def port_name(ports, p):
    return "%d %s" % (p, MESH_PORTS[p]) if ports == 5 else ("0 nic" if p == 0 else "%d" % p)


def header(title, args, view):
    cmd = "scripts/gtkw.py --ports %d --vcs %d --flitw %d --router %d" % (
        args.ports, args.vcs, args.flitw, args.router)
    return [
        "[*] Generated by scripts/gtkw.py; do not edit (make waves writes it anew).",
        "[*] %s of router_%d: %d ports, %d VC(s), FlitW %d (%s)." % (
            title, args.router, args.ports, args.vcs, args.flitw, cmd),
        "[*] Special messages: IdW %d, CycW %d (TddW %d), from %s; SmW %d, fork entries %d." % (
            args.lay.idw, args.lay.cycw, args.lay.tddw, args.widths_src, args.lay.w, args.lay.k),
        "[*] Open: make waves TOPO=<topo>%s (the FST of make sim WAVES=1)." % (
            " VIEW=spin" if view == "spin" else ""),
        "[*] Time: 1 cycle = 10 ps; the registers of cycle N show from 10*N+25 ps on.",
        "[*] Labels in #{...} and +{...}; the signals after them are the FST's.",
        "[timestart] %d" % (CYCLE_PS * args.wave_from),
        "[size] 1400 900",
        "[pos] -1 -1",
        "*%.6f %d " % (zoom(args), marker_time(args)) + " ".join(["-1"] * 26),
        "[sst_width] 200",
        "[signals_width] 300",
        "[sst_expanded] 0",
        "[sst_vpaned_height] 250",
    ]


# Waveform time of a cycle (tb/cosim.cpp: 1 cycle = 10 ps; the registers of
# cycle N show from 10*N + 25 ps on), and the width in pixels of the wave
# pane of the window the save file asks for ([size] less the two name panes).
CYCLE_PS, REG_OFFSET_PS, WAVE_PANE_PX = 10, 25, 900
# The window opened on a recovery: from a little before its detection to a
# little after its last spin.
LAND_BEFORE, LAND_AFTER = 150, 100


def zoom(args):
    """GTKWave's zoom: 2**-zoom time units per pixel, so that the window
    wave_from..wave_to fills the wave pane (the whole run when no window)."""
    if args.wave_to is None:
        return -6.0                        # 64 ps a pixel: about 6,000 cycles
    span = CYCLE_PS * max(1, args.wave_to - args.wave_from)
    return -math.log2(span / WAVE_PANE_PX)


def marker_time(args):
    """The primary marker: on the registers of cycle args.marker, or none."""
    return -1 if args.marker is None else CYCLE_PS * args.marker + REG_OFFSET_PS


def land_on_deadlock(a, path):
    """Set the window (and the router, unless given) from the first recovery
    recorded in a deadlocks.json (make sim).  Returns a line saying where the
    view lands, or why it does not."""
    try:
        with open(path) as f:
            rec = json.load(f)
        dl = rec["deadlocks"]
        first = dl[0] if dl else None
        if first is not None:
            det, fs, ls, src = (int(first[k]) for k in ("detected", "first_spin", "last_spin", "source"))
    except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
        return "waves: %s: not a deadlock record (%s); the view opens at cycle 0" % (path, e)
    if first is None:
        return "waves: %s: no deadlock resolved in this run; the view opens at cycle 0" % path
    if a.wave_from is None:
        a.wave_from = max(0, det - LAND_BEFORE)
        a.wave_to = ls + LAND_AFTER
    if a.marker is None:
        a.marker = fs
    if a.router is None:
        a.router = src
    return ("waves: the first recovery: router %d detected a loop of %d at cycle %d, spins at "
            "cycles %d..%d; view of router_%d, cycles %d..%d, marker on cycle %d"
            % (src, len(first.get("loop", [])), det, fs, ls, a.router, a.wave_from,
               a.wave_to if a.wave_to is not None else -1, a.marker))


class Router:
    """Names and widths of the signals of one spin_router instance."""

    def __init__(self, a):
        self.a = a
        P = a.ports
        self.lay = a.lay
        self.link_w = a.flitw + PKG["CtlW"]
        self.port_w = clog2(P)
        self.cnt_w = clog2(BUF_DEPTH + 1)
        r = "router_%d.spin_router" % a.router
        self.top = r
        self.clk = Sig(r + ".clk_i", 1, scalar=True)
        self.rst = Sig(r + ".rst_ni", 1, scalar=True)
        self.flit_i = Sig(r + ".flit_i", P * self.link_w)
        self.flit_o = Sig(r + ".flit_o", P * self.link_w)
        self.credit_i = Sig(r + ".credit_i", P * PKG["CredW"])
        self.credit_o = Sig(r + ".credit_o", P * PKG["CredW"])
        self.unit = r + ".gen_spin.u_spin"
        self.fsm = self.unit + ".u_fsm"

    def vec(self, name, width):
        return Sig("%s.%s" % (self.top, name), width)

    def link_fields(self, v, s, p, d, spin):
        """The fields of the link word of port p on s (flit_i or flit_o, d
        'in' or 'out'): kind, a flit's head, tail, vc and data (not in the
        SPIN view), a special message's fields (network ports)."""
        F, L = self.a.flitw, self.link_w
        g = "%s %s" % (d, port_name(self.a.ports, p))
        base = p * L
        v.field("kind %s" % g, s, base + F + 4, PKG["KindW"], DEC, filt="kind", group=g)
        if not spin:
            v.field("head %s" % g, s, base + F + 3, 1, group=g)
            v.field("tail %s" % g, s, base + F + 2, 1, group=g)
            v.field("vc %s" % g, s, base + F, PKG["VcW"], DEC, group=g)
            v.field("data[63:0] %s" % g, s, base, min(64, F), group=g)
        if p > 0:
            v.sm_fields(s, base, g)

    def credit_fields(self, v, s, p, d, spin):
        C, g = PKG["CredW"], "%s %s" % (d, port_name(self.a.ports, p))
        if spin:
            v.field("arm %s" % g, s, p * C + 3, 1)
            v.field("arm_vc %s" % g, s, p * C + 4, 2, DEC)
        else:
            v.field("valid %s" % g, s, p * C + 2, 1)
            v.field("credit_vc %s" % g, s, p * C, 2, DEC, role="vc")


def router_view(a, filters):
    R = Router(a)
    P, V = a.ports, a.vcs
    v = View(filters, P, V, a.lay)
    v.comment("router_%d clock, reset" % a.router)
    v.sig(R.clk)
    v.sig(R.rst)
    for title, d, flit, cred in (("INPUTS (flit_i, credit_i)", "in", R.flit_i, R.credit_i),
                                 ("OUTPUTS (link registers flit_o, credit_o)", "out", R.flit_o,
                                  R.credit_o)):
        v.comment()
        v.comment(title)
        v.comment("kind: idle, flit, probe, move, probe_move, kill_move")
        v.comment("a flit: head, tail, vc, data; a special message (network ports):")
        v.comment("sender, t (probe cyc / delay), x (probe p0 / lc)%s"
                  % (", fk, fork[i]" if V > 1 else ""))
        for p in range(P):
            v.comment("link %s" % port_name(P, p))
            R.link_fields(v, flit, p, d, spin=False)
        v.comment("credit: valid, vc")
        for p in range(P):
            R.credit_fields(v, cred, p, d, spin=False)
        if d == "in":
            v.comment()
            v.comment("VC STATE per input port")
            for p in range(P):
                u = "gen_input[%d].u_input" % p
                pn = port_name(P, p)
                v.comment("in %s: %s" % (pn, u))
                cnt = R.vec(u + ".cnt", V * R.cnt_w)
                rv = R.vec(u + ".route_valid_q", V)
                op = R.vec(u + ".out_port_q", V * R.port_w)
                ov = R.vec(u + ".out_vc_q", V * PKG["VcW"])
                for c in range(V):
                    sfx = "%s vc%d" % (pn, c) if V > 1 else pn
                    v.field("cnt %s" % sfx, cnt, c * R.cnt_w, R.cnt_w, DEC)
                    v.field("route_valid_q %s" % sfx, rv, c, 1)
                    v.field("out_port_q %s" % sfx, op, c * R.port_w, R.port_w, DEC)
                    v.field("out_vc_q %s" % sfx, ov, c * PKG["VcW"], PKG["VcW"], DEC)
            v.comment()
            v.comment("SWITCH ALLOCATION (bit p = port p)")
            v.comment("input p requests / its output")
            v.sig(R.vec("req", P), BIN)
            for p in range(P):
                v.sig(R.vec("gen_input[%d].u_input.req_port_o" % p, R.port_w), DEC,
                      label="req_port_o %s" % port_name(P, p))
            v.comment("input p won / output o granted")
            v.sig(R.vec("gnt", P), BIN)
            v.sig(R.vec("win_valid", P), BIN)
            v.comment("winning input of output o")
            for o in range(P):
                v.sig(R.vec("u_switch_alloc.gen_out[%d].u_arb.gnt_idx_o" % o, R.port_w), DEC,
                      label="gnt_idx_o %s" % port_name(P, o))
            v.comment("head took a VC of output o")
            v.sig(R.vec("alloc", P), BIN)
            v.comment("output o has a free VC")
            v.sig(R.vec("port_free", P), BIN)
            v.comment()
            v.comment("LFSR, inputs that drew from it")
            v.sig(R.vec("lfsr", 32))
            v.sig(R.vec("drew", P), BIN)
    return v


def spin_fsm_rows(v, R, a):
    """The clock, reset, SPIN's switch and the FSM's registers."""
    L = a.lay
    fsm = R.fsm
    v.comment("router_%d clock, reset, SPIN on" % a.router)
    v.sig(R.clk)
    v.sig(R.rst)
    v.sig(Sig(R.top + ".cfg_spin_i", 1, scalar=True))
    v.comment()
    v.comment("FSM (u_fsm registers)")
    v.sig(Sig(fsm + ".state_q", 3), DEC, label="state", filt="state")
    v.sig(Sig(fsm + ".cnt_q", L.cntw), DEC, label="cnt_q")
    v.sig(Sig(fsm + ".dd_port_q", clog2(a.ports)), DEC, label="dd_port_q", role="port")
    v.sig(Sig(fsm + ".dd_vc_q", 2), DEC, label="dd_vc_q", role="vc")
    v.sig(Sig(fsm + ".is_deadlock_q", 1, scalar=True))
    v.sig(Sig(fsm + ".source_id_q", L.idw), DEC, label="source_id_q", role="id")
    v.sig(Sig(fsm + ".pm_sent_q", 1, scalar=True))
    v.comment("rotating priority: top router, cycles left in the epoch")
    v.sig(Sig(fsm + ".top_q", L.idw), DEC, label="top_q", role="id")
    v.sig(Sig(fsm + ".ep_q", L.epw), DEC)


def spin_loop_rows(v, R, a):
    """The loop buffer, where the move went, and each input VC's state."""
    P, V, L = a.ports, a.vcs, a.lay
    MV = PKG["MaxVcs"]
    fsm = R.fsm
    v.comment()
    v.comment("LOOP BUFFER: cycles, first output%s" % (", fork entries" if V > 1 else ""))
    lb = fsm + ".u_loop_buf"
    v.sig(Sig(lb + ".cyc_q", L.cycw), DEC, label="cyc_q", role="cyc")
    v.sig(Sig(lb + ".port0_q", clog2(P)), DEC, label="port0_q", role="port")
    if V > 1:
        v.sig(Sig(lb + ".gen_forks.fk0_q", PKG["SmFkW"]), DEC, label="fk0_q", role="fk")
        fork = Sig(lb + ".gen_forks.fork_q", L.forkw)
        for i in range(min(FORKS_SHOWN, L.k)):
            v.field("fork_q[%d]" % i, fork, i * L.chw, L.chw, DEC, role="fork")
        v.sig(fork, HEX)
    v.comment("where the move went, per input p (loop_out_q)")
    PW = clog2(P)   # a port number (the router's PortW)
    lo = Sig(fsm + ".loop_out_q", P * PW)
    for p in range(1, P):
        v.field("loop_out_q %s" % port_name(P, p), lo, p * PW, PW, DEC, role="port")
    v.comment()
    v.comment("PER VC of input p: bit v = VC v")
    frozen = Sig(fsm + ".frozen_q", P * MV)   # the views' entries p*MaxVcs + v
    armed = Sig(fsm + ".armed_q", P * MV)
    spinning = Sig(fsm + ".spinning_q", P * MV)
    for p in range(1, P):
        pn = port_name(P, p)
        v.field("frozen %s" % pn, frozen, p * MV, V, BIN)
        v.field("armed %s" % pn, armed, p * MV, V, BIN)
        v.field("spinning %s" % pn, spinning, p * MV, V, BIN)


def spin_mark_rows(v, R, a):
    """The probe manager's marks per input."""
    P, V, L = a.ports, a.vcs, a.lay
    v.comment()
    v.comment("PROBE MARKS per input p (u_probe_mgr): sender, cyc, outputs%s"
              % (", fk" if V > 1 else ""))
    pm = R.unit + ".u_probe_mgr"
    mks = Sig(pm + ".mk_sender_q", P * L.idw)
    # a mark's cycles take CycW - 1 bits (a probe forwarded has cyc <= CycMax)
    mkw = L.cycw - 1
    mkc = Sig(pm + ".mk_cyc_q", P * mkw)
    mko = Sig(pm + ".mk_out_q", P * P)
    mkf = Sig(pm + ".mk_fk_q", P * 6)
    for p in range(1, P):
        pn = port_name(P, p)
        v.field("mark_sender %s" % pn, mks, p * L.idw, L.idw, DEC, role="id")
        v.field("mark_cyc %s" % pn, mkc, p * mkw, mkw, DEC, role="cyc")
        v.field("mark_out %s" % pn, mko, p * P, P, BIN)
        if V > 1:
            v.field("mark_fk %s" % pn, mkf, p * 6, 6, DEC, role="fk")


def spin_stage_rows(v, R, a):
    """The special messages' input stage, the message handled, the output
    stage."""
    P, L = a.ports, a.lay
    KW, PW = PKG["KindW"], clog2(P)
    unit = R.unit
    v.comment()
    v.comment("INPUT STAGE: smi_q (u_sm_in: port_q, kind_q, data_q)")
    smi = unit + ".u_sm_in"
    v.sig(Sig(smi + ".port_q", PW), DEC, label="port smi_q", role="port")
    v.sig(Sig(smi + ".kind_q", KW), DEC, label="kind smi_q", role="smkind", group="smi_q",
          filt="kind")
    v.sm_fields(Sig(smi + ".data_q", L.w), 0, "smi_q")
    v.comment("the message handled, its hop counted; taken by the FSM (home),")
    v.comment("forwarded by a manager, or a loop adopted")
    v.sig(Sig(unit + ".h_valid", 1, scalar=True))
    v.sig(Sig(unit + ".h_port", PW), DEC, label="port handled", role="port")
    v.sig(Sig(unit + ".h_kind", KW), DEC, label="kind handled", role="smkind", group="handled",
          filt="kind")
    v.sm_fields(Sig(unit + ".h_data", a.flitw), 0, "handled")
    for n in ("home", "pm_fwd", "mm_fwd", "adopt", "mm_freeze"):
        v.sig(Sig(unit + "." + n, 1, scalar=True))
    v.comment()
    v.comment("OUTPUT STAGE: smo_q (u_sm_out): per output o, 0 none, 1 handled, 2 FSM's")
    smo = unit + ".u_sm_out"
    src = Sig(smo + ".src_q", P * 2)
    for o in range(1, P):
        v.field("src_q %s" % port_name(P, o), src, o * 2, 2, DEC, role="src")
    for name in ("fwd_q", "own_q"):
        v.comment("%s: %s" % (name, "the handled message's forwarding" if name == "fwd_q"
                              else "the FSM's own message"))
        v.sm_fields(Sig(smo + "." + name, KW + L.w), 0, name, kind_lo=L.w)
    v.sig(Sig(smo + ".fork_q", P), BIN)


def spin_traffic_rows(v, R, a):
    """Spin flits and special messages on the links, arm notices."""
    P, V = a.ports, a.vcs
    v.comment()
    v.comment("SPIN TRAFFIC (bit p = port p)")
    v.comment("input p sends a spin flit / output o carries it")
    v.sig(R.vec("in_busy", P), BIN)
    v.sig(R.vec("out_busy", P), BIN)
    v.comment("output o sends a special message")
    v.sig(R.vec("sm_valid", P), BIN)
    for title, d, flit, cred in (("IN", "in", R.flit_i, R.credit_i),
                                 ("OUT", "out", R.flit_o, R.credit_o)):
        v.comment()
        v.comment("SPECIAL MESSAGES %s (flit_%s): kind, sender, t, x%s"
                  % (title, d[0], ", fk, fork[i]" if V > 1 else ""))
        for p in range(1, P):
            v.comment("link %s" % port_name(P, p))
            R.link_fields(v, flit, p, d, spin=True)
        v.comment("ARM NOTICES %s (credit_%s): arm, arm_vc" % (title, d[0]))
        for p in range(1, P):
            R.credit_fields(v, cred, p, d, spin=True)


def spin_view(a, filters):
    R = Router(a)
    v = View(filters, a.ports, a.vcs, a.lay)
    spin_fsm_rows(v, R, a)
    spin_loop_rows(v, R, a)
    spin_mark_rows(v, R, a)
    spin_stage_rows(v, R, a)
    spin_traffic_rows(v, R, a)
    return v


def filter_files(out_dir):
    """Translate filter files (value -> name) for the kind and state fields."""
    return {
        "kind": (1, os.path.join(out_dir, "link_kind.flt"), KINDS),
        "state": (2, os.path.join(out_dir, "spin_state.flt"), STATES),
    }


def build(a, out_dir):
    fl = filter_files(os.path.abspath(out_dir))
    filters = {k: (i, p) for k, (i, p, _) in fl.items()}
    views = {"router": ("Router view", router_view(a, filters)),
             "spin": ("SPIN view", spin_view(a, filters))}
    files = {}
    a.meta = {}
    for key, (title, v) in views.items():
        files["%s.gtkw" % key] = "\n".join(header(title, a, key) + v.lines) + "\n"
        a.meta["%s.gtkw" % key] = v.meta
    for key, (_, path, names) in fl.items():
        lines = ["# Generated by scripts/gtkw.py; do not edit. GTKWave translate filter: %s."
                 % key]
        lines += ["%d %s" % (i, n) for i, n in enumerate(names)]
        files[os.path.basename(path)] = "\n".join(lines) + "\n"
    return files


# ---------------------------------------------------------------- the check
def fst_header(fst):
    """name -> (width, id) of every variable, named as GTKWave names them."""
    proc = subprocess.Popen(["fst2vcd", fst], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    sigs, scope = {}, []
    for line in proc.stdout:
        t = line.split()
        if not t:
            continue
        if t[0] == "$scope":
            scope.append(t[2])
        elif t[0] == "$upscope":
            scope.pop()
        elif t[0] == "$var":
            width, ident, name = int(t[2]), t[3], t[4]
            rng = t[5] if len(t) > 6 and t[5].startswith("[") else ""
            if rng:
                m = re.match(r"\[(\d+)(?::(\d+))?\]$", rng)
                if m and m.group(2) is not None and m.group(1) == m.group(2):
                    rng = "[%s]" % m.group(1)
            sigs[".".join(scope + [name]) + rng] = (width, ident)
        elif t[0] == "$enddefinitions":
            break
    return sigs, proc


def parse_view(text):
    """(label, [(signal name, position)]) of every trace; a plain trace is
    the whole signal (position None)."""
    traces = []
    for line in text.splitlines():
        if not line or line[0] in "[*@-^":
            continue
        label = None
        m = re.match(r"[#+]\{([^}]*)\}\s*(.*)$", line)
        if m:
            label, rest = m.group(1), m.group(2)
        else:
            rest = line
        refs = []
        for tok in rest.split():
            mm = re.match(r"\((\d+)\)(.*)$", tok)
            refs.append((mm.group(2), int(mm.group(1))) if mm else (tok, None))
        traces.append((label, refs))
    return traces


def declared_width(name):
    m = re.search(r"\[(\d+)(?::(\d+))?\]$", name)
    if not m:
        return 1
    return 1 if m.group(2) is None else int(m.group(1)) - int(m.group(2)) + 1


def check_params(a, fst):
    """The router's parameters in the FST against --ports/--vcs/--flitw, and
    the RTL's layout localparams against the layout the views cut."""
    P = a.params
    if P is None:
        return ["%s: no router with SPIN built (spin_router's Spin, IdW, CycW, TddW)" % fst]
    errors = []
    for opt, name, val in (("--ports", "NumPorts", a.ports), ("--vcs", "NumVcs", a.vcs),
                           ("--flitw", "FlitW", a.flitw)):
        if name in P and P[name] != val:
            errors.append("%s: the router has %s = %d, the views were made for %s %d"
                          % (fst, name, P[name], opt, val))
    if errors:
        return errors                # the layout follows from them
    mine = a.lay.params()
    for name in LAYOUT_PARAMS:
        if name not in P:
            errors.append("%s: spin_unit's localparam %s is not in it" % (fst, name))
        elif P[name] != mine[name]:
            errors.append("%s: spin_unit's %s is %d, gtkw.py's layout says %d: update Layout"
                          % (fst, name, P[name], mine[name]))
    return errors


def pad_watch(a, sigs):
    """Pseudo-fields for --values: the data bits above a special message
    (SmW and up) of every network link word, which must be 0 on one."""
    R = Router(a)
    L, F, LW = a.lay, a.flitw, R.link_w
    out = []
    for d, s in (("in", R.flit_i), ("out", R.flit_o)):
        if s.name() not in sigs or F <= L.w:
            continue
        width, ident = sigs[s.name()]
        for p in range(1, a.ports):
            g = "%s %s" % (d, port_name(a.ports, p))
            ids = [(ident, width, width - 1 - b) for b in range(p * LW + F - 1, p * LW + L.w - 1, -1)]
            out.append(("router.gtkw", "pad %s" % g, ids))
    return out


def check(a, fst, values, gtkwave):
    out_dir = os.path.join(os.path.dirname(os.path.abspath(fst)), "gtkw-check")
    files = build(a, out_dir)
    sigs, proc = fst_header(fst)
    errors, ntraces, seen = check_params(a, fst), 0, set()
    watch = []                                  # (view, label, [(id, pos)]) for --values
    for view in ("router.gtkw", "spin.gtkw"):
        for label, refs in parse_view(files[view]):
            ntraces += 1
            ids = []
            for name, pos in refs:
                if name not in sigs:
                    if name not in seen:
                        errors.append("%s: %s: not in %s" % (view, name, fst))
                    seen.add(name)
                    continue
                width, ident = sigs[name]
                if width != declared_width(name):
                    if name not in seen:
                        errors.append("%s: %s: %d bits in the FST" % (view, name, width))
                    seen.add(name)
                elif pos is not None and not 0 <= pos < width:
                    errors.append("%s: %s: bit position %d outside it" % (view, name, pos))
                ids.append((ident, width, pos))
            if label and len(ids) == len(refs):
                watch.append((view, label, ids))
    checked = ""
    if not values or errors:
        proc.kill()
        proc.wait()
    else:
        a.meta["router.gtkw"].update({"pad %s %s" % (d, port_name(a.ports, p)):
                                      ("pad", "%s %s" % (d, port_name(a.ports, p)))
                                      for d in ("in", "out") for p in range(1, a.ports)})
        nodes = len({m.group(1) for m in (re.match(r"router_(\d+)\.spin_router\.clk_i$", n)
                                          for n in sigs) if m})
        errs, nsm = check_values(a, proc, watch + pad_watch(a, sigs), nodes)
        errors += errs
        checked = ", field values legal (%d special-message words on router_%d's links)" % (
            nsm, a.router)
    loaded = ""
    if gtkwave and not errors:
        loaded = gtkwave_load(fst, out_dir, files, errors)
    for e in errors[:40]:
        print("gtkw check: " + e)
    if errors:
        print("gtkw check: FAILED, %d error(s) (%s, --ports %d --vcs %d --router %d)"
              % (len(errors), fst, a.ports, a.vcs, a.router))
        return 1
    print("gtkw check: %d traces of router.gtkw and spin.gtkw found in %s (IdW %d, CycW %d)%s%s"
          % (ntraces, fst, a.lay.idw, a.lay.cycw, checked, loaded))
    return 0


def check_landing(a, fst):
    """The window the view lands on (--from/--to, or --deadlocks) shows a
    recovery: the shown router's SPIN FSM spins in it (FORWARD_PROGRESS,
    then the spin, within the window).  Returns a list of errors."""
    if a.wave_to is None:
        return ["--expect-recovery: no window (give --deadlocks with a recovery, or --from/--to)"]
    sigs, proc = fst_header(fst)
    name = Sig(Router(a).fsm + ".state_q", 3).name()
    found = [sigs[name]] if name in sigs else []
    if not found:
        proc.kill()
        proc.wait()
        return ["--expect-recovery: %s not in %s" % (name, fst)]
    width, ident = found[0]
    t0, t1 = CYCLE_PS * a.wave_from, CYCLE_PS * a.wave_to
    t, states, last = 0, [], None
    for line in proc.stdout:
        if line.startswith("#"):
            t = int(line[1:])
            if t > t1:
                break
            continue
        tok = line.split()
        if len(tok) == 2 and tok[1] == ident and tok[0][:1] == "b":
            bits = tok[0][1:].rjust(width, "0")
            st = int(bits[:3], 2) if set(bits[:3]) <= {"0", "1"} else -1
            if t < t0:
                last = st
            elif not states or states[-1][1] != st:
                states.append((t, st))
    proc.kill()
    proc.wait()
    if last is not None and not (states and states[0][1] == last):
        states.insert(0, (t0, last))
    names = [STATES[s] if 0 <= s < len(STATES) else "X" for _, s in states]
    fp = STATES.index("FORWARD_PROGRESS")
    if fp not in [s for _, s in states] or names[-1] == "FORWARD_PROGRESS":
        return ["router_%d's FSM in cycles %d..%d: %s, no spin in the window"
                % (a.router, a.wave_from, a.wave_to, " -> ".join(names) or "no change")]
    print("gtkw check: router_%d's FSM in cycles %d..%d: %s" % (
        a.router, a.wave_from, a.wave_to, " -> ".join(names)))
    return []


def gtkwave_load(fst, out_dir, files, errors):
    """Load each view in GTKWave (on a virtual display) and count the traces
    it shows: a trace GTKWave cannot resolve is left out silently."""
    if not shutil.which("xvfb-run") or not shutil.which("gtkwave"):
        return "; GTKWave load skipped (no xvfb-run)"
    os.makedirs(out_dir, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(text)
    tcl = os.path.join(out_dir, "count.tcl")
    with open(tcl, "w") as f:
        f.write("puts \"TRACES [gtkwave::getTotalNumTraces]\"\ngtkwave::/File/Quit\n")
    for view in ("router.gtkw", "spin.gtkw"):
        want = sum(1 for line in files[view].splitlines() if line[:1] in "#+-r")
        try:
            r = subprocess.run(["xvfb-run", "-a", "gtkwave", "-S", tcl, fst,
                                os.path.join(out_dir, view)],
                               capture_output=True, text=True, timeout=120)
            m = re.search(r"^TRACES (\d+)", r.stdout, re.M)
        except subprocess.TimeoutExpired:
            m = None
        if not m:
            errors.append("%s: GTKWave did not load it" % view)
        elif int(m.group(1)) != want:
            errors.append("%s: GTKWave shows %s traces of %d" % (view, m.group(1), want))
    return "; GTKWave shows every trace of both"


# Waveform time by which the first clock edge under reset has cleared every
# control register (1 cycle = 10 ps, edges at 5 ps and so on).
RESET_PS = 10


class ValueChecker:
    """The split fields' values, checked each time one of their signals
    changes (a field of a special message when its word's kind says it is
    one), from the value changes of fst2vcd fed line by line."""

    def __init__(self, a, watch, nodes):
        V, P, L = a.vcs, a.ports, a.lay
        self.a, self.nodes, self.P, self.L = a, nodes, P, L
        self.limit = {"kind": len(KINDS) - 1, "state": len(STATES) - 1, "vc": V - 1,
                      "arm_vc": V - 1, "out_vc_q": V - 1, "port": P - 1, "loop_out_q": P - 1,
                      "id": nodes - 1, "cyc": L.cyc_max, "fk": L.k, "src": 2}
        self.fields = []                        # [view, label, role, group, ids]
        self.by_id, self.kind_of, self.members = {}, {}, {}
        for view, label, ids in watch:
            role, group = a.meta[view].get(label, (label.split()[0], None))
            i = len(self.fields)
            self.fields.append((view, label, role, group, ids))
            for ident, width, _ in ids:
                self.by_id.setdefault(ident, (width, set()))[1].add(i)
            if group is not None:
                self.members.setdefault((view, group), []).append(i)
                if role in ("kind", "smkind"):
                    self.kind_of[(view, group)] = i
        self.cur = {}
        self.time, self.dirty, self.errors = 0, set(), []
        self.seen_kind, self.sms = set(), set()

    def value(self, ids):
        bits = ""
        for ident, width, pos in ids:
            s = self.cur.get(ident, "0" * width)
            bits += s if pos is None else s[pos]
        return None if re.search("[^01]", bits) else int(bits, 2)

    def bad(self, i, val, why):
        self.errors.append("%s: %s = %d at %d ps (%s)"
                           % (self.fields[i][0], self.fields[i][1], val, self.time, why))

    def check_group(self, key, kind):
        """The fields of one special message (kind 2..5)."""
        L, P, nodes, bad = self.L, self.P, self.nodes, self.bad
        vals = {}
        for i in self.members.get(key, []):
            role = self.fields[i][2]
            vals[role] = (i, self.value(self.fields[i][4]))
        if any(v is None for _, v in vals.values()):
            return
        handled = key[1] == "handled"
        if "sender" in vals and vals["sender"][1] >= nodes:
            bad(vals["sender"][0], vals["sender"][1], "%d routers" % nodes)
        if "pad" in vals and vals["pad"][1]:
            bad(vals["pad"][0], vals["pad"][1], "bits above SmW %d of a special message" % L.w)
        if "fk" in vals and vals["fk"][1] > L.k:
            bad(vals["fk"][0], vals["fk"][1], "at most K %d" % L.k)
        if "t" in vals and "x" in vals:
            (ti, t), (xi, x) = vals["t"], vals["x"]
            if kind == 2:
                tmax = L.cyc_max + (HOP_MAX if handled else 0)
                if t > tmax:
                    bad(ti, t, "a probe's cycles, at most %d" % tmax)
                if x >= P:
                    bad(xi, x, "a probe's first port, below %d" % P)
            else:
                if x > L.cyc_max:
                    bad(xi, x, "a loop's cycles lc, at most CycMax %d" % L.cyc_max)
                elif t > 2 * x + 2:
                    bad(ti, t, "a delay, at most 2 lc + 2 = %d" % (2 * x + 2))

    def check_fields(self):
        """Each changed field on its own; returns the special-message words
        (view, group) whose fields changed."""
        groups = set()
        for i in self.dirty:
            view, label, role, group, ids = self.fields[i]
            val = self.value(ids)
            if val is None:
                continue
            if group is not None and (view, group) in self.kind_of:
                groups.add((view, group))
            if role == "smkind" and val not in (0, 2, 3, 4, 5):
                self.bad(i, val, "a special message's kind, 0 or 2..5")
            elif role in self.limit and (group is None or role in ("kind", "vc")) \
                    and val > self.limit[role]:
                self.bad(i, val, "at most %d" % self.limit[role])
            if role == "kind" and val:
                self.seen_kind.add(val)
        return groups

    def settle(self):
        """The values at the end of a time step."""
        # Before reset has cleared them (the first three cycles are reset),
        # registers hold their random power-up values: nothing to check.
        if self.time < RESET_PS:
            self.dirty.clear()
            return
        for key in self.check_fields():
            k = self.value(self.fields[self.kind_of[key]][4])
            if k is None:
                continue
            if 2 <= k <= 5:
                self.check_group(key, k)
                if key[0] != "spin.gtkw" and not key[1].endswith("_q") and key[1] != "handled":
                    self.sms.add((key[1], self.time))
            for i in self.members[key]:
                if self.fields[i][2] == "head" and self.value(self.fields[i][4]) == 1 and k != 1:
                    self.errors.append("%s: head %s set with kind %d at %d ps"
                                       % (key[0], key[1], k, self.time))
        self.dirty.clear()

    def feed(self, line):
        """One line of the value changes."""
        c = line[:1]
        if c == "#":
            self.settle()
            self.time = int(line[1:])
        elif c in "bB":
            val, ident = line[1:].split()
            if ident in self.by_id:
                width, idx = self.by_id[ident]
                pad = "x" if val[0] in "xz" else "0"
                self.cur[ident] = (val.rjust(width, pad))[-width:]
                self.dirty.update(idx)
                for i in idx:                   # a kind changed: its word's fields
                    g = self.fields[i][3]
                    if g is not None and self.fields[i][2] in ("kind", "smkind"):
                        self.dirty.update(self.members[(self.fields[i][0], g)])
        elif c in "01xzXZ" and len(line) > 1:
            ident = line[1:].strip()
            if ident in self.by_id:
                self.cur[ident] = c
                self.dirty.update(self.by_id[ident][1])

    def finish(self):
        """After the last line: the errors, and the number of special
        messages seen on the shown router's links."""
        router = self.a.router
        if 1 not in self.seen_kind:
            self.errors.append("no flit (kind 1) on any link of router_%d: is it in the run?"
                               % router)
        if not self.sms:
            self.errors.append("no special message on any link of router_%d: its fields went "
                               "unchecked (a run with SPIN on and a short t_DD has some)" % router)
        return self.errors, len(self.sms)


def check_values(a, proc, watch, nodes):
    """Scan the value changes; check the split fields' values each time one
    of their signals changes (a field of a special message when its word's
    kind says it is one).  Returns the errors and the number of special
    messages seen on the shown router's links."""
    checker = ValueChecker(a, watch, nodes)
    for line in proc.stdout:
        if len(checker.errors) > 20:
            proc.kill()
            break
        checker.feed(line)
    checker.settle()
    proc.wait()
    return checker.finish()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ports", type=int, default=5, help="router radix, NIC included (5)")
    ap.add_argument("--vcs", type=int, default=1, help="VCs per input port (1)")
    ap.add_argument("--flitw", type=int, default=128, help="data bits of a link word (128)")
    ap.add_argument("--router", type=int, default=None,
                    help="router id to show (5, or the first recovery's source with --deadlocks)")
    ap.add_argument("--from", dest="wave_from", type=int, default=None, metavar="CYCLE",
                    help="open the view at this cycle (0)")
    ap.add_argument("--to", dest="wave_to", type=int, default=None, metavar="CYCLE",
                    help="with --from: zoom so that the view ends at this cycle")
    ap.add_argument("--marker", type=int, default=None, metavar="CYCLE",
                    help="put the marker on the registers of this cycle")
    ap.add_argument("--expect-recovery", action="store_true",
                    help="with --check: the window (--deadlocks or --from/--to) must show the "
                         "router's FSM spin")
    ap.add_argument("--deadlocks", metavar="JSON",
                    help="land on the first recovery of this deadlocks.json (make sim): "
                         "window, marker and, unless --router, the router")
    ap.add_argument("--out-dir", help="write router.gtkw, spin.gtkw and the filters here")
    ap.add_argument("--fst", metavar="FST",
                    help="take IdW, CycW, TddW from this waveform's router (default: the FST "
                         "of --check, else ARRAY_SM of the Makefile)")
    ap.add_argument("--check", metavar="FST", help="check both views against this FST")
    ap.add_argument("--values", action="store_true", help="with --check: check field values")
    ap.add_argument("--gtkwave", action="store_true",
                    help="with --check: load both views in GTKWave (xvfb-run) and count traces")
    a = ap.parse_args()
    if not 2 <= a.ports <= PKG["MaxPorts"]:
        ap.error("--ports: 2..%d" % PKG["MaxPorts"])
    if not 1 <= a.vcs <= PKG["MaxVcs"]:
        ap.error("--vcs: 1..%d" % PKG["MaxVcs"])
    for opt, v in (("--router", a.router), ("--from", a.wave_from), ("--to", a.wave_to),
                   ("--marker", a.marker)):
        if v is not None and v < 0:
            ap.error("%s: %d is below 0" % (opt, v))
    if a.wave_to is not None and a.wave_to <= (a.wave_from or 0):
        ap.error("--to: %d is not after --from %d" % (a.wave_to, a.wave_from or 0))
    if a.deadlocks:
        print(land_on_deadlock(a, a.deadlocks))
    if a.router is None:
        a.router = 5
    if a.wave_from is None:
        a.wave_from = 0
    if not a.out_dir and not a.check:
        ap.error("give --out-dir or --check")
    pkg_check()
    fst = a.check or a.fst
    a.params = None
    if fst:
        if not os.path.isfile(fst):
            ap.error("%s: no such waveform" % fst)
        a.params = fst_params(fst, a.router)
        if a.params is None:
            ap.error("%s: no router with SPIN built in it (spin_router's Spin, IdW, CycW, TddW "
                     "parameters)" % fst)
        widths, a.widths_src = {k: a.params[k] for k in WIDTH_PARAMS}, fst
    else:
        widths, a.widths_src = makefile_widths()
    a.lay = Layout(a.ports, a.vcs, a.flitw, widths)
    need = a.lay.fork_lsb + (1 if a.vcs > 1 else 0)
    if a.flitw < need:
        ap.error("--flitw: at least %d for a special message of IdW %d, CycW %d (12.1)"
                 % (need, a.lay.idw, a.lay.cycw))
    if a.out_dir:
        os.makedirs(a.out_dir, exist_ok=True)
        for name, text in build(a, a.out_dir).items():
            with open(os.path.join(a.out_dir, name), "w") as f:
                f.write(text)
    if a.check and a.expect_recovery:
        errors = check_landing(a, a.check)
        for e in errors:
            print("gtkw check: " + e)
        if errors:
            return 1
    if a.check:
        return check(a, a.check, a.values, a.gtkwave)
    return 0


if __name__ == "__main__":
    sys.exit(main())
