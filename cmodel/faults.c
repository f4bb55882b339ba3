/* faults.c - see faults.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "faults.h"
#include "text.h"
#include "traffic.h"

#define FAULTS_LINE_MAX 1024

static int ferr(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* Where item k is: "file:3" or "--faults item 2". */
static const char *where(const faults_t *fs, int k, char *buf, size_t len)
{
  if (fs->path) snprintf(buf, len, "%s:%d", fs->path, k);
  else snprintf(buf, len, "--faults (FAULTS) item %d", k);
  return buf;
}

/* A decimal number of [0, hi] spanning exactly s[0..len). */
static int number(const char *s, size_t len, uint64_t hi, uint64_t *v)
{
  uint64_t x = 0;
  size_t i;
  if (len == 0 || len > 20) return -1;
  for (i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    if (x > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10u) return -1;
    x = x * 10u + (uint64_t)(s[i] - '0');
  }
  if (x > hi) return -1;
  *v = x;
  return 0;
}

/* One fault: cycle text c[0..clen), link text l[0..llen) ("R:P"). */
static int add(faults_t *fs, const topo_t *t, int k, const char *c, size_t clen,
               const char *l, size_t llen, char *err, size_t errlen)
{
  char w[128], shown[64];
  const char *colon = memchr(l, ':', llen);
  uint64_t cyc, r, p;
  int i, q, qp;
  where(fs, k, w, sizeof w);
  if (fs->n == FAULTS_MAX) return ferr(err, errlen, "%s: more than %d faults", w, FAULTS_MAX);
  snprintf(shown, sizeof shown, "%.*s", (int)(clen > 40 ? 40 : clen), c);
  if (number(c, clen, SIM_MAX_CYCLE, &cyc) != 0)
    return ferr(err, errlen, "%s: cycle '%s' is not a number in 0..10^15", w, shown);
  snprintf(shown, sizeof shown, "%.*s", (int)(llen > 40 ? 40 : llen), l);
  if (!colon || number(l, (size_t)(colon - l), (uint64_t)t->routers - 1u, &r) != 0 ||
      number(colon + 1, llen - (size_t)(colon + 1 - l), (uint64_t)t->radix - 1u, &p) != 0 ||
      p < (uint64_t)t->nics)
    return ferr(err, errlen, "%s: link '%s' is not ROUTER:PORT with a router in 0..%d and a "
                "network port in %d..%d of %s", w, shown, t->routers - 1, t->nics, t->radix - 1,
                t->name);
  q = t->peer_router[r * (uint64_t)t->radix + p];
  if (q < 0)
    return ferr(err, errlen, "%s: router %d port %d of %s has no link", w, (int)r, (int)p,
                t->name);
  qp = t->peer_port[r * (uint64_t)t->radix + p];
  for (i = 0; i < fs->n; i++) {
    const fault_t *g = &fs->f[i];
    if ((g->r == (int)r && g->p == (int)p) || (g->r == q && g->p == qp)) {
      char w0[128];
      return ferr(err, errlen, "%s: link %d:%d-%d:%d fails twice (first at %s)", w, (int)r,
                  (int)p, q, qp, where(fs, g->line, w0, sizeof w0));
    }
  }
  fs->f[fs->n].cycle = cyc;
  fs->f[fs->n].r = (int)r;
  fs->f[fs->n].p = (int)p;
  fs->f[fs->n].line = k;
  fs->n++;
  return 0;
}

static int parse_inline(const char *spec, const topo_t *t, faults_t *fs, char *err,
                        size_t errlen)
{
  const char *s = spec;
  int k = 1;
  for (;;) {
    const char *end = strchr(s, ',');
    const char *at;
    size_t len = end ? (size_t)(end - s) : strlen(s);
    at = memchr(s, '@', len);
    if (!at) {
      char shown[64];
      snprintf(shown, sizeof shown, "%.*s", (int)(len > 40 ? 40 : len), s);
      return ferr(err, errlen, "--faults (FAULTS) item %d: '%s' is not CYCLE@ROUTER:PORT "
                  "(or give file:PATH)", k, shown);
    }
    if (add(fs, t, k, s, (size_t)(at - s), at + 1, len - (size_t)(at + 1 - s), err,
            errlen) != 0)
      return -1;
    if (!end) return 0;
    s = end + 1;
    k++;
  }
}

/* Reads the next line of f: the part before its comment ('#') into buf (at
 * most max characters and the NUL), the comment skipped whatever its length
 * (as traces do), a '\r' before the '\n' dropped.  Returns 1 with a line, 0
 * at the end of the file, -1 with the reason in why: a NUL character (in the
 * comment too) or a line longer than max before its comment, reported at
 * once, reading no further (so /dev/zero is refused, not read forever), or a
 * read error. */
