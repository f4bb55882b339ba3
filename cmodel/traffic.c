/* traffic.c - synthetic traffic patterns and trace files (see traffic.h and
 * docs/traffic.md).
 *
 * Synthetic patterns: every injecting node creates packets as a Bernoulli(p)
 * process, p = rate / mean_len.  Instead of one draw per node per cycle, each
 * node keeps the cycle of its next packet, drawn from the geometric
 * inter-arrival distribution of that process; the nodes sit in a binary
 * min-heap keyed on (next cycle, node id).  traffic_tick pops the nodes due in
 * the current cycle (the tie-break on node id gives increasing source order),
 * emits their packets, draws their next arrivals and pushes them back: O(1)
 * when nothing is due, O(log N) per created packet.  Nothing is allocated
 * after traffic_new.
 *
 * Traces are loaded whole by traffic_new into an array sorted by cycle (the
 * file must already be in that order); traffic_tick walks it with an index.
 */
#define _POSIX_C_SOURCE 200809L   /* fmemopen */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text.h"
#include "traffic.h"

/* ------------------------------------------------------------------------ */
/* PRNG: xoshiro256** 1.0 (Blackman and Vigna, 2018), state seeded with four
 * successive outputs of splitmix64 started at the run seed.  Pure 64-bit
 * integer arithmetic: the same stream on every machine. */

typedef struct {
  uint64_t s[4];
} rng_t;

