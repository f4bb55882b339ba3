/* test_traffic.c - tests of cmodel/traffic.c.
 *
 * Usage: test_traffic DATA_DIR   (DATA_DIR holds the *.trace fixtures)
 * Prints one line per failed check (file:line) and ends with the line
 * "N passed, N failed"; exits 0 only when nothing failed.
 *
 * Topologies are built by hand here (no dependency on topology.c).
 */
#define _POSIX_C_SOURCE 200809L   /* mkstemp, fdopen: the generated big trace */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "traffic.h"
#include "check.h"

/* ------------------------------------------------------------------------ */
/* Harness. */

/* The fixture directory (the first argument). */
static const char *data_dir;

/* ------------------------------------------------------------------------ */
/* Hand-built topologies. */

static topo_t mk_topo(topo_kind_t kind, int w, int h)
{
  topo_t t;
  int i;
  memset(&t, 0, sizeof t);
  t.kind = kind;
  switch (kind) {
  case TOPO_KIND_MESH:
  case TOPO_KIND_TORUS:
    t.routers = w * h;
    t.width = w;
    t.height = h;
    t.has_coords = 1;
    snprintf(t.name, sizeof t.name, "%s%dx%d",
             kind == TOPO_KIND_MESH ? "mesh" : "torus", w, h);
    break;
  case TOPO_KIND_RING:
    t.routers = w;
    t.width = w;
    t.height = 1;
    t.has_coords = 1;
    snprintf(t.name, sizeof t.name, "ring-%d", w);
    break;
  default:
    t.routers = w;
    snprintf(t.name, sizeof t.name, "%s",
             kind == TOPO_KIND_FILE ? "file:x.topo" : "dragonfly");
    break;
  }
  t.radix = 5;
  t.nics = 1;
  t.nodes = t.routers;
  if (t.has_coords) {
    t.x = malloc((size_t)t.routers * sizeof *t.x);
    t.y = malloc((size_t)t.routers * sizeof *t.y);
    if (!t.x || !t.y) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
    for (i = 0; i < t.routers; i++) {
      t.x[i] = i % t.width;
      t.y[i] = i / t.width;
    }
  }
  return t;
}

static void free_topo(topo_t *t)
{
  free(t->x);
  free(t->y);
  t->x = t->y = NULL;
}

/* ------------------------------------------------------------------------ */
/* Packet collector. */

typedef struct {
  uint64_t cycle, src, dst, flits;
} rec_t;

typedef struct {
  int n;
  uint64_t cycle;          /* set by run() before each tick */
  long long calls;         /* emit calls in the current tick */
  long long packets, flits, longs;
  long long *pair;         /* n*n counts */
  long long *per_src;
  long long *per_dst;
  uint64_t *last_arrival;  /* per source: previous packet's cycle + 1, or 0 */
  long long gaps, gap_sum, gap_one;
  int last_src;            /* previous source in this cycle, or -1 */
  long long order_bad, self, range_bad, len_bad;
  uint64_t hash;           /* FNV-1a over (cycle, src, dst, flits) */
  rec_t *rec;              /* optional: the packet list */
  size_t nrec, caprec;
  int record;
} coll_t;

static void coll_init(coll_t *c, int n, int record)
{
  memset(c, 0, sizeof *c);
  c->n = n;
  c->pair = calloc((size_t)n * (size_t)n, sizeof *c->pair);
  c->per_src = calloc((size_t)n, sizeof *c->per_src);
  c->per_dst = calloc((size_t)n, sizeof *c->per_dst);
  c->last_arrival = calloc((size_t)n, sizeof *c->last_arrival);
  c->hash = 1469598103934665603ull;
  c->record = record;
  if (!c->pair || !c->per_src || !c->per_dst || !c->last_arrival) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
}

static void coll_free(coll_t *c)
{
  free(c->pair);
  free(c->per_src);
  free(c->per_dst);
  free(c->last_arrival);
  free(c->rec);
}

static void hash_u64(uint64_t *h, uint64_t v)
{
  int i;
  for (i = 0; i < 8; i++) {
    *h ^= (v >> (8 * i)) & 0xFFu;
    *h *= 1099511628211ull;
  }
}

static void on_packet(void *ctx, int src, int dst, int flits)
{
  coll_t *c = ctx;
  c->calls++;
  c->packets++;
  c->flits += flits;
  if (flits == PKT_LONG_FLITS) c->longs++;
  hash_u64(&c->hash, c->cycle);
  hash_u64(&c->hash, (uint64_t)src);
  hash_u64(&c->hash, (uint64_t)dst);
  hash_u64(&c->hash, (uint64_t)flits);
  if (src < 0 || src >= c->n || dst < 0 || dst >= c->n) {
    c->range_bad++;
  } else {
    c->pair[(size_t)src * (size_t)c->n + (size_t)dst]++;
    c->per_src[src]++;
    c->per_dst[dst]++;
    if (src == dst) c->self++;
    if (c->last_src >= src) c->order_bad++;
    c->last_src = src;
    if (c->last_arrival[src]) {
      uint64_t g = c->cycle + 1 - c->last_arrival[src];
      c->gaps++;
      c->gap_sum += (long long)g;
      if (g == 1) c->gap_one++;
    }
    c->last_arrival[src] = c->cycle + 1;
  }
  if (flits < 1 || flits > PKT_MAX_FLITS) c->len_bad++;
  if (c->record) {
    if (c->nrec == c->caprec) {
      size_t nc = c->caprec ? c->caprec * 2 : 64;
      rec_t *nr = realloc(c->rec, nc * sizeof *nr);
      if (!nr) {
        fprintf(stderr, "out of memory\n");
        exit(2);
      }
      c->rec = nr;
      c->caprec = nc;
    }
    c->rec[c->nrec].cycle = c->cycle;
    c->rec[c->nrec].src = (uint64_t)src;
    c->rec[c->nrec].dst = (uint64_t)dst;
    c->rec[c->nrec].flits = (uint64_t)flits;
    c->nrec++;
  }
}

