// spin_probe_mgr: the probe manager of a router (docs/microarchitecture.md,
// 12.4), one for all its inputs: the one probe the router handles in a
// cycle (another router's, or its own that did not confirm a loop) is
// dropped, forwarded out of each distinct output the VCs of its port wait
// for (recording which, where there are several), or, with adoption, the
// loop it went round is taken.  It keeps the probe mark of every network
// input (the probe forwarded from it of highest sender priority, with its
// age, the cycles since it was written, saturating at CycMax + 1; it stands
// while that probe can still travel, no more than CycMax cycles, and is
// freed when the probe comes round and is dropped).  C twin:
// cmodel/spin_probe_mgr.c (spin_probe_in).
`default_nettype none

module spin_probe_mgr #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumNics  = 1,      // ports 0..NumNics-1 are NICs, never in a loop
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned FlitW    = 128,
  parameter int unsigned IdW      = 6,
  parameter int unsigned CycW     = 11,
  localparam int unsigned PW      = $clog2(NumPorts),
  localparam int unsigned PortW   = $clog2(NumPorts),  // a port number, in the views too
  localparam int unsigned VcW     = spin_pkg::VcW,     // a VC number
  localparam int unsigned FkW     = spin_pkg::SmFkW,   // a fork entry index (fk)
  localparam int unsigned MarkW   = IdW + CycW + NumPorts + (NumVcs > 1 ? FkW : 0)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   en_i,
  input  logic                   adopt_en_i,   // adoption (12.4)
  input  logic [IdW-1:0]         id_i,
  input  logic [IdW-1:0]         top_i,
  // the state after the FSM's steps 1 to 3
  input  logic                   free_i,       // OFF or DD, not is_deadlock
  input  logic                   dd_i,         // DD, not is_deadlock
  // the probe handled this cycle, on port port_i
  input  logic                   valid_i,
  input  logic [PW-1:0]          port_i,
  input  logic [FlitW-1:0]       data_i,
  // the VCs of that port: flits with a route, their outputs
  input  logic [NumVcs-1:0]      routed_i,
  input  logic [NumVcs*PortW-1:0] op_i,
  // forwarded out of fwd_mask_o (forked: fwd_fork_o, the same outputs)
  output logic                   fwd_o,
  output logic [NumPorts-1:0]    fwd_mask_o,
  output logic [NumPorts-1:0]    fwd_fork_o,
  // the loop it went round taken (adoption): at VC adopt_vc_o of port_i
  output logic                   adopt_o,
  output logic [VcW-1:0]         adopt_vc_o,
  output logic [CycW-1:0]        adopt_cyc_o,
  output logic [PortW-1:0]       adopt_port0_o,
  output logic [FkW-1:0]         adopt_fk0_o,
  // the marks, port p at [(p-1)*MarkW +: MarkW]: {fk, out, cyc, sender}
  output logic [(NumPorts-1)*MarkW-1:0] marks_o
);
`include "spin_sm_layout.svh"
  localparam int unsigned MP = spin_pkg::MaxPorts;
  // A mark's cycles and age fit CycW - 1 bits: a probe forwarded has
  // cyc <= CycMax, and the age saturates at CycMax + 1 = 2^(CycW-1) - 1.
  localparam int unsigned MkCycW = CycW - 1;

  // ---- the marks: port p's at [p*W +: W] (port 0 has none: 0) ----
  logic [NumPorts-1:0]          mk_we;
  logic [NumPorts-1:0]          mk_clr;      // the probe came round and was dropped
  logic [NumPorts*IdW-1:0]      mk_sender_q;
  logic [NumPorts*MkCycW-1:0]   mk_cyc_q;
  logic [NumPorts*NumPorts-1:0] mk_out_q;
  logic [NumPorts*FkW-1:0]      mk_fk_q;
  logic [NumPorts*MkCycW-1:0]   mk_age_q;    // saturates at CycMax + 1 (reset: CycMax + 1)

  // ---- the probe ----
  logic [IdW-1:0]      snd;
  logic [CycW-1:0]     cyc;
  logic [FkW-1:0]      fk;
  logic [NumPorts-1:0] outs;        // the distinct outputs the VCs wait for
  logic                all_routed, several, outranked, too_long, came_round, can_go, m_keep;
  logic                m_live;
  logic [CycW-1:0]     m_age;
  logic [IdW-1:0]      m_sender;
  logic [CycW-1:0]     m_cyc;
  logic [NumPorts-1:0] m_out;
  logic [FkW-1:0]      m_fk;
  logic                m_forked;
  logic [PortW-1:0]    o1;          // this router's output on the first pass
  logic [spin_pkg::RankW-1:0] choice;
  logic                adopt_hit;
  logic [VcW-1:0]      adopt_vc;
  always_comb begin
    snd = data_i[IdW-1:0];
    cyc = data_i[SmTLsb +: CycW];
    fk  = NumVcs > 1 ? data_i[SmFkLsb +: FkW] : '0;
    outs = '0;
    all_routed = 1'b1;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (!routed_i[v]) all_routed = 1'b0;
      if (routed_i[v] && 32'(op_i[v*PortW +: PortW]) < NumPorts) outs[op_i[v*PortW +: PW]] = 1'b1;
    end
    for (int unsigned q = 0; q < NumNics; q++) outs[q] = 1'b0;
    // with 1 VC the one VC waits for one output: never several
    several   = NumVcs > 1 && (outs & (outs - 1'b1)) != '0;
    outranked = {id_i <= top_i, id_i} > {snd <= top_i, snd};
    too_long  = 32'(cyc) > SmCycMax || (NumVcs > 1 && several && 32'(fk) >= SmK);
    m_sender  = mk_sender_q[32'(port_i)*IdW +: IdW];
    m_cyc     = CycW'(mk_cyc_q[32'(port_i)*MkCycW +: MkCycW]);
    m_out     = mk_out_q[32'(port_i)*NumPorts +: NumPorts];
    m_fk      = mk_fk_q[32'(port_i)*FkW +: FkW];
    m_age     = CycW'(mk_age_q[32'(port_i)*MkCycW +: MkCycW]);
    // the mark stands while its probe can still travel (CycMax cycles);
    // that very probe comes back when the age is the cycles it took since
    m_live    = m_cyc != '0 && 32'(m_age) <= SmCycMax;
    came_round = m_live && m_sender == snd && cyc > m_cyc && m_age == cyc - m_cyc;
    // the mark stays with a sender of higher priority than this probe's
    m_keep    = m_live && {m_sender <= top_i, m_sender} > {snd <= top_i, snd};
    can_go    = valid_i && free_i && !outranked && !too_long && all_routed && outs != '0;

    // adoption: the loop from this router's first-pass output back to port_i
    m_forked = NumVcs > 1 && (m_out & (m_out - 1'b1)) != '0;
    choice   = '0;
    if (NumVcs > 1 && m_forked)
      for (int unsigned i = 0; i < SmK; i++)
        if (m_fk == FkW'(i)) choice = spin_pkg::RankW'(data_i[SmForkLsb + i*SmChW +: SmChW]);
    o1 = PortW'(spin_pkg::nth_port(MP'(m_out), choice));
    adopt_hit = 1'b0;
    adopt_vc  = '0;
    for (int unsigned v = 0; v < NumVcs; v++)
      if (!adopt_hit && routed_i[v] && op_i[v*PortW +: PortW] == o1 && o1 != '0) begin
        adopt_hit = 1'b1;
        adopt_vc  = VcW'(v);
      end
    adopt_o       = can_go && came_round && adopt_en_i && dd_i && adopt_hit;
    adopt_vc_o    = adopt_vc;
    adopt_cyc_o   = cyc - m_cyc;
    adopt_port0_o = o1;
    adopt_fk0_o   = m_fk + FkW'(m_forked);

    fwd_o      = can_go && !came_round;
    fwd_mask_o = fwd_o ? outs : '0;
    fwd_fork_o = fwd_o && several ? outs : '0;
    mk_we      = '0;
    mk_clr     = '0;
    if (fwd_o && !m_keep) mk_we[port_i] = 1'b1;
    if (can_go && came_round && !adopt_o) mk_clr[port_i] = 1'b1;
  end

  // the mark of the probe's port takes a probe forwarded (unless it keeps
  // one of higher priority), and is freed by one dropped as come round
  logic [NumPorts*IdW-1:0]      mk_sender_d;
  logic [NumPorts*MkCycW-1:0]   mk_cyc_d;
  logic [NumPorts*NumPorts-1:0] mk_out_d;
  logic [NumPorts*FkW-1:0]      mk_fk_d;
  logic [NumPorts*MkCycW-1:0]   mk_age_d;
  always_comb begin
    mk_sender_d = mk_sender_q;
    mk_cyc_d    = mk_cyc_q;
    mk_out_d    = mk_out_q;
    mk_fk_d     = mk_fk_q;
    mk_age_d    = mk_age_q;
    // one cycle older, to CycMax + 1; a NIC port's is never read (no
    // probe arrives there) and stays at its reset value
    for (int unsigned p = NumNics; p < NumPorts; p++)
      mk_age_d[p*MkCycW +: MkCycW] = 32'(mk_age_q[p*MkCycW +: MkCycW]) > SmCycMax ?
                                     mk_age_q[p*MkCycW +: MkCycW] :
                                     mk_age_q[p*MkCycW +: MkCycW] + 1'b1;
    for (int unsigned p = NumNics; p < NumPorts; p++)
      if (en_i && mk_we[p]) begin
        mk_sender_d[p*IdW +: IdW]        = snd;
        mk_cyc_d[p*MkCycW +: MkCycW]     = MkCycW'(cyc);     // cyc <= CycMax (not too_long)
        mk_out_d[p*NumPorts +: NumPorts] = outs;
        mk_fk_d[p*FkW +: FkW]            = NumVcs > 1 ? fk : '0;
        mk_age_d[p*MkCycW +: MkCycW]     = MkCycW'(1);
      end else if (en_i && mk_clr[p]) begin
        mk_cyc_d[p*MkCycW +: MkCycW]     = '0;
      end
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      mk_sender_q <= '0;
      mk_cyc_q    <= '0;
      mk_out_q    <= '0;
      mk_fk_q     <= '0;
      mk_age_q    <= {NumPorts{MkCycW'(SmCycMax + 1)}};
    end else begin
      mk_sender_q <= mk_sender_d;
      mk_cyc_q    <= mk_cyc_d;
      mk_out_q    <= mk_out_d;
      mk_fk_q     <= mk_fk_d;
      mk_age_q    <= mk_age_d;
    end
  end
  // the marks as the contract has them: cyc CycW bits
  for (genvar p = 1; p < NumPorts; p++) begin : gen_obs
    logic [CycW-1:0] ocyc;
    assign ocyc = CycW'(mk_cyc_q[p*MkCycW +: MkCycW]);
    if (NumVcs > 1) begin : gen_fk
      assign marks_o[(p-1)*MarkW +: MarkW] = {mk_fk_q[p*FkW +: FkW],
                                              mk_out_q[p*NumPorts +: NumPorts],
                                              ocyc, mk_sender_q[p*IdW +: IdW]};
    end else begin : gen_no_fk
      assign marks_o[(p-1)*MarkW +: MarkW] = {mk_out_q[p*NumPorts +: NumPorts], ocyc,
                                              mk_sender_q[p*IdW +: IdW]};
    end
  end
endmodule

`default_nettype wire
