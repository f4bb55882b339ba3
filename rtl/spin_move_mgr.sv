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
// same_src_i is st_i.source_id == the message's sender: the router chains
// the managers and knows it for every link of the cycle without comparing
// after each one (spin_unit), so the compare is not on the chain.
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
  input  logic                                  same_src_i,  // st_i.source_id == sender
  input  logic [spin_pkg::IdW-1:0]              id_i,
  input  logic [spin_pkg::CntW-1:0]             tdd_i,
  input  logic [spin_pkg::KindW-1:0]            kind_i,      // the message on this port
  input  logic [spin_pkg::SmW-1:0]              data_i,
  input  logic [spin_pkg::MaxPv-1:0]            cnt_nz_i,    // VC holds flits
  input  logic [spin_pkg::MaxPv-1:0]            rv_i,        // VC has a route
  input  logic [spin_pkg::MaxPv-1:0]            whole_i,     // VC fronts a whole, routed packet
  input  logic [3*spin_pkg::MaxPv-1:0]          op_i,        // output port of each VC's route
  input  logic [spin_pkg::MaxPv-1:0]            spinning_i,
  output spin_pkg::spin_mut_t                   st_o,
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
  logic                         mine, own, owned, free, found, take;
  logic [1:0]                   pick;

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
    mine   = kind_i >= spin_pkg::KindProbe && kind_i <= spin_pkg::KindKillMove &&
             spin_pkg::sm_rank(kind_i) == 2'(Rank);
    own    = sender == id_i;
    owned  = st_i.is_deadlock && same_src_i;
    free   = (st_i.state == spin_pkg::StOff || st_i.state == spin_pkg::StDd) && !st_i.is_deadlock;

    st_o          = st_i;
    offer_valid_o = 1'b0;
    offer_port_o  = o;
    offer_o       = {kind_i, spin_pkg::sm_word(sender, n,
                                               kind_i == spin_pkg::KindKillMove ? 7'd0
                                                                                : delay - 1'b1,
                                               idx + 1'b1, path)};
    found         = 1'b0;
    pick          = '0;
    take          = 1'b0;
    if (mine && idx < n && o != '0) begin
      if (kind_i == spin_pkg::KindKillMove) begin
        // its own kill_move goes on while the sender is in KILL_MOVE; another
        // router's always goes on (so a loop that passes a router twice is
        // released all round), and releases a router frozen for it
        if (!own || st_i.state == spin_pkg::StKillMove) begin
          offer_valid_o = 1'b1;
          if (!own && owned) begin
            st_o     = spin_pkg::leave(st_i, spinning_i);
            st_o.cnt = tdd_i - 1'b1;
          end
        end
      end else begin
        // its own move or probe_move, half way round a figure 8, in the
        // matching sender state; another router's, by a router free of any
        // recovery or frozen for that sender
        take = own ? (kind_i == spin_pkg::KindMove && st_i.state == spin_pkg::StMove) ||
                     (kind_i == spin_pkg::KindProbeMove &&
                      st_i.state == spin_pkg::StProbeMove && st_i.pm_sent)
                   : free || (st_i.state == spin_pkg::StFrozen && owned);
        if (take && delay >= 7'd2 &&
            spin_pkg::may_freeze(st_i.frozen, op_i, NumPorts, NumVcs, 3'(Port), o))
          for (int unsigned v = 0; v < NumVcs; v++)
            if (!found && whole_i[Port*spin_pkg::MaxVcs+v] &&
                op_i[(Port*spin_pkg::MaxVcs+v)*3 +: 3] == o) begin
              found = 1'b1;
              pick  = 2'(v);
            end
        if (found) begin
          st_o.frozen[Port*spin_pkg::MaxVcs + 32'(pick)] = 1'b1;
          st_o.armed[Port*spin_pkg::MaxVcs + 32'(pick)]  = 1'b0;
          offer_valid_o = 1'b1;
          if (!own) begin
            st_o.is_deadlock = 1'b1;
            st_o.source_id   = sender;
            st_o.state       = spin_pkg::StFrozen;
            st_o.pm_sent     = 1'b0;
            st_o.cnt         = spin_pkg::CntW'(delay) - 1'b1;
          end
        end
      end
    end
  end
endmodule

`default_nettype wire