static int read_line(FILE *f, char *buf, size_t max, int *line, char *why, size_t whylen)
{
  size_t len = 0;
  int ch, any = 0, comment = 0;
  while ((ch = getc(f)) != EOF && ch != '\n') {
    if (!any) (*line)++;
    any = 1;
    if (ch == '\0') {
      snprintf(why, whylen, "line contains a NUL character");
      return -1;
    }
    if (comment) continue;
    if (ch == '#') {
      comment = 1;
      continue;
    }
    if (len == max + 1) {   /* room for a '\r' before the '\n' */
      snprintf(why, whylen, "line longer than %zu characters (before its comment)", max);
      return -1;
    }
    buf[len++] = (char)ch;
  }
  if (ferror(f)) {
    if (!any) (*line)++;
    snprintf(why, whylen, "read error: %s", strerror(errno));
    return -1;
  }
  if (ch == EOF && !any) return 0;
  if (!any) (*line)++;   /* an empty line */
  if (len > 0 && buf[len - 1] == '\r' && !comment) len--;
  if (len > max) {
    snprintf(why, whylen, "line longer than %zu characters (before its comment)", max);
    return -1;
  }
  buf[len] = '\0';
  return 1;
}

static int parse_file(const char *path, const topo_t *t, faults_t *fs, char *err, size_t errlen)
{
  char buf[FAULTS_LINE_MAX + 2];
  FILE *f;
  int line = 0, rc = 0;
  if (!*path)
    return ferr(err, errlen, "--faults (FAULTS): 'file:' without a path (give file:PATH)");
  f = fopen(path, "rb");
  if (!f) return ferr(err, errlen, "--faults (FAULTS): cannot open %s: %s", path, strerror(errno));
  for (;;) {
    char why[128], *tok[3];
    int ntok, got = read_line(f, buf, FAULTS_LINE_MAX, &line, why, sizeof why);
    if (got < 0) {
      rc = ferr(err, errlen, "%s:%d: %s", path, line, why);
      goto out;
    }
    if (got == 0) break;
    ntok = text_tokenize(buf, tok, 3);
    if (ntok > 2) {
      rc = ferr(err, errlen, "%s:%d: extra field '%.40s' after 'CYCLE ROUTER:PORT'", path, line,
                tok[2]);
      goto out;
    }
    if (ntok == 0) continue;
    if (ntok == 1) {
      rc = ferr(err, errlen, "%s:%d: missing field: expected 'CYCLE ROUTER:PORT'", path, line);
      goto out;
    }
    if (add(fs, t, line, tok[0], strlen(tok[0]), tok[1], strlen(tok[1]), err, errlen) != 0) {
      rc = -1;
      goto out;
    }
  }
  if (fs->n == 0) rc = ferr(err, errlen, "%s: no fault in the file", path);
out:
  fclose(f);
  return rc;
}

int faults_parse(const char *spec, const topo_t *t, faults_t *fs, char *err, size_t errlen)
{
  int i, j, rc;
  memset(fs, 0, sizeof *fs);
  if (!spec || !*spec) return 0;
  if (!strncmp(spec, "file:", 5)) {
    fs->path = spec + 5;
    rc = parse_file(spec + 5, t, fs, err, errlen);
  } else {
    rc = parse_inline(spec, t, fs, err, errlen);
  }
  if (rc != 0) return -1;
  /* stable insertion sort by cycle, then the stages */
  for (i = 1; i < fs->n; i++) {
    fault_t x = fs->f[i];
    for (j = i; j > 0 && fs->f[j - 1].cycle > x.cycle; j--) fs->f[j] = fs->f[j - 1];
    fs->f[j] = x;
  }
  for (i = 0; i < fs->n; i++) {
    if (i == 0 || fs->f[i].cycle != fs->at[fs->stages - 1]) fs->at[fs->stages++] = fs->f[i].cycle;
    fs->last[fs->stages - 1] = i;
  }
  return 0;
}

/* ---- the check before the run ---- */

static int uf_find(int *parent, int a)
{
  while (parent[a] != a) {
    parent[a] = parent[parent[a]];
    a = parent[a];
  }
  return a;
}

/* Joins the sets of a and b; returns 1 when they were two. */
static int uf_union(int *parent, int a, int b)
{
  a = uf_find(parent, a);
  b = uf_find(parent, b);
  if (a == b) return 0;
  if (a < b) parent[b] = a;
  else parent[a] = b;
  return 1;
}

/* The ports topo_route_masks allows at r toward d under XY or west-first,
 * among those in linked (the same expressions). */