/* Ticks cycles 0..cycles-1; returns the number of ticks whose return value
 * differed from the number of emit calls. */
static long long run(traffic_t *tg, coll_t *c, uint64_t cycles)
{
  uint64_t cy;
  long long mismatch = 0;
  for (cy = 0; cy < cycles; cy++) {
    int k;
    c->cycle = cy;
    c->calls = 0;
    c->last_src = -1;
    k = traffic_tick(tg, cy, on_packet, c);
    if (k != c->calls) mismatch++;
  }
  return mismatch;
}

static traffic_t *mk(const char *spec, const topo_t *t, double rate,
                     double long_frac, uint64_t seed, char *err, size_t errlen)
{
  return traffic_new(spec, t, rate, long_frac, seed, err, errlen);
}

/* ------------------------------------------------------------------------ */
/* Permutations. */

static int perm_of(const char *spec, const topo_t *t, int src)
{
  char err[512];
  traffic_t *tg = mk(spec, t, 0.1, 0.0, 1, err, sizeof err);
  int d;
  if (!CHECK(tg != NULL, "%s on %s: %s", spec, t->name, err))
    return -2;
  d = traffic_perm_dest(tg, src);
  traffic_free(tg);
  return d;
}

#define PERM_IS(spec, topo, src, want) do { \
    int got_ = perm_of((spec), (topo), (src)); \
    CHECK(got_ == (want), "%s(%d) on %s: got %d, want %d", (spec), \
           (src), (topo)->name, got_, (want)); \
  } while (0)

static void test_perm_examples(void)
{
  topo_t m8 = mk_topo(TOPO_KIND_MESH, 8, 8);
  topo_t m53 = mk_topo(TOPO_KIND_MESH, 5, 3);
  topo_t r8 = mk_topo(TOPO_KIND_RING, 8, 1);
  topo_t r7 = mk_topo(TOPO_KIND_RING, 7, 1);
  topo_t t44 = mk_topo(TOPO_KIND_TORUS, 4, 4);

  /* 8x8: id = y*8 + x, b = 6 bits */
  PERM_IS("transpose", &m8, 1, 8);           /* (1,0) -> (0,1) */
  PERM_IS("transpose", &m8, 43, 29);         /* (3,5) -> (5,3) */
  PERM_IS("transpose", &m8, 9, 9);           /* diagonal: itself */
  PERM_IS("bit_reverse", &m8, 1, 32);        /* 000001 -> 100000 */
  PERM_IS("bit_reverse", &m8, 6, 24);        /* 000110 -> 011000 */
  PERM_IS("bit_reverse", &m8, 45, 45);       /* 101101: a palindrome */
  PERM_IS("bit_complement", &m8, 5, 58);
  PERM_IS("bit_complement", &m8, 0, 63);
  PERM_IS("shuffle", &m8, 33, 3);            /* 100001 -> 000011 */
  PERM_IS("shuffle", &m8, 1, 2);
  PERM_IS("shuffle", &m8, 63, 63);
  PERM_IS("bit_rotation", &m8, 1, 32);       /* 000001 -> 100000 */
  PERM_IS("bit_rotation", &m8, 6, 3);        /* 000110 -> 000011 */
  PERM_IS("bit_rotation", &m8, 3, 33);       /* 000011 -> 100001 */
  PERM_IS("tornado", &m8, 0, 27);            /* (0,0) -> (3,3) */
  PERM_IS("tornado", &m8, 63, 18);           /* (7,7) -> (2,2) */
  PERM_IS("tornado", &m8, 13, 32);           /* (5,1) -> (0,4) */
  PERM_IS("neighbor", &m8, 63, 0);           /* (7,7) -> (0,0) */
  PERM_IS("neighbor", &m8, 11, 20);          /* (3,1) -> (4,2) */
  /* 4x4 torus, b = 4 */
  PERM_IS("transpose", &t44, 1, 4);
  PERM_IS("transpose", &t44, 14, 11);        /* (2,3) -> (3,2) */
  PERM_IS("bit_reverse", &t44, 1, 8);
  PERM_IS("tornado", &t44, 0, 5);            /* +1 in each dimension */
  /* 5x3 mesh: tornado adds 2 in x, 1 in y */
  PERM_IS("tornado", &m53, 14, 1);           /* (4,2) -> (1,0) */
  PERM_IS("tornado", &m53, 0, 7);            /* (0,0) -> (2,1) */
  PERM_IS("neighbor", &m53, 14, 0);          /* (4,2) -> (0,0) */
  PERM_IS("neighbor", &m53, 2, 8);           /* (2,0) -> (3,1) */
  /* rings: 1-D, k = N */
  PERM_IS("tornado", &r8, 6, 1);             /* +3 mod 8 */
  PERM_IS("tornado", &r7, 5, 1);             /* +3 mod 7 */
  PERM_IS("neighbor", &r8, 7, 0);
  PERM_IS("bit_complement", &r8, 2, 5);

  /* perm_dest outside the node range, and for non-permutations */
  {
    char err[256];
    traffic_t *tg = mk("transpose", &m8, 0.1, 0.0, 1, err, sizeof err);
    if (CHECK0(tg != NULL)) {
      CHECK0(traffic_perm_dest(tg, -1) == -1);
      CHECK0(traffic_perm_dest(tg, 64) == -1);
      CHECK0(traffic_kind(tg) == TRAFFIC_TRANSPOSE);
      CHECK0(!traffic_exhausted(tg));
      traffic_free(tg);
    }
    tg = mk("uniform_random", &m8, 0.1, 0.0, 1, err, sizeof err);
    if (CHECK0(tg != NULL)) {
      CHECK0(traffic_perm_dest(tg, 3) == -1);
      CHECK0(traffic_kind(tg) == TRAFFIC_UNIFORM_RANDOM);
      traffic_free(tg);
    }
    tg = mk("hotspot", &m8, 0.1, 0.0, 1, err, sizeof err);
    if (CHECK0(tg != NULL)) {
      CHECK0(traffic_perm_dest(tg, 3) == -1);
      CHECK0(traffic_kind(tg) == TRAFFIC_HOTSPOT);
      traffic_free(tg);
    }
  }
  free_topo(&m8);
  free_topo(&m53);
  free_topo(&r8);
  free_topo(&r7);
  free_topo(&t44);
}

