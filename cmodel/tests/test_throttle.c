/* test_throttle.c - the recovery throttle (docs/microarchitecture.md,
 * section 8; cmodel/throttle.h).  Its rule step by step (on past an eighth
 * of an epoch spent recovering, off after an epoch with none, off after
 * epochs skipped as idle); then a faulted mesh past saturation watched
 * cycle by cycle against a twin of the rule written here from the contract:
 * the model's throttle is the twin's in every cycle, it turns on and off
 * again, while on every router has injection admission and occupancy
 * admission and a node starts a packet only with none in flight, and every
 * packet is delivered; a run that forms no deadlock is the same cycle for
 * cycle with the throttle and without; the modes' values.  Prints one line
 * per failed check and ends with "N passed, N failed". */
#include <stdio.h>
#include <string.h>
#include "flit.h"
#include "sim.h"
#include "throttle.h"
#include "check.h"
#include "opts.h"

/* Steps cycles from..to-1 of t, the first `rec` of them recovering;
 * returns the state in the last. */
static int steps(throttle_t *t, uint64_t from, uint64_t to, uint64_t rec)
{
  int on = 0;
  uint64_t c;
  for (c = from; c < to; c++) on = throttle_step(t, c, c - from < rec);
  return on;
}

static void rule(void)
{
  throttle_t t;
  throttle_init(&t, 0);
  CHECK(steps(&t, 0, 100, 100) == 0, "epoch 0: the throttle turned on");
  throttle_init(&t, 16);
  CHECK(steps(&t, 0, 16, 2) == 0, "on in the first epoch");
  /* 2 of 16 cycles (an eighth, not more) do not turn it on; 3 do */
  CHECK(steps(&t, 16, 17, 3) == 0, "on after 2 recovering cycles of 16");
  CHECK(steps(&t, 17, 32, 2) == 0 && throttle_step(&t, 32, 0) == 1,
        "not on after 3 recovering cycles of 16");
  CHECK(t.turned_on == 1, "turned on %llu times", (unsigned long long)t.turned_on);
  /* one recovering cycle keeps it on; an epoch with none turns it off */
  CHECK(steps(&t, 33, 48, 1) == 1 && throttle_step(&t, 48, 0) == 1, "off after 1 recovering cycle");
  CHECK(steps(&t, 49, 64, 0) == 1 && throttle_step(&t, 64, 0) == 0,
        "still on after an epoch without recovery");
  CHECK(t.on_cycles == 32, "on for %llu cycles, not 32", (unsigned long long)t.on_cycles);
  /* an epoch skipped (idle: nothing recovers) turns it off */
  throttle_init(&t, 16);
  steps(&t, 0, 16, 16);
  CHECK(throttle_step(&t, 16, 1) == 1, "not on after a whole epoch of recovery");
  CHECK(steps(&t, 17, 32, 15) == 1 && throttle_step(&t, 48, 0) == 0,
        "on after an epoch skipped");
}

/* The contract's rule, kept apart from the model's. */
typedef struct {
  uint64_t epoch, count, last;
  int on;
} twin_t;

static void twin_step(twin_t *w, uint64_t now, int recovering)
{
  if (now / w->epoch != w->last / w->epoch) {
    const uint64_t gap = now / w->epoch - w->last / w->epoch;
    w->on = gap > 1 ? 0 : w->on ? w->count > 0 : w->count * 8 > w->epoch;
    w->count = 0;
  }
  w->last = now;
  if (recovering) w->count++;
}

static int recovering(const sim_t *s)
{
  int r;
  for (r = 0; r < s->net.n; r++) {
    const spin_state_t st = s->net.rt[r].sp.state_q;
    if (st == FSM_MOVE || st == FSM_PROBE_MOVE || st == FSM_FORWARD_PROGRESS ||
        st == FSM_KILL_MOVE || st == FSM_FROZEN)
      return 1;
  }
  return 0;
}

static void base(sim_opts_t *o, double rate, const char *faults, int throttle)
{
  opts_favors_spin(o, "mesh8x8", rate, 5000);
  sim_set_mode(o, 1);
  o->faults = faults;
  o->mode.throttle = throttle;
}

