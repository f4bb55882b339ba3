/* sm_fmt.c - the layout of a special message and the widths a network needs
 * (docs/microarchitecture.md, 12.1 and 12.9).  RTL twin:
 * rtl/spin_sm_layout.svh. */
#include <stdio.h>
#include "sm_fmt.h"

static unsigned clog2(uint64_t x)
{
  unsigned b = 0;
  while ((1ull << b) < x) b++;
  return b;
}

int sm_fmt_make(sm_fmt_t *f, unsigned idw, unsigned cycw, int ports, int vcs, unsigned flitw,
                int sm_pipe, char *err, size_t errlen)
{
  unsigned hdr;
  if (idw < 1 || idw > 16 || cycw < 6 || cycw > 28) {
    snprintf(err, errlen, "special-message widths IdW %u, CycW %u: expected IdW 1..16, CycW 6..28",
             idw, cycw);
    return -1;
  }
  f->idw = idw;
  f->cycw = cycw;
  f->portw = clog2((uint64_t)ports);
  f->s = (unsigned)sm_pipe;
  f->cyc_max = ((1u << cycw) - 3u) / 2u;
  f->o_t = idw;
  f->o_x = f->o_t + cycw;
  f->o_fk = f->o_x + cycw;
  hdr = f->o_fk;
  if (vcs > 1) {
    f->chw = clog2((uint64_t)vcs);
    f->fkw = SM_FKW;
    f->o_fork = f->o_fk + f->fkw;
    f->k = flitw > f->o_fork ? (flitw - f->o_fork) / f->chw : 0;
    if (f->k > SM_MAX_FORKS) f->k = SM_MAX_FORKS;
    hdr = f->o_fork;
  } else {
    f->chw = f->fkw = f->k = 0;
    f->o_fork = f->o_fk;
  }
  if (hdr > flitw || hdr > 128) {
    snprintf(err, errlen, "special-message header of %u bits (IdW %u, CycW %u) does not fit a "
             "flit of %u bits", hdr, idw, cycw, flitw);
    return -1;
  }
  return 0;
}

uint64_t sm_loop_bound(const topo_t *t, int vcs, int sm_pipe)
{
  uint64_t c = 0;
  int i;
  /* a loop passes each network VC at most once, a hop over a link of L
   * cycles taking L + S */
  for (i = 0; i < t->routers * t->radix; i++)
    if (i % t->radix >= t->nics && t->peer_router[i] >= 0)
      c += (uint64_t)vcs * ((uint64_t)t->latency[i] + (uint64_t)sm_pipe);
  return c;
}

void sm_widths_for(const topo_t *t, int vcs, int sm_pipe, unsigned *idw, unsigned *cycw)
{
  const uint64_t c = sm_loop_bound(t, vcs, sm_pipe);
  *idw = clog2((uint64_t)t->routers);
  if (*idw < 1) *idw = 1;
  *cycw = clog2(2 * c + 3);
  if (*cycw < 6) *cycw = 6;   /* room for a hop over the limit (12.1) */
  if (*cycw > 28) *cycw = 28; /* the field's limit: longer loops are over the probe's reach */
}

/* Bits [lsb +: w] of the 128-bit word {hi, lo} (w <= 32). */
static unsigned get128(uint64_t lo, uint64_t hi, unsigned lsb, unsigned w)
{
  uint64_t v;
  if (!w) return 0;
  if (lsb >= 64) v = hi >> (lsb - 64);
  else if (lsb + w <= 64) v = lo >> lsb;
  else v = (lo >> lsb) | (hi << (64 - lsb));
  return (unsigned)(v & ((1ull << w) - 1u));
}
static void put128(uint64_t *lo, uint64_t *hi, unsigned lsb, unsigned w, uint64_t v)
{
  if (!w) return;
  v &= (w == 64 ? ~0ull : (1ull << w) - 1u);
  if (lsb >= 64) {
    *hi |= v << (lsb - 64);
  } else {
    *lo |= v << lsb;
    if (lsb + w > 64) *hi |= v >> (64 - lsb);
  }
}

sm_t sm_unpack(const sm_fmt_t *f, const flit_t *w)
{
  sm_t m;
  unsigned i;
  m.kind = CTL_KIND(w->ctl);
  m.sender = get128(w->data, w->ext, 0, f->idw);
  m.t = get128(w->data, w->ext, f->o_t, f->cycw);
  m.lc = m.kind == KIND_PROBE ? 0 : get128(w->data, w->ext, f->o_x, f->cycw);
  m.p0 = m.kind == KIND_PROBE ? get128(w->data, w->ext, f->o_x, f->cycw) : 0;
  m.fk = get128(w->data, w->ext, f->o_fk, f->fkw);
  m.fork_lo = m.fork_hi = 0;
  for (i = 0; i < f->k; i++)
    sm_set_fork(f, &m, i, get128(w->data, w->ext, f->o_fork + i * f->chw, f->chw));
  return m;
}

flit_t sm_pack(const sm_fmt_t *f, const sm_t *m)
{
  flit_t w;
  unsigned i;
  w.data = w.ext = 0;
  w.ctl = CTL_MAKE(m->kind, 0, 0, 0);
  put128(&w.data, &w.ext, 0, f->idw, m->sender);
  put128(&w.data, &w.ext, f->o_t, f->cycw, m->t);
  put128(&w.data, &w.ext, f->o_x, f->cycw, m->kind == KIND_PROBE ? m->p0 : m->lc);
  put128(&w.data, &w.ext, f->o_fk, f->fkw, m->fk);
  for (i = 0; i < f->k; i++)
    put128(&w.data, &w.ext, f->o_fork + i * f->chw, f->chw, sm_fork(f, m, i));
  return w;
}
