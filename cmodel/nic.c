/* nic.c - see nic.h and docs/microarchitecture.md ("NIC"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nic.h"
#include "bits.h"
#include "topology.h"

static int sb_grow(scoreboard_t *sb)
{
  uint64_t cap = sb->mask + 1, ncap = cap * 2, id;
  pkt_t *nr = malloc((size_t)ncap * sizeof *nr);
  if (!nr) return -1;
  for (id = sb->oldest; id < sb->next_id; id++)
    nr[id & (ncap - 1)] = sb->ring[id & sb->mask];
  free(sb->ring);
  sb->ring = nr;
  sb->mask = ncap - 1;
  return 0;
}

int nic_init(nic_t *nic, int nodes, int vcs, int models)
{
  int r;
  memset(nic, 0, sizeof *nic);
  nic->n = nodes;
  nic->vcs = vcs;
  nic->nics = 1;
  nic->routers = nodes;
  nic->src = calloc((size_t)nodes, sizeof *nic->src);
  nic->inj_next = calloc((size_t)nodes, sizeof *nic->inj_next);
  nic->active = calloc(((size_t)nodes + 63) / 64, sizeof *nic->active);
  nic->sb.mask = 4095;
  nic->sb.ring = malloc(4096 * sizeof(pkt_t));
  nic->sb.all_done = (1u << models) - 1u;
  if (!nic->src || !nic->inj_next || !nic->active || !nic->sb.ring) return -1;
  for (r = 0; r < nodes; r++) {
    nic->src[r].cap = 64;
    nic->src[r].q = malloc(64 * sizeof(uint64_t));
    if (!nic->src[r].q) return -1;
  }
  return 0;
}

void nic_free(nic_t *nic)
{
  int r;
  if (nic->src)
    for (r = 0; r < nic->n; r++) free(nic->src[r].q);
  free(nic->src);
  free(nic->inj_next);
  free(nic->active);
  free(nic->sb.ring);
  free(nic->zcyc);
  memset(nic, 0, sizeof *nic);
}

void nic_concentrate(nic_t *nic, int nics)
{
  nic->nics = nics;
  nic->routers = nic->n / nics;
}

int nic_window(nic_t *nic, const topo_t *t, int window, int slack, int notice)
{
  int r;
  nic->window = window;
  nic->slack = slack;
  nic->notice = window ? notice : 0;
  for (r = 0; r < nic->n; r++) nic->src[r].w16 = (uint16_t)(16 * window);
  if ((window >= 2 || nic->notice) && !(nic->zcyc = topo_cycle_dist(t))) return -1;
  return 0;
}

void nic_route_header(nic_t *nic, const int *dist, uint64_t seed)
{
  nic->dist = dist;
  nic->mid_seed = seed;
}

void nic_route_ugal(nic_t *nic, const topo_t *t, uint64_t seed)
{
  nic->ugal = t;
  nic->mid_seed = seed;
}

/* UGAL's route header of packet id from router sr to router dr (4.5). */
static uint32_t nic_ugal_header(const nic_t *nic, uint64_t id, int sr, int dr)
{
  const topo_t *t = nic->ugal;
  const unsigned g = (unsigned)(t->routers / t->df_a);
  const unsigned gs = (unsigned)(sr / t->df_a), gd = (unsigned)(dr / t->df_a);
  unsigned gi;
  int land, h_min, d;
  if (gs == gd) {                /* any other group */
    gi = (unsigned)(payload_word(id ^ (nic->mid_seed << 29), 0) % (uint64_t)(g - 1));
    if (gi >= gs) gi++;
  } else {
    gi = nic_mid(id, nic->mid_seed, gs, gd, g);
  }
  land = topo_df_landing(t, (int)gs, (int)gi);
  h_min = topo_df_hops(t, sr, dr);
  d = topo_df_hops(t, sr, land) + topo_df_hops(t, land, dr) - h_min;
  return rh_make((unsigned)(land * nic->nics), (unsigned)(d < 0 ? 0 : d)) |
         RH_HMIN_MAKE((unsigned)h_min);
}

