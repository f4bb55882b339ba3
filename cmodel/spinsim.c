/* spinsim.c - the standalone C model: runs one simulation and prints the
 * summary.  Exit status: 0 drained and correct, 1 a packet was lost, stuck or
 * corrupted, 2 bad input. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>
#include "cli.h"
#include "report.h"

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
  cli_opts_t o;
  sim_t sim;
  report_t rep;
  sim_status_t st;
  double t0;
  int rc = cli_parse(argc, argv, &o, "spinsim", NULL);
  if (rc == 1) return 0;
  if (rc) return 2;
  if (sim_init(&sim, &o.sim, 1) != 0) {
    fprintf(stderr, "error: %s\n", sim.err);
    sim_free(&sim);
    return 2;
  }
  if (cli_record_start(&o, &sim) != 0) {
    sim_free(&sim);
    return 2;
  }
  t0 = now_s();
  st = sim_run(&sim);
  rep.sim = &sim;
  rep.mode = "cmodel";
  rep.wall_seconds = now_s() - t0;
  rep.mismatches = -1;
  rep.failure = st == SIM_ERROR ? sim.err
              : st == SIM_STUCK ? "packets left undelivered at the drain limit" : NULL;
  if (!o.quiet || rep.failure) report_print(stdout, &rep);
  if (o.json && report_json(o.json, &rep) != 0) {
    fprintf(stderr, "error: cannot write %s\n", o.json);
    rc = 2;
  }
  if (cli_record_write(&o, &sim) != 0) rc = 2;
  sim_free(&sim);
  if (rc) return rc;
  return rep.failure ? 1 : 0;
}
