// spin_sm_arb: which special message one output port carries this cycle
// (docs/microarchitecture.md, 12.1).  C twin: spin_offer() in
// cmodel/spin_probe.c.
//
// Combinational.  Offers, in the order the C model makes them: the FSM's
// first (counter expiry) and second (own probe back) offer, then one per
// input port 1..NumPorts-1.  Best: class (probe_move > move = kill_move >
// probe), then the sender's rotating priority, then the lower source (the
// FSM counts as port NumPorts), then the earlier offer.  Losers are dropped.
// An output that carries a spin flit (busy_i) takes no message.
`default_nettype none

module spin_sm_arb #(
  parameter int unsigned NumPorts = 5,
  localparam int unsigned OfferW  = spin_pkg::KindW + spin_pkg::SmW,
  localparam int unsigned NumOffers = NumPorts + 1
) (
  input  logic [spin_pkg::IdW-1:0]     top_i,
  input  logic [spin_pkg::IdW:0]       nodes_i,
  input  logic                         busy_i,
  input  logic [NumOffers-1:0]         valid_i,   // [0], [1]: the FSM; [1+p]: input port p
  input  logic [NumOffers*OfferW-1:0]  offer_i,
  output logic                         valid_o,
  output logic [OfferW-1:0]            offer_o
);
  logic [1:0]               best_rank, rank;
  logic [spin_pkg::IdW:0]   best_prio, prio;
  logic [3:0]               best_src, src;
  logic [OfferW-1:0]        o;
  logic                     better;

  always_comb begin
    valid_o   = 1'b0;
    offer_o   = '0;
    best_rank = '0;
    best_prio = '0;
    best_src  = '0;
    o         = '0;
    rank      = '0;
    prio      = '0;
    src       = '0;
    better    = 1'b0;
    if (valid_i != '0 && !busy_i)
    for (int unsigned k = 0; k < NumOffers; k++) begin
      o    = offer_i[k*OfferW +: OfferW];
      rank = spin_pkg::sm_rank(o[spin_pkg::SmW +: spin_pkg::KindW]);
      prio = spin_pkg::sm_prio(o[spin_pkg::IdW-1:0], top_i, nodes_i);
      src  = k < 2 ? 4'(NumPorts) : 4'(k - 1);
      if (!valid_o)               better = 1'b1;
      else if (rank != best_rank) better = rank > best_rank;
      else if (prio != best_prio) better = prio > best_prio;
      else                        better = src < best_src;
      if (valid_i[k] && !busy_i && better) begin
        valid_o   = 1'b1;
        offer_o   = o;
        best_rank = rank;
        best_prio = prio;
        best_src  = src;
      end
    end
  end
endmodule

`default_nettype wire
