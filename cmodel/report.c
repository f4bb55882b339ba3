/* report.c - see report.h. */
#include <stdio.h>
#include <string.h>
#include "diag.h"
#include "report.h"
#include "text.h"

typedef struct {
  uint64_t cycles, warmup, window;
  double avg, p99, thr, offered, cps, rcps;
  double node_min, node_max, jain;   /* per-source accepted flits/cycle, Jain's index */
  int drained;
} figures_t;

static figures_t figures(const report_t *r)
{
  const sim_t *s = r->sim;
  figures_t f;
  f.cycles = s->now;
  f.warmup = s->o.warmup;
  f.window = s->o.cycles - s->o.warmup;
  f.avg = s->sink.meas_pkts ? s->sink.lat_sum / (double)s->sink.meas_pkts : 0.0;
  f.p99 = sink_percentile(&s->sink, 99.0);
  f.thr = f.window ? (double)s->sink.meas_flits / ((double)f.window * s->net.nodes) : 0.0;
  /* synthetic traffic: the rate asked for; a trace: what it offered in the
   * measurement window */
  f.offered = traffic_kind(s->tg) == TRAFFIC_TRACE
                  ? (f.window ? (double)s->nic.meas_created_flits / ((double)f.window * s->net.nodes) : 0.0)
                  : s->o.rate;
  /* cycles stepped: an idle stretch skipped at once took no time */
  f.cps = r->wall_seconds > 0 ? (double)(s->now - s->skipped) / r->wall_seconds : 0.0;
  f.rcps = f.cps * s->net.n;
  f.drained = nic_outstanding(&s->nic) == 0;
  /* fairness: each source's flits accepted in the window, per cycle, over
   * the nodes that created traffic (a permutation leaves the nodes it maps
   * to themselves silent); Jain's index (sum x)^2 / (k sum x^2) over those
   * k nodes is 1 when all are equal */
  {
    double sum = 0.0, sq = 0.0;
    int i, k = 0;
    f.node_min = f.node_max = 0.0;
    for (i = 0; i < s->net.nodes; i++) {
      double x = f.window ? (double)s->sink.src_flits[i] / (double)f.window : 0.0;
      if (s->nic.src[i].created == 0) continue;
      if (k == 0 || x < f.node_min) f.node_min = x;
      if (k == 0 || x > f.node_max) f.node_max = x;
      sum += x;
      sq += x * x;
      k++;
    }
    f.jain = sq > 0.0 ? sum * sum / ((double)k * sq) : 0.0;
  }
  return f;
}

/* "live", "paper", or the three mechanisms one by one. */
static const char *mode_text3(const sim_t *s, char *buf, size_t len)
{
  const router_mode_t *m = &s->o.mode;
  const int adopt = m->adopt && s->o.spin;
  if (m->admit && m->reroute && (adopt || !s->o.spin)) return "live (admission, rerouting"
                                                              "; with SPIN, probe adoption)";
  if (!m->admit && !m->reroute && !adopt) return "paper (no admission, no rerouting, no adoption)";
  snprintf(buf, len, "admission %s, rerouting %s, probe adoption %s", m->admit ? "on" : "off",
           m->reroute ? "on" : "off", adopt ? "on" : "off");
  return buf;
}

/* The mode, with occupancy admission (section 6) and the injection window
 * (section 8) when they are on. */
static const char *mode_text(const sim_t *s, char *buf, size_t len)
{
  char three[96];
  const char *t = mode_text3(s, three, sizeof three);
  const router_mode_t *m = &s->o.mode;
  char occ[64] = "", win[96] = "", thr[48] = "";
  const char *ec = m->early_credit ? ", credits used on arrival" : "";
  if (m->admit_occ)
    snprintf(occ, sizeof occ, ", occupancy admission %s",
             m->admit_occ == 1 ? "(at most one busy input)" : "(no busy input)");
  if (m->window == 1) snprintf(win, sizeof win, ", injection window 1%s",
                               m->window_notice ? " (delivery notices)" : "");
  else if (m->window) snprintf(win, sizeof win, ", injection window 1 to %d (slack %d%s)",
                               m->window, m->window_slack,
                               m->window_notice ? ", delivery notices" : "");
  if (m->throttle) snprintf(thr, sizeof thr, ", recovery throttle (epoch %d)", m->throttle);
  snprintf(buf, len, "%s%s%s%s%s%s%s", t, m->admit == 2 ? ", admission gated by the window" : "",
           occ, win, ec, thr, m->min_cycles ? ", routes minimal in cycles" : "");
  return buf;
}

