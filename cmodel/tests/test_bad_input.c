/* test_bad_input.c - bad input at the level of the parsers and of sim_init:
 * each gets a clear message naming the file and line (or the option), or
 * works.  Quoted text is escaped for the terminal; the parsers take text in
 * memory as from a file; a NUL byte or an endless line stops them at once;
 * latencies beyond 65,535 cycles have an exact 99th percentile; the drain
 * limit does not overflow; summary.json strings are valid JSON; --faults
 * given twice is refused; the output files are checked before the run (a
 * directory, a missing directory, one file for two outputs refused; a file
 * of an earlier run removed; /dev/null left alone) and written whole.
 *
 * Usage: test_bad_input DATA_DIR.  Prints one line per failed check and
 * ends with "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L   /* mkstemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "report.h"
#include "sim.h"
#include "text.h"
#include "check.h"

static const char *data_dir;

/* No byte of s is a control character (C0 or DEL). */
static int printable(const char *s)
{
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f) return 0;
  return 1;
}

/* sim_init must fail with a message containing want. */
static void init_fails(const sim_opts_t *o, const char *want)
{
  sim_t s;
  int rc = sim_init(&s, o, 1);
  CHECK(rc != 0 && strstr(s.err, want) && printable(s.err), "%s %s: got \"%s\", want \"%s\"",
        o->topo, o->traffic, rc ? s.err : "(accepted)", want);
  sim_free(&s);
}

static void escaping(void)
{
  char buf[64];
  const char *in = "a\x1b[2Jb\x07\x7f\xff\xc2\x85 \xc3\xa9\\x1b\xe2\x82";
  const char *want = "a\\x1b[2Jb\\x07\\x7f\\xff\\xc2\\x85 \xc3\xa9\\x1b\\xe2\\x82";
  text_escape(buf, sizeof buf, in);
  CHECK(strcmp(buf, want) == 0, "escaped \"%s\"", buf);
  /* idempotent, also in place */
  text_escape(buf, sizeof buf, buf);
  CHECK(strcmp(buf, want) == 0, "escaped twice \"%s\"", buf);
  /* cut at a whole escape, never overrun */
  memset(buf, 'z', sizeof buf);
  text_escape(buf, 6, "ab\x01" "cd");
  CHECK(strcmp(buf, "ab") == 0 && buf[6] == 'z', "cut: \"%s\"", buf);
}

static void topology_text(void)
{
  static const char lat[] = "routers 3\nlink 0:1 1:1\n\nlink 1:2 2:1 latency 2\n";
  static const char ctl[] = "routers 2\nl\x1b[2Jnk 0:1 1:1\n";
  static const char nul_last[] = "routers 2\nlink 0:1 1:1\nlink\0 0:2 1:2";
  topo_t t;
  char err[256];
  /* in memory, as from a file: the line of each link is kept */
  CHECK(topo_parse_buf("mem.topo", lat, sizeof lat - 1, &t, err, sizeof err) == 0, "%s", err);
  CHECK(t.line[0 * t.radix + 1] == 2 && t.line[1 * t.radix + 2] == 4 &&
        t.latency[2 * t.radix + 1] == 2, "link lines %d %d", t.line[1], t.line[t.radix + 2]);
  topo_free(&t);
  /* a control character of the file comes out escaped */
  CHECK(topo_parse_buf("ctl.topo", ctl, sizeof ctl - 1, &t, err, sizeof err) != 0 &&
        strcmp(err, "ctl.topo:2: unknown keyword 'l\\x1b[2Jnk' (expected routers, link or "
               "coord)") == 0, "got \"%s\"", err);
  /* a NUL on the last line, without a newline after it (it was read as
   * the end of the line) */
  CHECK(topo_parse_buf("nul.topo", nul_last, sizeof nul_last - 1, &t, err, sizeof err) != 0 &&
        strcmp(err, "nul.topo:3: line contains a NUL character") == 0, "got \"%s\"", err);
  /* /dev/zero: refused at once */
  CHECK(topo_from_name("file:/dev/zero", &t, err, sizeof err) != 0 &&
        strcmp(err, "/dev/zero:1: line contains a NUL character") == 0, "got \"%s\"", err);
  CHECK(topo_parse_buf("empty.topo", "", 0, &t, err, sizeof err) != 0 &&
        strstr(err, "missing 'routers N'"), "got \"%s\"", err);
}

