/* topology.c - network topologies: file parser, named generators, routing
 * masks.  The file format, the named topologies and the error rules are
 * those of docs/topology.md.
 *
 * Everything here runs at setup time; allocation is done freely.  While a
 * topology is being built, ports are stored with a fixed stride of
 * TOPO_MAX_PORTS; finish() copies them into a topo_t with stride radix and
 * computes the all-pairs hop distances.
 */
#define _POSIX_C_SOURCE 200809L   /* fmemopen */
#include "topology.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text.h"

/* Longest accepted physical line, line terminator ("\n" or "\r\n") excluded. */
#define TOPO_LINE_MAX 1024
/* Tokens kept per line: the longest valid line ("link A:P B:Q latency L") has
 * 5, one more is kept to name the first extra field. */
#define TOPO_MAX_TOKENS 6

/* Routing masks are port_mask_t, one bit per port. */
typedef char topo_ports_fit_in_a_mask[(TOPO_MAX_PORTS <= 8 * sizeof(port_mask_t)) ? 1 : -1];

/* ------------------------------------------------------------------------ */
/* helpers */

/* Messages quote file contents and names: escaped for the terminal. */
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  if (err == NULL || errlen == 0)
    return;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  text_escape(err, errlen, msg);
}

static void topo_reset(topo_t *t)
{
  static const topo_t empty;   /* read-only: all pointers NULL */
  *t = empty;
}

/* Topology under construction (stride TOPO_MAX_PORTS). */
typedef struct {
  int n;
  int *pr, *pp, *lat;   /* peer router, peer port, latency; pr = -1 unused */
  int *line;            /* parser: line that linked (r,p), 0 = unused */
  int *x, *y;
  int *cline;           /* parser: line of the coord of r, 0 = none */
} build_t;

static void build_free(build_t *b)
{
  free(b->pr);
  free(b->pp);
  free(b->lat);
  free(b->line);
  free(b->x);
  free(b->y);
  free(b->cline);
  b->pr = b->pp = b->lat = b->line = b->x = b->y = b->cline = NULL;
  b->n = 0;
}

static int build_init(build_t *b, int n)
{
  size_t np = (size_t)n * TOPO_MAX_PORTS, i;
  b->n = n;
  b->pr = malloc(np * sizeof *b->pr);
  b->pp = malloc(np * sizeof *b->pp);
  b->lat = calloc(np, sizeof *b->lat);
  b->line = calloc(np, sizeof *b->line);
  b->x = calloc((size_t)n, sizeof *b->x);
  b->y = calloc((size_t)n, sizeof *b->y);
  b->cline = calloc((size_t)n, sizeof *b->cline);
  if (!b->pr || !b->pp || !b->lat || !b->line || !b->x || !b->y || !b->cline) {
    build_free(b);
    return -1;
  }
  for (i = 0; i < np; i++)
    b->pr[i] = b->pp[i] = -1;
  return 0;
}

static void add_link(build_t *b, int r, int p, int q, int qp, int lat)
{
  size_t i = (size_t)r * TOPO_MAX_PORTS + (size_t)p;
  size_t j = (size_t)q * TOPO_MAX_PORTS + (size_t)qp;
  b->pr[i] = q;
  b->pp[i] = qp;
  b->lat[i] = lat;
  b->pr[j] = r;
  b->pp[j] = p;
  b->lat[j] = lat;
}

/* All-pairs hop distances, one BFS per source; -1 = unreachable. */
static int compute_dist(topo_t *t)
{
  int n = t->routers, R = t->radix, s;
  int *queue = malloc((size_t)n * sizeof *queue);
  if (queue == NULL)
    return -1;
  for (s = 0; s < n; s++) {
    int *row = t->dist + (size_t)s * (size_t)n;
    int head = 0, tail = 0, i;
    for (i = 0; i < n; i++)
      row[i] = -1;
    row[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
      int u = queue[head++], p;
      for (p = 1; p < R; p++) {
        int v = t->peer_router[(size_t)u * (size_t)R + (size_t)p];
        if (v >= 0 && row[v] < 0) {
          row[v] = row[u] + 1;
          queue[tail++] = v;
        }
      }
    }
  }
  free(queue);
  return 0;
}

/* One row of topo_cycle_dist: Dijkstra with a bucket queue (Dial), the
 * weights being 2..B - 1 (B = the longest link's latency + 2).  bucket
 * holds n ids a bucket, fill their counts. */
static void cycle_dist_row(const topo_t *t, int s, int *row, int *bucket, int *fill, int B)
{
  const int n = t->routers, R = t->radix;
  int i, d, left = 1;
  for (i = 0; i < n; i++) row[i] = -1;
  for (i = 0; i < B; i++) fill[i] = 0;
  row[s] = 0;
  bucket[0] = s;
  fill[0] = 1;
  for (d = 0; left > 0; d++) {
    int *b = bucket + (size_t)(d % B) * (size_t)n, k;
    for (k = 0; k < fill[d % B]; k++) {
      const int u = b[k];
      int p;
      left--;
      if (row[u] != d) continue;           /* reached earlier by a shorter route */
      for (p = 1; p < R; p++) {
        const size_t at = (size_t)u * (size_t)R + (size_t)p;
        const int v = t->peer_router[at], nd = d + t->latency[at] + 1;
        if (v < 0 || (row[v] >= 0 && row[v] <= nd)) continue;
        row[v] = nd;
        bucket[(size_t)(nd % B) * (size_t)n + (size_t)fill[nd % B]++] = v;
        left++;
      }
    }
    fill[d % B] = 0;
  }
}

