// fv_spin_fsm: the formal environment of the SPIN counter FSM (spin_fsm with
// its loop buffer) and the two managers whose decisions it applies
// (spin_probe_mgr, spin_move_mgr), wired as spin_unit wires them
// (docs/formal.md).  The properties proven are those of
// tb/formal/spin_fsm.props.svh, spliced into the FSM.  Free inputs, each
// cycle, within what the contract (docs/microarchitecture.md, 12) gives the
// unit:
//  - configuration, fixed for the run: SPIN on or off, adoption on or off,
//    t_DD of 2 .. 2^TddW - 1 (spin_router's range), N routers of 1 .. 2^IdW,
//    this router's id below N;
//  - the input VCs' views: any value for the VCs that exist (the others 0),
//    routes to real ports, a whole packet only with flits and a route; a VC
//    frozen at the start of a cycle holds flits with a route, and the same
//    output as in the cycle before (a frozen VC takes no part in switch
//    allocation and is never rerouted; a spinning one sends the flits of
//    the one whole packet it froze with, 12.5, 12.7); sent-flit bits any;
//  - arm notices from downstream: any, on any output, naming any VC;
//  - the special message handled (spin_sm_in's output): none, or one on a
//    network input, of kind probe to kill_move, from a router below N; a
//    probe has counted at least one hop (cyc >= 1) and its p0 is a network
//    port (every probe leaves its sender's FSM so, 12.3); a move, probe_move
//    or kill_move carries 1 <= lc <= CycMax and delay <= 2 lc + 2 (it was
//    sent with 2C + 2 and loses its hops, 12.1); with several VCs, fk <= K
//    (no router forwards a message past its last fork entry).  Its other
//    fields are any.
`default_nettype none

module fv_spin_fsm #(
  parameter int unsigned NumPorts = 3,
  parameter int unsigned NumVcs   = 1,
  localparam int unsigned NumNics = 1,
  // with 2 VCs: 4 fork entries of 1 bit after the 6-bit fk (12.1)
  localparam int unsigned FlitW   = NumVcs > 1 ? 24 : 16,
  localparam int unsigned IdW     = 2,
  localparam int unsigned CycW    = 6,
  localparam int unsigned TddW    = 3,
  localparam int unsigned PW      = $clog2(NumPorts),
  localparam int unsigned NumPv   = NumPorts * spin_pkg::MaxVcs,   // view entries p*MaxVcs + v
  localparam int unsigned MaxVcs  = spin_pkg::MaxVcs,
  localparam int unsigned KW      = spin_pkg::KindW
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic [NumPv-1:0]          cnt_nz_i,
  input logic [NumPv-1:0]          rv_i,
  input logic [PW*NumPv-1:0]        op_i,
  input logic [NumPv-1:0]          whole_i,
  input logic [NumPv-1:0]          tail_i,
  input logic [NumPorts-1:0]       arm_in_i,
  input logic [NumPorts*2-1:0]     arm_in_vc_i,
  input logic [NumPv-1:0]          popped_i,
  input logic                      h_valid_i,
  input logic [PW-1:0]             h_port_i,
  input logic [KW-1:0]             h_kind_i,
  input logic [FlitW-1:0]          h_data_i
);
`include "spin_sm_layout.svh"
  localparam int unsigned ForkW = NumVcs > 1 ? SmK * SmChW : 1;

  (* anyconst *) logic            fv_en, fv_adopt_en;
  (* anyconst *) logic [IdW-1:0]  fv_id;
  (* anyconst *) logic [IdW:0]    fv_nodes;
  (* anyconst *) logic [TddW-1:0] fv_tdd;

  // ---- the FSM and its managers, as in spin_unit ----
  logic                   home;
  spin_pkg::spin_state_e  st;
  logic                   is_deadlock, pm_sent;
  logic [IdW-1:0]         source_id, top;
  logic [NumPv-1:0]       frozen_pre, frozen, frozen_q, spinning_q;
  logic [NumPorts*PW-1:0]  loop_out;
  logic                   adopt, mm_freeze, mm_enter, mm_release;
  logic [1:0]             adopt_vc, mm_vc;
  logic [CycW-1:0]        adopt_cyc;
  logic [PW-1:0]          adopt_port0, mm_port;
  logic [5:0]             adopt_fk0;

  spin_fsm #(
    .NumPorts(NumPorts), .NumNics(NumNics), .NumVcs(NumVcs), .FlitW(FlitW), .IdW(IdW), .CycW(CycW),
    .TddW(TddW), .ForkW(ForkW)
  ) u_fsm (
    .clk_i, .rst_ni, .en_i(fv_en), .id_i(fv_id), .nodes_i(fv_nodes), .tdd_i(fv_tdd),
    .cnt_nz_i, .rv_i, .op_i, .whole_i, .tail_i, .arm_in_i, .arm_in_vc_i,
    .h_valid_i, .h_port_i, .h_kind_i, .h_data_i,
    .home_o(home), .state_o(st), .is_deadlock_o(is_deadlock), .source_id_o(source_id),
    .pm_sent_o(pm_sent), .frozen_pre_o(frozen_pre), .loop_out_o(loop_out),
    .adopt_i(adopt), .adopt_vc_i(adopt_vc), .adopt_cyc_i(adopt_cyc),
    .adopt_port0_i(adopt_port0), .adopt_fk0_i(adopt_fk0),
    .mm_freeze_i(mm_freeze), .mm_vc_i(mm_vc), .mm_out_i(mm_port), .mm_enter_i(mm_enter),
    .mm_release_i(mm_release),
    .frozen_o(frozen), .frozen_q_o(frozen_q), .top_o(top),
    .own_out_o(), .own_kind_o(), .own_data_o(),
    .in_busy_o(), .spin_vc_o(), .out_busy_o(), .spin_src_o(), .spin_ovc_o(),
    .arm_o(), .arm_vc_o(), .popped_i,
    .state_q_o(), .is_deadlock_q_o(), .source_id_q_o(), .pm_sent_q_o(), .loop_out_q_o(),
    .cnt_q_o(), .dd_port_q_o(), .dd_vc_q_o(), .loop_cyc_q_o(), .loop_port0_q_o(),
    .loop_fk0_q_o(), .loop_fork_q_o(), .armed_q_o(), .spinning_q_o(spinning_q),
    .spin_ovc_q_o(), .ep_q_o(), .popped_q_o()
  );

  logic [NumVcs-1:0]   p_routed, p_whole;
  logic [NumVcs*PW-1:0] p_op;
  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      p_routed[v]    = cnt_nz_i[32'(h_port_i)*MaxVcs + v] && rv_i[32'(h_port_i)*MaxVcs + v];
      p_whole[v]     = whole_i[32'(h_port_i)*MaxVcs + v];
      p_op[v*PW +: PW] = op_i[(32'(h_port_i)*MaxVcs + v)*PW +: PW];
    end
  end
  logic free, dd;
  assign free = (st == spin_pkg::StOff || st == spin_pkg::StDd) && !is_deadlock;
  assign dd   = st == spin_pkg::StDd && !is_deadlock;
  spin_probe_mgr #(
    .NumPorts(NumPorts), .NumNics(NumNics), .NumVcs(NumVcs), .FlitW(FlitW), .IdW(IdW), .CycW(CycW)
  ) u_probe_mgr (
    .clk_i, .rst_ni, .en_i(fv_en), .adopt_en_i(fv_adopt_en), .id_i(fv_id),
    .top_i(top), .free_i(free), .dd_i(dd),
    .valid_i(h_valid_i && h_kind_i == spin_pkg::KindProbe && !home),
    .port_i(h_port_i), .data_i(h_data_i), .routed_i(p_routed), .op_i(p_op),
    .fwd_o(), .fwd_mask_o(), .fwd_fork_o(),
    .adopt_o(adopt), .adopt_vc_o(adopt_vc), .adopt_cyc_o(adopt_cyc),
    .adopt_port0_o(adopt_port0), .adopt_fk0_o(adopt_fk0), .marks_o()
  );
  spin_move_mgr #(
    .NumPorts(NumPorts), .NumNics(NumNics), .NumVcs(NumVcs), .FlitW(FlitW), .IdW(IdW), .CycW(CycW)
  ) u_move_mgr (
    .valid_i(h_valid_i && h_kind_i >= spin_pkg::KindMove && !home),
    .port_i(h_port_i), .kind_i(h_kind_i), .data_i(h_data_i), .id_i(fv_id),
    .state_i(st), .is_deadlock_i(is_deadlock), .source_id_i(source_id), .pm_sent_i(pm_sent),
    .frozen_i(frozen_pre), .loop_out_i(loop_out[32'(h_port_i)*PW +: PW]),
    .op_all_i(op_i), .routed_i(p_routed), .op_i(p_op), .whole_i(p_whole),
    .fwd_o(), .fwd_port_o(mm_port), .fwd_data_o(),
    .freeze_o(mm_freeze), .freeze_vc_o(mm_vc), .enter_o(mm_enter), .release_o(mm_release)
  );

  // ---- the assumptions ----
  always_comb begin
    if ($initstate) Reset_M: assume (!rst_ni);
    else            NoReset_M: assume (rst_ni);
  end
  always_comb begin
    Config_M: assume (fv_tdd >= TddW'(2) && fv_nodes != '0 && fv_nodes <= (IdW+1)'(1 << IdW) &&
                      {1'b0, fv_id} < fv_nodes);
  end

  // the VCs' views
  logic [NumPv-1:0] fv_exists;
  logic [PW*NumPv-1:0] op_q;
  logic               op_q_ok;
  always_ff @(posedge clk_i) begin
    op_q    <= op_i;
    op_q_ok <= rst_ni;
  end
  logic views_ok, frozen_ok;
  always_comb begin
    fv_exists = '0;
    for (int unsigned p = 0; p < NumPorts; p++)
      for (int unsigned v = 0; v < NumVcs; v++)
        fv_exists[p*MaxVcs + v] = 1'b1;
    views_ok  = ((cnt_nz_i | rv_i | whole_i | tail_i | popped_i) & ~fv_exists) == '0 &&
                (whole_i & ~(cnt_nz_i & rv_i)) == '0;
    frozen_ok = 1'b1;
    for (int unsigned i = 0; i < NumPv; i++) begin
      if (fv_exists[i] && 32'(op_i[i*PW +: PW]) >= NumPorts) views_ok = 1'b0;
      if (!fv_exists[i] && op_i[i*PW +: PW] != '0) views_ok = 1'b0;
      if (frozen_q[i] && !(cnt_nz_i[i] && rv_i[i] && (!op_q_ok || op_i[i*PW +: PW] == op_q[i*PW +: PW])))
        frozen_ok = 1'b0;
    end
  end
  always_comb begin
    if (rst_ni) begin
      Views_M: assume (views_ok);
      FrozenView_M: assume (frozen_ok);
    end
  end

  // the message handled
  logic [IdW-1:0]  m_snd;
  logic [CycW-1:0] m_t, m_x;
  logic            msg_ok;
  always_comb begin
    m_snd  = h_data_i[IdW-1:0];
    m_t    = h_data_i[SmTLsb +: CycW];
    m_x    = h_data_i[SmXLsb +: CycW];
    msg_ok = !h_valid_i ||
             (32'(h_port_i) >= NumNics && 32'(h_port_i) < NumPorts &&
              h_kind_i >= spin_pkg::KindProbe && h_kind_i <= spin_pkg::KindKillMove &&
              {1'b0, m_snd} < fv_nodes &&
              (NumVcs == 1 || 32'(h_data_i[SmFkLsb +: 6]) <= SmK) &&
              (h_kind_i == spin_pkg::KindProbe
                 ? m_t != '0 && 32'(m_x) >= NumNics && 32'(m_x) < NumPorts
                 : m_x != '0 && 32'(m_x) <= SmCycMax &&
                   {1'b0, m_t} <= {m_x, 1'b0} + (CycW+1)'(2)));
  end
  always_comb begin
    if (rst_ni) Msg_M: assume (msg_ok);
  end
endmodule

`default_nettype wire