static const char *const perm_names[] = {
  "transpose", "bit_complement", "bit_reverse", "bit_rotation", "shuffle",
  "tornado", "neighbor"
};
static const traffic_kind_t perm_kinds[] = {
  TRAFFIC_TRANSPOSE, TRAFFIC_BIT_COMPLEMENT, TRAFFIC_BIT_REVERSE,
  TRAFFIC_BIT_ROTATION, TRAFFIC_SHUFFLE, TRAFFIC_TORNADO, TRAFFIC_NEIGHBOR
};
#define NPERM ((int)(sizeof perm_names / sizeof perm_names[0]))

static void test_perm_bijective(void)
{
  topo_t topos[5];
  int ti, pi;
  topos[0] = mk_topo(TOPO_KIND_MESH, 8, 8);
  topos[1] = mk_topo(TOPO_KIND_TORUS, 4, 4);
  topos[2] = mk_topo(TOPO_KIND_RING, 16, 1);
  topos[3] = mk_topo(TOPO_KIND_MESH, 16, 16);
  topos[4] = mk_topo(TOPO_KIND_MESH, 2, 2);

  for (ti = 0; ti < 5; ti++) {
    const topo_t *t = &topos[ti];
    for (pi = 0; pi < NPERM; pi++) {
      char err[256];
      traffic_t *tg = mk(perm_names[pi], t, 0.1, 0.0, 7, err, sizeof err);
      int *seen, s, ok = 1;
      if (!CHECK(tg != NULL, "%s on %s: %s", perm_names[pi], t->name,
                  err))
        continue;
      CHECK0(traffic_kind(tg) == perm_kinds[pi]);
      seen = calloc((size_t)t->routers, sizeof *seen);
      for (s = 0; s < t->routers; s++) {
        int d = traffic_perm_dest(tg, s);
        if (d < 0 || d >= t->routers) ok = 0;
        else seen[d]++;
      }
      for (s = 0; s < t->routers; s++)
        if (seen[s] != 1) ok = 0;
      CHECK(ok,
             "%s on %s is not a bijection", perm_names[pi], t->name);
      free(seen);
      traffic_free(tg);
    }
  }
  for (ti = 0; ti < 5; ti++) free_topo(&topos[ti]);
}

/* A permutation run: every packet goes to perm_dest(src); self-mapped nodes
 * never inject, all the others do; sources increase within a cycle. */
static void test_perm_traffic(void)
{
  topo_t m8 = mk_topo(TOPO_KIND_MESH, 8, 8);
  int pi;
  for (pi = 0; pi < NPERM; pi++) {
    char err[256];
    traffic_t *tg = mk(perm_names[pi], &m8, 0.3, 0.25, 11, err, sizeof err);
    coll_t c;
    int s, bad_dst = 0, bad_silence = 0;
    if (!CHECK0(tg != NULL)) continue;
    coll_init(&c, 64, 0);
    CHECK0(run(tg, &c, 20000) == 0);
    for (s = 0; s < 64; s++) {
      int d = traffic_perm_dest(tg, s), k;
      for (k = 0; k < 64; k++)
        if (k != d && c.pair[s * 64 + k]) bad_dst++;
      if (d == s && c.per_src[s] != 0) bad_silence++;
      if (d != s && c.per_src[s] == 0) bad_silence++;
    }
    CHECK(bad_dst == 0,
           "%s: packets off the permutation", perm_names[pi]);
    CHECK(bad_silence == 0,
           "%s: a self-mapped node injected, or another did not",
           perm_names[pi]);
    CHECK0(c.self == 0);
    CHECK0(c.order_bad == 0);
    CHECK0(c.range_bad == 0 && c.len_bad == 0);
    coll_free(&c);
    traffic_free(tg);
  }
  free_topo(&m8);
}

/* Node counts that are not powers of two, and tiny ones: every node that
 * should inject does, to the right destinations. */
static void test_odd_sizes(void)
{
  static const struct {
    topo_kind_t kind;
    int w, h;
    const char *spec;
  } cases[] = {
    { TOPO_KIND_MESH, 3, 3, "tornado" },
    { TOPO_KIND_TORUS, 5, 3, "neighbor" },
    { TOPO_KIND_RING, 17, 1, "uniform_random" },
    { TOPO_KIND_RING, 2, 1, "uniform_random" },
    { TOPO_KIND_RING, 2, 1, "bit_complement" },
    { TOPO_KIND_MESH, 3, 1, "hotspot" },
    { TOPO_KIND_FILE, 33, 0, "uniform_random" }
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    topo_t t = mk_topo(cases[i].kind, cases[i].w, cases[i].h);
    char err[256];
    traffic_t *tg = mk(cases[i].spec, &t, 0.4, 0.0, 3, err, sizeof err);
    coll_t c;
    int s, bad = 0;
    if (!CHECK(tg != NULL, "%s on %s: %s", cases[i].spec, t.name, err)) {
      free_topo(&t);
      continue;
    }
    coll_init(&c, t.routers, 0);
    CHECK0(run(tg, &c, 5000) == 0);
    for (s = 0; s < t.routers; s++) {
      int d = traffic_perm_dest(tg, s), k;
      if (d == s) {
        if (c.per_src[s] != 0) bad++;
        continue;
      }
      if (c.per_src[s] < 1500 || c.per_src[s] > 2500) bad++;  /* ~2000 */
      if (d >= 0)
        for (k = 0; k < t.routers; k++)
          if (k != d && c.pair[s * t.routers + k]) bad++;
    }
    CHECK(bad == 0 && c.self == 0 && c.range_bad == 0 &&
           c.order_bad == 0,
           "%s on %s: wrong sources or destinations", cases[i].spec,
           t.name);
    coll_free(&c);
    traffic_free(tg);
    free_topo(&t);
  }
}

