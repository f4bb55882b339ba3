/* test_faults.c - run-time link failures (cmodel/faults.c, contract 4.4):
 * the inline and file forms (comments of any length), cycle order and
 * stages, the tables of every stage, built when it applies (no route over a
 * failed link, every destination still reached by a minimal route of the
 * reduced topology), the refusals, the check before the run against the
 * tables built stage by stage, a run that applies the tables at exactly
 * the fault's cycle, idle stretches skipped or not, and a large network
 * whose faults come after the run's end, for which no table is built.
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

/* Every stage of fs, applied one after the other (faults_apply), against
 * the topology reduced by hand: no mask names a failed port at either end,
 * and every mask equals the minimal routes of the reduced topology.  Leaves
 * every stage applied. */
static void check_stages(const char *what, faults_t *fs, const topo_t *t)
{
  const int n = t->routers, R = t->radix;
  topo_t red;
  int s, i = 0, r, d;
  port_mask_t *want = malloc((size_t)n * (size_t)n * sizeof *want), *m = malloc((size_t)n * (size_t)n * sizeof *m);
  char err[256];
  CHECK(want && m && topo_copy(t, &red) == 0, "%s: out of memory", what);
  if (!want || !m) return;
  for (s = 0; s < fs->stages; s++) {
    memset(m, 0xee, (size_t)n * (size_t)n * sizeof *m);
    CHECK(fs->next == s && faults_apply(fs, t, m, NULL, err, sizeof err) == 0 && fs->next == s + 1,
          "%s: stage %d: %s", what, s, err);
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
  /* nothing left: the tables stay as they are */
  memset(m, 0xee, (size_t)n * (size_t)n * sizeof *m);
  CHECK(faults_apply(fs, t, m, NULL, err, sizeof err) == 0 && m[0] == 0xeeee &&
            faults_next_cycle(fs) == UINT64_MAX, "%s: apply past the last stage", what);
  topo_free(&red);
  free(want);
  free(m);
}

/* The check before the run against the tables built stage by stage, as
 * the model built them before the run until the tables became lazy: for
 * random fault lists on meshes (XY, west-first, minimal, escape), a torus
 * and a ring, faults_check accepts exactly the lists whose every stage
 * builds, and refuses the others with the message the first failing table
 * gives, naming the same fault; the tables faults_apply builds are those
 * tables. */
static void test_check_against_tables(void)
{
  static const struct { const char *topo; route_fn_t fn; int esc; } cfg[] = {
    {"mesh4x4", ROUTE_XY, 0}, {"mesh4x4", ROUTE_WEST_FIRST, 0}, {"mesh5x3", ROUTE_WEST_FIRST, 0},
    {"mesh4x4", ROUTE_MINIMAL, 0}, {"mesh4x4", ROUTE_MINIMAL, 1}, {"mesh3x5", ROUTE_MINIMAL, 1},
    {"torus4x4", ROUTE_MINIMAL, 0}, {"ring-6", ROUTE_MINIMAL, 0}, {"mesh2x2", ROUTE_MINIMAL, 0},
  };
  unsigned long long lcg = 12345;
  int c, trial, refused = 0, accepted = 0, kinds[3] = {0, 0, 0};
  for (c = 0; c < (int)(sizeof cfg / sizeof cfg[0]); c++) {
    topo_t t;
    char err[512];
    CHECK(topo_from_name(cfg[c].topo, &t, err, sizeof err) == 0, "%s", err);
    for (trial = 0; trial < 300; trial++) {
      const int n = t.routers, R = t.radix;
      char spec[512], got[512] = "", want[1024] = "";
      int k, nf, len = 0, rc_got, rc_want = 0, s, i = 0;
      faults_t fs;
      topo_t red;
      port_mask_t *m = malloc((size_t)n * n * sizeof *m), *mw = malloc((size_t)n * n * sizeof *mw),
                  *e = malloc((size_t)n * n * sizeof *e), *ew = malloc((size_t)n * n * sizeof *ew);
      /* 1 to 5 distinct links, at cycles 10, 20 or 30 (stages of several) */
      nf = 1 + (int)((lcg = lcg * 6364136223846793005ull + 1442695040888963407ull) >> 33) % 5;
      for (k = 0; k < nf; k++) {
        int r, p, tries = 0;
        do {
          lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
          r = (int)((lcg >> 33) % (unsigned long long)n);
          p = 1 + (int)((lcg >> 17) % (unsigned long long)(R - 1));
        } while (t.peer_router[r * R + p] < 0 && ++tries < 100);
        len += snprintf(spec + len, sizeof spec - (size_t)len, "%s%d@%d:%d", k ? "," : "",
                        10 * (1 + (int)((lcg >> 45) % 3)), r, p);
      }
      if (faults_parse(spec, &t, &fs, err, sizeof err) != 0) {   /* a link named twice */
        free(m), free(mw), free(e), free(ew);
        continue;
      }
      rc_got = faults_check(&fs, &t, cfg[c].fn, cfg[c].esc, got, sizeof got);
      /* the reference: every stage's tables, in order */
      CHECK(topo_copy(&t, &red) == 0, "copy");
      for (s = 0; s < fs.stages && rc_want == 0; s++) {
        char why[400], w[128];
        for (; i <= fs.last[s]; i++) topo_remove_link(&red, fs.f[i].r, fs.f[i].p);
        if (topo_route_masks(&red, cfg[c].fn, mw, why, sizeof why) != 0 ||
            (cfg[c].esc && topo_route_masks(&red, ROUTE_WEST_FIRST, ew, why, sizeof why) != 0)) {
          snprintf(w, sizeof w, "--faults (FAULTS) item %d", fs.f[i - 1].line);
          snprintf(want, sizeof want, "%s: with the links failed by cycle %llu: %s", w,
                   (unsigned long long)fs.at[s], why);
          rc_want = -1;
          kinds[strstr(why, "cannot reach") ? 0 : strstr(why, "no west-first") ? 1 : 2]++;
          break;
        }
        if (rc_got == 0) {   /* the lazy tables are these */
          CHECK(faults_apply(&fs, &t, m, cfg[c].esc ? e : NULL, err, sizeof err) == 0, "%s", err);
          CHECK(memcmp(m, mw, (size_t)n * n * sizeof *m) == 0 &&
                    (!cfg[c].esc || memcmp(e, ew, (size_t)n * n * sizeof *e) == 0),
                "%s %s: stage %d's tables differ", cfg[c].topo, spec, s);
        }
      }
      CHECK(rc_got == rc_want && strcmp(got, want) == 0, "%s fn %d esc %d, %s:\n  got  '%s'\n  want '%s'",
            cfg[c].topo, (int)cfg[c].fn, cfg[c].esc, spec, got, want);
      if (rc_want) refused++;
      else accepted++;
      topo_free(&red);
      faults_free(&fs);
      free(m), free(mw), free(e), free(ew);
    }
    topo_free(&t);
  }
  /* the random lists reach every kind of refusal, and acceptance */
  CHECK(accepted > 100 && refused > 100 && kinds[0] > 10 && kinds[1] > 10 && kinds[2] > 10,
        "accepted %d, refused %d (disconnected %d, west-first %d, xy %d)", accepted, refused,
        kinds[0], kinds[1], kinds[2]);
}

/* A network of 4096 routers with 256 faults after the end of a short run:
 * the check costs no table, and the run builds none (the tables of every
 * stage built before the run took 4.4 GB and minutes). */
static void test_lazy(void)
{
  sim_opts_t o;
  sim_t s;
  char spec[256 * 24];
  int k, len = 0;
  for (k = 0; k < 256; k++) {   /* four east links a row, at columns that vary by row */
    const int r = 64 * (k / 4) + (k * 13 + (k / 4) * 7) % 63;
    len += snprintf(spec + len, sizeof spec - (size_t)len, "%s%d@%d:1", k ? "," : "", 1000 + k, r);
  }
  sim_defaults(&o);
  o.topo = "mesh64x64";
  o.algo = ALGO_FAVORS_MIN;
  o.cycles = 20;
  o.warmup = 0;
  o.rate = 0.01;
  o.faults = spec;
  CHECK(sim_init(&s, &o, 1) == 0, "%s", s.err);
  CHECK(s.faults.n == 256 && s.faults.stages == 256 && !s.faults.have_red, "n %d, stages %d",
        s.faults.n, s.faults.stages);
  CHECK(sim_run(&s) == SIM_DRAINED && s.now < 1000 && faults_applied(&s.faults) == 0 &&
            !s.faults.have_red, "end %llu, applied %d", (unsigned long long)s.now,
        faults_applied(&s.faults));
  sim_free(&s);
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
  CHECK(faults_check(&fs, &t, ROUTE_MINIMAL, 0, err, sizeof err) == 0, "%s", err);
  CHECK(faults_next_cycle(&fs) == 0, "next %llu", (unsigned long long)faults_next_cycle(&fs));
  check_stages("inline", &fs, &t);
  faults_free(&fs);
  /* the escape VC's west-first tables cannot route around a mesh link */
  CHECK(faults_parse("5@5:3", &t, &fs, err, sizeof err) == 0, "%s", err);
  CHECK(faults_check(&fs, &t, ROUTE_MINIMAL, 1, err, sizeof err) != 0 &&
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
  /* with two NICs a router, port 1 is a NIC port, not a link */
  {
    topo_t d;
    CHECK(topo_from_name("dragonfly-4-2-2@4", &d, err, sizeof err) == 0, "%s", err);
    err[0] = '\0';
    CHECK(faults_parse("10@0:1", &d, &fs, err, sizeof err) != 0 &&
              strstr(err, "item 1: link '0:1' is not ROUTER:PORT with a router in 0..35 and a "
                          "network port in 2..6 of dragonfly-4-2-2@4"), "NIC port 1: '%s'", err);
    CHECK(faults_parse("10@0:2", &d, &fs, err, sizeof err) == 0, "network port 2: '%s'", err);
    faults_free(&fs);
    topo_free(&d);
  }
  /* a disconnecting stage is refused before the run */
  CHECK(faults_parse("100@0:1,100@0:3", &t, &fs, err, sizeof err) == 0, "%s", err);
  CHECK(faults_check(&fs, &t, ROUTE_MINIMAL, 0, err, sizeof err) != 0 &&
            strstr(err, "item 2: with the links failed by cycle 100: mesh4x4: router 0 cannot "
                        "reach router 1 (disconnected network)"), "'%s'", err);
  faults_free(&fs);
  topo_free(&t);
}

/* Comments of any length, as traces take them; the part before the
 * comment at most 1024 characters; a NUL anywhere stops the file. */
static void test_file_lines(const topo_t *t)
{
  static char text[16384];
  char err[512], path[64], spec[80];
  faults_t fs;
  FILE *f;
  int fd;
  /* a comment of 5000 characters after a fault, one alone on a line */
  snprintf(text, sizeof text, "10 5:1 # %05000d\n#%05000d\n20 6:1\n", 7, 8);
  CHECK(temp_file(text, path, sizeof path) == 0, "temp file");
  snprintf(spec, sizeof spec, "file:%s", path);
  CHECK(faults_parse(spec, t, &fs, err, sizeof err) == 0 && fs.n == 2 && fs.f[1].line == 3,
        "long comment: %s", err);
  unlink(path);
  /* 1024 characters before the comment pass, 1025 do not */
  snprintf(text, sizeof text, "10 5:1%01017d # x\n", 0);   /* "10 5:1", 1018 blanks, '#' */
  memset(text + 6, ' ', 1017);
  CHECK(temp_file(text, path, sizeof path) == 0, "temp file");
  snprintf(spec, sizeof spec, "file:%s", path);
  CHECK(faults_parse(spec, t, &fs, err, sizeof err) == 0 && fs.n == 1, "1024 before the comment: %s", err);
  unlink(path);
  snprintf(text, sizeof text, "10 5:1%01018d # x\n", 0);
  memset(text + 6, ' ', 1018);
  CHECK(temp_file(text, path, sizeof path) == 0, "temp file");
  snprintf(spec, sizeof spec, "file:%s", path);
  CHECK(faults_parse(spec, t, &fs, err, sizeof err) != 0 &&
            strstr(err, ":1: line longer than 1024 characters (before its comment)"), "'%s'", err);
  unlink(path);
  /* a NUL in a comment */
  snprintf(path, sizeof path, "/tmp/test_faults_XXXXXX");
  fd = mkstemp(path);
  f = fd >= 0 ? fdopen(fd, "wb") : NULL;
  CHECK(f != NULL, "temp file");
  if (!f) return;
  fwrite("10 5:1\n20 6:1 # a\0b\n", 1, 20, f);
  fclose(f);
  snprintf(spec, sizeof spec, "file:%s", path);
  CHECK(faults_parse(spec, t, &fs, err, sizeof err) != 0 &&
            strstr(err, ":2: line contains a NUL character"), "'%s'", err);
  unlink(path);
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
  CHECK(faults_check(&fs, &t, ROUTE_MINIMAL, 0, err, sizeof err) == 0, "%s", err);
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
  CHECK(faults_parse("file:", &t, &fs, err, sizeof err) != 0 &&
            strcmp(err, "--faults (FAULTS): 'file:' without a path (give file:PATH)") == 0, "'%s'", err);
  test_file_lines(&t);
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
    {   /* the tables of mesh4x4 less both links */
      topo_t red;
      port_mask_t want[16 * 16];
      char err[256];
      CHECK(topo_copy(&s[k].topo, &red) == 0 && topo_remove_link(&red, 5, 1) == 0 &&
                topo_remove_link(&red, 0, 3) == 0 &&
                topo_route_masks(&red, ROUTE_MINIMAL, want, err, sizeof err) == 0, "reference");
      CHECK(memcmp(s[k].net.masks, want, sizeof want) == 0, "run %d: the stage's tables", k);
      topo_free(&red);
    }
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
  test_check_against_tables();
  test_run();
  test_lazy();
  return check_done();
}
