// Formal properties of spin_probe_mgr (docs/formal.md), spliced into a copy
// of the module by tb/formal/formal.py, inside the SPIN FSM's job
// (fv_spin_fsm.sv).  The probe manager has no contract of its own; FV_FULL:
// with several VCs, a mark's fork entry is one the message holds (fk <= K),
// and one below the last where the probe forked, so a loop adopted from the
// mark reads its entries from at most K on (12.4).
`ifdef FV_FULL
  logic fv_mark_fk_ok;
  always_comb begin
    fv_mark_fk_ok = 1'b1;
    for (int unsigned p = 0; p < NumPorts; p++)
      if (NumVcs > 1 &&
          (32'(mk_fk_q[p*6 +: 6]) > SmK ||
           ((mk_out_q[p*NumPorts +: NumPorts] & (mk_out_q[p*NumPorts +: NumPorts] - 1'b1)) != '0 &&
            32'(mk_fk_q[p*6 +: 6]) >= SmK)))
        fv_mark_fk_ok = 1'b0;
  end
  always_comb begin
    if (rst_ni) MarkFkInRange_A: assert (fv_mark_fk_ok);
  end
`endif
