// Formal properties of spin_fifo (docs/formal.md).  tb/formal/formal.py
// splices this file into a copy of the module, before its endmodule, so the
// properties see its registers and storage (Yosys 0.23 parses `bind` but
// drops it).  FV_TOP: the module is the proof's top (its caller's contract
// is assumed); otherwise the contract is asserted of the caller.  FV_FULL:
// every property, not only the contract.
`ifdef FV_TOP
  always_comb if ($initstate) Reset_M: assume (!rst_ni);
  always_comb begin
    if (rst_ni) begin
      PushNotFull_M: assume (!(push_i && !pop_i && cnt_q == CntW'(Depth)));
      PopNotEmpty_M: assume (!(pop_i && cnt_q == '0));
    end
  end
`else
  always_comb begin
    if (rst_ni) begin
      PushNotFull_A: assert (!(push_i && !pop_i && cnt_q == CntW'(Depth)));
      PopNotEmpty_A: assert (!(pop_i && cnt_q == '0));
    end
  end
`endif
`ifdef FV_FULL
  // Reference queue: entry 0 is the front; fv_n entries held.
  logic [Depth*Width-1:0] fv_q;
  logic [CntW-1:0]        fv_n;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) fv_n <= '0;
    else begin
      fv_n <= fv_n + CntW'(push_i) - CntW'(pop_i);
      if (pop_i) fv_q <= fv_q >> Width;
      if (push_i) fv_q[(32'(fv_n) - 32'(pop_i))*Width +: Width] <= wdata_i;
    end
  end

  // Every entry held sits in its slot (rd_q + i) mod Depth: the invariant
  // that makes the front's property inductive.
  logic [Depth-1:0] fv_store_ok;
  for (genvar i = 0; i < Depth; i++) begin : gen_fv_store
    logic [PtrW:0] sum, slot;
    assign sum  = {1'b0, rd_q} + (PtrW + 1)'(i);
    assign slot = sum >= (PtrW + 1)'(Depth) ? sum - (PtrW + 1)'(Depth) : sum;
    assign fv_store_ok[i] = i >= 32'(cnt_q) || mem_q[slot[PtrW-1:0]] == fv_q[i*Width +: Width];
  end

  always_comb begin
    if (rst_ni) begin
      CntInRange_A: assert (32'(cnt_q) <= Depth);
      RdInRange_A: assert (32'(rd_q) < Depth);
      CntIsQueue_A: assert (cnt_o == fv_n);
      FrontIsOldest_A: assert (cnt_o == '0 || rdata_o == fv_q[Width-1:0]);
      StoreIsQueue_A: assert (&fv_store_ok);
    end
  end
`endif
