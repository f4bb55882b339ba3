// spin_mut_tb.h - the SPIN state record in the unit benches of the SPIN
// modules that take it (rtl/spin_pkg.sv, spin_mut_t): its bit layout, a
// random draw of its recovery fields, and its packing onto a port.
#ifndef SPIN_MUT_TB_H
#define SPIN_MUT_TB_H

#include "unit_tb.h"

extern "C" {
#include "spin.h"
}

// spin_mut_t's fields, its last field at bit 0
const unsigned kMutArmed = 0, kMutFrozen = 32, kMutPmSent = 64, kMutSource = 65, kMutIsDl = 77,
               kMutCntLoaded = 78, kMutCnt = 79, kMutState = 95;

// A router in any state, mostly free or frozen (then mostly in a recovery)
// for one of nodes senders: state, recovery bit, source, probe_move sent,
// counter; the rest of *s zero.
inline void draw_spin_state(Rng& rng, unsigned nodes, spin_router_t* s) {
  static const spin_state_t states[] = {FSM_OFF,  FSM_DD,         FSM_DD,        FSM_FROZEN,
                                        FSM_MOVE, FSM_PROBE_MOVE, FSM_KILL_MOVE, FSM_FROZEN,
                                        FSM_FORWARD_PROGRESS};
  std::memset(s, 0, sizeof *s);
  s->state_q = states[rng.below(9)];
  s->is_deadlock_q = s->state_q == FSM_FROZEN ? rng.pct(90) : rng.pct(20);
  s->source_id_q = static_cast<uint16_t>(rng.below(nodes));
  s->pm_sent_q = rng.pct(50);
  s->cnt_q = static_cast<uint16_t>(rng.below(65536));
}

// s as a spin_mut_t on port st (a 98-bit VlWide), with the frozen and armed
// VCs as masks (bit p * 4 + v).
template <class W>
void put_spin_mut(W& st, const spin_router_t& s, bool cnt_loaded, uint32_t frozen,
                  uint32_t armed) {
  for (int i = 0; i < 4; i++) st[i] = 0;
  put_bits(st, kMutState, 3, static_cast<uint64_t>(s.state_q));
  put_bits(st, kMutCnt, 16, s.cnt_q);
  put_bits(st, kMutCntLoaded, 1, cnt_loaded);
  put_bits(st, kMutIsDl, 1, s.is_deadlock_q);
  put_bits(st, kMutSource, 12, s.source_id_q);
  put_bits(st, kMutPmSent, 1, s.pm_sent_q);
  put_bits(st, kMutFrozen, 32, frozen);
  put_bits(st, kMutArmed, 32, armed);
}

#endif  // SPIN_MUT_TB_H
