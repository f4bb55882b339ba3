// fv_router: the formal environment and scoreboard of one spin_router
// without SPIN (docs/formal.md, make formal).  The inputs are free, within
// the contract of docs/microarchitecture.md (sections 2, 3, 5):
//  - upstream of each input port p: packets of 1 to 5 flits, interleaved
//    freely over the VCs, idle cycles anywhere; a head only into a VC the
//    upstream holds free, and it holds a VC busy from its head until the
//    router's credit for it (credit_o[p]) is seen;
//  - downstream of each network output o: a credit, at any time after a
//    packet's tail arrived, frees that VC (one credit a cycle); the NIC
//    (output 0) sends none;
//  - route-table answers: any non-empty set of ports, every cycle;
//  - the LFSR seed, FAvORS-Min, rerouting and early credits: any, fixed per
//    run; injection and occupancy admission: any, changing every cycle (the
//    NICs drive them so, contract sections 6 and 8).
// Every flit carries a tag in its data field, {0, seq, tail, head, v, p}: its
// input port p, VC v, head and tail bits and its number seq (mod 16) among
// the flits sent into (p, v); the other data bits are 0.  The scoreboard checks every word on every output:
// a flit in is a flit out, once, unchanged, in the order it came in, in one
// packet per downstream VC, and every flit not yet out is in the router.
`default_nettype none

module fv_router #(
  parameter int unsigned NumPorts = 3,
  parameter int unsigned NumVcs   = 1,
  localparam int unsigned BufDepth = 5,
  localparam int unsigned FlitW   = 16,
  localparam int unsigned LinkW   = FlitW + spin_pkg::CtlW,
  localparam int unsigned CredW   = spin_pkg::CredW,
  localparam int unsigned OccW    = spin_pkg::OccW,
  localparam int unsigned VcW     = spin_pkg::VcW,
  localparam int unsigned NumPv   = NumPorts * NumVcs,
  localparam int unsigned SeqW    = 4,     // > the flits one VC can hold
  localparam int unsigned PvW     = 4
) (
  input logic                        clk_i,
  input logic                        rst_ni,
  input logic [NumPorts*LinkW-1:0]   flit_i,
  input logic [NumPorts*CredW-1:0]   credit_i,
  input logic [NumPorts*NumPorts-1:0] rt_mask_i
);
  if (NumPorts > 4 || NumVcs > 4) begin : gen_check
    $error("fv_router: the tag holds a 2-bit port and a 2-bit VC");
  end

  (* anyconst *) logic [31:0] fv_seed;
  (* anyconst *) logic        fv_favors, fv_reroute, fv_early;
  (* anyseq *)   logic        fv_admit;
  (* anyseq *)   logic [1:0]  fv_admit_occ;

  logic [NumPorts*LinkW-1:0]        flit_o;
  logic [NumPorts*CredW-1:0]        credit_o;
  logic [NumPv*OccW-1:0]            occ;
  logic [NumPorts*spin_pkg::DstW-1:0] rt_dst;

  spin_router #(
    .NumPorts(NumPorts), .NumVcs(NumVcs), .BufDepth(BufDepth), .FlitW(FlitW),
    .Spin(0), .Escape(0), .Nmin(0), .EarlyCredit(1)
  ) u_router (
    .clk_i, .rst_ni,
    .lfsr_seed_i  (fv_seed),
    .cfg_favors_i (fv_favors),
    .cfg_escape_i (1'b0),
    .cfg_nmin_i   (1'b0),
    .cfg_spin_i   (1'b0),
    .cfg_admit_i  (fv_admit),
    .cfg_admit_occ_i(fv_admit_occ),
    .cfg_reroute_i(fv_reroute),
    .cfg_adopt_i  (1'b0),
    .cfg_early_credit_i(fv_early),
    .cfg_tdd_i    (8'd128),
    .cfg_sm_pipe_i(2'd2),
    .cfg_id_i     ('0),
    .cfg_nodes_i  (7'd2),
    .cfg_xlat_i   ('0),
    .rt_dst_o     (rt_dst),
    .rt_mask_i    (rt_mask_i),
    .rt_mid_o     (),
    .rt_mid_mask_i('0),
    .flit_i       (flit_i),
    .credit_i     (credit_i),
    .flit_o       (flit_o),
    .credit_o     (credit_o),
    .occ_o        (occ),
    .spin_obs_o   ()
  );

  // ---- reset: the run starts in reset, then stays out of it ----
  always_comb begin
    if ($initstate) Reset_M: assume (!rst_ni);
    else            NoReset_M: assume (rst_ni);
  end

  // ---- upstream of each input port ----
  logic [NumPv-1:0]  up_busy_q, up_mid_q;
  logic [2:0]        up_len_q [NumPv];
  logic [SeqW-1:0]   up_seq_q [NumPv];
  logic [NumPorts-1:0] in_ok, mask_ok;

  for (genvar p = 0; p < NumPorts; p++) begin : gen_up
    logic [LinkW-1:0] w;
    logic             flit, head, tail;
    logic [VcW-1:0]   vc;
    assign w    = flit_i[p*LinkW +: LinkW];
    assign flit = w[FlitW+4 +: 3] == spin_pkg::KindFlit;
    assign vc   = w[FlitW +: VcW];
    assign head = w[FlitW+3];
    assign tail = w[FlitW+2];
    logic [PvW-1:0] pv;
    assign pv = PvW'(p * NumVcs) + PvW'(vc);
    // a legal word: idle (all zero), or the next flit of VC vc
    assign in_ok[p] = !rst_ni ? w == '0 :
        w == '0 || (flit && 32'(vc) < NumVcs &&
                    w[1:0] == 2'(p) && w[3:2] == vc && w[4] == head && w[5] == tail &&
                    w[6 +: SeqW] == up_seq_q[pv] && w[FlitW-1:6+SeqW] == '0 &&
                    (head ? !up_busy_q[pv] : up_mid_q[pv] && (tail || up_len_q[pv] < 3'd4)));
    assign mask_ok[p] = rt_mask_i[p*NumPorts +: NumPorts] != '0;

    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
      localparam int unsigned Pv = p * NumVcs + v;
      logic sent, credited;
      assign sent     = flit && 32'(vc) == v;
      assign credited = credit_o[p*CredW + spin_pkg::CredValid] && 32'(credit_o[p*CredW +: VcW]) == v;
      always_ff @(posedge clk_i) begin
        if (!rst_ni) begin
          up_busy_q[Pv] <= 1'b0;
          up_mid_q[Pv]  <= 1'b0;
          up_len_q[Pv]  <= '0;
          up_seq_q[Pv]  <= '0;
        end else begin
          if (sent) begin
            up_seq_q[Pv] <= up_seq_q[Pv] + 1'b1;
            up_mid_q[Pv] <= !tail;
            up_len_q[Pv] <= head ? 3'd1 : up_len_q[Pv] + 3'd1;
          end
          if (sent && head) up_busy_q[Pv] <= 1'b1;
          else if (credited) up_busy_q[Pv] <= 1'b0;
        end
      end
    end
  end

  always_comb begin
    FlitIn_M: assume (&in_ok);
    RouteSet_M: assume (&mask_ok);
  end

  // ---- the router's credits: one per packet, after its tail ----
  logic [NumPorts-1:0] cred_ok, head_empty_ok;
  for (genvar p = 0; p < NumPorts; p++) begin : gen_cred
    logic [CredW-1:0] c;
    logic [PvW-1:0]   pv;
    assign c  = credit_o[p*CredW +: CredW];
    assign pv = PvW'(p * NumVcs) + PvW'(c[VcW-1:0]);
    assign cred_ok[p] = c == '0 || (c[CredW-1:VcW] == 4'b0001 && 32'(c[VcW-1:0]) < NumVcs &&
                                     up_busy_q[pv] && !up_mid_q[pv]);
    // virtual cut-through: a head finds its VC empty
    logic [LinkW-1:0] w;
    logic [PvW-1:0]   wpv;
    assign w   = flit_i[p*LinkW +: LinkW];
    assign wpv = PvW'(p * NumVcs) + PvW'(w[FlitW +: VcW]);
    assign head_empty_ok[p] = !(w[FlitW+4 +: 3] == spin_pkg::KindFlit && w[FlitW+3]) ||
                              occ[wpv*OccW +: OccW] == '0;
  end

  // ---- downstream of each output, and the scoreboard ----
  localparam int unsigned NumOv = NumPorts * NumVcs;
  logic [NumOv-1:0]  dn_held_q, dn_act_q;
  logic [PvW-1:0]    dn_src_q [NumOv];
  logic [2:0]        dn_cnt_q [NumOv];
  logic [SeqW-1:0]   out_seq_q [NumPv];
  logic [NumPorts-1:0] out_ok, dn_cred_ok;
  logic [NumPorts*NumPv-1:0] from;   // output o carries a flit of source s

  for (genvar o = 0; o < NumPorts; o++) begin : gen_dn
    logic [LinkW-1:0] w;
    logic             flit, head, tail;
    logic [VcW-1:0]   vc;
    logic [PvW-1:0]   src, ov;
    assign w    = flit_o[o*LinkW +: LinkW];
    assign flit = w[FlitW+4 +: 3] == spin_pkg::KindFlit;
    assign vc   = w[FlitW +: VcW];
    assign head = w[FlitW+3];
    assign tail = w[FlitW+2];
    assign src  = PvW'(w[1:0]) * PvW'(NumVcs) + PvW'(w[3:2]);
    assign ov   = PvW'(o * NumVcs) + PvW'(vc);
    for (genvar s = 0; s < NumPv; s++) begin : gen_from
      assign from[o*NumPv + s] = flit && 32'(src) == s;
    end
    // idle, or a flit of a real source and VC, with its head and tail bits,
    // the next of its source, and in the packet its downstream VC holds
    assign out_ok[o] = w == '0 ||
        (flit && 32'(vc) < NumVcs && 32'(w[1:0]) < NumPorts && 32'(w[3:2]) < NumVcs &&
         head == w[4] && tail == w[5] && w[6 +: SeqW] == out_seq_q[src] &&
         w[FlitW-1:6+SeqW] == '0 &&
         (head ? !dn_held_q[ov] : dn_act_q[ov] && dn_src_q[ov] == src &&
                                  32'(dn_cnt_q[ov]) < BufDepth));

    // the downstream's credits (none from the NIC)
    logic [CredW-1:0] c;
    logic [PvW-1:0]   cv;
    assign c  = credit_i[o*CredW +: CredW];
    assign cv = PvW'(o * NumVcs) + PvW'(c[VcW-1:0]);
    assign dn_cred_ok[o] = c == '0 || (o != 0 && rst_ni && c[CredW-1:VcW] == 4'b0001 &&
                                       32'(c[VcW-1:0]) < NumVcs && dn_held_q[cv] && !dn_act_q[cv]);

    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
      localparam int unsigned Ov = o * NumVcs + v;
      logic here, credited;
      assign here     = flit && 32'(vc) == v;
      assign credited = c[spin_pkg::CredValid] && 32'(c[VcW-1:0]) == v;
      always_ff @(posedge clk_i) begin
        if (!rst_ni) begin
          dn_held_q[Ov] <= 1'b0;
          dn_act_q[Ov]  <= 1'b0;
          dn_cnt_q[Ov]  <= '0;
          dn_src_q[Ov]  <= '0;
        end else begin
          if (here) begin
            dn_act_q[Ov] <= !tail;
            dn_cnt_q[Ov] <= head ? 3'd1 : dn_cnt_q[Ov] + 3'd1;
            if (head) dn_src_q[Ov] <= src;
          end
          // the ejection port frees a VC as its tail leaves (the NIC never
          // stalls); a network port on the downstream's credit
          if (here && head && !(o == 0 && tail)) dn_held_q[Ov] <= 1'b1;
          else if (o == 0 ? here && tail : credited) dn_held_q[Ov] <= 1'b0;
        end
      end
    end
  end

  // per source: at most one flit out a cycle; the count of flits out
  logic [NumPv-1:0] src_once_ok, conserve_ok;
  for (genvar s = 0; s < NumPv; s++) begin : gen_src
    logic [NumPorts-1:0] outs;
    for (genvar o = 0; o < NumPorts; o++) begin : gen_o
      assign outs[o] = from[o*NumPv + s];
    end
    assign src_once_ok[s] = (outs & (outs - 1'b1)) == '0;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) out_seq_q[s] <= '0;
      else if (outs != '0) out_seq_q[s] <= out_seq_q[s] + 1'b1;
    end
    // flits in = flits out + flits held in the VC + the one on an output
    assign conserve_ok[s] = up_seq_q[s] == out_seq_q[s] + SeqW'(occ[s*OccW +: OccW]) +
                                           SeqW'(outs != '0);
  end

  always_comb begin
    CreditOut_M: assume (&dn_cred_ok);
    if (rst_ni) begin
      CreditOnce_A: assert (&cred_ok);
      HeadIntoEmptyVc_A: assert (&head_empty_ok);
      FlitOut_A: assert (&out_ok);
      OneFlitPerSource_A: assert (&src_once_ok);
      FlitsConserved_A: assert (&conserve_ok);
    end
  end

  // ---- reachability: what the assumptions must leave possible ----
  logic [NumOv-1:0] whole5;
  for (genvar o = 0; o < NumOv; o++) begin : gen_whole
    assign whole5[o] = dn_cnt_q[o] == 3'd5 && !dn_act_q[o];
  end
  always_comb begin
    if (rst_ni) begin
      Packet5Out_C: cover (whole5[NumVcs] != 1'b0);   // 5 flits out of port 1
      // two inputs hold three flits each: packets wait on one another
      Contention_C: cover (occ[OccW-1:0] >= 3'd3 && occ[NumVcs*OccW +: OccW] >= 3'd3);
    end
  end
endmodule

`default_nettype wire
