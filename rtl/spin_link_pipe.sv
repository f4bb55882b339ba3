// spin_link_pipe: the registers a link of latency L > 1 adds in one
// direction (docs/microarchitecture.md, section 1): Stages = L - 1 of them
// after the sender's own output register, so a word the sender registers
// at the end of cycle t reaches the reader during cycle t + L.  Reset to
// zero (an idle flit word, an empty credit word).  C twin:
// spin_link_pipe_step() in cmodel/spin_link_pipe.c, which steps both
// directions of a link at once (net_pipe_t).  The generated network top
// puts one on each direction of every such link, for flits and for credits.
`default_nettype none

module spin_link_pipe #(
  parameter int unsigned Width  = 8,
  parameter int unsigned Stages = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);
  if (Stages < 1 || Stages > 1023) begin : gen_check_stages
    $error("spin_link_pipe: Stages must be 1..1023 (links of 2 to 1,024 cycles)");
  end

  logic [Stages*Width-1:0] stage_q;   // stage k at [k*Width +: Width], 0 newest

  if (Stages == 1) begin : gen_one
    always_ff @(posedge clk_i) begin
      if (!rst_ni) stage_q <= '0;
      else stage_q <= d_i;
    end
  end else begin : gen_shift
    always_ff @(posedge clk_i) begin
      if (!rst_ni) stage_q <= '0;
      else stage_q <= {stage_q[0 +: (Stages-1)*Width], d_i};
    end
  end

  assign q_o = stage_q[(Stages-1)*Width +: Width];
endmodule

`default_nettype wire
