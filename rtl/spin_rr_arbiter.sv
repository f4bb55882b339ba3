// spin_rr_arbiter: round-robin arbiter with a priority pointer.
// C twin: rr_pick() and rr_next() in cmodel/arbiter.h.
//
// Parameter: N requesters (>= 1).
// The winner is the first requester scanning ptr, ptr+1, ..., N-1, 0, ...
// When update_i is high and there is a winner, the pointer moves to
// winner + 1 (mod N) at the clock edge; otherwise it holds.
`default_nettype none

module spin_rr_arbiter #(
  parameter int unsigned N = 4,
  localparam int unsigned IdxW = N > 1 ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    req_i,
  input  logic            update_i,
  output logic            gnt_valid_o,
  output logic [IdxW-1:0] gnt_idx_o
);
  logic [IdxW-1:0] ptr_q, ptr_d;
  logic [IdxW:0]   idx;

  always_comb begin
    gnt_valid_o = 1'b0;
    gnt_idx_o   = '0;
    for (int unsigned i = 0; i < N; i++) begin
      idx = {1'b0, ptr_q} + (IdxW + 1)'(i);
      if (idx >= (IdxW + 1)'(N)) idx = idx - (IdxW + 1)'(N);
      if (!gnt_valid_o && req_i[idx[IdxW-1:0]]) begin
        gnt_valid_o = 1'b1;
        gnt_idx_o   = idx[IdxW-1:0];
      end
    end
  end

  // Kept apart from the grant logic: update_i usually depends on the grant.
  always_comb begin
    ptr_d = ptr_q;
    if (update_i && gnt_valid_o) begin
      ptr_d = gnt_idx_o == IdxW'(N - 1) ? '0 : gnt_idx_o + 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) ptr_q <= '0;
    else         ptr_q <= ptr_d;
  end

`ifndef SYNTHESIS
  // One grant (an index), to a requester, whenever there is one.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      PtrInRange_A: assert (32'(ptr_q) < N)
        else $error("spin_rr_arbiter: pointer %0d, only %0d requesters", ptr_q, N);
      GntIsReq_A: assert (!gnt_valid_o || req_i[gnt_idx_o])
        else $error("spin_rr_arbiter: grant to %0d, which does not request (%b)", gnt_idx_o,
                    req_i);
      GntIfReq_A: assert (gnt_valid_o == (req_i != '0))
        else $error("spin_rr_arbiter: requests %b, grant valid %b", req_i, gnt_valid_o);
    end
  end
`endif
endmodule

`default_nettype wire
