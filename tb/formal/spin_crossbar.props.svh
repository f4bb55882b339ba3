// Formal properties of spin_crossbar (docs/formal.md), spliced into a copy
// of the module by tb/formal/formal.py (see spin_rr_arbiter.props.svh).
// Contract: a selected output names a real input port.  Combinational: the
// proof is complete at depth 1.
  logic [NumPorts-1:0] fv_sel_ok;
  for (genvar o = 0; o < NumPorts; o++) begin : gen_fv_sel
    assign fv_sel_ok[o] = !win_valid_i[o] || 32'(win_i[o*PortW +: PortW]) < NumPorts;
  end
`ifdef FV_TOP
  always_comb WinInRange_M: assume (&fv_sel_ok);
`else
  always_comb WinInRange_A: assert (&fv_sel_ok);
`endif
`ifdef FV_FULL
  // Output o carries input p's word when p won o: data, head, tail and kind
  // unchanged, the VC field replaced by ovc_i[o]; an idle word otherwise.
  localparam int unsigned FvVcW = spin_pkg::VcW;
  logic [NumPorts-1:0] fv_pass_ok, fv_idle_ok;
  for (genvar o = 0; o < NumPorts; o++) begin : gen_fv_out
    logic [LinkW-1:0]    out;
    logic [NumPorts-1:0] same;
    assign out = out_flit_o[o*LinkW +: LinkW];
    for (genvar p = 0; p < NumPorts; p++) begin : gen_in
      logic [LinkW-1:0] in;
      assign in = in_flit_i[p*LinkW +: LinkW];
      assign same[p] = win_i[o*PortW +: PortW] != PortW'(p) ||
                       (out[FlitW-1:0] == in[FlitW-1:0] &&
                        out[FlitW+FvVcW +: LinkW-FlitW-FvVcW] == in[FlitW+FvVcW +: LinkW-FlitW-FvVcW] &&
                        out[FlitW +: FvVcW] == ovc_i[o*FvVcW +: FvVcW]);
    end
    assign fv_pass_ok[o] = !win_valid_i[o] || &same;
    assign fv_idle_ok[o] = win_valid_i[o] || out == '0;
  end
  always_comb begin
    PassSelected_A: assert (&fv_pass_ok);
    IdleUnselected_A: assert (&fv_idle_ok);
  end
`endif
