/* network.c - see network.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "network.h"
#include "bits.h"
#define DP_INLINE                 /* the link pipeline inlined into net_step (datapath.h) */
#include "spin_link_pipe.c"

route_fn_t net_route_fn(route_algo_t algo, int min_cycles)
{
  return algo == ALGO_XY ? ROUTE_XY : algo == ALGO_WEST_FIRST ? ROUTE_WEST_FIRST
         : algo == ALGO_DF_MIN || algo == ALGO_UGAL ? ROUTE_DF_MIN
         : min_cycles ? ROUTE_MIN_CYCLES : ROUTE_MINIMAL;
}

/* The parameters fit the router and the topology's links; -1 and a
 * message when not. */
static int net_check(const topo_t *topo, route_algo_t algo, int vcs, int spin, unsigned tdd,
                     char *err, unsigned long errlen)
{
  const int n = topo->routers, P = topo->radix, esc = algo == ALGO_ESCAPE;
  int k;
  if (esc && vcs < 2) {
    snprintf(err, errlen, "routing escape needs VCS >= 2 (VC 0 is the escape VC), got VCS=%d",
             vcs);
    return -1;
  }
  if (esc && spin) {
    snprintf(err, errlen, "routing escape is deadlock-free by itself: run it with SPIN=0");
    return -1;
  }
  if ((algo == ALGO_DF_MIN || algo == ALGO_UGAL) && spin) {
    snprintf(err, errlen, "routing %s is deadlock-free by its VCs: run it with SPIN=0",
             algo == ALGO_UGAL ? "ugal" : "df_min");
    return -1;
  }
  if ((algo == ALGO_DF_MIN && vcs < 2) || (algo == ALGO_UGAL && vcs < 3)) {
    snprintf(err, errlen, "routing %s needs VCS >= %d (a VC per hop phase), got VCS=%d",
             algo == ALGO_UGAL ? "ugal" : "df_min", algo == ALGO_UGAL ? 3 : 2, vcs);
    return -1;
  }
  if ((algo == ALGO_DF_MIN || algo == ALGO_UGAL) && topo->kind != TOPO_KIND_DRAGONFLY) {
    snprintf(err, errlen, "routing %s applies to dragonflies only; '%s' is not one",
             algo == ALGO_UGAL ? "ugal" : "df_min", topo->name);
    return -1;
  }
  if (vcs < 1 || vcs > MAX_VCS) {
    snprintf(err, errlen, "VCS=%d out of range (1..%d)", vcs, MAX_VCS);
    return -1;
  }
  if (spin && (tdd < 2 || tdd > 32768)) {
    snprintf(err, errlen, "TDD=%u out of range (2..32768)", tdd);
    return -1;
  }
  if (P > MAX_PORTS) {
    snprintf(err, errlen, "%s: radix %d exceeds %d ports", topo->name, P, MAX_PORTS);
    return -1;
  }
  for (k = 0; k < n * P; k++)
    if (topo->peer_router[k] >= 0 &&
        (topo->latency[k] < 1 || topo->latency[k] > TOPO_MAX_LATENCY)) {
      snprintf(err, errlen, "%s: router %d port %d: link latency %d: the router takes 1 to %d",
               topo->name, k / P, k % P, topo->latency[k], TOPO_MAX_LATENCY);
      return -1;
    }
  return 0;
}

/* The arrays of n routers of P ports and n_pipe pipelines, zeroed; -1 when
 * out of memory. */
static int net_alloc(network_t *net, int esc)
{
  const size_t n = (size_t)net->n, P = (size_t)net->ports, regs = n * P + (size_t)net->n_pipe;
  const size_t nodes = (size_t)net->nodes;
  int b;
  net->rt = calloc(n, sizeof *net->rt);
  net->cfg = calloc(n, sizeof *net->cfg);
  net->masks = calloc(n * nodes, sizeof *net->masks);
  if (esc) net->masks_esc = calloc(n * nodes, sizeof *net->masks_esc);
  net->up = calloc(n * P, sizeof *net->up);
  net->down = calloc(n * P, sizeof *net->down);
  net->inj = calloc(nodes, sizeof *net->inj);
  net->ejecting = calloc(n, sizeof *net->ejecting);
  net->pipe = calloc((size_t)net->n_pipe + 1, sizeof *net->pipe);
  for (b = 0; b < 2; b++) {
    net->flit_reg[b] = calloc(regs, sizeof(flit_t));
    net->cred_reg[b] = calloc(regs, 1);
    net->valid[b] = calloc(n, sizeof *net->valid[b]);
    net->wake[b] = calloc(n, sizeof *net->wake[b]);
  }
  return !net->rt || !net->cfg || !net->masks || !net->pipe || (esc && !net->masks_esc) ||
                 !net->up || !net->down || !net->inj || !net->ejecting || !net->flit_reg[0] ||
                 !net->flit_reg[1] || !net->cred_reg[0] || !net->cred_reg[1] ||
                 !net->valid[0] || !net->valid[1] || !net->wake[0] || !net->wake[1]
             ? -1 : 0;
}

