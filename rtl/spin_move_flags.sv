// spin_move_flags: what each move manager tests of a SPIN state
// (docs/microarchitecture.md, 12.4), one pair of bits per manager.
// C twin: spin_move_flags() in cmodel/spin_move_flags.c.
// spin_unit computes them once from the state the FSM leaves and updates
// them after each manager by its decision, so no manager reads the state
// itself (the chain of managers stays shallow); the same module, on the
// state before each manager, checks the carried bits in simulation
// (spin_unit, MoveFlags_A), and on the spinning VCs alone gives the blk
// bits after a release.
//
// Manager k (class and port by spin_unit's chain order: k < Links probe_move
// of port k + 1, then move or kill_move of port k - Links + 1) with the
// message of its port: sender snd_i[link], own_i[k] (its sender is this
// router), kill_i[k] (a kill_move), output o_i[k]:
//   ok_o[k]:  another router's move or probe_move is accepted (free of any
//             recovery: OFF or DD and not is_deadlock; or FROZEN for its
//             sender); another router's kill_move releases (is_deadlock for
//             its sender); the router's own move, probe_move, kill_move goes
//             on (MOVE; PROBE_MOVE with its probe_move sent; KILL_MOVE);
//   blk_o[k]: a frozen VC uses the message's input port or is routed to its
//             output (spin_pkg::may_freeze is !blk).
// Combinational.
`default_nettype none

module spin_move_flags #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumVcs   = 1,
  localparam int unsigned Links   = NumPorts - 1,
  localparam int unsigned Slots   = 2 * Links
) (
  input  spin_pkg::spin_mut_t                st_i,
  input  logic [Links*spin_pkg::IdW-1:0]     snd_i,   // [q*IdW]: the sender on link q
  input  logic [Slots-1:0]                   own_i,
  input  logic [Slots-1:0]                   kill_i,
  input  logic [Slots*3-1:0]                 o_i,
  input  logic [3*spin_pkg::MaxPv-1:0]       op_i,    // output port of each VC's route
  output logic [Slots-1:0]                   ok_o,
  output logic [Slots-1:0]                   blk_o
);
  logic             free, sent_pm;
  logic [Links-1:0] mine, pf, cf;   // per link: recovery of its sender; per port: used
  always_comb begin
    free    = (st_i.state == spin_pkg::StOff || st_i.state == spin_pkg::StDd) && !st_i.is_deadlock;
    sent_pm = st_i.state == spin_pkg::StProbeMove && st_i.pm_sent;
    for (int unsigned q = 0; q < Links; q++)
      mine[q] = st_i.is_deadlock && st_i.source_id == snd_i[q*spin_pkg::IdW +: spin_pkg::IdW];
    pf = '0;
    cf = '0;
    for (int unsigned p = 1; p < NumPorts; p++)
      for (int unsigned v = 0; v < NumVcs; v++)
        if (st_i.frozen[p*spin_pkg::MaxVcs + v]) begin
          pf[p-1] = 1'b1;
          for (int unsigned q = 0; q < Links; q++)
            if (op_i[(p*spin_pkg::MaxVcs + v)*3 +: 3] == 3'(q + 1)) cf[q] = 1'b1;
        end
    for (int unsigned k = 0; k < Slots; k++) begin
      if (kill_i[k])
        ok_o[k] = own_i[k] ? st_i.state == spin_pkg::StKillMove : mine[k % Links];
      else if (own_i[k])
        ok_o[k] = k < Links ? sent_pm : st_i.state == spin_pkg::StMove;
      else
        ok_o[k] = free || (st_i.state == spin_pkg::StFrozen && mine[k % Links]);
      blk_o[k] = pf[k % Links];   // the message's input: link k % Links
      for (int unsigned q = 0; q < Links; q++)
        if (o_i[k*3 +: 3] == 3'(q + 1) && cf[q]) blk_o[k] = 1'b1;
    end
  end
endmodule

`default_nettype wire
