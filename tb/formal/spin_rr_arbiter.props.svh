// Formal properties of spin_rr_arbiter (docs/formal.md).  tb/formal/formal.py
// splices this file into a copy of the module, before its endmodule, so the
// properties see its registers (Yosys 0.23 parses `bind` but drops it).
// FV_TOP: the module is the proof's top; FV_FULL: every property, not only
// the caller's contract.  The arbiter takes any input: no contract.
`ifdef FV_TOP
  always_comb if ($initstate) Reset_M: assume (!rst_ni);
`endif
`ifdef FV_FULL
  // (ptr + d) mod N and the distance from ptr to i in the scan order
  function automatic logic [IdxW:0] fv_dist(input logic [IdxW-1:0] from, input int unsigned to);
    fv_dist = (IdxW + 1)'(to) >= {1'b0, from} ? (IdxW + 1)'(to) - {1'b0, from}
                                                : (IdxW + 1)'(to) + (IdxW + 1)'(N) - {1'b0, from};
  endfunction

  // The grant is the first requester in the scan ptr, ptr+1, ..., N-1, 0, ...
  logic [N-1:0] fv_first_ok;
  logic [IdxW:0] fv_gnt_dist;
  assign fv_gnt_dist = fv_dist(ptr_q, 32'(gnt_idx_o));
  for (genvar i = 0; i < N; i++) begin : gen_fv_first
    assign fv_first_ok[i] = !gnt_valid_o || !req_i[i] || fv_dist(ptr_q, i) >= fv_gnt_dist;
  end

  // Fairness: wait_q[i] counts the grants (with update_i) that went to others
  // while i kept requesting; it clears when i stops requesting or wins.
  logic [IdxW:0]  fv_wait_q [N];
  logic [N-1:0]   fv_bound_ok, fv_starve_ok;
  for (genvar i = 0; i < N; i++) begin : gen_fv_wait
    logic other;
    assign other = req_i[i] && update_i && gnt_valid_o && 32'(gnt_idx_o) != i;
    always_ff @(posedge clk_i) begin
      if (!rst_ni || !req_i[i] || (gnt_valid_o && 32'(gnt_idx_o) == i)) fv_wait_q[i] <= '0;
      else if (other) fv_wait_q[i] <= fv_wait_q[i] + 1'b1;
    end
    // each grant to another moves the pointer closer to i: the invariant
    // that makes the bound inductive
    assign fv_bound_ok[i]  = 32'(fv_wait_q[i]) + 32'(fv_dist(ptr_q, i)) <= N - 1;
    // the N-th grant while i waits goes to i
    assign fv_starve_ok[i] = !(other && 32'(fv_wait_q[i]) == N - 1);
  end

  // The pointer rule: winner + 1 (mod N) after an updated grant, else held.
  logic          fv_chk_q;
  logic [IdxW-1:0] fv_ptr_exp_q;
  always_ff @(posedge clk_i) begin
    fv_chk_q     <= rst_ni;
    fv_ptr_exp_q <= update_i && gnt_valid_o ?
                    (32'(gnt_idx_o) == N - 1 ? '0 : gnt_idx_o + 1'b1) : ptr_q;
  end

  always_comb begin
    if (rst_ni) begin
      PtrInRange_A: assert (32'(ptr_q) < N);
      GntIdxInRange_A: assert (32'(gnt_idx_o) < N);
      GntIsReq_A: assert (!gnt_valid_o || req_i[gnt_idx_o]);
      GntIfReq_A: assert (gnt_valid_o == (req_i != '0));
      GntIsFirst_A: assert (&fv_first_ok);
      WaitBound_A: assert (&fv_bound_ok);
      NoStarve_A: assert (&fv_starve_ok);
      if (fv_chk_q) PtrNext_A: assert (ptr_q == fv_ptr_exp_q);
    end
  end
`endif
