// fv_input_port: the formal environment and scoreboard of one
// spin_input_port without SPIN, escape or NMin (docs/formal.md).  The inputs
// are free within the contract of docs/microarchitecture.md (sections 3 to 6):
//  - upstream: packets of 1 to 5 flits, interleaved freely over the VCs, idle
//    cycles anywhere; a head only into a VC the upstream holds free, and it
//    holds a VC busy from its head until the port's credit for it is seen;
//  - the router around the port: route-table answers (any non-empty set of
//    ports), free downstream VCs, ages, draws and admission, any value each
//    cycle; a grant only to a request, with any downstream VC for a head;
//    rerouting on or off for the run.
// Every flit carries a tag in its data field, {0, seq, tail, head, v}: its
// VC v, head and tail bits and its number seq (mod 16) among the flits sent
// into v.  The scoreboard checks every flit that leaves (req_flit_o when
// gnt_i): a flit in is a flit out, once, unchanged, in order, each packet to
// one output with one downstream VC, and every flit not yet out is held.
`default_nettype none

module fv_input_port #(
  parameter int unsigned NumPorts = 3,
  parameter int unsigned NumVcs   = 2,
  localparam int unsigned BufDepth = 5,
  localparam int unsigned FlitW   = 16,
  localparam int unsigned LinkW   = FlitW + spin_pkg::CtlW,
  localparam int unsigned CredW   = spin_pkg::CredW,
  localparam int unsigned OccW    = spin_pkg::OccW,
  localparam int unsigned VcW     = spin_pkg::VcW,
  localparam int unsigned PortW   = $clog2(NumPorts),
  localparam int unsigned SeqW    = 4       // more than the flits one VC holds
) (
  input logic                       clk_i,
  input logic                       rst_ni,
  input logic [LinkW-1:0]           flit_i,
  input logic [NumPorts-1:0]        rt_mask_i,
  input logic [NumPorts-1:0]        port_free_i,
  input logic [7:0]                 draw_i,
  input logic                       least_busy_i,
  input logic                       admit_i,
  input logic [NumPorts*8-1:0]      port_age_i,
  input logic                       gnt_i,
  input logic [VcW-1:0]             gnt_ovc_i
);
  (* anyconst *) logic fv_reroute;

  logic                    req;
  logic [PortW-1:0]        req_port;
  logic [VcW-1:0]          req_ovc;
  logic [LinkW-1:0]        req_flit;
  logic [CredW-1:0]        credit;
  logic [NumVcs*OccW-1:0]  occ;

  spin_input_port #(
    .NumPorts(NumPorts), .NumVcs(NumVcs), .BufDepth(BufDepth), .FlitW(FlitW),
    .Escape(0), .Nmin(0), .Source(0)
  ) u_input (
    .clk_i, .rst_ni,
    .flit_i, .rt_dst_o(), .rt_mask_i,
    .nmin_i(1'b0), .id_i('0), .rt_mid_o(), .rt_mid_mask_i('0),
    .esc_i(1'b0), .free_a_i('0), .free0_i('0),
    .port_free_i, .draw_i, .least_busy_i,
    .reroute_i(fv_reroute), .admit_i, .port_age_i,
    .gnt_i, .gnt_ovc_i,
    .frozen_i('0), .frozen_req_i('0), .hold_i(1'b0), .frozen_q_i('0), .spin_i(1'b0),
    .spin_vc_i('0), .out_blocked_i('0),
    .req_o(req), .req_port_o(req_port), .req_ovc_o(req_ovc), .req_flit_o(req_flit),
    .req_esc_o(), .drew_o(), .credit_o(credit), .occ_o(occ), .xbar_flit_o(),
    .view_cnt_nz_o(), .view_rv_o(), .view_op_o(), .view_whole_o(), .view_tail_o(),
    .popped_o()
  );

  always_comb begin
    if ($initstate) Reset_M: assume (!rst_ni);
    else            NoReset_M: assume (rst_ni);
  end

  // The port's credit word is the next value of the router's credit
  // register: the upstream sees it a cycle later.
  logic [CredW-1:0] cred_q;
  always_ff @(posedge clk_i) cred_q <= rst_ni ? credit : '0;

  // ---- upstream ----
  logic [NumVcs-1:0] up_busy_q, up_mid_q;
  logic [2:0]        up_len_q [NumVcs];
  logic [SeqW-1:0]   up_seq_q [NumVcs];
  logic              in_flit, in_head, in_tail, in_ok;
  logic [VcW-1:0]    in_vc;
  assign in_flit = flit_i[FlitW+4 +: 3] == spin_pkg::KindFlit;
  assign in_vc   = flit_i[FlitW +: VcW];
  assign in_head = flit_i[FlitW+3];
  assign in_tail = flit_i[FlitW+2];
  assign in_ok = !rst_ni ? flit_i == '0 :
      flit_i == '0 || (in_flit && 32'(in_vc) < NumVcs &&
                       flit_i[1:0] == in_vc && flit_i[2] == in_head && flit_i[3] == in_tail &&
                       flit_i[4 +: SeqW] == up_seq_q[in_vc] && flit_i[FlitW-1:4+SeqW] == '0 &&
                       (in_head ? !up_busy_q[in_vc]
                                : up_mid_q[in_vc] && (in_tail || up_len_q[in_vc] < 3'd4)));

  for (genvar v = 0; v < NumVcs; v++) begin : gen_up
    logic sent, credited;
    assign sent     = in_flit && 32'(in_vc) == v;
    assign credited = cred_q[spin_pkg::CredValid] && 32'(cred_q[VcW-1:0]) == v;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        up_busy_q[v] <= 1'b0;
        up_mid_q[v]  <= 1'b0;
        up_len_q[v]  <= '0;
        up_seq_q[v]  <= '0;
      end else begin
        if (sent) begin
          up_seq_q[v] <= up_seq_q[v] + 1'b1;
          up_mid_q[v] <= !in_tail;
          up_len_q[v] <= in_head ? 3'd1 : up_len_q[v] + 3'd1;
        end
        if (sent && in_head) up_busy_q[v] <= 1'b1;
        else if (credited) up_busy_q[v] <= 1'b0;
      end
    end
  end

  // ---- the router around the port ----
  always_comb begin
    FlitIn_M: assume (in_ok);
    RouteSet_M: assume (rt_mask_i != '0);
    GntToReq_M: assume (!gnt_i || (req && 32'(gnt_ovc_i) < NumVcs));
  end

  // ---- what leaves ----
  logic             out_head, out_tail;
  logic [VcW-1:0]   out_src;
  assign out_head = req_flit[FlitW+3];
  assign out_tail = req_flit[FlitW+2];
  assign out_src  = req_flit[1:0];
  logic [NumVcs-1:0] out_act_q;
  logic [PortW-1:0]  out_port_q [NumVcs];
  logic [VcW-1:0]    out_ovc_q [NumVcs];
  logic [SeqW-1:0]   out_seq_q [NumVcs];
  logic out_ok, cred_ok;
  assign out_ok = !gnt_i ||
      (req_flit[FlitW+4 +: 3] == spin_pkg::KindFlit && 32'(out_src) < NumVcs &&
       req_flit[2] == out_head && req_flit[3] == out_tail &&
       req_flit[4 +: SeqW] == out_seq_q[out_src] && req_flit[FlitW-1:4+SeqW] == '0 &&
       32'(req_port) < NumPorts &&
       // a head asks only for an output with a free downstream VC, and a
       // head from the NIC's port only when admitted (the ejection port
       // always); body and tail follow their head's output and VC
       (out_head ? !out_act_q[out_src] && port_free_i[req_port] && (admit_i || req_port == '0)
                 : out_act_q[out_src] && req_port == out_port_q[out_src] &&
                   req_ovc == out_ovc_q[out_src]));
  // the credit register: {valid, vc} of a tail that left this cycle, else 0
  assign cred_ok = credit == (gnt_i && out_tail ? CredW'({1'b1, out_src}) : '0);

  logic [NumVcs-1:0] conserve_ok;
  for (genvar v = 0; v < NumVcs; v++) begin : gen_out
    logic here;
    assign here = gnt_i && 32'(out_src) == v;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        out_act_q[v] <= 1'b0;
        out_seq_q[v] <= '0;
      end else if (here) begin
        out_seq_q[v] <= out_seq_q[v] + 1'b1;
        out_act_q[v] <= !out_tail;
        if (out_head) begin
          out_port_q[v] <= req_port;
          out_ovc_q[v]  <= gnt_ovc_i;
        end
      end
    end
    // flits in = flits out + flits held
    assign conserve_ok[v] = up_seq_q[v] == out_seq_q[v] + SeqW'(occ[v*OccW +: OccW]);
  end

  logic head_empty_ok;
  assign head_empty_ok = !(in_flit && in_head) || occ[in_vc*OccW +: OccW] == '0;

  always_comb begin
    if (rst_ni) begin
      FlitOut_A: assert (out_ok);
      CreditAtTail_A: assert (cred_ok);
      CreditHeldVc_A: assert (!cred_q[spin_pkg::CredValid] ||
                              (up_busy_q[cred_q[VcW-1:0]] && !up_mid_q[cred_q[VcW-1:0]]));
      HeadIntoEmptyVc_A: assert (head_empty_ok);
      FlitsConserved_A: assert (&conserve_ok);
    end
  end

  // ---- reachability ----
  always_comb begin
    if (rst_ni) begin
      Packet5Out_C: cover (gnt_i && out_tail && out_seq_q[0] == SeqW'(4));
      VcReused_C: cover (up_seq_q[0] == SeqW'(7));
    end
  end
  if (NumVcs > 1) begin : gen_cover_vcs
    always_comb begin
      if (rst_ni) BothVcsHeld_C: cover (occ[OccW-1:0] >= 3'd2 && occ[OccW +: OccW] >= 3'd2);
    end
  end
endmodule

`default_nettype wire
