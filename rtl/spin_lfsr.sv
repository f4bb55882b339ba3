// spin_lfsr: the router's 32-bit Galois LFSR (right shift, toggle mask
// 32'hD0000001, maximal length).  C twin: cmodel/lfsr.h.
//
// Loaded with seed_i during reset (0 is replaced by 1); steps once at a clock
// edge when step_i is high, holds otherwise.
`default_nettype none

module spin_lfsr (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] seed_i,
  input  logic        step_i,
  output logic [31:0] state_o
);
  localparam logic [31:0] Toggle = 32'hD000_0001;
  logic [31:0] state_q, state_d;

  always_comb begin
    state_d = state_q;
    if (step_i) state_d = {1'b0, state_q[31:1]} ^ (state_q[0] ? Toggle : 32'h0);
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) state_q <= seed_i == 32'h0 ? 32'h1 : seed_i;
    else         state_q <= state_d;
  end

  assign state_o = state_q;
endmodule

`default_nettype wire