static unsigned det_mask(const topo_t *t, route_fn_t fn, int r, int d, unsigned linked)
{
  const int dx = t->x[d] - t->x[r], dy = t->y[d] - t->y[r];
  unsigned m;
  if (fn == ROUTE_XY)
    m = dx > 0   ? 1u << PORT_EAST
        : dx < 0 ? 1u << PORT_WEST
        : dy > 0 ? 1u << PORT_NORTH
        : dy < 0 ? 1u << PORT_SOUTH
                 : 0u;
  else if (dx < 0)
    m = 1u << PORT_WEST;
  else
    m = (dx > 0 ? 1u << PORT_EAST : 0u) | (dy > 0 ? 1u << PORT_NORTH : 0u) |
        (dy < 0 ? 1u << PORT_SOUTH : 0u);
  return m & linked;
}

/* The first router d (in id order) that router r cannot reach under fn
 * with the ports of gone taken out, or -1. */
static int first_unroutable(const topo_t *t, route_fn_t fn, const uint8_t *gone, int r)
{
  const int R = t->radix;
  unsigned linked = 0;
  int p, d;
  for (p = 1; p < R; p++)
    if (t->peer_router[r * R + p] >= 0 && !gone[r * R + p]) linked |= 1u << p;
  for (d = 0; d < t->routers; d++)
    if (d != r && det_mask(t, fn, r, d, linked) == 0) return d;
  return -1;
}

/* The first pair (r, d), in the order topo_route_masks visits them (r, then
 * d), for which fn has no route at the routers of faults [i0, i1], with the
 * ports of gone out: *r = -1 when none.  Only those routers can have lost
 * a route in this stage: a route of XY or west-first depends on the
 * router's own links alone. */
static void stage_unroutable(const faults_t *fs, const topo_t *t, route_fn_t fn,
                             const uint8_t *gone, int i0, int i1, int *r, int *d)
{
  int i, e;
  *r = *d = -1;
  for (i = i0; i <= i1; i++)
    for (e = 0; e < 2; e++) {
      const fault_t *g = &fs->f[i];
      const int k = g->r * t->radix + g->p;
      const int a = e ? t->peer_router[k] : g->r;
      const int b = first_unroutable(t, fn, gone, a);
      if (b >= 0 && (*r < 0 || a < *r || (a == *r && b < *d))) {
        *r = a;
        *d = b;
      }
    }
}

/* The first router that router 0 cannot reach with the ports of gone out
 * (a breadth-first walk), or -1: with the network in pieces, the first
 * pair topo_route_masks finds disconnected is (0, that router). */
static int first_unreached(const topo_t *t, const uint8_t *gone, int *queue, uint8_t *seen)
{
  const int n = t->routers, R = t->radix;
  int head = 0, tail = 0, d;
  memset(seen, 0, (size_t)n);
  seen[0] = 1;
  queue[tail++] = 0;
  while (head < tail) {
    const int u = queue[head++];
    int p;
    for (p = 1; p < R; p++) {
      const int v = t->peer_router[u * R + p];
      if (v >= 0 && !gone[u * R + p] && !seen[v]) {
        seen[v] = 1;
        queue[tail++] = v;
      }
    }
  }
  for (d = 0; d < n; d++)
    if (!seen[d]) return d;
  return -1;
}

/* Marks (or clears) both ends of fault g's link in gone. */
static void mark(const topo_t *t, uint8_t *gone, const fault_t *g, uint8_t v)
{
  const int k = g->r * t->radix + g->p;
  gone[k] = v;
  gone[t->peer_router[k] * t->radix + t->peer_port[k]] = v;
}

