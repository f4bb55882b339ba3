// spin_fsm: the SPIN counter FSM of one router, the spin, and the arm chain
// (docs/microarchitecture.md, 12.2, 12.5, 12.6).  C twin: spin_fsm_pre() and
// spin_fsm_post() in cmodel/spin_fsm.c.
//
// One cycle, in the C model's order:
//   1. arm notices from downstream arm the frozen VC bound for that output,
//      record the downstream VC the spin fills, and go upstream;
//   2. the counter: on expiry (cnt = 0) the state's action (probe, kill_move,
//      spin, probe_move, end of recovery, release);
//   3. spinning VCs send their front flit (spin_* outputs);
//   4. the router's own messages coming back: a probe that confirms a loop
//      (latch the loop, send a move), a move or probe_move that went round
//      (freeze, arm), a kill_move (end of recovery).
// Then the move managers (spin_move_mgr) take st_pre_o, and their result
// comes back on st_moved_i.  After switch allocation (popped_i, cnt_next_nz_i)
// the deadlock-detection watch moves on or counts down.
// The FSM makes at most two special messages a cycle: offer A (step 2) and
// offer B (step 4).  en_i = 0 holds SPIN off: no message, no freeze.
`default_nettype none

module spin_fsm #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumVcs   = 1,
  localparam int unsigned OfferW  = spin_pkg::KindW + spin_pkg::SmW,
  localparam int unsigned MaxPv   = spin_pkg::MaxPv
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         en_i,
  input  logic [spin_pkg::IdW-1:0]     id_i,
  input  logic [spin_pkg::IdW:0]       nodes_i,
  input  logic [spin_pkg::CntW-1:0]    tdd_i,
  input  logic                         nmin_i,      // FAvORS-NMin: the bound is 2m - 1 (assertion only)
  // views of the input VCs, index p*MaxVcs + v (registers of this cycle)
  input  logic [MaxPv-1:0]             cnt_nz_i,
  input  logic [MaxPv-1:0]             rv_i,
  input  logic [3*MaxPv-1:0]           op_i,
  input  logic [MaxPv-1:0]             whole_i,
  input  logic [MaxPv-1:0]             tail_i,      // front flit is a tail
  // links of this cycle
  input  logic [NumPorts*spin_pkg::KindW-1:0] in_kind_i,
  input  logic [NumPorts*spin_pkg::SmW-1:0]   in_data_i,
  input  logic [NumPorts-1:0]          arm_in_i,    // arm notice on the credit of output o
  input  logic [NumPorts*2-1:0]        arm_in_vc_i,
  output logic [MaxPv-1:0]             frozen_q_o,  // the frozen VCs at the start of the cycle
  // the move-manager chain
  output spin_pkg::spin_mut_t          st_pre_o,
  input  spin_pkg::spin_mut_t          st_moved_i,
  // a loop adopted by a probe manager this cycle (12.3; after the moves)
  input  logic                         adopt_i,
  input  logic [2:0]                   adopt_port_i,   // the input port
  input  logic [1:0]                   adopt_vc_i,     // the loop's VC there
  input  logic [5:0]                   adopt_start_i,  // this router's entry
  input  logic [5:0]                   adopt_cyc_i,    // cycles round the loop
  input  logic [2:0]                   adopt_port0_i,  // this router's output
  output logic [MaxPv-1:0]             spinning_o,  // after the spin cycle's start
  output logic [spin_pkg::IdW-1:0]     top_o,       // router of top priority this cycle
  // the FSM's own messages
  output logic [1:0]                   offer_valid_o,   // [0] A, [1] B
  output logic [5:0]                   offer_port_o,    // {B, A}, 3 bits each
  output logic [2*OfferW-1:0]          offer_o,
  // spin flits: per output o, from input spin_src_o[o], VC spin_vc_o[p]
  output logic [NumPorts-1:0]          in_busy_o,
  output logic [NumPorts*2-1:0]        spin_vc_o,
  output logic [NumPorts-1:0]          out_busy_o,
  output logic [NumPorts*3-1:0]        spin_src_o,
  output logic [NumPorts*2-1:0]        spin_ovc_o,
  // arm notices to upstream, on the credit register of input p
  output logic [NumPorts-1:0]          arm_o,
  output logic [NumPorts*2-1:0]        arm_vc_o,
  // after switch allocation
  input  logic [MaxPv-1:0]             popped_i,     // VC sent its front flit
  input  logic [MaxPv-1:0]             cnt_next_nz_i,// VC holds flits at the end of the cycle
  // the registers as they are, for the observation word (spin_pkg)
  output spin_pkg::obs_router_t        obs_o,
  output logic [(NumPorts-1)*NumVcs*spin_pkg::ObsVcW-1:0] obs_vc_o  // VC (p, v) at (p-1)*NumVcs + v
);
  localparam int unsigned Total = (NumPorts - 1) * NumVcs;   // network VCs

  // ---- registers ----
  spin_pkg::spin_mut_t  st_q, st_d;
  logic [2:0]           dd_port_q, dd_port_d;
  logic [1:0]           dd_vc_q, dd_vc_d;
  logic [MaxPv-1:0]     spinning_q, spinning_d;
  logic [2*MaxPv-1:0]   spin_ovc_q, spin_ovc_d;
  logic [spin_pkg::EpW-1:0] ep_q, ep_d;   // cycle within the priority epoch (4 t_DD)
  logic [spin_pkg::IdW-1:0] top_q, top_d;
  logic [5:0]           loop_n_q, loop_start_q, loop_cyc_q;
  logic [2:0]           loop_port0_q;
  logic [spin_pkg::SmPathW-1:0] loop_path_q;
  logic                 latch, clear;           // by steps 1 to 4
  logic                 latch_all;              // ... or by an adoption
  logic [2:0]           loop_port0;
  logic [5:0]           loop_len_q;             // hops round the latched loop

  // the loop buffer as of this cycle (step 4 may latch a loop)
  logic [5:0]                   lb_start, lb_cyc;
  logic [OfferW-1:0]            offer_a, offer_b;   // offers A (step 2) and B (a loop taken)
  // A loop is taken from a probe on one input port: the router's own probe
  // back (step 4, own_p) or a probe a probe manager adopted (adopt_port_i;
  // never both in one cycle: step 4 leaves the FSM in MOVE, where no port
  // adopts).  One multiplexer reads that probe's path for the loop buffer
  // and for the move round the loop (offer B), and its n.
  logic [2:0]                   own_p, take_p;
  logic [spin_pkg::SmPathW-1:0] take_path;
  logic [5:0]                   take_n;      // that probe's n
  assign take_p    = adopt_i ? adopt_port_i : own_p;
  assign take_path = in_data_i[32'(take_p)*spin_pkg::SmW + spin_pkg::SmPathLsb +: spin_pkg::SmPathW];
  assign take_n    = in_data_i[32'(take_p)*spin_pkg::SmW + spin_pkg::SmNLsb +: 6];
  assign latch_all = en_i && (latch || adopt_i);
  spin_loop_buf u_loop_buf (
    .clk_i, .rst_ni,
    .latch_i(latch_all),
    .n_i    (take_n),
    .start_i(adopt_i ? adopt_start_i : lb_start),
    .cyc_i  (adopt_i ? adopt_cyc_i : lb_cyc),
    .port0_i(adopt_i ? adopt_port0_i : loop_port0),
    .path_i (take_path),
    .clear_i(clear),
    .n_o    (loop_n_q),
    .start_o(loop_start_q),
    .cyc_o  (loop_cyc_q),
    .port0_o(loop_port0_q),
    .path_o (loop_path_q)
  );
  assign loop_len_q = loop_n_q - loop_start_q;

  // ---- steps 1 to 4 ----
  spin_pkg::spin_mut_t s;
  logic [2:0]           dd_port;
  logic [1:0]           dd_vc;
  logic [MaxPv-1:0]     spinning;
  logic [2*MaxPv-1:0]   spin_ovc;
  logic [5:0]           loop_n, loop_start, loop_cyc;
  logic [6:0]           own_cyc;                // an own probe back: n + x
  logic                 expired, sender;
  logic [spin_pkg::KindW-1:0] kind;
  logic [spin_pkg::SmPathLsb+2:0] w;   // a message's fields up to path entry 0
  logic [2:0]           o3, wop;
  logic                 found;
  logic [1:0]           pick;
  int unsigned          idx;
  // step 4, per port: an own probe back that would take its loop (pb, with
  // its VC, cycles and first port), an own move, probe_move or kill_move
  // home (mvh, pmh, kh, with its delay); the kill_move's and the probe's port
  // (sized for MaxPorts, so that a 3-bit port indexes them)
  localparam int unsigned MaxP = spin_pkg::MaxPorts;
  logic [MaxP-1:0]       pb, mvh, pmh, kh;
  logic [MaxP*2-1:0]     pb_vc;
  logic [MaxP*6-1:0]     pb_cyc;
  logic [MaxP*3-1:0]     pb_op;
  logic [MaxP*7-1:0]     h_delay;
  logic                  kfound, tfound;
  logic [2:0]            kport, tport;

  // originate: the FSM's own move/probe_move/kill_move round the latched
  // loop, read from the entry after this router's own
  function automatic logic [OfferW-1:0] originate(input logic [spin_pkg::KindW-1:0] k,
                                                  input logic [6:0] delay,
                                                  input logic [spin_pkg::IdW-1:0] id,
                                                  input logic [5:0] n,
                                                  input logic [5:0] start,
                                                  input logic [spin_pkg::SmPathW-1:0] path);
    originate = {k, spin_pkg::sm_word(id, n, delay, start + 1'b1, path)};
  endfunction

  always_comb begin
    s            = st_q;
    s.cnt_loaded = 1'b0;
    dd_port      = dd_port_q;
    dd_vc        = dd_vc_q;
    spinning     = spinning_q;
    spin_ovc     = spin_ovc_q;
    loop_n       = loop_n_q;
    loop_start   = loop_start_q;
    loop_cyc     = loop_cyc_q;
    own_cyc      = '0;
    loop_port0   = loop_port0_q;
    latch        = 1'b0;
    clear        = 1'b0;
    offer_valid_o = '0;
    offer_port_o  = '0;
    offer_a       = '0;
    own_p         = '0;
    in_busy_o     = '0;
    spin_vc_o     = '0;
    out_busy_o    = '0;
    spin_src_o    = '0;
    spin_ovc_o    = '0;
    arm_o         = '0;
    arm_vc_o      = '0;
    found         = 1'b0;
    pick          = '0;
    kind          = '0;
    w             = '0;
    o3            = '0;
    wop           = '0;
    idx           = 0;
    expired = s.cnt == '0;
    sender  = s.state == spin_pkg::StMove || s.state == spin_pkg::StProbeMove ||
              s.state == spin_pkg::StForwardProgress || s.state == spin_pkg::StKillMove;

    // 1. arm notices
    for (int unsigned o = 1; o < NumPorts; o++)
      if (arm_in_i[o])
        for (int unsigned p = 1; p < NumPorts; p++)
          for (int unsigned v = 0; v < NumVcs; v++)
            if (s.frozen[p*4+v] && !s.armed[p*4+v] && op_i[(p*4+v)*3 +: 3] == 3'(o)) begin
              s.armed[p*4+v] = 1'b1;
              spin_ovc[(p*4+v)*2 +: 2] = arm_in_vc_i[o*2 +: 2];
              if (!(sender && 3'(p) == dd_port && 2'(v) == dd_vc)) begin
                arm_o[p] = 1'b1;
                arm_vc_o[p*2 +: 2] = 2'(v);
              end
            end

    // 2. the counter
    if (expired) begin
      unique case (s.state)
        spin_pkg::StDd: begin
          idx = 32'(dd_port) * 4 + 32'(dd_vc);
          if (cnt_nz_i[idx] && rv_i[idx] && op_i[idx*3 +: 3] != '0) begin
            offer_valid_o[0] = 1'b1;
            offer_port_o[2:0] = op_i[idx*3 +: 3];
            offer_a = {spin_pkg::KindProbe,
                                    spin_pkg::sm_word(id_i, 6'd1, 7'd0, 6'd0,
                                                      spin_pkg::SmPathW'(op_i[idx*3 +: 3]))};
          end
        end
        spin_pkg::StMove: begin       // the move did not come back
          s.state = spin_pkg::StKillMove;
          offer_valid_o[0] = 1'b1;
          offer_port_o[2:0] = loop_port0;
          offer_a = originate(spin_pkg::KindKillMove, 7'd0, id_i, loop_n,
                                           loop_start, loop_path_q);
          s.cnt = spin_pkg::CntW'(loop_cyc_q);
          s.cnt_loaded = 1'b1;
        end
        spin_pkg::StForwardProgress: begin   // the spin cycle
          for (int unsigned p = 1; p < NumPorts; p++)
            for (int unsigned v = 0; v < NumVcs; v++)
              if (s.frozen[p*4+v] && !spinning[p*4+v]) begin
                if (s.armed[p*4+v]) spinning[p*4+v] = 1'b1;
                else s.frozen[p*4+v] = 1'b0;
              end
          s.state   = spin_pkg::StProbeMove;
          s.pm_sent = 1'b0;
          s.cnt = spin_pkg::CntW'(spin_pkg::SpinSettle - 1);
          s.cnt_loaded = 1'b1;
        end
        spin_pkg::StProbeMove: begin
          offer_valid_o[0] = 1'b1;
          offer_port_o[2:0] = loop_port0;
          if (!s.pm_sent) begin
            offer_a = originate(spin_pkg::KindProbeMove, {loop_cyc_q, 1'b0},
                                             id_i, loop_n, loop_start, loop_path_q);
            s.pm_sent = 1'b1;
          end else begin            // the probe_move did not come back
            s.state = spin_pkg::StKillMove;
            offer_a = originate(spin_pkg::KindKillMove, 7'd0, id_i, loop_n,
                                             loop_start, loop_path_q);
          end
          s.cnt = spin_pkg::CntW'(loop_cyc_q);
          s.cnt_loaded = 1'b1;
        end
        spin_pkg::StKillMove: begin   // the recovery ends
          s             = spin_pkg::leave(s, spinning);
          clear         = 1'b1;
          latch         = 1'b0;
          s.cnt         = tdd_i - 1'b1;
          s.cnt_loaded  = 1'b1;
        end
        spin_pkg::StFrozen: begin
          if (!s.pm_sent) begin       // the spin cycle
            for (int unsigned p = 1; p < NumPorts; p++)
              for (int unsigned v = 0; v < NumVcs; v++)
                if (s.frozen[p*4+v] && !spinning[p*4+v]) begin
                  if (s.armed[p*4+v]) spinning[p*4+v] = 1'b1;
                  else s.frozen[p*4+v] = 1'b0;
                end
            s.pm_sent = 1'b1;
            s.cnt = spin_pkg::CntW'(spin_pkg::SpinRelease);
          end else begin              // nobody came back for us: give up
            s             = spin_pkg::leave(s, spinning);
            s.cnt         = tdd_i - 1'b1;
          end
          s.cnt_loaded = 1'b1;
        end
        default: ;                    // OFF
      endcase
    end

    // 3. spin flits
    for (int unsigned p = 1; p < NumPorts; p++)
      for (int unsigned v = 0; v < NumVcs; v++)
        if (spinning[p*4+v] && cnt_nz_i[p*4+v]) begin
          for (int unsigned o = 0; o < NumPorts; o++)
            if (op_i[(p*4+v)*3 +: 3] == 3'(o)) begin
              out_busy_o[o] = 1'b1;
              spin_src_o[o*3 +: 3] = 3'(p);
              spin_ovc_o[o*2 +: 2] = spin_ovc[(p*4+v)*2 +: 2];
            end
          in_busy_o[p] = 1'b1;
          spin_vc_o[p*2 +: 2] = 2'(v);
        end

    // 4. the router's own messages coming back.  The ports are looked at
    // side by side, from the state after steps 1 to 3: in one cycle at most
    // an own kill_move home (KILL_MOVE -> DD) and then an own probe back at
    // a later port act; every other action leaves a state in which no later
    // port's message acts (a probe back needs DD and leaves MOVE, with its
    // own port as dd_port; a move or probe_move home needs MOVE or
    // PROBE_MOVE and arrives at dd_port), so the lowest port of each kind
    // decides, as the C model's walk over the ports in order does.
    pb = '0;
    mvh = '0;
    pmh = '0;
    kh = '0;
    pb_vc = '0;
    pb_cyc = '0;
    pb_op = '0;
    h_delay = '0;
    for (int unsigned p = 1; p < NumPorts; p++) begin
      kind = in_kind_i[p*spin_pkg::KindW +: spin_pkg::KindW];
      w    = in_data_i[p*spin_pkg::SmW +: spin_pkg::SmPathLsb + 3];
      wop  = w[spin_pkg::SmPathLsb +: 3];   // path entry 0: the sender's own output
      if (kind >= spin_pkg::KindProbe && kind <= spin_pkg::KindKillMove && w[11:0] == id_i) begin
        if (kind == spin_pkg::KindProbe) begin
          // cycles round the loop: n hops, and x cycles beyond 1 a hop
          own_cyc = {1'b0, w[spin_pkg::SmNLsb +: 6]} + w[spin_pkg::SmDelayLsb +: 7];
          found = 1'b0;
          pick  = '0;
          for (int unsigned v = 0; v < NumVcs; v++)
            if (!found && cnt_nz_i[p*4+v] && rv_i[p*4+v] && op_i[(p*4+v)*3 +: 3] == wop) begin
              found = 1'b1;
              pick  = 2'(v);
            end
          pb[p] = found && 32'(own_cyc) <= spin_pkg::SmMaxLoop;
          pb_vc[p*2 +: 2]  = pick;
          pb_cyc[p*6 +: 6] = own_cyc[5:0];
          pb_op[p*3 +: 3]  = wop;
        end else if (w[spin_pkg::SmIdxLsb +: 6] == w[spin_pkg::SmNLsb +: 6]) begin   // home
          mvh[p] = kind == spin_pkg::KindMove;
          pmh[p] = kind == spin_pkg::KindProbeMove;
          kh[p]  = kind == spin_pkg::KindKillMove;
          h_delay[p*7 +: 7] = w[spin_pkg::SmDelayLsb +: 7];
        end
      end
    end

    // the move or probe_move home: only at the loop's port (dd_port)
    if (((s.state == spin_pkg::StMove && mvh[dd_port]) ||
         (s.state == spin_pkg::StProbeMove && s.pm_sent && pmh[dd_port])) &&
        h_delay[32'(dd_port)*7 +: 7] >= 7'd2) begin
      // freeze_own: the loop's VC first, else the lowest that fits
      o3    = loop_port0;
      found = 1'b0;
      pick  = '0;
      if (spin_pkg::may_freeze(s.frozen, op_i, NumPorts, NumVcs, dd_port, o3)) begin
        if (whole_i[32'(dd_port)*4 + 32'(dd_vc)] &&
            op_i[(32'(dd_port)*4 + 32'(dd_vc))*3 +: 3] == o3) begin
          found = 1'b1;
          pick  = dd_vc;
        end
        for (int unsigned v = 0; v < NumVcs; v++)
          if (!found && whole_i[32'(dd_port)*4+v] && op_i[(32'(dd_port)*4+v)*3 +: 3] == o3) begin
            found = 1'b1;
            pick  = 2'(v);
          end
      end
      if (found) begin
        s.frozen[32'(dd_port)*4 + 32'(pick)] = 1'b1;
        s.armed[32'(dd_port)*4 + 32'(pick)]  = 1'b0;
        dd_vc         = pick;
        s.is_deadlock = 1'b1;
        s.source_id   = id_i;
        s.state       = spin_pkg::StForwardProgress;
        s.cnt         = spin_pkg::CntW'(h_delay[32'(dd_port)*7 +: 7]) - 1'b1;
        s.cnt_loaded  = 1'b1;
        for (int unsigned p = 1; p < NumPorts; p++)
          if (3'(p) == dd_port) begin
            arm_o[p]           = 1'b1;
            arm_vc_o[p*2 +: 2] = pick;
          end
      end
    end

    // the kill_move home (the lowest port): the recovery ends
    kfound = 1'b0;
    kport  = '0;
    if (s.state == spin_pkg::StKillMove)
      for (int unsigned p = 1; p < NumPorts; p++)
        if (!kfound && kh[p]) begin
          kfound = 1'b1;
          kport  = 3'(p);
        end
    if (kfound) begin
      s             = spin_pkg::leave(s, spinning);
      clear         = 1'b1;
      latch         = 1'b0;
      s.cnt         = tdd_i - 1'b1;
      s.cnt_loaded  = 1'b1;
    end

    // the probe back (the lowest port, after that kill_move's): the loop
    tfound = 1'b0;
    tport  = '0;
    if (s.state == spin_pkg::StDd)
      for (int unsigned p = 1; p < NumPorts; p++)
        if (!tfound && pb[p] && 3'(p) > kport) begin
          tfound = 1'b1;
          tport  = 3'(p);
        end
    if (tfound) begin
      dd_port    = tport;
      dd_vc      = pb_vc[32'(tport)*2 +: 2];
      loop_start = '0;
      loop_cyc   = pb_cyc[32'(tport)*6 +: 6];
      loop_port0 = pb_op[32'(tport)*3 +: 3];
      own_p      = tport;
      latch      = 1'b1;
      clear      = 1'b0;
      s.state    = spin_pkg::StMove;
      offer_valid_o[1] = 1'b1;
      offer_port_o[5:3] = pb_op[32'(tport)*3 +: 3];
      s.cnt = spin_pkg::CntW'(pb_cyc[32'(tport)*6 +: 6]);
      s.cnt_loaded = 1'b1;
    end

    if (!en_i) begin
      s             = st_q;
      spinning      = spinning_q;
      latch         = 1'b0;
      clear         = 1'b0;
      offer_valid_o = '0;
      in_busy_o     = '0;
      out_busy_o    = '0;
      arm_o         = '0;
    end
    st_pre_o     = s;
    spinning_o   = spinning;
    lb_start     = loop_start;
    lb_cyc       = loop_cyc;
  end
  // Offer B: the move round a loop taken this cycle, from the entry after
  // this router's own (its own probe back: start 0; an adopted loop: the
  // unit offers it to adopt_port0_i), with delay 2C.
  assign offer_o = {offer_b, offer_a};
  assign offer_b =
      adopt_i ? originate(spin_pkg::KindMove, {adopt_cyc_i, 1'b0}, id_i, take_n, adopt_start_i,
                          take_path)
              : originate(spin_pkg::KindMove, {lb_cyc, 1'b0}, id_i, take_n, 6'd0, take_path);

  // ---- after allocation: spin tails, then the watch ----
  spin_pkg::spin_mut_t s2;

  logic [MaxPv-1:0]     spin_tail;
  logic                 moved, nfound;
  int unsigned          cur;
  logic [4:0]           ki;
  logic [2:0]           kp;
  logic [1:0]           kv;

  always_comb begin
    s2        = st_moved_i;
    // a loop adopted this cycle: as the router's own probe back (step 4)
    if (adopt_i) begin
      s2.state      = spin_pkg::StMove;
      s2.cnt        = spin_pkg::CntW'(adopt_cyc_i);
      s2.cnt_loaded = 1'b1;
    end
    spin_tail = spinning & cnt_nz_i & tail_i;
    spinning_d = spinning & ~spin_tail;
    s2.frozen  = s2.frozen & ~spin_tail;
    s2.armed   = s2.armed & ~spin_tail;
    dd_port_d  = adopt_i ? adopt_port_i : dd_port;
    dd_vc_d    = adopt_i ? adopt_vc_i : dd_vc;
    spin_ovc_d = spin_ovc;
    moved  = 1'b0;
    nfound = 1'b0;
    kp     = '0;
    kv     = '0;
    ki     = {dd_port, dd_vc};
    cur    = dd_port == '0 ? Total - 1 : (32'(dd_port) - 1) * NumVcs + 32'(dd_vc);
    if (s2.state == spin_pkg::StOff || s2.state == spin_pkg::StDd) begin
      moved = s2.state == spin_pkg::StOff || dd_port == '0 || !cnt_next_nz_i[ki] ||
              popped_i[ki] || s2.cnt == '0;
      if (moved && !s2.cnt_loaded) begin
        // the next non-empty network VC after the watched one, round robin
        for (int unsigned j = 0; j < Total; j++)
          if (!nfound && j > cur && cnt_next_nz_i[(1 + j / NumVcs) * 4 + j % NumVcs]) begin
            nfound = 1'b1;
            kp = 3'(1 + j / NumVcs);
            kv = 2'(j % NumVcs);
          end
        for (int unsigned j = 0; j < Total; j++)
          if (!nfound && j <= cur && cnt_next_nz_i[(1 + j / NumVcs) * 4 + j % NumVcs]) begin
            nfound = 1'b1;
            kp = 3'(1 + j / NumVcs);
            kv = 2'(j % NumVcs);
          end
        if (!nfound) begin
          s2.state = spin_pkg::StOff;
          s2.cnt   = '0;
        end else begin
          s2.state  = spin_pkg::StDd;
          dd_port_d = kp;
          dd_vc_d   = kv;
          s2.cnt    = tdd_i - 1'b1;
        end
      end else if (!s2.cnt_loaded) begin
        s2.cnt = s2.cnt - 1'b1;
      end
    end else if (!s2.cnt_loaded && s2.cnt != '0) begin
      s2.cnt = s2.cnt - 1'b1;
    end
    s2.cnt_loaded = 1'b0;
    st_d = s2;
    if (!en_i) begin
      st_d       = st_q;
      dd_port_d  = dd_port_q;
      dd_vc_d    = dd_vc_q;
      spinning_d = spinning_q;
      spin_ovc_d = spin_ovc_q;
    end

    // rotating priority: top = (cycle / (4 t_DD)) mod nodes
    ep_d  = ep_q + 1'b1;
    top_d = top_q;
    if (ep_q == {tdd_i, 2'b00} - 1'b1) begin
      ep_d  = '0;
      top_d = {1'b0, top_q} == nodes_i - 1'b1 ? '0 : top_q + 1'b1;
    end
  end
  assign top_o = top_q;
  assign frozen_q_o = st_q.frozen;

  // ---- observation: the registers, packed (spin_pkg::obs_router_t, obs_vc_t) ----
  spin_pkg::obs_vc_t obs_vc;
  always_comb begin
    obs_o.ep          = ep_q;
    obs_o.top         = top_q;
    obs_o.loop_path   = loop_path_q;
    obs_o.loop_port0  = loop_port0_q;
    obs_o.loop_cyc    = loop_cyc_q;
    obs_o.loop_start  = loop_start_q;
    obs_o.loop_n      = loop_n_q;
    obs_o.pm_sent     = st_q.pm_sent;
    obs_o.source_id   = st_q.source_id;
    obs_o.is_deadlock = st_q.is_deadlock;
    obs_o.dd_vc       = dd_vc_q;
    obs_o.dd_port     = dd_port_q;
    obs_o.cnt         = st_q.cnt;
    obs_o.state       = st_q.state;
    obs_vc_o          = '0;
    for (int unsigned p = 1; p < NumPorts; p++)
      for (int unsigned v = 0; v < NumVcs; v++) begin
        obs_vc.spin_ovc = spin_ovc_q[(p*4+v)*2 +: 2];
        obs_vc.spinning = spinning_q[p*4+v];
        obs_vc.armed    = st_q.armed[p*4+v];
        obs_vc.frozen   = st_q.frozen[p*4+v];
        obs_vc_o[((p-1)*NumVcs + v)*spin_pkg::ObsVcW +: spin_pkg::ObsVcW] = obs_vc;
      end
  end

`ifndef SYNTHESIS
  // Invariants of the registers (docs/microarchitecture.md, 12.2 to 12.6).
  localparam logic [2:0] StOffV = spin_pkg::StOff, StMoveV = spin_pkg::StMove,
                         StPmV = spin_pkg::StProbeMove, StFpV = spin_pkg::StForwardProgress,
                         StKmV = spin_pkg::StKillMove, StFrozenV = spin_pkg::StFrozen;
  logic [2:0]          a_state;
  logic                a_sender;       // a state of the router's own recovery
  logic [MaxPv-1:0]    a_thawable;     // frozen, not spinning
  logic [NumPorts-1:0] a_in_used, a_out_used, a_in_twice, a_out_twice;   // frozen VCs
  logic [NumPorts-1:0] a_sin_used, a_sout_used, a_sin_twice, a_sout_twice; // spin flits
  logic [2:0]          a_o;
  always_comb begin
    a_state    = st_q.state;
    a_sender   = a_state == StMoveV || a_state == StPmV || a_state == StFpV || a_state == StKmV;
    a_thawable = st_q.frozen & ~spinning_q;
    {a_in_used, a_out_used, a_in_twice, a_out_twice} = '0;
    {a_sin_used, a_sout_used, a_sin_twice, a_sout_twice} = '0;
    for (int unsigned p = 1; p < NumPorts; p++)
      for (int unsigned v = 0; v < NumVcs; v++) begin
        a_o = op_i[(p*4+v)*3 +: 3];
        if (st_q.frozen[p*4+v]) begin
          if (a_in_used[p]) a_in_twice[p] = 1'b1;
          if (32'(a_o) < NumPorts && a_out_used[a_o[$clog2(NumPorts)-1:0]])
            a_out_twice[a_o[$clog2(NumPorts)-1:0]] = 1'b1;
          a_in_used[p] = 1'b1;
          if (32'(a_o) < NumPorts) a_out_used[a_o[$clog2(NumPorts)-1:0]] = 1'b1;
        end
        if (spinning[p*4+v] && cnt_nz_i[p*4+v]) begin   // sends a spin flit (step 3)
          if (a_sin_used[p]) a_sin_twice[p] = 1'b1;
          if (32'(a_o) < NumPorts && a_sout_used[a_o[$clog2(NumPorts)-1:0]])
            a_sout_twice[a_o[$clog2(NumPorts)-1:0]] = 1'b1;
          a_sin_used[p] = 1'b1;
          if (32'(a_o) < NumPorts) a_sout_used[a_o[$clog2(NumPorts)-1:0]] = 1'b1;
        end
      end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni && en_i) begin
      StateLegal_A: assert (a_state <= StFrozenV)
        else $error("spin_fsm: illegal state %0d", a_state);
      OffIdle_A: assert (a_state != StOffV || (st_q.cnt == '0 && st_q.frozen == '0))
        else $error("spin_fsm: OFF with counter %0d, frozen %b", st_q.cnt, st_q.frozen);
      // only the router's own recovery holds a loop
      LoopHeld_A: assert ((loop_n_q != '0) == a_sender)
        else $error("spin_fsm: loop of %0d in state %0d", loop_n_q, a_state);
      // a recovery this router takes part in: is_deadlock from the freeze
      // (its own move back, or another's move) to the end
      DeadlockState_A: assert ((!st_q.is_deadlock || a_state == StFpV || a_state == StPmV ||
                                a_state == StKmV || a_state == StFrozenV) &&
                               (st_q.is_deadlock || !(a_state == StFpV || a_state == StPmV ||
                                                      a_state == StFrozenV)))
        else $error("spin_fsm: is_deadlock %0d in state %0d", st_q.is_deadlock, a_state);
      SourceId_A: assert (!((a_state == StFpV || a_state == StPmV) && st_q.source_id != id_i) &&
                          !(a_state == StFrozenV && st_q.source_id == id_i))
        else $error("spin_fsm: source %0d in state %0d", st_q.source_id, a_state);
      // a frozen VC that is not spinning belongs to a recovery in progress:
      // one this router takes part in, or its own before the move is back
      // (a figure 8: MOVE, then KILL_MOVE when the move does not return)
      FrozenInRecovery_A: assert (a_thawable == '0 || st_q.is_deadlock ||
                                  a_state == StMoveV || a_state == StKmV)
        else $error("spin_fsm: VCs %b frozen outside a recovery (state %0d)", a_thawable,
                    a_state);
      ArmedFrozen_A: assert ((st_q.armed & ~st_q.frozen) == '0)
        else $error("spin_fsm: VCs %b armed but not frozen", st_q.armed & ~st_q.frozen);
      SpinningArmed_A: assert ((spinning_q & ~(st_q.frozen & st_q.armed)) == '0)
        else $error("spin_fsm: VCs %b spinning but not frozen and armed",
                    spinning_q & ~(st_q.frozen & st_q.armed));
      // a frozen VC holds its (whole, routed) packet until its tail spins out
      FrozenHolds_A: assert ((st_q.frozen & ~(cnt_nz_i & rv_i)) == '0)
        else $error("spin_fsm: VCs %b frozen without flits or a route",
                    st_q.frozen & ~(cnt_nz_i & rv_i));
      // one frozen VC per input port and per output port (12.4), so one spin
      // flit per input and per output a cycle (12.6)
      FrozenOnePerPort_A: assert (a_in_twice == '0 && a_out_twice == '0)
        else $error("spin_fsm: two frozen VCs at inputs %b or for outputs %b", a_in_twice,
                    a_out_twice);
      SpinOnePerPort_A: assert (a_sin_twice == '0 && a_sout_twice == '0)
        else $error("spin_fsm: two spin flits from inputs %b or to outputs %b", a_sin_twice,
                    a_sout_twice);
      WatchInRange_A: assert (32'(dd_port_q) < NumPorts && 32'(dd_vc_q) < NumVcs)
        else $error("spin_fsm: watching port %0d VC %0d", dd_port_q, dd_vc_q);
      EpochInRange_A: assert (ep_q < {tdd_i, 2'b00} && {1'b0, top_q} < nodes_i)
        else $error("spin_fsm: epoch cycle %0d (4 t_DD = %0d), top %0d of %0d", ep_q,
                    {tdd_i, 2'b00}, top_q, nodes_i);
    end
  end

  // The paper's theorem: a recovery of a loop of m routers spins at most
  // m - 1 times under minimal routing, m p + (m - 1) = 2m - 1 under
  // FAvORS-NMin (p = 1, section 4.3) (C twin: spin_bound_violations).
  logic [7:0] spins_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      spins_q <= '0;
    end else if (en_i) begin
      if (st_q.state == spin_pkg::StDd && st_d.state == spin_pkg::StMove) begin
        spins_q <= '0;
      end else if (st_q.state == spin_pkg::StForwardProgress && st_q.cnt == '0) begin
        SpinBound_A: assert (32'(spins_q) + 1 < (nmin_i ? 2 : 1) * 32'(loop_len_q))
          else $error("spin_fsm: spin %0d of a recovery round a loop of %0d routers",
                      spins_q + 8'd1, loop_len_q);
        spins_q <= spins_q + 8'd1;
      end
    end
  end
`endif

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q       <= '0;
      dd_port_q  <= '0;
      dd_vc_q    <= '0;
      spinning_q <= '0;
      spin_ovc_q <= '0;
      ep_q       <= '0;
      top_q      <= '0;
    end else begin
      st_q       <= st_d;
      dd_port_q  <= dd_port_d;
      dd_vc_q    <= dd_vc_d;
      spinning_q <= spinning_d;
      spin_ovc_q <= spin_ovc_d;
      ep_q       <= ep_d;
      top_q      <= top_d;
    end
  end
endmodule

`default_nettype wire
