// spin_ovc_tracker: which downstream VCs of one output port are free.
// C twin: spin_ovc_tracker_free(), spin_ovc_tracker_first_free(),
// spin_ovc_tracker_min_age(), spin_ovc_tracker_next() and the others in
// cmodel/spin_ovc_tracker.c.
//
// A VC becomes busy when a head flit is sent into it (alloc_i/alloc_vc_i)
// and free again when its credit arrives (credit_i, network ports) or, on
// the ejection port (Eject = 1), when the tail is sent (tail_i/tail_vc_i):
// the NIC never stalls.  With early_i (a network port, contract section 5,
// early credits) a VC whose credit arrives this cycle is already free in it:
// the outputs below see busy_q without it, and a head may take it again
// now.  free_o shows which VCs are free; first_free_o is
// the lowest free VC, first_free_a_o the lowest free one above VC 0 (the
// adaptive VCs of escape routing).  age_q counts
// the cycles each VC has been busy (0 when free, saturating at 255);
// min_age_o is the least of them (FAvORS-Min's measure of contention).
`default_nettype none

module spin_ovc_tracker #(
  parameter int unsigned NumVcs = 1,
  parameter bit          Eject  = 1'b0,
  localparam int unsigned VcIdxW = NumVcs > 1 ? $clog2(NumVcs) : 1
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       alloc_i,
  input  logic [spin_pkg::VcW-1:0]   alloc_vc_i,
  input  logic                       tail_i,
  input  logic [spin_pkg::VcW-1:0]   tail_vc_i,
  input  logic [spin_pkg::CredW-1:0] credit_i,
  input  logic                       early_i,      // a credit frees its VC in this cycle
  output logic                       any_free_o,
  output logic [NumVcs-1:0]          free_o,
  output logic [spin_pkg::VcW-1:0]   first_free_o,
  output logic [spin_pkg::VcW-1:0]   first_free_a_o,
  output logic [7:0]                 min_age_o
);
  logic [NumVcs-1:0] busy_q, busy_d, set, clr, busy;
  logic              found, found_a;
  logic [7:0]        age_q [NumVcs];
  logic [7:0]        age_d [NumVcs];

  // busy: the VCs busy in this cycle (credit_i alone decides it: no path
  // from alloc_i)
  always_comb begin
    busy = busy_q;
    if (!Eject && early_i && credit_i[spin_pkg::CredValid])
      busy[credit_i[VcIdxW-1:0]] = 1'b0;
  end

  always_comb begin
    set = '0;
    clr = '0;
    if (alloc_i) set[alloc_vc_i[VcIdxW-1:0]] = 1'b1;
    if (Eject) begin
      if (tail_i) clr[tail_vc_i[VcIdxW-1:0]] = 1'b1;
    end else if (credit_i[spin_pkg::CredValid]) begin
      clr[credit_i[VcIdxW-1:0]] = 1'b1;
    end
    // the ejection port frees at the tail (a 1-flit packet leaves its VC
    // free); a network port may take the VC its credit frees (early_i)
    if (Eject) busy_d = (busy_q | set) & ~clr;
    else       busy_d = (busy_q & ~clr) | set;

    any_free_o   = ~busy != '0;
    free_o       = ~busy;
    min_age_o    = 8'hFF;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (age_q[v] < min_age_o) min_age_o = age_q[v];
      if (!busy_d[v] || set[v]) age_d[v] = 8'd0;
      else if (age_q[v] != 8'hFF) age_d[v] = age_q[v] + 8'd1;
      else                    age_d[v] = age_q[v];
    end
    first_free_o   = '0;
    first_free_a_o = '0;
    found          = 1'b0;
    found_a        = 1'b0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (!busy[v] && !found) begin
        first_free_o = spin_pkg::VcW'(v);
        found        = 1'b1;
      end
      if (v > 0 && !busy[v] && !found_a) begin
        first_free_a_o = spin_pkg::VcW'(v);
        found_a        = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) busy_q <= '0;
    else         busy_q <= busy_d;
  end

  for (genvar v = 0; v < NumVcs; v++) begin : gen_age
    always_ff @(posedge clk_i) begin
      if (!rst_ni) age_q[v] <= 8'd0;
      else         age_q[v] <= age_d[v];
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      AllocFree_A: assert (!(alloc_i && busy[alloc_vc_i[VcIdxW-1:0]]))
        else $error("spin_ovc_tracker: head sent into busy VC %0d", alloc_vc_i);
      CreditBusy_A: assert (Eject || !(credit_i[spin_pkg::CredValid] &&
                                      !busy_q[credit_i[VcIdxW-1:0]]))
        else $error("spin_ovc_tracker: credit for free VC %0d", credit_i[spin_pkg::VcW-1:0]);
      // ejection: a tail leaves a VC its head holds (now or before)
      TailBusy_A: assert (!Eject || !tail_i || busy_q[tail_vc_i[VcIdxW-1:0]] ||
                          (alloc_i && alloc_vc_i == tail_vc_i))
        else $error("spin_ovc_tracker: tail sent on free ejection VC %0d", tail_vc_i);
      // no VC field names a VC the port does not have
      VcInRange_A: assert (!(alloc_i && 32'(alloc_vc_i) >= NumVcs) &&
                           !(Eject && tail_i && 32'(tail_vc_i) >= NumVcs) &&
                           !(!Eject && credit_i[spin_pkg::CredValid] &&
                             32'(credit_i[spin_pkg::VcW-1:0]) >= NumVcs))
        else $error("spin_ovc_tracker: VC out of range (alloc %0d, tail %0d, credit %0d)",
                    alloc_vc_i, tail_vc_i, credit_i[spin_pkg::VcW-1:0]);
    end
  end
`endif
endmodule

`default_nettype wire
