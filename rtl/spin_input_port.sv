// spin_input_port: the virtual channels of one router input, their route
// state, the port's route-compute unit and the first allocation stage.
// C twin: spin_input_port_route(), spin_input_port_request(),
// spin_input_port_latch(), spin_input_port_grant() and the others in
// cmodel/spin_input_port.c.
//
// Each VC is a spin_fifo holding at most one packet (virtual cut-through).
// Route compute: the lowest VC whose front flit is a head without a route
// gets one this cycle: its destination goes out on rt_dst_o, the route table
// (outside the router) answers on rt_mask_i in the same cycle, and
// spin_route_select picks one port of that mask; the route is
// used at once and kept in out_port_q until the tail leaves.  With reroute_i
// (section 4.2), when no VC needs a first route, the lowest VC whose head
// waits at the front with a route and is not frozen (frozen_q_i, the
// registers of this cycle) is routed again; a VC that this cycle's
// messages freeze (frozen_i) keeps the route it had.
// Admission (section 6): a head here asks for a network output only while
// admit_i (the router ties it high on every port but the NICs'); a head
// for a NIC port (ports 0..NumNics-1) is always admitted.
// Stage 1: a VC requests its output port when it holds a flit and has a
// route; a head also needs a free downstream VC there (port_free_i).  The
// round-robin arbiter picks one VC; its pointer moves only when gnt_i says
// the request won the output stage.  On gnt_i the front flit leaves; a head
// records the downstream VC given in gnt_ovc_i; a tail frees the VC and
// raises credit_o for it.
// Escape (Escape = 1, switched on by esc_i; section 4.1): the route unit
// only looks up the route set {mask_e, mask_a} on rt_mask_i and keeps it;
// a head requests while its set offers a free VC (free_a_i: an adaptive VC
// of the output is free, free0_i: its VC 0), the winning head draws its port
// among those (a second spin_route_select) and req_esc_o says it takes VC 0.
// FAvORS-NMin (Nmin = 1, switched on by nmin_i; section 4.3): the route
// unit looks up the packet's current target (its route header's mid while
// via is set and this is not mid), keeps via per VC (via_q), and at the NIC
// port (Source = 1) may send a head with offer set toward mid on its first
// route (a second lookup, rt_mid_o/rt_mid_mask_i); a head leaving carries
// via from its VC and offer 0.
// SPIN (spin_unit): a frozen VC (frozen_req_i) and a held port (hold_i)
// request nothing; a VC a message freezes this cycle (frozen_i) keeps its
// route; while spin_i
// the port requests nothing and its VC spin_vc_i sends its front flit
// (on xbar_flit_o) without allocation; that VC's tail frees it without a
// credit.  out_blocked_i: outputs taken by a spin flit or a special message
// this cycle.  The view_* outputs show SPIN the VCs (registers of this
// cycle), popped_o which sent their front flit.
`default_nettype none

module spin_input_port #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned BufDepth = 5,
  parameter int unsigned FlitW    = 64,
  parameter int unsigned Escape   = 0,
  parameter int unsigned Nmin     = 0,     // FAvORS-NMin built in (needs FlitW >= 90)
  parameter int unsigned Source   = 0,     // 1: a NIC port (the NMin decision)
  parameter int unsigned NumNics  = 1,     // ports 0..NumNics-1 are NIC ports (ejection)
  localparam int unsigned MaskW   = Escape == 1 ? 2 * NumPorts : NumPorts,
  localparam int unsigned LinkW   = FlitW + spin_pkg::CtlW,
  localparam int unsigned PortW   = $clog2(NumPorts),
  localparam int unsigned VcIdxW  = NumVcs > 1 ? $clog2(NumVcs) : 1
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  input  logic [LinkW-1:0]               flit_i,        // link word arriving this cycle
  output logic [spin_pkg::DstW-1:0]      rt_dst_o,      // destination looked up in the route table
  input  logic [MaskW-1:0]               rt_mask_i,     // its allowed output ports (same cycle)
  input  logic                           nmin_i,        // FAvORS-NMin (needs Nmin)
  input  logic [spin_pkg::DstW-1:0]      id_i,          // this router's id (NMin: at mid?)
  output logic [spin_pkg::DstW-1:0]      rt_mid_o,      // NMin, Source: the head's mid
  input  logic [NumPorts-1:0]            rt_mid_mask_i, // its minimal ports (same cycle)
  input  logic                           esc_i,         // escape-VC routing (needs Escape)
  input  logic [NumPorts-1:0]            free_a_i,      // output has a free VC in 1..NumVcs-1
  input  logic [NumPorts-1:0]            free0_i,       // output has VC 0 free
  input  logic [NumPorts-1:0]            port_free_i,   // output has a free downstream VC
  input  logic [7:0]                     draw_i,        // this port's LFSR byte
  input  logic                           least_busy_i,  // FAvORS-Min selection
  input  logic                           reroute_i,     // waiting heads route again (4.2)
  input  logic                           admit_i,       // a head may take a network output
  input  logic [NumPorts*8-1:0]          port_age_i,    // per output: least busy-cycles of its VCs
  input  logic                           gnt_i,         // request granted by the output stage
  input  logic [spin_pkg::VcW-1:0]       gnt_ovc_i,     // downstream VC for a granted head
  input  logic [NumVcs-1:0]              frozen_i,      // after this cycle's messages
  input  logic [NumVcs-1:0]              frozen_req_i,  // skipped by switch allocation (12.2)
  input  logic                           hold_i,        // held from switch allocation (12.2)
  input  logic [NumVcs-1:0]              frozen_q_i,    // at the start of the cycle
  input  logic                           spin_i,
  input  logic [spin_pkg::VcW-1:0]       spin_vc_i,
  input  logic [NumPorts-1:0]            out_blocked_i,
  output logic                           req_o,
  output logic [PortW-1:0]               req_port_o,
  output logic [spin_pkg::VcW-1:0]       req_ovc_o,     // downstream VC of a non-head flit
  output logic [LinkW-1:0]               req_flit_o,    // front flit of the chosen VC
  output logic                           req_esc_o,     // escape: the head takes VC 0
  output logic                           drew_o,
  output logic [spin_pkg::CredW-1:0]     credit_o,      // next value of the credit register
  output logic [NumVcs*spin_pkg::OccW-1:0] occ_o,
  output logic [LinkW-1:0]               xbar_flit_o,   // to the crossbar: spin_i ? front of
                                                         // VC spin_vc_i : req_flit_o
  output logic [NumVcs-1:0]              view_cnt_nz_o,
  output logic [NumVcs-1:0]              view_rv_o,
  output logic [NumVcs*PortW-1:0]        view_op_o,
  output logic [NumVcs-1:0]              view_whole_o,  // a whole routed packet at the front
  output logic [NumVcs-1:0]              view_tail_o,
  output logic [NumVcs-1:0]              popped_o
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
  logic                rc_first;   // a first route, not a reroute (4.2)
  logic                rc_via;     // NMin: the route is toward mid
  logic [NumVcs-1:0]   via_q;      // NMin: each VC's route is toward mid (4.3)

  always_comb begin
    rc_valid = 1'b0;
    rc_vc    = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (!rc_valid && cnt[v*CntW +: CntW] != '0 && !route_valid_q[v]) begin
        rc_valid = 1'b1;
        rc_vc    = VcIdxW'(v);
      end
    end
    rc_first = rc_valid;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (!rc_valid && reroute_i && !esc_i && cnt[v*CntW +: CntW] != '0 &&
          front[v*LinkW + FlitW + 3] && !frozen_q_i[v]) begin
        rc_valid = 1'b1;
        rc_vc    = VcIdxW'(v);
      end
    end
  end

  // ---- FAvORS-NMin: the target and the source's choice (4.3) ----
  if (Nmin == 1) begin : gen_nmin
    // route header of the served VC's head: mid [79:64], via [80], offer
    // [81], detour [89:82]
    logic [spin_pkg::DstW-1:0] mid;
    logic                      via_in, offer, via_tgt, go;
    logic [7:0]                detour;
    logic [8:0]                t_min, t_nm;
    assign mid     = front[rc_vc*LinkW + 64 +: spin_pkg::DstW];
    assign via_in  = front[rc_vc*LinkW + 80];
    assign offer   = front[rc_vc*LinkW + 81];
    assign detour  = front[rc_vc*LinkW + 82 +: 8];
    assign via_tgt = nmin_i && (rc_first ? via_in && mid != id_i : via_q[rc_vc]);
    assign t_min   = min_age(rt_mask_i[NumPorts-1:0]);
    assign t_nm    = (rt_mid_mask_i & port_free_i) != '0 ? 9'd0 : min_age(rt_mid_mask_i);
    assign go      = Source == 1 && nmin_i && rc_first && !via_tgt && offer &&
                     (rt_mask_i[NumPorts-1:0] & port_free_i) == '0 &&
                     t_min > {1'b0, detour} + t_nm;
    assign rc_via   = via_tgt || go;
    assign rc_dst   = via_tgt ? mid : front[rc_vc*LinkW +: spin_pkg::DstW];
    assign rc_mask  = go ? rt_mid_mask_i : rt_mask_i[NumPorts-1:0];
    assign rt_mid_o = Source == 1 ? mid : '0;
  end else begin : gen_no_nmin
    assign rc_via   = 1'b0;
    assign rc_dst   = front[rc_vc*LinkW +: spin_pkg::DstW];
    assign rc_mask  = rt_mask_i[NumPorts-1:0];
    assign rt_mid_o = '0;
  end
  assign rt_dst_o = rc_dst;

  // The least age over the ports of a mask (255 when none).
  function automatic logic [8:0] min_age(input logic [NumPorts-1:0] mask);
    min_age = 9'd255;
    for (int unsigned o = 0; o < NumPorts; o++)
      if (mask[o] && {1'b0, port_age_i[o*8 +: 8]} < min_age) min_age = {1'b0, port_age_i[o*8 +: 8]};
  endfunction

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

  // ---- stage 1: one VC per input port ----
  logic [NumVcs-1:0]       vc_req, vc_routed, vc_head;
  logic [NumPorts*NumVcs-1:0] esc_use;   // escape: outputs a head may take now
  logic [NumVcs-1:0]       esc_eject;     // escape: the head's route set is ejection
  logic [PortW-1:0]        esc_port;
  logic                    esc_drew, esc_vc0;
  logic [PortW*NumVcs-1:0] vc_port;
  logic                    arb_valid;
  logic [VcIdxW-1:0]       arb_vc;

  always_comb begin
    for (int unsigned v = 0; v < NumVcs; v++) begin
      vc_routed[v] = route_valid_q[v] || (rc_valid && rc_vc == VcIdxW'(v));
      vc_port[v*PortW +: PortW] = rc_valid && rc_vc == VcIdxW'(v) ? rc_port :
                                                                    out_port_q[v*PortW +: PortW];
      vc_head[v] = front[v*LinkW + FlitW + 3];
      if (esc_i && vc_head[v])
        vc_req[v] = cnt[v*CntW +: CntW] != '0 && !frozen_req_i[v] && !spin_i && !hold_i &&
                    esc_use[v*NumPorts +: NumPorts] != '0 &&
                    (admit_i || esc_eject[v]);
      else
        vc_req[v] = cnt[v*CntW +: CntW] != '0 && vc_routed[v] && !frozen_req_i[v] && !spin_i &&
                    !hold_i && (!vc_head[v] || (port_free_i[vc_port[v*PortW +: PortW]] &&
                                     (admit_i || 32'(vc_port[v*PortW +: PortW]) < NumNics))) &&
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

  // ---- escape: the route set, and the winning head's port ----
  if (Escape == 1) begin : gen_esc
    logic [NumPorts*NumVcs-1:0] mask_a_q, mask_e_q, mask_a_d, mask_e_d, ma, me;
    logic [NumPorts-1:0]        win_use, win_a;
    always_comb begin
      mask_a_d = mask_a_q;
      mask_e_d = mask_e_q;
      if (rc_valid) begin
        mask_a_d[rc_vc*NumPorts +: NumPorts] = rt_mask_i[NumPorts-1:0];
        mask_e_d[rc_vc*NumPorts +: NumPorts] = rt_mask_i[NumPorts +: NumPorts];
      end
      for (int unsigned v = 0; v < NumVcs; v++) begin
        ma[v*NumPorts +: NumPorts] = route_valid_q[v] ? mask_a_q[v*NumPorts +: NumPorts] :
            rc_valid && rc_vc == VcIdxW'(v) ? rt_mask_i[NumPorts-1:0] : '0;
        me[v*NumPorts +: NumPorts] = route_valid_q[v] ? mask_e_q[v*NumPorts +: NumPorts] :
            rc_valid && rc_vc == VcIdxW'(v) ? rt_mask_i[NumPorts +: NumPorts] : '0;
        esc_use[v*NumPorts +: NumPorts] = ((ma[v*NumPorts +: NumPorts] & free_a_i) |
                                           (me[v*NumPorts +: NumPorts] & free0_i)) & ~out_blocked_i;
        esc_eject[v] = ((ma[v*NumPorts +: NumPorts] | me[v*NumPorts +: NumPorts]) &
                        NumPorts'((64'd1 << NumNics) - 64'd1)) != '0;
      end
    end
    assign win_use = esc_use[arb_vc*NumPorts +: NumPorts];
    assign win_a   = ma[arb_vc*NumPorts +: NumPorts];
    spin_route_select #(.NumPorts(NumPorts)) u_esc_select (
      .mask_i      (win_use),
      .port_free_i (win_use),
      .draw_i      (draw_i),
      .least_busy_i(1'b0),
      .port_age_i  ('0),
      .port_o      (esc_port),
      .drew_o      (esc_drew)
    );
    assign esc_vc0 = !(win_a[esc_port] && free_a_i[esc_port]);
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        mask_a_q <= '0;
        mask_e_q <= '0;
      end else begin
        mask_a_q <= mask_a_d;
        mask_e_q <= mask_e_d;
      end
    end
  end else begin : gen_no_esc
    assign esc_use  = '0;
    assign esc_eject = '0;
    assign esc_port = '0;
    assign esc_drew = 1'b0;
    assign esc_vc0  = 1'b0;
  end

  logic esc_head;   // escape routing and the chosen VC's front flit is a head
  assign esc_head   = esc_i && arb_valid && vc_head[arb_vc];
  assign req_o      = arb_valid;
  assign req_port_o = esc_head ? esc_port : vc_port[arb_vc*PortW +: PortW];
  assign req_esc_o  = esc_head && esc_vc0;
  assign drew_o     = esc_i ? esc_head && esc_drew : rc_valid && drew_o_raw;
  assign req_ovc_o  = out_vc_q[arb_vc*spin_pkg::VcW +: spin_pkg::VcW];
  // A head leaving carries via from its VC's route and offer 0 (NMin, 4.3).
  logic [LinkW-1:0] req_front, spin_front, spin_flit;
  assign req_front  = front[arb_vc*LinkW +: LinkW];
  assign spin_front = front[spin_vc_i[VcIdxW-1:0]*LinkW +: LinkW];
  if (Nmin == 1) begin : gen_rewrite
    logic req_via;
    assign req_via = rc_valid && rc_vc == arb_vc ? rc_via : via_q[arb_vc];
    always_comb begin
      req_flit_o = req_front;
      spin_flit  = spin_front;
      if (nmin_i && req_front[FlitW+3]) begin
        req_flit_o[80] = req_via;
        req_flit_o[81] = 1'b0;
      end
      if (nmin_i && spin_front[FlitW+3]) begin
        spin_flit[80] = via_q[spin_vc_i[VcIdxW-1:0]];
        spin_flit[81] = 1'b0;
      end
    end
  end else begin : gen_no_rewrite
    assign req_flit_o = req_front;
    assign spin_flit  = spin_front;
  end
  // An input sending a spin flit takes no part in switch allocation, so one
  // crossbar input serves both (the router steers the spin flit's output).
  assign xbar_flit_o = spin_i ? spin_flit : req_flit_o;

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
    if (rc_valid && !frozen_i[rc_vc]) begin
      route_valid_d[rc_vc] = 1'b1;
      if (!esc_i) out_port_d[rc_vc*PortW +: PortW] = rc_port;
    end
    if (gnt_i) begin
      pop[arb_vc] = 1'b1;
      if (req_head) out_vc_d[arb_vc*spin_pkg::VcW +: spin_pkg::VcW] = gnt_ovc_i;
      if (req_head && esc_i) out_port_d[arb_vc*PortW +: PortW] = req_port_o;
      if (req_tail) begin
        route_valid_d[arb_vc] = 1'b0;
        credit_o = spin_pkg::CredW'({1'b1, spin_pkg::VcW'(arb_vc)});
      end
    end
    if (spin_i) begin
      pop[spin_vc_i[VcIdxW-1:0]] = 1'b1;
      if (spin_front[FlitW+2]) route_valid_d[spin_vc_i[VcIdxW-1:0]] = 1'b0;
    end
  end

  // ---- SPIN views ----
  for (genvar v = 0; v < NumVcs; v++) begin : gen_view
    assign view_cnt_nz_o[v] = cnt[v*CntW +: CntW] != '0;
    assign view_rv_o[v]     = route_valid_q[v];
    assign view_op_o[v*PortW +: PortW] = out_port_q[v*PortW +: PortW];
    if (FlitW >= 35) begin : gen_whole   // len is head bits [34:32]
      assign view_whole_o[v] = cnt[v*CntW +: CntW] != '0 && route_valid_q[v] &&
                               front[v*LinkW + FlitW + 3] &&
                               32'(cnt[v*CntW +: CntW]) == 32'(front[v*LinkW + 32 +: 3]);
    end else begin : gen_no_whole
      assign view_whole_o[v] = 1'b0;
    end
    assign view_tail_o[v]   = front[v*LinkW + FlitW + 2];
    assign popped_o[v]      = pop[v];
    end

  if (Nmin == 1) begin : gen_via_q
    always_ff @(posedge clk_i) begin
      if (!rst_ni) via_q <= '0;
      else if (rc_valid && !frozen_i[rc_vc] && nmin_i) via_q[rc_vc] <= rc_via;
    end
  end else begin : gen_no_via_q
    assign via_q = '0;
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
      NminNeedsParam_A: assert (!(nmin_i && Nmin != 1))
        else $error("spin_input_port: FAvORS-NMin switched on in a router built with Nmin = 0");
      NminNotEscape_A: assert (!(nmin_i && esc_i))
        else $error("spin_input_port: FAvORS-NMin and escape routing switched on together");
      EscNeedsParam_A: assert (!(esc_i && Escape != 1))
        else $error("spin_input_port: escape routing switched on in a router built with Escape = 0");
      MaskNonZero_A: assert (!(rc_valid && rc_mask == '0))
        else $error("spin_input_port: empty route mask for node %0d", rc_dst);
      GntHasReq_A: assert (!(gnt_i && !arb_valid))
        else $error("spin_input_port: grant without a request");
      // at most one flit leaves an input port per cycle: a spin flit or one
      // the allocator granted
      OneFlitOut_A: assert (!(gnt_i && spin_i))
        else $error("spin_input_port: a spin flit and a granted flit in one cycle");
      for (int unsigned v = 0; v < NumVcs; v++) begin
        // a VC without a route has a head at its front (section 3)
        HeadWithoutRoute_A: assert (cnt[v*CntW +: CntW] == '0 || route_valid_q[v] ||
                                    vc_head[v])
          else $error("spin_input_port: VC %0d holds flits without a route or a head", v);
      end
    end
  end
`endif
endmodule

`default_nettype wire
