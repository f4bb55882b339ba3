/* report.h - the run summary: printed on stdout and written as JSON.
 * The keys are listed in docs/usage.md. */
#ifndef SPIN_REPORT_H
#define SPIN_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "sim.h"

typedef struct {
  const sim_t *sim;
  const char *mode;          /* "cmodel", "cosim" or "cosim-sc" */
  double wall_seconds;
  int64_t mismatches;        /* -1: no comparison made */
  const char *failure;       /* NULL when the run passed */
} report_t;

void report_print(FILE *f, const report_t *r);
/* Returns 0, or -1 when the file cannot be written. */
int report_json(const char *path, const report_t *r);
/* One JSON member `  "key": "value",` and a newline, the value escaped
 * (RFC 8259, always valid UTF-8); also used by record.c. */
void json_str(FILE *out, const char *key, const char *v);

#endif