/* ------------------------------------------------------------------------ */
/* Injection process. */

static int within(double got, double want, double rel)
{
  return fabs(got - want) <= rel * want;
}

/* Chi-square statistic of n counts against equal expectations. */
static double chi2(const long long *count, int n)
{
  double tot = 0.0, e, x = 0.0;
  int i;
  for (i = 0; i < n; i++) tot += (double)count[i];
  e = tot / n;
  if (e <= 0.0) return 0.0;
  for (i = 0; i < n; i++) {
    double dv = (double)count[i] - e;
    x += dv * dv / e;
  }
  return x;
}
/* 99.9th percentile of chi-square with 63 degrees of freedom. */
#define CHI2_63_999 103.4

static void rate_case(const char *spec, double rate,
                      double long_frac)
{
  const uint64_t cycles = 200000;
  topo_t m8 = mk_topo(TOPO_KIND_MESH, 8, 8);
  char err[256];
  traffic_t *tg = mk(spec, &m8, rate, long_frac, 2024, err, sizeof err);
  coll_t c;
  double mrate, mlong, p, mgap, one, chi, tol;
  int s, d, missing = 0;

  if (!CHECK(tg != NULL, "%s: %s", spec, err)) {
    free_topo(&m8);
    return;
  }
  coll_init(&c, 64, 0);
  CHECK0(run(tg, &c, cycles) == 0);
  p = rate / (1.0 + (PKT_LONG_FLITS - 1) * long_frac);
  mrate = (double)c.flits / (64.0 * (double)cycles);
  mlong = c.packets ? (double)c.longs / (double)c.packets : 0.0;
  CHECK(within(mrate, rate, 0.02),
         "%s rate %g long %g: measured rate %g", spec, rate, long_frac,
         mrate);
  CHECK(within(mlong, long_frac, 0.02),
         "%s rate %g long %g: measured long fraction %g", spec, rate,
         long_frac, mlong);
  /* Bernoulli(p) per node: inter-arrival gaps are geometric, mean 1/p,
   * P(gap = 1) = p (memorylessness). */
  mgap = c.gaps ? (double)c.gap_sum / (double)c.gaps : 0.0;
  one = c.gaps ? (double)c.gap_one / (double)c.gaps : 0.0;
  CHECK(within(mgap, 1.0 / p, 0.02),
         "%s: mean gap %g, want %g", spec, mgap, 1.0 / p);
  tol = c.gaps ? 5.0 * sqrt((1.0 - p) / (p * (double)c.gaps)) : 0.0;
  CHECK(within(one, p, tol),
         "%s: P(gap = 1) %g, want %g", spec, one, p);
  /* every node injects at the same rate */
  chi = chi2(c.per_src, 64);
  CHECK(chi < CHI2_63_999,
         "%s: per-source packet counts: chi-square %g (63 d.o.f.)",
         spec, chi);
  CHECK0(c.self == 0);
  CHECK0(c.order_bad == 0);
  CHECK0(c.range_bad == 0 && c.len_bad == 0);
  CHECK0(c.flits == c.packets + (PKT_LONG_FLITS - 1) * c.longs);

  if (strcmp(spec, "uniform_random") == 0) {
    /* never self, every other node reached from every source, and the
     * destinations evenly used */
    for (s = 0; s < 64; s++)
      for (d = 0; d < 64; d++)
        if (d != s && c.pair[s * 64 + d] == 0) missing++;
    CHECK(missing == 0,
           "%d (src, dst) pairs never drawn", missing);
    chi = chi2(c.per_dst, 64);
    CHECK(chi < CHI2_63_999,
           "per-destination packet counts: chi-square %g (63 d.o.f.)",
           chi);
  }
  coll_free(&c);
  traffic_free(tg);
  free_topo(&m8);
}