unsigned nic_mid(uint64_t id, uint64_t seed, unsigned src, unsigned dst, unsigned n)
{
  const unsigned lo = src < dst ? src : dst, hi = src < dst ? dst : src;
  unsigned k = (unsigned)(payload_word(id ^ (seed << 29), 0) % (uint64_t)(n - 2));
  if (k >= lo) k++;
  if (k >= hi) k++;
  return k;
}

void nic_create(nic_t *nic, int src, int dst, int flits, uint64_t cycle, int measured)
{
  scoreboard_t *sb = &nic->sb;
  nic_src_t *s = &nic->src[src];
  pkt_t *p;
  if (sb->next_id - sb->oldest > sb->mask && sb_grow(sb) != 0) {
    fprintf(stderr, "spin-noc: out of memory for the packet scoreboard\n");
    exit(2);
  }
  p = &sb->ring[sb->next_id & sb->mask];
  p->t_create = cycle;
  p->src = (uint16_t)src;
  p->dst = (uint16_t)dst;
  p->len = (uint8_t)flits;
  p->done = 0;
  p->measured = (uint8_t)measured;
  p->rh = 0;
  p->due = 0;
  if (nic->dist && src / nic->nics != dst / nic->nics && nic->routers >= 3) {
    const int n = nic->routers, sr = src / nic->nics, dr = dst / nic->nics;
    const unsigned mid = nic_mid(sb->next_id, nic->mid_seed, (unsigned)sr, (unsigned)dr,
                                 (unsigned)n);
    const int d = nic->dist[(size_t)sr * n + mid] + nic->dist[(size_t)mid * n + dr] -
                  nic->dist[(size_t)sr * n + dr];
    p->rh = rh_make(mid * (unsigned)nic->nics, (unsigned)d);
  }
  if (nic->ugal && src / nic->nics != dst / nic->nics && nic->ugal->routers / nic->ugal->df_a >= 3)
    p->rh = nic_ugal_header(nic, sb->next_id, src / nic->nics, dst / nic->nics);
  if (s->len == s->cap) {
    uint32_t i, ncap = s->cap * 2;
    uint64_t *nq = malloc((size_t)ncap * sizeof *nq);
    if (!nq) {
      fprintf(stderr, "spin-noc: out of memory for the source queue of node %d\n", src);
      exit(2);
    }
    for (i = 0; i < s->len; i++) nq[i] = s->q[(s->head + i) % s->cap];
    free(s->q);
    s->q = nq;
    s->head = 0;
    s->cap = ncap;
  }
  s->q[(s->head + s->len) % s->cap] = sb->next_id;
  nic->active[src / 64] |= 1ull << (src % 64);
  s->len++;
  s->created++;
  sb->next_id++;
  nic->created++;
  if (measured) nic->meas_created_flits += (uint64_t)flits;
}

/* The node's packet i in flight is late in cycle now (contract 8). */
static inline int window_late(const nic_src_t *s, int i, uint64_t now)
{
  return now > s->fl_due[i];
}

/* The node's zero-load cycle distance from router a to router b. */
static inline uint64_t window_dist(const nic_t *nic, int a, int b)
{
  const int d = nic->zcyc[(size_t)a * (size_t)nic->routers + (size_t)b];
  return (uint64_t)(d > 0 ? d : 0);
}

/* The injection window (contract 8): whether node s may start a packet in
 * cycle now. */
static int window_open(const nic_t *nic, const nic_src_t *s, uint64_t now)
{
  int i;
  if (!nic->window) return 1;
  if (s->flight >= nic->window || (nic->cap && s->flight >= nic->cap)) return 0;
  if (nic->window < 2) return 1;
  if (s->flight >= s->w16 / 16) return 0;
  for (i = 0; i < s->flight; i++)
    if (window_late(s, i, now)) return 0;
  return 1;
}

/* A window of 2 or more, in cycle now, before the node's start decision: a
 * packet in flight that is late and started after the last halving halves
 * the window (at least 1 packet); the packets in flight then can halve it
 * no more. */
static void window_tune(nic_t *nic, nic_src_t *s, uint64_t now)
{
  int i;
  for (i = 0; i < s->flight; i++) {
    const uint64_t id = s->fl[i];
    if (id >= s->cut_after && window_late(s, i, now)) {
      s->w16 = (uint16_t)(s->w16 / 2 < 16 ? 16 : s->w16 / 2);
      s->cut_after = s->fl[s->flight - 1] + 1u;
      nic->win_cuts++;
      return;
    }
  }
}

