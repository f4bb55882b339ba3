// spin_route_select: picks one output port from a routing-table mask.
// C twin: route_select() in cmodel/route_select.h (its draw: select_port() of
// cmodel/lfsr.h); used by spin_input_port.
//
// cand = mask_i & port_free_i.  When that is empty: with least_busy_i (FAvORS-
// Min) the port of mask_i whose downstream VC has been busy the fewest
// cycles (port_age_i, lowest port on a tie) is taken and nothing is drawn;
// otherwise cand = mask_i.  With one candidate it is taken and nothing is
// drawn; with n > 1 the ((draw_i * n) >> 8)-th candidate (0-based from port 0
// up) is taken and drew_o is high.  mask_i must not be 0 (asserted by the
// caller).
`default_nettype none

module spin_route_select #(
  parameter int unsigned NumPorts = 5,
  localparam int unsigned PortW = $clog2(NumPorts)
) (
  input  logic [NumPorts-1:0] mask_i,
  input  logic [NumPorts-1:0] port_free_i,
  input  logic [7:0]          draw_i,
  input  logic                least_busy_i,
  input  logic [NumPorts*8-1:0] port_age_i,
  output logic [PortW-1:0]    port_o,
  output logic                drew_o
);
  localparam int unsigned CntW = $clog2(NumPorts + 1);
  logic [NumPorts-1:0] cand;
  logic [CntW-1:0]     n;
  logic [CntW-1:0]     k;
  logic [CntW-1:0]     seen;
  logic                found;
  logic                use_age;
  logic [8:0]          best_age;
  logic [PortW-1:0]    best_port;

  always_comb begin
    cand    = mask_i & port_free_i;
    use_age = cand == '0 && least_busy_i;
    if (cand == '0) cand = mask_i;
    best_age  = 9'h100;
    best_port = '0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (mask_i[p] && {1'b0, port_age_i[p*8 +: 8]} < best_age) begin
        best_age  = {1'b0, port_age_i[p*8 +: 8]};
        best_port = PortW'(p);
      end
    end
    n = '0;
    for (int unsigned p = 0; p < NumPorts; p++) n = n + CntW'(cand[p]);
    k      = n > CntW'(1) ? CntW'(((CntW + 8)'(draw_i) * (CntW + 8)'(n)) >> 8) : '0;
    drew_o = n > CntW'(1) && !use_age;
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
    if (use_age) port_o = best_port;
  end
endmodule

`default_nettype wire