static void test_rates(void)
{
  topo_t m8 = mk_topo(TOPO_KIND_MESH, 8, 8);
  char err[256];
  traffic_t *tg;
  coll_t c;

  rate_case("uniform_random", 0.1, 0.2);
  rate_case("uniform_random", 0.5, 0.5);
  rate_case("uniform_random", 0.02, 0.0);
  rate_case("hotspot", 0.3, 0.1);
  rate_case("bit_complement", 0.5, 0.8);

  /* rate 0: nothing, ever */
  tg = mk("uniform_random", &m8, 0.0, 0.5, 1, err, sizeof err);
  if (CHECK0(tg != NULL)) {
    coll_init(&c, 64, 0);
    CHECK0(run(tg, &c, 10000) == 0);
    CHECK0(c.packets == 0);
    coll_free(&c);
    traffic_free(tg);
  }
  /* the maximum rate: one packet per node per cycle */
  tg = mk("uniform_random", &m8, 1.0, 0.0, 1, err, sizeof err);
  if (CHECK0(tg != NULL)) {
    coll_init(&c, 64, 0);
    CHECK0(run(tg, &c, 1000) == 0);
    CHECK0(c.packets == 64 * 1000);
    CHECK0(c.flits == 64 * 1000);
    CHECK0(c.order_bad == 0);
    coll_free(&c);
    traffic_free(tg);
  }
  tg = mk("shuffle", &m8, 5.0, 1.0, 1, err, sizeof err);
  if (CHECK0(tg != NULL)) {
    coll_init(&c, 64, 0);
    CHECK0(run(tg, &c, 1000) == 0);
    CHECK0(c.packets == 62 * 1000);       /* 0 and 63 map to themselves */
    CHECK0(c.longs == c.packets);
    coll_free(&c);
    traffic_free(tg);
  }
  /* above the maximum: error naming the rate and the maximum */
  err[0] = '\0';
  tg = mk("uniform_random", &m8, 1.25, 0.0, 1, err, sizeof err);
  CHECK0(tg == NULL);
  CHECK(strstr(err, "rate 1.25") && strstr(err, "at most 1 "),
         "got: %s", err);
  err[0] = '\0';
  tg = mk("transpose", &m8, 3.5, 0.5, 1, err, sizeof err);
  CHECK0(tg == NULL);
  CHECK(strstr(err, "rate 3.5") && strstr(err, "at most 3 ") &&
         strstr(err, "long_frac 0.5"),
         "got: %s", err);
  /* other bad arguments */
  tg = mk("uniform_random", &m8, -0.1, 0.0, 1, err, sizeof err);
  CHECK0(tg == NULL && strstr(err, "rate"));
  tg = mk("uniform_random", &m8, 0.1, 1.5, 1, err, sizeof err);
  CHECK0(tg == NULL && strstr(err, "long_frac"));
  tg = mk("uniform_random", &m8, 0.1, -0.5, 1, err, sizeof err);
  CHECK0(tg == NULL && strstr(err, "long_frac"));
  tg = mk("uniform_random", &m8, NAN, 0.0, 1, err, sizeof err);
  CHECK0(tg == NULL && strstr(err, "rate"));
  free_topo(&m8);
}

/* ------------------------------------------------------------------------ */
/* Determinism. */

static uint64_t run_hash(const char *spec, const topo_t *t, double rate,
                         double long_frac, uint64_t seed, uint64_t cycles,
                         long long *packets)
{
  char err[256];
  traffic_t *tg = mk(spec, t, rate, long_frac, seed, err, sizeof err);
  coll_t c;
  uint64_t h;
  if (!tg) return 0;
  coll_init(&c, t->routers, 0);
  run(tg, &c, cycles);
  h = c.hash;
  if (packets) *packets = c.packets;
  coll_free(&c);
  traffic_free(tg);
  return h;
}

static void test_determinism(void)
{
  topo_t m8 = mk_topo(TOPO_KIND_MESH, 8, 8);
  static const char *const specs[] = { "uniform_random", "hotspot", "tornado" };
  int i;
  long long n1 = 0, n2 = 0;
  for (i = 0; i < 3; i++) {
    uint64_t a = run_hash(specs[i], &m8, 0.3, 0.4, 42, 20000, &n1);
    uint64_t b = run_hash(specs[i], &m8, 0.3, 0.4, 42, 20000, &n2);
    uint64_t c = run_hash(specs[i], &m8, 0.3, 0.4, 43, 20000, NULL);
    CHECK0(a != 0 && n1 > 0);
    CHECK(a == b && n1 == n2,
           "%s: same seed, different packets", specs[i]);
    CHECK(a != c,
           "%s: seeds 42 and 43 give the same packets", specs[i]);
  }
  /* Regression pin of the packet stream (PRNG, draw order, gap formula).
   * A deliberate change of any of them changes this value: update it and
   * say so in the commit, since old runs are then not reproducible. */
  {
    uint64_t h = run_hash("uniform_random", &m8, 0.2, 0.3, 1, 1000, &n1);
    CHECK(h == UINT64_C(0x9a25add5659a664e) && n1 == 5888,
           "pinned stream: hash 0x%016llx, %lld packets",
           (unsigned long long)h, n1);
  }
  free_topo(&m8);
}

/* ------------------------------------------------------------------------ */
/* Hotspot. */

/* Default on 8x8: the centre router (4, 4) = 36 takes a quarter of the
 * others' packets more than its uniform share; its own are uniform. */
static void hotspot_default_share(const topo_t *m8)
{
  char err[256];
  traffic_t *tg = mk("hotspot", m8, 0.2, 0.0, 5, err, sizeof err);
  coll_t c;
  int s;
  if (CHECK0(tg != NULL)) {
    long long to_hot = 0, from_others = 0, hot_max = 0;
    double want = 0.25 + 0.75 / 63.0, got;
    coll_init(&c, 64, 0);
    CHECK0(run(tg, &c, 100000) == 0);
    for (s = 0; s < 64; s++) {
      if (s == 36) continue;
      to_hot += c.pair[s * 64 + 36];
      from_others += c.per_src[s];
    }
    got = (double)to_hot / (double)from_others;
    CHECK(within(got, want, 0.02),
           "hotspot share %g, want %g", got, want);
    /* the hotspot node itself: uniform, never itself */
    CHECK0(c.pair[36 * 64 + 36] == 0);
    for (s = 0; s < 64; s++)
      if (c.pair[36 * 64 + s] > hot_max) hot_max = c.pair[36 * 64 + s];
    CHECK(hot_max < 2.0 * c.per_src[36] / 63.0,
           "hotspot node's own traffic is not uniform (max %lld of %lld)",
           hot_max, c.per_src[36]);
    CHECK0(c.self == 0 && c.order_bad == 0);
    coll_free(&c);
    traffic_free(tg);
  }
}