/* Node r starts packet id in cycle now: into its window, with the cycle it
 * becomes late (zero-load latency 3 + cycle distance + len - 1, plus the
 * slack; with notices, plus its notice's zero-load way back, 3 + D(b, a)). */
static void window_start(nic_t *nic, nic_src_t *s, int r, uint64_t id, uint64_t now)
{
  pkt_t *p = &nic->sb.ring[id & nic->sb.mask];
  const int i = s->flight;
  if (!nic->window) return;
  s->fl[s->flight++] = id;
  s->fl_seen[i] = 0;
  s->fl_due[i] = p->due = 0;
  if (nic->zcyc) {
    const int a = r / nic->nics, b = p->dst / nic->nics;
    p->due = now + 3u + window_dist(nic, a, b) + p->len - 1u + (uint64_t)nic->slack;
    s->fl_due[i] = p->due + (nic->notice ? 3u + window_dist(nic, b, a) : 0u);
  }
}

/* The node's packet i leaves its window (its delivery seen in cycle now);
 * on time, it grows a window of 2 or more by 1/window. */
static void window_leave(nic_t *nic, nic_src_t *s, int i, uint64_t now)
{
  if (nic->window >= 2 && now <= s->fl_due[i]) {
    const unsigned g = 256u / s->w16, top = 16u * (unsigned)nic->window;
    s->w16 = (uint16_t)(s->w16 + (g ? g : 1u) > top ? top : s->w16 + (g ? g : 1u));
    nic->win_grows++;
  }
  for (; i + 1 < s->flight; i++) {
    s->fl[i] = s->fl[i + 1];
    s->fl_due[i] = s->fl_due[i + 1];
    s->fl_seen[i] = s->fl_seen[i + 1];
  }
  s->flight--;
}

/* With notices, in cycle now before the node's start decision: the packets
 * whose delivery notice has arrived leave its window. */
static void window_notices(nic_t *nic, nic_src_t *s, uint64_t now)
{
  int i = 0;
  while (i < s->flight)
    if (s->fl_seen[i] && s->fl_seen[i] <= now) window_leave(nic, s, i, now);
    else i++;
}

/* Packet p, delivered by the reference model in cycle now, leaves its
 * source's window, or with notices schedules its notice, 3 + D(b, a)
 * cycles later (at least the next cycle). */
static void window_end(nic_t *nic, const pkt_t *p, uint64_t id, uint64_t now)
{
  nic_src_t *s = &nic->src[p->src];
  int i = 0;
  if (!nic->window) return;
  while (i < s->flight && s->fl[i] != id) i++;
  if (i == s->flight) return;          /* not started under the window */
  if (nic->notice)
    s->fl_seen[i] = now + 3u + window_dist(nic, p->dst / nic->nics, p->src / nic->nics);
  else
    window_leave(nic, s, i, now);
}

int nic_window_cut(const nic_t *nic, int node)
{
  return nic->window < 2 || nic->src[node].w16 <= 16u * (unsigned)(nic->window / 2);
}

/* A node outside nic->active has nothing queued or in flight, no VC held
 * and an idle inj_next: its step would change nothing, and is skipped. */
