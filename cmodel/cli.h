/* cli.h - the command-line options shared by spinsim and the co-simulation
 * harness (the Makefile knobs map onto them one to one). */
#ifndef SPIN_CLI_H
#define SPIN_CLI_H

#include "sim.h"

typedef struct {
  sim_opts_t sim;
  const char *json;          /* --json FILE, or NULL */
  const char *deadlocks;     /* --deadlocks FILE (record.h), or NULL */
  const char *links;         /* --links FILE (record.h), or NULL */
  int quiet;
} cli_opts_t;

/* Starts the record the options ask for (net_record); after the run,
 * writes its files.  Each returns 0, or -1 after printing an error. */
int cli_record_start(const cli_opts_t *o, sim_t *sim);
int cli_record_write(const cli_opts_t *o, const sim_t *sim);

/* Parses argv; unknown or malformed options print a message naming the
 * option and return 2; --help prints usage and returns 1; 0 on success.
 * extra_usage is printed after the common options (may be NULL). */
int cli_parse(int argc, char **argv, cli_opts_t *o, const char *prog,
              const char *extra_usage);

#endif
