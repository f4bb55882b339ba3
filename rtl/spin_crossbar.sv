// spin_crossbar: moves the winning input's flit to each output port and
// stamps the downstream VC into it.  C twin: spin_crossbar() in
// cmodel/spin_crossbar.c.  Outputs with no winner carry an idle word.
`default_nettype none

module spin_crossbar #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned FlitW    = 64,
  localparam int unsigned LinkW   = FlitW + spin_pkg::CtlW,
  localparam int unsigned PortW   = $clog2(NumPorts)
) (
  input  logic [NumPorts*LinkW-1:0]         in_flit_i,
  input  logic [NumPorts-1:0]               win_valid_i,
  input  logic [NumPorts*PortW-1:0]         win_i,
  input  logic [NumPorts*spin_pkg::VcW-1:0] ovc_i,       // per output
  output logic [NumPorts*LinkW-1:0]         out_flit_o
);
  // An AND-OR multiplexer: each input's word ANDed with its select (at most
  // one is set), ORed.  Written so, it maps to the same cells whether the
  // winner comes from switch allocation alone or also from a spin flit
  // (spin_router): an indexed read of win_i, with SPIN built in, mapped
  // about 5% of the 1-VC router's area larger (Yosys 0.23, ABC, FreePDK45).
  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    logic [NumPorts-1:0] sel;
    logic [LinkW-1:0]    f;
    always_comb begin
      f = '0;
      for (int unsigned p = 0; p < NumPorts; p++) begin
        sel[p] = win_valid_i[o] && 32'(win_i[o*PortW +: PortW]) == p;
        if (sel[p]) f = f | in_flit_i[p*LinkW +: LinkW];
      end
      if (win_valid_i[o]) f[FlitW +: spin_pkg::VcW] = ovc_i[o*spin_pkg::VcW +: spin_pkg::VcW];
    end
    assign out_flit_o[o*LinkW +: LinkW] = f;
  end
endmodule

`default_nettype wire