/* Pattern `name` on topology t (n nodes): the busiest destination over
 * 20000 cycles is `want`; with no_self, no packet goes to its source. */
static void hotspot_busiest(const char *name, const topo_t *t, int n, int want, int no_self)
{
  char err[256];
  traffic_t *tg = mk(name, t, 0.2, 0.0, 5, err, sizeof err);
  coll_t c;
  int s;
  if (CHECK0(tg != NULL)) {
    long long best = 0;
    int arg = -1;
    coll_init(&c, n, 0);
    run(tg, &c, 20000);
    for (s = 0; s < n; s++)
      if (c.per_dst[s] > best) {
        best = c.per_dst[s];
        arg = s;
      }
    CHECK(arg == want, "%s: busiest destination %d, want %d", name, arg, want);
    if (no_self) CHECK0(c.self == 0);
    coll_free(&c);
    traffic_free(tg);
  }
}

/* Bad hotspot nodes, and a network of one router. */
static void hotspot_bad(const topo_t *m8, const topo_t *m1)
{
  char err[256];
  traffic_t *tg;
  tg = mk("hotspot:64", m8, 0.2, 0.0, 5, err, sizeof err);
  CHECK(tg == NULL && strstr(err, "64") && strstr(err, "range"),
         "got: %s", err);
  tg = mk("hotspot:-1", m8, 0.2, 0.0, 5, err, sizeof err);
  CHECK0(tg == NULL && strstr(err, "range"));
  tg = mk("hotspot:x", m8, 0.2, 0.0, 5, err, sizeof err);
  CHECK0(tg == NULL && strstr(err, "'x'"));
  tg = mk("hotspot:", m8, 0.2, 0.0, 5, err, sizeof err);
  CHECK0(tg == NULL);
  tg = mk("hotspot:99999999999999999999999", m8, 0.2, 0.0, 5, err, sizeof err);
  CHECK0(tg == NULL && strstr(err, "range"));
  tg = mk("hotspot:18446744073709551615", m8, 0.2, 0.0, 5, err, sizeof err);
  CHECK0(tg == NULL && strstr(err, "range"));
  tg = mk("uniform_random", m1, 0.2, 0.0, 5, err, sizeof err);
  CHECK0(tg == NULL && strstr(err, "at least 2"));
}

static void test_hotspot(void)
{
  topo_t m8 = mk_topo(TOPO_KIND_MESH, 8, 8);
  topo_t r7 = mk_topo(TOPO_KIND_RING, 7, 1);
  topo_t f10 = mk_topo(TOPO_KIND_FILE, 10, 0);
  topo_t m1 = mk_topo(TOPO_KIND_MESH, 1, 1);
  hotspot_default_share(&m8);
  hotspot_busiest("hotspot:5", &m8, 64, 5, 1);     /* explicit node */
  hotspot_busiest("hotspot", &r7, 7, 3, 0);        /* defaults elsewhere: node N/2 */
  hotspot_busiest("hotspot", &f10, 10, 5, 0);
  hotspot_bad(&m8, &m1);
  free_topo(&m8);
  free_topo(&r7);
  free_topo(&f10);
  free_topo(&m1);
}

/* ------------------------------------------------------------------------ */
/* Pattern errors. */

static void test_pattern_errors(void)
{
  topo_t m3 = mk_topo(TOPO_KIND_MESH, 3, 3);
  topo_t m84 = mk_topo(TOPO_KIND_MESH, 8, 4);
  topo_t dfly = mk_topo(TOPO_KIND_DRAGONFLY, 72, 0);
  topo_t file16 = mk_topo(TOPO_KIND_FILE, 16, 0);
  static const char *const pow2[] = {
    "transpose", "bit_complement", "bit_reverse", "bit_rotation", "shuffle"
  };
  char err[512];
  traffic_t *tg;
  int i;

  tg = mk("foo", &m3, 0.1, 0.0, 1, err, sizeof err);
  CHECK(tg == NULL && strstr(err, "'foo'") &&
         strstr(err, "uniform_random") && strstr(err, "tornado") &&
         strstr(err, "hotspot:NODE") && strstr(err, "trace:PATH"),
         "got: %s", err);
  tg = mk("", &m3, 0.1, 0.0, 1, err, sizeof err);
  CHECK0(tg == NULL && strstr(err, "unknown"));
  tg = mk("uniform_randomx", &m3, 0.1, 0.0, 1, err, sizeof err);
  CHECK0(tg == NULL && strstr(err, "unknown"));

  for (i = 0; i < 5; i++) {
    err[0] = '\0';
    tg = mk(pow2[i], &m3, 0.1, 0.0, 1, err, sizeof err);
    CHECK(tg == NULL && strstr(err, pow2[i]) && strstr(err, "N = 9") &&
           strstr(err, "power-of-two"),
           "%s on mesh3x3: %s", pow2[i], err);
    traffic_free(tg);
  }
  /* 32 nodes: 5 bits, fine except for transpose */
  tg = mk("transpose", &m84, 0.1, 0.0, 1, err, sizeof err);
  CHECK(tg == NULL && strstr(err, "N = 32") && strstr(err, "even"),
         "got: %s", err);
  tg = mk("bit_reverse", &m84, 0.1, 0.0, 1, err, sizeof err);
  CHECK0(tg != NULL);
  traffic_free(tg);
  /* the 3x3 mesh has dimensions: tornado and neighbor work */
  tg = mk("tornado", &m3, 0.1, 0.0, 1, err, sizeof err);
  CHECK0(tg != NULL && traffic_perm_dest(tg, 0) == 4);
  traffic_free(tg);
  tg = mk("neighbor", &m3, 0.1, 0.0, 1, err, sizeof err);
  CHECK0(tg != NULL && traffic_perm_dest(tg, 8) == 0);
  traffic_free(tg);
  /* no dimensions */
  tg = mk("tornado", &dfly, 0.1, 0.0, 1, err, sizeof err);
  CHECK(tg == NULL && strstr(err, "tornado") && strstr(err, "mesh"),
         "got: %s", err);
  tg = mk("neighbor", &file16, 0.1, 0.0, 1, err, sizeof err);
  CHECK(tg == NULL && strstr(err, "neighbor") && strstr(err, "mesh"),
         "got: %s", err);
  /* bit patterns do not need dimensions */
  tg = mk("bit_complement", &file16, 0.1, 0.0, 1, err, sizeof err);
  CHECK0(tg != NULL && traffic_perm_dest(tg, 1) == 14);
  traffic_free(tg);
  free_topo(&m3);
  free_topo(&m84);
  free_topo(&dfly);
  free_topo(&file16);
}