int faults_check(faults_t *fs, const topo_t *t, route_fn_t fn, int esc, char *err,
                 size_t errlen)
{
  const int n = t->routers, R = t->radix;
  int *parent = NULL, *pieces = NULL, *queue = NULL;
  uint8_t *gone = NULL, *seen = NULL;
  int s, i, r, p, k, rc = 0;
  fs->fn = fn;
  fs->esc = esc;
  if (fs->stages == 0) return 0;
  if ((!route_fn_minimal(fn) || esc) &&
      (t->kind != TOPO_KIND_MESH || !t->has_coords || !t->x || !t->y))
    return ferr(err, errlen, "%s routing applies to meshes only; '%s' is not a mesh",
                fn == ROUTE_XY ? "xy" : "west-first", t->name);
  parent = malloc((size_t)n * sizeof *parent);
  queue = malloc((size_t)n * sizeof *queue);
  pieces = malloc((size_t)fs->stages * sizeof *pieces);
  gone = calloc((size_t)n * (size_t)R, 1);
  seen = malloc((size_t)n);
  if (!parent || !queue || !pieces || !gone || !seen) {
    rc = ferr(err, errlen, "out of memory for the check of %d faults", fs->n);
    goto out;
  }
  /* The number of pieces after each stage: the links of every stage out,
   * then each stage's links put back, from the last stage to the first. */
  for (i = 0; i < fs->n; i++) mark(t, gone, &fs->f[i], 1);
  for (r = 0; r < n; r++) parent[r] = r;
  k = n;
  for (r = 0; r < n; r++)
    for (p = 1; p < R; p++) {
      const int q = t->peer_router[r * R + p];
      if (q >= 0 && !gone[r * R + p]) k -= uf_union(parent, r, q);
    }
  for (s = fs->stages - 1; s >= 0; s--) {
    pieces[s] = k;
    for (i = s ? fs->last[s - 1] + 1 : 0; i <= fs->last[s]; i++)
      k -= uf_union(parent, fs->f[i].r, t->peer_router[fs->f[i].r * R + fs->f[i].p]);
  }
  /* Forward, stage by stage, as the tables would be built. */
  memset(gone, 0, (size_t)n * (size_t)R);
  for (s = 0, i = 0; s < fs->stages; s++) {
    const int i0 = i;
    int dr = -1, dd = -1, ur = -1, ud = -1;
    char w[128], why[400];
    for (; i <= fs->last[s]; i++) mark(t, gone, &fs->f[i], 1);
    if (pieces[s] > 1) {
      dr = 0;
      dd = first_unreached(t, gone, queue, seen);
    }
    if (!route_fn_minimal(fn)) stage_unroutable(fs, t, fn, gone, i0, i - 1, &ur, &ud);
    /* the first failing pair; a pair both unreachable and unroutable is
     * reported unreachable, as topo_route_masks tests that first */
    if (dr >= 0 && (ur < 0 || dr < ur || (dr == ur && dd <= ud)))
      snprintf(why, sizeof why, "%s: router %d cannot reach router %d (disconnected network)",
               t->name, dr, dd);
    else if (ur >= 0)
      snprintf(why, sizeof why, "%s: no %s route from router %d to router %d", t->name,
               fn == ROUTE_XY ? "xy" : "west-first", ur, ud);
    else if (esc && (stage_unroutable(fs, t, ROUTE_WEST_FIRST, gone, i0, i - 1, &ur, &ud), ur >= 0))
      snprintf(why, sizeof why, "%s: no west-first route from router %d to router %d", t->name,
               ur, ud);
    else
      continue;
    where(fs, fs->f[i - 1].line, w, sizeof w);
    rc = ferr(err, errlen, "%s: with the links failed by cycle %llu: %s", w,
              (unsigned long long)fs->at[s], why);
    break;
  }
out:
  free(parent);
  free(queue);
  free(pieces);
  free(gone);
  free(seen);
  return rc;
}

/* ---- the tables at a stage's cycle ---- */

int faults_apply(faults_t *fs, const topo_t *t, port_mask_t *masks, port_mask_t *masks_esc, char *err,
                 size_t errlen)
{
  topo_t *red = &fs->red;
  char why[400];
  int i;
  if (fs->next >= fs->stages) return 0;
  if (!fs->have_red) {
    if (topo_copy(t, red) != 0)
      return ferr(err, errlen, "out of memory for the tables of the link failures");
    fs->have_red = 1;
  }
  /* The stage's links out of the reduced topology; the hop distances are
   * computed once, by topo_remove_link on the last of them (the others are
   * unlinked in place, as it does). */
  for (i = fs->next ? fs->last[fs->next - 1] + 1 : 0; i <= fs->last[fs->next]; i++) {
    const fault_t *g = &fs->f[i];
    const size_t a = (size_t)g->r * (size_t)red->radix + (size_t)g->p;
    if (i < fs->last[fs->next]) {
      const size_t b = (size_t)red->peer_router[a] * (size_t)red->radix + (size_t)red->peer_port[a];
      red->peer_router[a] = red->peer_router[b] = -1;
      red->peer_port[a] = red->peer_port[b] = -1;
      red->line[a] = red->line[b] = 0;
    } else if (topo_remove_link(red, g->r, g->p) != 0) {
      return ferr(err, errlen, "out of memory for the tables of the link failures");
    }
  }
  if (topo_route_masks(red, fs->fn, masks, why, sizeof why) != 0 ||
      (fs->esc && topo_route_masks(red, ROUTE_WEST_FIRST, masks_esc, why, sizeof why) != 0))
    return ferr(err, errlen, "the tables of the link failures of cycle %llu: %s",
                (unsigned long long)fs->at[fs->next], why);
  fs->next++;
  return 0;
}

void faults_free(faults_t *fs)
{
  if (fs->have_red) topo_free(&fs->red);
  fs->have_red = 0;
}