void nic_inject(nic_t *nic, const uint8_t *cred, int cred_stride, uint64_t now)
{
  const unsigned all = (1u << nic->vcs) - 1u;
  const int words = (nic->n + 63) / 64;
  int k;
  for (k = 0; k < words; k++) {
    uint64_t m;
    for (m = nic->active[k]; m; m &= m - 1u) {
      const int r = k * 64 + (int)low_bit64(m);
      nic_src_t *s = &nic->src[r];
      flit_t *out = &nic->inj_next[r];
      uint8_t c = cred[(size_t)(r / nic->nics) * (size_t)cred_stride + (size_t)(r % nic->nics)];
      const int ready = !s->cur_flit && s->len && (s->busy & all) != all;
      int open;
      unsigned set = 0;
      if (s->flight && nic->notice) window_notices(nic, s, now);
      if (s->flight && nic->window >= 2) window_tune(nic, s, now);
      open = ready && window_open(nic, s, now);
      out->ctl = KIND_IDLE;
      out->data = out->ext = 0;
      if (ready && !open) nic->win_held++;
      if (open) {
        /* start the oldest queued packet on the lowest free VC */
        unsigned vc = 0;
        while (s->busy & (1u << vc)) vc++;
        s->cur = s->q[s->head];
        window_start(nic, s, r, s->cur, now);
        s->head = s->head + 1 == s->cap ? 0 : s->head + 1;
        s->len--;
        s->cur_vc = (uint8_t)vc;
        set = 1u << vc;
        nic->injected++;
      } else if (!s->cur_flit) {
        if (CRED_VALID(c)) s->busy = (uint8_t)(s->busy & ~(1u << CRED_VC(c)));
        if (!s->busy && !s->len && !s->flight) nic->active[k] &= ~(1ull << (r % 64));
        continue;
      }
      {
        const pkt_t *p = &nic->sb.ring[s->cur & nic->sb.mask];
        unsigned i = s->cur_flit, tail = i + 1u == p->len;
        out->data = i == 0 ? head_word(p->dst, p->src, p->len, s->cur) : payload_word(s->cur, i);
        out->ext = i == 0 ? p->rh : 0;
        out->ctl = CTL_MAKE(KIND_FLIT, i == 0, tail, s->cur_vc);
        s->cur_flit = (uint8_t)(tail ? 0 : i + 1);
      }
      s->busy = (uint8_t)(s->busy | set);
      if (CRED_VALID(c)) s->busy = (uint8_t)(s->busy & ~(1u << CRED_VC(c)));
    }
  }
}

int sink_init(sink_t *s, int model, int nodes, int vcs)
{
  memset(s, 0, sizeof *s);
  s->model = model;
  s->n = nodes;
  s->vcs = vcs;
  s->vc = calloc((size_t)nodes * (size_t)vcs, sizeof *s->vc);
  s->hist = calloc(LAT_HIST, sizeof *s->hist);
  s->src_flits = calloc((size_t)nodes, sizeof *s->src_flits);
  return s->vc && s->hist && s->src_flits ? 0 : -1;
}

void sink_free(sink_t *s)
{
  free(s->vc);
  free(s->hist);
  free(s->src_flits);
  free(s->over);
  s->src_flits = NULL;
  s->vc = NULL;
  s->hist = NULL;
  s->over = NULL;
  s->n_over = s->cap_over = 0;
}

static void sb_retire(scoreboard_t *sb)
{
  while (sb->oldest < sb->next_id && sb->ring[sb->oldest & sb->mask].done == sb->all_done)
    sb->oldest++;
}

