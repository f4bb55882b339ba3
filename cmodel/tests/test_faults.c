/* test_faults.c - run-time link failures (cmodel/faults.c, contract 4.4):
 * the inline and file forms, cycle order and stages, the tables of every
 * stage (no route over a failed link, every destination still reached by a
 * minimal route of the reduced topology), the refusals, and a run that
 * applies the tables at exactly the fault's cycle, idle stretches skipped
 * or not.
 *
 * Usage: test_faults DATA_DIR.  Prints one line per failed check and ends
 * with "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L   /* mkstemp, fdopen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "faults.h"
#include "sim.h"
#include "check.h"

static const char *data_dir;

/* A temporary file holding text; its path in path (returns 0). */
static int temp_file(const char *text, char *path, size_t len)
{
  FILE *f;
  int fd;
  snprintf(path, len, "/tmp/test_faults_XXXXXX");
  fd = mkstemp(path);
  if (fd < 0) return -1;
  f = fdopen(fd, "w");
  if (!f) return -1;
  fputs(text, f);
  fclose(f);
  return 0;
}

/* Every stage of fs against the topology reduced by hand: no mask names a
 * failed port at either end, and every mask equals the minimal routes of
 * the reduced topology. */
static void check_stages(const char *what, const faults_t *fs, const topo_t *t)
{
  const int n = t->routers, R = t->radix;
  topo_t red;
  int s, i = 0, r, d;
  uint8_t *want = malloc((size_t)n * (size_t)n);
  char err[256];
  CHECK(want && topo_copy(t, &red) == 0, "%s: out of memory", what);
  if (!want) return;
  for (s = 0; s < fs->stages; s++) {
    const uint8_t *m = fs->masks + (size_t)s * (size_t)n * (size_t)n;
    for (; i <= fs->last[s]; i++) {
      const fault_t *g = &fs->f[i];
      const int q = t->peer_router[g->r * R + g->p], qp = t->peer_port[g->r * R + g->p];
      CHECK(g->cycle == fs->at[s], "%s: fault %d at %llu in the stage of %llu", what, i,
            (unsigned long long)g->cycle, (unsigned long long)fs->at[s]);
      topo_remove_link(&red, g->r, g->p);
      for (d = 0; d < n; d++)
        CHECK(!(m[g->r * n + d] >> g->p & 1u) && !(m[q * n + d] >> qp & 1u),
              "%s: stage %d routes toward %d over failed link %d:%d", what, s, d, g->r, g->p);
    }
    CHECK(topo_route_masks(&red, ROUTE_MINIMAL, want, err, sizeof err) == 0, "%s: %s", what, err);
    for (r = 0; r < n; r++)
      for (d = 0; d < n; d++)
        CHECK(m[r * n + d] == want[r * n + d], "%s: stage %d, router %d to %d: mask %#x, want %#x",
              what, s, r, d, m[r * n + d], want[r * n + d]);
  }
  topo_free(&red);
  free(want);
}

static void test_inline(void)
{
  topo_t t;
  faults_t fs;
  char err[512];
  CHECK(topo_from_name("mesh4x4", &t, err, sizeof err) == 0, "%s", err);
  /* out of cycle order; two at 3000 keep their order */
  CHECK(faults_parse("3000@9:3,0@2:3,3000@5:1", &t, &fs, err, sizeof err) == 0, "%s", err);
  CHECK(fs.n == 3 && fs.stages == 2 && fs.at[0] == 0 && fs.at[1] == 3000 && fs.last[0] == 0 &&
            fs.last[1] == 2, "n %d, stages %d", fs.n, fs.stages);
  CHECK(fs.f[0].r == 2 && fs.f[1].r == 9 && fs.f[2].r == 5 && fs.f[1].line == 1 &&
            fs.f[2].line == 3, "order %d %d %d", fs.f[0].r, fs.f[1].r, fs.f[2].r);
  CHECK(faults_tables(&fs, &t, ROUTE_MINIMAL, 0, err, sizeof err) == 0, "%s", err);
  check_stages("inline", &fs, &t);
  CHECK(faults_next_cycle(&fs) == 0, "next %llu", (unsigned long long)faults_next_cycle(&fs));
  faults_free(&fs);
  /* the escape VC's west-first tables cannot route around a mesh link */
  CHECK(faults_parse("5@5:3", &t, &fs, err, sizeof err) == 0, "%s", err);
  CHECK(faults_tables(&fs, &t, ROUTE_MINIMAL, 1, err, sizeof err) != 0 &&
            strstr(err, "item 1: with the links failed by cycle 5: mesh4x4: no west-first route"),
        "escape: '%s'", err);
  faults_free(&fs);
  /* refusals, each naming the item */
  {
    static const char *const bad[][2] = {
      {"10@5:0", "item 1: link '5:0' is not ROUTER:PORT"},
      {"10@16:1", "item 1: link '16:1' is not ROUTER:PORT"},
      {"10@5:5", "item 1: link '5:5' is not ROUTER:PORT"},
      {"10@5:1,", "item 2: '' is not CYCLE@ROUTER:PORT"},
      {"-1@5:1", "item 1: cycle '-1' is not a number"},
      {"18446744073709551616@5:1", "item 1: cycle '18446744073709551616' is not a number"},
      {"10@0:2", "item 1: router 0 port 2 of mesh4x4 has no link"},
      {"10@5:1,20@6:2", "item 2: link 6:2-5:1 fails twice"},
      {"10@5:1 ", "item 1: link '5:1 ' is not ROUTER:PORT"},
    };
    size_t k;
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
      err[0] = '\0';
      CHECK(faults_parse(bad[k][0], &t, &fs, err, sizeof err) != 0 && strstr(err, bad[k][1]),
            "'%s': '%s'", bad[k][0], err);
    }
  }
  /* a disconnecting stage is refused before the run */
  CHECK(faults_parse("100@0:1,100@0:3", &t, &fs, err, sizeof err) == 0, "%s", err);
  CHECK(faults_tables(&fs, &t, ROUTE_MINIMAL, 0, err, sizeof err) != 0 &&
            strstr(err, "item 2: with the links failed by cycle 100: mesh4x4: router 0 cannot "
                        "reach router 1 (disconnected network)"), "'%s'", err);
  faults_free(&fs);
  topo_free(&t);
}