/* The first line: what was run. */
static void print_headline(FILE *out, const report_t *r)
{
  const sim_t *s = r->sim;
  char topo[512], traffic[512];   /* names as given, escaped for the terminal */
  text_escape(topo, sizeof topo, s->topo.name);
  text_escape(traffic, sizeof traffic, s->o.traffic);
  if (traffic_kind(s->tg) == TRAFFIC_TRACE)
    fprintf(out, "spin-noc %s: %s, %s routing, %d VC%s, %s, seed %llu\n", r->mode, topo,
            algo_name(s->o.algo), s->o.vcs, s->o.vcs > 1 ? "s" : "", traffic,
            (unsigned long long)s->o.seed);
  else
    fprintf(out, "spin-noc %s: %s, %s routing, %d VC%s, %s at %.3f flits/node/cycle, seed %llu\n",
            r->mode, topo, algo_name(s->o.algo), s->o.vcs, s->o.vcs > 1 ? "s" : "",
            traffic, s->o.rate, (unsigned long long)s->o.seed);
}

/* Mode, cycles, packets, latency, throughput and fairness. */
static void print_traffic(FILE *out, const report_t *r, const figures_t *f)
{
  const sim_t *s = r->sim;
  char buf[448];   /* mode_text: up to 96 + 31 + 63 + 95 + 25 + 47 + 26 characters */
  fprintf(out, "  mode                 %s\n", mode_text(s, buf, sizeof buf));
  fprintf(out, "  cycles simulated     %llu (warm-up %llu, measured %llu, then drain)",
          (unsigned long long)f->cycles, (unsigned long long)f->warmup,
          (unsigned long long)f->window);
  if (s->skipped)
    fprintf(out, ", %llu of them idle, skipped", (unsigned long long)s->skipped);
  fputc('\n', out);
  if (r->mismatches >= 0)
    fprintf(out, "  cycles compared      %llu, mismatches %lld\n",
            (unsigned long long)(f->cycles - s->skipped), (long long)r->mismatches);
  fprintf(out, "  packets              created %llu, injected %llu, delivered %llu%s\n",
          (unsigned long long)s->nic.created, (unsigned long long)s->nic.injected,
          (unsigned long long)s->sink.delivered, f->drained ? " (drained)" : " (NOT drained)");
  if (s->o.mode.window)
    fprintf(out, "  injection window     held a ready packet back %llu node-cycles%s",
            (unsigned long long)s->nic.win_held, s->o.mode.window >= 2 ? "" : "\n");
  if (s->o.mode.window >= 2)
    fprintf(out, "; halved %llu times, grew on %llu deliveries on time\n",
            (unsigned long long)s->nic.win_cuts, (unsigned long long)s->nic.win_grows);
  if (s->o.mode.throttle)
    fprintf(out, "  recovery throttle    on %llu of %llu cycles, turned on %llu times\n",
            (unsigned long long)s->thr.on_cycles, (unsigned long long)(f->cycles - s->skipped),
            (unsigned long long)s->thr.turned_on);
  fprintf(out, "  latency (measured)   avg %.2f, p99 %.0f, max %llu cycles over %llu packets\n",
          f->avg, f->p99, (unsigned long long)s->sink.lat_max,
          (unsigned long long)s->sink.meas_pkts);
  fprintf(out, "  throughput           %.4f flits/node/cycle accepted (offered %.4f)\n",
          f->thr, f->offered);
  fprintf(out, "  fairness             per source node: min %.4f, max %.4f, Jain's index %.3f\n",
          f->node_min, f->node_max, f->jain);
}

/* The link failures (--faults), when there are any. */
static void print_faults(FILE *out, const sim_t *s)
{
  int i;
  if (!s->faults.n) return;
  fprintf(out, "  link failures        %d of %d applied:", faults_applied(&s->faults), s->faults.n);
  for (i = 0; i < s->faults.n && i < 8; i++)
    fprintf(out, " %d:%d at %llu", s->faults.f[i].r, s->faults.f[i].p,
            (unsigned long long)s->faults.f[i].cycle);
  fprintf(out, "%s\n", s->faults.n > 8 ? " ..." : "");
  fprintf(out, "                       packets after a failure: %llu crossed the failed link, "
          "%llu routed around it\n", (unsigned long long)s->diag.crossed,
          (unsigned long long)s->diag.rerouted);
}

