// Formal properties of spin_switch_alloc (docs/formal.md), spliced into a
// copy of the module by tb/formal/formal.py (see spin_rr_arbiter.props.svh).
// Contract: a requesting input names a real output port.
`ifdef FV_TOP
  always_comb if ($initstate) Reset_M: assume (!rst_ni);
`endif
  logic [NumPorts-1:0] fv_port_ok;
  for (genvar p = 0; p < NumPorts; p++) begin : gen_fv_port
    assign fv_port_ok[p] = !req_i[p] || 32'(req_port_i[p*PortW +: PortW]) < NumPorts;
  end
`ifdef FV_TOP
  always_comb if (rst_ni) ReqPortInRange_M: assume (&fv_port_ok);
`else
  always_comb if (rst_ni) ReqPortInRange_A: assert (&fv_port_ok);
`endif
`ifdef FV_FULL
  // Per output o: its winner requests o, and o has a winner whenever some
  // input requests it; at most one input is granted o, and it is the winner.
  logic [NumPorts-1:0] fv_win_ok, fv_work_ok, fv_one_ok, fv_told_ok;
  for (genvar o = 0; o < NumPorts; o++) begin : gen_fv_out
    logic [PortW-1:0]    w;
    logic [NumPorts-1:0] asks, granted;
    assign w = win_o[o*PortW +: PortW];
    for (genvar p = 0; p < NumPorts; p++) begin : gen_in
      assign asks[p]    = req_i[p] && 32'(req_port_i[p*PortW +: PortW]) == o;
      assign granted[p] = gnt_o[p] && 32'(req_port_i[p*PortW +: PortW]) == o;
    end
    assign fv_win_ok[o]  = !win_valid_o[o] || (32'(w) < NumPorts && asks[w]);
    assign fv_work_ok[o] = win_valid_o[o] == (asks != '0);
    assign fv_one_ok[o]  = (granted & (granted - 1'b1)) == '0;
    assign fv_told_ok[o] = !win_valid_o[o] || gnt_o[w];
  end
  // Per input p: a grant goes only to a request, and names p's output's
  // winner.  Fairness: wait_q[p] counts the cycles p has asked for the same
  // output without a grant; with every output's pointer updated on each
  // grant, p is granted within NumPorts cycles.
  logic [NumPorts-1:0] fv_gnt_ok, fv_fair_ok;
  logic [PortW-1:0]    fv_last_q [NumPorts];
  logic [PortW:0]      fv_wait_q [NumPorts];
  for (genvar p = 0; p < NumPorts; p++) begin : gen_fv_in
    logic [PortW-1:0] o;
    assign o = req_port_i[p*PortW +: PortW];
    assign fv_gnt_ok[p] = !gnt_o[p] || (req_i[p] && win_valid_o[o] &&
                                        win_o[o*PortW +: PortW] == PortW'(p));
    always_ff @(posedge clk_i) begin
      fv_last_q[p] <= o;
      if (!rst_ni || !req_i[p] || gnt_o[p]) fv_wait_q[p] <= '0;
      else if (fv_wait_q[p] != '0 && fv_last_q[p] != o) fv_wait_q[p] <= (PortW + 1)'(1);
      else fv_wait_q[p] <= fv_wait_q[p] + 1'b1;
    end
    assign fv_fair_ok[p] = 32'(fv_wait_q[p]) < NumPorts;
  end
  always_comb begin
    if (rst_ni) begin
      WinIsReq_A: assert (&fv_win_ok);
      WinIfReq_A: assert (&fv_work_ok);
      OneGrantPerOutput_A: assert (&fv_one_ok);
      WinnerGranted_A: assert (&fv_told_ok);
      GntIsWin_A: assert (&fv_gnt_ok);
      NoStarve_A: assert (&fv_fair_ok);
    end
  end
`endif
