// spin_move_mgr: the move manager of a router (docs/microarchitecture.md,
// 12.1 and 12.5), one for all its inputs: the one move, probe_move or
// kill_move the router handles in a cycle that is not its sender's coming
// home.  It finds the message's next hop (where the recovery's move went,
// for its probe_move and kill_move; else the VC's route, or, with several
// VCs, the fork entry where they wait for several outputs), decides from
// two bits of the SPIN state (ok: the state accepts it; blk: a frozen VC
// uses its input or output) and tells the FSM what to do: freeze a VC,
// enter FROZEN for another router's recovery, or leave it (a kill_move).
// C twin: cmodel/spin_move_mgr.c (spin_next_hop, spin_move_in).
`default_nettype none

module spin_move_mgr #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumNics  = 1,      // ports 0..NumNics-1 are NICs, never in a loop
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned FlitW    = 128,
  parameter int unsigned IdW      = 6,
  parameter int unsigned CycW     = 11,
  localparam int unsigned PW      = $clog2(NumPorts),
  localparam int unsigned NumPv   = NumPorts * spin_pkg::MaxVcs,   // view entries p*MaxVcs + v
  localparam int unsigned PortW   = $clog2(NumPorts),  // a port number, in the views too
  localparam int unsigned VcW     = spin_pkg::VcW,     // a VC number
  localparam int unsigned FkW     = spin_pkg::SmFkW    // a fork entry index (fk)
) (
  input  logic                   valid_i,
  input  logic [PW-1:0]          port_i,
  input  logic [spin_pkg::KindW-1:0] kind_i,
  input  logic [FlitW-1:0]       data_i,
  input  logic [IdW-1:0]         id_i,
  // the state after the FSM's steps 1 to 3
  input  spin_pkg::spin_state_e  state_i,
  input  logic                   is_deadlock_i,
  input  logic [IdW-1:0]         source_id_i,
  input  logic                   pm_sent_i,
  input  logic [NumPv-1:0]       frozen_i,
  input  logic [PortW-1:0]       loop_out_i,   // the record of port_i (12.1)
  // the VCs: all outputs (for blk), and port_i's flits, routes, whole packets
  input  logic [PortW*NumPv-1:0] op_all_i,
  input  logic [NumVcs-1:0]      routed_i,
  input  logic [NumVcs*PortW-1:0] op_i,
  input  logic [NumVcs-1:0]      whole_i,
  // decisions
  output logic                   fwd_o,        // forwarded out of fwd_port_o
  output logic [PortW-1:0]       fwd_port_o,
  output logic [FlitW-1:0]       fwd_data_o,   // with a fork entry read
  output logic                   freeze_o,     // VC freeze_vc_o of port_i, bound for fwd_port_o
  output logic [VcW-1:0]         freeze_vc_o,
  output logic                   enter_o,      // FROZEN for its sender (another router's)
  output logic                   release_o     // another router's kill_move: leave the recovery
);
`include "spin_sm_layout.svh"
  localparam int unsigned MP = spin_pkg::MaxPorts;

  logic [IdW-1:0]      snd;
  logic [CycW-1:0]     t, lc;
  logic [FkW-1:0]      fk;
  logic                own, is_kill, is_move, mine, ok, blk, lost, found;
  logic [PortW-1:0]    o;
  logic [NumPorts-1:0] d;
  logic [VcW-1:0]      vc;
  always_comb begin
    snd     = data_i[IdW-1:0];
    t       = data_i[SmTLsb +: CycW];
    lc      = data_i[SmXLsb +: CycW];
    fk      = NumVcs > 1 ? data_i[SmFkLsb +: FkW] : '0;
    own     = snd == id_i;
    is_kill = kind_i == spin_pkg::KindKillMove;
    is_move = kind_i == spin_pkg::KindMove;
    mine    = is_deadlock_i && source_id_i == snd;
    fwd_data_o = data_i;

    // the next hop (12.1)
    d = '0;
    for (int unsigned v = 0; v < NumVcs; v++)
      if (routed_i[v]) d[op_i[v*PortW +: PortW]] = 1'b1;
    for (int unsigned q = 0; q < NumNics; q++) d[q] = 1'b0;
    if (!is_move && loop_out_i != '0 && source_id_i == snd) begin
      o = loop_out_i;
    end else if (NumVcs == 1) begin
      o = routed_i[0] && 32'(op_i[PortW-1:0]) >= NumNics ? op_i[PortW-1:0] : '0;
    end else if ((d & (d - 1'b1)) == '0) begin
      o = PortW'(spin_pkg::nth_port(MP'(d), '0));
    end else begin
      o = '0;
      for (int unsigned i = 0; i < SmK; i++)
        if (fk == FkW'(i))
          o = PortW'(spin_pkg::nth_port(MP'(d),
                                        spin_pkg::RankW'(data_i[SmForkLsb + i*SmChW +: SmChW])));
      if (32'(fk) < SmK) fwd_data_o[SmFkLsb +: FkW] = fk + 1'b1;
    end
    // past its loop's C away from its sender (delay below lc + 2)
    lost = o == '0 || (!own && {1'b0, t} < {1'b0, lc} + (CycW+1)'(2));

    // ok: the state accepts it
    if (is_kill)   ok = own ? state_i == spin_pkg::StKillMove : mine;
    else if (own)  ok = is_move ? state_i == spin_pkg::StMove
                                : state_i == spin_pkg::StProbeMove && pm_sent_i;
    else           ok = ((state_i == spin_pkg::StOff || state_i == spin_pkg::StDd) &&
                         !is_deadlock_i) || (state_i == spin_pkg::StFrozen && mine);
    // blk: a frozen VC uses input port_i or is routed to o
    blk = 1'b0;
    for (int unsigned p = NumNics; p < NumPorts; p++)
      for (int unsigned v = 0; v < NumVcs; v++)
        if (frozen_i[spin_pkg::pv(p, v)] &&
            (32'(port_i) == p || op_all_i[spin_pkg::pv(p, v)*PortW +: PortW] == o))
          blk = 1'b1;
    // the lowest VC at port_i with a whole packet for o
    found = 1'b0;
    vc    = '0;
    for (int unsigned v = 0; v < NumVcs; v++)
      if (!found && whole_i[v] && op_i[v*PortW +: PortW] == o) begin
        found = 1'b1;
        vc    = VcW'(v);
      end

    fwd_port_o  = o;
    freeze_vc_o = vc;
    release_o   = valid_i && is_kill && ok && !own;
    freeze_o    = valid_i && !is_kill && !lost && ok && t >= CycW'(2) && !blk && found;
    enter_o     = freeze_o && !own;
    fwd_o       = valid_i && !lost && (is_kill ? (ok || !own) : freeze_o);
  end
endmodule

`default_nettype wire
