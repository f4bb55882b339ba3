#!/usr/bin/env python3
"""make formal, make formal-selftest: formal proofs of the router's datapath
primitives with Yosys and yosys-smtbmc (docs/formal.md).

Each job reads a copy of the RTL under build/formal/<job>/src/ into which the
property files of tb/formal/ (<module>.props.svh) are spliced before the
module's endmodule (Yosys 0.23 parses `bind` but drops it, and reads no
hierarchical reference), writes an SMT-LIB2 model and proves it:

  induct K  bounded model check of K steps from reset (the base case), then
            induction over K steps (yosys-smtbmc -i): the properties hold in
            every reachable state, at any depth;
  bmc D     bounded model check of D steps from reset only.

Cover statements (*_C), where a job has any, must each be reached within the
job's cover depth (yosys-smtbmc -c): they show that the assumptions (*_M)
leave the interesting behaviour possible.

formal-selftest applies each break of BREAKS to a scratch copy of one RTL
module and runs the jobs it names (the base case of an induction job 16
steps deep): every break must fail each of them, and the report names the
properties that caught it and whether a trace from reset or only the
induction step did.

Usage: formal.py run [--jobs N] [--only JOB[,JOB...]]
       formal.py selftest [--jobs N] [--only BREAK[,BREAK...]]
       formal.py list
Exit status: 0 all proven (all breaks caught), 1 a proof failed (a break
went uncaught), 2 bad arguments or a tool that cannot run.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FV_DIR = ROOT / "tb" / "formal"
RTL = ROOT / "rtl"
BUILD = Path(os.environ.get("FORMAL_BUILD", ROOT / "build" / "formal"))
YOSYS = os.environ.get("YOSYS", "yosys")
SMTBMC = os.environ.get("SMTBMC", "yosys-smtbmc")
SOLVER = os.environ.get("FORMAL_SOLVER", "z3")
TIMEOUT = int(os.environ.get("FORMAL_TIMEOUT", "600"))   # seconds per solver run


class Job:
    """One proof: top module, RTL modules read, which of them get their
    property file spliced in and how, parameters of the top, method."""

    def __init__(self, name, top, modules, params, method, depth, splice=None,
                 wrapper=None, what="", cover_depth=None, narrow=False, covers=True):
        self.name, self.top, self.modules, self.params = name, top, modules, params
        self.method, self.depth = method, depth
        # covers are found faster than assertions are proven: deeper
        self.cover_depth = cover_depth or depth
        # module -> "top" (assumes its contract, every property), "full"
        # (asserts its contract, every property) or "contract"
        self.splice = splice if splice is not None else {top: "top"}
        self.wrapper = wrapper
        self.what = what
        # narrow: shrink the word-level cells to the bits they use before
        # the bit-blast (the SPIN FSM's watch divides 32-bit loop indices by
        # constants: 262,000 gates and 164 s of Yosys without, 20,000 and
        # 5 s with).  opt_expr without -keepdc turns a division or modulo
        # by a power of two into a shift or a mask; it differs from the
        # division only on undefined bits, and setundef -anyseq has left none
        self.narrow = narrow
        # covers: reach the wrapper's covers (False: a job that shares its
        # environment with one that reaches them, where they cost minutes)
        self.covers = covers


def _p(**kw):
    return kw


JOBS = [
    Job("fifo_d5", "spin_fifo", ["spin_fifo"], _p(Width=4, Depth=5), "induct", 2,
        what="FIFO of the router's depth"),
    Job("fifo_d7", "spin_fifo", ["spin_fifo"], _p(Width=4, Depth=7), "induct", 2,
        what="FIFO of the largest depth the router takes"),
    Job("fifo_d2", "spin_fifo", ["spin_fifo"], _p(Width=4, Depth=2), "induct", 2,
        what="FIFO of the smallest depth"),
    *[Job("rr_arbiter_n%d" % n, "spin_rr_arbiter", ["spin_rr_arbiter"], _p(N=n), "induct", 2,
          what="round-robin arbiter, %d requesters" % n) for n in (1, 2, 3, 4, 5, 8)],
    *[Job("switch_alloc_p%d" % n, "spin_switch_alloc", ["spin_rr_arbiter", "spin_switch_alloc"],
          _p(NumPorts=n), "induct", n + 2,
          splice={"spin_switch_alloc": "top", "spin_rr_arbiter": "full"},
          what="switch allocator output stage, %d ports" % n) for n in (3, 5)],
    *[Job("crossbar_p%d" % n, "spin_crossbar", ["spin_crossbar"], _p(NumPorts=n, FlitW=16),
          "induct", 1, what="crossbar, %d ports" % n) for n in (3, 5, 8)],
    *[Job("ovc_tracker_v%d_e%d" % (v, e), "spin_ovc_tracker", ["spin_ovc_tracker"],
          _p(NumVcs=v, Eject=e), "induct", 2,
          what="output VC tracker, %d VC(s), %s port" % (v, "ejection" if e else "network"))
      for v in (1, 2, 4) for e in (0, 1)],
    *[Job("input_port_p3_v%d" % v, "fv_input_port",
          ["spin_fifo", "spin_route_select", "spin_rr_arbiter", "spin_input_port"],
          _p(NumPorts=3, NumVcs=v), "bmc", {1: 12, 2: 8}[v], cover_depth=12,
          wrapper="fv_input_port.sv",
          splice={"spin_fifo": "contract", "spin_rr_arbiter": "full"},
          what="input port, 3 ports, %d VC(s), free inputs" % v) for v in (1, 2)],
    Job("router_p3_v1", "fv_router", None, _p(NumPorts=3, NumVcs=1), "bmc", 7, cover_depth=9,
        wrapper="fv_router.sv",
        splice={"spin_fifo": "contract", "spin_ovc_tracker": "contract",
                "spin_switch_alloc": "contract", "spin_crossbar": "contract"},
        what="whole router, SPIN not built, 3 ports, 1 VC, free inputs"),
    *[Job("spin_fsm_p%d_v%d" % (p, v), "fv_spin_fsm", ["spin_loop_buf", "spin_fsm", "spin_probe_mgr",
                                                 "spin_move_mgr"],
          _p(NumPorts=p, NumVcs=v), "induct", 2, cover_depth=15, wrapper="fv_spin_fsm.sv",
          splice={"spin_fsm": "full", "spin_probe_mgr": "full"}, narrow=True,
          # covers with 2 VCs: 211 s; they are reached with 3 ports and 1 VC
          covers=(p, v) == (3, 1),
          what="SPIN counter FSM with its managers, %d ports, %d VC(s), free inputs" % (p, v))
      for p, v in ((3, 1), (3, 2), (5, 1))],
]
JOB_BY_NAME = {j.name: j for j in JOBS}

# The router's modules (Spin = 0 builds none of the SPIN unit).
ROUTER_MODULES = ["spin_lfsr", "spin_fifo", "spin_route_select", "spin_rr_arbiter",
                  "spin_input_port", "spin_ovc_tracker", "spin_switch_alloc",
                  "spin_crossbar", "spin_router"]

# Deliberate breaks for make formal-selftest: (name, RTL file, text, its
# replacement, jobs whose base case must fail, what the break does).
BREAKS = [
    ("fifo_push_full", "spin_fifo.sv",
     "cnt_d   = cnt_q + CntW'(push_i) - CntW'(pop_i);",
     "cnt_d   = cnt_q + CntW'(push_i) - CntW'(pop_i && !push_i);",
     ["fifo_d5"], "a push and a pop in one cycle count as a push: the FIFO fills past its entries"),
    ("fifo_wrap_slot", "spin_fifo.sv",
     "wr_slot = wr_sum >= (PtrW + 1)'(Depth)",
     "wr_slot = wr_sum > (PtrW + 1)'(Depth)",
     ["fifo_d5"], "the write slot wraps one entry late"),
    ("fifo_rd_nowrap", "spin_fifo.sv",
     "rd_d = rd_q == PtrW'(Depth - 1) ? '0 : rd_q + 1'b1;",
     "rd_d = rd_q + 1'b1;",
     ["fifo_d5"], "the read pointer does not wrap at Depth"),
    ("arb_grant_nonreq", "spin_rr_arbiter.sv",
     "if (!gnt_valid_o && req_i[idx[IdxW-1:0]]) begin",
     "if (!gnt_valid_o && (req_i[idx[IdxW-1:0]] || idx[IdxW-1:0] == ptr_q)) begin",
     ["rr_arbiter_n3"], "the pointer's index is granted whether it requests or not"),
    ("arb_ptr_stays", "spin_rr_arbiter.sv",
     "ptr_d = gnt_idx_o == IdxW'(N - 1) ? '0 : gnt_idx_o + 1'b1;",
     "ptr_d = gnt_idx_o;",
     ["rr_arbiter_n3"], "the pointer stays on the winner: it can win forever"),
    ("arb_ptr_wrap", "spin_rr_arbiter.sv",
     "ptr_d = gnt_idx_o == IdxW'(N - 1) ? '0 : gnt_idx_o + 1'b1;",
     "ptr_d = gnt_idx_o + 1'b1;",
     ["rr_arbiter_n3"], "the pointer does not wrap at N"),
    ("sa_grant_two", "spin_switch_alloc.sv",
     "assign gnt_o[p] = req_i[p] && win_valid_o[o] && win_o[o*PortW +: PortW] == PortW'(p);",
     "assign gnt_o[p] = req_i[p] && win_valid_o[o];",
     ["switch_alloc_p3"], "every input asking for an output with a winner is granted: two grants"),
    ("sa_no_update", "spin_switch_alloc.sv",
     ".update_i   (1'b1),",
     ".update_i   (1'b0),",
     ["switch_alloc_p3"], "the output arbiters never move their pointers: starvation"),
    ("xbar_wrong_input", "spin_crossbar.sv",
     "sel[p] = win_valid_i[o] && 32'(win_i[o*PortW +: PortW]) == p;",
     "sel[p] = win_valid_i[o] && 32'(win_i[o*PortW +: PortW]) == (p == 0 ? 1 : p == 1 ? 0 : p);",
     ["crossbar_p3"], "the crossbar reads input 1 for input 0 and input 0 for the others"),
    ("xbar_no_vc", "spin_crossbar.sv",
     "if (win_valid_i[o]) f[FlitW +: spin_pkg::VcW] = ovc_i[o*spin_pkg::VcW +: spin_pkg::VcW];",
     "if (win_valid_i[o]) f[FlitW +: spin_pkg::VcW] = f[FlitW +: spin_pkg::VcW];",
     ["crossbar_p3"], "the downstream VC is not stamped into the flit"),
    ("ovc_set_wins", "spin_ovc_tracker.sv",
     "busy_d = (busy_q | set) & ~clr;",
     "busy_d = (busy_q & ~clr) | set;",
     ["ovc_tracker_v2_e1"], "allocation wins over freeing: a 1-flit packet keeps its ejection VC busy"),
    ("ovc_last_free", "spin_ovc_tracker.sv",
     "if (!busy[v] && !found) begin",
     "if (!busy[v]) begin",
     ["ovc_tracker_v2_e0"], "the highest free VC is offered instead of the lowest"),
    ("ovc_early_ignored", "spin_ovc_tracker.sv",
     "if (!Eject && early_i && credit_i[spin_pkg::CredValid])",
     "if (1'b0)",
     ["ovc_tracker_v1_e0"], "early credits ignored: a VC whose credit arrives is still busy in that cycle"),
    ("ovc_age_wraps", "spin_ovc_tracker.sv",
     "else if (age_q[v] != 8'hFF) age_d[v] = age_q[v] + 8'd1;",
     "else if (1'b1) age_d[v] = age_q[v] + 8'd1;",
     ["ovc_tracker_v1_e0"], "a VC's age wraps from 255 to 0 instead of saturating"),
    ("port_credit_at_head", "spin_input_port.sv",
     "      if (req_tail) begin\n        route_valid_d[arb_vc] = 1'b0;\n"
     "        credit_o = spin_pkg::CredW'({1'b1, spin_pkg::VcW'(arb_vc)});",
     "      if (req_tail) route_valid_d[arb_vc] = 1'b0;\n      if (req_head) begin\n"
     "        credit_o = spin_pkg::CredW'({1'b1, spin_pkg::VcW'(arb_vc)});",
     ["input_port_p3_v1", "router_p3_v1"],
     "the input port returns its credit when the head leaves, not the tail"),
    ("port_head_no_free_vc", "spin_input_port.sv",
     "(!vc_head[v] || (port_free_i[vc_port[v*PortW +: PortW]] &&",
     "(!vc_head[v] || (1'b1 &&",
     ["input_port_p3_v1", "router_p3_v1"], "a head asks for its output without a free downstream VC"),
    ("port_head_not_popped", "spin_input_port.sv",
     "      pop[arb_vc] = 1'b1;",
     "      pop[arb_vc] = !req_head;",
     ["input_port_p3_v2", "router_p3_v1"], "a granted head is sent but not popped: it leaves twice"),
    ("fsm_state_illegal", "spin_fsm.sv",
     "            s_a    = spin_pkg::StKillMove;\n            kind_a = spin_pkg::KindKillMove;",
     "            s_a    = 3'd7;\n            kind_a = spin_pkg::KindKillMove;",
     ["spin_fsm_p3_v1"], "a probe_move that did not come back leads to state 7, which has no meaning"),
    ("fsm_settle_long", "spin_fsm.sv",
     "cnt_a     = CntW'(spin_pkg::SpinSettle - 1);",
     "cnt_a     = CntW'(spin_pkg::SpinSettle);",
     ["spin_fsm_p3_v1"], "the wait after the sender's spin is loaded one too large"),
    ("fsm_freeze_any_out", "spin_fsm.sv",
     "(p == 32'(hp) || op_i[spin_pkg::pv(p, v)*PortW +: PortW] == loop_port0_q))",
     "(p == 32'(hp)))",
     ["spin_fsm_p3_v1"], "the sender freezes its VC without checking that no frozen VC is bound for port0"),
    ("mm_freeze_any_out", "spin_move_mgr.sv",
     "(32'(port_i) == p || op_all_i[spin_pkg::pv(p, v)*PortW +: PortW] == o))",
     "(32'(port_i) == p))",
     ["spin_fsm_p3_v1"], "the move manager freezes a VC without checking that no frozen VC is bound for its output"),
    ("fsm_arm_unfrozen", "spin_fsm.sv",
     "if (frozen_q[spin_pkg::pv(p, v)] && !armed_arm[spin_pkg::pv(p, v)] &&",
     "if (!armed_arm[spin_pkg::pv(p, v)] &&",
     ["spin_fsm_p3_v1"], "an arm notice arms a VC bound for its output whether it is frozen or not"),
    ("fsm_spin_unarmed", "spin_fsm.sv",
     "      spinning_a = spinning_q | (frozen_q & armed_arm);\n"
     "      frozen_a   = frozen_q & (spinning_q | armed_arm);",
     "      spinning_a = spinning_q | frozen_q;\n"
     "      frozen_a   = frozen_q;",
     ["spin_fsm_p3_v1"], "frozen VCs spin at the spin cycle whether armed or not (into a full buffer)"),
    ("loop_buf_no_clear", "spin_loop_buf.sv",
     "      if (clear_i) begin\n        cyc_q <= '0;",
     "      if (clear_i) begin\n        cyc_q <= cyc_q;",
     ["spin_fsm_p3_v1"], "the loop buffer keeps its loop's cycles when the recovery ends"),
    ("fsm_epoch_long", "spin_fsm.sv",
     "ep_d  = {tdd_i - 1'b1, 2'b11};",
     "ep_d  = {tdd_i, 2'b11};",
     ["spin_fsm_p3_v1"], "an epoch of the rotating priority is reloaded with 4 t_DD + 3 cycles, not 4 t_DD - 1"),
    ("fsm_record_mask", "spin_fsm.sv",
     "loop_out_d & ~((NumPorts*PortW)'((64'd1 << (PortW * NumNics)) - 64'd1));",
     "loop_out_d & ~(NumPorts*PortW)'((64'd1 << (PortW * NumNics)) - 64'd1);",
     ["spin_fsm_p3_v1"], "the records' NIC mask written ~W'(x), which Yosys 0.23 reads as W'(x): no record is kept"),
    ("pm_fk0_past", "spin_probe_mgr.sv",
     "adopt_fk0_o   = m_fk + FkW'(m_forked);",
     "adopt_fk0_o   = m_fk + 6'd1;",
     ["spin_fsm_p3_v2"], "an adopted loop's fork entries are read from one past the mark's, also where it did not fork"),
]
BREAK_BY_NAME = {b[0]: b for b in BREAKS}


def die(msg, status=2):
    print("formal: " + msg, file=sys.stderr)
    sys.exit(status)


def splice(text, props_name, mode, path):
    """The module text with the property file included before its last
    endmodule, under the macros of its mode."""
    i = text.rfind("endmodule")
    if i < 0:
        die("%s: no endmodule to splice %s into" % (path, props_name))
    defs = {"top": ["FV_TOP", "FV_FULL"], "full": ["FV_FULL"], "contract": []}[mode]
    lines = ["// spliced by tb/formal/formal.py: %s (%s)" % (props_name, mode)]
    lines += ["`define %s" % d for d in defs]
    lines += ['`include "%s"' % props_name]
    lines += ["`undef %s" % d for d in defs]
    return text[:i] + "\n".join(lines) + "\n" + text[i:]


def prepare(job, workdir, patched=None):
    """Write the job's sources and Yosys script under workdir; patched maps
    an RTL file name to its replacement text.  Returns the script's path."""
    src = workdir / "src"
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    modules = job.modules if job.modules is not None else ROUTER_MODULES
    files = []
    for m in ["spin_pkg"] + modules:
        fname = m + ".sv"
        text = patched.get(fname) if patched and fname in patched else (RTL / fname).read_text()
        mode = job.splice.get(m)
        if mode:
            props = FV_DIR / (m + ".props.svh")
            if not props.exists():
                die("no property file %s for module %s" % (props, m))
            shutil.copy(props, src / props.name)
            text = splice(text, props.name, mode, fname)
        (src / fname).write_text("// generated by tb/formal/formal.py from rtl/%s\n%s" % (fname, text))
        files.append(str(src / fname))
    if job.wrapper:
        shutil.copy(FV_DIR / job.wrapper, src / job.wrapper)
    for inc in sorted(RTL.glob("*.svh")):       # the message layout (spin_sm_layout.svh)
        shutil.copy(inc, src / inc.name)
    chparam = " ".join("-set %s %s" % kv for kv in job.params.items())
    script = ["# generated by tb/formal/formal.py: job %s" % job.name,
              # the RTL's own assertions (`assert ... else $error`) are for
              # Verilator: SYNTHESIS leaves them out, as for synthesis
              "read_verilog -formal -sv -DSYNTHESIS -I%s %s" % (src, " ".join(files))]
    if job.wrapper:
        script.append("read_verilog -formal -sv -I%s %s" % (src, src / job.wrapper))
    if chparam:
        script.append("chparam %s %s" % (chparam, job.top))
    script += ["prep -top %s" % job.top,
               "flatten",
               "memory_nordff",
               "async2sync",
               "chformal -assume -early",
               "opt_clean",
               "setundef -anyseq",
               "opt -keepdc -fast",
               "check -assert",
               "hierarchy -simcheck"]
    if job.narrow:
        script += ["wreduce -keepdc",
                   "peepopt",
                   "opt_expr -fine",
                   "opt -keepdc -fast",
                   "wreduce -keepdc",
                   "opt_clean"]
    script += [# to gates: z3 proves the bit-level model in seconds where
               # it spent minutes on the word-level one (part selects by a
               # variable, the crossbar's in particular)
               "memory_map",
               "opt -keepdc -fast",
               "techmap",
               "opt -keepdc -fast",
               "abc -g AND",
               "opt_clean",
               "setundef -anyseq",
               "dffunmap",
               "write_smt2 -wires %s" % (workdir / "model.smt2"),
               "stat"]
    ys = workdir / "model.ys"
    ys.write_text("\n".join(script) + "\n")
    return ys


