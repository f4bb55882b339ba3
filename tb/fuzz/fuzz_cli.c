/* fuzz_cli.c - libFuzzer target: the command line of spinsim and the
 * co-simulation (cmodel/cli.c, cli_parse).  The input is split at NUL bytes
 * into arguments (at most 64) after the program name.  An accepted command
 * line then builds its named topology (not file:) and its traffic pattern
 * (not trace:), which parse names of their own; nothing is read from disk
 * (and meshes of more than 1,024 routers are not built: see name_size).
 * Besides the sanitizers' findings, it stops on a broken promise: an
 * accepted option out of its documented range. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "topology.h"
#include "traffic.h"

#define MAX_ARGS 64

/* The product of the numbers in a topology name: the router count of a mesh,
 * torus or ring (a dragonfly here has at most 80 routers whatever it says).
 * Names of 1,025 to 4,096 routers build, but take seconds each under the
 * sanitizers (all-pairs distances): not the parser's business, and skipped
 * to keep the fuzzer fast.  Larger ones are refused at once and kept. */
static double name_size(const char *s)
{
  double prod = 1, v = -1;
  for (;; s++) {
    if (*s >= '0' && *s <= '9') {
      v = (v < 0 ? 0 : v) * 10 + (*s - '0');
      if (v > 1e9) v = 1e9;
    } else {
      if (v >= 0) prod = prod * v > 1e18 ? 1e18 : prod * v;
      v = -1;
      if (!*s) return prod;
    }
  }
}

static void fail(const char *why)
{
  fprintf(stderr, "fuzz_cli: %s\n", why);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
  int argc = 0, rc;
  size_t i, start = 0;
  cli_opts_t o;
  if (!buf) return 0;
  memcpy(buf, data, size);
  buf[size] = '\0';
  argv[argc++] = (char *)"spinsim";
  for (i = 0; i <= size && argc <= MAX_ARGS; i++)
    if (buf[i] == '\0') {
      if (i > start || i < size) argv[argc++] = buf + start;
      start = i + 1;
    }
  argv[argc] = NULL;
  rc = cli_parse(argc, argv, &o, "spinsim", NULL);
  if (rc != 0 && rc != 1 && rc != 2) fail("cli_parse returned another status");
  if (rc == 0) {
    topo_t t;
    char err[512];
    memset(&t, 0, sizeof t);
    if (o.sim.vcs < 1 || o.sim.vcs > 4 || o.sim.cycles < 1 || o.sim.cycles > SIM_MAX_CYCLE ||
        o.sim.warmup >= o.sim.cycles || o.sim.drain_limit > SIM_MAX_CYCLE ||
        !(o.sim.rate >= 0 && o.sim.rate <= 1) || !(o.sim.long_frac >= 0 && o.sim.long_frac <= 1) ||
        o.sim.tdd < 2 || o.sim.tdd > 32768 || (o.sim.spin != 0 && o.sim.spin != 1) ||
        !o.sim.topo || !o.sim.traffic)
      fail("option out of range accepted");
    const double size = name_size(o.sim.topo);
    if (strncmp(o.sim.topo, "file:", 5) != 0 && (size <= 1024 || size > TOPO_MAX_ROUTERS) &&
        topo_from_name(o.sim.topo, &t, err, sizeof err) == 0) {
      if (strncmp(o.sim.traffic, "trace:", 6) != 0) {
        traffic_t *tg = traffic_new(o.sim.traffic, &t, o.sim.rate, o.sim.long_frac, o.sim.seed,
                                    err, sizeof err);
        if (tg) {
          traffic_tick(tg, 0, NULL, NULL);
          traffic_free(tg);
        }
      }
    }
    topo_free(&t);
  }
  free(buf);
  return 0;
}
