// spin_unit: SPIN of one router, wired together (docs/microarchitecture.md,
// section 12): the input stage (spin_sm_in) takes one special message a
// cycle; the counter FSM (spin_fsm, with the loop buffer) takes the timers,
// the arm chain, the spin and the router's own message coming home; any
// other goes to the probe manager (spin_probe_mgr) or the move manager
// (spin_move_mgr), whose decisions the FSM applies; the output stage
// (spin_sm_out) puts the handled message's forwarding and the FSM's own
// message on the links.  C twin: cmodel/spin_unit.c.
//
// It sees the router's input VCs (views, index p*MaxVcs + v) and the links
// of this cycle, and tells the router which VCs are frozen, which inputs are
// held, which input sends which spin flit to which output, which output
// carries which special message, and which arm notices go upstream.
// obs_o is the SPIN registers as they are (no logic), for the co-simulation:
// its layout is in spin_obs_layout below and in tb/spin_obs.h.
`default_nettype none

module spin_unit #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumNics  = 1,      // ports 0..NumNics-1 are NICs, never in a loop
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned FlitW    = 128,
  parameter int unsigned IdW      = 6,
  parameter int unsigned CycW     = 11,
  parameter int unsigned TddW     = 8,
  parameter int unsigned SmPipe   = 2,
  parameter int unsigned XlatW    = 4,      // bits of a link's latency - 1
  localparam int unsigned ObsW    = spin_pkg::obs_width(NumPorts, NumVcs, FlitW, IdW, CycW,
                                                        TddW),   // the observation word
  localparam int unsigned PW      = $clog2(NumPorts),
  localparam int unsigned NumPv   = NumPorts * spin_pkg::MaxVcs,   // view entries p*MaxVcs + v
  localparam int unsigned KW      = spin_pkg::KindW,
  localparam int unsigned PortW   = $clog2(NumPorts),  // a port number, in the views too
  localparam int unsigned VcW     = spin_pkg::VcW,     // a VC number
  localparam int unsigned FkW     = spin_pkg::SmFkW    // a fork entry index (fk)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         en_i,
  input  logic                         adopt_en_i,    // probe adoption (12.4)
  input  logic [spin_pkg::PipeW-1:0]   pipe_i,        // SmPipe = 3: 0, 1 or 2 at run time
  input  logic [IdW-1:0]               id_i,
  input  logic [IdW:0]                 nodes_i,
  input  logic [TddW-1:0]              tdd_i,
  input  logic [NumPorts*XlatW-1:0] xlat_i, // per output: its link's latency - 1
  input  logic [NumPv-1:0]             cnt_nz_i,
  input  logic [NumPv-1:0]             rv_i,
  input  logic [PortW*NumPv-1:0]       op_i,
  input  logic [NumPv-1:0]             whole_i,
  input  logic [NumPv-1:0]             tail_i,
  input  logic [NumPorts*KW-1:0]       in_kind_i,
  input  logic [NumPorts*FlitW-1:0]    in_data_i,
  input  logic [NumPorts-1:0]          arm_in_i,
  input  logic [NumPorts*VcW-1:0]      arm_in_vc_i,
  input  logic [NumPv-1:0]             popped_i,
  output logic [NumPv-1:0]             frozen_o,      // after this cycle's messages
  output logic [NumPv-1:0]             frozen_req_o,  // skipped by switch allocation (12.2)
  output logic [NumPv-1:0]             frozen_q_o,    // at the start of the cycle
  output logic [NumPorts-1:0]          hold_o,        // inputs held from switch allocation
  output logic [NumPorts-1:0]          in_busy_o,
  output logic [NumPorts*VcW-1:0]      spin_vc_o,
  output logic [NumPorts-1:0]          out_busy_o,
  output logic [NumPorts*PortW-1:0]    spin_src_o,
  output logic [NumPorts*VcW-1:0]      spin_ovc_o,
  output logic [NumPorts-1:0]          sm_valid_o,
  output logic [NumPorts*KW-1:0]       sm_kind_o,
  output logic [NumPorts*FlitW-1:0]    sm_data_o,
  output logic [NumPorts-1:0]          arm_o,
  output logic [NumPorts*VcW-1:0]      arm_vc_o,
  output logic [ObsW-1:0]              obs_o
);
`include "spin_sm_layout.svh"
  localparam int unsigned ForkW  = NumVcs > 1 ? SmK * SmChW : 1;
  localparam int unsigned CntW   = TddW > CycW + 1 ? TddW : CycW + 1;
  localparam int unsigned EpW    = TddW + 2;
  localparam int unsigned MarkW  = IdW + CycW + NumPorts + (NumVcs > 1 ? FkW : 0);

  // ---- the input stage ----
  logic                 h_valid;
  logic [PW-1:0]        h_port;
  logic [KW-1:0]        h_kind;
  logic [FlitW-1:0]     h_data;
  logic [IdW-1:0]       top;
  logic [PW-1:0]        smi_port;
  logic [KW-1:0]        smi_kind;
  logic [FlitW-1:0]     smi_data;
  spin_sm_in #(
    .NumPorts(NumPorts), .NumNics(NumNics), .NumVcs(NumVcs), .FlitW(FlitW), .IdW(IdW), .CycW(CycW),
    .SmPipe(SmPipe), .XlatW(XlatW)
  ) u_sm_in (
    .clk_i, .rst_ni, .en_i, .pipe_i,
    .id_i      (id_i),
    .top_i     (top),
    .xlat_i,
    .kind_i    (in_kind_i),
    .data_i    (in_data_i),
    .valid_o   (h_valid),
    .port_o    (h_port),
    .kind_o    (h_kind),
    .data_o    (h_data),
    .hold_o    (hold_o),
    .smi_port_o(smi_port),
    .smi_kind_o(smi_kind),
    .smi_data_o(smi_data)
  );

  // the handled port's VCs: flits with a route, outputs, whole packets
  logic [NumVcs-1:0]    p_routed, p_whole;
  logic [NumVcs*PortW-1:0] p_op;
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      p_routed[v] = cnt_nz_i[spin_pkg::pv(32'(h_port), v)] && rv_i[spin_pkg::pv(32'(h_port), v)];
      p_whole[v]  = whole_i[spin_pkg::pv(32'(h_port), v)];
      p_op[v*PortW +: PortW] = op_i[spin_pkg::pv(32'(h_port), v)*PortW +: PortW];
    end
  end

  // ---- the FSM ----
  logic                   home;
  spin_pkg::spin_state_e  st;
  logic                   is_deadlock, pm_sent;
  logic [IdW-1:0]         source_id;
  logic [NumPv-1:0]       frozen_pre;
  logic [NumPorts*PortW-1:0] loop_out;
  logic                   adopt, mm_freeze, mm_enter, mm_release;
  logic [VcW-1:0]         adopt_vc, mm_vc;
  logic [CycW-1:0]        adopt_cyc;
  logic [PortW-1:0]       adopt_port0, mm_out;
  logic [FkW-1:0]         adopt_fk0;
  logic [PW-1:0]          own_out;
  logic [KW-1:0]          own_kind;
  logic [FlitW-1:0]       own_data;
  logic [CntW-1:0]        cnt_q;
  logic [PortW-1:0]       dd_port_q, loop_port0_q;
  logic [VcW-1:0]         dd_vc_q;
  logic [CycW-1:0]        loop_cyc_q;
  logic [FkW-1:0]         loop_fk0_q;
  logic [ForkW-1:0]       loop_fork_q;
  logic [NumPv-1:0]       armed_q, spinning_q;
  logic [VcW*NumPv-1:0]   spin_ovc_q;
  logic [EpW-1:0]         ep_q;
  logic [NumPv-1:0]       popped_q;
  spin_pkg::spin_state_e  state_q;
  logic                   is_deadlock_q, pm_sent_q;
  logic [IdW-1:0]         source_id_q;
  logic [NumPorts*PortW-1:0] loop_out_q;
  spin_fsm #(
    .NumPorts(NumPorts), .NumNics(NumNics), .NumVcs(NumVcs), .FlitW(FlitW), .IdW(IdW), .CycW(CycW),
    .TddW(TddW), .ForkW(ForkW)
  ) u_fsm (
    .clk_i, .rst_ni, .en_i, .id_i, .nodes_i, .tdd_i,
    .cnt_nz_i, .rv_i, .op_i, .whole_i, .tail_i, .arm_in_i, .arm_in_vc_i,
    .h_valid_i    (h_valid),
    .h_port_i     (h_port),
    .h_kind_i     (h_kind),
    .h_data_i     (h_data),
    .home_o       (home),
    .state_o      (st),
    .is_deadlock_o(is_deadlock),
    .source_id_o  (source_id),
    .pm_sent_o    (pm_sent),
    .frozen_pre_o (frozen_pre),
    .loop_out_o   (loop_out),
    .adopt_i      (adopt),
    .adopt_vc_i   (adopt_vc),
    .adopt_cyc_i  (adopt_cyc),
    .adopt_port0_i(adopt_port0),
    .adopt_fk0_i  (adopt_fk0),
    .mm_freeze_i  (mm_freeze),
    .mm_vc_i      (mm_vc),
    .mm_out_i     (mm_out),
    .mm_enter_i   (mm_enter),
    .mm_release_i (mm_release),
    .frozen_o     (frozen_o),
    .frozen_q_o   (frozen_q_o),
    .top_o        (top),
    .own_out_o    (own_out),
    .own_kind_o   (own_kind),
    .own_data_o   (own_data),
    .in_busy_o, .spin_vc_o, .out_busy_o, .spin_src_o, .spin_ovc_o, .arm_o, .arm_vc_o,
    .popped_i,
    .state_q_o      (state_q),
    .is_deadlock_q_o(is_deadlock_q),
    .source_id_q_o  (source_id_q),
    .pm_sent_q_o    (pm_sent_q),
    .loop_out_q_o   (loop_out_q),
    .cnt_q_o       (cnt_q),
    .dd_port_q_o   (dd_port_q),
    .dd_vc_q_o     (dd_vc_q),
    .loop_cyc_q_o  (loop_cyc_q),
    .loop_port0_q_o(loop_port0_q),
    .loop_fk0_q_o  (loop_fk0_q),
    .loop_fork_q_o (loop_fork_q),
    .armed_q_o     (armed_q),
    .spinning_q_o  (spinning_q),
    .spin_ovc_q_o  (spin_ovc_q),
    .ep_q_o        (ep_q),
    .popped_q_o    (popped_q)
  );
  // Switch allocation skips the frozen VCs: with SmPipe 0 those after this
  // cycle's message; with SmPipe 1 and 2 those after the FSM's counter (the
  // message's port is held, 12.2).
  logic pipe0;
  assign pipe0 = SmPipe == 0 || (SmPipe == 3 && pipe_i == '0);
  assign frozen_req_o = pipe0 ? frozen_o : frozen_pre;

  // ---- the managers ----
  logic                 free, dd;
  assign free = (st == spin_pkg::StOff || st == spin_pkg::StDd) && !is_deadlock;
  assign dd   = st == spin_pkg::StDd && !is_deadlock;
  logic                 pm_fwd, mm_fwd;
  logic [NumPorts-1:0]  pm_mask, pm_fork;
  logic [PortW-1:0]     mm_port;
  logic [FlitW-1:0]     mm_data;
  logic [(NumPorts-1)*MarkW-1:0] marks;
  spin_probe_mgr #(
    .NumPorts(NumPorts), .NumNics(NumNics), .NumVcs(NumVcs), .FlitW(FlitW), .IdW(IdW), .CycW(CycW)
  ) u_probe_mgr (
    .clk_i, .rst_ni, .en_i, .adopt_en_i, .id_i,
    .top_i        (top),
    .free_i       (free),
    .dd_i         (dd),
    .valid_i      (h_valid && h_kind == spin_pkg::KindProbe && !home),
    .port_i       (h_port),
    .data_i       (h_data),
    .routed_i     (p_routed),
    .op_i         (p_op),
    .fwd_o        (pm_fwd),
    .fwd_mask_o   (pm_mask),
    .fwd_fork_o   (pm_fork),
    .adopt_o      (adopt),
    .adopt_vc_o   (adopt_vc),
    .adopt_cyc_o  (adopt_cyc),
    .adopt_port0_o(adopt_port0),
    .adopt_fk0_o  (adopt_fk0),
    .marks_o      (marks)
  );
  spin_move_mgr #(
    .NumPorts(NumPorts), .NumNics(NumNics), .NumVcs(NumVcs), .FlitW(FlitW), .IdW(IdW), .CycW(CycW)
  ) u_move_mgr (
    .valid_i      (h_valid && h_kind >= spin_pkg::KindMove && !home),
    .port_i       (h_port),
    .kind_i       (h_kind),
    .data_i       (h_data),
    .id_i,
    .state_i      (st),
    .is_deadlock_i(is_deadlock),
    .source_id_i  (source_id),
    .pm_sent_i    (pm_sent),
    .frozen_i     (frozen_pre),
    .loop_out_i   (loop_out[32'(h_port)*PortW +: PortW]),
    .op_all_i     (op_i),
    .routed_i     (p_routed),
    .op_i         (p_op),
    .whole_i      (p_whole),
    .fwd_o        (mm_fwd),
    .fwd_port_o   (mm_port),
    .fwd_data_o   (mm_data),
    .freeze_o     (mm_freeze),
    .freeze_vc_o  (mm_vc),
    .enter_o      (mm_enter),
    .release_o    (mm_release)
  );
  assign mm_out = mm_port;

  // ---- the output stage ----
  logic [NumPorts-1:0]    fwd_mask;
  logic [FlitW-1:0]       fwd_data;
  always_comb begin
    fwd_mask = pm_mask;
    fwd_data = h_data;
    if (mm_fwd) begin
      fwd_mask = '0;
      fwd_mask[mm_port[PW-1:0]] = 1'b1;
      fwd_data = mm_data;
    end
    if (!pm_fwd && !mm_fwd) fwd_mask = '0;
  end
  logic [NumPorts*2-1:0]  smo_src;     // per output: spin_sm_out's SrcW
  logic [KW+FlitW-1:0]    smo_fwd, smo_own;
  logic [NumPorts-1:0]    smo_fork;
  spin_sm_out #(
    .NumPorts(NumPorts), .NumNics(NumNics), .NumVcs(NumVcs), .FlitW(FlitW), .IdW(IdW), .CycW(CycW),
    .SmPipe(SmPipe)
  ) u_sm_out (
    .clk_i, .rst_ni, .en_i, .pipe_i,
    .top_i      (top),
    .out_busy_i (out_busy_o),
    .fwd_mask_i (fwd_mask),
    .fwd_kind_i (h_kind),
    .fwd_data_i (fwd_data),
    .fwd_fork_i (pm_fwd ? pm_fork : '0),
    .own_out_i  (own_out),
    .own_kind_i (own_kind),
    .own_data_i (own_data),
    .sm_valid_o, .sm_kind_o, .sm_data_o,
    .smo_src_o  (smo_src),
    .smo_fwd_o  (smo_fwd),
    .smo_own_o  (smo_own),
    .smo_fork_o (smo_fork)
  );

  // ---- the observation word (tb/spin_obs.h reads it by the same layout) ----
  // the router: state cnt dd_port dd_vc is_deadlock source_id pm_sent
  // loop_cyc loop_port0 [loop_fk0 loop_fork] top ep smi_port smi_kind
  // smi_data smo_src smo_fwd smo_own smo_fork, least significant first;
  // then per network input p: mark (sender cyc out [fk]) loop_out; then
  // per VC of those inputs (p major): frozen armed spinning spin_ovc.
  localparam int unsigned RouterW = spin_pkg::StateW + CntW + PortW + 2 + 1 + IdW + 1 + CycW + PortW +
                                    (NumVcs > 1 ? 6 + ForkW : 0) + IdW + EpW + PW + KW + SmW +
                                    2 * NumPorts + 2 * (KW + SmW) + NumPorts;
  localparam int unsigned PortObsW = MarkW + PortW;
  localparam int unsigned VcObsW   = 6;
  if (ObsW != RouterW + (NumPorts - 1) * (PortObsW + NumVcs * VcObsW)) begin : gen_check_obs
    $error("spin_unit: spin_pkg::obs_width() and the observation layout below differ");
  end
  logic [RouterW-1:0]                         obs_r;
  logic [(NumPorts-1)*PortObsW-1:0]           obs_p;
  logic [(NumPorts-1)*NumVcs*VcObsW-1:0]      obs_v;
  if (NumVcs > 1) begin : gen_obs_forks
    assign obs_r = {smo_fork, smo_own[KW+FlitW-1 -: KW], smo_own[SmW-1:0],
                    smo_fwd[KW+FlitW-1 -: KW], smo_fwd[SmW-1:0], smo_src, smi_data[SmW-1:0],
                    smi_kind, smi_port, ep_q, top, loop_fork_q, loop_fk0_q, loop_port0_q,
                    loop_cyc_q, pm_sent_q, source_id_q, is_deadlock_q, dd_vc_q,
                    dd_port_q, cnt_q, state_q};
  end else begin : gen_obs
    logic unused_forks;
    assign unused_forks = ^{loop_fork_q, loop_fk0_q};
    assign obs_r = {smo_fork, smo_own[KW+FlitW-1 -: KW], smo_own[SmW-1:0],
                    smo_fwd[KW+FlitW-1 -: KW], smo_fwd[SmW-1:0], smo_src, smi_data[SmW-1:0],
                    smi_kind, smi_port, ep_q, top, loop_port0_q, loop_cyc_q,
                    pm_sent_q, source_id_q, is_deadlock_q, dd_vc_q, dd_port_q, cnt_q, state_q};
  end
  for (genvar p = 1; p < NumPorts; p++) begin : gen_obs_port
    assign obs_p[(p-1)*PortObsW +: PortObsW] = {loop_out_q[p*PortW +: PortW], marks[(p-1)*MarkW +: MarkW]};
    for (genvar v = 0; v < NumVcs; v++) begin : gen_obs_vc
      assign obs_v[((p-1)*NumVcs + v)*VcObsW +: VcObsW] =
          {popped_q[spin_pkg::pv(p, v)], spin_ovc_q[spin_pkg::pv(p, v)*VcW +: VcW],
           spinning_q[spin_pkg::pv(p, v)], armed_q[spin_pkg::pv(p, v)],
           frozen_q_o[spin_pkg::pv(p, v)]};
    end
  end
  assign obs_o = {obs_v, obs_p, obs_r};
endmodule

`default_nettype wire
