/* spin_sm_out.c - the special-message output stage
 * (docs/microarchitecture.md, 12.2): per output, the better of the handled
 * message's forwarding and the FSM's own message; with SmPipe = 1 the
 * winners are registered and go onto their links a cycle later.  A message
 * going onto a link changes as 12.1 says (spin_onto_link).  RTL twin:
 * rtl/spin_sm_out.sv (unit bench: tb/unit/spin_sm_out_tb.cpp). */
#include "spin.h"

static void dropped(unsigned kind, spin_stats_t *st);

/* The FSM offers one message a cycle: one it originates when its own
 * message comes home (step 4) replaces one of its counter (step 3), which
 * is dropped. */
void spin_offer_own(spin_ctx_t *c, unsigned o, const sm_t *m, spin_stats_t *st)
{
  if (c->own_out) dropped(c->own.kind, st);
  c->own_out = o;
  c->own = *m;
}

void spin_offer_fwd(spin_ctx_t *c, int p, unsigned mask, const sm_t *m, unsigned fork)
{
  c->fwd_mask = mask;
  c->fwd = *m;
  c->fwd_port = p;
  c->fwd_fork = fork;
}

static void dropped(unsigned kind, spin_stats_t *st)
{
  if (kind == KIND_PROBE) spin_drop_probe(st, DROP_CONTENTION);
  else st->moves_dropped++;
}

static void sent(unsigned kind, spin_stats_t *st)
{
  switch (kind) {
  case KIND_PROBE: st->probes_sent++; break;
  case KIND_MOVE: st->moves_sent++; break;
  case KIND_PROBE_MOVE: st->probe_moves_sent++; break;
  default: st->kill_moves_sent++; break;
  }
}

flit_t spin_onto_link(const sm_fmt_t *f, const sm_t *m, unsigned o, unsigned fork)
{
  sm_t x = *m;
  if (x.kind == KIND_PROBE && (fork & (fork - 1u))) {   /* forked here: which output this is */
    sm_set_fork(f, &x, x.fk, (unsigned)__builtin_popcount(fork & ((1u << o) - 1u)));
    x.fk++;
  }
  return sm_pack(f, &x);
}

void spin_hop_in(const sm_fmt_t *f, sm_t *m, unsigned xlat)
{
  const unsigned h = xlat + 1u + f->s;
  if (m->kind == KIND_PROBE) m->t += h;
  else m->t = m->t > h ? m->t - h : 0;
}

/* Per output, which offer wins (1 the handled message, 2 the FSM's, 0
 * none); the loser of a contested output is dropped. */
static void arbitrate(const spin_ctx_t *c, unsigned fwd, unsigned own, uint8_t *src,
                      spin_stats_t *st)
{
  int o;
  for (o = c->nics; o < c->ports; o++) {
    int f = fwd >> o & 1u, w = own >> o & 1u;
    src[o] = 0;
    if (f && w) {
      int rf = sm_rank(c->fwd.kind), rw = sm_rank(c->own.kind);
      int pf = spin_prio(c->cycle, c->tdd, c->nodes, (int)c->fwd.sender);
      int pw = spin_prio(c->cycle, c->tdd, c->nodes, (int)c->own.sender);
      int fwd_wins = rf != rw ? rf > rw : pf >= pw;   /* the handled message wins a tie */
      dropped(fwd_wins ? c->own.kind : c->fwd.kind, st);
      src[o] = fwd_wins ? 1 : 2;
    } else if (f) {
      src[o] = 1;
    } else if (w) {
      src[o] = 2;
    }
  }
}

/* Output o carries the offer src (1, 2) this cycle, unless a spin flit takes it. */
static void drive(spin_ctx_t *c, unsigned o, int src, const sm_t *fwd, unsigned fork,
                  const sm_t *own, spin_stats_t *st)
{
  const sm_t *m = src == 1 ? fwd : own;
  if (c->out_busy >> o & 1u) {
    dropped(m->kind, st);
    return;
  }
  c->sm_out |= 1u << o;
  c->sm_word[o] = spin_onto_link(c->fmt, m, o, src == 1 ? fork : 0u);
  if (src == 2) sent(m->kind, st);
}

void spin_sm_out(spin_router_t *s, spin_ctx_t *c, spin_stats_t *st)
{
  uint8_t src[SPIN_MAX_PORTS] = {0};
  unsigned fwd = c->fwd_mask, own = c->own_out ? 1u << c->own_out : 0u;
  int o, any_fwd = 0, any_own = 0;
  arbitrate(c, fwd, own, src, st);
  c->sm_out = 0;
  if (!c->sm_pipe) {
    for (o = c->nics; o < c->ports; o++)
      if (src[o]) drive(c, (unsigned)o, src[o], &c->fwd, c->fwd_fork, &c->own, st);
    return;
  }
  /* SmPipe = 1: the winners of the cycle before go out now ... */
  {
    sm_t f = sm_unpack(c->fmt, &s->smo_fwd_q), w = sm_unpack(c->fmt, &s->smo_own_q);
    for (o = c->nics; o < c->ports; o++)
      if (s->smo_src_q[o]) drive(c, (unsigned)o, s->smo_src_q[o], &f, s->smo_fork_q, &w, st);
  }
  /* ... and this cycle's are registered (a word no output takes is 0) */
  for (o = 0; o < SPIN_MAX_PORTS; o++) {
    s->smo_src_q[o] = o < c->ports ? src[o] : 0;
    any_fwd |= s->smo_src_q[o] == 1;
    any_own |= s->smo_src_q[o] == 2;
  }
  memset(&s->smo_fwd_q, 0, sizeof s->smo_fwd_q);
  memset(&s->smo_own_q, 0, sizeof s->smo_own_q);
  if (any_fwd) s->smo_fwd_q = sm_pack(c->fmt, &c->fwd);
  if (any_own) s->smo_own_q = sm_pack(c->fmt, &c->own);
  s->smo_fork_q = any_fwd ? (uint16_t)c->fwd_fork : 0;
}