/* ------------------------------------------------------------------------ */
/* Traces. */

static void path_of(char *buf, size_t len, const char *dir, const char *name)
{
  snprintf(buf, len, "trace:%s/%s", dir, name);
}

static void test_trace_good(void)
{
  static const rec_t want[] = {
    { 0, 0, 1, 1 }, { 0, 5, 3, 5 },
    { 3, 63, 0, 2 }, { 3, 1, 2, 1 }, { 3, 7, 8, 4 },
    { 10, 2, 9, 3 },
    { 1000, 10, 20, 5 }
  };
  const size_t nwant = sizeof want / sizeof want[0];
  topo_t m8 = mk_topo(TOPO_KIND_MESH, 8, 8);
  char spec[1024], err[1024];
  traffic_t *tg;
  coll_t c;
  size_t i;
  int ok, k;
  uint64_t cy;

  path_of(spec, sizeof spec, data_dir, "good.trace");
  /* rate and long_frac are ignored for traces, even out of range */
  tg = mk(spec, &m8, 99.0, 7.0, 1, err, sizeof err);
  if (!CHECK(tg != NULL, "%s", err)) {
    free_topo(&m8);
    return;
  }
  CHECK0(traffic_kind(tg) == TRAFFIC_TRACE);
  CHECK0(traffic_perm_dest(tg, 0) == -1);
  coll_init(&c, 64, 1);
  ok = 1;
  for (cy = 0; cy <= 1000; cy++) {
    c.cycle = cy;
    c.calls = 0;
    c.last_src = -1;
    if (traffic_exhausted(tg)) ok = 0;
    k = traffic_tick(tg, cy, on_packet, &c);
    if (k != c.calls) ok = 0;
    if (cy == 0 && k != 2) ok = 0;
    if (cy == 3 && k != 3) ok = 0;
    if (cy == 999 && traffic_exhausted(tg)) ok = 0;
  }
  CHECK0(ok);
  CHECK0(traffic_exhausted(tg));
  CHECK0(traffic_tick(tg, 1001, on_packet, &c) == 0);
  if (CHECK0(c.nrec == nwant)) {
    for (i = 0; i < nwant; i++)
      CHECK(memcmp(&c.rec[i], &want[i], sizeof want[i]) == 0,
             "packet %lu: got %llu %llu %llu %llu", (unsigned long)i,
             (unsigned long long)c.rec[i].cycle,
             (unsigned long long)c.rec[i].src,
             (unsigned long long)c.rec[i].dst,
             (unsigned long long)c.rec[i].flits);
  }
  coll_free(&c);
  traffic_free(tg);

  /* no packets: exhausted from the start */
  path_of(spec, sizeof spec, data_dir, "empty.trace");
  tg = mk(spec, &m8, 0.0, 0.0, 1, err, sizeof err);
  if (CHECK0(tg != NULL)) {
    CHECK0(traffic_exhausted(tg));
    CHECK0(traffic_tick(tg, 0, on_packet, NULL) == 0);
    traffic_free(tg);
  }
  /* the largest cycle parses; last line without a newline */
  path_of(spec, sizeof spec, data_dir, "big_cycle.trace");
  tg = mk(spec, &m8, 0.0, 0.0, 1, err, sizeof err);
  if (CHECK0(tg != NULL)) {
    coll_init(&c, 64, 0);
    c.last_src = -1;
    CHECK0(traffic_tick(tg, 0, on_packet, &c) == 1);
    CHECK0(!traffic_exhausted(tg));
    CHECK0(traffic_next_cycle(tg) == SIM_MAX_CYCLE);
    CHECK0(traffic_tick(tg, SIM_MAX_CYCLE - 1, on_packet, &c) == 0);
    CHECK0(traffic_tick(tg, SIM_MAX_CYCLE, on_packet, &c) == 1);
    CHECK0(traffic_next_cycle(tg) == UINT64_MAX);
    CHECK0(traffic_exhausted(tg));
    coll_free(&c);
    traffic_free(tg);
  }
  /* the trace bounds src and dst by this topology's N */
  path_of(spec, sizeof spec, data_dir, "good.trace");
  {
    topo_t m4 = mk_topo(TOPO_KIND_MESH, 4, 4);
    tg = mk(spec, &m4, 0.0, 0.0, 1, err, sizeof err);
    CHECK(tg == NULL && strstr(err, "good.trace:6:") &&
           strstr(err, "src 63 out of range [0, 16)"),
           "got: %s", err);
    free_topo(&m4);
  }
  free_topo(&m8);
}