def run(cmd, log, timeout=TIMEOUT):
    """cmd in its own process group (the solver under yosys-smtbmc is
    stopped with it on a time-out); returns exit status and seconds."""
    t0 = time.monotonic()
    with open(log, "w") as f:
        try:
            proc = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=log.parent,
                                    start_new_session=True)
        except FileNotFoundError:
            die("cannot run %s (scripts/install-deps.sh installs it)" % cmd[0])
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            f.write("\nformal: timed out after %d s\n" % timeout)
            rc = -1
    return rc, time.monotonic() - t0


def smt_props(model):
    """The names of the assertions, assumptions and covers in a model."""
    kinds = {"assert": [], "assume": [], "cover": []}
    for line in model.read_text().splitlines():
        m = re.match(r"; yosys-smt2-(assert|assume|cover) \d+ (\S+)", line)
        if m:
            name = m.group(2)
            if not name.startswith("$"):
                kinds[m.group(1)].append(name)
    return kinds


def failed_asserts(log):
    text = log.read_text()
    return sorted(set(re.findall(r"Assert failed in \S+: (\S+)", text)))


# formal-selftest: the base case of an induction job runs this deep, so a
# break shows as a trace from reset (a FIFO fills and wraps in 16 cycles).
SELFTEST_DEPTH = 16


