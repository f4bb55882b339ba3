# Router configurations synthesized by `make synth` (read by synth/synth.mk).
#
# One line per configuration:
#   $(call synth_config, NAME, NumVcs, EXTRA)
# NAME    directory under build/synth/ and row of the summary ([a-z0-9_]+)
# NumVcs  virtual channels per input port (1..4)
# EXTRA   further router parameters, space separated, as -GName=Value with an
#         integer Value (e.g. -GEscapeVc=1); may be empty.  An unknown
#         parameter name stops Yosys with "Can't find object for defparam".
# Every configuration also gets NumPorts=$(SYNTH_PORTS), BufDepth=$(SYNTH_DEPTH),
# FlitW=$(SYNTH_FLITW) (set in synth/synth.mk: 5, 5, 128).
#
# Routing (xy, west-first) is the content of the route table, which sits
# outside the router (spin_route_table), so xy_1vc and wf_1vc are the same
# router logic.  Both names stay because later rows (escape VC, SPIN) differ
# by parameters.  Rows whose NumVcs and EXTRA equal an earlier row are
# synthesized once and copied (see SYNTH_DEDUP in synth/synth.mk).

$(call synth_config, xy_1vc, 1, )
$(call synth_config, wf_1vc, 1, )
$(call synth_config, wf_2vc, 2, )
$(call synth_config, wf_3vc, 3, )
# (SPIN rows: not built yet) -- e.g. escape-VC and SPIN variants, once the
# router has the parameters for them:
#   $(call synth_config, wf_2vc_esc,  2, -GEscapeVc=1)
#   $(call synth_config, wf_1vc_spin, 1, -GSpin=1)

# "% smaller" table of the summary: BASE:OTHER pairs.
SYNTH_COMPARE ?= wf_1vc:wf_2vc wf_1vc:wf_3vc
