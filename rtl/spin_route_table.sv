// spin_route_table: one router's routing table, read by its input ports.
// C twin: spin_route_table() in cmodel/spin_route_table.c.  The rows it reads
// are network_t's (cmodel/network.c), filled by topo_route_masks()
// (cmodel/topology.c).
//
// table_i holds NumNodes entries of EntryW bits, destination d at
// [d*EntryW +: EntryW]: one mask of NumPorts bits, or with escape routing
// {mask_e, mask_a} (EntryW = 2*NumPorts); it is configuration, constant during a run (in
// the network top it is an input, so one build serves every routing
// function).  Each of the NumPorts lookups is combinational.
`default_nettype none

module spin_route_table #(
  parameter int unsigned NumNodes = 64,
  parameter int unsigned NumPorts = 5,
  parameter int unsigned EntryW   = NumPorts
) (
  input  logic [NumNodes*EntryW-1:0]         table_i,
  input  logic [NumPorts*spin_pkg::DstW-1:0] dst_i,
  output logic [NumPorts*EntryW-1:0]         mask_o
);
  if (NumNodes < 1 || NumNodes > 65536) begin : gen_check_nodes
    $error("spin_route_table: NumNodes must be 1..65536 (16-bit destinations)");
  end

  for (genvar p = 0; p < NumPorts; p++) begin : gen_lookup
    logic [spin_pkg::DstW-1:0] d;
    assign d = dst_i[p*spin_pkg::DstW +: spin_pkg::DstW];
    // A destination outside the network reads as no port (the router asserts
    // that a mask is never empty).
    assign mask_o[p*EntryW +: EntryW] =
        32'(d) < NumNodes ? table_i[32'(d)*EntryW +: EntryW] : '0;
  end
endmodule

`default_nettype wire