/* Router r's port p (not the NIC's) reads its link of latency lat > 1
 * through pipeline b: the pipeline's register slot (contract section 1). */
static int net_pipe_init(network_t *net, int r, int p, int lat, int b)
{
  const int P = net->ports;
  net_pipe_t *pp = &net->pipe[b];
  pp->r = r;
  pp->p = p;
  pp->src = net->up[r * P + p];
  pp->slot = net->n * P + b;
  pp->stages = lat - 1;
  pp->flit = calloc((size_t)pp->stages, sizeof *pp->flit);
  pp->cred = calloc((size_t)pp->stages, 1);
  if (!pp->flit || !pp->cred) return -1;
  net->up[r * P + p] = pp->slot;
  return 0;
}

/* The links: what each input port reads (up), who reads each register
 * (down), the pipelines of the longer links, each output's xlat.  -1 and a
 * message on error. */
static int net_wire(network_t *net, const topo_t *topo, char *err, unsigned long errlen)
{
  const int n = net->n, P = net->ports;
  int r, p, b = 0;   /* b: pipelines so far */
  for (r = 0; r < n * P; r++) net->down[r] = -1;
  for (r = 0; r < n; r++)
    for (p = 0; p < P; p++) {
      const int q = topo->peer_router[r * P + p];
      const int lat = q >= 0 ? topo->latency[r * P + p] : 1;
      net->up[r * P + p] = q >= 0 ? q * P + topo->peer_port[r * P + p] : -1;
      net->cfg[r].xlat[p] = (uint16_t)(lat - 1);
      if (p < net->nics || q < 0) continue;   /* a NIC port reads its NIC */
      if (lat > 1) {                   /* the pipeline wakes r, not the peer's step */
        if (net_pipe_init(net, r, p, lat, b++) != 0) {
          snprintf(err, errlen, "out of memory for %d routers", n);
          return -1;
        }
        continue;
      }
      if (net->down[net->up[r * P + p]] >= 0) {
        snprintf(err, errlen, "%s: router %d port %d: link register read by two ports",
                 topo->name, q, topo->peer_port[r * P + p]);
        return -1;
      }
      net->down[net->up[r * P + p]] = r << 4 | p;
    }
  return 0;
}

/* Router r's configuration (its route table rows among them), and its
 * reset. */
static void net_router(network_t *net, int r, int spin, unsigned tdd, router_mode_t mode,
                       uint64_t seed)
{
  router_cfg_t *c = &net->cfg[r];
  const size_t row = (size_t)r * (size_t)net->nodes;
  int p;
  c->ports = net->ports;
  c->nics = net->nics;
  c->nic_mask = (1u << net->nics) - 1u;
  c->node0 = r * net->nics;
  c->vc_phase = net->algo == ALGO_DF_MIN || net->algo == ALGO_UGAL;
  c->global_mask = 0;
  for (p = net->nics; p < net->ports; p++)
    if (topo_df_global(net->topo, r, p)) c->global_mask |= 1u << p;
  c->vcs = net->vcs;
  c->id = r;
  c->nodes = net->n;
  c->dsts = net->nodes;
  c->mask_det = net->masks + row;
  c->mask_esc = net->masks_esc ? net->masks_esc + row : NULL;
  c->algo = net->algo;
  c->spin = spin;
  c->tdd = tdd;
  c->admit = mode.admit != 0;
  c->admit_occ = mode.admit_occ;
  c->reroute = mode.reroute;
  c->early_credit = mode.early_credit;
  c->adopt = mode.adopt && spin;
  c->fmt = &net->fmt;
  router_reset(&net->rt[r], c, seed);
}

/* The layout of the special messages (12.1): the widths the topology needs,
 * or those sm gives when they are enough; -1 and a message when not. */
static int net_sm_fmt(network_t *net, const topo_t *topo, int vcs, const sm_opts_t *sm,
                      char *err, unsigned long errlen)
{
  unsigned idw, cycw;
  sm_widths_for(topo, vcs, sm->pipe, &idw, &cycw);
  if (sm->idw) {
    if (sm->idw < idw || sm->cycw < cycw) {
      snprintf(err, errlen, "%s with %d VC%s needs special-message widths of at least IdW %u, "
               "CycW %u (given %u, %u)", topo->name, vcs, vcs > 1 ? "s" : "", idw, cycw, sm->idw,
               sm->cycw);
      return -1;
    }
    idw = sm->idw;
    cycw = sm->cycw;
  }
  return sm_fmt_make(&net->fmt, idw, cycw, topo->radix, vcs, SM_FLITW, sm->pipe, err, errlen);
}

