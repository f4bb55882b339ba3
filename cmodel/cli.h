/* cli.h - the command-line options shared by spinsim and the co-simulation
 * harness (the Makefile knobs map onto them one to one). */
#ifndef SPIN_CLI_H
#define SPIN_CLI_H

#include "sim.h"

typedef struct {
  sim_opts_t sim;
  const char *json;          /* --json FILE, or NULL */
  int quiet;
} cli_opts_t;

/* Parses argv; unknown or malformed options print a message naming the
 * option and return 2; --help prints usage and returns 1; 0 on success.
 * extra_usage is printed after the common options (may be NULL). */
int cli_parse(int argc, char **argv, cli_opts_t *o, const char *prog,
              const char *extra_usage);

#endif
