// spin_route_select: picks one output port from a routing-table mask.
// C twin: select_port() in cmodel/lfsr.h; used by spin_input_port.
//
// cand = mask_i & port_free_i, or mask_i when that is empty.  With one
// candidate it is taken and nothing is drawn; with n > 1 the
// ((draw_i * n) >> 8)-th candidate (0-based from port 0 up) is taken and
// drew_o is high.  mask_i must not be 0 (asserted by the caller).
`default_nettype none

module spin_route_select #(
  parameter int unsigned NumPorts = 5,
  localparam int unsigned PortW = $clog2(NumPorts)
) (
  input  logic [NumPorts-1:0] mask_i,
  input  logic [NumPorts-1:0] port_free_i,
  input  logic [7:0]          draw_i,
  output logic [PortW-1:0]    port_o,
  output logic                drew_o
);
  localparam int unsigned CntW = $clog2(NumPorts + 1);
  logic [NumPorts-1:0] cand;
  logic [CntW-1:0]     n;
  logic [CntW-1:0]     k;
  logic [CntW-1:0]     seen;
  logic                found;

  always_comb begin
    cand = mask_i & port_free_i;
    if (cand == '0) cand = mask_i;
    n = '0;
    for (int unsigned p = 0; p < NumPorts; p++) n = n + CntW'(cand[p]);
    k      = n > CntW'(1) ? CntW'(((CntW + 8)'(draw_i) * (CntW + 8)'(n)) >> 8) : '0;
    drew_o = n > CntW'(1);
    port_o = '0;
    seen   = '0;
    found  = 1'b0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (cand[p] && !found) begin
        if (seen == k) begin
          port_o = PortW'(p);
          found  = 1'b1;
        end
        seen = seen + 1'b1;
      end
    end
  end
endmodule

`default_nettype wire
