// spin_pkg: constants of the link format and of SPIN shared by every RTL
// module.  The contract is docs/microarchitecture.md ("Link format" and
// section 12); C twins: cmodel/flit.h and cmodel/spin.h, the observation
// word's fields in tb/spin_obs.h.  A special message's layout depends on
// the router's parameters and is in rtl/spin_sm_layout.svh.
//
// Link word, LinkW = FlitW + 7 bits:
//   [FlitW-1:0]          data (head flit: dst in [15:0]; special message: 12.1)
//   [FlitW+1:FlitW]      vc     downstream VC the flit is written into
//   [FlitW+2]            tail
//   [FlitW+3]            head
//   [FlitW+6:FlitW+4]    kind   0 idle, 1 flit, 2 probe, 3 move, 4 probe_move, 5 kill_move
// Credit word, CredW = 6 bits: [1:0] vc, [2] valid, [3] arm, [5:4] arm_vc.
`default_nettype none

package spin_pkg;
  localparam int unsigned CtlW   = 7;
  localparam int unsigned CredW  = 6;
  localparam int unsigned CredValid = 2;   // credit word bit: a VC became free
  localparam int unsigned CredArm   = 3;   // credit word bit: arm notice (SPIN)
  localparam int unsigned VcW    = 2;   // link field width: up to 4 VCs
  localparam int unsigned KindW  = 3;
  localparam int unsigned DstW   = 16;  // destination field of a head flit
  localparam int unsigned OccW   = 3;   // occupancy of one VC, 0..7
  localparam int unsigned MaxPktLen = 5;

  localparam logic [KindW-1:0] KindFlit      = 3'd1;
  localparam logic [KindW-1:0] KindProbe     = 3'd2;
  localparam logic [KindW-1:0] KindMove      = 3'd3;
  localparam logic [KindW-1:0] KindProbeMove = 3'd4;
  localparam logic [KindW-1:0] KindKillMove  = 3'd5;

  // ---- SPIN ----
  // A router's SPIN views are indexed p*MaxVcs + v, NumPorts*MaxVcs entries,
  // and a port number in them is clog2(NumPorts) bits: both are sized by the
  // router's own NumPorts.  MaxPorts bounds NumPorts (the C model's 16-bit
  // port masks, cmodel/topology.h) and is the width of the port masks the
  // functions below take.
  localparam int unsigned MaxPorts = 16;
  localparam int unsigned MaxPortW = $clog2(MaxPorts);   // nth_port's result
  localparam int unsigned MaxVcs   = 4;
  localparam int unsigned RankW    = 3;          // a fork choice (< NumVcs <= 4) or rank_below mod 8
  localparam int unsigned MaxXlatW = 10;         // a link's latency - 1: links of at most 1,024 cycles
  localparam int unsigned SpinSettle = 6;        // spin -> probe_move
  localparam int unsigned SmFkW    = 6;          // fork count field (V > 1): K <= 63
  localparam int unsigned SmClassW = 2;          // a special message's class (sm_rank)
  localparam int unsigned StateW   = 3;          // spin_state_e
  localparam int unsigned PipeW    = 2;          // a run-time SM_PIPE (SmPipe = 3): 0, 1, 2

  typedef enum logic [StateW-1:0] {
    StOff, StDd, StMove, StProbeMove, StForwardProgress, StKillMove, StFrozen
  } spin_state_e;

  // Bits of a special message that carry a field (SmW of spin_sm_layout.svh,
  // which the unit checks against this), for widths outside a module body.
  function automatic int unsigned sm_width(input int unsigned vcs, input int unsigned flitw,
                                           input int unsigned idw, input int unsigned cycw);
    int unsigned fork_lsb, chw, k;
    fork_lsb = idw + 2 * cycw + (vcs > 1 ? SmFkW : 0);
    chw      = vcs > 1 ? $clog2(vcs) : 1;
    k        = vcs > 1 && flitw > fork_lsb ? (flitw - fork_lsb) / chw : 0;
    if (k > 63) k = 63;
    sm_width = fork_lsb + k * chw;
  endfunction

  // The observation word's width (spin_unit's layout; tb/spin_obs.h).
  function automatic int unsigned obs_width(input int unsigned ports, input int unsigned vcs,
                                            input int unsigned flitw, input int unsigned idw,
                                            input int unsigned cycw, input int unsigned tddw);
    int unsigned smw, forkw, cntw, markw, router;
    smw   = sm_width(vcs, flitw, idw, cycw);
    forkw = vcs > 1 ? smw - (idw + 2 * cycw + SmFkW) : 0;
    cntw  = tddw > cycw + 1 ? tddw : cycw + 1;
    markw = idw + cycw + ports + (vcs > 1 ? 6 : 0);
    router = StateW + cntw + $clog2(ports) + 2 + 1 + idw + 1 + cycw + $clog2(ports) +
             (vcs > 1 ? 6 + forkw : 0) + idw + tddw + 2 + $clog2(ports) + KindW + smw +
             2 * ports + 2 * (KindW + smw) + ports;
    obs_width = router + (ports - 1) * (markw + $clog2(ports) + vcs * 6);
  endfunction

  // The index of VC v of port p in a SPIN view (p*MaxVcs + v); a field of
  // W bits per VC sits at pv(p, v) * W.
  function automatic int unsigned pv(input int unsigned p, input int unsigned v);
    pv = p * MaxVcs + v;
  endfunction

  // Class of a special message: probe_move 3, move and kill_move 2, probe 1.
  function automatic logic [SmClassW-1:0] sm_rank(input logic [KindW-1:0] kind);
    if (kind == KindProbeMove)  sm_rank = 2'd3;
    else if (kind == KindProbe) sm_rank = 2'd1;
    else                        sm_rank = 2'd2;
  endfunction

  // A move or probe_move: a message that may freeze a VC of its port.
  function automatic logic sm_freezes(input logic [KindW-1:0] kind);
    sm_freezes = kind == KindMove || kind == KindProbeMove;
  endfunction

  // The k-th set bit (lowest first) of a port mask; 0 when none.  seen
  // wraps only after the last bit (16 set bits), so k < 8 is never matched
  // twice.  A caller passes its NumPorts-bit mask zero-extended and keeps
  // the low clog2(NumPorts) bits of the result.
  function automatic logic [MaxPortW-1:0] nth_port(input logic [MaxPorts-1:0] mask,
                                                  input logic [RankW-1:0] k);
    logic [RankW:0] seen;
    nth_port = '0;
    seen     = '0;
    for (int unsigned o = 0; o < MaxPorts; o++)
      if (mask[o]) begin
        if (seen == {1'b0, k}) nth_port = MaxPortW'(o);
        seen = seen + 1'b1;
      end
  endfunction

  // The number of set bits of a port mask below port o, modulo 8 (RankW
  // bits; a caller keeps SmChW <= 2 of them).
  function automatic logic [RankW-1:0] rank_below(input logic [MaxPorts-1:0] mask,
                                           input int unsigned o);
    rank_below = '0;
    for (int unsigned q = 0; q < MaxPorts; q++)
      if (q < o && mask[q]) rank_below = rank_below + 1'b1;
  endfunction
endpackage

`default_nettype wire
