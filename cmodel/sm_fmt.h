/* sm_fmt.h - the layout of a special message (docs/microarchitecture.md,
 * 12.1), sized to the network at build time: IdW bits of router id, CycW of
 * cycles; with V > 1 VCs per port, K fork entries of ChW bits.  RTL twin:
 * rtl/spin_sm_layout.svh (the same fields, least significant first):
 *   sender[IdW] t[CycW] x[CycW] fk[FkW] fork[K][ChW]
 * x is a probe's p0 (its low PortW bits) or a move's, probe_move's or
 * kill_move's lc.
 * The C model works on a message unpacked into sm_t and packs it into the
 * 128-bit data word of a link register ({ext, data}) when it goes onto a
 * link, so that the links compare bit for bit with the RTL's. */
#ifndef SPIN_SM_FMT_H
#define SPIN_SM_FMT_H

#include <stdint.h>
#include "flit.h"
#include "topology.h"

#define SM_FLITW     128      /* the data word of a link register that carries them */
#define SM_MAX_FORKS 63       /* K: fork entries at most (FkW = 6) */
#define SM_FKW        6

typedef struct {
  unsigned idw, cycw;         /* the two widths of the build */
  unsigned portw, chw, fkw, k; /* port number; fork choice, fork count, entries (V > 1) */
  unsigned cyc_max;           /* floor((2^CycW - 3) / 2): the longest loop in cycles */
  unsigned s;                 /* SmPipe: the extra cycles of a hop */
  /* field offsets in the 128-bit word */
  unsigned o_t, o_x, o_fk, o_fork;
} sm_fmt_t;

/* A special message, unpacked.  t is a probe's cyc, or a move's,
 * probe_move's or kill_move's delay; p0 a probe's first output, lc the
 * others' loop cycles C (one field on the link, x); forks[] holds K entries
 * of ChW bits, entry i at bits [i*ChW +: ChW] of the 128-bit pair {hi, lo}. */
typedef struct {
  unsigned kind;              /* KIND_PROBE .. KIND_KILL_MOVE; 0: none */
  unsigned sender, t, lc, p0, fk;
  uint64_t fork_lo, fork_hi;
} sm_t;

/* What a run asks of its messages: SmPipe, and the widths (0: sized to the
 * network, sm_widths_for). */
typedef struct {
  int pipe;
  unsigned idw, cycw;
} sm_opts_t;

/* The layout for widths (idw, cycw) of routers with `ports` ports,
 * `vcs` VCs and flits of flitw bits, SmPipe sm_pipe.  Returns 0, or -1 with
 * a message in err when the widths are out of range or the header does not
 * fit the flit. */
int sm_fmt_make(sm_fmt_t *f, unsigned idw, unsigned cycw, int ports, int vcs, unsigned flitw,
                int sm_pipe, char *err, size_t errlen);

/* The widths a network needs (12.9): IdW = clog2(N) (at least 1); CycW
 * holds 2C + 2 for C = V x the sum over the network links, each way, of
 * (L + S) (at least 6, at most 28).  Into *idw, *cycw. */
void sm_widths_for(const topo_t *t, int vcs, int sm_pipe, unsigned *idw, unsigned *cycw);

/* C of sm_widths_for: the longest loop the network can form, in cycles of
 * a special message going round it (12.9). */
uint64_t sm_loop_bound(const topo_t *t, int vcs, int sm_pipe);

/* The co-simulation's router builds serve many topologies with these. */
#define SM_COSIM_IDW  12
#define SM_COSIM_CYCW 19

/* The message in a link word, and back. */
sm_t sm_unpack(const sm_fmt_t *f, const flit_t *w);
flit_t sm_pack(const sm_fmt_t *f, const sm_t *m);

/* Fork entry i of m, and m with entry i set. */
static inline unsigned sm_fork(const sm_fmt_t *f, const sm_t *m, unsigned i)
{
  unsigned b = i * f->chw;
  uint64_t mask = (1ull << f->chw) - 1u;
  if (!f->chw || i >= f->k) return 0;
  if (b >= 64) return (unsigned)((m->fork_hi >> (b - 64)) & mask);
  if (b + f->chw <= 64) return (unsigned)((m->fork_lo >> b) & mask);
  return (unsigned)(((m->fork_lo >> b) | (m->fork_hi << (64 - b))) & mask);
}
static inline void sm_set_fork(const sm_fmt_t *f, sm_t *m, unsigned i, unsigned c)
{
  unsigned b = i * f->chw;
  uint64_t mask = (1ull << f->chw) - 1u, v = (uint64_t)c & mask;
  if (!f->chw || i >= f->k) return;
  if (b >= 64) {
    m->fork_hi = (m->fork_hi & ~(mask << (b - 64))) | (v << (b - 64));
  } else {
    m->fork_lo = (m->fork_lo & ~(mask << b)) | (v << b);
    if (b + f->chw > 64)
      m->fork_hi = (m->fork_hi & ~(mask >> (64 - b))) | (v >> (64 - b));
  }
}

#endif
