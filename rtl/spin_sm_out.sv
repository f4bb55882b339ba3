// spin_sm_out: the special-message output stage of a router
// (docs/microarchitecture.md, 12.1 and 12.2).  Two offers a cycle: the
// handled message's forwarding (a set of outputs; a probe that forked
// records at each output which of the outputs it took) and the FSM's own
// message (one output).  Per output the better goes: class, then sender
// priority (key {sender <= top, sender}), the handled message winning a
// tie.  With SmPipe 0 the winners go onto their links in this cycle; with
// SmPipe 1 and 2 they are registered (smo_q) and go in the next.  An
// output carrying a spin flit in that cycle drops its message.  A message
// leaves as it was handled (the receiver counts the hop, 12.1), but for a
// forked probe's record of which output it took.  SmPipe 3 builds all
// three, chosen at run time by pipe_i.  C twin:
// cmodel/spin_sm_out.c (spin_sm_out, spin_onto_link).
`default_nettype none

module spin_sm_out #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumNics  = 1,      // ports 0..NumNics-1 are NICs, never in a loop
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned FlitW    = 128,
  parameter int unsigned IdW      = 6,
  parameter int unsigned CycW     = 11,
  parameter int unsigned SmPipe   = 2,
  localparam int unsigned PW      = $clog2(NumPorts),
  localparam int unsigned KW      = spin_pkg::KindW,
  localparam int unsigned MP      = spin_pkg::MaxPorts,
  localparam int unsigned SrcW    = 2    // which message an output carries: SrcNone/Fwd/Own
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic                             en_i,
  input  logic [spin_pkg::PipeW-1:0]       pipe_i,     // SmPipe = 3: 0, 1 or 2 at run time
  input  logic [IdW-1:0]                   top_i,
  input  logic [NumPorts-1:0]              out_busy_i, // outputs carrying a spin flit
  // the handled message's forwarding
  input  logic [NumPorts-1:0]              fwd_mask_i,
  input  logic [KW-1:0]                    fwd_kind_i,
  input  logic [FlitW-1:0]                 fwd_data_i,
  input  logic [NumPorts-1:0]              fwd_fork_i, // a probe that forked: its outputs
  // the FSM's own message
  input  logic [PW-1:0]                    own_out_i,  // its output; 0: none
  input  logic [KW-1:0]                    own_kind_i,
  input  logic [FlitW-1:0]                 own_data_i,
  // what goes onto the links this cycle
  output logic [NumPorts-1:0]              sm_valid_o,
  output logic [NumPorts*KW-1:0]           sm_kind_o,
  output logic [NumPorts*FlitW-1:0]        sm_data_o,
  // the registers (0 with SmPipe 0), for the observation
  output logic [NumPorts*SrcW-1:0]         smo_src_o,
  output logic [KW+FlitW-1:0]              smo_fwd_o,  // {kind, data}
  output logic [KW+FlitW-1:0]              smo_own_o,
  output logic [NumPorts-1:0]              smo_fork_o
);
`include "spin_sm_layout.svh"

  // ---- this cycle's offers: which wins each output (1 fwd, 2 own) ----
  localparam logic [SrcW-1:0] SrcNone = 2'd0, SrcFwd = 2'd1, SrcOwn = 2'd2;
  logic [NumPorts*SrcW-1:0] src_now;
  logic                  fwd_wins;
  logic [IdW-1:0]        fs, os;
  always_comb begin
    fs = fwd_data_i[IdW-1:0];
    os = own_data_i[IdW-1:0];
    fwd_wins = spin_pkg::sm_rank(fwd_kind_i) != spin_pkg::sm_rank(own_kind_i)
             ? spin_pkg::sm_rank(fwd_kind_i) > spin_pkg::sm_rank(own_kind_i)
             : {fs <= top_i, fs} >= {os <= top_i, os};
    src_now = '0;
    for (int unsigned o = NumNics; o < NumPorts; o++) begin
      if (fwd_mask_i[o] && (32'(own_out_i) != o || fwd_wins)) src_now[o*SrcW +: SrcW] = SrcFwd;
      else if (32'(own_out_i) == o)                        src_now[o*SrcW +: SrcW] = SrcOwn;
    end
    if (!en_i) src_now = '0;
  end

  // ---- the registers of SmPipe 1 and 2 ----
  logic                   reg_on;
  assign reg_on = SmPipe == 1 || SmPipe == 2 || (SmPipe == 3 && pipe_i != '0);
  logic [NumPorts*SrcW-1:0] src_q;
  logic [KW+SmW-1:0]      fwd_q, own_q;
  logic [NumPorts-1:0]    fork_q;
  logic                   any_fwd, any_own;
  always_comb begin
    any_fwd = 1'b0;
    any_own = 1'b0;
    for (int unsigned o = NumNics; o < NumPorts; o++) begin
      any_fwd = any_fwd || src_now[o*SrcW +: SrcW] == SrcFwd;
      any_own = any_own || src_now[o*SrcW +: SrcW] == SrcOwn;
    end
  end
  if (SmPipe >= 1) begin : gen_reg
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        src_q  <= '0;
        fwd_q  <= '0;
        own_q  <= '0;
        fork_q <= '0;
      end else if (en_i && reg_on) begin
        src_q  <= src_now;
        fwd_q  <= any_fwd ? {fwd_kind_i, fwd_data_i[SmW-1:0]} : '0;
        own_q  <= any_own ? {own_kind_i, own_data_i[SmW-1:0]} : '0;
        fork_q <= NumVcs > 1 && any_fwd ? fwd_fork_i : '0;   // 1 VC: no forks
      end
    end
  end else begin : gen_no_reg
    assign src_q  = '0;
    assign fwd_q  = '0;
    assign own_q  = '0;
    assign fork_q = '0;
  end

  // ---- onto the links ----
  logic [NumPorts*SrcW-1:0] src;
  logic [KW-1:0]          fk_kind, ok_kind;
  logic [SmW-1:0]         fk_data, ok_data;
  logic [NumPorts-1:0]    fmask;
  always_comb begin
    if (reg_on) begin
      src     = src_q;
      fk_kind = fwd_q[SmW +: KW];
      fk_data = fwd_q[SmW-1:0];
      ok_kind = own_q[SmW +: KW];
      ok_data = own_q[SmW-1:0];
      fmask    = fork_q;
    end else begin
      src     = src_now;
      fk_kind = fwd_kind_i;
      fk_data = fwd_data_i[SmW-1:0];
      ok_kind = own_kind_i;
      ok_data = own_data_i[SmW-1:0];
      fmask    = fwd_fork_i;
    end
  end
  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    logic [KW-1:0]    k;
    logic [SmW-1:0]   w;
    always_comb begin
      k   = src[o*SrcW +: SrcW] == SrcFwd ? fk_kind : ok_kind;
      w   = src[o*SrcW +: SrcW] == SrcFwd ? fk_data : ok_data;
      sm_valid_o[o] = o >= NumNics && src[o*SrcW +: SrcW] != SrcNone && !out_busy_i[o];
      sm_kind_o[o*KW +: KW] = sm_valid_o[o] ? k : '0;
    end
    if (NumVcs > 1) begin : gen_fork
      // a forked probe records which of its outputs this one is
      logic [SmW-1:0]  wf;
      logic [spin_pkg::SmFkW-1:0] fk;
      logic            forked;
      always_comb begin
        wf     = w;
        fk     = w[SmFkLsb +: spin_pkg::SmFkW];
        forked = k == spin_pkg::KindProbe && src[o*SrcW +: SrcW] == SrcFwd &&
                 (fmask & (fmask - 1'b1)) != '0;
        if (forked) begin
          for (int unsigned i = 0; i < SmK; i++)
            if (fk == spin_pkg::SmFkW'(i))
              wf[SmForkLsb + i*SmChW +: SmChW] =
                  SmChW'(spin_pkg::rank_below(MP'(fmask), o));
          wf[SmFkLsb +: spin_pkg::SmFkW] = fk + 1'b1;
        end
        sm_data_o[o*FlitW +: FlitW] = '0;
        if (sm_valid_o[o]) sm_data_o[o*FlitW +: SmW] = wf;
      end
    end else begin : gen_no_fork
      logic unused_fmask;
      assign unused_fmask = ^fmask;   // no fork entries with 1 VC
      always_comb begin
        sm_data_o[o*FlitW +: FlitW] = '0;
        if (sm_valid_o[o]) sm_data_o[o*FlitW +: SmW] = w;
      end
    end
  end

  assign smo_src_o = src_q;
  always_comb begin
    smo_fwd_o = '0;
    smo_own_o = '0;
    smo_fwd_o[KW+FlitW-1 -: KW] = fwd_q[SmW +: KW];
    smo_fwd_o[SmW-1:0]          = fwd_q[SmW-1:0];
    smo_own_o[KW+FlitW-1 -: KW] = own_q[SmW +: KW];
    smo_own_o[SmW-1:0]          = own_q[SmW-1:0];
  end
  assign smo_fork_o = fork_q;
endmodule

`default_nettype wire
