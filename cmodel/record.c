/* record.c - deadlocks.json and links.json (record.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "record.h"
#include "report.h"

static void head(FILE *out, const sim_t *s)
{
  fputs("{\n", out);
  json_str(out, "topo", s->topo.name);
  fprintf(out, "  \"routers\": %d,\n  \"radix\": %d,\n  \"cycles\": %llu,\n", s->topo.routers,
          s->topo.radix, (unsigned long long)s->now);
  if (s->topo.has_coords) {
    int r;
    fputs("  \"coords\": [", out);
    for (r = 0; r < s->topo.routers; r++)
      fprintf(out, "%s[%d, %d]", r ? ", " : "", s->topo.x[r], s->topo.y[r]);
    fputs("],\n", out);
  }
}

/* The loops standing when the run ended (diag.h): each with its VCs, a
 * router's input port and VC and the output its head waits for. */
static void standing(FILE *out, const sim_t *s)
{
  diag_loops_t d;
  size_t i;
  unsigned h;
  if (diag_loops(&d, &s->net) != 0) memset(&d, 0, sizeof d);
  fprintf(out, "  \"standing_total\": %llu,\n  \"standing\": [",
          (unsigned long long)d.loops);
  for (i = 0; i < d.kept; i++) {
    const diag_loop_t *l = &d.loop[i];
    fprintf(out, "%s\n    {\"hops\": %u, \"cycles\": %llu, \"beyond_reach\": %s, "
            "\"frozen\": %u, \"vcs\": [", i ? "," : "", l->hops, (unsigned long long)l->cycles,
            s->o.spin && s->net.fmt.cyc_max && l->cycles > s->net.fmt.cyc_max ? "true" : "false",
            l->frozen);
    for (h = 0; l->vc && h < l->hops; h++)
      fprintf(out, "%s{\"router\": %d, \"in_port\": %d, \"vc\": %d, \"out_port\": %d}",
              h ? ", " : "", l->vc[h].r, l->vc[h].p, l->vc[h].v, l->vc[h].out);
    fputs("]}", out);
  }
  fputs(d.kept ? "\n  ]\n" : "]\n", out);
  diag_loops_free(&d);
}

int record_deadlocks_json(const char *path, const sim_t *s)
{
  const spin_log_t *log = s->net.log;
  const topo_t *t = &s->topo;
  FILE *out = fopen(path, "w");
  size_t i;
  if (!out) return -1;
  head(out, s);
  fprintf(out, "  \"recorded\": %llu,\n  \"truncated\": %llu,\n  \"spins\": %llu,\n",
          (unsigned long long)(log ? log->n : 0),
          (unsigned long long)(log ? log->total - log->n : 0),
          (unsigned long long)(log ? log->spins : 0));
  fputs("  \"deadlocks\": [", out);
  for (i = 0; log && i < log->n; i++) {
    const spin_log_entry_t *e = &log->e[i];
    int r = e->source, closed = e->closed && e->len > 0;
    int *rr = malloc((e->len + 1) * sizeof *rr), *in = malloc((e->len + 1) * sizeof *in);
    unsigned h;
    if (!rr || !in) {
      free(rr);
      free(in);
      fclose(out);
      return -1;
    }
    /* walk the loop from the source: router of each hop, and the port by
     * which the previous hop enters it */
    for (h = 0; h < e->len; h++) {
      const int k = r * t->radix + e->port[h];
      rr[h] = r;
      if (r < 0 || e->port[h] >= t->radix || t->peer_router[k] < 0) {
        closed = 0;
        break;
      }
      in[(h + 1) % e->len] = t->peer_port[k];
      r = t->peer_router[k];
    }
    if (h == e->len && r != e->source) closed = 0;
    fprintf(out, "%s\n    {\"source\": %d, \"detected\": %llu, \"first_spin\": %llu, "
            "\"last_spin\": %llu, \"spins\": %u, \"adopted\": %s, \"closed\": %s, \"loop\": [",
            i ? "," : "", e->source, (unsigned long long)e->detected,
            (unsigned long long)e->first_spin, (unsigned long long)e->last_spin, e->spins,
            e->adopted ? "true" : "false", closed ? "true" : "false");
    for (h = 0; closed && h < e->len; h++)
      fprintf(out, "%s{\"router\": %d, \"out_port\": %u, \"in_port\": %d}", h ? ", " : "", rr[h],
              e->port[h], in[h]);
    fputs("]}", out);
    free(rr);
    free(in);
  }
  fputs(log && log->n ? "\n  ],\n" : "],\n", out);
  standing(out, s);
  fputs("}\n", out);
  return fclose(out) == 0 ? 0 : -1;
}

int record_links_json(const char *path, const sim_t *s)
{
  const topo_t *t = &s->topo;
  const network_t *net = &s->net;
  FILE *out = fopen(path, "w");
  int r, p, first = 1;
  if (!out) return -1;
  head(out, s);
  fputs("  \"links\": [", out);
  for (r = 0; r < t->routers; r++)
    for (p = 1; p < t->radix; p++) {
      const int k = r * t->radix + p;
      if (t->peer_router[k] < 0) continue;
      fprintf(out, "%s\n    {\"router\": %d, \"port\": %d, \"to\": %d, \"to_port\": %d, "
              "\"flits\": %llu}", first ? "" : ",", r, p, t->peer_router[k], t->peer_port[k],
              (unsigned long long)(net->link_flits ? net->link_flits[r * net->ports + p] : 0));
      first = 0;
    }
  fputs(first ? "]\n}\n" : "\n  ]\n}\n", out);
  return fclose(out) == 0 ? 0 : -1;
}