int net_init(network_t *net, const topo_t *topo, route_algo_t algo, int vcs,
             int spin, unsigned tdd, router_mode_t mode, const sm_opts_t *sm, uint64_t seed,
             char *err, unsigned long errlen)
{
  const int esc = algo == ALGO_ESCAPE;
  int k;
  memset(net, 0, sizeof *net);
  net->topo = topo;
  if (net_check(topo, algo, vcs, spin, tdd, err, errlen) != 0 ||
      net_sm_fmt(net, topo, vcs, sm, err, errlen) != 0)
    return -1;
  net->n = topo->routers;
  net->nics = topo->nics;
  net->nodes = topo->nodes;
  net->ports = topo->radix;
  net->vcs = vcs;
  net->algo = algo;
  for (k = 0; k < net->n * net->ports; k++)
    if (topo->peer_router[k] >= 0 && topo->latency[k] > 1) net->n_pipe++;
  if (net_alloc(net, esc) != 0) {
    snprintf(err, errlen, "out of memory for %d routers", net->n);
    net_free(net);
    return -1;
  }
  if (topo_route_masks(topo, net_route_fn(algo, mode.min_cycles), net->masks, err, errlen) != 0 ||
      (esc && topo_route_masks(topo, ROUTE_WEST_FIRST, net->masks_esc, err, errlen) != 0) ||
      net_wire(net, topo, err, errlen) != 0) {
    net_free(net);
    return -1;
  }
  for (k = 0; k < net->n; k++) net_router(net, k, spin, tdd, mode, seed);
  net->eval = router_eval_for(&net->cfg[0]);
  return 0;
}

void net_free(network_t *net)
{
  int b;
  for (b = 0; net->pipe && b < net->n_pipe; b++) {
    free(net->pipe[b].flit);
    free(net->pipe[b].cred);
  }
  free(net->pipe);
  free(net->rt);
  free(net->cfg);
  free(net->masks);
  free(net->masks_esc);
  free(net->up);
  free(net->down);
  free(net->inj);
  free(net->ejecting);
  free(net->link_flits);
  if (net->log) spin_log_free(net->log);
  free(net->log);
  for (b = 0; b < 2; b++) {
    free(net->flit_reg[b]);
    free(net->cred_reg[b]);
    free(net->valid[b]);
    free(net->wake[b]);
  }
  memset(net, 0, sizeof *net);
}

/* A recovery that spun for the first time in this step: its loop, walked
 * from the sender's loop VC along the spinning VCs (one per input port at
 * most) until it comes back, gives the sender its loop's routers (m, for
 * the bound of the paper's theorem) and, with a record, the record's entry
 * (statistics only). */
static void walk_loop(network_t *net, int src)
{
  const int P = net->ports, V = net->vcs;
  spin_router_t *s0 = &net->rt[src].sp;
  spin_log_entry_t e;
  unsigned cap = (unsigned)(net->n * P * V) + 1u;
  int r = src, p = s0->dd_port_q, v = s0->dd_vc_q;
  memset(&e, 0, sizeof e);
  e.port = malloc(cap);
  if (!e.port) return;
  e.source = src;
  e.detected = s0->t_detect;
  e.first_spin = e.last_spin = net->cycle;
  e.adopted = s0->adopted;
  while (e.len < cap) {
    const int o = net->rt[r].out_port_q[p][v], k = r * P + o;
    int w;
    e.port[e.len++] = (uint8_t)o;
    if (o < net->nics || net->topo->peer_router[k] < 0) break;
    r = net->topo->peer_router[k];
    p = net->topo->peer_port[k];
    for (w = 0; w < V && !net->rt[r].sp.spinning_q[p][w]; w++) {}
    if (r == src && p == s0->dd_port_q) {
      e.closed = w == s0->dd_vc_q;
      break;
    }
    if (w == V) break;
    v = w;
  }
  s0->loop_hops = e.closed ? e.len : 0;
  if (net->log) s0->log_entry = spin_log_open(net->log, &e);
  free(e.port);
}

