/* flit.h - the link word and the packet layout of the contract
 * (docs/microarchitecture.md, "Link format"; RTL twin: rtl/spin_pkg.sv).
 *
 * A link register carries one word per cycle:
 *   kind[2:0]  0 idle, 1 flit, 2..5 reserved for the SPIN special messages
 *   head, tail the flit's position in its packet (both set: 1-flit packet)
 *   vc[1:0]    the downstream VC the flit is written into
 *   data       FlitW bits (packets use 64; special messages 128)
 * A credit register carries {valid, vc[1:0]}: the named input VC of the
 * sender became free (its tail left).
 */
#ifndef SPIN_FLIT_H
#define SPIN_FLIT_H

#include <stdint.h>

enum { KIND_IDLE = 0, KIND_FLIT = 1, KIND_PROBE = 2, KIND_MOVE = 3,
       KIND_PROBE_MOVE = 4, KIND_KILL_MOVE = 5 };

/* ctl byte: kind[2:0] | head << 3 | tail << 4 | vc << 5 */
#define CTL_KIND(c)  ((unsigned)(c) & 7u)
#define CTL_HEAD(c)  (((unsigned)(c) >> 3) & 1u)
#define CTL_TAIL(c)  (((unsigned)(c) >> 4) & 1u)
#define CTL_VC(c)    (((unsigned)(c) >> 5) & 3u)
#define CTL_MAKE(kind, head, tail, vc) \
  ((uint8_t)((kind) | ((head) << 3) | ((tail) << 4) | ((vc) << 5)))

/* data holds bits [63:0] of the flit, ext bits [127:64]: packets use only
 * data (ext is 0); special messages use both. */
typedef struct {
  uint64_t data;
  uint64_t ext;
  uint8_t ctl;
} flit_t;

/* credit byte: arm_vc << 4 | arm << 3 | valid << 2 | vc.  valid: input VC
 * vc became free.  arm (SPIN): the sender's frozen VC arm_vc at this link is
 * armed for the coming spin and takes the packet spun in
 * (docs/microarchitecture.md, section 12). */
#define CRED_VALID(c) (((unsigned)(c) >> 2) & 1u)
#define CRED_VC(c)    ((unsigned)(c) & 3u)
#define CRED_ARM(c)   (((unsigned)(c) >> 3) & 1u)
#define CRED_ARM_VC(c) (((unsigned)(c) >> 4) & 3u)
#define CRED_MAKE(vc) ((uint8_t)(4u | (vc)))
#define CRED_ARM_MAKE(vc) ((uint8_t)(8u | ((vc) << 4)))

/* Special messages (kinds 2..5) use the 128-bit data word {ext, data}
 * (docs/microarchitecture.md, 12.1):
 *   sender[11:0] n[17:12] delay[24:18] idx[30:25] path[31 + 3i +: 3], i < 32
 * and bit 127 zero.  The path lists the ports of the loop oldest first:
 * a probe writes the port it leaves by at entry n and counts n up, so entry
 * 0 is its sender's output.  A move, probe_move or kill_move keeps the path
 * as it is and carries the index of the entry its receiver reads (idx);
 * each router forwards it with idx + 1, and it is back at its sender when
 * idx = n.  A router that adopts a loop found by another router's probe
 * sends its move with idx just past its own entry, so no path is ever
 * shifted. */
#define SM_MAX_PATH 32
/* Hops a loop may have (the 6-bit n).  Beyond SM_MAX_PATH, only routers
 * with 1 VC per port: their entries are not recorded (read as 0), and the
 * VC at the arrival port gives the port (docs/microarchitecture.md, 12.1). */
#define SM_MAX_LOOP 63

typedef struct { uint64_t lo, hi; } sm_path_t;   /* entry i at bits [3i +: 3], 96 bits */

