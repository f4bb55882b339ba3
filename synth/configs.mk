# Router configurations synthesized by `make synth` (read by synth/synth.mk).
#
# One line per configuration:
#   $(call synth_config, NAME, NumVcs, EXTRA, RUN)
# NAME    directory under build/synth/ and row of the summary ([a-z0-9_]+)
# NumVcs  virtual channels per input port (1..4)
# EXTRA   further router parameters, space separated, as -GName=Value with an
#         integer Value (e.g. -GSpin=1); may be empty.  An unknown
#         parameter name stops Yosys with "Can't find object for defparam".
# RUN     co-simulation options of the run whose switching activity gives the
#         power (the routing, SPIN on or off); synth/synth.mk adds the
#         topology, --vcs NumVcs, the rate and the seed (SYNTH_ACT_*).
# Every configuration also gets NumPorts=$(SYNTH_PORTS), BufDepth=$(SYNTH_DEPTH),
# FlitW=$(SYNTH_FLITW) (set in synth/synth.mk: 5, 5, 128).
#
# Routing (xy, west-first, FAvORS-Min) is the content of the route table,
# which sits outside the router (spin_route_table), plus the cfg_favors_i
# input, so xy_1vc and wf_1vc are the same router logic.  Rows whose NumVcs
# and EXTRA equal an earlier row are synthesized once and copied (see
# SYNTH_DEDUP in synth/synth.mk).

$(call synth_config, xy_1vc, 1, , --routing xy)
$(call synth_config, wf_1vc, 1, , --routing west_first)
$(call synth_config, wf_2vc, 2, , --routing west_first)
$(call synth_config, wf_3vc, 3, , --routing west_first)
# SPIN built in (rtl/spin_unit.sv).  FAvORS-Min and minimal adaptive routing
# are route-table content plus the cfg_favors_i input, so without SPIN these
# are the wf_1vc and wf_3vc router logic: those rows are the "SPIN off" side.
$(call synth_config, favors_1vc_spin, 1, -GSpin=1, --routing favors_min --spin 1)
# The same with the paper's timing: no register on the special-message path
# (SmPipe = 0, contract 12.1; the default is 2).
$(call synth_config, favors_1vc_spin_p0, 1, -GSpin=1 -GSmPipe=0, --routing favors_min --spin 1 --sm-pipe 0)
$(call synth_config, minad_2vc_spin,  2, -GSpin=1, --routing favors_min --spin 1)
$(call synth_config, minad_3vc_spin,  3, -GSpin=1, --routing favors_min --spin 1)
# FAvORS-NMin built in (Nmin=1, contract 4.3): the route header's target
# mux and decision at port 0, a second route lookup, one via bit per VC.
$(call synth_config, nmin_1vc_spin, 1, -GSpin=1 -GNmin=1, --routing favors_nmin --spin 1)
# Escape-VC routing built in (Escape=1: per-VC route sets, a second port
# selector per input, VC 0 kept for the west-first escape network).
$(call synth_config, esc_2vc, 2, -GEscape=1, --routing escape)
$(call synth_config, esc_3vc, 3, -GEscape=1, --routing escape)

# Early credits built in (EarlyCredit=1, contract section 5: a downstream VC
# is free in the cycle its credit arrives), switched on in the activity run:
# every configuration above (but xy_1vc) once more, with SYNTH_EARLY=1 only
# (make synth stays within its time on 2 CPUs).  make ppa PPA_MODE=early
# reads these rows with the sweep's early points.
ifeq ($(SYNTH_EARLY),1)
$(call synth_config, wf_1vc_ec, 1, -GEarlyCredit=1, --routing west_first --early-credit 1)
$(call synth_config, wf_2vc_ec, 2, -GEarlyCredit=1, --routing west_first --early-credit 1)
$(call synth_config, wf_3vc_ec, 3, -GEarlyCredit=1, --routing west_first --early-credit 1)
$(call synth_config, favors_1vc_spin_ec, 1, -GSpin=1 -GEarlyCredit=1, --routing favors_min --spin 1 --early-credit 1)
$(call synth_config, minad_2vc_spin_ec, 2, -GSpin=1 -GEarlyCredit=1, --routing favors_min --spin 1 --early-credit 1)
$(call synth_config, minad_3vc_spin_ec, 3, -GSpin=1 -GEarlyCredit=1, --routing favors_min --spin 1 --early-credit 1)
$(call synth_config, nmin_1vc_spin_ec, 1, -GSpin=1 -GNmin=1 -GEarlyCredit=1, --routing favors_nmin --spin 1 --early-credit 1)
$(call synth_config, esc_2vc_ec, 2, -GEscape=1 -GEarlyCredit=1, --routing escape --early-credit 1)
$(call synth_config, esc_3vc_ec, 3, -GEscape=1 -GEarlyCredit=1, --routing escape --early-credit 1)
endif

# "% smaller" table of the summary: BASE:OTHER pairs.
SYNTH_COMPARE ?= wf_1vc:wf_2vc wf_1vc:wf_3vc favors_1vc_spin:wf_2vc favors_1vc_spin:wf_3vc \
                 favors_1vc_spin:esc_2vc favors_1vc_spin:esc_3vc minad_2vc_spin:esc_2vc \
                 minad_3vc_spin:esc_3vc
# SPIN overhead table: SPIN_OFF:SPIN_ON pairs, the same router without and
# with Spin=1.
SYNTH_SPIN_PAIRS ?= wf_1vc:favors_1vc_spin wf_1vc:favors_1vc_spin_p0 wf_2vc:minad_2vc_spin \
                    wf_3vc:minad_3vc_spin
