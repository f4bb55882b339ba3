/* cli.h - the command-line options shared by spinsim and the co-simulation
 * harness (the Makefile knobs map onto them one to one). */
#ifndef SPIN_CLI_H
#define SPIN_CLI_H

#include "report.h"
#include "sim.h"

typedef struct {
  sim_opts_t sim;
  const char *json;          /* --json FILE, or NULL */
  const char *deadlocks;     /* --deadlocks FILE (record.h), or NULL */
  const char *links;         /* --links FILE (record.h), or NULL */
  int quiet;
} cli_opts_t;

/* Starts the record the options ask for (net_record).  Returns 0, or -1
 * after printing an error (out of memory). */
int cli_record_start(const cli_opts_t *o, sim_t *sim);

/* The run's output files (--json, --deadlocks, --links; the co-simulation's
 * --waves and --waves-on-fail too).  Before the run, cli_output_check
 * makes sure FILE can be written: it is not a directory and a new file can
 * be made beside it (one is made and removed again); then it removes a FILE
 * an earlier run left, so that a run refused or failed later leaves nothing
 * that looks like its result.  A FILE that exists and is not a regular file
 * (/dev/stdout, a FIFO) is left alone; it must be writable.  Returns 0, or
 * -1 after printing "error: OPT: ..." naming FILE. */
int cli_output_check(const char *opt, const char *path);

/* cli_output_check of --json, --deadlocks and --links; two of them naming
 * the same file are refused (the same device, /dev/stdout, is not).  0 or
 * -1 (message printed). */
int cli_outputs_check(const cli_opts_t *o);

/* After the run: writes the summary (--json) and the record (--deadlocks,
 * --links), each into a temporary file beside it that is then renamed into
 * place (a file that is not a regular one is written directly), so that no
 * half-written file is left.  Returns 0, or -1 after printing an error for
 * each file that could not be written. */
int cli_outputs_write(const cli_opts_t *o, const report_t *rep);

/* Parses argv; unknown or malformed options, and an option that may be
 * given once given twice (--faults), print a message naming the option and
 * return 2; --help prints usage and returns 1; 0 on success.
 * extra_usage is printed after the common options (may be NULL). */
int cli_parse(int argc, char **argv, cli_opts_t *o, const char *prog,
              const char *extra_usage);

#endif