int *topo_cycle_dist(const topo_t *t)
{
  const int n = t->routers;
  const int B = topo_max_latency(t) + 2;
  int *dist = malloc((size_t)n * (size_t)n * sizeof *dist);
  int *bucket = malloc((size_t)B * (size_t)n * sizeof *bucket);
  int *fill = malloc((size_t)B * sizeof *fill), s;
  if (!dist || !bucket || !fill) {
    free(dist);
    free(bucket);
    free(fill);
    return NULL;
  }
  for (s = 0; s < n; s++) cycle_dist_row(t, s, dist + (size_t)s * (size_t)n, bucket, fill, B);
  free(bucket);
  free(fill);
  return dist;
}

/* Moves the build into t (kind, name, width, height are the caller's), with
 * nics NIC ports a router.  radix = max(highest used port + 1, min_radix,
 * nics + 1).  Frees b. */
static int finish(build_t *b, topo_t *t, int nics, int min_radix, int has_coords,
                  char *err, size_t errlen)
{
  int n = b->n, R = min_radix < nics + 1 ? nics + 1 : min_radix, r, p;
  size_t np, nn;
  for (r = 0; r < n; r++)
    for (p = TOPO_MAX_PORTS - 1; p >= R; p--)
      if (b->pr[(size_t)r * TOPO_MAX_PORTS + (size_t)p] >= 0) {
        R = p + 1;
        break;
      }
  np = (size_t)n * (size_t)R;
  nn = (size_t)n * (size_t)n;
  t->routers = n;
  t->nics = nics;
  t->nodes = n * nics;
  t->radix = R;
  t->has_coords = has_coords;
  t->peer_router = malloc(np * sizeof *t->peer_router);
  t->peer_port = malloc(np * sizeof *t->peer_port);
  t->latency = malloc(np * sizeof *t->latency);
  t->line = malloc(np * sizeof *t->line);
  t->dist = malloc(nn * sizeof *t->dist);
  t->x = b->x;               /* same layout: hand over */
  t->y = b->y;
  b->x = b->y = NULL;
  if (!t->peer_router || !t->peer_port || !t->latency || !t->line || !t->dist) {
    build_free(b);
    topo_free(t);
    set_err(err, errlen, "%s: out of memory", t->name);
    return -1;
  }
  for (r = 0; r < n; r++)
    for (p = 0; p < R; p++) {
      size_t i = (size_t)r * TOPO_MAX_PORTS + (size_t)p;
      size_t o = (size_t)r * (size_t)R + (size_t)p;
      t->peer_router[o] = b->pr[i];
      t->peer_port[o] = b->pp[i];
      t->latency[o] = b->lat[i];
      t->line[o] = b->line[i];
    }
  build_free(b);
  if (compute_dist(t) != 0) {
    topo_free(t);
    set_err(err, errlen, "%s: out of memory", t->name);
    return -1;
  }
  return 0;
}

void topo_free(topo_t *t)
{
  if (t == NULL)
    return;
  free(t->peer_router);
  free(t->peer_port);
  free(t->latency);
  free(t->line);
  free(t->x);
  free(t->y);
  free(t->dist);
  t->peer_router = t->peer_port = t->latency = t->line = t->x = t->y = t->dist = NULL;
}

int topo_copy(const topo_t *src, topo_t *dst)
{
  size_t np = (size_t)src->routers * (size_t)src->radix;
  size_t nn = (size_t)src->routers * (size_t)src->routers;
  size_t nr = (size_t)src->routers;
  *dst = *src;
  dst->peer_router = malloc(np * sizeof *dst->peer_router);
  dst->peer_port = malloc(np * sizeof *dst->peer_port);
  dst->latency = malloc(np * sizeof *dst->latency);
  dst->line = malloc(np * sizeof *dst->line);
  dst->dist = malloc(nn * sizeof *dst->dist);
  dst->x = src->x ? malloc(nr * sizeof *dst->x) : NULL;
  dst->y = src->y ? malloc(nr * sizeof *dst->y) : NULL;
  if (!dst->peer_router || !dst->peer_port || !dst->latency || !dst->line || !dst->dist ||
      (src->x && !dst->x) || (src->y && !dst->y)) {
    topo_free(dst);
    return -1;
  }
  memcpy(dst->peer_router, src->peer_router, np * sizeof *dst->peer_router);
  memcpy(dst->peer_port, src->peer_port, np * sizeof *dst->peer_port);
  memcpy(dst->latency, src->latency, np * sizeof *dst->latency);
  memcpy(dst->line, src->line, np * sizeof *dst->line);
  memcpy(dst->dist, src->dist, nn * sizeof *dst->dist);
  if (src->x) memcpy(dst->x, src->x, nr * sizeof *dst->x);
  if (src->y) memcpy(dst->y, src->y, nr * sizeof *dst->y);
  return 0;
}