void net_step(network_t *net)
{
  const int P = net->ports, n = net->n;
  const int cur = (int)(net->cycle & 1), nxt = cur ^ 1;
  flit_t *fnxt = net->flit_reg[nxt];
  uint8_t *cnxt = net->cred_reg[nxt];
  uint32_t *wake_in = net->wake[cur];
  uint32_t *valid = net->valid[nxt];
  const int C = net->nics;
  const uint32_t nic_mask = (1u << C) - 1u;
  router_links_t in;
  int r, walk = 0, recovering = 0;

  in.flit = net->flit_reg[cur];
  in.cred = net->cred_reg[cur];
  in.wake = net->wake[nxt];   /* the step marks its readers there */
  net->n_ejecting = 0;
  for (r = 0; r < n; r++) {
    router_t *rt = &net->rt[r];
    uint8_t *co = cnxt + r * P;
    const flit_t *inj = &net->inj[r * C];
    unsigned in_mask = wake_in[r];
    int k;
    wake_in[r] = 0;
    for (k = 0; k < C; k++) {
      if (CTL_KIND(inj[k].ctl) != KIND_IDLE) in_mask |= 1u << k;
      if (valid[r] & (0x10000u << k)) co[k] = 0;   /* the NICs read their credits in place */
    }
    valid[r] = 0;
    if (!in_mask && !router_busy(rt)) continue;
    in.inj = inj;
    in.up = net->up + r * P;
    in.down = net->down + r * P;
    valid[r] = (uint32_t)net->eval(rt, &net->cfg[r], net->cycle, in_mask, &in, fnxt + r * P,
                                   co, &net->spin);
    if (valid[r] & nic_mask) net->ejecting[net->n_ejecting++] = r;
    walk |= rt->sp.log_walk;
    recovering |= rt->sp.state_q > FSM_DD;
    if (net->link_flits) {
      unsigned m = valid[r] & ~nic_mask & ((1u << P) - 1u);
      for (; m; m &= m - 1u) {
        const int p = (int)low_bit(m);
        if (CTL_KIND(fnxt[r * P + p].ctl) == KIND_FLIT) net->link_flits[r * P + p]++;
      }
    }
  }
  /* a recovery that spun for the first time: its loop into the record */
  if (walk)
    for (r = 0; r < n; r++)
      if (net->rt[r].sp.log_walk) {
        net->rt[r].sp.log_walk = 0;
        walk_loop(net, r);
      }
  /* Links of latency L > 1: each pipeline takes its peer's new register
   * values and gives its reader the values of L - 1 cycles before. */
  for (r = 0; r < net->n_pipe; r++) {
    net_pipe_t *pp = &net->pipe[r];
    const int q = pp->src / P, qp = pp->src % P;
    const flit_t *in_f = (valid[q] >> qp) & 1u ? &fnxt[pp->src] : &net->idle;
    const uint8_t in_c = (valid[q] >> (16 + qp)) & 1u ? cnxt[pp->src] : 0;
    /* not stepped (empty and fed nothing): the reader's slot is not read
     * (no wake bit) */
    if (!spin_link_pipe_step(pp, in_f, in_c, &fnxt[pp->slot], &cnxt[pp->slot])) continue;
    if (CTL_KIND(fnxt[pp->slot].ctl) != KIND_IDLE) net->wake[nxt][pp->r] |= 1u << pp->p;
    if (cnxt[pp->slot]) net->wake[nxt][pp->r] |= 0x10000u << pp->p;
  }
  net->recovering = recovering;
  net->cycle++;
}

int net_record(network_t *net)
{
  if (!net->link_flits) net->link_flits = calloc((size_t)net->n * (size_t)net->ports, sizeof(uint64_t));
  if (!net->log) net->log = calloc(1, sizeof *net->log);
  if (!net->link_flits || !net->log) return -1;
  net->spin.log = net->log;
  return 0;
}

int net_recovering(const network_t *net)
{
  return net->recovering;   /* net_step keeps it: a router past DD is busy, so stepped */
}

int net_pipes_busy(const network_t *net, int sm_only)
{
  const int b = (int)(net->cycle & 1);
  const unsigned lo = sm_only ? KIND_PROBE : KIND_FLIT;
  int k, i;
  for (k = 0; k < net->n_pipe; k++) {
    const net_pipe_t *pp = &net->pipe[k];
    if ((net->wake[b][pp->r] >> pp->p & 1u) && CTL_KIND(net->flit_reg[b][pp->slot].ctl) >= lo)
      return 1;
    if (!sm_only && (net->wake[b][pp->r] >> (16 + pp->p) & 1u) && net->cred_reg[b][pp->slot])
      return 1;
    if (!pp->held) continue;
    if (!sm_only) return 1;
    for (i = 0; i < pp->stages; i++)
      if (CTL_KIND(pp->flit[i].ctl) >= lo || (!sm_only && pp->cred[i])) return 1;
  }
  return 0;
}

unsigned long net_buffered(const network_t *net)
{
  unsigned long s = 0;
  int r;
  for (r = 0; r < net->n; r++) s += (unsigned long)net->rt[r].buffered;
  return s;
}