int sink_eject(sink_t *s, nic_t *nic, int r, const flit_t *f, uint64_t now, int measuring)
{
  scoreboard_t *sb = &nic->sb;
  unsigned vcn = CTL_VC(f->ctl);
  sink_vc_t *st;
  pkt_t *p;
  if (CTL_KIND(f->ctl) != KIND_FLIT) return 0;
  if ((int)vcn >= s->vcs) {
    snprintf(s->err, sizeof s->err, "node %d: ejected flit on VC %u (only %d VCs)", r, vcn, s->vcs);
    return -1;
  }
  st = &s->vc[r * s->vcs + (int)vcn];
  s->flits++;
  if (measuring) s->meas_flits++;
  if (CTL_HEAD(f->ctl)) {
    uint64_t hid = HEAD_ID(f->data);
    uint64_t id = sb->oldest + ((hid - sb->oldest) & ((1ull << PKT_ID_BITS) - 1));
    if (st->next) {
      snprintf(s->err, sizeof s->err, "node %d VC %u: head flit while packet %llu is "
               "still at flit %u", r, vcn, (unsigned long long)st->id, st->next);
      return -1;
    }
    if (id >= sb->next_id) {
      snprintf(s->err, sizeof s->err, "node %d VC %u: head of unknown packet %llu",
               r, vcn, (unsigned long long)id);
      return -1;
    }
    p = &sb->ring[id & sb->mask];
    if (p->done & (1u << s->model)) {
      snprintf(s->err, sizeof s->err, "node %d: packet %llu delivered twice",
               r, (unsigned long long)id);
      return -1;
    }
    if (HEAD_DST(f->data) != p->dst || HEAD_SRC(f->data) != p->src ||
        HEAD_LEN(f->data) != p->len || p->dst != r) {
      snprintf(s->err, sizeof s->err, "node %d: packet %llu arrives with head "
               "dst %u src %u len %u, expected dst %u src %u len %u", r,
               (unsigned long long)id, HEAD_DST(f->data), HEAD_SRC(f->data),
               HEAD_LEN(f->data), p->dst, p->src, p->len);
      return -1;
    }
    if (f->ext != (uint64_t)(p->rh & ~(RH_VIA | RH_OFFER))) {
      snprintf(s->err, sizeof s->err, "node %d: packet %llu arrives with route header "
               "%016llx, expected %08x", r, (unsigned long long)id,
               (unsigned long long)f->ext, p->rh & ~(RH_VIA | RH_OFFER));
      return -1;
    }
    st->id = id;
  } else {
    if (!st->next) {
      snprintf(s->err, sizeof s->err, "node %d VC %u: body flit without a head", r, vcn);
      return -1;
    }
    p = &sb->ring[st->id & sb->mask];
    if (f->data != payload_word(st->id, st->next) || f->ext) {
      snprintf(s->err, sizeof s->err, "node %d: packet %llu flit %u payload %016llx%016llx, "
               "expected %016llx", r, (unsigned long long)st->id, st->next,
               (unsigned long long)f->ext, (unsigned long long)f->data,
               (unsigned long long)payload_word(st->id, st->next));
      return -1;
    }
  }
  if (measuring) s->src_flits[p->src]++;
  if ((unsigned)CTL_TAIL(f->ctl) != (unsigned)(st->next + 1u == p->len)) {
    snprintf(s->err, sizeof s->err, "node %d: packet %llu flit %u of %u has tail=%u",
             r, (unsigned long long)st->id, st->next, p->len, CTL_TAIL(f->ctl));
    return -1;
  }
  if (CTL_TAIL(f->ctl)) {
    uint64_t lat = now - p->t_create;
    st->next = 0;
    p->done = (uint8_t)(p->done | (1u << s->model));
    if (s->model == 0) window_end(nic, p, st->id, now);
    s->delivered++;
    if (p->measured) {
      s->meas_pkts++;
      s->lat_sum += (double)lat;
      if (lat > s->lat_max) s->lat_max = lat;
      if (lat < LAT_HIST) {
        s->hist[lat]++;
      } else {
        if (s->n_over == s->cap_over) {
          size_t ncap = s->cap_over ? 2 * s->cap_over : 1024;
          uint64_t *no = realloc(s->over, ncap * sizeof *no);
          if (!no) {
            snprintf(s->err, sizeof s->err, "out of memory for the latencies");
            return -1;
          }
          s->over = no;
          s->cap_over = ncap;
        }
        s->over[s->n_over++] = lat;
      }
    }
    sb_retire(sb);
  } else {
    st->next++;
  }
  return 0;
}

static int cmp_u64(const void *a, const void *b)
{
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

double sink_percentile(const sink_t *s, double pct)
{
  uint64_t need, acc = 0, v;
  uint64_t *sorted;
  unsigned i;
  if (!s->meas_pkts) return 0.0;
  need = (uint64_t)((double)s->meas_pkts * pct / 100.0 + 0.999999);
  if (need < 1) need = 1;
  if (need > s->meas_pkts) need = s->meas_pkts;
  for (i = 0; i < LAT_HIST; i++) {
    acc += s->hist[i];
    if (acc >= need) return (double)i;
  }
  /* the (need - acc)-th smallest of the long latencies */
  sorted = malloc(s->n_over * sizeof *sorted);
  if (!sorted) {
    fprintf(stderr, "spin-noc: out of memory for the latency percentile\n");
    exit(2);
  }
  memcpy(sorted, s->over, s->n_over * sizeof *sorted);
  qsort(sorted, s->n_over, sizeof *sorted, cmp_u64);
  v = sorted[need - acc - 1];
  free(sorted);
  return (double)v;
}
