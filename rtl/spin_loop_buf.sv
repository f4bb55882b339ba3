// spin_loop_buf: the loop buffer of SPIN (docs/microarchitecture.md, 12.2).
// C twin: cmodel/spin_loop_buf.c (loop_buf_t in cmodel/spin.h).
//
// Holds the deadlock loop that the router's own probe brought back, or that
// it adopted from another router's probe (12.3): the probe's n, the entry of
// this router's own output (start: 0 for its own probe), that output (port0,
// kept so no one reads the path by a variable index to find it) and the
// path, 3 bits an entry, oldest first.  The loop is entries start .. n-1,
// n - start hops, and cyc cycles round it (the hops when every link takes
// 1 cycle; contract 12.1).  latch_i loads the inputs;
// clear_i (the recovery ended) empties it (n and start 0; the path and
// port0 are kept, unread); latch_i wins.
`default_nettype none

module spin_loop_buf (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         latch_i,
  input  logic [5:0]                   n_i,
  input  logic [5:0]                   start_i,
  input  logic [5:0]                   cyc_i,
  input  logic [2:0]                   port0_i,
  input  logic [spin_pkg::SmPathW-1:0] path_i,
  input  logic                         clear_i,
  output logic [5:0]                   n_o,
  output logic [5:0]                   start_o,
  output logic [5:0]                   cyc_o,
  output logic [2:0]                   port0_o,
  output logic [spin_pkg::SmPathW-1:0] path_o
);
  logic [5:0]                   n_q, n_d, start_q, start_d, cyc_q, cyc_d;
  logic [2:0]                   port0_q, port0_d;
  logic [spin_pkg::SmPathW-1:0] path_q, path_d;

  always_comb begin
    n_d     = n_q;
    start_d = start_q;
    cyc_d   = cyc_q;
    port0_d = port0_q;
    path_d  = path_q;
    if (clear_i) begin
      n_d     = '0;
      start_d = '0;
      cyc_d   = '0;
    end
    if (latch_i) begin
      n_d     = n_i;
      start_d = start_i;
      cyc_d   = cyc_i;
      port0_d = port0_i;
      path_d  = path_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      n_q     <= '0;
      start_q <= '0;
      cyc_q   <= '0;
      port0_q <= '0;
      path_q  <= '0;
    end else begin
      n_q     <= n_d;
      start_q <= start_d;
      cyc_q   <= cyc_d;
      port0_q <= port0_d;
      path_q  <= path_d;
    end
  end

  assign n_o     = n_q;
  assign start_o = start_q;
  assign cyc_o   = cyc_q;
  assign port0_o = port0_q;
  assign path_o  = path_q;
endmodule

`default_nettype wire
