// spin_loop_buf: the loop buffer of SPIN (docs/microarchitecture.md, 12.2).
// C twin: cmodel/spin_loop.c (loop_buf_t in cmodel/spin.h).
//
// Holds the deadlock loop that the router's own probe brought back: its
// length n (ports = hops = cycles round the loop) and the path, 3 bits an
// entry, entry 0 being this router's output into the loop.  latch_i loads
// n_i/path_i; clear_i (the recovery ended) empties it; latch_i wins.
`default_nettype none

module spin_loop_buf (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         latch_i,
  input  logic [5:0]                   n_i,
  input  logic [spin_pkg::SmPathW-1:0] path_i,
  input  logic                         clear_i,
  output logic [5:0]                   n_o,
  output logic [spin_pkg::SmPathW-1:0] path_o
);
  logic [5:0]                   n_q, n_d;
  logic [spin_pkg::SmPathW-1:0] path_q, path_d;

  always_comb begin
    n_d    = n_q;
    path_d = path_q;
    if (clear_i) n_d = '0;
    if (latch_i) begin
      n_d    = n_i;
      path_d = path_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      n_q    <= '0;
      path_q <= '0;
    end else begin
      n_q    <= n_d;
      path_q <= path_d;
    end
  end

  assign n_o    = n_q;
  assign path_o = path_q;
endmodule

`default_nettype wire
