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
      number(colon + 1, llen - (size_t)(colon + 1 - l), (uint64_t)t->radix - 1u, &p) != 0 || p == 0)
    return ferr(err, errlen, "%s: link '%s' is not ROUTER:PORT with a router in 0..%d and a "
                "network port in 1..%d of %s", w, shown, t->routers - 1, t->radix - 1, t->name);
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

static int parse_file(const char *path, const topo_t *t, faults_t *fs, char *err, size_t errlen)
{
  char buf[FAULTS_LINE_MAX + 2];
  FILE *f = fopen(path, "rb");
  int line = 0, rc = 0;
  if (!f) return ferr(err, errlen, "--faults (FAULTS): cannot open %s: %s", path, strerror(errno));
  for (;;) {
    char why[128], *tok[3];
    int ntok, got = text_read_line(f, buf, FAULTS_LINE_MAX, &line, why, sizeof why);
    if (got < 0) {
      rc = ferr(err, errlen, "%s:%d: %s", path, line, why);
      goto out;
    }
    if (got == 0) break;
    if (strchr(buf, '#')) *strchr(buf, '#') = '\0';
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

int faults_tables(faults_t *fs, const topo_t *t, route_fn_t fn, int esc, char *err,
                  size_t errlen)
{
  const size_t nn = (size_t)t->routers * (size_t)t->routers;
  topo_t red;
  int s, i = 0;
  if (fs->stages == 0) return 0;
  fs->masks = malloc((size_t)fs->stages * nn);
  fs->masks_esc = esc ? malloc((size_t)fs->stages * nn) : NULL;
  if (!fs->masks || (esc && !fs->masks_esc) || topo_copy(t, &red) != 0)
    return ferr(err, errlen, "out of memory for the tables of %d faults", fs->n);
  for (s = 0; s < fs->stages; s++) {
    char w[128], why[400];
    const fault_t *g = NULL;
    for (; i <= fs->last[s]; i++) {
      g = &fs->f[i];
      if (topo_remove_link(&red, g->r, g->p) != 0) {
        topo_free(&red);
        return ferr(err, errlen, "out of memory for the tables of %d faults", fs->n);
      }
    }
    where(fs, g->line, w, sizeof w);
    if (topo_route_masks(&red, fn, fs->masks + (size_t)s * nn, why, sizeof why) != 0 ||
        (esc && topo_route_masks(&red, ROUTE_WEST_FIRST, fs->masks_esc + (size_t)s * nn, why,
                                 sizeof why) != 0)) {
      topo_free(&red);
      return ferr(err, errlen, "%s: with the links failed by cycle %llu: %s", w,
                  (unsigned long long)fs->at[s], why);
    }
  }
  topo_free(&red);
  return 0;
}

void faults_free(faults_t *fs)
{
  free(fs->masks);
  free(fs->masks_esc);
  fs->masks = fs->masks_esc = NULL;
}
