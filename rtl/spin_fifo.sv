// spin_fifo: synchronous FIFO of one virtual channel.
// C twin: spin_fifo_push(), spin_fifo_pop() and spin_fifo_front() in
// cmodel/spin_fifo.c.
//
// Parameters: Width (bits per entry), Depth (entries, >= 2).
// Handshake: push_i writes wdata_i at slot (rd_q + cnt_q) mod Depth; pop_i
// drops the front entry.  Both may happen in one cycle.  The caller never
// pushes a full FIFO nor pops an empty one (asserted).  rdata_o is the front
// entry, valid when cnt_o > 0.  Storage has no reset; only rd_q and cnt_q do.
`default_nettype none

module spin_fifo #(
  parameter int unsigned Width = 8,
  parameter int unsigned Depth = 5,
  localparam int unsigned PtrW = $clog2(Depth),
  localparam int unsigned CntW = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             pop_i,
  output logic [Width-1:0] rdata_o,
  output logic [CntW-1:0]  cnt_o
);
  if (Depth < 2) begin : gen_check_depth
    $error("spin_fifo: Depth must be at least 2");
  end

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  rd_q, rd_d;
  logic [CntW-1:0]  cnt_q, cnt_d;
  logic [PtrW:0]    wr_sum;
  logic [PtrW-1:0]  wr_slot;

  always_comb begin
    wr_sum  = {1'b0, rd_q} + (PtrW + 1)'(cnt_q);
    wr_slot = wr_sum >= (PtrW + 1)'(Depth) ? PtrW'(wr_sum - (PtrW + 1)'(Depth)) : PtrW'(wr_sum);
    rd_d    = rd_q;
    if (pop_i) rd_d = rd_q == PtrW'(Depth - 1) ? '0 : rd_q + 1'b1;
    cnt_d   = cnt_q + CntW'(push_i) - CntW'(pop_i);
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rd_q  <= '0;
      cnt_q <= '0;
    end else begin
      rd_q  <= rd_d;
      cnt_q <= cnt_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (push_i) mem_q[wr_slot] <= wdata_i;
  end

  assign rdata_o = mem_q[rd_q];
  assign cnt_o   = cnt_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      NoOverflow_A: assert (!(push_i && !pop_i && cnt_q == CntW'(Depth)))
        else $error("spin_fifo: push into a full FIFO");
      NoUnderflow_A: assert (!(pop_i && cnt_q == '0))
        else $error("spin_fifo: pop from an empty FIFO");
      CntInRange_A: assert (32'(cnt_q) <= Depth)
        else $error("spin_fifo: %0d entries held, Depth %0d", cnt_q, Depth);
      RdInRange_A: assert (32'(rd_q) < Depth)
        else $error("spin_fifo: read slot %0d, Depth %0d", rd_q, Depth);
    end
  end
`endif
endmodule

`default_nettype wire
