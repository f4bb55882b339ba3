/* network.c - see network.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "network.h"
#include "bits.h"
#define DP_INLINE                 /* the link pipeline inlined into net_step (datapath.h) */
#include "spin_link_pipe.c"

route_fn_t net_route_fn(route_algo_t algo)
{
  return algo == ALGO_XY ? ROUTE_XY : algo == ALGO_WEST_FIRST ? ROUTE_WEST_FIRST : ROUTE_MINIMAL;
}

int net_init(network_t *net, const topo_t *topo, route_algo_t algo, int vcs,
             int spin, unsigned tdd, router_mode_t mode, uint64_t seed, char *err,
             unsigned long errlen)
{
  int n = topo->routers, P = topo->radix, r, p, b;
  route_fn_t fn = net_route_fn(algo);
  const int esc = algo == ALGO_ESCAPE;
  memset(net, 0, sizeof *net);
  if (esc && vcs < 2) {
    snprintf(err, errlen, "routing escape needs VCS >= 2 (VC 0 is the escape VC), got VCS=%d",
             vcs);
    return -1;
  }
  if (esc && spin) {
    snprintf(err, errlen, "routing escape is deadlock-free by itself: run it with SPIN=0");
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
  if (spin && n > 4096) {
    snprintf(err, errlen, "%s: %d routers; SPIN messages carry 12-bit router ids", topo->name, n);
    return -1;
  }
  if (P > MAX_PORTS) {
    snprintf(err, errlen, "%s: radix %d exceeds %d ports", topo->name, P, MAX_PORTS);
    return -1;
  }
  for (r = 0; r < n * P; r++) {
    if (topo->peer_router[r] >= 0 &&
        (topo->latency[r] < 1 || topo->latency[r] > TOPO_MAX_LATENCY)) {
      snprintf(err, errlen, "%s: router %d port %d: link latency %d: the router takes 1 to %d",
               topo->name, r / P, r % P, topo->latency[r], TOPO_MAX_LATENCY);
      return -1;
    }
    if (topo->peer_router[r] >= 0 && topo->latency[r] > 1) net->n_pipe++;
  }
  net->n = n;
  net->ports = P;
  net->vcs = vcs;
  net->algo = algo;
  net->rt = calloc((size_t)n, sizeof *net->rt);
  net->cfg = calloc((size_t)n, sizeof *net->cfg);
  net->masks = calloc((size_t)n * (size_t)n, 1);
  if (esc) net->masks_esc = calloc((size_t)n * (size_t)n, 1);
  net->up = calloc((size_t)n * (size_t)P, sizeof *net->up);
  net->down = calloc((size_t)n * (size_t)P, sizeof *net->down);
  net->inj = calloc((size_t)n, sizeof *net->inj);
  net->ejecting = calloc((size_t)n, sizeof *net->ejecting);
  net->pipe = calloc((size_t)net->n_pipe + 1, sizeof *net->pipe);
  for (b = 0; b < 2; b++) {
    net->flit_reg[b] = calloc((size_t)n * (size_t)P + (size_t)net->n_pipe, sizeof(flit_t));
    net->cred_reg[b] = calloc((size_t)n * (size_t)P + (size_t)net->n_pipe, 1);
    net->valid[b] = calloc((size_t)n, sizeof *net->valid[b]);
    net->wake[b] = calloc((size_t)n, sizeof *net->wake[b]);
  }
  if (!net->rt || !net->cfg || !net->masks || !net->pipe || (esc && !net->masks_esc) || !net->up ||
      !net->down || !net->inj || !net->ejecting ||
      !net->flit_reg[0] || !net->flit_reg[1] || !net->cred_reg[0] ||
      !net->cred_reg[1] || !net->valid[0] || !net->valid[1] || !net->wake[0] ||
      !net->wake[1]) {
    snprintf(err, errlen, "out of memory for %d routers", n);
    net_free(net);
    return -1;
  }
  if (topo_route_masks(topo, fn, net->masks, err, errlen) != 0 ||
      (esc && topo_route_masks(topo, ROUTE_WEST_FIRST, net->masks_esc, err, errlen) != 0)) {
    net_free(net);
    return -1;
  }
  for (r = 0; r < n * P; r++) net->down[r] = -1;
  b = 0;   /* pipelines so far */
  for (r = 0; r < n; r++) {
    for (p = 0; p < P; p++) {
      int q = topo->peer_router[r * P + p];
      const int lat = q >= 0 ? topo->latency[r * P + p] : 1;
      net->up[r * P + p] = q >= 0 ? q * P + topo->peer_port[r * P + p] : -1;
      net->cfg[r].xlat[p] = (uint8_t)(lat - 1);
      if (p == 0 || q < 0) continue;   /* port 0 reads the NIC */
      if (lat > 1) {                   /* r's port p reads its pipeline's slot */
        net_pipe_t *pp = &net->pipe[b];
        pp->r = r;
        pp->p = p;
        pp->src = net->up[r * P + p];
        pp->slot = n * P + b;
        pp->stages = lat - 1;
        pp->flit = calloc((size_t)pp->stages, sizeof *pp->flit);
        pp->cred = calloc((size_t)pp->stages, 1);
        if (!pp->flit || !pp->cred) {
          snprintf(err, errlen, "out of memory for %d routers", n);
          net_free(net);
          return -1;
        }
        net->up[r * P + p] = pp->slot;
        b++;
        continue;                      /* the pipeline wakes r, not the peer's step */
      }
      if (net->down[net->up[r * P + p]] >= 0) {
        snprintf(err, errlen, "%s: router %d port %d: link register read by two ports",
                 topo->name, q, topo->peer_port[r * P + p]);
        net_free(net);
        return -1;
      }
      net->down[net->up[r * P + p]] = r << 3 | p;
    }
    net->cfg[r].ports = P;
    net->cfg[r].vcs = vcs;
    net->cfg[r].id = r;
    net->cfg[r].nodes = n;
    net->cfg[r].mask_det = net->masks + (size_t)r * (size_t)n;
    net->cfg[r].mask_esc = esc ? net->masks_esc + (size_t)r * (size_t)n : NULL;
    net->cfg[r].algo = algo;
    net->cfg[r].spin = spin;
    net->cfg[r].tdd = tdd;
    net->cfg[r].admit = mode.admit;
    net->cfg[r].reroute = mode.reroute;
    net->cfg[r].adopt = mode.adopt && spin;
    router_reset(&net->rt[r], &net->cfg[r], seed);
  }
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

void net_step(network_t *net)
{
  const int P = net->ports, n = net->n;
  const int cur = (int)(net->cycle & 1), nxt = cur ^ 1;
  flit_t *fnxt = net->flit_reg[nxt];
  uint8_t *cnxt = net->cred_reg[nxt];
  uint16_t *wake_in = net->wake[cur];
  uint16_t *valid = net->valid[nxt];
  router_links_t in;
  int r;

  in.flit = net->flit_reg[cur];
  in.cred = net->cred_reg[cur];
  in.wake = net->wake[nxt];   /* the step marks its readers there */
  net->n_ejecting = 0;
  for (r = 0; r < n; r++) {
    router_t *rt = &net->rt[r];
    uint8_t *co = cnxt + r * P;
    unsigned in_mask = wake_in[r];
    wake_in[r] = 0;
    if (CTL_KIND(net->inj[r].ctl) != KIND_IDLE) in_mask |= 1u;
    if (valid[r] & 0x100u) co[0] = 0;   /* the NIC reads port-0 credits in place */
    valid[r] = 0;
    if (!in_mask && !router_busy(rt)) continue;
    in.inj = &net->inj[r];
    in.up = net->up + r * P;
    in.down = net->down + r * P;
    valid[r] = (uint16_t)net->eval(rt, &net->cfg[r], net->cycle, in_mask, &in, fnxt + r * P,
                                   co, &net->spin);
    if (valid[r] & 1u) net->ejecting[net->n_ejecting++] = r;
    if (net->link_flits) {
      unsigned m = valid[r] & 0xfeu & ((1u << P) - 1u);
      for (; m; m &= m - 1u) {
        const int p = (int)low_bit(m);
        if (CTL_KIND(fnxt[r * P + p].ctl) == KIND_FLIT) net->link_flits[r * P + p]++;
      }
    }
  }
  /* Links of latency L > 1: each pipeline takes its peer's new register
   * values and gives its reader the values of L - 1 cycles before. */
  for (r = 0; r < net->n_pipe; r++) {
    net_pipe_t *pp = &net->pipe[r];
    const int q = pp->src / P, qp = pp->src % P;
    const flit_t *in_f = (valid[q] >> qp) & 1u ? &fnxt[pp->src] : &net->idle;
    const uint8_t in_c = (valid[q] >> (8 + qp)) & 1u ? cnxt[pp->src] : 0;
    /* not stepped (empty and fed nothing): the reader's slot is not read
     * (no wake bit) */
    if (!spin_link_pipe_step(pp, in_f, in_c, &fnxt[pp->slot], &cnxt[pp->slot])) continue;
    if (CTL_KIND(fnxt[pp->slot].ctl) != KIND_IDLE) net->wake[nxt][pp->r] |= (uint16_t)(1u << pp->p);
    if (cnxt[pp->slot]) net->wake[nxt][pp->r] |= (uint16_t)(0x100u << pp->p);
  }
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

int net_pipes_busy(const network_t *net, int sm_only)
{
  const int b = (int)(net->cycle & 1);
  const unsigned lo = sm_only ? KIND_PROBE : KIND_FLIT;
  int k, i;
  for (k = 0; k < net->n_pipe; k++) {
    const net_pipe_t *pp = &net->pipe[k];
    if ((net->wake[b][pp->r] >> pp->p & 1u) && CTL_KIND(net->flit_reg[b][pp->slot].ctl) >= lo)
      return 1;
    if (!sm_only && (net->wake[b][pp->r] >> (8 + pp->p) & 1u) && net->cred_reg[b][pp->slot])
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
