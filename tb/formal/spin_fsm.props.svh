// Formal properties of spin_fsm (docs/formal.md), spliced into a copy of the
// module by tb/formal/formal.py (see spin_fifo.props.svh).  The FSM is proven
// inside tb/formal/fv_spin_fsm.sv, with its managers and an environment that
// assumes what the contract gives its inputs; the module has no contract of
// its own to splice, only FV_FULL's properties.  Most restate the RTL's own
// assertions (under `ifndef SYNTHESIS`, for Verilator, which the formal flow
// leaves out), with the same names; the rest are new (docs/formal.md).
`ifdef FV_FULL
  localparam int unsigned MaxVcs = spin_pkg::MaxVcs;   // the views' stride (spin_pkg::pv)
  // C as the FSM reads it, and the counter's bound in each state (12.3)
  logic [CntW-1:0] fv_c, fv_cnt_max;
  logic            fv_sender;
  always_comb begin
    fv_c      = CntW'(loop_cyc_q);
    fv_sender = state_q == spin_pkg::StMove || state_q == spin_pkg::StProbeMove ||
                state_q == spin_pkg::StForwardProgress || state_q == spin_pkg::StKillMove;
    case (state_q)
      spin_pkg::StOff:             fv_cnt_max = '0;
      spin_pkg::StDd:              fv_cnt_max = CntW'(tdd_i) - 1'b1;
      // MOVE, KILL_MOVE: C; FORWARD_PROGRESS: the move home after C, delay - 2 = C
      spin_pkg::StMove, spin_pkg::StKillMove, spin_pkg::StForwardProgress: fv_cnt_max = fv_c;
      // PROBE_MOVE: SPIN_SETTLE - 1 before the probe_move, C after it
      spin_pkg::StProbeMove:       fv_cnt_max = pm_sent_q ? fv_c : CntW'(spin_pkg::SpinSettle - 1);
      // FROZEN: delay - 2 <= 2C before the spin, SPIN_SETTLE + 2C + 2 after it
      spin_pkg::StFrozen:          fv_cnt_max = pm_sent_q ? CntW'(spin_pkg::SpinSettle + 2) + (fv_c << 1)
                                                          : fv_c << 1;
      default:                     fv_cnt_max = '0;
    endcase
  end

  // per port: frozen VCs at each input and bound for each output, spin
  // flits; every frozen VC bound for a network output, its record its route
  logic [NumPorts-1:0] fv_in_used, fv_out_used, fv_in_twice, fv_out_twice;
  logic [NumPorts-1:0] fv_sin_used, fv_sout_used, fv_sin_twice, fv_sout_twice;
  logic                fv_record_ok, fv_net_out_ok, fv_spin_ok;
  logic [PortW-1:0]    fv_o, fv_s;
  logic [1:0]          fv_sv;
  logic [NumPv-1:0]    fv_thawable;
  logic                fv_lo_ok;
  always_comb begin
    // every record names no output or a network output; the NICs' none
    fv_lo_ok = 1'b1;
    for (int unsigned p = 0; p < NumPorts; p++)
      if (loop_out_q[p*PortW +: PortW] != '0 &&
          (p < NumNics || 32'(loop_out_q[p*PortW +: PortW]) < NumNics ||
           32'(loop_out_q[p*PortW +: PortW]) >= NumPorts)) fv_lo_ok = 1'b0;
  end
  always_comb begin
    {fv_in_used, fv_out_used, fv_in_twice, fv_out_twice} = '0;
    {fv_sin_used, fv_sout_used, fv_sin_twice, fv_sout_twice} = '0;
    fv_record_ok  = 1'b1;
    fv_net_out_ok = 1'b1;
    fv_o          = '0;
    fv_thawable   = frozen_q & ~spinning_q;
    for (int unsigned p = NumNics; p < NumPorts; p++)
      for (int unsigned v = 0; v < NumVcs; v++) begin
        fv_o = op_i[(p*MaxVcs+v)*PortW +: PortW];
        if (frozen_q[p*MaxVcs+v]) begin
          if (fv_in_used[p]) fv_in_twice[p] = 1'b1;
          if (32'(fv_o) < NumPorts && fv_out_used[fv_o[PW-1:0]]) fv_out_twice[fv_o[PW-1:0]] = 1'b1;
          fv_in_used[p] = 1'b1;
          if (32'(fv_o) < NumPorts) fv_out_used[fv_o[PW-1:0]] = 1'b1;
          if (!spinning_q[p*MaxVcs+v] && loop_out_q[p*PortW +: PortW] != fv_o) fv_record_ok = 1'b0;
          if (32'(fv_o) < NumNics || 32'(fv_o) >= NumPorts) fv_net_out_ok = 1'b0;
        end
        if (spinning_q[p*MaxVcs+v] && cnt_nz_i[p*MaxVcs+v]) begin   // sends a spin flit
          if (fv_sin_used[p]) fv_sin_twice[p] = 1'b1;
          if (32'(fv_o) < NumPorts && fv_sout_used[fv_o[PW-1:0]]) fv_sout_twice[fv_o[PW-1:0]] = 1'b1;
          fv_sin_used[p] = 1'b1;
          if (32'(fv_o) < NumPorts) fv_sout_used[fv_o[PW-1:0]] = 1'b1;
        end
      end
    // a spin flit leaves output o only from an input whose VC spins, is
    // armed and bound for o, into the downstream VC its arm notice named;
    // nothing else leaves that way
    fv_spin_ok = 1'b1;
    fv_s       = '0;
    fv_sv      = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      fv_s  = spin_src_o[o*PortW +: PortW];   // the input, and its VC
      fv_sv = 32'(fv_s) < NumPorts ? spin_vc_o[32'(fv_s)*2 +: 2] : 2'd0;
      if (out_busy_o[o]) begin
        if (!(fv_sout_used[o] && 32'(fv_s) >= NumNics && 32'(fv_s) < NumPorts)) fv_spin_ok = 1'b0;
        else if (!(spinning_q[32'(fv_s)*MaxVcs + 32'(fv_sv)] &&
                   armed_q[32'(fv_s)*MaxVcs + 32'(fv_sv)] &&
                   32'(op_i[(32'(fv_s)*MaxVcs + 32'(fv_sv))*PortW +: PortW]) == o &&
                   spin_ovc_o[o*2 +: 2] == spin_ovc_q[(32'(fv_s)*MaxVcs + 32'(fv_sv))*2 +: 2]))
          fv_spin_ok = 1'b0;
      end else if (fv_sout_used[o]) fv_spin_ok = 1'b0;
    end
  end

  always_comb begin
    if (rst_ni && en_i) begin
      StateLegal_A: assert (state_q <= spin_pkg::StFrozen);
      OffIdle_A: assert (state_q != spin_pkg::StOff || (cnt_q == '0 && frozen_q == '0));
      CntInRange_A: assert (cnt_q <= fv_cnt_max);
      // the loop buffer holds a loop (C > 0) exactly in the router's own
      // recovery and in FROZEN, and never a C its messages cannot carry
      LoopHeld_A: assert ((loop_cyc_q != '0) == (fv_sender || state_q == spin_pkg::StFrozen));
      LoopInRange_A: assert (32'(loop_cyc_q) <= SmCycMax);
      // the router's own loop leaves by a network output
      LoopPortInRange_A: assert (!fv_sender || (32'(loop_port0_q) >= NumNics &&
                                                32'(loop_port0_q) < NumPorts));
      LoopOutInRange_A: assert (fv_lo_ok);
      // with several VCs, the loop's fork entries are read from fk0 on: fk0
      // is at most K, the entries the message holds
      LoopFkInRange_A: assert (NumVcs == 1 || 32'(loop_fk0_q) <= SmK);
      DeadlockState_A: assert ((!is_deadlock_q || state_q == spin_pkg::StForwardProgress ||
                                state_q == spin_pkg::StProbeMove || state_q == spin_pkg::StKillMove ||
                                state_q == spin_pkg::StFrozen) &&
                               (is_deadlock_q || !(state_q == spin_pkg::StForwardProgress ||
                                                   state_q == spin_pkg::StProbeMove ||
                                                   state_q == spin_pkg::StFrozen)));
      SourceId_A: assert (!((state_q == spin_pkg::StForwardProgress ||
                             state_q == spin_pkg::StProbeMove) && source_id_q != id_i) &&
                          !(state_q == spin_pkg::StFrozen && source_id_q == id_i));
      FrozenInRecovery_A: assert (fv_thawable == '0 || is_deadlock_q ||
                                  state_q == spin_pkg::StMove || state_q == spin_pkg::StKillMove);
      ArmedFrozen_A: assert ((armed_q & ~frozen_q) == '0);
      SpinningArmed_A: assert ((spinning_q & ~(frozen_q & armed_q)) == '0);
      FrozenRecord_A: assert (fv_record_ok);
      FrozenNetOut_A: assert (fv_net_out_ok);
      FrozenOnePerPort_A: assert (fv_in_twice == '0 && fv_out_twice == '0);
      SpinOnePerPort_A: assert (fv_sin_twice == '0 && fv_sout_twice == '0);
      SpinFlitArmed_A: assert (fv_spin_ok);
      WatchInRange_A: assert (32'(dd_port_q) < NumPorts && 32'(dd_vc_q) < NumVcs);
    end
    if (rst_ni) begin
      EpochInRange_A: assert (ep_q < {tdd_i, 2'b00} && {1'b0, top_q} < nodes_i);
    end
  end

  // what must stay possible under the environment's assumptions: the
  // sender's recovery up to its spin and its probe_move, a VC spinning, a
  // recovery of another router's loop up to its spin, a loop adopted
  always_comb begin
    if (rst_ni && en_i) begin
      SenderSpins_C: cover (state_q == spin_pkg::StProbeMove && spinning_q != '0);
      ProbeMoveSent_C: cover (state_q == spin_pkg::StProbeMove && pm_sent_q);
      FrozenSpins_C: cover (state_q == spin_pkg::StFrozen && pm_sent_q && spinning_q != '0);
      KillMove_C: cover (state_q == spin_pkg::StKillMove && is_deadlock_q);
      Adopted_C: cover (adopt_i);
    end
  end
`endif