def prove(job, workdir, selftest=False, patched=None):
    """Build and prove one job; returns a result dict.  selftest: a deeper
    base case, no covers."""
    workdir.mkdir(parents=True, exist_ok=True)
    res = {"job": job.name, "what": job.what, "method": job.method, "depth": job.depth,
           "solver": SOLVER, "status": "error", "failed": [], "times": {}}
    ys = prepare(job, workdir, patched)
    rc, t = run([YOSYS, "-q", "-l", str(workdir / "yosys.log"), "-s", str(ys)],
                workdir / "yosys.out")
    res["times"]["yosys"] = t
    if rc != 0:
        res["detail"] = "yosys failed: %s" % (workdir / "yosys.out")
        return res
    model = workdir / "model.smt2"
    props = smt_props(model)
    res["asserts"], res["assumes"], res["covers"] = props["assert"], props["assume"], props["cover"]
    base = max(job.depth, SELFTEST_DEPTH) if selftest and job.method == "induct" else job.depth
    steps = [("base", ["--presat", "-t", str(base), "--dump-vcd", "base.vcd"])]
    if job.method == "induct":
        steps.append(("step", ["-i", "-t", str(job.depth), "--dump-vcd", "step.vcd"]))
    if props["cover"] and job.covers and not selftest:
        steps.append(("cover", ["-c", "-t", str(job.cover_depth)]))
    for kind, args in steps:
        log = workdir / ("%s.log" % kind)
        # --unroll: z3 takes a model unrolled step by step in well under a
        # second where the default encoding (one function per step) took
        # minutes (the 4-requester arbiter: 0.4 s against 5 min)
        rc, t = run([SMTBMC, "-s", SOLVER, "--unroll"] + args + [str(model)], log)
        res["times"][kind] = t
        text = log.read_text()
        if kind == "step":
            m = re.findall(r"Trying induction in step (\d+)", text)
            res["k"] = job.depth - int(m[-1]) if m else None
        if rc != 0 or "Status: PASSED" not in text:
            res["status"] = "fail"
            res["failed_in"] = kind
            res["failed"] = failed_asserts(log)
            if "Assumptions are unsatisfiable" in text:
                res["detail"] = "assumptions unsatisfiable (vacuous): %s" % log
            elif "timed out" in text:
                res["detail"] = "timed out: %s" % log
            else:
                res["detail"] = "%s failed: %s" % (kind, log)
            return res
    res["status"] = "pass"
    return res