static inline unsigned path_get(sm_path_t p, unsigned i)
{
  unsigned b = 3u * i;
  if (i >= SM_MAX_PATH) return 0;
  if (b >= 64) return (unsigned)(p.hi >> (b - 64)) & 7u;
  if (b + 3 <= 64) return (unsigned)(p.lo >> b) & 7u;
  return (unsigned)((p.lo >> b) | (p.hi << (64 - b))) & 7u;
}
static inline sm_path_t path_put(sm_path_t p, unsigned i, unsigned port)
{
  unsigned b = 3u * i;
  if (i >= SM_MAX_PATH) return p;
  if (b >= 64) {
    p.hi |= (uint64_t)port << (b - 64);
  } else {
    p.lo |= (uint64_t)port << b;
    if (b + 3 > 64) p.hi |= (uint64_t)port >> (64 - b);
  }
  return p;
}
static inline int path_eq(sm_path_t a, sm_path_t b) { return a.lo == b.lo && a.hi == b.hi; }

static inline unsigned sm_sender(const flit_t *f) { return (unsigned)(f->data & 0xFFFu); }
static inline unsigned sm_n(const flit_t *f) { return (unsigned)((f->data >> 12) & 0x3Fu); }
static inline unsigned sm_delay(const flit_t *f) { return (unsigned)((f->data >> 18) & 0x7Fu); }
static inline unsigned sm_idx(const flit_t *f) { return (unsigned)((f->data >> 25) & 0x3Fu); }
/* A probe's delay field holds x: the cycles its links took beyond 1 each,
 * so the loop it went round takes n + x cycles (contract 12.1). */
static inline unsigned sm_x(const flit_t *f) { return sm_delay(f); }
static inline sm_path_t sm_path(const flit_t *f)
{
  sm_path_t p;
  p.lo = (f->data >> 31) | (f->ext << 33);
  p.hi = (f->ext >> 31) & 0xFFFFFFFFull;
  return p;
}
static inline unsigned sm_port(const flit_t *f, unsigned i) { return path_get(sm_path(f), i); }
static inline flit_t sm_make(unsigned kind, unsigned sender, unsigned n, unsigned delay,
                             unsigned idx, sm_path_t path)
{
  flit_t f;
  f.ctl = (uint8_t)kind;
  f.data = (uint64_t)(sender & 0xFFFu) | ((uint64_t)(n & 0x3Fu) << 12) |
           ((uint64_t)(delay & 0x7Fu) << 18) | ((uint64_t)(idx & 0x3Fu) << 25) |
           (path.lo << 31);
  f.ext = (path.lo >> 33) | ((path.hi & 0xFFFFFFFFull) << 31);
  return f;
}

/* FAvORS-NMin route header, in the low bits of a head flit's ext word
 * (flit bits [89:64]; docs/microarchitecture.md, 4.3): mid[15:0] via[16]
 * offer[17] detour[25:18].  Zero under every other routing function. */
#define RH_MID(e)     ((unsigned)((e) & 0xFFFFu))
#define RH_VIA        (1u << 16)
#define RH_OFFER      (1u << 17)
#define RH_DETOUR(e)  ((unsigned)(((e) >> 18) & 0xFFu))
static inline uint32_t rh_make(unsigned mid, unsigned detour)
{
  return (uint32_t)(mid & 0xFFFFu) | RH_OFFER | ((uint32_t)(detour > 255 ? 255 : detour) << 18);
}

/* Head flit data: dst[15:0] src[31:16] len[34:32] id[63:35].
 * The router reads only dst.  Body and tail flits carry payload_word(). */
#define HEAD_DST(d)  ((unsigned)((d) & 0xFFFFu))
#define HEAD_SRC(d)  ((unsigned)(((d) >> 16) & 0xFFFFu))
#define HEAD_LEN(d)  ((unsigned)(((d) >> 32) & 7u))
#define HEAD_ID(d)   ((uint64_t)((d) >> 35))
#define PKT_ID_BITS  29

static inline uint64_t head_word(unsigned dst, unsigned src, unsigned len, uint64_t id)
{
  return (uint64_t)dst | ((uint64_t)src << 16) | ((uint64_t)len << 32) |
         ((id & ((1ull << PKT_ID_BITS) - 1)) << 35);
}

/* Payload of flit i (1..len-1) of packet id: a 64-bit mix, so that a flit
 * delivered out of place or corrupted is caught by the scoreboard. */
static inline uint64_t payload_word(uint64_t id, unsigned i)
{
  uint64_t z = id * 8u + i + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

#endif
