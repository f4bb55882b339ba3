// spin_pkg: constants of the link format and of SPIN shared by every RTL
// module.  The contract is docs/microarchitecture.md ("Link format" and
// section 12); C twin: cmodel/flit.h.  SPIN's sizes are in cmodel/spin.h,
// the observation word's fields in tb/spin_obs.h.
//
// Link word, LinkW = FlitW + 7 bits:
//   [FlitW-1:0]          data (head flit: dst in [15:0]; special message: 128 bits)
//   [FlitW+1:FlitW]      vc     downstream VC the flit is written into
//   [FlitW+2]            tail
//   [FlitW+3]            head
//   [FlitW+6:FlitW+4]    kind   0 idle, 1 flit, 2 probe, 3 move, 4 probe_move, 5 kill_move
// Credit word, CredW = 6 bits: [1:0] vc, [2] valid, [3] arm, [5:4] arm_vc.
// Special message data: sender[11:0] n[17:12] delay[24:18] idx[30:25]
// path[31 + 3i +: 3] (i < 32), bit 127 zero; the fields' positions below.
// A probe's delay field holds x, the cycles its links took beyond 1 each.
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
  localparam int unsigned MaxPorts = 8;          // SPIN state is indexed p*MaxVcs + v
  localparam int unsigned MaxVcs   = 4;
  localparam int unsigned MaxPv    = MaxPorts * MaxVcs;
  localparam int unsigned SmW      = 128;        // special-message data bits
  localparam int unsigned SmMaxPath = 32;        // path entries an SM carries
  // field positions in the data word (contract 12.1)
  localparam int unsigned SmSenderLsb = 0;       // sender, IdW bits
  localparam int unsigned SmNLsb      = 12;      // n, 6 bits
  localparam int unsigned SmDelayLsb  = 18;      // delay, 7 bits
  localparam int unsigned SmIdxLsb    = 25;      // idx, 6 bits
  localparam int unsigned SmPathLsb   = 31;      // path entry i at SmPathLsb + 3i
  // hops a loop may have (the 6-bit n); past SmMaxPath only with 1 VC per
  // port, the entries unrecorded (0) and taken from the VC at the arrival port
  localparam int unsigned SmMaxLoop = 63;
  localparam int unsigned SmPathW  = 3 * SmMaxPath;
  localparam int unsigned IdW      = 12;         // router id: at most 4096 routers
  localparam int unsigned XlatW    = 4;          // a link's latency - 1: links of 1..16 cycles
  localparam int unsigned SpinSettle  = 6;       // spin -> probe_move
  localparam int unsigned SpinRelease = SpinSettle + 2 * SmMaxLoop + 2;
  localparam int unsigned CntW     = 16;         // the SPIN counter
  localparam int unsigned EpW      = 18;         // cycle within a priority epoch (4 t_DD <= 2^17)

  typedef enum logic [2:0] {
    StOff, StDd, StMove, StProbeMove, StForwardProgress, StKillMove, StFrozen
  } spin_state_e;

  // The SPIN state that the special messages of one cycle change one after
  // another (C twin: the fields of spin_router_t that spin_move_in writes).
  typedef struct packed {
    spin_state_e          state;
    logic [CntW-1:0]      cnt;
    logic                 cnt_loaded;   // the FSM loaded cnt this cycle
    logic                 is_deadlock;
    logic [IdW-1:0]       source_id;
    logic                 pm_sent;
    logic [MaxPv-1:0]     frozen;
    logic [MaxPv-1:0]     armed;
  } spin_mut_t;
  localparam int unsigned MutW = 3 + CntW + 1 + 1 + IdW + 1 + 2 * MaxPv;   // its width

  // The observation word (spin_router's spin_obs_o; docs/microarchitecture.md,
  // section 10): the architectural SPIN registers of section 12 as they are,
  // no logic, for the co-simulation to compare every cycle.  One record for
  // the router, one per network input port p = 1..P-1, then one per VC v of
  // those ports (p major), each a packed struct below (its last field is
  // bit 0):
  //   [0 +: ObsRouterW]                                        the router
  //   [ObsRouterW + (p-1)*ObsPortW +: ObsPortW]                input port p
  //   [ObsRouterW + (P-1)*ObsPortW + ((p-1)*V + v)*ObsVcW +: ObsVcW]  VC (p, v)
  // tb/spin_obs.h is the field table the co-simulation reads it by; each
  // co-simulation build checks the three record widths (public to Verilator)
  // against that table, and spin_unit checks each struct against its width.
  typedef struct packed {
    logic [EpW-1:0]       ep;           // ep_q: cycle within the priority epoch
    logic [IdW-1:0]       top;          // top_q: router of top priority
    logic [SmPathW-1:0]   loop_path;    // loop buffer path_q
    logic [2:0]           loop_port0;   // loop buffer port0_q
    logic [5:0]           loop_cyc;     // loop buffer cyc_q
    logic [5:0]           loop_start;   // loop buffer start_q
    logic [5:0]           loop_n;       // loop buffer n_q
    logic                 pm_sent;
    logic [IdW-1:0]       source_id;
    logic                 is_deadlock;
    logic [1:0]           dd_vc;
    logic [2:0]           dd_port;
    logic [CntW-1:0]      cnt;
    spin_state_e          state;
  } obs_router_t;
  localparam int unsigned ObsRouterW /*verilator public*/ =
      EpW + IdW + SmPathW + 3 + 6 + 6 + 6 + 1 + IdW + 1 + 2 + 3 + CntW + 3;
  typedef struct packed {
    logic [5:0]           mark_x;       // the probe mark (spin_probe_mgr)
    logic [5:0]           mark_n;
    logic [IdW-1:0]       mark_sender;
  } obs_port_t;
  localparam int unsigned ObsPortW /*verilator public*/ = 6 + 6 + IdW;
  typedef struct packed {
    logic [1:0]           spin_ovc;     // downstream VC the spin fills
    logic                 spinning;
    logic                 armed;
    logic                 frozen;
  } obs_vc_t;
  localparam int unsigned ObsVcW /*verilator public*/ = 2 + 1 + 1 + 1;

  // A special message's data word (C twin: sm_make in cmodel/flit.h).
  function automatic logic [SmW-1:0] sm_word(input logic [IdW-1:0] sender,
                                             input logic [5:0] n, input logic [6:0] delay,
                                             input logic [5:0] idx,
                                             input logic [SmPathW-1:0] path);
    sm_word = {1'b0, path, idx, delay, n, sender};
  endfunction

  // Path entry i of a path (0 past the recorded entries); written as a
  // compare per entry (Yosys 0.23 builds a wide shifter for path >> 3i).
  function automatic logic [2:0] path_entry(input logic [SmPathW-1:0] path,
                                            input logic [5:0] i);
    path_entry = '0;
    for (int unsigned k = 0; k < SmMaxPath; k++)
      if (i == 6'(k)) path_entry = path[3*k +: 3];
  endfunction

  // Rotating priority (section 12.1): (r - top - 1) mod nodes; higher wins.
  function automatic logic [IdW:0] sm_prio(input logic [IdW-1:0] r, input logic [IdW-1:0] top,
                                           input logic [IdW:0] nodes);
    if (r > top) sm_prio = {1'b0, r} - {1'b0, top} - 1'b1;
    else         sm_prio = {1'b0, r} + nodes - {1'b0, top} - 1'b1;
  endfunction

  // The same order as sm_prio for routers r and top below the node count,
  // without its adders: the routers up to top come after top's successors
  // round the ring, so they rank above every router past top, and within
  // each group a higher id ranks higher; equal keys are the same router.
  // The arbiters and the probe managers compare these keys.
  function automatic logic [IdW:0] sm_prio_key(input logic [IdW-1:0] r, input logic [IdW-1:0] top);
    sm_prio_key = {r <= top, r};
  endfunction

  // Class of a special message: probe_move 3, move and kill_move 2, probe 1.
  function automatic logic [1:0] sm_rank(input logic [KindW-1:0] kind);
    if (kind == KindProbeMove)  sm_rank = 2'd3;
    else if (kind == KindProbe) sm_rank = 2'd1;
    else                        sm_rank = 2'd2;
  endfunction

  // The router leaves a recovery: VCs that are not spinning thaw, and the
  // FSM goes back to deadlock detection; the caller loads the counter
  // (C twin: spin_leave).  Yosys 0.23 cannot size a function that reads a
  // struct member, so this one works on the record as a MutW-bit vector, by
  // the field offsets of spin_mut_t (its last field is bit 0).
  localparam int unsigned MutArmed  = 0;                     // armed[MaxPv-1:0]
  localparam int unsigned MutFrozen = MaxPv;                 // frozen[MaxPv-1:0]
  localparam int unsigned MutSource = 2 * MaxPv + 1;         // source_id[IdW-1:0]
  localparam int unsigned MutIsDl   = MutSource + IdW;        // is_deadlock
  localparam int unsigned MutState  = MutW - 3;              // state[2:0]
  function automatic logic [MutW-1:0] leave(input logic [MutW-1:0] s,
                                            input logic [MaxPv-1:0] spinning);
    leave                       = s;
    leave[MutArmed +: MaxPv]    = s[MutArmed +: MaxPv] & spinning;
    leave[MutFrozen +: MaxPv]   = s[MutFrozen +: MaxPv] & spinning;
    leave[MutIsDl]              = 1'b0;
    leave[MutState +: 3]        = spin_pkg::StDd;
  endfunction

  // May a VC at input p bound for output o be frozen?  Not when a frozen VC
  // already uses that input or that output (C twin: spin_may_freeze).
  function automatic logic may_freeze(input logic [MaxPv-1:0] frozen,
                                      input logic [3*MaxPv-1:0] op, input int unsigned ports,
                                      input int unsigned vcs, input logic [2:0] p,
                                      input logic [2:0] o);
    may_freeze = 1'b1;
    for (int unsigned pp = 1; pp < MaxPorts; pp++)
      for (int unsigned v = 0; v < MaxVcs; v++)
        if (pp < ports && v < vcs && frozen[pp*MaxVcs+v] &&
            (3'(pp) == p || op[(pp*MaxVcs+v)*3 +: 3] == o))
          may_freeze = 1'b0;
  endfunction
endpackage

`default_nettype wire
