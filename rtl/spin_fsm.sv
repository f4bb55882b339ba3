// spin_fsm: the SPIN counter FSM of one router, the spin and the arm chain
// (docs/microarchitecture.md, 12.3, 12.6, 12.7), with the router's SPIN
// registers.  C twin: spin_fsm_pre(), spin_fsm_home(), spin_take_loop() and
// spin_fsm_post() in cmodel/spin_fsm.c.
//
// One cycle, in the C model's order:
//   1. arm notices from downstream arm the frozen VC bound for that output,
//      record the downstream VC the spin fills, and go upstream;
//   2. spinning VCs send their front flit (spin_* outputs);
//   3. the counter: on expiry (cnt = 0) the state's action (probe,
//      kill_move, spin, probe_move, end of recovery, release);
//   4. the message handled this cycle (spin_sm_in): the router's own coming
//      home is the FSM's (home_o); any other went to the probe or move
//      manager, whose decision comes back here (adopt_*, mm_*);
// then spin tails end their spin and the deadlock-detection watch moves on
// or counts down, from the VCs at the start of the cycle and those that
// sent their front flit in the cycle before (popped_q: no path from this
// cycle's switch allocation into the FSM).
// The FSM offers one message a cycle (own_*): one of step 4 replaces one of
// step 3.  en_i = 0 holds SPIN off.
`default_nettype none

module spin_fsm #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumNics  = 1,      // ports 0..NumNics-1 are NICs, never in a loop
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned FlitW    = 128,
  parameter int unsigned IdW      = 6,
  parameter int unsigned CycW     = 11,
  parameter int unsigned TddW     = 8,
  // the fork entries' bits (NumVcs > 1: SmK * SmChW of spin_sm_layout.svh,
  // set by the instance); 1, unused, with 1 VC
  parameter int unsigned ForkW    = 1,
  localparam int unsigned PW      = $clog2(NumPorts),
  localparam int unsigned CntW    = TddW > CycW + 1 ? TddW : CycW + 1,
  localparam int unsigned EpW     = TddW + 2,
  localparam int unsigned NumPv   = NumPorts * spin_pkg::MaxVcs,   // view entries p*MaxVcs + v
  localparam int unsigned KW      = spin_pkg::KindW,
  localparam int unsigned PortW   = $clog2(NumPorts),  // a port number, in the views too
  localparam int unsigned VcW     = spin_pkg::VcW,     // a VC number
  localparam int unsigned FkW     = spin_pkg::SmFkW    // a fork entry index (fk)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         en_i,
  input  logic [IdW-1:0]               id_i,
  input  logic [IdW:0]                 nodes_i,
  input  logic [TddW-1:0]              tdd_i,
  // views of the input VCs, index p*MaxVcs + v (registers of this cycle)
  input  logic [NumPv-1:0]             cnt_nz_i,
  input  logic [NumPv-1:0]             rv_i,
  input  logic [PortW*NumPv-1:0]       op_i,
  input  logic [NumPv-1:0]             whole_i,
  input  logic [NumPv-1:0]             tail_i,      // front flit is a tail
  input  logic [NumPorts-1:0]          arm_in_i,    // arm notice on the credit of output o
  input  logic [NumPorts*VcW-1:0]      arm_in_vc_i,
  // the message handled this cycle (spin_sm_in)
  input  logic                         h_valid_i,
  input  logic [PW-1:0]                h_port_i,
  input  logic [KW-1:0]                h_kind_i,
  input  logic [FlitW-1:0]             h_data_i,
  output logic                         home_o,      // the FSM took it (its own, home)
  // the state after steps 1 to 3, for the managers
  output spin_pkg::spin_state_e        state_o,
  output logic                         is_deadlock_o,
  output logic [IdW-1:0]               source_id_o,
  output logic                         pm_sent_o,
  output logic [NumPv-1:0]             frozen_pre_o,
  output logic [NumPorts*PortW-1:0]    loop_out_o,
  // the probe manager: a loop adopted at VC adopt_vc_i of the handled port
  input  logic                         adopt_i,
  input  logic [VcW-1:0]               adopt_vc_i,
  input  logic [CycW-1:0]              adopt_cyc_i,
  input  logic [PortW-1:0]             adopt_port0_i,
  input  logic [FkW-1:0]               adopt_fk0_i,
  // the move manager: freeze VC mm_vc_i of the handled port, bound for mm_out_i;
  // enter FROZEN for the message's sender; leave the recovery
  input  logic                         mm_freeze_i,
  input  logic [VcW-1:0]               mm_vc_i,
  input  logic [PortW-1:0]             mm_out_i,
  input  logic                         mm_enter_i,
  input  logic                         mm_release_i,
  output logic [NumPv-1:0]             frozen_o,    // after this cycle's freezes
  output logic [NumPv-1:0]             frozen_q_o,  // at the start of the cycle
  output logic [IdW-1:0]               top_o,       // router of top priority this cycle
  // the FSM's own message
  output logic [PW-1:0]                own_out_o,   // its output; 0: none
  output logic [KW-1:0]                own_kind_o,
  output logic [FlitW-1:0]             own_data_o,
  // spin flits: per output o, from input spin_src_o[o], VC spin_vc_o[p]
  output logic [NumPorts-1:0]          in_busy_o,
  output logic [NumPorts*VcW-1:0]      spin_vc_o,
  output logic [NumPorts-1:0]          out_busy_o,
  output logic [NumPorts*PortW-1:0]    spin_src_o,
  output logic [NumPorts*VcW-1:0]      spin_ovc_o,
  // arm notices to upstream, on the credit register of input p
  output logic [NumPorts-1:0]          arm_o,
  output logic [NumPorts*VcW-1:0]      arm_vc_o,
  // after switch allocation
  input  logic [NumPv-1:0]             popped_i,     // VC sent its front flit (registered)
  // the registers, for the observation word (spin_unit)
  output spin_pkg::spin_state_e        state_q_o,
  output logic                         is_deadlock_q_o,
  output logic [IdW-1:0]               source_id_q_o,
  output logic                         pm_sent_q_o,
  output logic [NumPorts*PortW-1:0]    loop_out_q_o,
  output logic [CntW-1:0]              cnt_q_o,
  output logic [PortW-1:0]             dd_port_q_o,
  output logic [VcW-1:0]               dd_vc_q_o,
  output logic [CycW-1:0]              loop_cyc_q_o,
  output logic [PortW-1:0]             loop_port0_q_o,
  output logic [FkW-1:0]               loop_fk0_q_o,
  output logic [ForkW-1:0]             loop_fork_q_o,
  output logic [NumPv-1:0]             armed_q_o,
  output logic [NumPv-1:0]             spinning_q_o,
  output logic [VcW*NumPv-1:0]         spin_ovc_q_o,
  output logic [EpW-1:0]               ep_q_o,
  output logic [NumPv-1:0]             popped_q_o
);
`include "spin_sm_layout.svh"
  localparam int unsigned Total = (NumPorts - NumNics) * NumVcs;   // network VCs
  localparam int unsigned PvW    = $clog2(NumPv);
  localparam int unsigned LfW    = ForkW;
  // the VC-number bits this router uses (1 VC: none)
  localparam logic [VcW-1:0] VcMask = VcW'((1 << $clog2(NumVcs)) - 1);

  // The bits of the p*MaxVcs + v vectors that name a network VC of this
  // router, and the bits of a VC number it uses: the registers keep only
  // those (the others are constant 0, which synthesis removes).
  logic [NumPv-1:0]     vc_bits;
  logic [VcW*NumPv-1:0] ovc_bits;
  always_comb begin
    vc_bits  = '0;
    ovc_bits = '0;
    for (int unsigned p = NumNics; p < NumPorts; p++)
      for (int unsigned v = 0; v < NumVcs; v++) begin
        vc_bits[spin_pkg::pv(p, v)]                = 1'b1;
        ovc_bits[spin_pkg::pv(p, v)*VcW +: VcW]    = VcMask;
      end
  end

  // ---- registers ----
  spin_pkg::spin_state_e  state_q, state_d;
  logic [CntW-1:0]        cnt_q, cnt_d;
  logic [PortW-1:0]       dd_port_q, dd_port_d;
  logic [VcW-1:0]         dd_vc_q, dd_vc_d;
  logic                   is_deadlock_q, is_deadlock_d;
  logic [IdW-1:0]         source_id_q, source_id_d;
  logic                   pm_sent_q, pm_sent_d;
  logic [NumPv-1:0]       frozen_q, frozen_d, armed_q, armed_d, spinning_q, spinning_d;
  logic [VcW*NumPv-1:0]   spin_ovc_q, spin_ovc_d;
  logic [NumPorts*PortW-1:0] loop_out_q, loop_out_d;
  logic [EpW-1:0]         ep_q, ep_d;
  logic [NumPv-1:0]       popped_q;           // network VCs that sent a flit in the cycle before
  logic [IdW-1:0]         top_q, top_d;

  // ---- the loop buffer ----
  logic                  lb_latch, lb_set_cyc, lb_clear;
  logic [CycW-1:0]       lb_cyc, loop_cyc_q;
  logic [PortW-1:0]      lb_port0, loop_port0_q;
  logic [FkW-1:0]        lb_fk0, loop_fk0_q;
  logic [LfW-1:0]        lb_fork, loop_fork_q;
  spin_loop_buf #(
    .NumPorts(NumPorts), .CycW(CycW), .NumVcs(NumVcs), .ForkW(LfW)
  ) u_loop_buf (
    .clk_i, .rst_ni,
    .latch_i  (lb_latch),
    .cyc_i    (lb_cyc),
    .port0_i  (lb_port0),
    .fk0_i    (lb_fk0),
    .fork_i   (lb_fork),
    .set_cyc_i(lb_set_cyc),
    .clear_i  (lb_clear),
    .cyc_o    (loop_cyc_q),
    .port0_o  (loop_port0_q),
    .fk0_o    (loop_fk0_q),
    .fork_o   (loop_fork_q)
  );

  // A message's data word (12.1): x is a probe's p0 or the others' lc.
  function automatic logic [FlitW-1:0] sm_word(input logic [IdW-1:0] sender,
                                               input logic [CycW-1:0] t,
                                               input logic [CycW-1:0] x,
                                               input logic [FkW-1:0] fk,
                                               input logic [LfW-1:0] forks);
    sm_word = '0;
    sm_word[IdW-1:0]          = sender;
    sm_word[SmTLsb +: CycW]   = t;
    sm_word[SmXLsb +: CycW]   = x;
    if (NumVcs > 1) begin
      sm_word[SmFkLsb +: FkW]   = fk;
      sm_word[SmForkLsb +: LfW] = forks;
    end
  endfunction

  // ---- what the registers say ----
  logic                  sender;          // a state of the router's own recovery
  logic [CycW-1:0]       c;               // the loop's cycles, C
  logic [CycW-1:0]       d2c;             // 2C + 2, the delay of its messages round the loop
  logic [PvW-1:0]        wi;              // the watched VC, p*MaxVcs + v
  logic [PortW-1:0]      wop;             // its output
  always_comb begin
    sender = state_q == spin_pkg::StMove || state_q == spin_pkg::StProbeMove ||
             state_q == spin_pkg::StForwardProgress || state_q == spin_pkg::StKillMove;
    c      = loop_cyc_q;
    d2c    = {c[CycW-2:0], 1'b0} + CycW'(2);
    wi     = PvW'(spin_pkg::pv(32'(dd_port_q), 32'(dd_vc_q)));
    wop    = op_i[32'(wi)*PortW +: PortW];
  end

  // ---- steps 1 to 3 (a: the state after them; the FSM's offer of step 3) ----
  // 1. arm notices from downstream: arm the frozen VC bound for that output,
  //    record the downstream VC its spin fills, pass the notice upstream
  //    (not from the sender's own watched VC: there the loop closes)
  logic [NumPv-1:0]       armed_arm;
  logic [VcW*NumPv-1:0]   spin_ovc_a;
  logic [NumPorts-1:0]    arm_a;
  logic [NumPorts*VcW-1:0] arm_vc_a;
  always_comb begin
    armed_arm  = armed_q;
    spin_ovc_a = spin_ovc_q;
    arm_a      = '0;
    arm_vc_a   = '0;
    for (int unsigned o = NumNics; o < NumPorts; o++)
      if (arm_in_i[o])
        for (int unsigned p = NumNics; p < NumPorts; p++)
          for (int unsigned v = 0; v < NumVcs; v++)
            if (frozen_q[spin_pkg::pv(p, v)] && !armed_arm[spin_pkg::pv(p, v)] &&
                32'(op_i[spin_pkg::pv(p, v)*PortW +: PortW]) == o) begin
              armed_arm[spin_pkg::pv(p, v)] = 1'b1;
              spin_ovc_a[spin_pkg::pv(p, v)*VcW +: VcW] = arm_in_vc_i[o*VcW +: VcW];
              if (!(sender && 32'(dd_port_q) == p && 32'(dd_vc_q) == v)) begin
                arm_a[p] = 1'b1;
                arm_vc_a[p*VcW +: VcW] = VcW'(v);
              end
            end
  end

  // 2. spin flits: a spinning VC sends its front flit, ahead of everything
  logic [PortW-1:0] so;                   // a spinning VC's output
  always_comb begin
    in_busy_o  = '0;
    spin_vc_o  = '0;
    out_busy_o = '0;
    spin_src_o = '0;
    spin_ovc_o = '0;
    so         = '0;
    for (int unsigned p = NumNics; p < NumPorts; p++)
      for (int unsigned v = 0; v < NumVcs; v++)
        if (spinning_q[spin_pkg::pv(p, v)] && cnt_nz_i[spin_pkg::pv(p, v)]) begin
          so = op_i[spin_pkg::pv(p, v)*PortW +: PortW];
          in_busy_o[p]            = 1'b1;
          spin_vc_o[p*VcW +: VcW] = VcW'(v);
          if (32'(so) < NumPorts) begin
            out_busy_o[so[PW-1:0]]           = 1'b1;
            spin_src_o[32'(so)*PortW +: PortW] = PortW'(p);
            spin_ovc_o[32'(so)*VcW +: VcW]     = spin_ovc_q[spin_pkg::pv(p, v)*VcW +: VcW];
          end
        end
  end

  // 3. the counter: on expiry, the state's action
  spin_pkg::spin_state_e s_a;
  logic [CntW-1:0]       cnt_a;
  logic                  loaded_a, pm_sent_a, spin_a, leave_a;
  logic [PW-1:0]         out_a;
  logic [KW-1:0]         kind_a;
  logic [FlitW-1:0]      data_a;
  always_comb begin
    s_a       = state_q;
    cnt_a     = cnt_q;
    loaded_a  = 1'b0;
    pm_sent_a = pm_sent_q;
    spin_a    = 1'b0;              // the spin cycle
    leave_a   = 1'b0;              // the recovery ends
    out_a     = '0;
    kind_a    = '0;
    data_a    = '0;
    if (cnt_q == '0) begin
      case (state_q)
        spin_pkg::StDd:
          if (cnt_nz_i[wi] && rv_i[wi] && 32'(wop) >= NumNics) begin
            out_a  = PW'(wop);
            kind_a = spin_pkg::KindProbe;
            data_a = sm_word(id_i, '0, CycW'(wop), '0, '0);
          end
        spin_pkg::StMove: begin                  // the move did not come back
          s_a      = spin_pkg::StKillMove;
          out_a    = PW'(loop_port0_q);
          kind_a   = spin_pkg::KindKillMove;
          data_a   = sm_word(id_i, d2c, c, loop_fk0_q, loop_fork_q);
          cnt_a    = CntW'(c);
          loaded_a = 1'b1;
        end
        spin_pkg::StForwardProgress: begin       // the spin cycle
          spin_a    = 1'b1;
          s_a       = spin_pkg::StProbeMove;
          pm_sent_a = 1'b0;
          cnt_a     = CntW'(spin_pkg::SpinSettle - 1);
          loaded_a  = 1'b1;
        end
        spin_pkg::StProbeMove: begin
          out_a = PW'(loop_port0_q);
          if (!pm_sent_q) begin
            kind_a    = spin_pkg::KindProbeMove;
            data_a    = sm_word(id_i, d2c, c, loop_fk0_q, loop_fork_q);
            pm_sent_a = 1'b1;
          end else begin                         // the probe_move did not come back
            s_a    = spin_pkg::StKillMove;
            kind_a = spin_pkg::KindKillMove;
            data_a = sm_word(id_i, d2c, c, loop_fk0_q, loop_fork_q);
          end
          cnt_a    = CntW'(c);
          loaded_a = 1'b1;
        end
        spin_pkg::StKillMove: leave_a = 1'b1;
        spin_pkg::StFrozen:
          if (!pm_sent_q) begin                  // the spin cycle
            spin_a    = 1'b1;
            pm_sent_a = 1'b1;
            cnt_a     = CntW'(spin_pkg::SpinSettle + 2) + CntW'({c, 1'b0});
            loaded_a  = 1'b1;
          end else begin                         // nobody came back for us: give up
            leave_a = 1'b1;
          end
        default: ;
      endcase
    end
    if (leave_a) begin
      s_a      = spin_pkg::StDd;
      cnt_a    = CntW'(tdd_i) - 1'b1;
      loaded_a = 1'b1;
    end
  end
  // the VCs after steps 1 to 3: at the spin cycle each frozen VC not yet
  // spinning spins if armed, else thaws; at the end of a recovery every VC
  // not spinning thaws
  logic [NumPv-1:0] frozen_a, armed_a, spinning_a;
  logic             is_deadlock_a;
  always_comb begin
    frozen_a   = frozen_q;
    armed_a    = armed_arm;
    spinning_a = spinning_q;
    if (spin_a) begin
      spinning_a = spinning_q | (frozen_q & armed_arm);
      frozen_a   = frozen_q & (spinning_q | armed_arm);
    end
    is_deadlock_a = is_deadlock_q && !leave_a;
    if (leave_a) begin
      frozen_a = frozen_a & spinning_a;
      armed_a  = armed_a & spinning_a;
    end
  end
  // the state the managers see
  assign state_o       = s_a;
  assign is_deadlock_o = is_deadlock_a;
  assign source_id_o   = source_id_q;
  assign pm_sent_o     = pm_sent_a;
  assign frozen_pre_o  = frozen_a;
  assign loop_out_o    = loop_out_q;

  // ---- step 4: the router's own message coming home (h: what it does) ----
  logic [IdW-1:0]   hs;
  logic [CycW-1:0]  ht, hlc;
  logic [CycW:0]    ht2;             // the delay - 2, negative below 2 (ht2[CycW])
  logic             at_c;            // the delay is C + 2
  logic [PortW-1:0] hp0, hp;
  logic             h_take, h_freeze, h_finish, pb_found, fz_found, may;
  logic [VcW-1:0]   pb_vc, fz_vc;
  always_comb begin
    hs   = h_data_i[IdW-1:0];
    ht   = h_data_i[SmTLsb +: CycW];
    hlc  = h_data_i[SmXLsb +: CycW];
    ht2  = {1'b0, ht} - (CycW+1)'(2);
    at_c = !ht2[CycW] && ht2[CycW-1:0] == c;
    hp0  = PortW'(h_data_i[SmXLsb +: SmPortW]);
    hp   = PortW'(h_port_i);
    pb_found = 1'b0;
    pb_vc    = '0;
    fz_found = 1'b0;
    fz_vc    = '0;
    may      = 1'b1;
    // an own probe back: the lowest VC at its port waiting for its first port
    for (int unsigned v = 0; v < NumVcs; v++)
      if (!pb_found && cnt_nz_i[spin_pkg::pv(32'(hp), v)] && rv_i[spin_pkg::pv(32'(hp), v)] &&
          op_i[spin_pkg::pv(32'(hp), v)*PortW +: PortW] == hp0) begin
        pb_found = 1'b1;
        pb_vc    = VcW'(v);
      end
    // an own move or probe_move home: a whole packet for port0 that may be
    // frozen, the watched VC first
    for (int unsigned p = NumNics; p < NumPorts; p++)
      for (int unsigned v = 0; v < NumVcs; v++)
        if (frozen_a[spin_pkg::pv(p, v)] &&
            (p == 32'(hp) || op_i[spin_pkg::pv(p, v)*PortW +: PortW] == loop_port0_q))
          may = 1'b0;
    for (int unsigned v = 0; v < NumVcs; v++)
      if (!fz_found && whole_i[spin_pkg::pv(32'(hp), v)] &&
          op_i[spin_pkg::pv(32'(hp), v)*PortW +: PortW] == loop_port0_q) begin
        fz_found = 1'b1;
        fz_vc    = VcW'(v);
      end
    if (whole_i[spin_pkg::pv(32'(hp), 32'(dd_vc_q))] &&
        op_i[spin_pkg::pv(32'(hp), 32'(dd_vc_q))*PortW +: PortW] == loop_port0_q)
      fz_vc = dd_vc_q;
  end
  // which of the three it is, if it is the router's own
  always_comb begin
    home_o   = 1'b0;
    h_take   = 1'b0;
    h_freeze = 1'b0;
    h_finish = 1'b0;
    if (h_valid_i && hs == id_i) begin
      if (h_kind_i == spin_pkg::KindProbe) begin
        home_o = s_a == spin_pkg::StDd && pb_found && 32'(ht) <= SmCycMax;
        h_take = home_o;
      end else if (ht2[CycW] || ht2[CycW-1:0] <= hlc) begin   // delay <= lc + 2: not a figure 8
        home_o = 1'b1;
        if ((h_kind_i == spin_pkg::KindMove && s_a == spin_pkg::StMove) ||
            (h_kind_i == spin_pkg::KindProbeMove && s_a == spin_pkg::StProbeMove && pm_sent_a))
          h_freeze = hp == dd_port_q && at_c && may && fz_found;
        else
          h_finish = h_kind_i == spin_pkg::KindKillMove && s_a == spin_pkg::StKillMove &&
                     at_c;
      end
    end
  end

  // ---- step 4's effects, and the managers' (b: the state after them) ----
  // In this order, a later one winning: the own move home freezes (h_freeze),
  // the move manager freezes for another's recovery (mm_freeze_i, mm_enter_i),
  // the recovery ends (leave_b), a loop is taken (take: own probe or adopted).
  logic                  take, leave_b;
  logic [VcW-1:0]        take_vc;
  logic [CycW-1:0]       take_cyc;
  logic [PortW-1:0]      take_port0;
  logic [FkW-1:0]        take_fk0;
  logic [LfW-1:0]        h_forks;
  always_comb begin
    leave_b    = mm_release_i || h_finish;
    h_forks    = NumVcs > 1 ? LfW'(h_data_i[SmForkLsb +: LfW]) : '0;
    take       = h_take || adopt_i;
    take_vc    = '0;
    take_cyc   = '0;
    take_port0 = '0;
    take_fk0   = '0;
    if (h_take) begin
      take_vc    = pb_vc;
      take_cyc   = ht;
      take_port0 = hp0;
    end
    if (adopt_i) begin
      take_vc    = adopt_vc_i;
      take_cyc   = adopt_cyc_i;
      take_port0 = adopt_port0_i;
      take_fk0   = adopt_fk0_i;
    end
  end

  // the state, the counter and the recovery's registers
  spin_pkg::spin_state_e s_b;
  logic [CntW-1:0]       cnt_b;
  logic                  loaded_b;
  always_comb begin
    s_b           = s_a;
    cnt_b         = cnt_a;
    loaded_b      = loaded_a;
    dd_port_d     = dd_port_q;
    dd_vc_d       = dd_vc_q;
    is_deadlock_d = is_deadlock_a;
    source_id_d   = source_id_q;
    pm_sent_d     = pm_sent_a;
    if (h_freeze) begin
      dd_vc_d       = fz_vc;
      is_deadlock_d = 1'b1;
      source_id_d   = id_i;
      s_b           = spin_pkg::StForwardProgress;
      cnt_b         = CntW'(ht2[CycW-1:0]);
      loaded_b      = 1'b1;
    end
    if (mm_freeze_i && mm_enter_i) begin
      is_deadlock_d = 1'b1;
      source_id_d   = hs;
      s_b           = spin_pkg::StFrozen;
      pm_sent_d     = 1'b0;
      cnt_b         = CntW'(ht2[CycW-1:0]);
      loaded_b      = 1'b1;
    end
    if (leave_b) begin
      is_deadlock_d = 1'b0;
      s_b           = spin_pkg::StDd;
      cnt_b         = CntW'(tdd_i) - 1'b1;
      loaded_b      = 1'b1;
    end
    if (take) begin
      dd_port_d   = hp;
      dd_vc_d     = take_vc;
      source_id_d = id_i;
      s_b         = spin_pkg::StMove;
      cnt_b       = CntW'(take_cyc);
      loaded_b    = 1'b1;
    end
  end

  // the loop buffer and the FSM's own message: a loop taken is latched and
  // a move sent round it, in place of step 3's offer
  always_comb begin
    lb_latch   = take;
    lb_set_cyc = mm_freeze_i && mm_enter_i;
    lb_clear   = leave_a || leave_b;
    lb_cyc     = '0;
    lb_port0   = '0;
    lb_fk0     = '0;
    lb_fork    = '0;
    own_out_o  = out_a;
    own_kind_o = kind_a;
    own_data_o = data_a;
    if (lb_set_cyc) lb_cyc = hlc;
    if (take) begin
      lb_cyc     = take_cyc;
      lb_port0   = take_port0;
      lb_fk0     = take_fk0;
      lb_fork    = h_forks;
      own_out_o  = PW'(take_port0);
      own_kind_o = spin_pkg::KindMove;
      own_data_o = sm_word(id_i, {take_cyc[CycW-2:0], 1'b0} + CycW'(2), take_cyc, take_fk0,
                           h_forks);
    end
  end

  // the VCs, the records of where the moves went, the arm notices
  always_comb begin
    frozen_d   = frozen_a;
    armed_d    = armed_a;
    spinning_d = spinning_a;
    spin_ovc_d = spin_ovc_a;
    loop_out_d = loop_out_q;
    arm_o      = arm_a;
    arm_vc_o   = arm_vc_a;
    if (h_freeze) begin        // the sender's own message came home: freeze, arm
      frozen_d[spin_pkg::pv(32'(hp), 32'(fz_vc))] = 1'b1;
      armed_d[spin_pkg::pv(32'(hp), 32'(fz_vc))]  = 1'b0;
      loop_out_d[32'(hp)*PortW +: PortW]          = loop_port0_q;
      arm_o[h_port_i]                             = 1'b1;
      arm_vc_o[32'(hp)*VcW +: VcW]                = fz_vc;
    end
    if (mm_freeze_i) begin
      if (mm_enter_i && !is_deadlock_a) loop_out_d = '0;   // a new recovery
      frozen_d[spin_pkg::pv(32'(hp), 32'(mm_vc_i))] = 1'b1;
      armed_d[spin_pkg::pv(32'(hp), 32'(mm_vc_i))]  = 1'b0;
      loop_out_d[32'(hp)*PortW +: PortW]            = mm_out_i;
    end
    if (leave_b) begin
      frozen_d = frozen_d & spinning_d;
      armed_d  = armed_d & spinning_d;
    end
    if (take) loop_out_d = '0;
  end
  assign frozen_o = frozen_d;

  // ---- after allocation: spin tails end their spin, then the watch ----
  // the next non-empty network VC after the watched one (the d values),
  // round robin: the first above it in (p - NumNics) * NumVcs + v order, else
  // the first of all.  Each VC is tested at its own constant index.
  int unsigned      cur;              // the watched VC's place in that order
  logic             nx_found, nx_later;
  logic [PortW-1:0] nx_port;
  logic [VcW-1:0]   nx_vc;
  always_comb begin
    cur      = 32'(dd_port_d) < NumNics ? Total - 1
                                         : (32'(dd_port_d) - NumNics) * NumVcs + 32'(dd_vc_d);
    nx_found = 1'b0;
    nx_later = 1'b0;
    nx_port  = '0;
    nx_vc    = '0;
    for (int unsigned i = 0; i < Total; i++)
      if (cnt_nz_i[spin_pkg::pv(NumNics + i / NumVcs, i % NumVcs)] &&
          (!nx_found || (!nx_later && i > cur))) begin
        nx_found = 1'b1;
        nx_later = i > cur;
        nx_port  = PortW'(NumNics + i / NumVcs);
        nx_vc    = VcW'(i % NumVcs);
      end
  end

  // the watch: the watched VC counts down while it holds flits and sends
  // none; otherwise it moves on to the next non-empty network VC
  logic [CntW-1:0]       cnt_w;
  logic [PortW-1:0]      dd_port_w;
  logic [VcW-1:0]        dd_vc_w;
  logic                  watch_moves;
  always_comb begin
    state_d     = s_b;
    cnt_w       = cnt_b;
    dd_port_w   = dd_port_d;
    dd_vc_w     = dd_vc_d;
    watch_moves = !loaded_b &&
                  (s_b == spin_pkg::StOff || 32'(dd_port_d) < NumNics ||
                   !cnt_nz_i[spin_pkg::pv(32'(dd_port_d), 32'(dd_vc_d))] ||
                   popped_q[spin_pkg::pv(32'(dd_port_d), 32'(dd_vc_d))] || cnt_b == '0);
    if (s_b == spin_pkg::StOff || s_b == spin_pkg::StDd) begin
      if (watch_moves) begin
        state_d = spin_pkg::StOff;
        cnt_w   = '0;
        if (nx_found) begin
          state_d   = spin_pkg::StDd;
          dd_port_w = nx_port;
          dd_vc_w   = nx_vc;
          cnt_w     = CntW'(tdd_i) - 1'b1;
        end
      end else if (!loaded_b) begin
        cnt_w = cnt_b - 1'b1;
      end
    end else if (!loaded_b && cnt_b != '0) begin
      cnt_w = cnt_b - 1'b1;
    end
    cnt_d = cnt_w;
  end

  // rotating priority: top = (cycle / (4 t_DD)) mod nodes; ep_q counts the
  // cycles left in the epoch down to 0
  logic [IdW:0] top_inc;
  always_comb begin
    ep_d    = ep_q - 1'b1;
    top_d   = top_q;
    top_inc = {1'b0, top_q} + 1'b1;
    if (ep_q == '0) begin
      ep_d  = {tdd_i - 1'b1, 2'b11};
      top_d = top_inc == nodes_i ? '0 : top_inc[IdW-1:0];
    end
  end

  // spin tails: a spinning VC whose tail leaves ends its spin
  logic [NumPv-1:0] tail_out, frozen_n, armed_n, spinning_n;
  always_comb begin
    tail_out   = spinning_q & cnt_nz_i & tail_i;
    spinning_n = spinning_d & ~tail_out;
    frozen_n   = frozen_d & ~tail_out;
    armed_n    = armed_d & ~tail_out;
  end
  assign top_o      = top_q;
  assign frozen_q_o = frozen_q;

`ifndef SYNTHESIS
  // Invariants of the registers (docs/microarchitecture.md, 12.1 to 12.7).
  logic                a_sender;       // a state of the router's own recovery
  logic [NumPv-1:0]    a_thawable;     // frozen, not spinning
  logic [NumPorts-1:0] a_in_used, a_out_used, a_in_twice, a_out_twice;   // frozen VCs
  logic [NumPorts-1:0] a_sin_used, a_sout_used, a_sin_twice, a_sout_twice; // spin flits
  logic                a_record_ok;    // every frozen VC not spinning: its port's record
  logic [PortW-1:0]    a_o;
  always_comb begin
    a_sender   = sender;
    a_thawable = frozen_q & ~spinning_q;
    {a_in_used, a_out_used, a_in_twice, a_out_twice} = '0;
    {a_sin_used, a_sout_used, a_sin_twice, a_sout_twice} = '0;
    a_record_ok = 1'b1;
    a_o = '0;
    for (int unsigned p = NumNics; p < NumPorts; p++)
      for (int unsigned v = 0; v < NumVcs; v++) begin
        a_o = op_i[spin_pkg::pv(p, v)*PortW +: PortW];
        if (frozen_q[spin_pkg::pv(p, v)]) begin
          if (a_in_used[p]) a_in_twice[p] = 1'b1;
          if (32'(a_o) < NumPorts && a_out_used[a_o[PW-1:0]]) a_out_twice[a_o[PW-1:0]] = 1'b1;
          a_in_used[p] = 1'b1;
          if (32'(a_o) < NumPorts) a_out_used[a_o[PW-1:0]] = 1'b1;
          if (!spinning_q[spin_pkg::pv(p, v)] && loop_out_q[p*PortW +: PortW] != a_o)
            a_record_ok = 1'b0;
        end
        if (spinning_q[spin_pkg::pv(p, v)] && cnt_nz_i[spin_pkg::pv(p, v)]) begin   // sends a spin flit
          if (a_sin_used[p]) a_sin_twice[p] = 1'b1;
          if (32'(a_o) < NumPorts && a_sout_used[a_o[PW-1:0]]) a_sout_twice[a_o[PW-1:0]] = 1'b1;
          a_sin_used[p] = 1'b1;
          if (32'(a_o) < NumPorts) a_sout_used[a_o[PW-1:0]] = 1'b1;
        end
      end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni && en_i) begin
      StateLegal_A: assert (state_q <= spin_pkg::StFrozen)
        else $error("spin_fsm: illegal state %0d", state_q);
      OffIdle_A: assert (state_q != spin_pkg::StOff || (cnt_q == '0 && frozen_q == '0))
        else $error("spin_fsm: OFF with counter %0d, frozen %b", cnt_q, frozen_q);
      // only the router's own recovery holds a loop
      LoopHeld_A: assert ((loop_cyc_q != '0) == (a_sender || state_q == spin_pkg::StFrozen))
        else $error("spin_fsm: loop of %0d cycles in state %0d", loop_cyc_q, state_q);
      // a recovery this router takes part in: is_deadlock from the freeze
      // (its own message home, or another's move) to the end
      DeadlockState_A: assert ((!is_deadlock_q || state_q == spin_pkg::StForwardProgress ||
                                state_q == spin_pkg::StProbeMove || state_q == spin_pkg::StKillMove ||
                                state_q == spin_pkg::StFrozen) &&
                               (is_deadlock_q || !(state_q == spin_pkg::StForwardProgress ||
                                                   state_q == spin_pkg::StProbeMove ||
                                                   state_q == spin_pkg::StFrozen)))
        else $error("spin_fsm: is_deadlock %0d in state %0d", is_deadlock_q, state_q);
      SourceId_A: assert (!((state_q == spin_pkg::StForwardProgress ||
                             state_q == spin_pkg::StProbeMove) && source_id_q != id_i) &&
                          !(state_q == spin_pkg::StFrozen && source_id_q == id_i))
        else $error("spin_fsm: source %0d in state %0d", source_id_q, state_q);
      // a frozen VC that is not spinning belongs to a recovery in progress:
      // one this router takes part in, or its own before the move is back
      // (a figure 8: MOVE, then KILL_MOVE when the move does not return)
      FrozenInRecovery_A: assert (a_thawable == '0 || is_deadlock_q ||
                                  state_q == spin_pkg::StMove || state_q == spin_pkg::StKillMove)
        else $error("spin_fsm: VCs %b frozen outside a recovery (state %0d)", a_thawable, state_q);
      ArmedFrozen_A: assert ((armed_q & ~frozen_q) == '0)
        else $error("spin_fsm: VCs %b armed but not frozen", armed_q & ~frozen_q);
      SpinningArmed_A: assert ((spinning_q & ~(frozen_q & armed_q)) == '0)
        else $error("spin_fsm: VCs %b spinning but not frozen and armed",
                    spinning_q & ~(frozen_q & armed_q));
      // a frozen VC holds its (whole, routed) packet until its tail spins out
      FrozenHolds_A: assert ((frozen_q & ~(cnt_nz_i & rv_i)) == '0)
        else $error("spin_fsm: VCs %b frozen without flits or a route", frozen_q & ~(cnt_nz_i & rv_i));
      // the record of where the move went is the frozen VC's route (12.1)
      FrozenRecord_A: assert (a_record_ok)
        else $error("spin_fsm: a frozen VC's route differs from its port's record %b", loop_out_q);
      // one frozen VC per input port and per output port (12.5), so one spin
      // flit per input and per output a cycle (12.7)
      FrozenOnePerPort_A: assert (a_in_twice == '0 && a_out_twice == '0)
        else $error("spin_fsm: two frozen VCs at inputs %b or for outputs %b", a_in_twice, a_out_twice);
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

  // The paper's theorem (a recovery of a loop of m routers spins at most
  // m - 1 times, 2m - 1 under FAvORS-NMin) is checked by the C model, which
  // walks the loop at its first spin (spin_bound_violations); the messages
  // carry no hop count (12.1).
`endif

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q       <= spin_pkg::StOff;
      cnt_q         <= '0;
      dd_port_q     <= '0;
      dd_vc_q       <= '0;
      is_deadlock_q <= 1'b0;
      source_id_q   <= '0;
      pm_sent_q     <= 1'b0;
      frozen_q      <= '0;
      armed_q       <= '0;
      spinning_q    <= '0;
      spin_ovc_q    <= '0;
      loop_out_q    <= '0;
      popped_q      <= '0;
      ep_q          <= {tdd_i - 1'b1, 2'b11};
      top_q         <= '0;
    end else begin
      if (en_i) begin
        state_q       <= state_d;
        cnt_q         <= cnt_d;
        dd_port_q     <= dd_port_w;
        dd_vc_q       <= dd_vc_w & VcMask;
        is_deadlock_q <= is_deadlock_d;
        source_id_q   <= source_id_d;
        pm_sent_q     <= pm_sent_d;
        frozen_q      <= frozen_n & vc_bits;
        armed_q       <= armed_n & vc_bits;
        spinning_q    <= spinning_n & vc_bits;
        spin_ovc_q    <= spin_ovc_d & ovc_bits;
        // NIC ports have none.  The cast is parenthesized: Yosys 0.23 reads
        // ~W'(x) as W'(x), the ~ lost, and kept only the NIC ports' bits (0)
        loop_out_q    <= loop_out_d & ~((NumPorts*PortW)'((64'd1 << (PortW * NumNics)) - 64'd1));
        popped_q      <= popped_i & vc_bits;   // network VCs
      end
      ep_q  <= ep_d;
      top_q <= top_d;
    end
  end

  assign state_q_o       = state_q;
  assign is_deadlock_q_o = is_deadlock_q;
  assign source_id_q_o   = source_id_q;
  assign pm_sent_q_o     = pm_sent_q;
  assign loop_out_q_o    = loop_out_q;
  assign cnt_q_o        = cnt_q;
  assign dd_port_q_o    = dd_port_q;
  assign dd_vc_q_o      = dd_vc_q;
  assign loop_cyc_q_o   = loop_cyc_q;
  assign loop_port0_q_o = loop_port0_q;
  assign loop_fk0_q_o   = loop_fk0_q;
  assign loop_fork_q_o  = loop_fork_q;
  assign armed_q_o      = armed_q;
  assign spinning_q_o   = spinning_q;
  assign spin_ovc_q_o   = spin_ovc_q;
  assign ep_q_o         = ep_q;
  assign popped_q_o     = popped_q;
endmodule

`default_nettype wire
