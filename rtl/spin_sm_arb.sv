// spin_sm_arb: which special message one output port carries this cycle
// (docs/microarchitecture.md, 12.1).  C twin: cmodel/spin_sm_arb.c
// (spin_offer, spin_onto_link).
//
// Combinational.  Offers, in the order the C model makes them: the FSM's
// first (counter expiry) and second (own probe back) offer, then one per
// input port 1..NumPorts-1.  Best: class (probe_move > move = kill_move >
// probe), then the sender's rotating priority, then the lower source (the
// FSM counts as port NumPorts), then the earlier offer.  Losers are dropped.
// An output that carries a spin flit (busy_i) takes no message.
// The offer words, their classes (rank_i) and their senders' priority keys
// (prio_i, spin_pkg::sm_prio_key: the order of the rotating priority) are the
// same for every output, so spin_unit computes them once:
// this arbiter picks the winner from those small keys, then takes its word.
// A probe forked by an input port's probe manager gets this output (Out)
// written into its newest path entry here.  The message then goes onto
// this output's link, which takes xlat_i cycles beyond 1 (contract 12.1):
// a probe's x (its delay field) grows by xlat_i, a move's or probe_move's
// delay shrinks by it, not below 0 (spin_onto_link).
`default_nettype none

module spin_sm_arb #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned Out      = 0,
  localparam int unsigned OfferW  = spin_pkg::KindW + spin_pkg::SmW,
  localparam int unsigned NumOffers = NumPorts + 1,
  localparam int unsigned PrioW   = spin_pkg::IdW + 1
) (
  input  logic                         busy_i,
  input  logic [spin_pkg::XlatW-1:0]   xlat_i,    // this output's link latency - 1
  input  logic [NumOffers-1:0]         valid_i,   // [0], [1]: the FSM; [1+p]: input port p
  input  logic [NumOffers*2-1:0]       rank_i,
  input  logic [NumOffers*PrioW-1:0]   prio_i,
  input  logic [NumOffers*OfferW-1:0]  offer_i,
  output logic                         valid_o,
  output logic [OfferW-1:0]            offer_o
);
  localparam int unsigned IdxW = $clog2(NumOffers);
  // A tournament over the offers, padded to Leaves: node i holds the better
  // of nodes 2i and 2i+1, leaf Leaves+k offer k.  The left child holds the
  // lower offers, so it wins a tie: the same winner as a scan in offer
  // order, in log2 levels of comparators instead of NumOffers.
  localparam int unsigned Leaves = 1 << IdxW;
  localparam int unsigned KeyW  = 1 + 2 + PrioW + 4;   // valid, rank, prio, source
  logic [2*Leaves*KeyW-1:0] key;                       // node i at i*KeyW
  logic [2*Leaves*IdxW-1:0] idx;
  logic [KeyW-1:0]          kl, kr;
  logic [3:0]               src;
  logic                     right;
  logic [IdxW-1:0]          win;
  logic [5:0]               n;
  logic [6:0]               d;
  logic [spin_pkg::KindW-1:0] kind;

  always_comb begin
    key = '0;
    idx = '0;
    kl = '0;
    kr = '0;
    right = 1'b0;
    for (int unsigned k = 0; k < Leaves; k++) begin
      src = k < 2 ? 4'(NumPorts) : 4'(k - 1);
      idx[(Leaves+k)*IdxW +: IdxW] = IdxW'(k);
      if (k < NumOffers)
        key[(Leaves+k)*KeyW +: KeyW] = {valid_i[k] & ~busy_i, rank_i[k*2 +: 2],
                                        prio_i[k*PrioW +: PrioW], ~src};
    end
    // key: valid, then class, then priority, then the lower source (~src)
    for (int unsigned i = Leaves - 1; i >= 1; i--) begin
      kl = key[(2*i)*KeyW +: KeyW];
      kr = key[(2*i+1)*KeyW +: KeyW];
      right = kr[KeyW-1] && kr > kl;
      key[i*KeyW +: KeyW] = right ? kr : kl;
      idx[i*IdxW +: IdxW] = right ? idx[(2*i+1)*IdxW +: IdxW] : idx[(2*i)*IdxW +: IdxW];
    end
    // the root's key is valid when any leaf's is (a valid key beats an
    // invalid one); said directly, so valid_o does not wait for the
    // comparators (switch allocation reads it through out_blocked)
    valid_o = |valid_i && !busy_i;
    win     = idx[IdxW +: IdxW];
    offer_o = valid_o ? offer_i[win*OfferW +: OfferW] : '0;
    // A forked probe: this output is its entry n-1.  Written as a compare
    // per entry, not as a shift by 3(n-1): Yosys 0.23's resource sharing
    // spent minutes per such shifter in the flattened router.
    n = offer_o[spin_pkg::SmNLsb +: 6];
    if (valid_o && win >= IdxW'(2) && offer_o[spin_pkg::SmW +: spin_pkg::KindW] == spin_pkg::KindProbe)
      for (int unsigned i = 0; i < spin_pkg::SmMaxPath; i++)
        if (n == 6'(i + 1))
          offer_o[spin_pkg::SmPathLsb + 3*i +: 3] = offer_o[spin_pkg::SmPathLsb + 3*i +: 3] |
                                                    3'(Out);
    // onto the link
    kind = offer_o[spin_pkg::SmW +: spin_pkg::KindW];
    d = offer_o[spin_pkg::SmDelayLsb +: 7];
    if (kind == spin_pkg::KindProbe)
      offer_o[spin_pkg::SmDelayLsb +: 7] = d + 7'(xlat_i);
    else if (kind == spin_pkg::KindMove || kind == spin_pkg::KindProbeMove)
      offer_o[spin_pkg::SmDelayLsb +: 7] = d > 7'(xlat_i) ? d - 7'(xlat_i) : 7'd0;
  end
endmodule

`default_nettype wire
