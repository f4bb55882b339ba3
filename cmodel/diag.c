/* diag.c - see diag.h. */
#include <stdlib.h>
#include <string.h>
#include "diag.h"

/* ---- loops standing ---- */

typedef struct {
  const network_t *net;
  int P, V;
} graph_t;

static int node(const graph_t *g, int r, int p, int v)
{
  return (r * g->P + p) * g->V + v;
}

/* The downstream input port of VC u (its router and port into *r2, *p2)
 * when u waits (diag.h), else 0. */
static int waits(const graph_t *g, int u, int *r2, int *p2)
{
  const network_t *net = g->net;
  const int v = u % g->V, p = (u / g->V) % g->P, r = u / (g->V * g->P);
  const router_t *rt = &net->rt[r];
  const unsigned all = (1u << g->V) - 1u;
  int o, k;
  if (p < net->nics || !rt->cnt_q[p][v] || !rt->route_valid_q[p][v] || rt->sp.spinning_q[p][v])
    return 0;
  if (!CTL_HEAD(rt->buf_ctl[(p * g->V + v) * BUF_DEPTH + rt->rd_q[p][v]])) return 0;
  o = rt->out_port_q[p][v];
  if (o < net->nics || o >= g->P || (rt->ovc_busy_q[o] & all) != all) return 0;
  k = r * net->topo->radix + o;
  if (net->topo->peer_router[k] < 0) return 0;
  *r2 = net->topo->peer_router[k];
  *p2 = net->topo->peer_port[k];
  return 1;
}

/* Successor i (0..V-1) of u, or -1. */
static int succ(const graph_t *g, int u, int i)
{
  int r2, p2;
  if (!waits(g, u, &r2, &p2)) return -1;
  return node(g, r2, p2, i);
}

static diag_vc_t vc_of(const graph_t *g, int u)
{
  diag_vc_t d;
  d.v = u % g->V;
  d.p = (u / g->V) % g->P;
  d.r = u / (g->V * g->P);
  d.out = g->net->rt[d.r].out_port_q[d.p][d.v];
  return d;
}

