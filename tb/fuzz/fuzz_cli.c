/* fuzz_cli.c - libFuzzer target: the command line of spinsim and the
 * co-simulation (cmodel/cli.c, cli_parse).  The input is split at NUL bytes
 * into arguments (at most 64) after the program name.  An accepted command
 * line then builds its named topology (not file:) and its traffic pattern
 * (not trace:), which parse names of their own, and its inline link
 * failures (--faults, not file:) with their tables on networks of at most
 * 64 routers; nothing is read from disk (and meshes of more than 1,024
 * routers are not built: see name_size).  Besides the sanitizers' findings,
 * it stops on a broken promise: an accepted option out of its documented
 * range; a fault list accepted out of order, with a stage whose tables
 * break the routing rules, or refused with a message that does not name
 * --faults or, escaped as sim_init escapes it, holds a control byte. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "faults.h"
#include "text.h"
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

/* The inline faults of an accepted command line, on topology t. */
static void check_faults(const char *spec, const topo_t *t)
{
  faults_t *fs = malloc(sizeof *fs);
  char err[512] = "";
  int i, r;
  if (!fs) return;
  if (faults_parse(spec, t, fs, err, sizeof err) != 0 ||
      faults_check(fs, t, ROUTE_MINIMAL, 0, err, sizeof err) != 0) {
    const unsigned char *p;
    text_escape(err, sizeof err, err);   /* as sim_init does */
    if (strncmp(err, "--faults (FAULTS) item ", 23) != 0) fail("fault message does not name --faults");
    for (p = (const unsigned char *)err; *p; p++)
      if (*p < 0x20 || *p == 0x7f) fail("control byte in a fault message");
  } else {
    if (fs->n < 1 || fs->n > FAULTS_MAX || fs->stages < 1 || fs->stages > fs->n ||
        fs->last[fs->stages - 1] != fs->n - 1)
      fail("fault list sizes out of range");
    for (i = 1; i < fs->stages; i++)
      if (fs->at[i] <= fs->at[i - 1] || fs->last[i] <= fs->last[i - 1]) fail("stages out of order");
    for (i = 0; i < fs->n; i++)
      if (fs->f[i].cycle > SIM_MAX_CYCLE || (i && fs->f[i].cycle < fs->f[i - 1].cycle))
        fail("faults out of order");
    {   /* every stage's tables, as the run builds them at its cycle */
      const int per = t->nodes / t->routers;   /* NICs a router: node r * per + k at port k */
      port_mask_t *m = malloc((size_t)t->routers * (size_t)t->nodes * sizeof *m);
      for (i = 0; m && i < fs->stages; i++) {
        if (faults_apply(fs, t, m, NULL, err, sizeof err) != 0)
          fail("a stage the check accepted has no tables");
        for (r = 0; r < t->routers; r++)
          for (int k = 0; k < per; k++)
            if (m[(size_t)r * t->nodes + (size_t)(r * per + k)] != (port_mask_t)(1u << k))
              fail("a stage's table does not eject at the destination");
      }
      free(m);
    }
  }
  faults_free(fs);
  free(fs);
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
        o.sim.tdd > 32768 ||   /* 0 and 1 are SIM_TDD_AUTO and SIM_TDD_COVER */
        (o.sim.spin != 0 && o.sim.spin != 1) ||
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
      if (o.sim.faults && strncmp(o.sim.faults, "file:", 5) != 0 && t.routers <= 64)
        check_faults(o.sim.faults, &t);
    }
    topo_free(&t);
  }
  free(buf);
  return 0;
}