static void trace_text(void)
{
  static const char ctl[] = "0 0 1 1\n1 0 \x1b]0;x\x07 1\n";
  static const char nul[] = "0 0 1 1\n1 0 1 1 # \0\n";
  topo_t m;
  traffic_t *tg;
  char err[256], *longline;
  CHECK(topo_from_name("mesh2x2", &m, err, sizeof err) == 0, "%s", err);
  tg = traffic_trace_buf("mem.trace", "5 0 3 5\n# c\n9 3 0 1", 19, &m, err, sizeof err);
  CHECK(tg && traffic_next_cycle(tg) == 5, "%s", err);
  traffic_free(tg);
  tg = traffic_trace_buf("ctl.trace", ctl, sizeof ctl - 1, &m, err, sizeof err);
  CHECK(!tg && strcmp(err, "ctl.trace:2: dst '\\x1b]0;x\\x07' is not a decimal integer") == 0,
        "got \"%s\"", err);
  tg = traffic_trace_buf("nul.trace", nul, sizeof nul - 1, &m, err, sizeof err);
  CHECK(!tg && strcmp(err, "nul.trace:2: line contains a NUL character") == 0, "got \"%s\"", err);
  /* an endless line: refused after 4096 characters, not read whole */
  longline = malloc(1 << 20);
  if (longline) {
    memset(longline, '1', 1 << 20);
    tg = traffic_trace_buf("long.trace", longline, 1 << 20, &m, err, sizeof err);
    CHECK(!tg && strstr(err, "long.trace:1: line longer than 4096 characters"), "got \"%s\"", err);
    free(longline);
  }
  /* the last cycle a trace may name, and one past it */
  tg = traffic_trace_buf("max.trace", "1000000000000000 0 1 1\n", 23, &m, err, sizeof err);
  CHECK(tg && traffic_next_cycle(tg) == SIM_MAX_CYCLE, "%s", err);
  traffic_free(tg);
  tg = traffic_trace_buf("max.trace", "1000000000000001 0 1 1\n", 23, &m, err, sizeof err);
  CHECK(!tg && strcmp(err, "max.trace:1: cycle '1000000000000001' out of range [0, 10^15]") == 0,
        "got \"%s\"", err);
  topo_free(&m);
}

static void sim_messages(void)
{
  sim_opts_t o;
  char topo[512], tr[512];
  sim_defaults(&o);
  /* link latencies past the router's 16: refused, with the file's line */
  snprintf(topo, sizeof topo, "file:%s/bad_latency_slow.topo", data_dir);
  o.topo = topo;
  o.algo = ALGO_FAVORS_MIN;
  init_fails(&o, "/bad_latency_slow.topo:4: link latency 1025: the router takes 1 to 1024");
  /* escape routing needs a mesh: the reason is its west-first escape VC */
  snprintf(topo, sizeof topo, "file:%s/../../../tb/topologies/mesh3x3_failed_links.topo",
           data_dir);
  o.algo = ALGO_ESCAPE;
  o.vcs = 2;
  init_fails(&o, "escape routing applies to meshes only (its escape VC, VC 0, is routed "
                 "west-first); 'file:");
  o.topo = "torus4x4";
  init_fails(&o, "is a torus");
  /* names quoted in messages are escaped */
  o.algo = ALGO_XY;
  o.topo = "mesh4\x1bx4";
  init_fails(&o, "'mesh4\\x1bx4': missing 'x'");
  o.topo = "mesh4x4";
  snprintf(tr, sizeof tr, "trace:%s/bad_cycle_max.trace", data_dir);
  o.traffic = tr;
  init_fails(&o, "bad_cycle_max.trace:2: cycle '18446744073709551615' out of range [0, 10^15]");
}

/* 20,000 5-flit packets queued at one NIC in cycle 0: their latencies grow
 * by 8 cycles a packet (5 flits, then the port-0 credit), far past 65,535.
 * The 99th percentile is the 19,800th latency: the largest minus 200 x 8. */