static int cmp_int(const void *a, const void *b)
{
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* One strongly connected part, comp[0..m-1] (m >= 2): a loop. */
static void add_loop(diag_loops_t *out, const graph_t *g, int *comp, int m)
{
  const network_t *net = g->net;
  diag_loop_t l;
  int i;
  memset(&l, 0, sizeof l);
  l.hops = (unsigned)m;
  for (i = 0; i < m; i++) {
    const diag_vc_t d = vc_of(g, comp[i]);
    l.cycles += (uint64_t)net->topo->latency[d.r * net->topo->radix + d.p] + net->fmt.s;
    if (net->rt[d.r].sp.frozen_q[d.p][d.v]) l.frozen++;
  }
  out->loops++;
  if (net->fmt.cyc_max && l.cycles > net->fmt.cyc_max) out->beyond_reach++;
  if (l.cycles > out->longest_cycles ||
      (l.cycles == out->longest_cycles && l.hops > out->longest_hops)) {
    out->longest_cycles = l.cycles;
    out->longest_hops = l.hops;
  }
  if (out->kept >= DIAG_LOOPS_KEPT) return;
  l.vc = malloc((size_t)m * sizeof *l.vc);
  if (!l.vc) return;
  qsort(comp, (size_t)m, sizeof *comp, cmp_int);
  if (g->V == 1) {
    /* a cycle: from its lowest VC, each VC then the one it waits for */
    int u = comp[0];
    for (i = 0; i < m; i++) {
      l.vc[i] = vc_of(g, u);
      u = succ(g, u, 0);
    }
  } else {
    for (i = 0; i < m; i++) l.vc[i] = vc_of(g, comp[i]);
  }
  out->loop[out->kept++] = l;
}

int diag_loops(diag_loops_t *out, const network_t *net)
{
  graph_t g;
  int N, u, top = 0, sp = 0, counter = 0, rc = 0;
  int *idx, *low, *stack, *call, *next;
  char *on;
  memset(out, 0, sizeof *out);
  g.net = net;
  g.P = net->ports;
  g.V = net->vcs;
  N = net->n * g.P * g.V;
  idx = malloc((size_t)N * sizeof *idx);
  low = malloc((size_t)N * sizeof *low);
  stack = malloc((size_t)N * sizeof *stack);
  call = malloc((size_t)N * sizeof *call);
  next = malloc((size_t)N * sizeof *next);
  on = calloc((size_t)N, 1);
  if (!idx || !low || !stack || !call || !next || !on) {
    rc = -1;
    goto done;
  }
  for (u = 0; u < N; u++) {
    int r2, p2;
    idx[u] = -1;
    if (waits(&g, u, &r2, &p2)) out->waiting++;
  }
  /* Tarjan's strongly connected parts, without recursion: call[] holds the
   * path of the search, next[] each node's next successor to try */
  for (u = 0; u < N; u++) {
    if (idx[u] >= 0) continue;
    call[top++] = u;
    next[u] = 0;
    idx[u] = low[u] = counter++;
    stack[sp++] = u;
    on[u] = 1;
    while (top) {
      const int x = call[top - 1];
      if (next[x] < g.V) {
        const int y = succ(&g, x, next[x]++);
        if (y < 0) {
          next[x] = g.V;
        } else if (idx[y] < 0) {
          idx[y] = low[y] = counter++;
          next[y] = 0;
          stack[sp++] = y;
          on[y] = 1;
          call[top++] = y;
        } else if (on[y] && idx[y] < low[x]) {
          low[x] = idx[y];
        }
        continue;
      }
      top--;
      if (top && low[x] < low[call[top - 1]]) low[call[top - 1]] = low[x];
      if (low[x] == idx[x]) {
        /* x's part: the stack from x up */
        int pos = sp - 1, k;
        while (stack[pos] != x) pos--;
        for (k = pos; k < sp; k++) on[stack[k]] = 0;
        if (sp - pos >= 2) add_loop(out, &g, &stack[pos], sp - pos);
        sp = pos;
      }
    }
  }
done:
  free(idx);
  free(low);
  free(stack);
  free(call);
  free(next);
  free(on);
  return rc;
}

void diag_loops_free(diag_loops_t *d)
{
  size_t i;
  for (i = 0; i < d->kept; i++) free(d->loop[i].vc);
  d->kept = 0;
}

/* ---- waiting behind a front ---- */

/* Waiting VCs behind front port f (reached back through the VCs that wait
 * for a port already reached), marking them in seen[] and in all[]; their
 * count.  into[y]..into[y+1] index by[], the waiting VCs that wait for port
 * y; q[] has room for every port. */
static uint64_t count_behind(const graph_t *g, int f, const int *into, const int *by, int *q,
                             char *seen_port, char *all)
{
  uint64_t n = 0;
  int head = 0, tail = 0, i;
  q[tail++] = f;
  seen_port[f] = 1;
  while (head < tail) {
    const int y = q[head++];
    for (i = into[y]; i < into[y + 1]; i++) {
      const int u = by[i], x = u / g->V;
      n++;
      all[u] = 1;
      if (!seen_port[x]) {
        seen_port[x] = 1;
        q[tail++] = x;
      }
    }
  }
  for (i = 0; i < tail; i++) seen_port[q[i]] = 0;
  return n;
}

/* Whether port y holds a VC that does not wait (down[u] < 0: VC u waits
 * for no port). */
static int is_front(const graph_t *g, int y, const int *down)
{
  int v;
  for (v = 0; v < g->V; v++)
    if (down[y * g->V + v] < 0) return 1;
  return 0;
}

int diag_behind(diag_behind_t *out, const network_t *net)
{
  graph_t g;
  int NP, N, u, y, rc = 0;
  int *down, *into, *by, *q;
  char *seen_port, *all;
  memset(out, 0, sizeof *out);
  out->r = out->o = out->r2 = out->p2 = -1;
  g.net = net;
  g.P = net->ports;
  g.V = net->vcs;
  NP = net->n * g.P;
  N = NP * g.V;
  down = malloc((size_t)N * sizeof *down);
  into = calloc((size_t)NP + 1, sizeof *into);
  by = malloc((size_t)N * sizeof *by);
  q = malloc((size_t)NP * sizeof *q);
  seen_port = calloc((size_t)NP, 1);
  all = calloc((size_t)N, 1);
  if (!down || !into || !by || !q || !seen_port || !all) {
    rc = -1;
    goto done;
  }
  for (u = 0; u < N; u++) {
    int r2, p2;
    down[u] = waits(&g, u, &r2, &p2) ? r2 * g.P + p2 : -1;
    if (down[u] >= 0) into[down[u] + 1]++;
  }
  for (y = 0; y < NP; y++) into[y + 1] += into[y];
  {
    int *fill = q;   /* q is free until the counting below */
    memcpy(fill, into, (size_t)NP * sizeof *fill);
    for (u = 0; u < N; u++)
      if (down[u] >= 0) by[fill[down[u]]++] = u;
  }
  for (y = 0; y < NP; y++) {
    const topo_t *t = net->topo;
    int k, r, o;
    unsigned lat;
    uint64_t n;
    if (into[y] == into[y + 1] || !is_front(&g, y, down)) continue;
    out->fronts++;
    n = count_behind(&g, y, into, by, q, seen_port, all);
    k = (y / g.P) * t->radix + y % g.P;
    r = t->peer_router[k];
    o = t->peer_port[k];
    lat = t->latency[k];
    if (n > out->most || (n == out->most && lat > out->latency)) {
      out->most = n;
      out->r = r;
      out->o = o;
      out->r2 = y / g.P;
      out->p2 = y % g.P;
      out->latency = lat;
    }
  }
  for (u = 0; u < N; u++) out->behind += all[u];
done:
  free(down);
  free(into);
  free(by);
  free(q);
  free(seen_port);
  free(all);
  if (rc) {
    memset(out, 0, sizeof *out);
    out->r = out->o = out->r2 = out->p2 = -1;
  }
  return rc;
}

/* ---- failed links ---- */

static int take_faults(diag_faults_t *d, const network_t *net, const faults_t *fs)
{
  const topo_t *t = net->topo;
  const int applied = faults_applied(fs);
  int i, e;
  if (!d->failed) {
    d->n = net->n;
    d->ports = net->ports;
    d->vcs = net->vcs;
    d->failed = calloc((size_t)d->n, 1);
    d->watch = calloc((size_t)d->n * (size_t)(d->ports * d->vcs), sizeof *d->watch);
    d->ends = malloc((size_t)d->n * sizeof *d->ends);
    if (!d->failed || !d->watch || !d->ends) return -1;
  }
  for (i = d->applied; i < applied; i++) {
    const int k = fs->f[i].r * t->radix + fs->f[i].p;
    const int end[2][2] = {{fs->f[i].r, fs->f[i].p}, {t->peer_router[k], t->peer_port[k]}};
    for (e = 0; e < 2; e++) {
      const int r = end[e][0];
      if (r < 0) continue;
      if (!d->failed[r]) d->ends[d->n_ends++] = r;
      d->failed[r] |= (uint8_t)(1u << end[e][1]);
    }
  }
  d->applied = applied;
  return 0;
}

/* Notes, for every router at the end of a failed link, the heads now routed
 * to a failed output. */
static void note(diag_faults_t *d, const network_t *net)
{
  const int P = net->ports, V = net->vcs;
  int i, p, v;
  for (i = 0; i < d->n_ends; i++) {
    const int r = d->ends[i];
    const router_t *rt = &net->rt[r];
    uint32_t *w = d->watch + (size_t)r * (size_t)(P * V);
    for (p = 0; p < P; p++)
      for (v = 0; v < V; v++) {
        const unsigned s = (unsigned)(p * V + v) * BUF_DEPTH + rt->rd_q[p][v];
        if (!rt->cnt_q[p][v] || !rt->route_valid_q[p][v] || !CTL_HEAD(rt->buf_ctl[s]) ||
            !((d->failed[r] >> rt->out_port_q[p][v]) & 1u))
          continue;
        w[p * V + v] = (uint32_t)HEAD_ID(rt->buf_data[s]) + 1u;
      }
  }
}

int diag_faults_note(diag_faults_t *d, const network_t *net, const faults_t *fs)
{
  if (d->applied < 0 || d->applied == faults_applied(fs)) return 0;
  if (take_faults(d, net, fs) != 0) {
    d->applied = -1;
    return -1;
  }
  note(d, net);
  return 0;
}

int diag_faults_step(diag_faults_t *d, const network_t *net)
{
  const int P = net->ports, V = net->vcs;
  int i, p;
  if (d->applied <= 0) return 0;
  for (i = 0; i < d->n_ends; i++) {
    const int r = d->ends[i];
    uint32_t *w = d->watch + (size_t)r * (size_t)(P * V);
    /* heads that left r in this cycle */
    for (p = 1; p < P; p++) {
      const flit_t *f = net_flit_out(net, r, p);
      const int dead = (d->failed[r] >> p) & 1u;
      uint32_t id;
      int k;
      if (CTL_KIND(f->ctl) != KIND_FLIT || !CTL_HEAD(f->ctl)) continue;
      id = (uint32_t)HEAD_ID(f->data) + 1u;
      if (dead) d->crossed++;
      for (k = 0; k < P * V; k++)
        if (w[k] == id) {
          if (!dead) d->rerouted++;
          w[k] = 0;
        }
    }
  }
  note(d, net);
  return 0;
}

void diag_faults_free(diag_faults_t *d)
{
  free(d->failed);
  free(d->watch);
  free(d->ends);
  memset(d, 0, sizeof *d);
}
