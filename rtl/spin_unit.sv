// spin_unit: SPIN of one router, wired together (docs/microarchitecture.md,
// section 12): the counter FSM (spin_fsm, with the loop buffer), the chain
// of move managers (spin_move_mgr: probe_moves by port, then moves and
// kill_moves by port), one probe manager per network input
// (spin_probe_mgr), and one special-message arbiter per output
// (spin_sm_arb).  C twin: cmodel/spin_unit.c (spin_unit_pre, spin_unit_post
// and the functions they call).
//
// It sees the router's input VCs (views, index p*MaxVcs + v) and the links
// of this cycle, and tells the router which VCs are frozen, which input
// sends which spin flit to which output, which output carries which special
// message, and which arm notices go upstream.
`default_nettype none

module spin_unit #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumVcs   = 1,
  localparam int unsigned OfferW  = spin_pkg::KindW + spin_pkg::SmW,
  localparam int unsigned MaxPv   = spin_pkg::MaxPv,
  localparam int unsigned ObsW    = spin_pkg::ObsRouterW +
                                    (NumPorts - 1) * (spin_pkg::ObsPortW + NumVcs * spin_pkg::ObsVcW)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         en_i,
  input  logic                         adopt_en_i,    // probe adoption (12.3)
  input  logic [spin_pkg::IdW-1:0]     id_i,
  input  logic [spin_pkg::IdW:0]       nodes_i,
  input  logic [spin_pkg::CntW-1:0]    tdd_i,
  input  logic                         nmin_i,        // FAvORS-NMin (the spin bound, 4.3)
  input  logic [NumPorts*spin_pkg::XlatW-1:0] xlat_i, // per output: its link's latency - 1
  input  logic [MaxPv-1:0]             cnt_nz_i,
  input  logic [MaxPv-1:0]             rv_i,
  input  logic [3*MaxPv-1:0]           op_i,
  input  logic [MaxPv-1:0]             whole_i,
  input  logic [MaxPv-1:0]             tail_i,
  input  logic [NumPorts*spin_pkg::KindW-1:0] in_kind_i,
  input  logic [NumPorts*spin_pkg::SmW-1:0]   in_data_i,
  input  logic [NumPorts-1:0]          arm_in_i,
  input  logic [NumPorts*2-1:0]        arm_in_vc_i,
  input  logic [MaxPv-1:0]             popped_i,
  input  logic [MaxPv-1:0]             cnt_next_nz_i,
  output logic [MaxPv-1:0]             frozen_o,      // after this cycle's messages
  output logic [MaxPv-1:0]             frozen_q_o,    // at the start of the cycle
  output logic [NumPorts-1:0]          in_busy_o,
  output logic [NumPorts*2-1:0]        spin_vc_o,
  output logic [NumPorts-1:0]          out_busy_o,
  output logic [NumPorts*3-1:0]        spin_src_o,
  output logic [NumPorts*2-1:0]        spin_ovc_o,
  output logic [NumPorts-1:0]          sm_valid_o,
  output logic [NumPorts*OfferW-1:0]   sm_o,          // per output: {kind, data}
  output logic [NumPorts-1:0]          arm_o,
  output logic [NumPorts*2-1:0]        arm_vc_o,
  output logic [ObsW-1:0]              obs_o          // the SPIN registers (spin_pkg)
);
  localparam int unsigned Links = NumPorts - 1;

  spin_pkg::spin_mut_t          st_pre, st_moved;
  // the state between move managers: entry k at [k*MutW +: MutW] (a packed
  // vector: Yosys 0.23 does not keep arrays of structs)
  localparam int unsigned MutW = spin_pkg::MutW;
  logic [(2*Links+1)*MutW-1:0]  st_chain;
  logic [MaxPv-1:0]             spinning;
  // adoption: per input port, then the lowest one
  logic [NumPorts-1:0]          pr_adopt, pr_kill;
  logic [NumPorts*2-1:0]        pr_adopt_vc;
  logic [NumPorts*6-1:0]        pr_adopt_start, pr_adopt_cyc;
  logic [NumPorts*3-1:0]        pr_adopt_port0;
  logic                         adopt;
  logic [2:0]                   adopt_port, adopt_port0;
  logic [1:0]                   adopt_vc;
  logic [5:0]                   adopt_start, adopt_cyc;
  logic [spin_pkg::IdW-1:0]     top;
  logic [1:0]                   fsm_valid;
  logic [5:0]                   fsm_port;
  logic [2*OfferW-1:0]          fsm_offer;
  // the observation word: the router's record, the ports', the VCs'
  spin_pkg::obs_router_t                           obs_router;
  logic [(NumPorts-1)*spin_pkg::ObsPortW-1:0]        obs_port;
  logic [(NumPorts-1)*NumVcs*spin_pkg::ObsVcW-1:0]   obs_vc;
  assign obs_o = {obs_vc, obs_port, obs_router};

  spin_fsm #(.NumPorts(NumPorts), .NumVcs(NumVcs)) u_fsm (
    .clk_i, .rst_ni, .en_i, .id_i, .nodes_i, .tdd_i, .nmin_i,
    .cnt_nz_i, .rv_i, .op_i, .whole_i, .tail_i,
    .in_kind_i, .in_data_i, .arm_in_i, .arm_in_vc_i,
    .frozen_q_o   (frozen_q_o),
    .st_pre_o     (st_pre),
    .st_moved_i   (st_moved),
    .adopt_i      (adopt),
    .adopt_port_i (adopt_port),
    .adopt_vc_i   (adopt_vc),
    .adopt_start_i(adopt_start),
    .adopt_cyc_i  (adopt_cyc),
    .adopt_port0_i(adopt_port0),
    .spinning_o   (spinning),
    .top_o        (top),
    .offer_valid_o(fsm_valid),
    .offer_port_o (fsm_port),
    .offer_o      (fsm_offer),
    .in_busy_o, .spin_vc_o, .out_busy_o, .spin_src_o, .spin_ovc_o,
    .arm_o, .arm_vc_o,
    .popped_i, .cnt_next_nz_i,
    .obs_o        (obs_router),
    .obs_vc_o     (obs_vc)
  );

  // ---- move managers: chain k = 0..Links-1 probe_moves, Links.. moves ----
  logic [2*Links-1:0]        mv_valid;
  logic [2*Links*3-1:0]      mv_port;
  logic [2*Links*OfferW-1:0] mv_offer;   // the same word at both classes of a port
  logic                      unused_mv_offer;
  assign unused_mv_offer = ^mv_offer[0 +: Links*OfferW];   // the probe_move instances'

  // What each manager tests of the state (spin_move_flags: ok, blk), computed
  // once from the FSM's state and updated after each manager by its decision
  // (take: FROZEN for its sender, its input and output in use; release: free,
  // only the spinning VCs frozen; hold, the router's own taken: its input and
  // output in use): entry k, before manager k, at [k*Slots +: Slots].
  localparam int unsigned Slots = 2 * Links;
  logic [(Slots+1)*Slots-1:0]   ok_chain /*verilator split_var*/;
  logic [(Slots+1)*Slots-1:0]   blk_chain /*verilator split_var*/;
  logic [Slots-1:0]             sl_take, sl_rel, sl_may, sl_own, sl_kill;
  logic [Slots-1:0]             unused_hold;   // a hold's effect is read from may and the bits
  logic [Slots*3-1:0]           sl_o;
  logic [Slots-1:0]             blk_spin;   // blk after a release
  logic [Links*spin_pkg::IdW-1:0] snd;      // [(p-1)*IdW]: the sender field on link p
  logic [Links-1:0]             own;        // link p+1's message is this router's
  logic [Links*Links-1:0]       same_snd;   // [p*Links + q]: links p+1, q+1 same sender
  for (genvar p = 0; p < Links; p++) begin : gen_snd
    assign snd[p*spin_pkg::IdW +: spin_pkg::IdW] =
        in_data_i[(p+1)*spin_pkg::SmW + spin_pkg::SmSenderLsb +: spin_pkg::IdW];
    assign own[p] = snd[p*spin_pkg::IdW +: spin_pkg::IdW] == id_i;
    for (genvar q = 0; q < Links; q++) begin : gen_same
      assign same_snd[p*Links + q] = snd[p*spin_pkg::IdW +: spin_pkg::IdW] ==
                                     snd[q*spin_pkg::IdW +: spin_pkg::IdW];
    end
  end
  for (genvar k = 0; k < Slots; k++) begin : gen_slot
    assign sl_own[k]  = own[k % Links];
    assign sl_kill[k] = in_kind_i[(1 + k % Links)*spin_pkg::KindW +: spin_pkg::KindW] ==
                        spin_pkg::KindKillMove;
    assign sl_o[k*3 +: 3] = mv_port[k*3 +: 3];
  end
  spin_move_flags #(.NumPorts(NumPorts), .NumVcs(NumVcs)) u_flags (
    .st_i(st_pre), .snd_i(snd), .own_i(sl_own), .kill_i(sl_kill), .o_i(sl_o), .op_i,
    .ok_o(ok_chain[0 +: Slots]), .blk_o(blk_chain[0 +: Slots])
  );
  spin_pkg::spin_mut_t st_spin;
  logic [Slots-1:0]    unused_spin_ok;
  always_comb begin
    st_spin        = st_pre;
    st_spin.frozen = st_pre.frozen & spinning;
  end
  spin_move_flags #(.NumPorts(NumPorts), .NumVcs(NumVcs)) u_flags_spin (
    .st_i(st_spin), .snd_i(snd), .own_i(sl_own), .kill_i(sl_kill), .o_i(sl_o), .op_i,
    .ok_o(unused_spin_ok), .blk_o(blk_spin)
  );

  assign st_chain[0 +: MutW] = st_pre;
  for (genvar k = 0; k < Slots; k++) begin : gen_move
    localparam int unsigned P = 1 + k % Links;
    spin_move_mgr #(
      .NumPorts(NumPorts), .NumVcs(NumVcs), .Port(P), .Rank(k < Links ? 3 : 2)
    ) u_move (
      .st_i         (st_chain[k*MutW +: MutW]),
      .ok_i         (ok_chain[k*Slots + k]),
      .blk_i        (blk_chain[k*Slots + k]),
      .own_i        (own[P-1]),
      .tdd_i,
      .kind_i       (in_kind_i[P*spin_pkg::KindW +: spin_pkg::KindW]),
      .data_i       (in_data_i[P*spin_pkg::SmW +: spin_pkg::SmW]),
      .cnt_nz_i, .rv_i, .whole_i, .op_i,
      .spinning_i   (spinning),
      .st_o         (st_chain[(k+1)*MutW +: MutW]),
      .take_o       (sl_take[k]),
      .hold_o       (unused_hold[k]),
      .rel_o        (sl_rel[k]),
      .may_o        (sl_may[k]),
      .offer_valid_o(mv_valid[k]),
      .offer_port_o (mv_port[k*3 +: 3]),
      .offer_o      (mv_offer[k*OfferW +: OfferW])
    );
    // the later managers' bits after this one's decision
    for (genvar j = 0; j < Slots; j++) begin : gen_next
      assign ok_chain[(k+1)*Slots + j] =
          sl_take[k] ? !sl_own[j] && same_snd[(k % Links)*Links + j % Links]
                     : (sl_rel[k] ? !sl_own[j] && !sl_kill[j] : ok_chain[k*Slots + j]);
      // a take or hold (sl_may: a move or probe_move with a VC to freeze,
      // whatever the state; the state's two bits ready) uses its input and
      // output: written from the bits, not from the decision, which waits
      // for them too
      assign blk_chain[(k+1)*Slots + j] =
          sl_rel[k] ? blk_spin[j]
                    : blk_chain[k*Slots + j] ||
                      (ok_chain[k*Slots + k] && !blk_chain[k*Slots + k] && sl_may[k] &&
                       (k % Links == j % Links || sl_o[k*3 +: 3] == sl_o[j*3 +: 3]));
    end
  end
`ifndef SYNTHESIS
  // The carried bits are those of the state each manager after the first
  // sees, and of the state after the last (spin_move_flags' rule, written
  // again here as a check).  Checked in the cycles that bring a move,
  // probe_move or kill_move: in the others no manager acts and every entry
  // is the first, which spin_move_flags computes from that very state.
  logic any_mv;
  // copies read by a variable index (ok_chain and blk_chain are split per bit,
  // which a variable index would prevent)
  logic [(Slots+1)*Slots-1:0] a_ok_chain, a_blk_chain;
  assign a_ok_chain  = ok_chain;
  assign a_blk_chain = blk_chain;
  always_comb begin
    any_mv = 1'b0;
    for (int unsigned p = 1; p < NumPorts; p++)
      if (in_kind_i[p*spin_pkg::KindW +: spin_pkg::KindW] >= spin_pkg::KindMove &&
          in_kind_i[p*spin_pkg::KindW +: spin_pkg::KindW] <= spin_pkg::KindKillMove)
        any_mv = 1'b1;
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && en_i && any_mv) begin
      for (int unsigned k = 1; k <= Slots; k++) begin : chk_k
        // (the check reads the recovery fields and the frozen VCs)
        /* verilator lint_off UNUSEDSIGNAL */
        automatic spin_pkg::spin_mut_t a_st = st_chain[k*MutW +: MutW];
        /* verilator lint_on UNUSEDSIGNAL */
        automatic logic [Slots-1:0] a_ok = '0, a_blk = '0;
        for (int unsigned j = 0; j < Slots; j++) begin
          automatic int unsigned l = j % Links;
          automatic logic [2:0] o = sl_o[j*3 +: 3];
          automatic logic mine = a_st.is_deadlock &&
                                 a_st.source_id == snd[l*spin_pkg::IdW +: spin_pkg::IdW];
          if (sl_kill[j])     a_ok[j] = sl_own[j] ? a_st.state == spin_pkg::StKillMove : mine;
          else if (sl_own[j]) a_ok[j] = j < Links ? a_st.state == spin_pkg::StProbeMove &&
                                                     a_st.pm_sent
                                                   : a_st.state == spin_pkg::StMove;
          else a_ok[j] = ((a_st.state == spin_pkg::StOff || a_st.state == spin_pkg::StDd) &&
                          !a_st.is_deadlock) || (a_st.state == spin_pkg::StFrozen && mine);
          for (int unsigned p = 1; p < NumPorts; p++)
            for (int unsigned v = 0; v < NumVcs; v++)
              if (a_st.frozen[p*spin_pkg::MaxVcs + v] &&
                  (p == l + 1 || (o != '0 && op_i[(p*spin_pkg::MaxVcs + v)*3 +: 3] == o)))
                a_blk[j] = 1'b1;
        end
        MoveFlags_A: assert (a_ok_chain[k*Slots +: Slots] == a_ok &&
                             a_blk_chain[k*Slots +: Slots] == a_blk)
          else $error("spin_unit: before move manager %0d: ok %b blk %b, state gives %b %b",
                      k, a_ok_chain[k*Slots +: Slots], a_blk_chain[k*Slots +: Slots], a_ok,
                      a_blk);
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni && en_i) begin
      // a release leaves the spinning VCs alone frozen: blk_spin
      SpinningFrozen_A: assert ((spinning & ~st_pre.frozen) == '0)
        else $error("spin_unit: VCs %b spinning but not frozen", spinning & ~st_pre.frozen);
    end
  end
`endif
  assign st_moved = st_chain[2*Links*MutW +: MutW];
  assign frozen_o = st_moved.frozen;

  // ---- probe managers ----
  logic [NumPorts*NumPorts-1:0] pr_valid;   // [p*NumPorts + o]
  logic [NumPorts*OfferW-1:0]   pr_offer;   // [p*OfferW]: one word, every output
  assign pr_valid[NumPorts-1:0] = '0;
  assign pr_offer[OfferW-1:0] = '0;
  assign pr_adopt[0]          = 1'b0;
  assign pr_adopt_vc[1:0]     = '0;
  assign pr_adopt_start[5:0]  = '0;
  assign pr_adopt_cyc[5:0]    = '0;
  assign pr_adopt_port0[2:0]  = '0;
  // a port after an adopting one drops its probe (the router is in MOVE)
  always_comb begin
    pr_kill = '0;   // bit 0 (the NIC port) has no probe manager
    for (int unsigned p = 1; p < NumPorts; p++)
      for (int unsigned q = 1; q < p; q++)
        if (pr_adopt[q]) pr_kill[p] = 1'b1;
  end
  for (genvar p = 1; p < NumPorts; p++) begin : gen_probe
    spin_probe_mgr #(.NumPorts(NumPorts), .NumVcs(NumVcs), .Port(p)) u_probe (
      .clk_i, .rst_ni,
      .st_i         (st_moved),
      .id_i,
      .top_i        (top),
      .adopt_en_i   (adopt_en_i),
      .kill_i       (pr_kill[p]),
      .kind_i       (in_kind_i[p*spin_pkg::KindW +: spin_pkg::KindW]),
      .data_i       (in_data_i[p*spin_pkg::SmW +: spin_pkg::SmW]),
      .cnt_nz_i, .rv_i, .op_i,
      .offer_valid_o(pr_valid[p*NumPorts +: NumPorts]),
      .offer_o      (pr_offer[p*OfferW +: OfferW]),
      .adopt_o      (pr_adopt[p]),
      .adopt_vc_o   (pr_adopt_vc[p*2 +: 2]),
      .adopt_start_o(pr_adopt_start[p*6 +: 6]),
      .adopt_cyc_o  (pr_adopt_cyc[p*6 +: 6]),
      .adopt_port0_o(pr_adopt_port0[p*3 +: 3]),
      .obs_o        (obs_port[(p-1)*spin_pkg::ObsPortW +: spin_pkg::ObsPortW])
    );
  end
  // the lowest adopting port: its probe's loop goes to the FSM, and a move
  // round it goes out as the FSM's second offer (never used by the FSM in
  // the same cycle: its own probe back leaves it in MOVE, which no port
  // then adopts in)
  always_comb begin
    adopt       = 1'b0;
    adopt_port  = '0;
    adopt_vc    = '0;
    adopt_start = '0;
    adopt_cyc   = '0;
    adopt_port0 = '0;
    for (int unsigned p = 1; p < NumPorts; p++)
      if (!adopt && pr_adopt[p]) begin
        adopt       = 1'b1;
        adopt_port  = 3'(p);
        adopt_vc    = pr_adopt_vc[p*2 +: 2];
        adopt_start = pr_adopt_start[p*6 +: 6];
        adopt_cyc   = pr_adopt_cyc[p*6 +: 6];
        adopt_port0 = pr_adopt_port0[p*3 +: 3];
      end
  end

  // ---- the offers: one word per source, the same for every output ----
  // Source 0 and 1: the FSM's two offers; source 1+p: input port p, whose
  // message is a probe or a move-class message, never both.  A port's word
  // depends on its message alone (the probe manager's or the move manager's
  // forwarded copy, chosen by the kind), not on whether it goes on: that is
  // offered[], below.  Each source's class and sender priority are computed
  // here once, for all outputs.
  localparam int unsigned NumOffers = NumPorts + 1;
  localparam int unsigned PrioW = spin_pkg::IdW + 1;
  logic [NumOffers*OfferW-1:0] word;
  logic [NumOffers*2-1:0]      rank;
  logic [NumOffers*PrioW-1:0]  prio;
  always_comb begin
    word[0 +: 2*OfferW] = fsm_offer;   // offer B: the move round a loop taken or adopted
    for (int unsigned p = 1; p < NumPorts; p++) begin
      word[(1+p)*OfferW +: OfferW] =
          in_kind_i[p*spin_pkg::KindW +: spin_pkg::KindW] == spin_pkg::KindProbe
              ? pr_offer[p*OfferW +: OfferW] : mv_offer[(Links + p - 1)*OfferW +: OfferW];
    end
    for (int unsigned k = 0; k < NumOffers; k++) begin
      rank[k*2 +: 2] = spin_pkg::sm_rank(word[k*OfferW + spin_pkg::SmW +: spin_pkg::KindW]);
      prio[k*PrioW +: PrioW] = spin_pkg::sm_prio_key(word[k*OfferW +: spin_pkg::IdW], top);
    end
  end

  // ---- per output: which sources offer to it, then the arbiter ----
  // offered[o*NumOffers + k]: source k offers its message to output o.
  logic [NumPorts*NumOffers-1:0] offered;
  always_comb begin
    offered = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int unsigned a = 0; a < 2; a++)
        offered[o*NumOffers + a] = fsm_valid[a] && fsm_port[a*3 +: 3] == 3'(o);
      // the lowest adopting port's move round its loop (adopt, adopt_port0,
      // without waiting for the choice of that port)
      for (int unsigned p = 1; p < NumPorts; p++)
        if (pr_adopt[p] && !pr_kill[p] && pr_adopt_port0[p*3 +: 3] == 3'(o))
          offered[o*NumOffers + 1] = 1'b1;
      for (int unsigned p = 1; p < NumPorts; p++) begin
        offered[o*NumOffers + 1 + p] = pr_valid[p*NumPorts + o];
        for (int unsigned r = 0; r < 2; r++)
          if (mv_valid[r*Links + p - 1] && mv_port[(r*Links + p - 1)*3 +: 3] == 3'(o))
            offered[o*NumOffers + 1 + p] = 1'b1;
      end
    end
  end
  // No special message goes to the ejection port: the FSM, the move managers
  // and the probe managers name network outputs only (path entries and
  // routes of 1..NumPorts-1; a message with none is dropped), so output 0
  // has no arbiter (SmNotEject_A checks what is offered to it).
  assign sm_valid_o[0]     = 1'b0;
  assign sm_o[0 +: OfferW] = '0;
  logic unused_xlat0;                 // the ejection port's link latency: no SM
  assign unused_xlat0 = ^xlat_i[0 +: spin_pkg::XlatW];
`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && en_i) begin
      SmNotEject_A: assert (offered[0 +: NumOffers] == '0)
        else $error("spin_unit: special messages offered to the ejection port: %b",
                    offered[0 +: NumOffers]);
    end
  end
`endif
  for (genvar o = 1; o < NumPorts; o++) begin : gen_arb
    logic [NumOffers-1:0] valid;
    assign valid = offered[o*NumOffers +: NumOffers];
    spin_sm_arb #(.NumPorts(NumPorts), .Out(o)) u_arb (
      .busy_i (out_busy_o[o]),
      .xlat_i (xlat_i[o*spin_pkg::XlatW +: spin_pkg::XlatW]),
      .valid_i(valid),
      .rank_i (rank),
      .prio_i (prio),
      .offer_i(word),
      .valid_o(sm_valid_o[o]),
      .offer_o(sm_o[o*OfferW +: OfferW])
    );
`ifndef SYNTHESIS
    // The arbiter's one winner is an offer of the best class and, within
    // it, of the best sender priority (12.1); an output carrying a spin
    // flit takes none, any other takes one when offered; none goes to the
    // ejection port.
    logic [1:0]       a_rank, a_best_rank;
    logic [PrioW-1:0] a_prio, a_best_prio;
    logic             a_offered;
    always_comb begin
      a_rank      = spin_pkg::sm_rank(sm_o[o*OfferW + spin_pkg::SmW +: spin_pkg::KindW]);
      a_prio      = spin_pkg::sm_prio(sm_o[o*OfferW +: spin_pkg::IdW], top, nodes_i);
      a_best_rank = '0;
      a_best_prio = '0;
      a_offered   = 1'b0;
      for (int unsigned k = 0; k < NumOffers; k++)
        if (valid[k]) begin
          a_offered = 1'b1;
          if (rank[k*2 +: 2] > a_best_rank) begin
            a_best_rank = rank[k*2 +: 2];
            a_best_prio = spin_pkg::sm_prio(word[k*OfferW +: spin_pkg::IdW], top, nodes_i);
          end else if (rank[k*2 +: 2] == a_best_rank &&
                       spin_pkg::sm_prio(word[k*OfferW +: spin_pkg::IdW], top, nodes_i) >
                       a_best_prio) begin
            a_best_prio = spin_pkg::sm_prio(word[k*OfferW +: spin_pkg::IdW], top, nodes_i);
          end
        end
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni && en_i) begin
        SmNoneOnSpin_A: assert (!(out_busy_o[o] && sm_valid_o[o]))
          else $error("spin_unit: output %0d carries a spin flit and a special message", o);
        SmWhenOffered_A: assert (sm_valid_o[o] == (a_offered && !out_busy_o[o]))
          else $error("spin_unit: output %0d offered %b, sends %0d", o, valid, sm_valid_o[o]);
        SmBest_A: assert (!sm_valid_o[o] || (a_rank == a_best_rank && a_prio == a_best_prio))
          else $error("spin_unit: output %0d sends class %0d priority %0d, best offered %0d %0d",
                      o, a_rank, a_prio, a_best_rank, a_best_prio);
      end
    end
`endif
  end
`ifndef SYNTHESIS
  if ($bits(spin_pkg::spin_mut_t) != spin_pkg::MutW) begin : gen_check_mutw
    $error("spin_unit: spin_pkg::MutW does not match spin_mut_t");
  end
  if ($bits(spin_pkg::obs_router_t) != spin_pkg::ObsRouterW ||
      $bits(spin_pkg::obs_port_t) != spin_pkg::ObsPortW ||
      $bits(spin_pkg::obs_vc_t) != spin_pkg::ObsVcW) begin : gen_check_obsw
    $error("spin_unit: spin_pkg::Obs*W do not match the obs_*_t records");
  end
`endif
endmodule

`default_nettype wire
