// spin_sm_in: the special-message input stage of a router
// (docs/microarchitecture.md, 12.2).  Of the network inputs whose link word
// is a special message this cycle, the best is selected: highest class, then
// a probe coming home (its sender is id_i), then highest sender priority
// (key {sender <= top, sender}), then lowest port;
// the others are dropped.  The message handled this cycle is the one
// selected (SmPipe 0 and 1) or the one registered in the cycle before
// (SmPipe 2; smi_q), with the hop it came over counted (12.1).  hold_o names the inputs held from switch allocation
// this cycle: every input a move or probe_move arrives on (SmPipe 1), or the
// port of the registered one (SmPipe 2).  SmPipe 3 builds all three,
// chosen at run time by pipe_i.  C twin: cmodel/spin_sm_in.c
// (spin_sm_select) and the input stage of spin_unit_pre (spin_unit.c).
`default_nettype none

module spin_sm_in #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumNics  = 1,      // ports 0..NumNics-1 are NICs, never in a loop
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned FlitW    = 128,
  parameter int unsigned IdW      = 6,
  parameter int unsigned CycW     = 11,
  parameter int unsigned SmPipe   = 2,
  parameter int unsigned XlatW    = 4,      // bits of a link's latency - 1
  localparam int unsigned PW      = $clog2(NumPorts)
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic                                en_i,
  input  logic [spin_pkg::PipeW-1:0]          pipe_i,     // SmPipe = 3: 0, 1 or 2 at run time
  input  logic [IdW-1:0]                      id_i,       // this router
  input  logic [IdW-1:0]                      top_i,      // the router of top priority
  input  logic [NumPorts*XlatW-1:0]          xlat_i,     // per port: its link's latency - 1
  input  logic [NumPorts*spin_pkg::KindW-1:0] kind_i,     // per input link
  input  logic [NumPorts*FlitW-1:0]           data_i,
  // the message handled this cycle
  output logic                                valid_o,
  output logic [PW-1:0]                       port_o,
  output logic [spin_pkg::KindW-1:0]          kind_o,
  output logic [FlitW-1:0]                    data_o,     // with the hop counted; bits SmW and up 0
  output logic [NumPorts-1:0]                 hold_o,
  // the register (0 unless SmPipe is 2, or 3 running 2), for the observation
  output logic [PW-1:0]                       smi_port_o,
  output logic [spin_pkg::KindW-1:0]          smi_kind_o,
  output logic [FlitW-1:0]                    smi_data_o
);
`include "spin_sm_layout.svh"

  // ---- selection ----
  logic                         sel_valid;
  logic [PW-1:0]                sel_port;
  logic [spin_pkg::SmClassW:0]  best_rank;
  logic [IdW:0]                 best_key;
  logic [spin_pkg::KindW-1:0]   k;
  logic [IdW-1:0]               snd;
  logic [spin_pkg::SmClassW:0]  rank;     // {class, a probe home}
  logic [IdW:0]                 key;
  always_comb begin
    sel_valid = 1'b0;
    sel_port  = '0;
    best_rank = '0;
    best_key  = '0;
    k         = '0;
    snd       = '0;
    rank      = '0;
    key       = '0;
    for (int unsigned p = NumNics; p < NumPorts; p++) begin
      k    = kind_i[p*spin_pkg::KindW +: spin_pkg::KindW];
      snd  = data_i[p*FlitW +: IdW];
      rank = {spin_pkg::sm_rank(k), k == spin_pkg::KindProbe && snd == id_i};
      key  = {snd <= top_i, snd};
      if (k >= spin_pkg::KindProbe &&
          (!sel_valid || rank > best_rank || (rank == best_rank && key > best_key))) begin
        sel_valid = 1'b1;
        sel_port  = PW'(p);
        best_rank = rank;
        best_key  = key;
      end
    end
  end
  logic [spin_pkg::KindW-1:0] sel_kind;
  logic [SmW-1:0]             sel_data;
  always_comb begin
    sel_kind = sel_valid ? kind_i[32'(sel_port)*spin_pkg::KindW +: spin_pkg::KindW] : '0;
    sel_data = sel_valid ? data_i[32'(sel_port)*FlitW +: SmW] : '0;
  end

  // ---- the register of SmPipe 2 ----
  logic                       reg_on;    // this cycle runs SmPipe 2
  logic                       one_on;    // ... SmPipe 1
  assign reg_on = SmPipe == 2 || (SmPipe == 3 && pipe_i == spin_pkg::PipeW'(2));
  assign one_on = SmPipe == 1 || (SmPipe == 3 && pipe_i == spin_pkg::PipeW'(1));
  logic [PW-1:0]              port_q;
  logic [spin_pkg::KindW-1:0] kind_q;
  logic [SmW-1:0]             data_q;
  if (SmPipe >= 2) begin : gen_reg
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        port_q <= '0;
        kind_q <= '0;
        data_q <= '0;
      end else if (en_i && reg_on) begin
        port_q <= sel_port;
        kind_q <= sel_kind;
        data_q <= sel_data;
      end
    end
  end else begin : gen_no_reg
    assign port_q = '0;
    assign kind_q = '0;
    assign data_q = '0;
  end

  // ---- what is handled, and the hold ----
  logic [SmW-1:0] w;
  always_comb begin
    hold_o = '0;
    if (reg_on) begin
      valid_o = kind_q != '0;
      port_o  = port_q;
      kind_o  = kind_q;
      w       = data_q;
      if (spin_pkg::sm_freezes(kind_q)) hold_o[port_q] = 1'b1;
    end else begin
      valid_o = sel_valid;
      port_o  = sel_port;
      kind_o  = sel_kind;
      w       = sel_data;
      if (one_on)
        for (int unsigned p = NumNics; p < NumPorts; p++)
          hold_o[p] = spin_pkg::sm_freezes(kind_i[p*spin_pkg::KindW +: spin_pkg::KindW]);
    end
    if (!en_i) begin
      valid_o = 1'b0;
      hold_o  = '0;
    end
  end

  // ---- the hop it came over (12.1): a link of latency xlat + 1, then S ----
  // A probe's cycles grow by h; a move's, probe_move's or kill_move's delay
  // shrinks by h (not below 0).  A probe arrives with cycles of at most
  // SmCycMax, below 2^(CycW-1), and h is at most 2^XlatW + 2, at most
  // 2^(CycW-1) (CycW >= XlatW + 2, checked in spin_router): the sum fits
  // CycW bits.
  logic [spin_pkg::PipeW-1:0] s_now;
  logic [CycW-1:0] h, t;
  always_comb begin
    s_now  = SmPipe == 3 ? pipe_i : spin_pkg::PipeW'(SmPipe);
    h      = CycW'(xlat_i[32'(port_o)*XlatW +: XlatW]) + CycW'(s_now) + 1'b1;
    t      = w[SmTLsb +: CycW];
    data_o = '0;
    data_o[SmW-1:0] = w;
    if (kind_o == spin_pkg::KindProbe) data_o[SmTLsb +: CycW] = t + h;
    else data_o[SmTLsb +: CycW] = t > h ? t - h : '0;
  end
  assign smi_port_o = port_q;
  assign smi_kind_o = kind_q;
  always_comb begin
    smi_data_o = '0;
    smi_data_o[SmW-1:0] = data_q;
  end
endmodule

`default_nettype wire