static void watched(void)
{
  static const char *faults = "0@9:1,0@12:3,0@18:2,0@21:4,0@27:1,0@30:3,0@36:2,0@42:1,"
                              "0@45:4,0@50:3,0@53:1,0@19:4";
  sim_opts_t o;
  sim_t s;
  twin_t w = {256, 0, 0, 0};
  uint64_t bad_twin = 0, bad_admit = 0, bad_start = 0, starts_on = 0, on = 0, flips = 0;
  int r, was = 0;
  sim_status_t st;
  base(&o, 0.3, faults, 256);
  if (!CHECK(sim_init(&s, &o, 1) == 0, "sim_init: %s", s.err)) return;
  do {
    twin_step(&w, s.now, recovering(&s));
    sim_cycle_pre(&s);
    if (s.thr.on != w.on) bad_twin++;
    if (w.on != was) flips++;
    was = w.on;
    if (w.on) {
      on++;
      for (r = 0; r < s.net.n; r++)
        if (!s.net.cfg[r].admit || s.net.cfg[r].admit_occ < 1) bad_admit++;
      for (r = 0; r < s.topo.nodes; r++) {
        const flit_t *f = &s.nic.inj_next[r];
        if (CTL_KIND(f->ctl) != KIND_FLIT || !CTL_HEAD(f->ctl)) continue;
        starts_on++;
        if (s.nic.src[r].flight != 1) bad_start++;
      }
    }
    net_step(&s.net);
    if (sim_cycle_post(&s) != 0) break;
    st = sim_status(&s);
  } while (st == SIM_RUNNING);
  CHECK(st == SIM_DRAINED && s.sink.delivered == s.nic.created,
        "status %d, %llu of %llu delivered", (int)st, (unsigned long long)s.sink.delivered,
        (unsigned long long)s.nic.created);
  CHECK(bad_twin == 0, "the throttle unlike the twin's in %llu cycles", (unsigned long long)bad_twin);
  CHECK(on > 0 && flips >= 2, "on %llu cycles, %llu changes: never on, or never off again",
        (unsigned long long)on, (unsigned long long)flips);
  CHECK(bad_admit == 0, "%llu router-cycles throttled without admission", (unsigned long long)bad_admit);
  CHECK(starts_on > 0 && bad_start == 0, "%llu of %llu starts while throttled beside another packet",
        (unsigned long long)bad_start, (unsigned long long)starts_on);
  CHECK(s.thr.turned_on * 2 >= flips && s.thr.turned_on > 0, "turned on %llu times, %llu changes",
        (unsigned long long)s.thr.turned_on, (unsigned long long)flips);
  sim_free(&s);
}

/* No deadlock, no throttle: the same run, cycle for cycle. */
static void idle_throttle(void)
{
  sim_opts_t o;
  sim_t a, b;
  base(&o, 0.08, NULL, 256);
  CHECK(sim_init(&a, &o, 1) == 0 && sim_run(&a) == SIM_DRAINED, "throttle: %s", a.err);
  o.mode.throttle = 0;
  CHECK(sim_init(&b, &o, 1) == 0 && sim_run(&b) == SIM_DRAINED, "no throttle: %s", b.err);
  CHECK(a.thr.on_cycles == 0 && a.now == b.now && a.sink.lat_sum == b.sink.lat_sum &&
        a.sink.delivered == b.sink.delivered, "with the throttle (on %llu cycles) %llu cycles, "
        "without %llu", (unsigned long long)a.thr.on_cycles, (unsigned long long)a.now,
        (unsigned long long)b.now);
  sim_free(&a);
  sim_free(&b);
}

static void modes(void)
{
  sim_opts_t o;
  sim_defaults(&o);
  CHECK(o.mode.throttle == 0, "library default %d", o.mode.throttle);
  sim_set_mode(&o, 1);
  CHECK(o.mode.throttle == 4096, "live mode %d", o.mode.throttle);
  sim_set_mode(&o, 0);
  CHECK(o.mode.throttle == 0, "paper mode %d", o.mode.throttle);
}

int main(void)
{
  rule();
  watched();
  idle_throttle();
  modes();
  return check_done();
}
