// spin_switch_alloc: the output stage of the separable switch allocator.
// C twin: spin_switch_alloc_request() and spin_switch_alloc_grant() in
// cmodel/spin_switch_alloc.c.
//
// Each input port presents at most one request (req_i, req_port_i).  Each
// output port has a round-robin arbiter over the input ports; its pointer
// moves to winner + 1 whenever it grants.  gnt_o[p]: input p won its output;
// win_o/win_valid_o: the input port that won each output.
`default_nettype none

module spin_switch_alloc #(
  parameter int unsigned NumPorts = 5,
  localparam int unsigned PortW = $clog2(NumPorts)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [NumPorts-1:0]       req_i,
  input  logic [NumPorts*PortW-1:0] req_port_i,
  output logic [NumPorts-1:0]       gnt_o,
  output logic [NumPorts-1:0]       win_valid_o,
  output logic [NumPorts*PortW-1:0] win_o
);
  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    logic [NumPorts-1:0] oreq;
    for (genvar p = 0; p < NumPorts; p++) begin : gen_req
      assign oreq[p] = req_i[p] && req_port_i[p*PortW +: PortW] == PortW'(o);
    end
    spin_rr_arbiter #(.N(NumPorts)) u_arb (
      .clk_i, .rst_ni,
      .req_i      (oreq),
      .update_i   (1'b1),
      .gnt_valid_o(win_valid_o[o]),
      .gnt_idx_o  (win_o[o*PortW +: PortW])
    );
  end

  for (genvar p = 0; p < NumPorts; p++) begin : gen_gnt
    logic [PortW-1:0] o;
    assign o = req_port_i[p*PortW +: PortW];
    assign gnt_o[p] = req_i[p] && win_valid_o[o] && win_o[o*PortW +: PortW] == PortW'(p);
  end
endmodule

`default_nettype wire