int topo_remove_link(topo_t *t, int r, int p)
{
  size_t i, j;
  int q;
  if (r < 0 || r >= t->routers || p < 1 || p >= t->radix) return -1;
  i = (size_t)r * (size_t)t->radix + (size_t)p;
  q = t->peer_router[i];
  if (q < 0) return -1;
  j = (size_t)q * (size_t)t->radix + (size_t)t->peer_port[i];
  t->peer_router[i] = t->peer_router[j] = -1;
  t->peer_port[i] = t->peer_port[j] = -1;
  t->line[i] = t->line[j] = 0;
  return compute_dist(t);
}

int topo_max_latency(const topo_t *t)
{
  int i, m = 1;
  for (i = 0; i < t->routers * t->radix; i++)
    if (t->peer_router[i] >= 0 && t->latency[i] > m) m = t->latency[i];
  return m;
}

int topo_diameter(const topo_t *t)
{
  const size_t nn = (size_t)t->routers * (size_t)t->routers;
  size_t i;
  int d = 0;
  for (i = 0; i < nn; i++)
    if (t->dist[i] > d) d = t->dist[i];
  return d;
}

unsigned topo_xlat_width(const topo_t *t)
{
  const unsigned lmax = (unsigned)topo_max_latency(t);
  unsigned w = 1;
  while ((1u << w) < lmax) w++;
  return w;
}

void topo_xlat_bits(const topo_t *t, int r, unsigned w, uint32_t *words, unsigned nwords)
{
  unsigned i;
  int p;
  for (i = 0; i < nwords; i++) words[i] = 0;
  for (p = 1; p < t->radix; p++) {
    const size_t k = (size_t)r * (size_t)t->radix + (size_t)p;
    unsigned v, b;
    if (t->peer_router[k] < 0) continue;
    v = (unsigned)(t->latency[k] - 1);
    for (b = 0; b < w; b++) {
      const unsigned at = w * (unsigned)p + b;
      if (at / 32u < nwords && (v >> b & 1u)) words[at / 32u] |= 1u << (at % 32u);
    }
  }
}

int topo_df_global(const topo_t *t, int r, int p)
{
  const int q = t->peer_router[r * t->radix + p];
  return t->df_a > 0 && q >= 0 && q / t->df_a != r / t->df_a;
}

/* Dragonfly: global channel k (0..a*h-1) of group G leads to group k if
 * k < G, else k + 1 (gen_dragonfly); the channel toward group T. */
static int df_channel(int G, int T) { return T < G ? T : T - 1; }

int topo_df_landing(const topo_t *t, int G, int T)
{
  return T * t->df_a + df_channel(T, G) / t->df_h;
}

int topo_df_hops(const topo_t *t, int r, int d)
{
  const int G = r / t->df_a, T = d / t->df_a;
  int owner, land;
  if (r == d) return 0;
  if (G == T) return 1;
  owner = G * t->df_a + df_channel(G, T) / t->df_h;
  land = topo_df_landing(t, G, T);
  return (owner != r) + 1 + (land != d);
}

/* ------------------------------------------------------------------------ */
/* file parser */

/* Decimal integer filling exactly [s, end) (tokens hold no blanks).
 * Returns 0, -1 when it is not an integer, 1 when it does not fit a long. */
static int parse_long(const char *s, const char *end, long *v)
{
  char *e;
  if (s == end)
    return -1;
  errno = 0;
  *v = strtol(s, &e, 10);
  if (e != end)
    return -1;
  return errno == ERANGE ? 1 : 0;
}

typedef struct {
  const char *path;
  int line;
  char *err;
  size_t errlen;
} ctx_t;

/* "FILE:LINE: message" */
static int perr(const ctx_t *c, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  set_err(c->err, c->errlen, "%s:%d: %s", c->path, c->line, msg);
  return -1;
}

/* Field `what` (for messages) of the whole token s, range [lo, hi]. */
static int field(const ctx_t *c, const char *what, const char *s, long lo,
                 long hi, int *out)
{
  long v;
  int rc = parse_long(s, s + strlen(s), &v);
  if (rc < 0)
    return perr(c, "%s '%s' is not an integer", what, s);
  if (rc > 0 || v < lo || v > hi)
    return perr(c, "%s %s out of range (%ld..%ld)", what, s, lo, hi);
  *out = (int)v;
  return 0;
}

/* "R:P" -> router, port; ranges checked here. */
static int endpoint(const ctx_t *c, const char *s, int n, int *r, int *p)
{
  const char *colon = strchr(s, ':');
  const char *end = s + strlen(s);
  long v;
  int rc;
  if (colon == NULL)
    return perr(c, "endpoint '%s' is not ROUTER:PORT", s);
  rc = parse_long(s, colon, &v);
  if (rc < 0)
    return perr(c, "endpoint '%s': router '%.*s' is not an integer", s,
                (int)(colon - s), s);
  if (rc > 0 || v < 0 || v >= n)
    return perr(c, "router %.*s out of range (0..%d)", (int)(colon - s), s,
                n - 1);
  *r = (int)v;
  rc = parse_long(colon + 1, end, &v);
  if (rc < 0)
    return perr(c, "endpoint '%s': port '%s' is not an integer", s, colon + 1);
  if (rc == 0 && v == 0)
    return perr(c, "port 0 of router %d is its NIC and cannot be linked", *r);
  if (rc > 0 || v < 1 || v >= TOPO_MAX_PORTS)
    return perr(c, "port %s of router %d out of range (1..%d)", colon + 1, *r,
                TOPO_MAX_PORTS - 1);
  *p = (int)v;
  return 0;
}