/* The loops standing at the end of a run that did not drain, and the
 * front most waiting VCs wait behind; the hint that fits.  */
static void print_loops(FILE *out, const sim_t *s)
{
  diag_loops_t d;
  diag_behind_t b;
  if (diag_loops(&d, &s->net) != 0) return;
  if (diag_behind(&b, &s->net) != 0) b.fronts = 0;
  fprintf(out, "  loops standing       %llu at the end, ", (unsigned long long)d.loops);
  if (d.loops)
    fprintf(out, "longest %llu hops, %llu cycles, ", (unsigned long long)d.longest_hops,
            (unsigned long long)d.longest_cycles);
  if (s->o.spin)
    fprintf(out, "%llu beyond the messages' %u cycles, ", (unsigned long long)d.beyond_reach,
            s->net.fmt.cyc_max);
  fprintf(out, "%llu VCs waiting\n", (unsigned long long)d.waiting);
  if (b.fronts)
    fprintf(out, "  waiting behind       %llu of them, behind %llu %s where packets still move; "
            "most (%llu) behind %d:%d -> %d:%d (%u %s)\n", (unsigned long long)b.behind,
            (unsigned long long)b.fronts, b.fronts == 1 ? "link" : "links",
            (unsigned long long)b.most, b.r, b.o, b.r2, b.p2, b.latency,
            b.latency == 1 ? "cycle" : "cycles");
  if (!d.loops && b.fronts)
    fprintf(out, "  hint                 no loop stands: the packets move, too slowly to drain "
            "within --drain-limit; behind a link of L cycles a VC is held a packet's length + "
            "2L + 1 cycles (contract 5): a lower --rate, more --vcs, --early-credit 1 or a "
            "longer --drain-limit (make: RATE=, VCS=, EARLY_CREDIT=1, DRAIN_LIMIT=)\n");
  else if (s->o.spin && !s->o.mode.window)
    fprintf(out, "  hint                 past saturation the injection window keeps a network "
            "draining: --window 1 --early-credit 1 (make: WINDOW=1 EARLY_CREDIT=1); or a "
            "longer --drain-limit (DRAIN_LIMIT=)\n");
  diag_loops_free(&d);
}

/* SPIN's counters, or "off". */
static void print_spin(FILE *out, const sim_t *s)
{
  const spin_stats_t *k = &s->net.spin;
  const unsigned median = spin_resolve_median(k);
  if (!s->o.spin) {
    fprintf(out, "  SPIN                 off\n");
    return;
  }
  fprintf(out, "  SPIN (t_DD %u)       probes sent %llu, forked %llu, dropped %llu, returned %llu,"
          " adopted %llu\n",
          s->o.tdd, (unsigned long long)k->probes_sent, (unsigned long long)k->probes_forked,
          (unsigned long long)k->probes_dropped, (unsigned long long)k->probes_returned,
          (unsigned long long)k->probes_adopted);
  fprintf(out, "                       moves %llu, probe_moves %llu, kill_moves %llu, spins %llu\n",
          (unsigned long long)k->moves_sent, (unsigned long long)k->probe_moves_sent,
          (unsigned long long)k->kill_moves_sent, (unsigned long long)k->spins);
  fprintf(out, "                       deadlocks resolved %llu, false positives %llu, "
          "max spins %llu (loop of %llu), %s bound broken %llu\n",
          (unsigned long long)k->deadlocks_resolved, (unsigned long long)k->false_positives,
          (unsigned long long)k->max_spins, (unsigned long long)k->max_spins_loop,
          s->o.algo == ALGO_FAVORS_NMIN ? "2m-1" : "m-1",
          (unsigned long long)k->bound_violations);
  if (k->deadlocks_resolved)
    fprintf(out, "                       expiry to resolution: median %u%s, max %llu cycles; "
            "longest loop %llu hops, %llu cycles\n", median,
            median == SPIN_RESOLVE_BINS - 1 ? " or more" : "",
            (unsigned long long)k->expiry_to_resolve_max, (unsigned long long)k->longest_hops,
            (unsigned long long)k->longest_cycles);
  if (k->probes_dropped)
    fprintf(out, "                       probes dropped: contention %llu, busy %llu, outranked "
            "%llu, not blocked %llu, came round %llu, too long %llu\n",
            (unsigned long long)k->drop_contention, (unsigned long long)k->drop_busy,
            (unsigned long long)k->drop_outranked, (unsigned long long)k->drop_not_blocked,
            (unsigned long long)k->drop_came_round, (unsigned long long)k->drop_length);
  fprintf(out, "                       messages: SmPipe %d, IdW %u, CycW %u (loops to %u "
          "cycles)\n", (int)s->net.fmt.s, s->net.fmt.idw, s->net.fmt.cycw, s->net.fmt.cyc_max);
}

