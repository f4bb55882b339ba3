// spin_probe_mgr: the probe manager of one input port
// (docs/microarchitecture.md, 12.3).  C twin: spin_probe_in() in
// cmodel/spin_probe_mgr.c (spin_unit_pre() hands it the probes).
//
// Combinational but for the mark (below).  A probe on this port is forked: one
// copy, with that port appended to its path, to each distinct output port that
// the VCs at this port wait for (ejection excluded).  The copies differ only in
// the appended entry, so this module gives one word (n already counted, the new
// entry still 0) and the outputs it goes to; each output's spin_sm_arb writes
// its own port into the entry (none past the recorded path: 1 VC per port only,
// up to SmMaxLoop hops), and adds its link's extra cycles to the probe's x.
// It is dropped when the router is in a recovery,
// outranks the sender, the loop is too long (n + x >= SmMaxLoop: no loop of
// that many cycles can be taken), a VC here is empty or has no
// route, or every VC here waits for ejection.  The router's own probe is
// forwarded the same way (a figure 8 through this router).  spin_unit_pre()
// does not hand this manager the own probe that just confirmed the loop (the
// router in MOVE with that very loop latched); here no test is needed for
// it: in MOVE every probe is dropped (the recovery test), and a dropped
// probe leaves the mark alone, so the result is the same (the unit bench
// checks it against spin_unit_pre()'s rule).  It sees the SPIN state after
// the cycle's moves, probe_moves and kill_moves (st_i).
// Its one piece of state, the mark: the sender, n and x of the last probe it
// forwarded.  A probe of the same sender with a larger n has come round a
// loop through this port that does not pass its sender.  With adoption
// (adopt_en_i) the router takes that loop as its own when it is in DD
// without a recovery, its own entry (n of the mark) is recorded, and a VC
// here waits for that entry's port: adopt_o, and the unit hands the loop to
// the FSM (the lowest adopting port wins; kill_i tells the higher ones, whose
// probes are then dropped and leave their marks alone, as the C model
// handles the ports in order).
// Otherwise the probe is dropped.
`default_nettype none

module spin_probe_mgr #(
  parameter int unsigned NumPorts = 5,
  parameter int unsigned NumVcs   = 1,
  parameter int unsigned Port     = 1,
  localparam int unsigned OfferW  = spin_pkg::KindW + spin_pkg::SmW
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  spin_pkg::spin_mut_t             st_i,
  input  logic [spin_pkg::IdW-1:0]        id_i,
  input  logic [spin_pkg::IdW-1:0]        top_i,       // the router of top priority
  input  logic                            adopt_en_i,  // probe adoption on
  input  logic                            kill_i,      // a lower port adopted a loop
  input  logic [spin_pkg::KindW-1:0]      kind_i,
  input  logic [spin_pkg::SmW-1:0]        data_i,
  input  logic [spin_pkg::MaxPv-1:0]      cnt_nz_i,    // VC holds flits
  input  logic [spin_pkg::MaxPv-1:0]      rv_i,        // VC has a route
  input  logic [3*spin_pkg::MaxPv-1:0]    op_i,
  output logic [NumPorts-1:0]             offer_valid_o,
  output logic [OfferW-1:0]               offer_o,     // {kind, data}, for every output
  output logic                            adopt_o,     // this port adopts the probe's loop
  output logic [1:0]                      adopt_vc_o,  // the loop's VC here
  output logic [5:0]                      adopt_start_o, // this router's entry (mark n)
  output logic [5:0]                      adopt_cyc_o,   // cycles round the adopted loop
  output logic [2:0]                      adopt_port0_o, // and its output
  output spin_pkg::obs_port_t             obs_o        // the mark, for the observation word
);
  if (Port < 1 || Port >= NumPorts) begin : gen_check_port
    $error("spin_probe_mgr: Port must be a network port, 1..NumPorts-1");
  end

  logic [spin_pkg::IdW-1:0]     sender;
  logic [5:0]                   n;
  logic [6:0]                   x;
  logic [spin_pkg::SmPathW-1:0] path;
  logic [NumPorts-1:0]          ports;
  logic                         drop, circled, found;
  logic [spin_pkg::IdW-1:0]     mark_sender_q;
  logic [5:0]                   mark_n_q, mark_x_q;
  logic [2:0]                   vop, o1;

  always_comb begin
    sender    = data_i[spin_pkg::SmSenderLsb +: spin_pkg::IdW];
    n         = data_i[spin_pkg::SmNLsb +: 6];
    x         = data_i[spin_pkg::SmDelayLsb +: 7];
    path      = data_i[spin_pkg::SmPathLsb +: spin_pkg::SmPathW];
    drop = kind_i != spin_pkg::KindProbe || st_i.is_deadlock ||
           (st_i.state != spin_pkg::StOff && st_i.state != spin_pkg::StDd) ||
           spin_pkg::sm_prio_key(id_i, top_i) > spin_pkg::sm_prio_key(sender, top_i) ||
           32'(n) + 32'(x) >= spin_pkg::SmMaxLoop ||
           (32'(n) >= spin_pkg::SmMaxPath && NumVcs != 1);
    ports = '0;
    for (int unsigned v = 0; v < NumVcs; v++) begin
      vop = op_i[(Port*spin_pkg::MaxVcs+v)*3 +: 3];
      if (!cnt_nz_i[Port*spin_pkg::MaxVcs+v] || !rv_i[Port*spin_pkg::MaxVcs+v]) drop = 1'b1;
      else if (vop != '0) ports[vop[$clog2(NumPorts)-1:0]] = 1'b1;
    end
    if (ports == '0) drop = 1'b1;
    circled = mark_n_q != '0 && mark_sender_q == sender && n > mark_n_q;

    // adoption: the VC here that waits for this router's own entry
    o1    = spin_pkg::path_entry(path, mark_n_q);
    found = 1'b0;
    adopt_vc_o = '0;
    for (int unsigned v = 0; v < NumVcs; v++)
      if (!found && cnt_nz_i[Port*spin_pkg::MaxVcs+v] && rv_i[Port*spin_pkg::MaxVcs+v] &&
          op_i[(Port*spin_pkg::MaxVcs+v)*3 +: 3] == o1) begin
        found      = 1'b1;
        adopt_vc_o = 2'(v);
      end
    adopt_o = adopt_en_i && !drop && circled && 32'(mark_n_q) < spin_pkg::SmMaxPath &&
              st_i.state == spin_pkg::StDd && found;
    adopt_start_o = mark_n_q;
    adopt_port0_o = o1;
    // n + x < SmMaxLoop here (else dropped), and x >= mark_x (x only grows)
    adopt_cyc_o   = n - mark_n_q + x[5:0] - mark_x_q;

    offer_o = {spin_pkg::KindProbe, spin_pkg::sm_word(sender, n + 1'b1, x, 6'd0, path)};
  end

  // kill_i: a lower port adopted a loop, so the router is no longer in DD for
  // this probe (adopt_o above does not depend on it: the unit takes the
  // lowest adopting port; kept apart so no combinational loop is seen)
  logic drop_all;
  assign drop_all      = drop || kill_i;
  assign offer_valid_o = drop_all || circled ? '0 : ports;

  always_comb begin
    obs_o.mark_x      = mark_x_q;
    obs_o.mark_n      = mark_n_q;
    obs_o.mark_sender = mark_sender_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      mark_sender_q <= '0;
      mark_n_q      <= '0;
      mark_x_q      <= '0;
    end else if (!drop_all && !circled) begin
      mark_sender_q <= sender;
      mark_n_q      <= n;
      mark_x_q      <= x[5:0];
    end
  end
endmodule

`default_nettype wire
