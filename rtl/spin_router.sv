// spin_router: input-buffered virtual cut-through router, one cycle from
// input buffer to output register.  Contract: docs/microarchitecture.md;
// C twin: router_eval() in cmodel/router.c.
//
// Ports 0..NumNics-1 are NICs (concentration); ports NumNics..NumPorts-1
// are network links.  Every output is a register: flit_o (link word) and
// credit_o (credit word) of port p are the link registers that the
// neighbour on port p reads in the next cycle.
// Parameters:
//   NumPorts  2..16 ports, NICs included (spin_pkg::MaxPorts: the C model's
//             16-bit port masks; a port number is clog2(NumPorts) bits)
//   NumNics   1..NumPorts-1 NIC ports, each an ejection and an injection
//             port (contract section 1)
//   NumVcs    1..4 virtual channels per input port
//   BufDepth  flits per VC, at least the longest packet (5), at most 7
//   FlitW     data bits per flit, at least 16 (the head's dst field); with
//             SPIN at least 128 (a special message's data word)
//   Spin      1: SPIN deadlock recovery built in (spin_unit), switched on at
//             run time by cfg_spin_i; 0: none built (cfg_spin_* ignored)
//   Nmin      1: FAvORS-NMin built in (section 4.3; FlitW >= 90), switched
//             on at run time by cfg_nmin_i with cfg_favors_i: NIC port k
//             looks up its head's intermediate router on rt_mid_o and
//             rt_mid_mask_i (slice k);
//             0: none built (rt_mid_o is 0)
//   Escape    1: escape-VC routing built in (section 4.1), switched on at
//             run time by cfg_escape_i; each route-table answer is then
//             {mask_e, mask_a}, 2*NumPorts bits; 0: none built
//   IdW, CycW SPIN: the special messages' widths of router id and cycle
//             count, sized to the network (12.1, 12.9: spingen
//             --sm-widths); networks of up to 2^IdW routers, loops of up to
//             (2^CycW - 3) / 2 cycles
//   TddW      SPIN: bits of t_DD (cfg_tdd_i), 2..2^TddW - 1
//   SmPipe    SPIN: 0, 1 or 2 registers on the special-message path (12.1);
//             3 builds all three, chosen at run time by cfg_sm_pipe_i
//   EarlyCredit 1: early credits built in (section 5: a downstream VC is
//             free in the cycle its credit arrives), switched on at run time
//             by cfg_early_credit_i; 0: none built (the VC is free from the
//             next cycle, cfg_early_credit_i ignored)
// spin_obs_o (Spin = 1): the SPIN registers of section 12 as they are, for
// the co-simulation (layout in spin_pkg, "observation word"; 1 bit, 0, with
// Spin = 0).  It only wires registers out: no logic, no area.
// The route table sits outside the router (spin_route_table): each input
// port p shows the destination it is routing on rt_dst_o[p] and reads the
// allowed output ports on rt_mask_i[p] in the same cycle (bit 0 = eject).
// So one router serves networks of any size and shape.
// SPIN (docs/microarchitecture.md, section 12): a spinning VC's flit and a
// special message go out ahead of the switch allocator's flits; an output
// carrying either takes no allocated flit this cycle, and arm notices ride
// on the credit registers.
`default_nettype none

module spin_router #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumNics  = 1,
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned BufDepth = 5,
  parameter int unsigned FlitW    = 64,
  parameter int unsigned Spin     = 0,
  parameter int unsigned Escape   = 0,
  parameter int unsigned Nmin     = 0,
  parameter int unsigned IdW      = 6,
  parameter int unsigned CycW     = 11,
  parameter int unsigned TddW     = 8,
  parameter int unsigned SmPipe   = 2,
  parameter int unsigned EarlyCredit = 0,
  parameter int unsigned XlatW    = 4,    // bits of a link's latency - 1: links of 1..2^XlatW cycles
  localparam int unsigned MaskW   = Escape == 1 ? 2 * NumPorts : NumPorts,
  localparam int unsigned LinkW   = FlitW + spin_pkg::CtlW,
  localparam int unsigned CredW   = spin_pkg::CredW,
  localparam int unsigned OccW    = spin_pkg::OccW,
  localparam int unsigned PortW   = $clog2(NumPorts),
  localparam int unsigned ObsW    = Spin == 1 ? spin_pkg::obs_width(NumPorts, NumVcs, FlitW, IdW,
                                                                    CycW, TddW) : 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [31:0]                   lfsr_seed_i,
  input  logic                          cfg_favors_i,   // 1: FAvORS-Min output selection
  input  logic                          cfg_escape_i,   // 1: escape-VC routing (needs Escape)
  input  logic                          cfg_nmin_i,     // 1: FAvORS-NMin (needs Nmin)
  input  logic                          cfg_spin_i,     // 1: SPIN on (needs Spin)
  input  logic                          cfg_admit_i,    // 1: injection admission (6); may change each cycle
  input  logic [1:0]                    cfg_admit_occ_i, // occupancy admission (section 6; may change each cycle):
                                                         // 0 off, 1 at most one busy input, 2 (3) none
  input  logic                          cfg_reroute_i,  // 1: waiting heads route again (4.2)
  input  logic                          cfg_adopt_i,    // 1: SPIN probe adoption (12.3)
  input  logic                          cfg_early_credit_i, // 1: early credits (section 5; needs EarlyCredit)
  input  logic [TddW-1:0]               cfg_tdd_i,      // SPIN detection threshold
  input  logic [spin_pkg::PipeW-1:0]   cfg_sm_pipe_i,  // SmPipe = 3: 0, 1 or 2 at run time
  input  logic [IdW-1:0]                cfg_id_i,       // this router's id
  input  logic [IdW:0]                  cfg_nodes_i,    // routers in the network
  input  logic [NumPorts*XlatW-1:0] cfg_xlat_i, // per output: its link's latency - 1 (SPIN)
  output logic [NumPorts*spin_pkg::DstW-1:0] rt_dst_o,
  input  logic [NumPorts*MaskW-1:0]     rt_mask_i,
  output logic [NumNics*spin_pkg::DstW-1:0] rt_mid_o,   // NMin: each NIC port's intermediate router
  input  logic [NumNics*NumPorts-1:0]   rt_mid_mask_i,  // their allowed output ports
  input  logic [NumPorts*LinkW-1:0]     flit_i,
  input  logic [NumPorts*CredW-1:0]     credit_i,
  output logic [NumPorts*LinkW-1:0]     flit_o,
  output logic [NumPorts*CredW-1:0]     credit_o,
  output logic [NumPorts*NumVcs*OccW-1:0] occ_o,
  output logic [ObsW-1:0]               spin_obs_o
);
  // ---- parameter checks ----
  if (NumPorts < 2 || NumPorts > spin_pkg::MaxPorts) begin : gen_check_ports
    $error("spin_router: NumPorts must be 2..16 (spin_pkg::MaxPorts)");
  end
  if (NumNics < 1 || NumNics >= NumPorts) begin : gen_check_nics
    $error("spin_router: NumNics must be 1..NumPorts-1");
  end
  if (NumVcs < 1 || NumVcs > 4) begin : gen_check_vcs
    $error("spin_router: NumVcs must be 1..4 (the link VC field is 2 bits)");
  end
  if (BufDepth < spin_pkg::MaxPktLen || BufDepth > 7) begin : gen_check_depth
    $error("spin_router: BufDepth must hold the longest packet (5) and be at most 7");
  end
  if (FlitW < spin_pkg::DstW) begin : gen_check_flitw
    $error("spin_router: FlitW must be at least 16 bits (head dst field)");
  end
  if (Spin > 1) begin : gen_check_spin
    $error("spin_router: Spin must be 0 or 1");
  end
  if (Escape > 1) begin : gen_check_escape
    $error("spin_router: Escape must be 0 or 1");
  end
  if (Nmin > 1) begin : gen_check_nmin
    $error("spin_router: Nmin must be 0 or 1");
  end
  if (Nmin == 1 && FlitW < 90) begin : gen_check_nmin_flitw
    $error("spin_router: with Nmin = 1, FlitW must be at least 90 (the route header, bits 89:64)");
  end
  if (Spin == 1 && FlitW < IdW + 2 * CycW + (NumVcs > 1 ? 7 : 0)) begin : gen_check_spin_flitw
    $error("spin_router: with Spin = 1, FlitW must hold a special message's fields (IdW + 2 CycW, with several VCs a fork entry, 12.1)");
  end
  if (Spin == 1 && (IdW < 1 || IdW > 16 || CycW < 6 || CycW > 28 ||
                    TddW < 2 || TddW > 16)) begin : gen_check_spin_widths
    $error("spin_router: SPIN widths out of range (IdW 1..16, CycW 6..28, TddW 2..16)");
  end
  if (XlatW < 1 || XlatW > spin_pkg::MaxXlatW) begin : gen_check_xlat
    $error("spin_router: XlatW must be 1..10 (links of at most 1,024 cycles, spin_pkg::MaxXlatW)");
  end
  if (Spin == 1 && CycW < XlatW + 2) begin : gen_check_xlat_cyc
    $error("spin_router: with Spin = 1, CycW must be at least XlatW + 2 (a hop's cycles, 12.1)");
  end
  if (Spin == 1 && SmPipe > 3) begin : gen_check_sm_pipe
    $error("spin_router: SmPipe must be 0, 1, 2 or 3");
  end
  if (EarlyCredit > 1) begin : gen_check_early_credit
    $error("spin_router: EarlyCredit must be 0 or 1");
  end

  // ---- LFSR ----
  logic [31:0]         lfsr;
  logic [NumPorts-1:0] drew;
  spin_lfsr u_lfsr (
    .clk_i, .rst_ni,
    .seed_i (lfsr_seed_i),
    .step_i (drew != '0),
    .state_o(lfsr)
  );

  // ---- output VC state ----
  logic [NumPorts-1:0]               port_free;
  logic [NumPorts*spin_pkg::VcW-1:0] first_free;
  logic [NumPorts-1:0]               alloc, tail_out;
  logic [NumPorts*spin_pkg::VcW-1:0] ovc;
  logic [NumPorts*8-1:0]             port_age;
  logic [NumPorts*spin_pkg::VcW-1:0] first_free_a;
  logic [NumPorts-1:0]               free_a, free0;
  logic [NumPorts*NumVcs-1:0]        ovc_free;

  // ---- input ports ----
  logic [NumPorts-1:0]               req, gnt;
  logic [NumPorts*PortW-1:0]         req_port;
  logic [NumPorts*spin_pkg::VcW-1:0] req_ovc;
  logic [NumPorts-1:0]               req_esc;
  logic [NumPorts*spin_pkg::VcW-1:0] head_vc;   // downstream VC a head of input p would get
  logic [NumPorts*LinkW-1:0]         req_flit;
  logic [NumPorts*CredW-1:0]         credit_d;
  logic [NumPorts-1:0]               win_valid;
  logic [NumPorts*PortW-1:0]         win;

  // ---- SPIN: views of the input VCs and the unit's decisions ----
  localparam int unsigned NumPv  = NumPorts * spin_pkg::MaxVcs;   // view entries p*MaxVcs + v
  logic [NumPv-1:0]           v_cnt_nz, v_rv, v_whole, v_tail, v_popped, frozen;
  logic [NumPv-1:0]           frozen_q;   // frozen at the start of the cycle
  logic [NumPv-1:0]           frozen_req; // skipped by switch allocation
  logic [NumPorts-1:0]        hold;       // inputs held from switch allocation (SPIN, 12.2)
  // Injection admission (section 6): every network output has a free
  // downstream VC (an unconnected output never gets busy); occupancy
  // admission: at most one (level 1) or no (level 2) network input port
  // holds flits.
  logic                       admit;
  logic [NumPorts-1:0]        in_nz;      // network input ports holding flits
  always_comb begin
    in_nz = '0;
    for (int unsigned p = NumNics; p < NumPorts; p++)
      in_nz[p] = v_cnt_nz[p*spin_pkg::MaxVcs +: NumVcs] != '0;
  end
  assign admit = (!cfg_admit_i || port_free[NumPorts-1:NumNics] == '1) &&
                 (cfg_admit_occ_i == 2'd0 ||
                  (cfg_admit_occ_i == 2'd1 ? (in_nz & (in_nz - 1'b1)) == '0 : in_nz == '0));
  logic [PortW*NumPv-1:0] v_op;
  logic [NumPorts-1:0]        in_busy, out_busy, sm_valid, arm;
  logic [NumPorts*spin_pkg::VcW-1:0] spin_vc, spin_ovc, arm_vc;
  logic [NumPorts*PortW-1:0] spin_src;
  logic [NumPorts*spin_pkg::KindW-1:0] sm_kind;
  logic [NumPorts*FlitW-1:0]  sm_data;
  logic [NumPorts*LinkW-1:0]  xbar_in;      // per input: its spin flit, else its request

  logic [NumPorts*spin_pkg::DstW-1:0] mid_all;   // only the NIC ports' are looked up
  assign rt_mid_o = mid_all[NumNics*spin_pkg::DstW-1:0];
  // NMin: a head is at its mid when mid is this router's first node (4.3)
  logic [spin_pkg::DstW-1:0] node0;
  assign node0 = spin_pkg::DstW'(32'(cfg_id_i) * NumNics);
  for (genvar p = 0; p < NumPorts; p++) begin : gen_input
    localparam int unsigned Rot = (5 * p) % 32;
    logic [7:0] draw;   // low byte of the LFSR rotated right by Rot
    assign draw = Rot == 0 ? lfsr[7:0] : 8'((lfsr >> Rot) | (lfsr << (32 - Rot)));
    spin_input_port #(
      .NumPorts(NumPorts), .NumVcs(NumVcs), .BufDepth(BufDepth),
      .FlitW(FlitW), .Escape(Escape), .Nmin(Nmin), .Source(p < NumNics ? 1 : 0),
      .NumNics(NumNics)
    ) u_input (
      .clk_i, .rst_ni,
      .flit_i       (flit_i[p*LinkW +: LinkW]),
      .rt_dst_o     (rt_dst_o[p*spin_pkg::DstW +: spin_pkg::DstW]),
      .rt_mask_i    (rt_mask_i[p*MaskW +: MaskW]),
      .nmin_i       (cfg_nmin_i),
      .id_i         (node0),
      .rt_mid_o     (mid_all[p*spin_pkg::DstW +: spin_pkg::DstW]),
      .rt_mid_mask_i(rt_mid_mask_i[(p < NumNics ? p : 0)*NumPorts +: NumPorts]),
      .esc_i        (cfg_escape_i),
      .free_a_i     (free_a),
      .free0_i      (free0),
      .port_free_i  (port_free),
      .draw_i       (draw),
      .least_busy_i (cfg_favors_i),
      .reroute_i    (cfg_reroute_i),
      .admit_i      (p < NumNics ? admit : 1'b1),
      .port_age_i   (port_age),
      .gnt_i        (gnt[p]),
      .gnt_ovc_i    (head_vc[p*spin_pkg::VcW +: spin_pkg::VcW]),
      .frozen_i     (frozen[p*spin_pkg::MaxVcs +: NumVcs]),
      .frozen_req_i (frozen_req[p*spin_pkg::MaxVcs +: NumVcs]),
      .hold_i       (hold[p]),
      .frozen_q_i   (frozen_q[p*spin_pkg::MaxVcs +: NumVcs]),
      .spin_i       (in_busy[p]),
      .spin_vc_i    (spin_vc[p*spin_pkg::VcW +: spin_pkg::VcW]),
      .out_blocked_i(out_busy | sm_valid),
      .req_o        (req[p]),
      .req_port_o   (req_port[p*PortW +: PortW]),
      .req_ovc_o    (req_ovc[p*spin_pkg::VcW +: spin_pkg::VcW]),
      .req_flit_o   (req_flit[p*LinkW +: LinkW]),
      .req_esc_o    (req_esc[p]),
      .drew_o       (drew[p]),
      .credit_o     (credit_d[p*CredW +: CredW]),
      .occ_o        (occ_o[p*NumVcs*OccW +: NumVcs*OccW]),
      .xbar_flit_o  (xbar_in[p*LinkW +: LinkW]),
      .view_cnt_nz_o(v_cnt_nz[p*spin_pkg::MaxVcs +: NumVcs]),
      .view_rv_o    (v_rv[p*spin_pkg::MaxVcs +: NumVcs]),
      .view_op_o    (v_op[spin_pkg::pv(p, 0)*PortW +: NumVcs*PortW]),
      .view_whole_o (v_whole[p*spin_pkg::MaxVcs +: NumVcs]),
      .view_tail_o  (v_tail[p*spin_pkg::MaxVcs +: NumVcs]),
      .popped_o     (v_popped[p*spin_pkg::MaxVcs +: NumVcs])
    );
    // Escape: the lowest free adaptive VC, or VC 0 for a head going escape;
    // otherwise the lowest free VC of the requested output.
    if (Escape == 1) begin : gen_head_vc
      assign head_vc[p*spin_pkg::VcW +: spin_pkg::VcW] =
          !cfg_escape_i ? first_free[req_port[p*PortW +: PortW]*spin_pkg::VcW +: spin_pkg::VcW] :
          req_esc[p] ? '0 : first_free_a[req_port[p*PortW +: PortW]*spin_pkg::VcW +: spin_pkg::VcW];
    end else begin : gen_head_vc_first
      assign head_vc[p*spin_pkg::VcW +: spin_pkg::VcW] =
          first_free[req_port[p*PortW +: PortW]*spin_pkg::VcW +: spin_pkg::VcW];
    end
    // unused view slots (VCs NumVcs..MaxVcs-1)
    if (NumVcs < spin_pkg::MaxVcs) begin : gen_pad
      localparam int unsigned Pad = spin_pkg::MaxVcs - NumVcs;
      assign v_cnt_nz[p*spin_pkg::MaxVcs + NumVcs +: Pad]  = '0;
      assign v_rv[p*spin_pkg::MaxVcs + NumVcs +: Pad]      = '0;
      assign v_op[spin_pkg::pv(p, NumVcs)*PortW +: Pad*PortW] = '0;
      assign v_whole[p*spin_pkg::MaxVcs + NumVcs +: Pad]   = '0;
      assign v_tail[p*spin_pkg::MaxVcs + NumVcs +: Pad]    = '0;
      assign v_popped[p*spin_pkg::MaxVcs + NumVcs +: Pad]  = '0;
    end
  end

  // ---- SPIN ----
  if (Spin == 1) begin : gen_spin
    logic [NumPorts*spin_pkg::KindW-1:0] in_kind;
    logic [NumPorts*FlitW-1:0]           in_data;
    logic [NumPorts-1:0]                 arm_in;
    logic [NumPorts*spin_pkg::VcW-1:0]   arm_in_vc;
    for (genvar p = 0; p < NumPorts; p++) begin : gen_links
      assign in_kind[p*spin_pkg::KindW +: spin_pkg::KindW] =
          flit_i[p*LinkW + FlitW + 4 +: spin_pkg::KindW];
      assign in_data[p*FlitW +: FlitW] = flit_i[p*LinkW +: FlitW];
      assign arm_in[p] = credit_i[p*CredW + spin_pkg::CredArm];
      assign arm_in_vc[p*spin_pkg::VcW +: spin_pkg::VcW] =
          credit_i[p*CredW + spin_pkg::CredArm + 1 +: spin_pkg::VcW];
    end
    spin_unit #(
      .NumPorts(NumPorts), .NumNics(NumNics), .NumVcs(NumVcs), .FlitW(FlitW), .IdW(IdW),
      .CycW(CycW), .TddW(TddW), .SmPipe(SmPipe), .XlatW(XlatW)
    ) u_spin (
      .clk_i, .rst_ni,
      .en_i         (cfg_spin_i),
      .adopt_en_i   (cfg_adopt_i),
      .pipe_i       (cfg_sm_pipe_i),
      .id_i         (cfg_id_i),
      .nodes_i      (cfg_nodes_i),
      .tdd_i        (cfg_tdd_i),
      .xlat_i       (cfg_xlat_i),
      .cnt_nz_i     (v_cnt_nz),
      .rv_i         (v_rv),
      .op_i         (v_op),
      .whole_i      (v_whole),
      .tail_i       (v_tail),
      .in_kind_i    (in_kind),
      .in_data_i    (in_data),
      .arm_in_i     (arm_in),
      .arm_in_vc_i  (arm_in_vc),
      .popped_i     (v_popped),
      .frozen_o     (frozen),
      .frozen_req_o (frozen_req),
      .frozen_q_o   (frozen_q),
      .hold_o       (hold),
      .in_busy_o    (in_busy),
      .spin_vc_o    (spin_vc),
      .out_busy_o   (out_busy),
      .spin_src_o   (spin_src),
      .spin_ovc_o   (spin_ovc),
      .sm_valid_o   (sm_valid),
      .sm_kind_o    (sm_kind),
      .sm_data_o    (sm_data),
      .arm_o        (arm),
      .arm_vc_o     (arm_vc),
      .obs_o        (spin_obs_o)
    );
  end else begin : gen_no_spin
    logic unused_spin_cfg;
    assign unused_spin_cfg = ^{cfg_tdd_i, cfg_sm_pipe_i, cfg_id_i, cfg_nodes_i, cfg_adopt_i};
    assign frozen     = '0;
    assign frozen_q   = '0;
    assign frozen_req = '0;
    assign hold       = '0;
    assign in_busy    = '0;
    assign spin_vc    = '0;
    assign out_busy   = '0;
    assign spin_src   = '0;
    assign spin_ovc   = '0;
    assign sm_valid   = '0;
    assign sm_kind    = '0;
    assign sm_data    = '0;
    assign arm        = '0;
    assign arm_vc     = '0;
    assign spin_obs_o = '0;
  end

  // ---- output stage of the allocator ----
  spin_switch_alloc #(.NumPorts(NumPorts)) u_switch_alloc (
    .clk_i, .rst_ni,
    .req_i      (req),
    .req_port_i (req_port),
    .gnt_o      (gnt),
    .win_valid_o(win_valid),
    .win_o      (win)
  );

  // Head and tail bits of each input's request, gathered so an output selects
  // one of NumPorts bits (indexing the whole request bus by a variable made
  // Yosys build a shifter over it).
  logic [NumPorts-1:0] req_head, req_tail;
  for (genvar p = 0; p < NumPorts; p++) begin : gen_req_bits
    assign req_head[p] = req_flit[p*LinkW + FlitW + 3];
    assign req_tail[p] = req_flit[p*LinkW + FlitW + 2];
  end

  // ---- per output: downstream VC of the winning flit, VC tracking ----
  for (genvar o = 0; o < NumPorts; o++) begin : gen_output
    logic [PortW-1:0] w;
    logic             w_head, w_tail;
    logic [spin_pkg::VcW-1:0] new_vc;   // the VC a winning head gets
    assign w      = win[o*PortW +: PortW];
    assign w_head = req_head[w];
    assign w_tail = req_tail[w];
    assign alloc[o]    = win_valid[o] && w_head;
    assign tail_out[o] = win_valid[o] && w_tail;
    if (Escape == 1) begin : gen_new_vc
      assign new_vc = head_vc[w*spin_pkg::VcW +: spin_pkg::VcW];
    end else begin : gen_new_vc_first
      assign new_vc = first_free[o*spin_pkg::VcW +: spin_pkg::VcW];
    end
    assign ovc[o*spin_pkg::VcW +: spin_pkg::VcW] =
        w_head ? new_vc : req_ovc[w*spin_pkg::VcW +: spin_pkg::VcW];
    assign free_a[o] = ovc_free[o*NumVcs +: NumVcs] >> 1 != '0;
    assign free0[o]  = ovc_free[o*NumVcs];

    spin_ovc_tracker #(.NumVcs(NumVcs), .Eject(o < NumNics)) u_ovc (
      .clk_i, .rst_ni,
      .alloc_i     (alloc[o]),
      .alloc_vc_i  (new_vc),
      .tail_i      (tail_out[o]),
      .tail_vc_i   (ovc[o*spin_pkg::VcW +: spin_pkg::VcW]),
      .credit_i    (credit_i[o*CredW +: CredW]),
      .early_i     (EarlyCredit == 1 && cfg_early_credit_i),
      .any_free_o  (port_free[o]),
      .free_o      (ovc_free[o*NumVcs +: NumVcs]),
      .first_free_o(first_free[o*spin_pkg::VcW +: spin_pkg::VcW]),
      .first_free_a_o(first_free_a[o*spin_pkg::VcW +: spin_pkg::VcW]),
      .min_age_o   (port_age[o*8 +: 8])
    );
  end

  // ---- switch traversal into the output registers ----
  // A spin flit takes the crossbar from its input (spin_src) with the
  // downstream VC of the spin (spin_ovc); a special message takes the output
  // register instead of the crossbar; otherwise the allocated flit.
  logic [NumPorts*LinkW-1:0] xbar_flit, flit_d;
  logic [NumPorts*CredW-1:0] cred_d;
  logic [NumPorts-1:0]       xbar_valid;
  logic [NumPorts*PortW-1:0] xbar_win;
  logic [NumPorts*spin_pkg::VcW-1:0] xbar_ovc;
  for (genvar o = 0; o < NumPorts; o++) begin : gen_xbar_sel
    assign xbar_valid[o] = win_valid[o] || out_busy[o];
    assign xbar_win[o*PortW +: PortW] = out_busy[o] ? spin_src[o*PortW +: PortW]
                                                    : win[o*PortW +: PortW];
    assign xbar_ovc[o*spin_pkg::VcW +: spin_pkg::VcW] =
        out_busy[o] ? spin_ovc[o*spin_pkg::VcW +: spin_pkg::VcW] : ovc[o*spin_pkg::VcW +: spin_pkg::VcW];
  end
  spin_crossbar #(.NumPorts(NumPorts), .FlitW(FlitW)) u_crossbar (
    .in_flit_i  (xbar_in),
    .win_valid_i(xbar_valid),
    .win_i      (xbar_win),
    .ovc_i      (xbar_ovc),
    .out_flit_o (xbar_flit)
  );

  // An output carrying a special message has no winner and no spin flit
  // (OneWordOut_A), so the crossbar gives it the idle word, 0, and the
  // message (0 on the other outputs) is ORed in: no multiplexer on the
  // whole link word.
  for (genvar o = 0; o < NumPorts; o++) begin : gen_out_mux
    logic [LinkW-1:0] smw;
    always_comb begin
      smw = '0;
      smw[FlitW + 4 +: spin_pkg::KindW] = sm_kind[o*spin_pkg::KindW +: spin_pkg::KindW];
      smw[FlitW-1:0] = sm_data[o*FlitW +: FlitW];
      flit_d[o*LinkW +: LinkW] = xbar_flit[o*LinkW +: LinkW] | smw;
    end
    assign cred_d[o*CredW +: CredW] = credit_d[o*CredW +: CredW] |
        (arm[o] ? spin_pkg::CredW'({arm_vc[o*spin_pkg::VcW +: spin_pkg::VcW], 1'b1,
                                    spin_pkg::CredArm'(0)}) : '0);
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      flit_o   <= '0;
      credit_o <= '0;
    end else begin
      flit_o   <= flit_d;
      credit_o <= cred_d;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int unsigned o = 0; o < NumPorts; o++) begin
        // an output carrying a spin flit or a special message takes no
        // allocated flit (it would be lost), and a spin flit is a flit
        OneWordOut_A: assert (!(win_valid[o] && (out_busy[o] || sm_valid[o])))
          else $error("spin_router: output %0d granted a flit under a spin flit or message", o);
        SpinFlitKind_A: assert (!out_busy[o] ||
                                flit_d[o*LinkW + FlitW + 4 +: spin_pkg::KindW] == spin_pkg::KindFlit)
          else $error("spin_router: output %0d spins a word of kind %0d", o,
                      flit_d[o*LinkW + FlitW + 4 +: spin_pkg::KindW]);
      end
      // the NICs receive packets only
      for (int unsigned o = 0; o < NumNics; o++) begin
        EjectFlitsOnly_A: assert (flit_d[o*LinkW + FlitW + 4 +: spin_pkg::KindW] <= spin_pkg::KindFlit)
          else $error("spin_router: word of kind %0d to ejection port %0d",
                      flit_d[o*LinkW + FlitW + 4 +: spin_pkg::KindW], o);
      end
    end
  end
`endif
endmodule

`default_nettype wire