static void test_trace_bad(void)
{
  static const struct {
    const char *file;
    int line;
    const char *why;
  } bad[] = {
    { "bad_fields.trace", 4, "expected 4 fields" },
    { "bad_fields5.trace", 2, "expected 4 fields" },
    { "bad_decreasing.trace", 4, "non-decreasing" },
    { "bad_src_range.trace", 2, "src 64 out of range" },
    { "bad_src_negative.trace", 3, "src '-1' out of range" },
    { "bad_dst_range.trace", 3, "dst 100 out of range" },
    { "bad_flits0.trace", 3, "flits 0 out of range" },
    { "bad_flits6.trace", 2, "flits 6 out of range" },
    { "bad_nonnumeric.trace", 2, "dst 'x' is not a decimal integer" },
    { "bad_float.trace", 1, "flits '1.5' is not a decimal integer" },
    { "bad_self.trace", 3, "src and dst are both 4" },
    { "bad_cycle_overflow.trace", 1, "cycle '18446744073709551616' out of range [0, 10^15]" },
    { "bad_cycle_limit.trace", 3, "cycle '1000000000000001' out of range [0, 10^15]" },
    { "bad_cycle_max.trace", 2, "cycle '18446744073709551615' out of range [0, 10^15]" }
  };
  topo_t m8 = mk_topo(TOPO_KIND_MESH, 8, 8);
  char spec[1024], err[1024], want[1100];
  size_t i;

  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    traffic_t *tg;
    path_of(spec, sizeof spec, data_dir, bad[i].file);
    err[0] = '\0';
    tg = mk(spec, &m8, 0.1, 0.0, 1, err, sizeof err);
    /* "PATH:LINE: reason" */
    snprintf(want, sizeof want, "%s:%d: ", spec + 6, bad[i].line);
    CHECK(tg == NULL && strncmp(err, want, strlen(want)) == 0 &&
           strstr(err, bad[i].why) && !strchr(err, '\n'),
           "%s: got \"%s\", want \"%s%s...\"", bad[i].file, err, want,
           bad[i].why);
    traffic_free(tg);
  }
  /* missing file */
  path_of(spec, sizeof spec, data_dir, "no_such_file.trace");
  {
    traffic_t *tg = mk(spec, &m8, 0.1, 0.0, 1, err, sizeof err);
    snprintf(want, sizeof want, "%s: cannot open: ", spec + 6);
    CHECK(tg == NULL && strncmp(err, want, strlen(want)) == 0 &&
           strlen(err) > strlen(want),
           "got \"%s\"", err);
    tg = mk("trace:", &m8, 0.1, 0.0, 1, err, sizeof err);
    CHECK0(tg == NULL && strstr(err, "path"));
  }
  /* a tiny error buffer is never overrun, and NULL err is allowed */
  path_of(spec, sizeof spec, data_dir, "bad_self.trace");
  {
    char small[8];
    memset(small, 'z', sizeof small);
    CHECK0(mk(spec, &m8, 0.1, 0.0, 1, small, 4) == NULL);
    CHECK0(small[3] == '\0' && small[4] == 'z');
    CHECK0(mk(spec, &m8, 0.1, 0.0, 1, NULL, 0) == NULL);
    CHECK0(mk("nope", &m8, 0.1, 0.0, 1, NULL, 0) == NULL);
  }
  free_topo(&m8);
}

/* A generated trace of 300k packets (array growth), with CRLF line ends, a
 * very long comment line and no final newline: every packet comes out at its
 * cycle, in file order. */
static void test_trace_big(void)
{
  const long npk = 300000;
  char path[] = "/tmp/test_traffic_XXXXXX";
  char spec[64], err[512];
  topo_t m8 = mk_topo(TOPO_KIND_MESH, 8, 8);
  uint64_t hwant = 1469598103934665603ull, state = 12345, cy = 0, cycles;
  int fd = mkstemp(path);
  FILE *f;
  long i;
  traffic_t *tg;
  coll_t c;

  if (!CHECK0(fd >= 0)) {
    free_topo(&m8);
    return;
  }
  f = fdopen(fd, "wb");
  if (!CHECK0(f != NULL)) {
    close(fd);
    remove(path);
    free_topo(&m8);
    return;
  }
  fputs("# generated\r\n#", f);
  for (i = 0; i < 100000; i++) fputc('=', f);
  fputs("\r\n", f);
  for (i = 0; i < npk; i++) {
    int src, dst, fl;
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    cy += (state >> 60) % 3;                 /* 0, 1 or 2 cycles on */
    src = (int)((state >> 20) % 64);
    dst = (int)((state >> 30) % 63);
    if (dst >= src) dst++;
    fl = 1 + (int)((state >> 40) % PKT_MAX_FLITS);
    fprintf(f, "%llu %d %d %d%s", (unsigned long long)cy, src, dst, fl,
            i + 1 < npk ? "\r\n" : "");
    hash_u64(&hwant, cy);
    hash_u64(&hwant, (uint64_t)src);
    hash_u64(&hwant, (uint64_t)dst);
    hash_u64(&hwant, (uint64_t)fl);
  }
  cycles = cy + 1;
  CHECK0(fclose(f) == 0);

  snprintf(spec, sizeof spec, "trace:%s", path);
  tg = mk(spec, &m8, 0.0, 0.0, 1, err, sizeof err);
  if (CHECK(tg != NULL, "%s", err)) {
    coll_init(&c, 64, 0);
    /* run() checks increasing sources within a cycle, which a trace need
     * not have: only the hash and count matter here */
    CHECK0(run(tg, &c, cycles) == 0);
    CHECK0(c.packets == npk);
    CHECK0(c.hash == hwant);
    CHECK0(traffic_exhausted(tg));
    coll_free(&c);
    traffic_free(tg);
  }
  remove(path);
  free_topo(&m8);
}

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
    return 2;
  }
  data_dir = argv[1];

  test_perm_examples();
  test_perm_bijective();
  test_perm_traffic();
  test_odd_sizes();
  test_rates();
  test_determinism();
  test_hotspot();
  test_pattern_errors();
  test_trace_good();
  test_trace_bad();
  test_trace_big();

  return check_done();
}
