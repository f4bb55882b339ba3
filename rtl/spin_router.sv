// spin_router: input-buffered virtual cut-through router, one cycle from
// input buffer to output register.  Contract: docs/microarchitecture.md;
// C twin: cmodel/router.c.
//
// Port 0 is the NIC; ports 1..NumPorts-1 are network links.  Every output
// is a register: flit_o (link word) and credit_o (credit word) of port p are
// the link registers that the neighbour on port p reads in the next cycle.
// Parameters:
//   NumPorts  2..8 ports, NIC included
//   NumVcs    1..4 virtual channels per input port
//   BufDepth  flits per VC, at least the longest packet (5), at most 7
//   FlitW     data bits per flit, at least 16 (the head's dst field)
// The route table sits outside the router (spin_route_table): each input
// port p shows the destination it is routing on rt_dst_o[p] and reads the
// allowed output ports on rt_mask_i[p] in the same cycle (bit 0 = eject).
// So one router serves networks of any size and shape.
`default_nettype none

module spin_router #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned BufDepth = 5,
  parameter int unsigned FlitW    = 64,
  localparam int unsigned LinkW   = FlitW + spin_pkg::CtlW,
  localparam int unsigned CredW   = spin_pkg::CredW,
  localparam int unsigned OccW    = spin_pkg::OccW,
  localparam int unsigned PortW   = $clog2(NumPorts)
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [31:0]                   lfsr_seed_i,
  input  logic                          cfg_favors_i,   // 1: FAvORS-Min output selection
  output logic [NumPorts*spin_pkg::DstW-1:0] rt_dst_o,
  input  logic [NumPorts*NumPorts-1:0]  rt_mask_i,
  input  logic [NumPorts*LinkW-1:0]     flit_i,
  input  logic [NumPorts*CredW-1:0]     credit_i,
  output logic [NumPorts*LinkW-1:0]     flit_o,
  output logic [NumPorts*CredW-1:0]     credit_o,
  output logic [NumPorts*NumVcs*OccW-1:0] occ_o
);
  // ---- parameter checks ----
  if (NumPorts < 2 || NumPorts > 8) begin : gen_check_ports
    $error("spin_router: NumPorts must be 2..8");
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

  // ---- input ports ----
  logic [NumPorts-1:0]               req, gnt;
  logic [NumPorts*PortW-1:0]         req_port;
  logic [NumPorts*spin_pkg::VcW-1:0] req_ovc;
  logic [NumPorts*LinkW-1:0]         req_flit;
  logic [NumPorts*CredW-1:0]         credit_d;
  logic [NumPorts-1:0]               win_valid;
  logic [NumPorts*PortW-1:0]         win;

  for (genvar p = 0; p < NumPorts; p++) begin : gen_input
    localparam int unsigned Rot = (5 * p) % 32;
    logic [7:0] draw;   // low byte of the LFSR rotated right by Rot
    assign draw = Rot == 0 ? lfsr[7:0] : 8'((lfsr >> Rot) | (lfsr << (32 - Rot)));
    spin_input_port #(
      .NumPorts(NumPorts), .NumVcs(NumVcs), .BufDepth(BufDepth),
      .FlitW(FlitW)
    ) u_input (
      .clk_i, .rst_ni,
      .flit_i       (flit_i[p*LinkW +: LinkW]),
      .rt_dst_o     (rt_dst_o[p*spin_pkg::DstW +: spin_pkg::DstW]),
      .rt_mask_i    (rt_mask_i[p*NumPorts +: NumPorts]),
      .port_free_i  (port_free),
      .draw_i       (draw),
      .least_busy_i (cfg_favors_i),
      .port_age_i   (port_age),
      .gnt_i        (gnt[p]),
      .gnt_ovc_i    (first_free[req_port[p*PortW +: PortW]*spin_pkg::VcW +: spin_pkg::VcW]),
      .req_o        (req[p]),
      .req_port_o   (req_port[p*PortW +: PortW]),
      .req_ovc_o    (req_ovc[p*spin_pkg::VcW +: spin_pkg::VcW]),
      .req_flit_o   (req_flit[p*LinkW +: LinkW]),
      .drew_o       (drew[p]),
      .credit_o     (credit_d[p*CredW +: CredW]),
      .occ_o        (occ_o[p*NumVcs*OccW +: NumVcs*OccW])
    );
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
    assign w      = win[o*PortW +: PortW];
    assign w_head = req_head[w];
    assign w_tail = req_tail[w];
    assign alloc[o]    = win_valid[o] && w_head;
    assign tail_out[o] = win_valid[o] && w_tail;
    assign ovc[o*spin_pkg::VcW +: spin_pkg::VcW] =
        w_head ? first_free[o*spin_pkg::VcW +: spin_pkg::VcW]
               : req_ovc[w*spin_pkg::VcW +: spin_pkg::VcW];

    spin_ovc_tracker #(.NumVcs(NumVcs), .Eject(o == 0)) u_ovc (
      .clk_i, .rst_ni,
      .alloc_i     (alloc[o]),
      .alloc_vc_i  (first_free[o*spin_pkg::VcW +: spin_pkg::VcW]),
      .tail_i      (tail_out[o]),
      .tail_vc_i   (ovc[o*spin_pkg::VcW +: spin_pkg::VcW]),
      .credit_i    (credit_i[o*CredW +: CredW]),
      .any_free_o  (port_free[o]),
      .first_free_o(first_free[o*spin_pkg::VcW +: spin_pkg::VcW]),
      .min_age_o   (port_age[o*8 +: 8])
    );
  end

  // ---- switch traversal into the output registers ----
  logic [NumPorts*LinkW-1:0] flit_d;
  spin_crossbar #(.NumPorts(NumPorts), .FlitW(FlitW)) u_crossbar (
    .in_flit_i  (req_flit),
    .win_valid_i(win_valid),
    .win_i      (win),
    .ovc_i      (ovc),
    .out_flit_o (flit_d)
  );

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      flit_o   <= '0;
      credit_o <= '0;
    end else begin
      flit_o   <= flit_d;
      credit_o <= credit_d;
    end
  end
endmodule

`default_nettype wire
