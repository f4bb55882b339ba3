// spin_input_port: the virtual channels of one router input, their route
// state, the port's route-compute unit and the first allocation stage.
// C twin: the per-port loops of router_step() in cmodel/router.c.
//
// Each VC is a spin_fifo holding at most one packet (virtual cut-through).
// Route compute: the lowest VC whose front flit is a head without a route
// gets one this cycle: its destination goes out on rt_dst_o, the route table
// (outside the router) answers on rt_mask_i in the same cycle, and
// spin_route_select picks one port of that mask; the route is
// used at once and kept in out_port_q until the tail leaves.
// Stage 1: a VC requests its output port when it holds a flit and has a
// route; a head also needs a free downstream VC there (port_free_i).  The
// round-robin arbiter picks one VC; its pointer moves only when gnt_i says
// the request won the output stage.  On gnt_i the front flit leaves; a head
// records the downstream VC given in gnt_ovc_i; a tail frees the VC and
// raises credit_o for it.
// SPIN (spin_unit): a frozen VC (frozen_i) requests nothing; while spin_i
// the port requests nothing and its VC spin_vc_i sends its front flit
// (spin_flit_o) without allocation; that VC's tail frees it without a
// credit.  out_blocked_i: outputs taken by a spin flit or a special message
// this cycle.  The view_* outputs show SPIN the VCs (registers of this
// cycle), popped_o/cnt_next_nz_o what the cycle did to them.
`default_nettype none

module spin_input_port #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned BufDepth = 5,
  parameter int unsigned FlitW    = 64,
  localparam int unsigned LinkW   = FlitW + spin_pkg::CtlW,
  localparam int unsigned PortW   = $clog2(NumPorts),
  localparam int unsigned VcIdxW  = NumVcs > 1 ? $clog2(NumVcs) : 1
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  input  logic [LinkW-1:0]               flit_i,        // link word arriving this cycle
  output logic [spin_pkg::DstW-1:0]      rt_dst_o,      // destination looked up in the route table
  input  logic [NumPorts-1:0]            rt_mask_i,     // its allowed output ports (same cycle)
  input  logic [NumPorts-1:0]            port_free_i,   // output has a free downstream VC
  input  logic [7:0]                     draw_i,        // this port's LFSR byte
  input  logic                           least_busy_i,  // FAvORS-Min selection
  input  logic [NumPorts*8-1:0]          port_age_i,    // per output: least busy-cycles of its VCs
  input  logic                           gnt_i,         // request granted by the output stage
  input  logic [spin_pkg::VcW-1:0]       gnt_ovc_i,     // downstream VC for a granted head
  input  logic [NumVcs-1:0]              frozen_i,
  input  logic                           spin_i,
  input  logic [spin_pkg::VcW-1:0]       spin_vc_i,
  input  logic [NumPorts-1:0]            out_blocked_i,
  output logic                           req_o,
  output logic [PortW-1:0]               req_port_o,
  output logic [spin_pkg::VcW-1:0]       req_ovc_o,     // downstream VC of a non-head flit
  output logic [LinkW-1:0]               req_flit_o,    // front flit of the chosen VC
  output logic                           drew_o,
  output logic [spin_pkg::CredW-1:0]     credit_o,      // next value of the credit register
  output logic [NumVcs*spin_pkg::OccW-1:0] occ_o,
  output logic [LinkW-1:0]               spin_flit_o,   // front flit of VC spin_vc_i
  output logic [NumVcs-1:0]              view_cnt_nz_o,
  output logic [NumVcs-1:0]              view_rv_o,
  output logic [NumVcs*3-1:0]            view_op_o,
  output logic [NumVcs-1:0]              view_whole_o,  // a whole routed packet at the front
  output logic [NumVcs-1:0]              view_tail_o,
  output logic [NumVcs-1:0]              popped_o,
  output logic [NumVcs-1:0]              cnt_next_nz_o
);
  localparam int unsigned CntW = $clog2(BufDepth + 1);

  logic [NumVcs-1:0]          push, pop;
  logic [LinkW*NumVcs-1:0]    front;
  logic [CntW*NumVcs-1:0]     cnt;
  logic [NumVcs-1:0]          route_valid_q, route_valid_d;
  logic [PortW*NumVcs-1:0]    out_port_q, out_port_d;
  logic [spin_pkg::VcW*NumVcs-1:0] out_vc_q, out_vc_d;

  // ---- VC buffers ----
  for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
    assign push[v] = flit_i[FlitW+4 +: spin_pkg::KindW] == spin_pkg::KindFlit &&
                     flit_i[FlitW +: spin_pkg::VcW] == spin_pkg::VcW'(v);
    spin_fifo #(.Width(LinkW), .Depth(BufDepth)) u_fifo (
      .clk_i, .rst_ni,
      .push_i (push[v]),
      .wdata_i(flit_i),
      .pop_i  (pop[v]),
      .rdata_o(front[v*LinkW +: LinkW]),
      .cnt_o  (cnt[v*CntW +: CntW])
    );
    assign occ_o[v*spin_pkg::OccW +: spin_pkg::OccW] = spin_pkg::OccW'(cnt[v*CntW +: CntW]);
  end

  // ---- route compute: lowest VC with an unrouted head ----
  logic                rc_valid;
  logic [VcIdxW-1:0]   rc_vc;
  logic [PortW-1:0]    rc_port;
  logic [spin_pkg::DstW-1:0] rc_dst;
  logic [NumPorts-1:0] rc_mask;

  always_comb begin
    rc_valid = 1'b0;
    rc_vc    = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (!rc_valid && cnt[v*CntW +: CntW] != '0 && !route_valid_q[v]) begin
        rc_valid = 1'b1;
        rc_vc    = VcIdxW'(v);
      end
    end
    rc_dst  = front[rc_vc*LinkW +: spin_pkg::DstW];
    rc_mask = rt_mask_i;
  end
  assign rt_dst_o = rc_dst;

  logic drew_o_raw;
  spin_route_select #(.NumPorts(NumPorts)) u_route_select (
    .mask_i     (rc_mask),
    .port_free_i(port_free_i),
    .draw_i     (draw_i),
    .least_busy_i(least_busy_i),
    .port_age_i (port_age_i),
    .port_o     (rc_port),
    .drew_o     (drew_o_raw)
  );
  assign drew_o = rc_valid && drew_o_raw;

  // ---- stage 1: one VC per input port ----
  logic [NumVcs-1:0]       vc_req, vc_routed, vc_head;
  logic [PortW*NumVcs-1:0] vc_port;
  logic                    arb_valid;
  logic [VcIdxW-1:0]       arb_vc;

  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      vc_routed[v] = route_valid_q[v] || (rc_valid && rc_vc == VcIdxW'(v));
      vc_port[v*PortW +: PortW] = route_valid_q[v] ? out_port_q[v*PortW +: PortW] : rc_port;
      vc_head[v] = front[v*LinkW + FlitW + 3];
      vc_req[v] = cnt[v*CntW +: CntW] != '0 && vc_routed[v] && !frozen_i[v] && !spin_i &&
                  (!vc_head[v] || port_free_i[vc_port[v*PortW +: PortW]]) &&
                  !out_blocked_i[vc_port[v*PortW +: PortW]];
    end
  end

  spin_rr_arbiter #(.N(NumVcs)) u_vc_arb (
    .clk_i, .rst_ni,
    .req_i      (vc_req),
    .update_i   (gnt_i),
    .gnt_valid_o(arb_valid),
    .gnt_idx_o  (arb_vc)
  );

  assign req_o      = arb_valid;
  assign req_port_o = vc_port[arb_vc*PortW +: PortW];
  assign req_ovc_o  = out_vc_q[arb_vc*spin_pkg::VcW +: spin_pkg::VcW];
  assign req_flit_o = front[arb_vc*LinkW +: LinkW];

  // ---- grant: pop, route and downstream-VC state, credit ----
  logic req_head, req_tail;
  assign req_head = req_flit_o[FlitW+3];
  assign req_tail = req_flit_o[FlitW+2];

  always_comb begin
    route_valid_d = route_valid_q;
    out_port_d    = out_port_q;
    out_vc_d      = out_vc_q;
    pop           = '0;
    credit_o      = '0;
    if (rc_valid) begin
      route_valid_d[rc_vc] = 1'b1;
      out_port_d[rc_vc*PortW +: PortW] = rc_port;
    end
    if (gnt_i) begin
      pop[arb_vc] = 1'b1;
      if (req_head) out_vc_d[arb_vc*spin_pkg::VcW +: spin_pkg::VcW] = gnt_ovc_i;
      if (req_tail) begin
        route_valid_d[arb_vc] = 1'b0;
        credit_o = spin_pkg::CredW'({1'b1, spin_pkg::VcW'(arb_vc)});
      end
    end
    if (spin_i) begin
      pop[spin_vc_i[VcIdxW-1:0]] = 1'b1;
      if (spin_flit_o[FlitW+2]) route_valid_d[spin_vc_i[VcIdxW-1:0]] = 1'b0;
    end
  end

  // ---- SPIN views ----
  assign spin_flit_o = front[spin_vc_i[VcIdxW-1:0]*LinkW +: LinkW];
  for (genvar v = 0; v < NumVcs; v++) begin : gen_view
    assign view_cnt_nz_o[v] = cnt[v*CntW +: CntW] != '0;
    assign view_rv_o[v]     = route_valid_q[v];
    assign view_op_o[v*3 +: 3] = 3'(out_port_q[v*PortW +: PortW]);
    if (FlitW >= 35) begin : gen_whole   // len is head bits [34:32]
      assign view_whole_o[v] = cnt[v*CntW +: CntW] != '0 && route_valid_q[v] &&
                               front[v*LinkW + FlitW + 3] &&
                               32'(cnt[v*CntW +: CntW]) == 32'(front[v*LinkW + 32 +: 3]);
    end else begin : gen_no_whole
      assign view_whole_o[v] = 1'b0;
    end
    assign view_tail_o[v]   = front[v*LinkW + FlitW + 2];
    assign popped_o[v]      = pop[v];
    assign cnt_next_nz_o[v] = cnt[v*CntW +: CntW] + CntW'(push[v]) - CntW'(pop[v]) != '0;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      route_valid_q <= '0;
      out_port_q    <= '0;
      out_vc_q      <= '0;
    end else begin
      route_valid_q <= route_valid_d;
      out_port_q    <= out_port_d;
      out_vc_q      <= out_vc_d;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      VcInRange_A: assert (!(flit_i[FlitW+4 +: spin_pkg::KindW] == spin_pkg::KindFlit &&
                             32'(flit_i[FlitW +: spin_pkg::VcW]) >= NumVcs))
        else $error("spin_input_port: flit for VC %0d, only %0d VCs",
                    flit_i[FlitW +: spin_pkg::VcW], NumVcs);
      MaskNonZero_A: assert (!(rc_valid && rc_mask == '0))
        else $error("spin_input_port: empty route mask for node %0d", rc_dst);
      GntHasReq_A: assert (!(gnt_i && !arb_valid))
        else $error("spin_input_port: grant without a request");
    end
  end
`endif
endmodule

`default_nettype wire