def fmt_time(t):
    return "%.1f s" % t


def describe(res):
    t = res["times"]
    total = sum(t.values())
    if res["method"] == "induct":
        how = "induction k=%s (base %d steps)" % (res.get("k", "?"), res["depth"])
    else:
        how = "bmc %d steps" % res["depth"]
    parts = ", ".join("%s %s" % (k, fmt_time(v)) for k, v in t.items())
    return "%-22s %-4s %-32s %5.1f s (%s)" % (res["job"], res["status"].upper(), how, total, parts)


def pool_map(fn, items, jobs, ordered=True):
    """fn over items, jobs at a time; results in order, or as they finish."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = [ex.submit(fn, it) for it in items]
        for f in (futs if ordered else concurrent.futures.as_completed(futs)):
            yield f.result()


def cmd_run(args):
    names = args.only.split(",") if args.only else [j.name for j in JOBS]
    for n in names:
        if n not in JOB_BY_NAME:
            die("--only: no job %r (formal.py list shows them)" % n)
    jobs = [JOB_BY_NAME[n] for n in names]
    BUILD.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    results = []
    # the router first: it takes longest
    order = sorted(jobs, key=lambda j: j.method != "bmc")
    for res in pool_map(lambda j: prove(j, BUILD / j.name), order, args.jobs, ordered=False):
        print("formal: " + describe(res), flush=True)
        if res["status"] != "pass":
            print("formal:   %s%s" % (res.get("detail", ""),
                                      "; failed: " + ", ".join(res["failed"]) if res["failed"] else ""))
        results.append(res)
    wall = time.monotonic() - t0
    (BUILD / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    write_summary(results, wall)
    bad = [r["job"] for r in results if r["status"] != "pass"]
    nprops = sum(len(r.get("asserts", [])) for r in results)
    print("formal: %d jobs, %d assertions, %.0f s wall (%s solver, %d at a time); summary %s"
          % (len(results), nprops, wall, SOLVER, args.jobs, BUILD / "summary.md"))
    if bad:
        print("formal: FAILED: " + ", ".join(bad))
        return 1
    print("formal: %d passed, 0 failed" % len(results))
    return 0


def write_summary(results, wall):
    lines = ["<!-- generated by tb/formal/formal.py; not committed -->",
             "# make formal: %d jobs, %.0f s wall" % (len(results), wall), "",
             "| job | instance | property | method | solver | job time |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in results:
        job = JOB_BY_NAME[r["job"]]
        how = ("induction, k = %s" % r.get("k") if r["method"] == "induct"
               else "BMC, %d steps" % r["depth"])
        total = sum(r["times"].values())
        for a in r.get("asserts", []):
            inst = a.rsplit(".", 1)[0] if "." in a else job.top
            lines.append("| %s | %s | %s | %s | %s | %.1f s |"
                         % (r["job"], inst, a.rsplit(".", 1)[-1], how, r["solver"], total))
    (BUILD / "summary.md").write_text("\n".join(lines) + "\n")


def cmd_selftest(args):
    names = args.only.split(",") if args.only else [b[0] for b in BREAKS]
    for n in names:
        if n not in BREAK_BY_NAME:
            die("--only: no break %r (formal.py list shows them)" % n)
    work = BUILD / "selftest"
    tasks = []
    for n in names:
        _, fname, old, new, jobs, what = BREAK_BY_NAME[n]
        text = (RTL / fname).read_text()
        if text.count(old) != 1:
            die("break %s: the text to replace occurs %d times in rtl/%s, not once "
                "(the RTL changed: update BREAKS in tb/formal/formal.py)" % (n, text.count(old), fname), 1)
        for j in jobs:
            tasks.append((n, fname, text.replace(old, new), JOB_BY_NAME[j], what))
    t0 = time.monotonic()

    def one(task):
        n, fname, text, job, what = task
        return n, what, prove(job, work / n / job.name, selftest=True, patched={fname: text})

    caught = {}
    uncaught = []
    for n, what, res in pool_map(one, tasks, args.jobs):
        # caught: a trace from reset breaks a property (base), or the
        # induction step no longer closes on a property (step: the break is
        # deeper than the base case looked, e.g. an age wrapping at 256)
        ok = res["status"] == "fail" and res.get("failed_in") in ("base", "step") and res["failed"]
        t = sum(res["times"].values())
        if ok:
            how = ("a trace from reset" if res["failed_in"] == "base"
                   else "the induction step (no trace from reset within %d steps)" % SELFTEST_DEPTH)
            print("formal-selftest: %-24s caught by %s, %s: %s (%.1f s)"
                  % (n, res["job"], how, ", ".join(res["failed"]), t), flush=True)
            caught.setdefault(n, []).append(res["failed"])
        else:
            print("formal-selftest: %-24s NOT CAUGHT by %s: %s (%s) (%.1f s)"
                  % (n, res["job"], res["status"], res.get("detail", "the proof passed"), t), flush=True)
            uncaught.append("%s/%s" % (n, res["job"]))
        print("formal-selftest:   (%s)" % what)
    print("formal-selftest: %d breaks, %.0f s wall" % (len(names), time.monotonic() - t0))
    if uncaught:
        print("formal-selftest: FAILED: uncaught: " + ", ".join(uncaught))
        return 1
    print("formal-selftest: %d passed, 0 failed" % len(names))
    return 0


def cmd_list(_args):
    for j in JOBS:
        print("job   %-22s %s %d  %s" % (j.name, j.method, j.depth, j.what))
    for b in BREAKS:
        print("break %-22s %s -> %s  %s" % (b[0], b[1], ",".join(b[4]), b[5]))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=["run", "selftest", "list"])
    ap.add_argument("--jobs", default="2", help="proofs run at once (default 2)")
    ap.add_argument("--only", default="", help="comma-separated job (run) or break (selftest) names")
    args = ap.parse_args()
    if not re.fullmatch(r"[1-9][0-9]?", args.jobs):
        die("--jobs %s: expected a number from 1 to 99" % args.jobs)
    args.jobs = int(args.jobs)
    return {"run": cmd_run, "selftest": cmd_selftest, "list": cmd_list}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