void report_print(FILE *out, const report_t *r)
{
  const sim_t *s = r->sim;
  const figures_t f = figures(r);
  print_headline(out, r);
  print_traffic(out, r, &f);
  print_faults(out, s);
  if (!f.drained) print_loops(out, s);
  if (s->o.algo == ALGO_FAVORS_NMIN || s->o.algo == ALGO_UGAL)
    fprintf(out, "  non-minimal          %llu packets left their source toward an intermediate "
            "router\n", (unsigned long long)s->net.spin.detours);
  print_spin(out, s);
  fprintf(out, "  speed                %.0f cycles/s, %.3g router-cycles/s (%.2f s)\n",
          f.cps, f.rcps, r->wall_seconds);
  if (r->failure) fprintf(out, "  FAILED: %s\n", r->failure);
}

/* A JSON string (RFC 8259): quotes, backslashes and control characters
 * escaped; well-formed UTF-8 kept as it is, and a byte that is not part of
 * any (a name can hold such bytes) written as U+FFFD, so the file is
 * always valid UTF-8 JSON. */
void json_str(FILE *out, const char *key, const char *v)
{
  const unsigned char *p = (const unsigned char *)v;
  size_t n = 0, k;
  while (p[n]) n++;
  fprintf(out, "  \"%s\": \"", key);
  while (n > 0) {
    const unsigned ch = *p;
    k = 1;
    if (ch == '"' || ch == '\\') fprintf(out, "\\%c", ch);
    else if (ch < 0x20 || ch == 0x7f) fprintf(out, "\\u%04x", ch);
    else if (ch < 0x80) fputc((int)ch, out);
    else if ((k = text_utf8_len(p, n)) > 0) fwrite(p, 1, k, out);
    else if (n >= 2 && ch == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
      fprintf(out, "\\u%04x", p[1]);   /* a C1 control */
      k = 2;
    } else {
      fputs("\\ufffd", out);
      k = 1;
    }
    p += k;
    n -= k;
  }
  fprintf(out, "\",\n");
}

/* The live-mode mechanisms and their counters (contract 13), in
 * report_json's object. */
static void json_mode(FILE *out, const sim_t *s)
{
  const router_mode_t *m = &s->o.mode;
  fprintf(out, "  \"admit\": %s,\n", m->admit ? "true" : "false");
  fprintf(out, "  \"admit_window_gated\": %s,\n", m->admit == 2 ? "true" : "false");
  fprintf(out, "  \"reroute\": %s,\n", m->reroute ? "true" : "false");
  fprintf(out, "  \"admit_occ\": %d,\n", m->admit_occ);
  fprintf(out, "  \"early_credit\": %s,\n", m->early_credit ? "true" : "false");
  fprintf(out, "  \"window\": %d,\n", m->window);
  fprintf(out, "  \"window_slack\": %d,\n", m->window_slack);
  fprintf(out, "  \"window_notice\": %s,\n", m->window_notice ? "true" : "false");
  fprintf(out, "  \"window_held\": %llu,\n", (unsigned long long)s->nic.win_held);
  fprintf(out, "  \"window_cuts\": %llu,\n", (unsigned long long)s->nic.win_cuts);
  fprintf(out, "  \"window_grows\": %llu,\n", (unsigned long long)s->nic.win_grows);
  fprintf(out, "  \"throttle\": %d,\n", m->throttle);
  fprintf(out, "  \"throttle_cycles\": %llu,\n", (unsigned long long)s->thr.on_cycles);
  fprintf(out, "  \"throttle_turned_on\": %llu,\n", (unsigned long long)s->thr.turned_on);
  fprintf(out, "  \"min_cycles\": %s,\n", m->min_cycles ? "true" : "false");
}