static uint64_t splitmix64(uint64_t *x)
{
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void rng_seed(rng_t *r, uint64_t seed)
{
  uint64_t x = seed;
  int i;
  for (i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
  /* splitmix64 is a bijection of its counter, so the four words are never
   * all zero (the one state xoshiro must avoid) for any seed. */
}

static uint64_t rotl64(uint64_t v, int k)
{
  return (v << k) | (v >> (64 - k));
}

static uint64_t rng_next(rng_t *r)
{
  uint64_t *s = r->s;
  uint64_t out = rotl64(s[1] * 5u, 7) * 9u;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl64(s[3], 45);
  return out;
}

/* Uniform in [0, 1): the top 53 bits, exact in a double. */
static double rng_unit(rng_t *r)
{
  return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in (0, 1]. */
static double rng_unit_open0(rng_t *r)
{
  return (double)((rng_next(r) >> 11) + 1u) * (1.0 / 9007199254740992.0);
}

/* Uniform integer in [0, n), 1 <= n < 2^32, without bias (Lemire's
 * multiply-shift with rejection): x = the top 32 bits of an output,
 * m = x * n; m is rejected (and x drawn again) while m mod 2^32 < thresh,
 * where thresh = 2^32 mod n is precomputed; the result is m >> 32. */
static uint32_t rng_below(rng_t *r, uint32_t n, uint32_t thresh)
{
  uint64_t m;
  do {
    m = (rng_next(r) >> 32) * (uint64_t)n;
  } while ((uint32_t)m < thresh);
  return (uint32_t)(m >> 32);
}

/* ------------------------------------------------------------------------ */

typedef struct {
  uint64_t cycle;
  int src, dst, flits;
} trace_pkt_t;

struct traffic {
  traffic_kind_t kind;
  int n;                 /* nodes */
  /* synthetic */
  double p;              /* packet creation probability per node per cycle */
  double inv_log1mp;     /* 1 / ln(1 - p), for the geometric gaps (p < 1) */
  double long_frac;
  int hot;               /* hotspot node, or -1 */
  int grp;               /* group_shift: nodes a group (0: not group_shift) */
  uint32_t grp_thresh;   /* 2^32 mod grp, for rng_below(grp) */
  int *perm;             /* permutations: destination per source; else NULL */
  uint32_t uni_thresh;   /* 2^32 mod (n - 1), for rng_below(n - 1) */
  /* min-heap of keys (next cycle << sbits) | node: ordered by cycle, then
   * by node id.  A node whose next cycle would exceed t_max retires. */
  uint64_t *heap;
  int heap_n;
  int sbits;             /* bits of a node id: smallest S with n <= 2^S */
  uint64_t t_max;        /* 2^(64 - sbits) - 1 */
  rng_t rng;
  /* trace */
  trace_pkt_t *pkts;
  size_t npkts, next;
};

/* Messages quote trace contents and names: escaped for the terminal. */
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  if (!err || errlen == 0) return;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  text_escape(err, errlen, msg);
}

/* ------------------------------------------------------------------------ */
/* Binary min-heap of distinct 64-bit keys. */

static void heap_sift_up(uint64_t *h, int i, uint64_t key)
{
  while (i > 0) {
    int parent = (i - 1) / 2;
    if (h[parent] < key) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = key;
}

static void heap_push(uint64_t *h, int *n, uint64_t key)
{
  heap_sift_up(h, (*n)++, key);
}

/* Replaces the minimum of h[0..n-1] with key.  Bottom-up (Floyd): the hole
 * goes down to a leaf along the smaller children, one comparison a level,
 * then key climbs from there.  A new arrival time usually belongs near the
 * bottom, so this beats the usual top-down sift. */
static void heap_replace_top(uint64_t *h, int n, uint64_t key)
{
  int i = 0, c;
  while ((c = 2 * i + 1) < n) {
    if (c + 1 < n) c += h[c + 1] < h[c];
    h[i] = h[c];
    i = c;
  }
  heap_sift_up(h, i, key);
}

/* Gap to a node's next packet: 1 + floor(ln U * (1 / ln(1 - p))), U uniform
 * in (0, 1]: the number of Bernoulli(p) trials up to and including the next
 * success.  The product is >= 0, so the conversion to an integer (which
 * truncates) is the floor.  Returns 0 when the gap does not fit in 62 bits
 * (never, in practice, for any usable p). */
static uint64_t draw_gap(traffic_t *tg)
{
  double g;
  if (tg->p >= 1.0) return 1;
  g = log(rng_unit_open0(&tg->rng)) * tg->inv_log1mp;
  if (!(g < 4611686018427387904.0)) return 0;   /* 2^62 */
  return 1u + (uint64_t)g;
}

/* ------------------------------------------------------------------------ */
/* Patterns. */

/* Indexed by traffic_kind_t (TRAFFIC_UNIFORM_RANDOM .. TRAFFIC_HOTSPOT). */
static const char *const pattern_names[] = {
  "uniform_random", "transpose", "bit_complement", "bit_reverse",
  "bit_rotation", "shuffle", "tornado", "neighbor", "group_shift", "hotspot"
};
#define NPATTERNS ((int)(sizeof pattern_names / sizeof pattern_names[0]))
#define VALID_SPECS "uniform_random, transpose, bit_complement, bit_reverse, " \
  "bit_rotation, shuffle, tornado, neighbor, group_shift, hotspot, hotspot:NODE, trace:PATH"

static int log2_exact(int n)
{
  int b = 0;
  if (n <= 0 || (n & (n - 1)) != 0) return -1;
  while ((1 << b) < n) b++;
  return b;
}

/* Fills perm[] for a permutation pattern. Returns 0 or -1 with err set. */
static int build_perm(traffic_kind_t kind, const char *name, const topo_t *topo,
                      int *perm, char *err, size_t errlen)
{
  const int n = topo->nodes;
  int b = -1, s, w = 0, h = 0;

  if (kind == TRAFFIC_TORNADO || kind == TRAFFIC_NEIGHBOR) {
    if (topo->kind == TOPO_KIND_RING) {
      w = n;
      h = 1;
    } else if (topo->kind == TOPO_KIND_MESH || topo->kind == TOPO_KIND_TORUS) {
      w = topo->width;
      h = topo->height;
      if (w <= 0 || h <= 0 || (long)w * h != n) {
        set_err(err, errlen, "%s: topology '%s' has %d routers but is %dx%d",
                name, topo->name, n, w, h);
        return -1;
      }
    } else {
      set_err(err, errlen, "%s needs a mesh, torus or ring topology "
              "(its dimensions), not '%s'", name, topo->name);
      return -1;
    }
  } else {
    b = log2_exact(n);
    if (b < 0) {
      set_err(err, errlen, "%s needs a power-of-two node count, got N = %d",
              name, n);
      return -1;
    }
    if (kind == TRAFFIC_TRANSPOSE && b % 2 != 0) {
      set_err(err, errlen, "transpose needs N = 2^b with b even, got N = %d "
              "(b = %d)", n, b);
      return -1;
    }
  }

  for (s = 0; s < n; s++) {
    unsigned u = (unsigned)s, mask = (unsigned)n - 1u, d = 0;
    int i;
    switch (kind) {
    case TRAFFIC_TRANSPOSE: {
      int half = b / 2;
      unsigned lo = (1u << half) - 1u;
      d = (u >> half) | ((u & lo) << half);
      break;
    }
    case TRAFFIC_BIT_COMPLEMENT:
      d = ~u & mask;
      break;
    case TRAFFIC_BIT_REVERSE:
      for (i = 0; i < b; i++)
        if (u & (1u << i)) d |= 1u << (b - 1 - i);
      break;
    case TRAFFIC_BIT_ROTATION:   /* rotate right by one */
      d = b ? ((u >> 1) | ((u & 1u) << (b - 1))) : u;
      break;
    case TRAFFIC_SHUFFLE:        /* rotate left by one */
      d = b ? (((u << 1) & mask) | (u >> (b - 1))) : u;
      break;
    case TRAFFIC_TORNADO: {
      int x = s % w, y = s / w;
      x = (x + (w + 1) / 2 - 1) % w;
      y = (y + (h + 1) / 2 - 1) % h;
      d = (unsigned)(y * w + x);
      break;
    }
    case TRAFFIC_NEIGHBOR: {
      int x = s % w, y = s / w;
      x = (x + 1) % w;
      y = (y + 1) % h;
      d = (unsigned)(y * w + x);
      break;
    }
    default:
      d = u;
      break;
    }
    perm[s] = (int)d;
  }
  return 0;
}

/* Parses a decimal integer token [-]digits of length len.  Returns 0 and sets
 * *neg and *mag; -1 when the token is not a decimal integer; -2 when its
 * magnitude exceeds 2^64 - 1 (then *mag = 2^64 - 1). */
static int parse_dec(const char *t, size_t len, int *neg, uint64_t *mag)
{
  size_t i = 0;
  uint64_t v = 0;
  *neg = 0;
  *mag = UINT64_MAX;
  if (len > 0 && t[0] == '-') {
    *neg = 1;
    i = 1;
  }
  if (i == len) return -1;
  for (; i < len; i++) {
    unsigned dgt;
    if (t[i] < '0' || t[i] > '9') return -1;
    dgt = (unsigned)(t[i] - '0');
    if (v > (UINT64_MAX - dgt) / 10u) {
      /* keep scanning so that "12x" with a huge prefix is still "not an
       * integer" */
      for (i++; i < len; i++)
        if (t[i] < '0' || t[i] > '9') return -1;
      return -2;
    }
    v = v * 10u + dgt;
  }
  *mag = v;
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Traces. */

typedef struct {
  const char *path;
  int n;
  trace_pkt_t *pkts;
  size_t npkts, cap;
  char *err;
  size_t errlen;
} trace_load_t;

static int is_blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Parses one line (len bytes, no newline).  Returns 0 or -1 with err set. */
static int trace_line(trace_load_t *ld, const char *line, size_t len,
                      unsigned long lineno)
{
  static const char *const field_name[4] = { "cycle", "src", "dst", "flits" };
  const char *tok[4];
  size_t tlen[4];
  int nf = 0, i, neg[4] = { 0, 0, 0, 0 };
  uint64_t val[4] = { 0, 0, 0, 0 };
  size_t k = 0;
  trace_pkt_t *pk;

  {
    const char *hash = memchr(line, '#', len);
    if (hash) len = (size_t)(hash - line);
  }
  while (k < len) {
    size_t start;
    while (k < len && is_blank(line[k])) k++;
    if (k == len) break;
    start = k;
    while (k < len && !is_blank(line[k])) k++;
    if (nf < 4) {
      tok[nf] = line + start;
      tlen[nf] = k - start;
    }
    nf++;
  }
  if (nf == 0) return 0;
  if (nf != 4) {
    set_err(ld->err, ld->errlen, "%s:%lu: expected 4 fields "
            "(cycle src dst flits), got %d", ld->path, lineno, nf);
    return -1;
  }
  for (i = 0; i < 4; i++) {
    int rc = parse_dec(tok[i], tlen[i], &neg[i], &val[i]);
    int shown = tlen[i] > 40 ? 40 : (int)tlen[i];
    if (rc == -1) {
      set_err(ld->err, ld->errlen, "%s:%lu: %s '%.*s' is not a decimal integer",
              ld->path, lineno, field_name[i], shown, tok[i]);
      return -1;
    }
    if (rc == -2 || (neg[i] && val[i] != 0) || (i == 0 && val[i] > SIM_MAX_CYCLE)) {
      if (i == 0)
        set_err(ld->err, ld->errlen, "%s:%lu: cycle '%.*s' out of range "
                "[0, 10^15]", ld->path, lineno, shown, tok[i]);
      else if (i < 3)
        set_err(ld->err, ld->errlen, "%s:%lu: %s '%.*s' out of range [0, %d)",
                ld->path, lineno, field_name[i], shown, tok[i], ld->n);
      else
        set_err(ld->err, ld->errlen, "%s:%lu: flits '%.*s' out of range "
                "[1, %d]", ld->path, lineno, shown, tok[i], PKT_MAX_FLITS);
      return -1;
    }
  }
  if (ld->npkts > 0 && val[0] < ld->pkts[ld->npkts - 1].cycle) {
    set_err(ld->err, ld->errlen, "%s:%lu: cycle %llu is before the previous "
            "packet's cycle %llu (cycles must be non-decreasing)", ld->path,
            lineno, (unsigned long long)val[0],
            (unsigned long long)ld->pkts[ld->npkts - 1].cycle);
    return -1;
  }
  for (i = 1; i < 3; i++)
    if (val[i] >= (uint64_t)ld->n) {
      set_err(ld->err, ld->errlen, "%s:%lu: %s %llu out of range [0, %d)",
              ld->path, lineno, field_name[i], (unsigned long long)val[i],
              ld->n);
      return -1;
    }
  if (val[1] == val[2]) {
    set_err(ld->err, ld->errlen, "%s:%lu: src and dst are both %llu",
            ld->path, lineno, (unsigned long long)val[1]);
    return -1;
  }
  if (val[3] < 1 || val[3] > PKT_MAX_FLITS) {
    set_err(ld->err, ld->errlen, "%s:%lu: flits %llu out of range [1, %d]",
            ld->path, lineno, (unsigned long long)val[3], PKT_MAX_FLITS);
    return -1;
  }
  if (ld->npkts == ld->cap) {
    size_t ncap = ld->cap ? ld->cap * 2 : 1024;
    trace_pkt_t *np;
    if (ncap < ld->cap || ncap > (size_t)-1 / sizeof *np) np = NULL;
    else np = realloc(ld->pkts, ncap * sizeof *np);
    if (!np) {
      set_err(ld->err, ld->errlen, "%s:%lu: out of memory (%lu packets)",
              ld->path, lineno, (unsigned long)ld->npkts);
      return -1;
    }
    ld->pkts = np;
    ld->cap = ncap;
  }
  pk = &ld->pkts[ld->npkts++];
  pk->cycle = val[0];
  pk->src = (int)val[1];
  pk->dst = (int)val[2];
  pk->flits = (int)val[3];
  return 0;
}

/* Longest part of a trace line before its comment ('#'); comments may be
 * of any length. */
#define TRACE_LINE_MAX 4096

/* Reads the whole trace from f.  Returns 0 or -1 with err set (ld->pkts may
 * then hold a partial array, freed by the caller).  A NUL character or a
 * line too long stops the read at once, so a file like /dev/zero is refused
 * and not read forever. */
static int trace_load(trace_load_t *ld, FILE *f)
{
  char chunk[65536];
  char line[TRACE_LINE_MAX + 1];
  size_t llen = 0, got;
  unsigned long lineno = 1;
  int rc = 0, comment = 0;

  while (rc == 0 && (got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    size_t i = 0;
    while (rc == 0 && i < got) {
      /* up to the next newline (or the chunk's end) */
      const char *nl = memchr(chunk + i, '\n', got - i);
      size_t take = nl ? (size_t)(nl - (chunk + i)) : got - i, keep = take;
      if (memchr(chunk + i, '\0', take)) {
        set_err(ld->err, ld->errlen, "%s:%lu: line contains a NUL character",
                ld->path, lineno);
        return -1;
      }
      if (!comment) {   /* keep the part before the comment */
        const char *hash = memchr(chunk + i, '#', take);
        if (hash) {
          keep = (size_t)(hash - (chunk + i));
          comment = 1;
        }
        if (llen + keep > TRACE_LINE_MAX) {
          set_err(ld->err, ld->errlen, "%s:%lu: line longer than %d characters "
                  "(before its comment)", ld->path, lineno, TRACE_LINE_MAX);
          return -1;
        }
        memcpy(line + llen, chunk + i, keep);
        llen += keep;
      }
      i += take;
      if (nl) {
        rc = trace_line(ld, line, llen, lineno);
        llen = 0;
        comment = 0;
        lineno++;
        i++;
      }
    }
  }
  if (rc == 0 && ferror(f)) {
    set_err(ld->err, ld->errlen, "%s:%lu: read error: %s", ld->path, lineno,
            strerror(errno));
    rc = -1;
  }
  if (rc == 0 && llen > 0) rc = trace_line(ld, line, llen, lineno);
  return rc;
}

/* A trace generator from the text of f (path names it in messages). */
static traffic_t *trace_new(const char *path, FILE *f, int n, char *err,
                            size_t errlen)
{
  trace_load_t ld;
  traffic_t *tg;
  memset(&ld, 0, sizeof ld);
  ld.path = path;
  ld.n = n;
  ld.err = err;
  ld.errlen = errlen;
  if (trace_load(&ld, f) != 0) {
    free(ld.pkts);
    return NULL;
  }
  tg = calloc(1, sizeof *tg);
  if (!tg) {
    free(ld.pkts);
    set_err(err, errlen, "traffic: out of memory");
    return NULL;
  }
  tg->kind = TRAFFIC_TRACE;
  tg->n = n;
  tg->hot = -1;
  tg->pkts = ld.pkts;
  tg->npkts = ld.npkts;
  return tg;
}

traffic_t *traffic_trace_buf(const char *name, const char *buf, size_t len,
                             const topo_t *topo, char *err, size_t errlen)
{
  FILE *f;
  traffic_t *tg;
  if (err && errlen) err[0] = '\0';
  if (!topo || topo->nodes <= 0) {
    set_err(err, errlen, "traffic: no topology");
    return NULL;
  }
  /* read-only stream over the caller's bytes ("r": never written) */
  f = fmemopen(buf ? (void *)buf : (void *)"", len, "r");
  if (!f) {
    set_err(err, errlen, "%s: cannot read: %s", name, strerror(errno));
    return NULL;
  }
  tg = trace_new(name, f, topo->nodes, err, errlen);
  fclose(f);
  return tg;
}

/* ------------------------------------------------------------------------ */

/* A trace file's generator (spec "trace:PATH"). */
static traffic_t *trace_open(const char *path, int n, char *err, size_t errlen)
{
  FILE *f;
  traffic_t *tg;
  if (path[0] == '\0') {
    set_err(err, errlen, "trace: missing path (trace:PATH)");
    return NULL;
  }
  f = fopen(path, "rb");
  if (!f) {
    set_err(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  tg = trace_new(path, f, n, err, errlen);
  fclose(f);
  return tg;
}

/* The synthetic pattern spec names; -1 and a message when none. */
static int pattern_kind(const char *spec, char *err, size_t errlen)
{
  int kind = -1, i;
  for (i = 0; i < NPATTERNS; i++)
    if (strcmp(spec, pattern_names[i]) == 0) kind = i;
  if (kind < 0 && strncmp(spec, "hotspot:", 8) == 0) kind = TRAFFIC_HOTSPOT;
  if (kind < 0)
    set_err(err, errlen, "unknown traffic pattern '%s' (valid: %s)", spec, VALID_SPECS);
  return kind;
}

/* The mean packet length of long_frac, in flits, after checking that
 * long_frac and rate can be offered; -1 and a message when not. */
static double mean_length(double rate, double long_frac, char *err, size_t errlen)
{
  double mean_len;
  if (!(long_frac >= 0.0 && long_frac <= 1.0)) {
    set_err(err, errlen, "long_frac %g out of range [0, 1]", long_frac);
    return -1.0;
  }
  mean_len = 1.0 + (PKT_LONG_FLITS - 1) * long_frac;
  if (!(rate >= 0.0)) {
    set_err(err, errlen, "rate %g must be >= 0 flits/node/cycle", rate);
    return -1.0;
  }
  if (rate > mean_len) {
    set_err(err, errlen, "rate %g too high: at most %g flits/node/cycle with "
            "long_frac %g (one packet per node per cycle)", rate, mean_len,
            long_frac);
    return -1.0;
  }
  return mean_len;
}

/* The hotspot node of spec ("hotspot:NODE", else the mesh's or torus's
 * centre, else node n / 2); -1 and a message when NODE is bad. */
static int hotspot_node(const char *spec, const topo_t *topo, char *err, size_t errlen)
{
  const int n = topo->nodes;
  if (spec[7] == ':') {
    int neg;
    uint64_t v;
    const char *arg = spec + 8;
    if (parse_dec(arg, strlen(arg), &neg, &v) == -1) {  /* -2: v = max */
      set_err(err, errlen, "hotspot node '%s' is not a decimal integer", arg);
      return -1;
    }
    if ((neg && v != 0) || v >= (uint64_t)n) {
      set_err(err, errlen, "hotspot node %s out of range [0, %d)", arg, n);
      return -1;
    }
    return (int)v;
  }
  if ((topo->kind == TOPO_KIND_MESH || topo->kind == TOPO_KIND_TORUS)
      && topo->width > 0 && topo->height > 0
      && (long)topo->width * topo->height == n)
    return (topo->height / 2) * topo->width + topo->width / 2;
  return n / 2;
}

/* Where tg's packets go: the hotspot node, or the permutation of a
 * permutation pattern (uniform random needs neither).  0, or -1 and a
 * message. */
static int pattern_dests(traffic_t *tg, const char *spec, const topo_t *topo, char *err,
                         size_t errlen)
{
  const int kind = (int)tg->kind, n = tg->n;
  if ((kind == TRAFFIC_UNIFORM_RANDOM || kind == TRAFFIC_HOTSPOT) && n < 2) {
    set_err(err, errlen, "%s needs at least 2 nodes, got N = %d", pattern_names[kind], n);
    return -1;
  }
  if (kind == TRAFFIC_HOTSPOT) {
    tg->hot = hotspot_node(spec, topo, err, errlen);
    return tg->hot < 0 ? -1 : 0;
  }
  if (kind == TRAFFIC_UNIFORM_RANDOM) return 0;
  if (kind == TRAFFIC_GROUP_SHIFT) {   /* a random node of the next group */
    if (topo->kind != TOPO_KIND_DRAGONFLY || topo->df_a < 1) {
      set_err(err, errlen, "group_shift needs a dragonfly topology (its groups), not '%s'",
              topo->name);
      return -1;
    }
    tg->grp = topo->df_a * topo->nics;
    tg->grp_thresh = (uint32_t)(0u - (uint32_t)tg->grp) % (uint32_t)tg->grp;
    return 0;
  }
  tg->perm = malloc((size_t)n * sizeof *tg->perm);
  if (!tg->perm) {
    set_err(err, errlen, "traffic: out of memory");
    return -1;
  }
  return build_perm(tg->kind, pattern_names[kind], topo, tg->perm, err, errlen);
}

/* The heap of next arrivals, with each node's first: drawn in increasing
 * node order; the first packet of a Bernoulli(p) process started at cycle 0
 * comes at cycle gap - 1.  0, or -1 and a message. */
static int first_arrivals(traffic_t *tg, char *err, size_t errlen)
{
  const int n = tg->n;
  int i;
  if (n > 1)
    tg->uni_thresh = (uint32_t)(0u - (uint32_t)(n - 1)) % (uint32_t)(n - 1);
  while (tg->sbits < 31 && (1L << tg->sbits) < n) tg->sbits++;
  tg->t_max = UINT64_MAX >> tg->sbits;
  tg->heap = malloc((size_t)n * sizeof *tg->heap);
  if (!tg->heap) {
    set_err(err, errlen, "traffic: out of memory");
    return -1;
  }
  if (tg->p <= 0.0) return 0;
  for (i = 0; i < n; i++) {
    uint64_t gap;
    if (tg->perm && tg->perm[i] == i) continue;
    gap = draw_gap(tg);
    if (gap == 0 || gap - 1u > tg->t_max) continue;
    heap_push(tg->heap, &tg->heap_n, ((gap - 1u) << tg->sbits) | (uint64_t)i);
  }
  return 0;
}

traffic_t *traffic_new(const char *spec, const topo_t *topo, double rate,
                       double long_frac, uint64_t seed,
                       char *err, size_t errlen)
{
  traffic_t *tg;
  int kind;
  double mean_len;

  if (err && errlen) err[0] = '\0';
  if (!spec || !topo) {
    set_err(err, errlen, "traffic: no pattern or no topology");
    return NULL;
  }
  if (topo->nodes <= 0) {
    set_err(err, errlen, "traffic: topology has %d nodes", topo->nodes);
    return NULL;
  }
  if (strncmp(spec, "trace:", 6) == 0) return trace_open(spec + 6, topo->nodes, err, errlen);
  if ((kind = pattern_kind(spec, err, errlen)) < 0) return NULL;
  if ((mean_len = mean_length(rate, long_frac, err, errlen)) < 0.0) return NULL;

  tg = calloc(1, sizeof *tg);
  if (!tg) {
    set_err(err, errlen, "traffic: out of memory");
    return NULL;
  }
  tg->kind = (traffic_kind_t)kind;
  tg->n = topo->nodes;
  tg->hot = -1;
  tg->long_frac = long_frac;
  tg->p = rate / mean_len;
  if (tg->p > 1.0) tg->p = 1.0;
  tg->inv_log1mp = tg->p < 1.0 ? 1.0 / log1p(-tg->p) : 0.0;
  rng_seed(&tg->rng, seed);
  if (pattern_dests(tg, spec, topo, err, errlen) != 0 || first_arrivals(tg, err, errlen) != 0) {
    traffic_free(tg);
    return NULL;
  }
  return tg;
}

int traffic_tick(traffic_t *tg, uint64_t cycle, traffic_emit_fn emit, void *ctx)
{
  int count = 0;

  if (tg->kind == TRAFFIC_TRACE) {
    while (tg->next < tg->npkts && tg->pkts[tg->next].cycle <= cycle) {
      const trace_pkt_t *pk = &tg->pkts[tg->next++];
      if (emit) emit(ctx, pk->src, pk->dst, pk->flits);
      count++;
    }
    return count;
  }

  while (tg->heap_n > 0 && (tg->heap[0] >> tg->sbits) <= cycle) {
    const uint64_t key = tg->heap[0];
    const uint64_t t = key >> tg->sbits;
    const int src = (int)(key & (((uint64_t)1 << tg->sbits) - 1u));
    int dst, flits = PKT_SHORT_FLITS;
    uint64_t gap;

    /* Draw order per packet: length, destination, next arrival. */
    if (tg->long_frac >= 1.0) flits = PKT_LONG_FLITS;
    else if (tg->long_frac > 0.0 && rng_unit(&tg->rng) < tg->long_frac)
      flits = PKT_LONG_FLITS;

    if (tg->perm) {
      dst = tg->perm[src];
    } else if (tg->grp) {
      const int next = (src / tg->grp + 1) * tg->grp;
      dst = (next < tg->n ? next : 0) + (int)rng_below(&tg->rng, (uint32_t)tg->grp, tg->grp_thresh);
    } else if (tg->hot >= 0 && src != tg->hot &&
               (rng_next(&tg->rng) >> 62) == 0) {
      dst = tg->hot;                      /* top two bits 0: probability 1/4 */
    } else {
      dst = (int)rng_below(&tg->rng, (uint32_t)(tg->n - 1), tg->uni_thresh);
      if (dst >= src) dst++;
    }

    if (emit) emit(ctx, src, dst, flits);
    count++;

    gap = draw_gap(tg);
    if (gap != 0 && gap <= tg->t_max - t) {
      heap_replace_top(tg->heap, tg->heap_n, key + (gap << tg->sbits));
    } else {
      /* next packet after cycle t_max (>= 2^52 for N <= 4096): retires */
      tg->heap_n--;
      if (tg->heap_n > 0)
        heap_replace_top(tg->heap, tg->heap_n, tg->heap[tg->heap_n]);
    }
  }
  return count;
}

uint64_t traffic_next_cycle(const traffic_t *tg)
{
  if (tg->kind == TRAFFIC_TRACE)
    return tg->next < tg->npkts ? tg->pkts[tg->next].cycle : UINT64_MAX;
  return tg->heap_n > 0 ? tg->heap[0] >> tg->sbits : UINT64_MAX;
}

int traffic_exhausted(const traffic_t *tg)
{
  return tg->kind == TRAFFIC_TRACE && tg->next >= tg->npkts;
}

traffic_kind_t traffic_kind(const traffic_t *tg)
{
  return tg->kind;
}

int traffic_perm_dest(const traffic_t *tg, int src)
{
  if (!tg->perm || src < 0 || src >= tg->n) return -1;
  return tg->perm[src];
}

void traffic_free(traffic_t *tg)
{
  if (!tg) return;
  free(tg->perm);
  free(tg->heap);
  free(tg->pkts);
  free(tg);
}