static void p99_exact(void)
{
  sim_opts_t o;
  sim_t s;
  sim_status_t st;
  int i;
  sim_defaults(&o);
  o.topo = "mesh2x2";
  o.rate = 0.0;
  o.cycles = 1;
  o.warmup = 0;
  o.drain_limit = 1000000;
  if (sim_init(&s, &o, 1) != 0) {
    CHECK(0, "sim_init: %s", s.err);
    return;
  }
  for (i = 0; i < 20000; i++) nic_create(&s.nic, 0, 1, 5, 0, 1);
  st = sim_run(&s);
  CHECK(st == SIM_DRAINED && s.sink.meas_pkts == 20000, "status %d, %llu measured", (int)st,
        (unsigned long long)s.sink.meas_pkts);
  CHECK(s.sink.lat_max > 150000, "max latency %llu", (unsigned long long)s.sink.lat_max);
  CHECK(sink_percentile(&s.sink, 99.0) == (double)(s.sink.lat_max - 200 * 8),
        "p99 %.0f, max %llu", sink_percentile(&s.sink, 99.0), (unsigned long long)s.sink.lat_max);
  CHECK(sink_percentile(&s.sink, 100.0) == (double)s.sink.lat_max, "p100 %.0f",
        sink_percentile(&s.sink, 100.0));
  CHECK(sink_percentile(&s.sink, 0.001) < 65536.0, "p0.001 %.0f", sink_percentile(&s.sink, 0.001));
  sim_free(&s);
}

/* inject_end + drain_limit once wrapped around 2^64: a huge drain limit
 * ended a run with packets outstanding at once. */
static void drain_limit_no_overflow(void)
{
  sim_opts_t o;
  sim_t s;
  sim_defaults(&o);
  o.topo = "mesh2x2";
  o.rate = 0.0;
  o.cycles = 1;
  o.warmup = 0;
  o.drain_limit = UINT64_MAX - 1;
  if (sim_init(&s, &o, 1) != 0) {
    CHECK(0, "sim_init: %s", s.err);
    return;
  }
  nic_create(&s.nic, 0, 1, 5, 0, 0);
  s.now = s.inject_end = 10;
  CHECK(sim_status(&s) == SIM_RUNNING, "status %d with a packet outstanding", (int)sim_status(&s));
  sim_free(&s);
}

/* summary.json: the topology and traffic strings escaped (quotes,
 * backslashes, control characters; a byte that is not UTF-8 as U+FFFD). */
static void json_strings(void)
{
  char path[] = "/tmp/test_bad_input_XXXXXX", line[512];
  const char *want = "  \"traffic\": \"a\\\"b\\\\c\\u0001d\\u007f\xc3\xa9\\ufffd\\u0085\",";
  sim_opts_t o;
  sim_t s;
  report_t r;
  FILE *f;
  int fd = mkstemp(path), found = 0;
  CHECK(fd >= 0, "mkstemp");
  if (fd < 0) return;
  close(fd);
  sim_defaults(&o);
  o.topo = "mesh2x2";
  o.cycles = 10;
  o.warmup = 0;
  if (sim_init(&s, &o, 1) != 0) {
    CHECK(0, "sim_init: %s", s.err);
    return;
  }
  s.o.traffic = "a\"b\\c\x01" "d\x7f\xc3\xa9\xff\xc2\x85";   /* as the report reads it */
  r.sim = &s;
  r.mode = "cmodel";
  r.wall_seconds = 1;
  r.mismatches = -1;
  r.failure = NULL;
  CHECK(report_json(path, &r) == 0, "report_json");
  f = fopen(path, "r");
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "  \"traffic\"", 11) == 0) {
      found = 1;
      line[strcspn(line, "\n")] = '\0';
      CHECK(strcmp(line, want) == 0, "got %s", line);
    }
  CHECK(found, "no traffic key");
  if (f) fclose(f);
  unlink(path);
  sim_free(&s);
}