int report_json(const char *path, const report_t *r)
{
  const sim_t *s = r->sim;
  figures_t f = figures(r);
  FILE *out = fopen(path, "w");
  if (!out) return -1;
  fprintf(out, "{\n");
  json_str(out, "mode", r->mode);
  json_str(out, "topology", s->topo.name);
  json_str(out, "routing", algo_name(s->o.algo));
  fprintf(out, "  \"vcs\": %d,\n", s->o.vcs);
  json_str(out, "traffic", s->o.traffic);
  fprintf(out, "  \"rate\": %.6f,\n", f.offered);
  fprintf(out, "  \"long_frac\": %.6f,\n", s->o.long_frac);
  fprintf(out, "  \"seed\": %llu,\n", (unsigned long long)s->o.seed);
  fprintf(out, "  \"cycles\": %llu,\n", (unsigned long long)f.cycles);
  fprintf(out, "  \"cycles_skipped\": %llu,\n", (unsigned long long)s->skipped);
  fprintf(out, "  \"warmup\": %llu,\n", (unsigned long long)f.warmup);
  fprintf(out, "  \"measured_cycles\": %llu,\n", (unsigned long long)f.window);
  fprintf(out, "  \"mismatches\": %lld,\n", (long long)(r->mismatches < 0 ? 0 : r->mismatches));
  fprintf(out, "  \"compared\": %s,\n", r->mismatches >= 0 ? "true" : "false");
  fprintf(out, "  \"packets_created\": %llu,\n", (unsigned long long)s->nic.created);
  fprintf(out, "  \"packets_injected\": %llu,\n", (unsigned long long)s->nic.injected);
  fprintf(out, "  \"packets_delivered\": %llu,\n", (unsigned long long)s->sink.delivered);
  fprintf(out, "  \"flits_delivered\": %llu,\n", (unsigned long long)s->sink.flits);
  fprintf(out, "  \"measured_packets\": %llu,\n", (unsigned long long)s->sink.meas_pkts);
  fprintf(out, "  \"avg_latency\": %.4f,\n", f.avg);
  fprintf(out, "  \"p99_latency\": %.1f,\n", f.p99);
  fprintf(out, "  \"max_latency\": %llu,\n", (unsigned long long)s->sink.lat_max);
  fprintf(out, "  \"throughput\": %.6f,\n", f.thr);
  fprintf(out, "  \"detours\": %llu,\n", (unsigned long long)s->net.spin.detours);
  fprintf(out, "  \"links_failed\": %d,\n", faults_applied(&s->faults));
  fprintf(out, "  \"packets_crossed_failed_link\": %llu,\n", (unsigned long long)s->diag.crossed);
  fprintf(out, "  \"packets_rerouted_around_failed_link\": %llu,\n",
          (unsigned long long)s->diag.rerouted);
  {
    diag_loops_t d;
    if (diag_loops(&d, &s->net) != 0) memset(&d, 0, sizeof d);
    fprintf(out, "  \"loops_standing\": %llu,\n", (unsigned long long)d.loops);
    fprintf(out, "  \"loops_standing_beyond_reach\": %llu,\n", (unsigned long long)d.beyond_reach);
    fprintf(out, "  \"loops_standing_longest_hops\": %llu,\n", (unsigned long long)d.longest_hops);
    fprintf(out, "  \"loops_standing_longest_cycles\": %llu,\n",
            (unsigned long long)d.longest_cycles);
    fprintf(out, "  \"vcs_waiting\": %llu,\n", (unsigned long long)d.waiting);
    diag_loops_free(&d);
  }
  {
    diag_behind_t b;
    char link[64] = "";
    if (diag_behind(&b, &s->net) != 0) b.fronts = 0;
    if (b.fronts) snprintf(link, sizeof link, "%d:%d->%d:%d", b.r, b.o, b.r2, b.p2);
    fprintf(out, "  \"waiting_fronts\": %llu,\n", (unsigned long long)b.fronts);
    fprintf(out, "  \"vcs_behind_fronts\": %llu,\n", (unsigned long long)b.behind);
    fprintf(out, "  \"front_link\": \"%s\",\n", link);
    fprintf(out, "  \"front_link_latency\": %u,\n", b.fronts ? b.latency : 0u);
    fprintf(out, "  \"vcs_behind_front_link\": %llu,\n", (unsigned long long)b.most);
  }
  fprintf(out, "  \"node_throughput_min\": %.6f,\n", f.node_min);
  fprintf(out, "  \"node_throughput_max\": %.6f,\n", f.node_max);
  fprintf(out, "  \"jain_index\": %.4f,\n", f.jain);
  fprintf(out, "  \"drained\": %s,\n", f.drained ? "true" : "false");
  {
    const spin_stats_t *k = &s->net.spin;
    fprintf(out, "  \"spin\": %s,\n", s->o.spin ? "true" : "false");
    fprintf(out, "  \"tdd\": %u,\n", s->o.tdd);
    fprintf(out, "  \"tdd_auto\": %s,\n", s->o.tdd_rule && !strcmp(s->o.tdd_rule, "auto") ? "true" : "false");
    fprintf(out, "  \"tdd_rule\": \"%s\",\n", s->o.tdd_rule ? s->o.tdd_rule : "given");
    json_mode(out, s);
    fprintf(out, "  \"adopt\": %s,\n", s->o.mode.adopt && s->o.spin ? "true" : "false");
    fprintf(out, "  \"probes_sent\": %llu,\n", (unsigned long long)k->probes_sent);
    fprintf(out, "  \"probes_forked\": %llu,\n", (unsigned long long)k->probes_forked);
    fprintf(out, "  \"probes_dropped\": %llu,\n", (unsigned long long)k->probes_dropped);
    fprintf(out, "  \"probes_returned\": %llu,\n", (unsigned long long)k->probes_returned);
    fprintf(out, "  \"probes_adopted\": %llu,\n", (unsigned long long)k->probes_adopted);
    fprintf(out, "  \"probes_dropped_contention\": %llu,\n", (unsigned long long)k->drop_contention);
    fprintf(out, "  \"probes_dropped_busy\": %llu,\n", (unsigned long long)k->drop_busy);
    fprintf(out, "  \"probes_dropped_outranked\": %llu,\n", (unsigned long long)k->drop_outranked);
    fprintf(out, "  \"probes_dropped_not_blocked\": %llu,\n", (unsigned long long)k->drop_not_blocked);
    fprintf(out, "  \"probes_dropped_came_round\": %llu,\n", (unsigned long long)k->drop_came_round);
    fprintf(out, "  \"probes_dropped_length\": %llu,\n", (unsigned long long)k->drop_length);
    fprintf(out, "  \"moves_sent\": %llu,\n", (unsigned long long)k->moves_sent);
    fprintf(out, "  \"probe_moves_sent\": %llu,\n", (unsigned long long)k->probe_moves_sent);
    fprintf(out, "  \"kill_moves_sent\": %llu,\n", (unsigned long long)k->kill_moves_sent);
    fprintf(out, "  \"moves_dropped\": %llu,\n", (unsigned long long)k->moves_dropped);
    fprintf(out, "  \"spins\": %llu,\n", (unsigned long long)k->spins);
    fprintf(out, "  \"deadlocks_resolved\": %llu,\n", (unsigned long long)k->deadlocks_resolved);
    fprintf(out, "  \"false_positives\": %llu,\n", (unsigned long long)k->false_positives);
    fprintf(out, "  \"frozen_timeouts\": %llu,\n", (unsigned long long)k->frozen_timeouts);
    fprintf(out, "  \"max_spins_per_deadlock\": %llu,\n", (unsigned long long)k->max_spins);
    fprintf(out, "  \"max_spins_loop_length\": %llu,\n", (unsigned long long)k->max_spins_loop);
    fprintf(out, "  \"spin_bound_violations\": %llu,\n", (unsigned long long)k->bound_violations);
    fprintf(out, "  \"longest_loop_hops\": %llu,\n", (unsigned long long)k->longest_hops);
    fprintf(out, "  \"longest_loop_cycles\": %llu,\n", (unsigned long long)k->longest_cycles);
    fprintf(out, "  \"sm_pipe\": %u,\n", s->net.fmt.s);
    fprintf(out, "  \"sm_widths\": [%u, %u],\n", s->net.fmt.idw, s->net.fmt.cycw);
    fprintf(out, "  \"expiry_to_resolution_avg\": %.2f,\n",
            k->deadlocks_resolved ? (double)k->expiry_to_resolve_sum / (double)k->deadlocks_resolved : 0.0);
    fprintf(out, "  \"expiry_to_resolution_median\": %u,\n", spin_resolve_median(k));
    fprintf(out, "  \"expiry_to_resolution_max\": %llu,\n", (unsigned long long)k->expiry_to_resolve_max);
  }
  fprintf(out, "  \"sim_cycles_per_second\": %.1f,\n", f.cps);
  fprintf(out, "  \"router_cycles_per_second\": %.1f,\n", f.rcps);
  fprintf(out, "  \"wall_seconds\": %.3f,\n", r->wall_seconds);
  fprintf(out, "  \"passed\": %s\n", r->failure ? "false" : "true");
  fprintf(out, "}\n");
  return fclose(out) == 0 ? 0 : -1;
}
