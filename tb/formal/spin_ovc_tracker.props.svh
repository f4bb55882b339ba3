// Formal properties of spin_ovc_tracker (docs/formal.md), spliced into a
// copy of the module by tb/formal/formal.py (see spin_rr_arbiter.props.svh).
// Contract (the router's obligations, assumed when the tracker is proven
// alone, asserted inside the router): a head takes a free VC (a VC is never
// allocated twice; with early_i, a VC whose credit arrives now counts as
// free), a credit frees only a busy VC, an ejection tail leaves a
// VC its head holds, every VC named exists.
`ifdef FV_TOP
  always_comb if ($initstate) Reset_M: assume (!rst_ni);
`endif
  logic fv_alloc_free, fv_credit_busy, fv_tail_busy, fv_vc_range;
  logic fv_cred;
  assign fv_cred        = credit_i[spin_pkg::CredValid];
  assign fv_alloc_free  = !(alloc_i && busy[alloc_vc_i[VcIdxW-1:0]]);
  assign fv_credit_busy = Eject || !(fv_cred && !busy_q[credit_i[VcIdxW-1:0]]);
  assign fv_tail_busy   = !Eject || !tail_i || busy_q[tail_vc_i[VcIdxW-1:0]] ||
                          (alloc_i && alloc_vc_i == tail_vc_i);
  assign fv_vc_range    = !(alloc_i && 32'(alloc_vc_i) >= NumVcs) &&
                          !(Eject && tail_i && 32'(tail_vc_i) >= NumVcs) &&
                          !(!Eject && fv_cred && 32'(credit_i[spin_pkg::VcW-1:0]) >= NumVcs);
`ifdef FV_TOP
  always_comb begin
    if (rst_ni) begin
      AllocFree_M: assume (fv_alloc_free);
      CreditBusy_M: assume (fv_credit_busy);
      TailBusy_M: assume (fv_tail_busy);
      VcInRange_M: assume (fv_vc_range);
    end
  end
`else
  always_comb begin
    if (rst_ni) begin
      AllocFree_A: assert (fv_alloc_free);
      CreditBusy_A: assert (fv_credit_busy);
      TailBusy_A: assert (fv_tail_busy);
      VcInRange_A: assert (fv_vc_range);
    end
  end
`endif
`ifdef FV_FULL
  // Next state, recomputed from the inputs: allocated VCs become busy, freed
  // ones (credit, or ejected tail) free; at the ejection port freeing wins (a
  // 1-flit packet leaves its VC free), at a network port allocation wins (with
  // early_i a head may take the VC its credit frees in the same cycle).  The
  // busy VCs of the cycle: busy_q, less the credited one with early_i.
  logic [NumVcs-1:0] fv_set, fv_clr, fv_busy_exp_q, fv_busy;
  logic              fv_chk_q;
  always_comb begin
    fv_set = '0;
    fv_clr = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      fv_set[v] = alloc_i && 32'(alloc_vc_i) == v;
      fv_clr[v] = Eject ? tail_i && 32'(tail_vc_i) == v : fv_cred && 32'(credit_i[1:0]) == v;
    end
    fv_busy = !Eject && early_i ? busy_q & ~fv_clr : busy_q;
  end
  always_ff @(posedge clk_i) begin
    fv_chk_q      <= rst_ni;
    fv_busy_exp_q <= Eject ? (busy_q | fv_set) & ~fv_clr : (busy_q & ~fv_clr) | fv_set;
  end

  // The outputs: free VCs, the lowest free VC, the lowest free VC above 0,
  // and the least age; each age is 0 while free, counts busy cycles from the
  // cycle after allocation, and saturates at 255.
  logic [NumVcs-1:0] fv_first_ok, fv_first_a_ok, fv_age_ok;
  logic [7:0]        fv_age_exp_q [NumVcs];
  logic [NumVcs-1:0] fv_min_ge, fv_min_eq;
  for (genvar v = 0; v < NumVcs; v++) begin : gen_fv_vc
    // v is below the first free VC: busy
    assign fv_first_ok[v]   = !(v < 32'(first_free_o) && !fv_busy[v]);
    assign fv_first_a_ok[v] = !(v > 0 && v < 32'(first_free_a_o) && !fv_busy[v]);
    always_ff @(posedge clk_i) begin
      fv_age_exp_q[v] <= !((busy_q[v] || fv_set[v]) && !fv_clr[v]) ? 8'd0 :
                         fv_set[v] ? 8'd0 : age_q[v] == 8'hFF ? age_q[v] : age_q[v] + 8'd1;
    end
    assign fv_age_ok[v] = (busy_q[v] || age_q[v] == 8'd0) &&
                          (!fv_chk_q || age_q[v] == fv_age_exp_q[v]);
    assign fv_min_ge[v] = age_q[v] >= min_age_o;
    assign fv_min_eq[v] = age_q[v] == min_age_o;
  end
  logic fv_any_a;
  assign fv_any_a = NumVcs > 1 && (~fv_busy >> 1) != '0;
  always_comb begin
    if (rst_ni) begin
      if (fv_chk_q) BusyNext_A: assert (busy_q == fv_busy_exp_q);
      FreeIsIdle_A: assert (free_o == ~fv_busy && any_free_o == (~fv_busy != '0));
      FirstFree_A: assert (any_free_o ? 32'(first_free_o) < NumVcs && !fv_busy[first_free_o[VcIdxW-1:0]] &&
                                        &fv_first_ok
                                      : first_free_o == '0);
      FirstFreeA_A: assert (fv_any_a ? 32'(first_free_a_o) < NumVcs && first_free_a_o != '0 &&
                                       !fv_busy[first_free_a_o[VcIdxW-1:0]] && &fv_first_a_ok
                                     : first_free_a_o == '0);
      Age_A: assert (&fv_age_ok);
      MinAge_A: assert (&fv_min_ge && fv_min_eq != '0);
    end
  end
`endif
