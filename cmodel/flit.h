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

/* Special messages (kinds 2..5) use the data word {ext, data} with the
 * layout of sm_fmt.h (docs/microarchitecture.md, 12.1). */

/* FAvORS-NMin route header, in the low bits of a head flit's ext word
 * (flit bits [89:64]; docs/microarchitecture.md, 4.3): mid[15:0] via[16]
 * offer[17] detour[25:18].  Zero under every other routing function. */
#define RH_MID(e)     ((unsigned)((e) & 0xFFFFu))
#define RH_VIA        (1u << 16)
#define RH_OFFER      (1u << 17)
#define RH_DETOUR(e)  ((unsigned)(((e) >> 18) & 0xFFu))
/* UGAL (C model only, 4.5): the minimal route's hops in [31:26]. */
#define RH_HMIN(e)    ((unsigned)(((e) >> 26) & 0x3Fu))
#define RH_HMIN_MAKE(h) ((uint32_t)((h) > 63 ? 63 : (h)) << 26)
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