static int parse_link(const ctx_t *c, build_t *b, char **tok, int ntok)
{
  int r, p, q, qp, lat = 1;
  size_t i, j;
  if (ntok < 3)
    return perr(c, "missing field: expected 'link A:P B:Q [latency L]'");
  if (ntok > 5)
    return perr(c, "extra field '%s' after 'link A:P B:Q latency L'", tok[5]);
  if (ntok >= 4 && strcmp(tok[3], "latency") != 0)
    return perr(c, "unexpected field '%s' (expected 'latency L')", tok[3]);
  if (ntok == 4)
    return perr(c, "missing value after 'latency'");
  if (endpoint(c, tok[1], b->n, &r, &p) != 0 ||
      endpoint(c, tok[2], b->n, &q, &qp) != 0)
    return -1;
  if (ntok == 5 && field(c, "latency", tok[4], 1, INT_MAX, &lat) != 0)
    return -1;
  if (r == q)
    return perr(c, "self-loop: link from router %d to itself", r);
  i = (size_t)r * TOPO_MAX_PORTS + (size_t)p;
  j = (size_t)q * TOPO_MAX_PORTS + (size_t)qp;
  if (b->line[i] != 0)
    return perr(c, "port %d of router %d used twice (first used on line %d)",
                p, r, b->line[i]);
  if (b->line[j] != 0)
    return perr(c, "port %d of router %d used twice (first used on line %d)",
                qp, q, b->line[j]);
  add_link(b, r, p, q, qp, lat);
  b->line[i] = b->line[j] = c->line;
  return 0;
}

static int parse_coord(const ctx_t *c, build_t *b, char **tok, int ntok)
{
  int r, x, y;
  if (ntok < 4)
    return perr(c, "missing field: expected 'coord R X Y'");
  if (ntok > 4)
    return perr(c, "extra field '%s' after 'coord R X Y'", tok[4]);
  if (field(c, "router", tok[1], 0, b->n - 1, &r) != 0 ||
      field(c, "x coordinate", tok[2], INT_MIN, INT_MAX, &x) != 0 ||
      field(c, "y coordinate", tok[3], INT_MIN, INT_MAX, &y) != 0)
    return -1;
  if (b->cline[r] != 0)
    return perr(c, "duplicate coord for router %d (first on line %d)", r,
                b->cline[r]);
  b->x[r] = x;
  b->y[r] = y;
  b->cline[r] = c->line;
  return 0;
}

/* The next line of f into buf (size TOPO_LINE_MAX + 2), counted in c->line
 * (text_read_line): 1 with a line, 0 at the end, -1 with err set. */
static int read_line(FILE *f, ctx_t *c, char *buf)
{
  char why[128];
  int rc = text_read_line(f, buf, TOPO_LINE_MAX, &c->line, why, sizeof why);
  if (rc < 0)
    return perr(c, "%s", why);
  return rc;
}

/* Reads and parses the whole file into b.  Returns 0, or -1 with err set. */
static int parse_stream(FILE *f, ctx_t *c, build_t *b, int *first_coord)
{
  char buf[TOPO_LINE_MAX + 2];   /* line, a '\r' before its '\n', NUL */
  int routers_line = 0, rc;
  while ((rc = read_line(f, c, buf)) > 0) {
    char *tok[TOPO_MAX_TOKENS], *hash;
    int ntok, n;
    hash = strchr(buf, '#');
    if (hash != NULL)
      *hash = '\0';
    ntok = text_tokenize(buf, tok, TOPO_MAX_TOKENS);
    if (ntok == 0)
      continue;
    if (strcmp(tok[0], "routers") != 0 && strcmp(tok[0], "link") != 0 &&
        strcmp(tok[0], "coord") != 0)
      return perr(c, "unknown keyword '%s' (expected routers, link or coord)",
                  tok[0]);
    if (strcmp(tok[0], "routers") == 0) {
      if (routers_line != 0)
        return perr(c, "'routers' repeated (first on line %d)", routers_line);
      if (ntok < 2)
        return perr(c, "missing router count after 'routers'");
      if (ntok > 2)
        return perr(c, "extra field '%s' after 'routers N'", tok[2]);
      if (field(c, "router count", tok[1], 1, TOPO_MAX_ROUTERS, &n) != 0)
        return -1;
      if (build_init(b, n) != 0)
        return perr(c, "out of memory");
      routers_line = c->line;
    } else if (routers_line == 0) {
      return perr(c, "'%s' before 'routers N' (routers must come first)",
                  tok[0]);
    } else if (strcmp(tok[0], "link") == 0) {
      if (parse_link(c, b, tok, ntok) != 0)
        return -1;
    } else {
      if (parse_coord(c, b, tok, ntok) != 0)
        return -1;
      if (*first_coord == 0)
        *first_coord = c->line;
    }
  }
  if (rc < 0)
    return -1;
  if (routers_line == 0) {
    set_err(c->err, c->errlen, "%s: missing 'routers N' line", c->path);
    return -1;
  }
  return 0;
}

