// spin_move_mgr: the move manager for the special message on one input port
// (docs/microarchitecture.md, 12.4).  C twin: spin_move_in() in
// cmodel/spin_move_mgr.c.
//
// Combinational.  The messages of one cycle are handled one after another,
// probe_moves first, then moves and kill_moves, each class by ascending port:
// the router chains one instance per (class, port), each taking the SPIN state
// left by the one before (st_i) and passing its own result on (st_o).  An
// instance acts only on a message of its class (Rank 3: probe_move; Rank 2:
// move and kill_move) with path left (idx < n); otherwise st_o = st_i.  Path
// entry idx names the output; past the recorded path (the entry reads 0;
// routers with 1 VC per port only) the route of the VC at this port does.
//   move, probe_move: accepted by a router free of any recovery, or frozen
//     for the same sender, when a VC at this port holds a whole packet bound
//     for that output that may be frozen; it freezes that VC (the lowest),
//     goes to FROZEN with cnt = delay - 1, and forwards the message on that
//     output with idx + 1 and delay - 1.
//   kill_move: forwarded by every router; a router frozen for its sender
//     also unfreezes (except spinning VCs) and leaves the recovery.
// The router's own move or probe_move back with path left (idx < n: the loop
// passes through its sender twice) is taken like a frozen router would, in
// MOVE (move) or PROBE_MOVE after the probe_move left (probe_move): freeze
// and forward, state unchanged; its own kill_move with path left is
// forwarded in KILL_MOVE (C twin: spin_move_through()).
// Anything else is dropped.
// The manager does not test the state st_i itself: spin_unit gives it the
// two bits of the state it tests (spin_move_flags): ok_i (another router's
// move or probe_move is accepted, or its kill_move releases; the router's
// own goes on) and blk_i (a frozen VC uses this input, or the output), and
// updates the later managers' bits by this one's decision (take_o: another
// router's move or probe_move taken, the router now FROZEN for its sender;
// hold_o: its own taken; rel_o: released).  So the chain of managers passes
// a few bits, each stage a few gates deep, and st_i only goes through
// multiplexers.  own_i: the sender is this router (one compare per link in
// spin_unit).
// offer_o is the word forwarded if offer_valid_o: idx + 1, and delay - 1 (a
// kill_move: 0).  It depends on the message alone, not on the SPIN state, so
// it is computed whether or not the message goes on; the unit takes it from
// one instance per port.
`default_nettype none

module spin_move_mgr #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned Port     = 1,
  parameter int unsigned Rank     = 2
) (
  input  spin_pkg::spin_mut_t                   st_i,
  input  logic                                  ok_i,        // spin_move_flags of st_i
  input  logic                                  blk_i,
  input  logic                                  own_i,       // the sender is this router
  input  logic [spin_pkg::CntW-1:0]             tdd_i,
  input  logic [spin_pkg::KindW-1:0]            kind_i,      // the message on this port
  input  logic [spin_pkg::SmW-1:0]              data_i,
  input  logic [spin_pkg::MaxPv-1:0]            cnt_nz_i,    // VC holds flits
  input  logic [spin_pkg::MaxPv-1:0]            rv_i,        // VC has a route
  input  logic [spin_pkg::MaxPv-1:0]            whole_i,     // VC fronts a whole, routed packet
  input  logic [3*spin_pkg::MaxPv-1:0]          op_i,        // output port of each VC's route
  input  logic [spin_pkg::MaxPv-1:0]            spinning_i,
  output spin_pkg::spin_mut_t                   st_o,
  output logic                                  take_o,      // the decision
  output logic                                  hold_o,
  output logic                                  rel_o,
  output logic                                  may_o,       // a move or probe_move with a VC
                                                             // to freeze, whatever the state
  output logic                                  offer_valid_o,
  output logic [2:0]                            offer_port_o,
  output logic [spin_pkg::KindW+spin_pkg::SmW-1:0] offer_o   // {kind, data}, see below
);
  if (Port < 1 || Port >= NumPorts) begin : gen_check_port
    $error("spin_move_mgr: Port must be a network port, 1..NumPorts-1");
  end
  if (Rank != 2 && Rank != 3) begin : gen_check_rank
    $error("spin_move_mgr: Rank must be 2 (move, kill_move) or 3 (probe_move)");
  end

  logic [spin_pkg::IdW-1:0]     sender;
  logic [5:0]                   n, idx;
  logic [6:0]                   delay;
  logic [spin_pkg::SmPathW-1:0] path;
  logic [2:0]                   o;
  logic                         go, kill, found, may;
  logic [1:0]                   pick;

  // what depends on the message and the VCs alone
  always_comb begin
    sender = data_i[spin_pkg::SmSenderLsb +: spin_pkg::IdW];
    n      = data_i[spin_pkg::SmNLsb +: 6];
    delay  = data_i[spin_pkg::SmDelayLsb +: 7];
    idx    = data_i[spin_pkg::SmIdxLsb +: 6];
    path   = data_i[spin_pkg::SmPathLsb +: spin_pkg::SmPathW];
    // path entry idx, or past the recorded path (1 VC per port) the route of
    // the VC at this port; 0: none, the message is dropped
    o      = spin_pkg::path_entry(path, idx);
    if (o == '0 && NumVcs == 1 && cnt_nz_i[Port*spin_pkg::MaxVcs] && rv_i[Port*spin_pkg::MaxVcs])
      o = op_i[(Port*spin_pkg::MaxVcs)*3 +: 3];
    go     = kind_i >= spin_pkg::KindProbe && kind_i <= spin_pkg::KindKillMove &&
             spin_pkg::sm_rank(kind_i) == 2'(Rank) && idx < n && o != '0;
    kill   = kind_i == spin_pkg::KindKillMove;
    // the VC a move or probe_move would freeze: the lowest at this port that
    // fronts a whole packet bound for o
    found  = 1'b0;
    pick   = '0;
    for (int unsigned v = 0; v < NumVcs; v++)
      if (!found && whole_i[Port*spin_pkg::MaxVcs+v] &&
          op_i[(Port*spin_pkg::MaxVcs+v)*3 +: 3] == o) begin
        found = 1'b1;
        pick  = 2'(v);
      end
    may    = go && !kill && delay >= 7'd2 && found;
    may_o  = may;
    offer_port_o = o;
    offer_o      = {kind_i, spin_pkg::sm_word(sender, n, kill ? 7'd0 : delay - 1'b1,
                                              idx + 1'b1, path)};
  end

  // the decision, from the two bits of the state before this manager: a
  // move or probe_move with a VC to freeze that may be frozen, by a router
  // that accepts it (another router's: free of any recovery or frozen for
  // that sender; its own, half way round a figure 8: in the matching sender
  // state); another router's kill_move releases a router frozen for it;
  // every kill_move goes on (so a loop that passes a router twice is
  // released all round), its own while the sender is in KILL_MOVE
  always_comb begin
    take_o        = may && ok_i && !blk_i && !own_i;
    hold_o        = may && ok_i && !blk_i && own_i;
    rel_o         = go && kill && !own_i && ok_i;
    offer_valid_o = take_o || hold_o || (go && kill && (!own_i || ok_i));
  end

  // the state after it
  always_comb begin
    st_o = st_i;
    if (rel_o) begin
      st_o     = spin_pkg::leave(st_i, spinning_i);
      st_o.cnt = tdd_i - 1'b1;
    end
    if (take_o || hold_o) begin
      st_o.frozen[Port*spin_pkg::MaxVcs + 32'(pick)] = 1'b1;
      st_o.armed[Port*spin_pkg::MaxVcs + 32'(pick)]  = 1'b0;
    end
    if (take_o) begin
      st_o.is_deadlock = 1'b1;
      st_o.source_id   = sender;
      st_o.state       = spin_pkg::StFrozen;
      st_o.pm_sent     = 1'b0;
      st_o.cnt         = spin_pkg::CntW'(delay) - 1'b1;
    end
  end
endmodule

`default_nettype wire