static void test_file(void)
{
  topo_t t;
  faults_t fs;
  char err[512], path[64], spec[80];
  CHECK(topo_from_name("torus4x4", &t, err, sizeof err) == 0, "%s", err);
  CHECK(temp_file("# faults\r\n\n  700 3:1  # east of 3\r\n200\t12:4\n700 0:3\n", path,
                  sizeof path) == 0, "temp file");
  snprintf(spec, sizeof spec, "file:%s", path);
  CHECK(faults_parse(spec, &t, &fs, err, sizeof err) == 0, "%s", err);
  CHECK(fs.n == 3 && fs.stages == 2 && fs.f[0].line == 4 && fs.f[1].line == 3 &&
            fs.f[2].line == 5, "n %d, lines %d %d %d", fs.n, fs.f[0].line, fs.f[1].line,
        fs.f[2].line);
  CHECK(faults_tables(&fs, &t, ROUTE_MINIMAL, 0, err, sizeof err) == 0, "%s", err);
  check_stages("file", &fs, &t);
  faults_free(&fs);
  unlink(path);
  {
    static const char *const bad[][2] = {
      {"10 5:1\n20 6:3 x\n", ":2: extra field 'x'"},
      {"10\n", ":1: missing field"},
      {"# nothing\n", ": no fault in the file"},
      {"10 5:1\n\n30 5:9\n", ":3: link '5:9' is not ROUTER:PORT"},
      {"10 5:1\n20 a:1\n", ":2: link 'a:1' is not ROUTER:PORT"},
    };
    size_t k;
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
      err[0] = '\0';
      CHECK(temp_file(bad[k][0], path, sizeof path) == 0, "temp file");
      snprintf(spec, sizeof spec, "file:%s", path);
      CHECK(faults_parse(spec, &t, &fs, err, sizeof err) != 0 && strstr(err, path) &&
                strstr(err, bad[k][1]), "'%s': '%s'", bad[k][0], err);
      unlink(path);
    }
  }
  snprintf(spec, sizeof spec, "file:%s/bad_disconnect.faults", data_dir);
  CHECK(faults_parse(spec, &t, &fs, err, sizeof err) == 0 && fs.n == 2 && fs.stages == 2 &&
            fs.f[1].line == 4, "%s", err);
  faults_free(&fs);
  CHECK(faults_parse("file:/nonexistent/x.faults", &t, &fs, err, sizeof err) != 0 &&
            strstr(err, "cannot open /nonexistent/x.faults"), "'%s'", err);
  topo_free(&t);
}

/* A trace with a long idle gap over the fault's cycle: the tables change at
 * exactly that cycle, skipping or not, and the run ends alike. */
static void test_run(void)
{
  sim_opts_t o;
  sim_t s[2];
  char path[64];
  int k;
  uint64_t changed[2] = {0, 0};
  CHECK(temp_file("0 0 15 5\n0 15 0 5\n100000 0 15 5\n100000 5 6 1\n", path, sizeof path) == 0,
        "temp file");
  sim_defaults(&o);
  o.topo = "mesh4x4";
  o.algo = ALGO_FAVORS_MIN;
  o.spin = 1;
  o.cycles = 1;
  o.warmup = 0;
  {
    static char traffic[80];
    snprintf(traffic, sizeof traffic, "trace:%s", path);
    o.traffic = traffic;
  }
  o.faults = "50000@5:1,50000@0:3";
  for (k = 0; k < 2; k++) {
    sim_status_t st = SIM_ERROR;
    CHECK(sim_init(&s[k], &o, 1) == 0, "%s", s[k].err);
    do {
      if (k == 0) sim_idle_skip(&s[k], UINT64_MAX);
      sim_cycle_pre(&s[k]);
      if (s[k].tables_changed) changed[k] = s[k].now;
      net_step(&s[k].net);
      if (sim_cycle_post(&s[k]) != 0) break;
      st = sim_status(&s[k]);
    } while (st == SIM_RUNNING);
    CHECK(st == SIM_DRAINED, "run %d: status %d", k, (int)st);
    CHECK(changed[k] == 50000 && faults_applied(&s[k].faults) == 2, "run %d: tables changed at %llu, %d applied",
          k, (unsigned long long)changed[k], faults_applied(&s[k].faults));
    CHECK(memcmp(s[k].net.masks, s[k].faults.masks, 16 * 16) == 0, "run %d: the stage's tables", k);
  }
  CHECK(s[0].skipped > 0 && s[0].now == s[1].now && s[0].sink.delivered == s[1].sink.delivered &&
            s[0].sink.lat_max == s[1].sink.lat_max, "skipped %llu; end %llu / %llu",
        (unsigned long long)s[0].skipped, (unsigned long long)s[0].now,
        (unsigned long long)s[1].now);
  for (k = 0; k < 2; k++) sim_free(&s[k]);
  unlink(path);
}

int main(int argc, char **argv)
{
  data_dir = check_data(argc, argv);
  test_inline();
  test_file();
  test_run();
  return check_done();
}