/* Runs fn with stderr going to a temporary file; its text into out. */
static int with_stderr(int (*fn)(void *), void *arg, char *out, size_t len)
{
  char path[] = "/tmp/test_bad_input_XXXXXX";
  int fd = mkstemp(path), save, rc;
  FILE *f;
  size_t got;
  out[0] = '\0';
  if (fd < 0) return -99;
  fflush(stderr);
  save = dup(2);
  dup2(fd, 2);
  rc = fn(arg);
  fflush(stderr);
  dup2(save, 2);
  close(save);
  close(fd);
  f = fopen(path, "r");
  got = f ? fread(out, 1, len - 1, f) : 0;
  out[got] = '\0';
  if (f) fclose(f);
  unlink(path);
  return rc;
}

typedef struct {
  int argc;
  char **argv;
  cli_opts_t o;
} parse_job_t;

static int do_parse(void *arg)
{
  parse_job_t *j = arg;
  return cli_parse(j->argc, j->argv, &j->o, "spinsim", NULL);
}

/* Parses ARGV (NULL-terminated) into J; its exit status. */
static int parse_argv(parse_job_t *j, char **argv)
{
  char msg[512];
  for (j->argc = 0; argv[j->argc]; j->argc++) {}
  j->argv = argv;
  return with_stderr(do_parse, j, msg, sizeof msg);
}

/* The live mode is the default and sets the NICs' window of 1 to 4 with a
 * slack of 8 and early credits; paper clears them; an option named on its
 * own wins over --mode on either side of it (contract 13). */
static void cli_mode_defaults(void)
{
  char *none[] = {"spinsim", NULL};
  char *paper[] = {"spinsim", "--mode", "paper", NULL};
  char *before[] = {"spinsim", "--window", "1", "--early-credit", "0", "--throttle", "0",
                    "--mode", "live", NULL};
  char *after[] = {"spinsim", "--mode", "paper", "--window-slack", "3", "--early-credit", "1",
                   "--throttle", "64", NULL};
  char *small[] = {"spinsim", "--throttle", "15", NULL};
  char *big[] = {"spinsim", "--throttle", "1048577", NULL};
  parse_job_t j;
  const sim_opts_t *s = &j.o.sim;
  memset(&j, 0, sizeof j);
  CHECK(parse_argv(&j, none) == 0 && s->mode.window == 4 && s->mode.window_slack == 8 &&
            s->mode.early_credit == 1 && s->mode.admit == 2 && s->sm.pipe == 2 &&
            s->mode.throttle == 4096 && s->mode.min_cycles == 0,
        "default: window %d slack %d early %d", s->mode.window, s->mode.window_slack,
        s->mode.early_credit);
  CHECK(parse_argv(&j, paper) == 0 && s->mode.window == 0 && s->mode.window_slack == 0 &&
            s->mode.early_credit == 0 && s->mode.admit == 0 && s->sm.pipe == 0 &&
            s->mode.throttle == 0 && s->mode.min_cycles == 0,
        "paper: window %d slack %d early %d", s->mode.window, s->mode.window_slack,
        s->mode.early_credit);
  CHECK(parse_argv(&j, before) == 0 && s->mode.window == 1 && s->mode.window_slack == 8 &&
            s->mode.early_credit == 0 && s->mode.throttle == 0,
        "named before --mode live: window %d slack %d early %d", s->mode.window,
        s->mode.window_slack, s->mode.early_credit);
  CHECK(parse_argv(&j, after) == 0 && s->mode.window == 0 && s->mode.window_slack == 3 &&
            s->mode.early_credit == 1 && s->mode.throttle == 64,
        "named after --mode paper: window %d slack %d early %d", s->mode.window,
        s->mode.window_slack, s->mode.early_credit);
  CHECK(parse_argv(&j, small) == 2 && parse_argv(&j, big) == 2, "--throttle 15 or 1048577 taken");
}

static int do_outputs_check(void *arg)
{
  return cli_outputs_check(arg);
}

typedef struct {
  const cli_opts_t *o;
  const report_t *r;
} write_job_t;

static int do_outputs_write(void *arg)
{
  const write_job_t *w = arg;
  return cli_outputs_write(w->o, w->r);
}

/* The files in dir whose names contain part. */
static int files_with(const char *dir, const char *part)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  while (d && (e = readdir(d)))
    if (strstr(e->d_name, part)) n++;
  if (d) closedir(d);
  return n;
}

