// spin_loop_buf: the loop buffer of a router (docs/microarchitecture.md,
// 12.3): the loop it sends its messages round, taken from its own probe or
// adopted (its cycles cyc, this router's output port0, and with
// NumVcs > 1 the loop's fork entries from fk0 on), or, frozen for another
// router's recovery, that loop's cycles (set_cyc_i, after a clear_i of the
// same cycle).  clear_i empties it (its cycles; port0 and the entries
// stay, unread).  port0 is a port number of the router: clog2(NumPorts)
// bits.  C twin: cmodel/spin_loop_buf.c.
`default_nettype none

module spin_loop_buf #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned CycW     = 11,
  // the fork entries' bits (NumVcs > 1: SmK * SmChW of spin_sm_layout.svh,
  // set by the instance); 1, unused, with 1 VC
  parameter int unsigned ForkW    = 1,
  localparam int unsigned PortW   = $clog2(NumPorts),  // a port number, in the views too
  localparam int unsigned FkW     = spin_pkg::SmFkW    // a fork entry index (fk)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    latch_i,
  input  logic [CycW-1:0]         cyc_i,
  input  logic [PortW-1:0]        port0_i,
  input  logic [FkW-1:0]          fk0_i,
  input  logic [ForkW-1:0]        fork_i,
  input  logic                    set_cyc_i,    // FROZEN: the recovery's C (cyc_i)
  input  logic                    clear_i,
  output logic [CycW-1:0]         cyc_o,
  output logic [PortW-1:0]        port0_o,
  output logic [FkW-1:0]          fk0_o,
  output logic [ForkW-1:0]        fork_o
);
  logic [CycW-1:0]  cyc_q;
  logic [PortW-1:0] port0_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      cyc_q   <= '0;
      port0_q <= '0;
    end else if (latch_i) begin
      cyc_q   <= cyc_i;
      port0_q <= port0_i;
    end else begin
      if (clear_i) begin
        cyc_q <= '0;
      end
      if (set_cyc_i) cyc_q <= cyc_i;
    end
  end
  assign cyc_o   = cyc_q;
  assign port0_o = port0_q;
  if (NumVcs > 1) begin : gen_forks
    logic [FkW-1:0]   fk0_q;
    logic [ForkW-1:0] fork_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        fk0_q  <= '0;
        fork_q <= '0;
      end else if (latch_i) begin
        fk0_q  <= fk0_i;
        fork_q <= fork_i;
      end
    end
    assign fk0_o  = fk0_q;
    assign fork_o = fork_q;
  end else begin : gen_no_forks
    logic unused;
    assign unused = ^{fk0_i, fork_i};
    assign fk0_o  = '0;
    assign fork_o = '0;
  end
endmodule

`default_nettype wire