/* Parses the topology text of f; path names it in messages. */
static int parse_file(FILE *f, const char *path, topo_t *t, char *err,
                      size_t errlen)
{
  build_t b = {0, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  ctx_t c;
  int first_coord = 0, r;
  c.path = path;
  c.line = 0;
  c.err = err;
  c.errlen = errlen;
  if (parse_stream(f, &c, &b, &first_coord) != 0) {
    build_free(&b);
    return -1;
  }
  if (first_coord != 0)
    for (r = 0; r < b.n; r++)
      if (b.cline[r] == 0) {
        set_err(err, errlen, "%s: router %d has no coord line (coords are "
                "given from line %d on, so every router needs one)", path, r,
                first_coord);
        build_free(&b);
        return -1;
      }
  t->kind = TOPO_KIND_FILE;
  snprintf(t->name, sizeof t->name, "file:%s", path);
  if (finish(&b, t, 1, 2, first_coord != 0, err, errlen) != 0)
    return -1;
  for (r = 1; r < t->routers; r++)
    if (t->dist[r] < 0) {   /* row 0: distances from router 0 */
      set_err(err, errlen, "%s: router %d is not connected to router 0",
              path, r);
      topo_free(t);
      return -1;
    }
  return 0;
}

int topo_parse_file(const char *path, topo_t *t, char *err, size_t errlen)
{
  FILE *f;
  int rc;
  if (t == NULL) {
    set_err(err, errlen, "topo_parse_file: no topology given");
    return -1;
  }
  topo_reset(t);
  if (path == NULL) {
    set_err(err, errlen, "topo_parse_file: no path given");
    return -1;
  }
  f = fopen(path, "r");
  if (f == NULL) {
    set_err(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  rc = parse_file(f, path, t, err, errlen);
  fclose(f);
  return rc;
}

int topo_parse_buf(const char *name, const char *buf, size_t len, topo_t *t,
                   char *err, size_t errlen)
{
  FILE *f;
  int rc;
  if (t == NULL) {
    set_err(err, errlen, "topo_parse_buf: no topology given");
    return -1;
  }
  topo_reset(t);
  /* read-only stream over the caller's bytes ("r": never written) */
  f = fmemopen(buf ? (void *)buf : (void *)"", len, "r");
  if (f == NULL) {
    set_err(err, errlen, "%s: cannot read: %s", name, strerror(errno));
    return -1;
  }
  rc = parse_file(f, name, t, err, errlen);
  fclose(f);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* named topologies */

static const char topo_names_expected[] =
    "expected meshWxH, torusWxH, ring-N, dragonfly-a-p-h or file:PATH";

/* Reads the unsigned decimal number at *s for name `name`; `what` names it
 * in messages.  Values are capped at cap + 1 so that callers can report
 * "too large" without overflow. */
static int name_number(const char *name, const char **s, const char *what,
                       const char *form, long cap, long *v, char *err,
                       size_t errlen)
{
  const char *p = *s;
  long x = 0;
  if (*p < '0' || *p > '9') {
    if (*p == '\0')
      set_err(err, errlen, "'%s': missing %s (expected %s)", name, what, form);
    else
      set_err(err, errlen, "'%s': %s is not a number (expected %s)", name,
              what, form);
    return -1;
  }
  for (; *p >= '0' && *p <= '9'; p++)
    if (x <= cap)
      x = x * 10 + (*p - '0');
  *v = x > cap ? cap + 1 : x;
  *s = p;
  return 0;
}

/* Expects character ch at *s (a separator) after field `after`. */
static int name_sep(const char *name, const char **s, char ch,
                    const char *after, const char *form, char *err,
                    size_t errlen)
{
  if (**s == ch) {
    (*s)++;
    return 0;
  }
  if (**s == '\0')
    set_err(err, errlen, "'%s': missing '%c' after %s (expected %s)", name, ch,
            after, form);
  else
    set_err(err, errlen, "'%s': missing '%c' after %s, found '%s' "
            "(expected %s)", name, ch, after, *s, form);
  return -1;
}

static int name_end(const char *name, const char *s, const char *after,
                    const char *form, char *err, size_t errlen)
{
  if (*s == '\0')
    return 0;
  set_err(err, errlen, "'%s': unexpected '%s' after %s (expected %s)", name,
          s, after, form);
  return -1;
}

/* The optional "@L" after a generated topology's last field: the latency of
 * its links (dragonfly: of its global links), 1..TOPO_MAX_LATENCY; 1 when
 * absent.  Then the name must end. */
static int name_latency(const char *name, const char *s, const char *after, const char *form,
                        long *lat, char *err, size_t errlen)
{
  *lat = 1;
  if (*s == '@') {
    s++;
    if (name_number(name, &s, "latency", form, TOPO_MAX_LATENCY, lat, err, errlen) != 0)
      return -1;
    if (*lat < 1 || *lat > TOPO_MAX_LATENCY) {
      set_err(err, errlen, "'%s': link latency must be 1..%d", name, TOPO_MAX_LATENCY);
      return -1;
    }
    after = "the latency";
  }
  return name_end(name, s, after, form, err, errlen);
}

static int gen_grid(const char *name, topo_t *t, int wrap, char *err,
                    size_t errlen)
{
  const char *form = wrap ? "torusWxH[@L]" : "meshWxH[@L]";
  const char *s = name + (wrap ? 5 : 4);
  long w, h, lat;
  build_t b;
  int x, y;
  if (name_number(name, &s, "width", form, TOPO_MAX_ROUTERS, &w, err,
                  errlen) != 0 ||
      name_sep(name, &s, 'x', "the width", form, err, errlen) != 0 ||
      name_number(name, &s, "height", form, TOPO_MAX_ROUTERS, &h, err,
                  errlen) != 0 ||
      name_latency(name, s, "the height", form, &lat, err, errlen) != 0)
    return -1;
  if (w < 1 || h < 1) {
    set_err(err, errlen, "'%s': %s must be >= 1", name,
            w < 1 ? "width" : "height");
    return -1;
  }
  if (w * h < 2) {
    set_err(err, errlen, "'%s': needs at least 2 routers", name);
    return -1;
  }
  if (w * h > TOPO_MAX_ROUTERS) {
    set_err(err, errlen, "'%s': W*H exceeds TOPO_MAX_ROUTERS (%d)", name,
            TOPO_MAX_ROUTERS);
    return -1;
  }
  if (build_init(&b, (int)(w * h)) != 0) {
    set_err(err, errlen, "%s: out of memory", name);
    return -1;
  }
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      int id = y * (int)w + x;
      b.x[id] = x;
      b.y[id] = y;
      if (x + 1 < w)
        add_link(&b, id, PORT_EAST, id + 1, PORT_WEST, (int)lat);
      else if (wrap && w >= 3)
        add_link(&b, id, PORT_EAST, y * (int)w, PORT_WEST, (int)lat);
      if (y + 1 < h)
        add_link(&b, id, PORT_NORTH, id + (int)w, PORT_SOUTH, (int)lat);
      else if (wrap && h >= 3)
        add_link(&b, id, PORT_NORTH, x, PORT_SOUTH, (int)lat);
    }
  t->kind = wrap ? TOPO_KIND_TORUS : TOPO_KIND_MESH;
  t->width = (int)w;
  t->height = (int)h;
  return finish(&b, t, 1, PORT_SOUTH + 1, 1, err, errlen);
}

static int gen_ring(const char *name, topo_t *t, char *err, size_t errlen)
{
  const char *form = "ring-N[@L]";
  const char *s = name + 4;
  long n, lat;
  build_t b;
  int i;
  if (name_sep(name, &s, '-', "'ring'", form, err, errlen) != 0 ||
      name_number(name, &s, "router count", form, TOPO_MAX_ROUTERS, &n, err,
                  errlen) != 0 ||
      name_latency(name, s, "the router count", form, &lat, err, errlen) != 0)
    return -1;
  if (n < 3) {
    set_err(err, errlen, "'%s': a ring needs at least 3 routers", name);
    return -1;
  }
  if (n > TOPO_MAX_ROUTERS) {
    set_err(err, errlen, "'%s': N exceeds TOPO_MAX_ROUTERS (%d)", name,
            TOPO_MAX_ROUTERS);
    return -1;
  }
  if (build_init(&b, (int)n) != 0) {
    set_err(err, errlen, "%s: out of memory", name);
    return -1;
  }
  for (i = 0; i < n; i++) {
    b.x[i] = i;
    add_link(&b, i, 1, (i + 1) % (int)n, 2, (int)lat);
  }
  t->kind = TOPO_KIND_RING;
  t->width = (int)n;
  t->height = 1;
  return finish(&b, t, 1, 3, 1, err, errlen);
}

/* Local port of group member i towards member m (i != m): the other members
 * in increasing order on ports p..p+a-2, after the p NIC ports. */
static int df_local_port(int p, int i, int m)
{
  return (m < i ? m : m - 1) + p;
}

static int gen_dragonfly(const char *name, topo_t *t, char *err,
                         size_t errlen)
{
  const char *form = "dragonfly-a-p-h[@G]";
  const char *s = name + 9;
  long a, p, h, g, lat;
  build_t b;
  int G, i, m, k;
  if (name_sep(name, &s, '-', "'dragonfly'", form, err, errlen) != 0 ||
      name_number(name, &s, "a (routers per group)", form, TOPO_MAX_ROUTERS,
                  &a, err, errlen) != 0 ||
      name_sep(name, &s, '-', "the a field", form, err, errlen) != 0 ||
      name_number(name, &s, "p (terminals per router)", form,
                  TOPO_MAX_ROUTERS, &p, err, errlen) != 0 ||
      name_sep(name, &s, '-', "the p field", form, err, errlen) != 0 ||
      name_number(name, &s, "h (global links per router)", form,
                  TOPO_MAX_ROUTERS, &h, err, errlen) != 0 ||
      name_latency(name, s, "the h field", form, &lat, err, errlen) != 0)
    return -1;
  if (a < 1 || h < 1) {
    set_err(err, errlen, "'%s': %s must be >= 1", name, a < 1 ? "a" : "h");
    return -1;
  }
  if (p < 1) {
    set_err(err, errlen, "'%s': p must be >= 1 (terminals per router)", name);
    return -1;
  }
  if (p + a - 1 + h > TOPO_MAX_PORTS) {
    set_err(err, errlen, "'%s': radix p+a-1+h = %ld exceeds TOPO_MAX_PORTS (%d)",
            name, p + a - 1 + h, TOPO_MAX_PORTS);
    return -1;
  }
  g = a * h + 1;
  if (a * g > TOPO_MAX_ROUTERS) {
    set_err(err, errlen, "'%s': %ld routers, more than TOPO_MAX_ROUTERS (%d)",
            name, a * g, TOPO_MAX_ROUTERS);
    return -1;
  }
  if (a * g * p > 65535) {
    set_err(err, errlen, "'%s': %ld nodes, more than the head flit's 16-bit ids hold",
            name, a * g * p);
    return -1;
  }
  if (build_init(&b, (int)(a * g)) != 0) {
    set_err(err, errlen, "%s: out of memory", name);
    return -1;
  }
  for (G = 0; G < g; G++) {
    int base = G * (int)a;
    for (i = 0; i < a; i++)
      for (m = i + 1; m < a; m++)
        add_link(&b, base + i, df_local_port((int)p, i, m), base + m,
                 df_local_port((int)p, m, i), 1);
    /* Absolute arrangement: global channel k (0..a*h-1) of group G is port
     * p + a - 1 + k%h of member k/h and leads to group k if k < G, else
     * k+1.  The channel of group T > G that leads back to G is channel G. */
    for (k = 0; k < a * h; k++) {
      int T = k < G ? k : k + 1;
      if (T > G)
        add_link(&b, base + k / (int)h, (int)(p + a - 1) + k % (int)h,
                 T * (int)a + G / (int)h, (int)(p + a - 1) + G % (int)h, (int)lat);
    }
  }
  t->kind = TOPO_KIND_DRAGONFLY;
  t->df_a = (int)a;
  t->df_h = (int)h;
  return finish(&b, t, (int)p, (int)(p + a - 1 + h), 0, err, errlen);
}

int topo_from_name(const char *name, topo_t *t, char *err, size_t errlen)
{
  int rc;
  if (t == NULL) {
    set_err(err, errlen, "topo_from_name: no topology given");
    return -1;
  }
  topo_reset(t);
  if (name == NULL) {
    set_err(err, errlen, "topo_from_name: no name given (%s)",
            topo_names_expected);
    return -1;
  }
  snprintf(t->name, sizeof t->name, "%s", name);
  if (strncmp(name, "file:", 5) == 0) {
    if (name[5] == '\0') {
      set_err(err, errlen, "'%s': missing path after 'file:'", name);
      return -1;
    }
    rc = topo_parse_file(name + 5, t, err, errlen);
  } else if (strncmp(name, "mesh", 4) == 0) {
    rc = gen_grid(name, t, 0, err, errlen);
  } else if (strncmp(name, "torus", 5) == 0) {
    rc = gen_grid(name, t, 1, err, errlen);
  } else if (strncmp(name, "ring", 4) == 0) {
    rc = gen_ring(name, t, err, errlen);
  } else if (strncmp(name, "dragonfly", 9) == 0) {
    rc = gen_dragonfly(name, t, err, errlen);
  } else {
    set_err(err, errlen, "unknown topology '%s' (%s)", name,
            topo_names_expected);
    return -1;
  }
  if (rc != 0)
    return -1;
  snprintf(t->name, sizeof t->name, "%s", name);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* routing masks */

static const char *route_name(route_fn_t fn)
{
  switch (fn) {
  case ROUTE_XY: return "xy";
  case ROUTE_WEST_FIRST: return "west-first";
  case ROUTE_MINIMAL: return "minimal";
  case ROUTE_MIN_CYCLES: return "minimal (in cycles)";
  case ROUTE_DF_MIN: return "dragonfly minimal";
  }
  return "?";
}

static const char *kind_name(topo_kind_t k)
{
  switch (k) {
  case TOPO_KIND_FILE: return "file topology";
  case TOPO_KIND_MESH: return "mesh";
  case TOPO_KIND_TORUS: return "torus";
  case TOPO_KIND_RING: return "ring";
  case TOPO_KIND_DRAGONFLY: return "dragonfly";
  }
  return "topology";
}

/* The hierarchical minimal port of a dragonfly from router r toward router
 * d != r: local to d in the same group; else the global link to d's group,
 * or the local port toward the router that holds it. */
static unsigned df_min_port(const topo_t *t, int r, int d)
{
  const int a = t->df_a, G = r / a, T = d / a, R = t->radix;
  int target, p;
  if (G == T) {
    target = d;
  } else {
    const int k = df_channel(G, T), owner = G * a + k / t->df_h;
    if (owner == r) return 1u << (t->nics + a - 1 + k % t->df_h);
    target = owner;
  }
  for (p = t->nics; p < R; p++)
    if (t->peer_router[(size_t)r * (size_t)R + (size_t)p] == target) return 1u << p;
  return 0;
}

/* Whether every network link of t has the same latency. */
static int uniform_latency(const topo_t *t)
{
  const size_t cells = (size_t)t->routers * (size_t)t->radix;
  int lat = 0;
  size_t i;
  for (i = 0; i < cells; i++)
    if (t->peer_router[i] >= 0) {
      if (lat && t->latency[i] != lat) return 0;
      lat = t->latency[i];
    }
  return 1;
}

static int route_masks(const topo_t *t, route_fn_t fn, const int *cyc, port_mask_t *masks,
                       char *err, size_t errlen);

int topo_route_masks(const topo_t *t, route_fn_t fn, port_mask_t *masks,
                     char *err, size_t errlen)
{
  int *cyc = NULL, rc;
  if (fn == ROUTE_MIN_CYCLES && t != NULL && t->peer_router != NULL && t->latency != NULL &&
      !uniform_latency(t) && (cyc = topo_cycle_dist(t)) == NULL) {
    set_err(err, errlen, "%s: out of memory for the cycle distances", t->name);
    return -1;
  }
  rc = route_masks(t, fn, cyc, masks, err, errlen);
  free(cyc);
  return rc;
}

/* topo_route_masks; cyc: the cycle distances of ROUTE_MIN_CYCLES, NULL
 * where the links' latencies are all one (the hop distances serve). */
static int route_masks(const topo_t *t, route_fn_t fn, const int *cyc, port_mask_t *masks,
                       char *err, size_t errlen)
{
  int n, R, r, d, nodes, k;
  if (t == NULL || masks == NULL || t->routers < 1 || t->radix < 2 ||
      t->peer_router == NULL || t->dist == NULL) {
    set_err(err, errlen, "topo_route_masks: no topology or no mask array");
    return -1;
  }
  if (fn != ROUTE_XY && fn != ROUTE_WEST_FIRST && !route_fn_minimal(fn) && fn != ROUTE_DF_MIN) {
    set_err(err, errlen, "%s: unknown routing function %d", t->name, (int)fn);
    return -1;
  }
  if (fn == ROUTE_DF_MIN && (t->kind != TOPO_KIND_DRAGONFLY || t->df_a < 1)) {
    set_err(err, errlen, "%s routing applies to dragonflies only; '%s' is a %s",
            route_name(fn), t->name, kind_name(t->kind));
    return -1;
  }
  if (!route_fn_minimal(fn) && fn != ROUTE_DF_MIN &&
      (t->kind != TOPO_KIND_MESH || !t->has_coords || t->x == NULL ||
       t->y == NULL)) {
    set_err(err, errlen, "%s routing applies to meshes only; '%s' is a %s",
            route_name(fn), t->name, kind_name(t->kind));
    return -1;
  }
  n = t->routers;
  R = t->radix;
  nodes = t->nodes;
  for (r = 0; r < n; r++) {
    const int *peer = t->peer_router + (size_t)r * (size_t)R;
    unsigned linked = 0, m;
    int p;
    for (p = 1; p < R; p++)
      if (peer[p] >= 0)
        linked |= 1u << p;
    for (d = 0; d < n; d++) {
      int rd = t->dist[(size_t)r * (size_t)n + (size_t)d];
      port_mask_t *row = masks + (size_t)r * (size_t)nodes + (size_t)d * (size_t)t->nics;
      if (r == d) {
        for (k = 0; k < t->nics; k++) row[k] = (port_mask_t)(1u << k);   /* eject at its NIC */
        continue;
      }
      if (rd < 0) {
        set_err(err, errlen, "%s: router %d cannot reach router %d "
                "(disconnected network)", t->name, r, d);
        return -1;
      }
      m = 0;
      if (fn == ROUTE_DF_MIN) {
        m = df_min_port(t, r, d);
      } else if (fn == ROUTE_MIN_CYCLES && cyc) {
        const int *lat = t->latency + (size_t)r * (size_t)R;
        const int rc = cyc[(size_t)r * (size_t)n + (size_t)d];
        for (p = 1; p < R; p++)
          if (peer[p] >= 0 && lat[p] + 1 + cyc[(size_t)peer[p] * (size_t)n + (size_t)d] == rc)
            m |= 1u << p;
      } else if (route_fn_minimal(fn)) {
        for (p = 1; p < R; p++)
          if (peer[p] >= 0 &&
              t->dist[(size_t)peer[p] * (size_t)n + (size_t)d] == rd - 1)
            m |= 1u << p;
      } else {
        int dx = t->x[d] - t->x[r], dy = t->y[d] - t->y[r];
        if (fn == ROUTE_XY)
          m = dx > 0   ? 1u << PORT_EAST
              : dx < 0 ? 1u << PORT_WEST
              : dy > 0 ? 1u << PORT_NORTH
              : dy < 0 ? 1u << PORT_SOUTH
                       : 0u;
        else if (dx < 0)
          m = 1u << PORT_WEST;
        else
          m = (dx > 0 ? 1u << PORT_EAST : 0u) |
              (dy > 0 ? 1u << PORT_NORTH : 0u) |
              (dy < 0 ? 1u << PORT_SOUTH : 0u);
        m &= linked;
      }
      if (m == 0) {
        set_err(err, errlen, "%s: no %s route from router %d to router %d",
                t->name, route_name(fn), r, d);
        return -1;
      }
      for (k = 0; k < t->nics; k++) row[k] = (port_mask_t)m;
    }
  }
  return 0;
}