static void cli_faults_and_outputs(void)
{
  char msg[1024], dir[] = "/tmp/test_bad_input_XXXXXX", a[300], b[300], missing[300];
  char *twice[] = {"spinsim", "--faults", "10@5:1", "--faults", "file:x.faults", NULL};
  parse_job_t j;
  struct stat st;
  FILE *f;
  j.argc = 5;
  j.argv = twice;
  CHECK(with_stderr(do_parse, &j, msg, sizeof msg) == 2 &&
            strstr(msg, "error: --faults given twice ('10@5:1', then 'file:x.faults')"), "'%s'", msg);
  if (!mkdtemp(dir)) {
    CHECK(0, "mkdtemp");
    return;
  }
  snprintf(a, sizeof a, "%s/summary.json", dir);
  snprintf(b, sizeof b, "%s/links.json", dir);
  snprintf(missing, sizeof missing, "%s/no/such/dir/summary.json", dir);
  memset(&j.o, 0, sizeof j.o);
  /* a directory, a missing directory, one file for two outputs */
  j.o.json = dir;
  CHECK(with_stderr(do_outputs_check, &j.o, msg, sizeof msg) != 0 &&
            strstr(msg, "error: --json: ") && strstr(msg, "is a directory"), "'%s'", msg);
  j.o.json = NULL;
  j.o.deadlocks = missing;
  CHECK(with_stderr(do_outputs_check, &j.o, msg, sizeof msg) != 0 &&
            strstr(msg, "error: --deadlocks: cannot write ") && strstr(msg, "/no/such/dir/summary.json: "
            "No such file or directory"), "'%s'", msg);
  j.o.deadlocks = NULL;
  j.o.json = a;
  j.o.links = a;
  CHECK(with_stderr(do_outputs_check, &j.o, msg, sizeof msg) != 0 &&
            strstr(msg, "error: --links: ") && strstr(msg, "summary.json is also the --json file"),
        "'%s'", msg);
  /* the file of an earlier run goes before the run; /dev/null stays */
  f = fopen(a, "w");
  if (f) fputs("{\"passed\": true}\n", f), fclose(f);
  j.o.links = "/dev/null";
  CHECK(with_stderr(do_outputs_check, &j.o, msg, sizeof msg) == 0 && stat(a, &st) != 0 &&
            stat("/dev/null", &st) == 0 && files_with(dir, ".tmp") == 0, "'%s'", msg);
  /* written whole after the run, through a file renamed into place */
  {
    sim_opts_t o;
    sim_t s;
    report_t r;
    write_job_t wj;
    sim_defaults(&o);
    o.topo = "mesh2x2";
    o.cycles = 100;
    o.warmup = 0;
    j.o.links = b;
    CHECK(sim_init(&s, &o, 1) == 0 && cli_record_start(&j.o, &s) == 0, "%s", s.err);
    CHECK(sim_run(&s) == SIM_DRAINED, "run");
    r.sim = &s;
    r.mode = "cmodel";
    r.wall_seconds = 1;
    r.mismatches = -1;
    r.failure = NULL;
    CHECK(cli_outputs_write(&j.o, &r) == 0 && stat(a, &st) == 0 && st.st_size > 100 &&
              stat(b, &st) == 0 && st.st_size > 100 && files_with(dir, ".tmp") == 0, "written");
    /* a directory gone by the end: an error naming the file, nothing left */
    unlink(a);
    unlink(b);
    rmdir(dir);
    wj.o = &j.o;
    wj.r = &r;
    CHECK(with_stderr(do_outputs_write, &wj, msg, sizeof msg) != 0 &&
              strstr(msg, "error: --json: cannot write ") && strstr(msg, "summary.json: No such file") &&
              strstr(msg, "error: --links: cannot write "), "'%s'", msg);
    sim_free(&s);
  }
  rmdir(dir);
}

int main(int argc, char **argv)
{
  data_dir = check_data(argc, argv);
  escaping();
  topology_text();
  trace_text();
  sim_messages();
  p99_exact();
  drain_limit_no_overflow();
  json_strings();
  cli_faults_and_outputs();
  cli_mode_defaults();
  return check_done();
}
