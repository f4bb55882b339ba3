/* spinsim.c - the standalone C model: runs one simulation and prints the
 * summary.  Exit status: 0 drained and correct; 1 the run failed (a packet
 * was lost, stuck or corrupted), or its output files could not be written
 * at its end; 2 bad input, refused before the run (an option, a file it
 * reads, an output file that cannot be written). */
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
  /* the outputs of an earlier run go first: a run refused from here on
   * leaves none */
  if (cli_outputs_check(&o) != 0) return 2;
  if (sim_init(&sim, &o.sim, 1) != 0) {
    fprintf(stderr, "error: %s\n", sim.err);
    sim_free(&sim);
    return 2;
  }
  if (cli_record_start(&o, &sim) != 0) {
    sim_free(&sim);
    return 1;
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
  rc = cli_outputs_write(&o, &rep);
  sim_free(&sim);
  return rep.failure || rc ? 1 : 0;
}
