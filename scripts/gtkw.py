#!/usr/bin/env python3
"""GTKWave save files for one router of a co-simulation, and their check.

Writes two views of router R (default router_5) of a waveform written by
`make sim WAVES=1` (tb/cosim.cpp --waves):

  router  link words and credits per port, split into fields; VC state per
          input port; switch allocation; the LFSR
  spin    the SPIN unit (rtl/spin_unit.sv): FSM state, counter, watched VC,
          loop buffer, frozen/armed/spinning per VC, special messages and arm
          notices on every link

Usage:
  scripts/gtkw.py --out-dir waves [--ports 5] [--vcs 1] [--flitw 128] [--router 5]
  scripts/gtkw.py --check FST [--values] [--gtkwave] [same options]

--check reads the FST's hierarchy (fst2vcd, from the gtkwave package) and
checks that every signal both views name exists there with the width the view
assumes and that every bit a view picks lies inside it.  --values also reads
the value changes and checks that the fields the views split out hold legal
values (link kind 0..5, a head bit only on a flit, VC fields below --vcs,
FSM state 0..6), which fails if a field is cut at the wrong bits.  --gtkwave
also loads both views in GTKWave on a virtual display (xvfb-run) and counts
the traces it shows, since GTKWave leaves out a trace it cannot resolve
without a word.  The check writes its copies of the views beside the FST.

Layouts come from rtl/spin_pkg.sv (link word, credit word, spin_mut_t, the
special-message word) and docs/microarchitecture.md (sections 2 and 12.1).
Standard library only.
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
       "MaxPorts": 8, "MaxVcs": 4, "SmW": 128, "SmMaxPath": 32, "IdW": 12, "CntW": 16,
       "SmSenderLsb": 0, "SmNLsb": 12, "SmDelayLsb": 18, "SmIdxLsb": 25, "SmPathLsb": 31}
BUF_DEPTH = 5                        # spin_router's default, used by the co-simulation
MAX_PV = PKG["MaxPorts"] * PKG["MaxVcs"]
KINDS = ["idle", "flit", "probe", "move", "probe_move", "kill_move"]
STATES = ["OFF", "DD", "MOVE", "PROBE_MOVE", "FORWARD_PROGRESS", "KILL_MOVE", "FROZEN"]
# spin_mut_t, first member first (the most significant bits of the packed struct)
MUT = [("state", 3), ("cnt", PKG["CntW"]), ("cnt_loaded", 1), ("is_deadlock", 1),
       ("source_id", PKG["IdW"]), ("pm_sent", 1), ("frozen", MAX_PV), ("armed", MAX_PV)]
MESH_PORTS = ["nic", "east", "west", "north", "south"]
PATH_SHOWN = 8                       # loop-buffer path entries shown one by one

# GTKWave trace flags (the @ lines)
F_HEX, F_DEC, F_BIN, F_RJUST, F_COMMENT, F_FILTER = 0x2, 0x4, 0x8, 0x20, 0x200, 0x2000
HEX, DEC, BIN = F_RJUST | F_HEX, F_RJUST | F_DEC, F_RJUST | F_BIN


def pkg_check():
    """Stop if rtl/spin_pkg.sv no longer says what PKG and MUT assume."""
    path = os.path.join(ROOT, "rtl", "spin_pkg.sv")
    text = open(path).read()
    for name, val in PKG.items():
        m = re.search(r"localparam int unsigned %s\s*=\s*(\d+)\s*;" % name, text)
        if not m or int(m.group(1)) != val:
            sys.exit("gtkw.py: %s: %s is not %d any more; update PKG" % (path, name, val))
    m = re.search(r"typedef struct packed \{(.*?)\} spin_mut_t;", text, re.S)
    members = re.findall(r"(\w+)\s*;", m.group(1)) if m else []
    if members != [n for n, _ in MUT]:
        sys.exit("gtkw.py: %s: spin_mut_t members %s, expected %s; update MUT"
                 % (path, members, [n for n, _ in MUT]))
    m = re.search(r"typedef enum logic \[2:0\] \{(.*?)\}\s*spin_state_e;", text, re.S)
    names = [s.strip() for s in m.group(1).split(",")] if m else []
    if len(names) != len(STATES):
        sys.exit("gtkw.py: %s: spin_state_e has %d states, expected %d; update STATES"
                 % (path, len(names), len(STATES)))


def clog2(n):
    return max(0, (n - 1).bit_length())


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
    """The lines of one save file."""

    def __init__(self, filters):
        self.lines = []
        self.flags = None
        self.filters = filters       # name -> (index, path of the filter file)

    def _flags(self, f):
        if f != self.flags:
            self.lines.append("@%x" % f)
            self.flags = f

    def comment(self, text=""):
        self._flags(F_COMMENT)
        self.lines.append("-" + text)

    def sig(self, s, fmt=HEX, label=None):
        self._flags(BIN if s.width == 1 and fmt == HEX else fmt)
        self.lines.append(("+{%s} " % label if label else "") + s.name())

    def field(self, label, s, lo, width, fmt=HEX, filt=None):
        """Bits [lo+width-1:lo] of s, under label.  A field that is the whole
        signal is shown as the signal itself."""
        assert 0 <= lo and lo + width <= s.width, (s.path, lo, width)
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


def port_name(ports, p):
    return "%d %s" % (p, MESH_PORTS[p]) if ports == 5 else ("0 nic" if p == 0 else "%d" % p)


def header(title, args, view):
    cmd = "scripts/gtkw.py --ports %d --vcs %d --flitw %d --router %d" % (
        args.ports, args.vcs, args.flitw, args.router)
    return [
        "[*] Generated by scripts/gtkw.py; do not edit (make waves writes it anew).",
        "[*] %s of router_%d: %d ports, %d VC(s), FlitW %d (%s)." % (
            title, args.router, args.ports, args.vcs, args.flitw, cmd),
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
        P, V = a.ports, a.vcs
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
        self.fsm = r + ".gen_spin.u_spin.u_fsm"

    def vec(self, name, width):
        return Sig("%s.%s" % (self.top, name), width)

    def link_fields(self, v, s, p, spin):
        """The fields of the link word of port p on s (flit_i or flit_o)."""
        F, L, pn = self.a.flitw, self.link_w, port_name(self.a.ports, p)
        base = p * L
        v.field("kind %s" % pn, s, base + F + 4, PKG["KindW"], DEC, filt="kind")
        if spin:
            v.field("sender %s" % pn, s, base + PKG["SmSenderLsb"], PKG["IdW"], DEC)
            v.field("n %s" % pn, s, base + PKG["SmNLsb"], 6, DEC)
            v.field("delay %s" % pn, s, base + PKG["SmDelayLsb"], 7, DEC)
            v.field("idx %s" % pn, s, base + PKG["SmIdxLsb"], 6, DEC)
            v.field("path0 %s" % pn, s, base + PKG["SmPathLsb"], 3, DEC)
        else:
            v.field("head %s" % pn, s, base + F + 3, 1)
            v.field("tail %s" % pn, s, base + F + 2, 1)
            v.field("vc %s" % pn, s, base + F, PKG["VcW"], DEC)
            v.field("data[63:0] %s" % pn, s, base, min(64, F))

    def credit_fields(self, v, s, p, spin):
        C, pn = PKG["CredW"], port_name(self.a.ports, p)
        if spin:
            v.field("arm %s" % pn, s, p * C + 3, 1)
            v.field("arm_vc %s" % pn, s, p * C + 4, 2, DEC)
        else:
            v.field("valid %s" % pn, s, p * C + 2, 1)
            v.field("vc %s" % pn, s, p * C, 2, DEC)


def router_view(a, filters):
    R = Router(a)
    P, V = a.ports, a.vcs
    v = View(filters)
    v.comment("router_%d clock, reset" % a.router)
    v.sig(R.clk)
    v.sig(R.rst)
    for title, flit, cred in (("INPUTS (flit_i, credit_i)", R.flit_i, R.credit_i),
                              ("OUTPUTS (link registers flit_o, credit_o)", R.flit_o, R.credit_o)):
        v.comment()
        v.comment(title)
        v.comment("kind: idle, flit, probe, move, probe_move, kill_move")
        for p in range(P):
            v.comment("link %s" % port_name(P, p))
            R.link_fields(v, flit, p, spin=False)
        v.comment("credit: valid, vc")
        for p in range(P):
            R.credit_fields(v, cred, p, spin=False)
        if title.startswith("INPUTS"):
            v.comment()
            v.comment("VC STATE per input port")
            for p in range(P):
                u = "gen_input[%d].u_input" % p
                v.comment("in %s: %s" % (port_name(P, p), u))
                cnt = R.vec(u + ".cnt", V * R.cnt_w)
                rv = R.vec(u + ".route_valid_q", V)
                op = R.vec(u + ".out_port_q", V * R.port_w)
                ov = R.vec(u + ".out_vc_q", V * PKG["VcW"])
                for c in range(V):
                    sfx = " vc%d" % c if V > 1 else ""
                    v.field("cnt%s" % sfx, cnt, c * R.cnt_w, R.cnt_w, DEC)
                    v.field("route_valid_q%s" % sfx, rv, c, 1)
                    v.field("out_port_q%s" % sfx, op, c * R.port_w, R.port_w, DEC)
                    v.field("out_vc_q%s" % sfx, ov, c * PKG["VcW"], PKG["VcW"], DEC)
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


def spin_view(a, filters):
    R = Router(a)
    P, V = a.ports, a.vcs
    v = View(filters)
    fsm = R.fsm
    st = Sig(fsm + ".st_q", sum(w for _, w in MUT))
    lo = {}
    bit = st.width
    for name, w in MUT:
        bit -= w
        lo[name] = bit
    v.comment("router_%d clock, reset, SPIN on" % a.router)
    v.sig(R.clk)
    v.sig(R.rst)
    v.sig(Sig(R.top + ".cfg_spin_i", 1, scalar=True))
    v.comment()
    v.comment("FSM (u_fsm.st_q and registers)")
    v.field("state", st, lo["state"], 3, DEC, filt="state")
    v.field("cnt", st, lo["cnt"], PKG["CntW"], DEC)
    v.sig(Sig(fsm + ".dd_port_q", 3), DEC)
    v.sig(Sig(fsm + ".dd_vc_q", 2), DEC)
    v.field("is_deadlock", st, lo["is_deadlock"], 1)
    v.field("source_id", st, lo["source_id"], PKG["IdW"], DEC)
    v.field("pm_sent", st, lo["pm_sent"], 1)
    v.sig(Sig(fsm + ".top_q", PKG["IdW"]), DEC)
    v.comment()
    v.comment("LOOP BUFFER: n, start, port0, path entries (output ports)")
    lb = fsm + ".u_loop_buf"
    v.sig(Sig(lb + ".n_q", 6), DEC)
    v.sig(Sig(lb + ".start_q", 6), DEC)
    v.sig(Sig(lb + ".port0_q", 3), DEC)
    path = Sig(lb + ".path_q", 3 * PKG["SmMaxPath"])
    for i in range(PATH_SHOWN):
        v.field("path[%d]" % i, path, 3 * i, 3, DEC)
    v.sig(path, HEX)
    v.comment()
    v.comment("PER VC of input p: bit v = VC v")
    spinning = Sig(fsm + ".spinning_q", MAX_PV)
    for p in range(1, P):
        pn = port_name(P, p)
        base = p * PKG["MaxVcs"]
        v.field("frozen %s" % pn, st, lo["frozen"] + base, V, BIN)
        v.field("armed %s" % pn, st, lo["armed"] + base, V, BIN)
        v.field("spinning %s" % pn, spinning, base, V, BIN)
    v.comment()
    v.comment("SPIN TRAFFIC (bit p = port p)")
    v.comment("input p sends a spin flit / output o carries it")
    v.sig(R.vec("in_busy", P), BIN)
    v.sig(R.vec("out_busy", P), BIN)
    v.comment("output o sends a special message")
    v.sig(R.vec("sm_valid", P), BIN)
    for title, flit, cred in (("IN", R.flit_i, R.credit_i), ("OUT", R.flit_o, R.credit_o)):
        v.comment()
        v.comment("SPECIAL MESSAGES %s (flit_%s): kind, sender, n, delay, idx, path[0]"
                  % (title, title[0].lower()))
        for p in range(1, P):
            v.comment("link %s" % port_name(P, p))
            R.link_fields(v, flit, p, spin=True)
        v.comment("ARM NOTICES %s (credit_%s): arm, arm_vc" % (title, title[0].lower()))
        for p in range(1, P):
            R.credit_fields(v, cred, p, spin=True)
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
    for key, (title, v) in views.items():
        files["%s.gtkw" % key] = "\n".join(header(title, a, key) + v.lines) + "\n"
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


def check(a, fst, values, gtkwave):
    out_dir = os.path.join(os.path.dirname(os.path.abspath(fst)), "gtkw-check")
    files = build(a, out_dir)
    sigs, proc = fst_header(fst)
    errors, ntraces, seen = [], 0, set()
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
    if not values or errors:
        proc.kill()
        proc.wait()
    else:
        errors += check_values(a, proc, watch)
    loaded = ""
    if gtkwave and not errors:
        loaded = gtkwave_load(fst, out_dir, files, errors)
    for e in errors[:40]:
        print("gtkw check: " + e)
    if errors:
        print("gtkw check: FAILED, %d error(s) (%s, --ports %d --vcs %d --router %d)"
              % (len(errors), fst, a.ports, a.vcs, a.router))
        return 1
    print("gtkw check: %d traces of router.gtkw and spin.gtkw found in %s%s%s"
          % (ntraces, fst, ", field values legal" if values else "", loaded))
    return 0


def check_landing(a, fst):
    """The window the view lands on (--from/--to, or --deadlocks) shows a
    recovery: the shown router's SPIN FSM spins in it (FORWARD_PROGRESS,
    then the spin, within the window).  Returns a list of errors."""
    if a.wave_to is None:
        return ["--expect-recovery: no window (give --deadlocks with a recovery, or --from/--to)"]
    sigs, proc = fst_header(fst)
    prefix = "router_%d.spin_router.gen_spin.u_spin.u_fsm.st_q" % a.router
    found = [(w, i) for n, (w, i) in sigs.items() if n.startswith(prefix)]
    if not found:
        proc.kill()
        proc.wait()
        return ["--expect-recovery: %s* not in %s" % (prefix, fst)]
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


def check_values(a, proc, watch):
    """Scan the value changes; check the split fields' values each time one
    of their signals changes."""
    rules = {"kind": len(KINDS) - 1, "state": len(STATES) - 1,
             "vc": a.vcs - 1, "arm_vc": a.vcs - 1, "out_vc_q": a.vcs - 1}
    by_id = {}
    fields = []
    for view, label, ids in watch:
        word = label.split()[0]
        if word in rules or word == "head":
            fields.append([view, label, word, ids, set()])
            for ident, width, _ in ids:
                by_id.setdefault(ident, (width, []))[1].append(len(fields) - 1)
    # a head bit must come with kind 1 on the same link word
    heads = {}
    for i, f in enumerate(fields):
        if f[2] in ("head", "kind"):
            heads.setdefault((f[0], f[1].split(None, 1)[1], f[3][0][0]), {})[f[2]] = i
    cur = {}
    time, dirty, errors, seen_kind = 0, set(), [], set()

    def value(ids):
        bits = ""
        for ident, width, pos in ids:
            s = cur.get(ident, "0" * width)
            bits += s if pos is None else s[pos]
        return None if re.search("[^01]", bits) else int(bits, 2)

    def settle():
        # Before reset has cleared them (the first three cycles are reset),
        # registers hold their random power-up values: nothing to check.
        if time < RESET_PS:
            dirty.clear()
            return
        for i in dirty:
            view, label, word, ids, _ = fields[i]
            val = value(ids)
            if val is None:
                continue
            if word in rules and val > rules[word]:
                errors.append("%s: %s = %d at %d ps (at most %d)"
                              % (view, label, val, time, rules[word]))
            if word == "kind" and val:
                seen_kind.add(val)
        for (view, pn, _), pair in heads.items():
            if len(pair) == 2 and (pair["head"] in dirty or pair["kind"] in dirty):
                h, k = value(fields[pair["head"]][3]), value(fields[pair["kind"]][3])
                if h == 1 and k != 1:
                    errors.append("%s: head %s set with kind %s at %d ps" % (view, pn, k, time))
        dirty.clear()

    for line in proc.stdout:
        if len(errors) > 20:
            proc.kill()
            break
        c = line[:1]
        if c == "#":
            settle()
            time = int(line[1:])
        elif c in "bB":
            val, ident = line[1:].split()
            if ident in by_id:
                width, idx = by_id[ident]
                pad = "x" if val[0] in "xz" else "0"
                cur[ident] = (val.rjust(width, pad))[-width:]
                dirty.update(idx)
        elif c in "01xzXZ" and len(line) > 1:
            ident = line[1:].strip()
            if ident in by_id:
                cur[ident] = c
                dirty.update(by_id[ident][1])
    settle()
    proc.wait()
    if 1 not in seen_kind:
        errors.append("no flit (kind 1) on any link of router_%d: is it in the run?" % a.router)
    return errors


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
    ap.add_argument("--check", metavar="FST", help="check both views against this FST")
    ap.add_argument("--values", action="store_true", help="with --check: check field values")
    ap.add_argument("--gtkwave", action="store_true",
                    help="with --check: load both views in GTKWave (xvfb-run) and count traces")
    a = ap.parse_args()
    if not 2 <= a.ports <= PKG["MaxPorts"]:
        ap.error("--ports: 2..%d" % PKG["MaxPorts"])
    if not 1 <= a.vcs <= PKG["MaxVcs"]:
        ap.error("--vcs: 1..%d" % PKG["MaxVcs"])
    if a.flitw < PKG["SmW"]:
        ap.error("--flitw: at least %d (SPIN routers)" % PKG["SmW"])
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
