/* cli.c - see cli.h. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "record.h"
#include "text.h"

/* "error: ..." on stderr; the arguments quoted in it escaped (text.h). */
static void cli_error(const char *fmt, ...)
{
  char msg[1024], esc[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "error: %s\n", text_escape(esc, sizeof esc, msg));
}

static void usage(FILE *f, const char *prog, const char *extra)
{
  fprintf(f,
"usage: %s [options]\n"
"  --topo NAME        meshWxH, torusWxH, ring-N, dragonfly-a-p-h or file:PATH (mesh8x8)\n"
"  --routing NAME     xy | west_first | escape (meshes) | favors_min | favors_nmin\n"
"                     (any topology) | df_min | ugal (dragonflies, C model only) (xy)\n"
"  --vcs N            virtual channels per port, 1..4 (1)\n"
"  --traffic NAME     uniform_random, transpose, bit_complement, bit_reverse,\n"
"                     bit_rotation, shuffle, tornado, neighbor, group_shift\n"
"                     (dragonflies), hotspot[:NODE],\n"
"                     or trace:PATH (uniform_random)\n"
"  --rate R           offered load in flits/node/cycle (0.1)\n"
"  --long-frac F      fraction of 5-flit packets, the rest are 1-flit (0.5)\n"
"  --cycles N         injection cycles, warm-up included (20000)\n"
"  --warmup N         cycles before measurement starts (cycles/10)\n"
"  --drain-limit N    cycles allowed to deliver what is left after injection (100000)\n"
"  --seed N           run seed: traffic and router LFSRs (1)\n"
"  --spin 0|1         SPIN deadlock recovery (0)\n"
"  --tdd N|auto|cover SPIN deadlock-detection threshold in cycles, 2..32768;\n"
"                     auto: 128, or the network's hop diameter times its\n"
"                     longest link's latency when more (auto); cover: 128,\n"
"                     or a third of the longest loop the network can form\n"
"                     when more, so that any loop is found (contract 12.3)\n"
"  --mode live|paper  live (default): admission (2), rerouting, adoption, the\n"
"                     window of 1 to 4 with a slack of 8, early credits and\n"
"                     the recovery throttle (4096);\n"
"                     paper: all off, the router of the SPIN paper\n"
"  --admit 0|1|2      injection admission: a new packet enters only while every\n"
"                     network output has a free VC; 2 (live): only while a NIC\n"
"                     of the router has its window cut to half or less\n"
"  --min-cycles 0|1   favors_min, favors_nmin, escape: minimal ports by the\n"
"                     least zero-load cycles (1) or hops (0) (0)\n"
"  --reroute 0|1      a head waiting for a busy VC routes again every cycle (mode)\n"
"  --adopt 0|1        SPIN probe adoption: a router takes the loop another\n"
"                     router's probe went round (mode)\n"
"  --admit-occ 0|1|2  occupancy admission: a new packet enters only while at\n"
"                     most one (1) or no (2) network input port of its router\n"
"                     holds flits; 0 off (0)\n"
"  --window N         injection window: a node has at most N packets in flight\n"
"                     (started, not yet delivered), 0..8; 0 no limit; 2 or\n"
"                     more: self-tuned from 1 up to N (mode: 4 live, 0 paper)\n"
"  --window-slack S   with a window of 2 or more, a node starts no packet while\n"
"                     one of its packets is S cycles past its zero-load latency,\n"
"                     0..100000 (mode: 8 live, 0 paper)\n"
"  --window-notice 0|1 1: a packet stays in its node's window until the notice\n"
"                     of its delivery comes back, 3 + its zero-load way\n"
"                     back later; 0: from its delivery on (0)\n"
"  --throttle E       recovery throttle: past an epoch of E cycles an eighth of\n"
"                     which SPIN spent recovering, a window of 1 and admission\n"
"                     until an epoch without; 16..1048576, 0 off (mode: 4096\n"
"                     live, 0 paper)\n"
"  --early-credit 0|1 1: a downstream VC is free in the cycle its credit\n"
"                     arrives, one cycle sooner (mode: 1 live, 0 paper)\n"
"  --sm-pipe 0|1|2    SPIN's special messages: 2, registered on arrival and\n"
"                     before they leave (2 cycles more a hop); 1, before they\n"
"                     leave (1 more); 0, neither, the paper's timing (mode:\n"
"                     2 live, 0 paper)\n", prog);
  /* two strings: C99 promises 4095 characters a literal */
  fputs(
"  --sm-widths I,C    bits of router id and of cycle count in a special message\n"
"                     (the network's own, as spingen --sm-widths says)\n"
"  --faults SPEC      links that fail at run time: CYCLE@ROUTER:PORT[,...] or\n"
"                     file:PATH (lines 'CYCLE ROUTER:PORT'); the routing tables\n"
"                     avoid the link from that cycle on; once a run (none)\n"
"  --json FILE        also write the summary as JSON (FILE, --deadlocks and\n"
"                     --links are checked writable before the run)\n"
"  --deadlocks FILE   write every deadlock SPIN resolved (cycles, loop) as JSON\n"
"  --links FILE       write the flits carried by every network link as JSON\n"
"  --quiet            print nothing but errors\n"
"  --help             this text\n", f);
  if (extra) fputs(extra, f);
}

static int num_u64(const char *opt, const char *s, uint64_t *v)
{
  char *end;
  unsigned long long x;
  errno = 0;
  if (!*s || *s == '-') goto bad;
  x = strtoull(s, &end, 10);
  if (errno || *end) goto bad;
  *v = x;
  return 0;
bad:
  cli_error("--%s: '%s' is not a non-negative integer", opt, s);
  return -1;
}

/* A number of cycles: at most SIM_MAX_CYCLE (10^15). */
static int num_cycles(const char *opt, const char *s, uint64_t *v)
{
  if (num_u64(opt, s, v)) return -1;
  if (*v > SIM_MAX_CYCLE) {
    cli_error("--%s: %s is more than 10^15 cycles", opt, s);
    return -1;
  }
  return 0;
}

static int num_frac(const char *opt, const char *s, double lo, double hi, double *v)
{
  char *end;
  double x;
  errno = 0;
  x = strtod(s, &end);
  if (!*s || errno || *end || !(x >= lo && x <= hi)) {
    cli_error("--%s: '%s' is not a number in [%g, %g]", opt, s, lo, hi);
    return -1;
  }
  *v = x;
  return 0;
}

/* The parse in progress: the options, and what is settled only at the end
 * (a mechanism named on its own wins over --mode, in any order). */
typedef struct {
  cli_opts_t *o;
  int warm_set;
  int admit, reroute, adopt, sm_pipe;   /* -1: as --mode says */
  int window, window_slack, early_credit, throttle, min_cycles;
  const char *prog, *extra;
} cli_parse_t;

/* An option's handler: 0 taken, 1 stop with status 1 (--help), 2 refused
 * (message printed). */
typedef int (*cli_opt_fn)(cli_parse_t *p, const char *arg);

/* "0" or "1" (or up to "2" with max 2) into *v; else the option's message. */
static int opt_digit(const char *opt, const char *arg, int max, int *v)
{
  if (strcmp(arg, "0") && strcmp(arg, "1") && (max < 2 || strcmp(arg, "2"))) {
    if (max < 2) cli_error("--%s: '%s' is not 0 or 1", opt, arg);
    else cli_error("--%s: '%s' is not 0, 1 or 2", opt, arg);
    return 2;
  }
  *v = arg[0] - '0';
  return 0;
}

static int opt_topo(cli_parse_t *p, const char *arg)
{
  p->o->sim.topo = arg;
  return 0;
}

static int opt_routing(cli_parse_t *p, const char *arg)
{
  if (algo_parse(arg, &p->o->sim.algo) != 0) {
    cli_error("--routing: unknown routing '%s' (expected xy, west_first, "
              "escape, favors_min, favors_nmin, df_min or ugal)", arg);
    return 2;
  }
  return 0;
}

static int opt_vcs(cli_parse_t *p, const char *arg)
{
  uint64_t u;
  if (num_u64("vcs", arg, &u) || u < 1 || u > MAX_VCS) {
    cli_error("--vcs: must be 1..%d", MAX_VCS);
    return 2;
  }
  p->o->sim.vcs = (int)u;
  return 0;
}

static int opt_traffic(cli_parse_t *p, const char *arg)
{
  p->o->sim.traffic = arg;
  return 0;
}

static int opt_rate(cli_parse_t *p, const char *arg)
{
  return num_frac("rate", arg, 0.0, 1.0, &p->o->sim.rate) ? 2 : 0;
}

static int opt_long_frac(cli_parse_t *p, const char *arg)
{
  return num_frac("long-frac", arg, 0.0, 1.0, &p->o->sim.long_frac) ? 2 : 0;
}

static int opt_cycles(cli_parse_t *p, const char *arg)
{
  if (num_cycles("cycles", arg, &p->o->sim.cycles)) return 2;
  if (p->o->sim.cycles == 0) {
    cli_error("--cycles: must be at least 1");
    return 2;
  }
  return 0;
}

static int opt_warmup(cli_parse_t *p, const char *arg)
{
  if (num_cycles("warmup", arg, &p->o->sim.warmup)) return 2;
  p->warm_set = 1;
  return 0;
}

static int opt_drain_limit(cli_parse_t *p, const char *arg)
{
  return num_cycles("drain-limit", arg, &p->o->sim.drain_limit) ? 2 : 0;
}

static int opt_seed(cli_parse_t *p, const char *arg)
{
  return num_u64("seed", arg, &p->o->sim.seed) ? 2 : 0;
}

static int opt_json(cli_parse_t *p, const char *arg)
{
  p->o->json = arg;
  return 0;
}

static int opt_quiet(cli_parse_t *p, const char *arg)
{
  (void)arg;
  p->o->quiet = 1;
  return 0;
}

static int opt_spin(cli_parse_t *p, const char *arg)
{
  int v;
  if (opt_digit("spin", arg, 1, &v)) return 2;
  p->o->sim.spin = v;
  return 0;
}

static int opt_tdd(cli_parse_t *p, const char *arg)
{
  if (sim_tdd_parse(arg, &p->o->sim.tdd) != 0) {
    cli_error("--tdd: must be 2..32768, auto or cover");
    return 2;
  }
  return 0;
}

static int opt_mode(cli_parse_t *p, const char *arg)
{
  if (strcmp(arg, "live") && strcmp(arg, "paper")) {
    cli_error("--mode: '%s' is not live or paper", arg);
    return 2;
  }
  sim_set_mode(&p->o->sim, arg[0] == 'l');
  return 0;
}

static int opt_admit(cli_parse_t *p, const char *arg)
{
  return opt_digit("admit", arg, 2, &p->admit) ? 2 : 0;
}

static int opt_reroute(cli_parse_t *p, const char *arg)
{
  return opt_digit("reroute", arg, 1, &p->reroute) ? 2 : 0;
}

static int opt_adopt(cli_parse_t *p, const char *arg)
{
  return opt_digit("adopt", arg, 1, &p->adopt) ? 2 : 0;
}

static int opt_admit_occ(cli_parse_t *p, const char *arg)
{
  return opt_digit("admit-occ", arg, 2, &p->o->sim.mode.admit_occ) ? 2 : 0;
}

static int opt_early_credit(cli_parse_t *p, const char *arg)
{
  return opt_digit("early-credit", arg, 1, &p->early_credit) ? 2 : 0;
}

static int opt_window(cli_parse_t *p, const char *arg)
{
  uint64_t u;
  if (num_u64("window", arg, &u)) return 2;
  if (u > NIC_WINDOW_MAX) {
    cli_error("--window: %s is more than %d packets", arg, NIC_WINDOW_MAX);
    return 2;
  }
  p->window = (int)u;
  return 0;
}

static int opt_window_slack(cli_parse_t *p, const char *arg)
{
  uint64_t u;
  if (num_u64("window-slack", arg, &u)) return 2;
  if (u > 100000) {
    cli_error("--window-slack: %s is more than 100000 cycles", arg);
    return 2;
  }
  p->window_slack = (int)u;
  return 0;
}

static int opt_throttle(cli_parse_t *p, const char *arg)
{
  uint64_t u;
  if (num_u64("throttle", arg, &u)) return 2;
  if (u && (u < THROTTLE_MIN || u > THROTTLE_MAX)) {
    cli_error("--throttle: %s is not 0 or an epoch of %u to %u cycles", arg, THROTTLE_MIN,
              THROTTLE_MAX);
    return 2;
  }
  p->throttle = (int)u;
  return 0;
}

static int opt_min_cycles(cli_parse_t *p, const char *arg)
{
  return opt_digit("min-cycles", arg, 1, &p->min_cycles) ? 2 : 0;
}

static int opt_window_notice(cli_parse_t *p, const char *arg)
{
  return opt_digit("window-notice", arg, 1, &p->o->sim.mode.window_notice) ? 2 : 0;
}

static int opt_deadlocks(cli_parse_t *p, const char *arg)
{
  p->o->deadlocks = arg;
  return 0;
}

static int opt_links(cli_parse_t *p, const char *arg)
{
  p->o->links = arg;
  return 0;
}

static int opt_faults(cli_parse_t *p, const char *arg)
{
  if (!*arg) {
    cli_error("--faults: empty (give CYCLE@ROUTER:PORT[,...] or file:PATH)");
    return 2;
  }
  if (p->o->sim.faults) {
    cli_error("--faults given twice ('%s', then '%s'): give every failure in one "
              "list, CYCLE@ROUTER:PORT,..., or in one file", p->o->sim.faults, arg);
    return 2;
  }
  p->o->sim.faults = arg;
  return 0;
}

static int opt_sm_pipe(cli_parse_t *p, const char *arg)
{
  return opt_digit("sm-pipe", arg, 2, &p->sm_pipe) ? 2 : 0;
}

static int opt_sm_widths(cli_parse_t *p, const char *arg)
{
  unsigned a, w;
  char tail;
  if (sscanf(arg, "%u,%u%c", &a, &w, &tail) != 2 || a < 1 || a > 16 || w < 6 || w > 28) {
    cli_error("--sm-widths: '%s' is not IdW,CycW (IdW 1..16, CycW 6..28)", arg);
    return 2;
  }
  p->o->sim.sm.idw = a;
  p->o->sim.sm.cycw = w;
  return 0;
}

static int opt_help(cli_parse_t *p, const char *arg)
{
  (void)arg;
  usage(stdout, p->prog, p->extra);
  return 1;
}

/* The options: name, whether it takes a value, handler. */
static const struct {
  const char *name;
  int has_arg;
  cli_opt_fn fn;
} cli_table[] = {
  {"topo", 1, opt_topo},           {"routing", 1, opt_routing},
  {"vcs", 1, opt_vcs},             {"traffic", 1, opt_traffic},
  {"rate", 1, opt_rate},           {"long-frac", 1, opt_long_frac},
  {"cycles", 1, opt_cycles},       {"warmup", 1, opt_warmup},
  {"drain-limit", 1, opt_drain_limit}, {"seed", 1, opt_seed},
  {"json", 1, opt_json},           {"quiet", 0, opt_quiet},
  {"spin", 1, opt_spin},           {"tdd", 1, opt_tdd},
  {"mode", 1, opt_mode},           {"admit", 1, opt_admit},
  {"reroute", 1, opt_reroute},     {"adopt", 1, opt_adopt},
  {"admit-occ", 1, opt_admit_occ}, {"deadlocks", 1, opt_deadlocks},
  {"early-credit", 1, opt_early_credit},
  {"window", 1, opt_window},       {"window-slack", 1, opt_window_slack},
  {"window-notice", 1, opt_window_notice}, {"throttle", 1, opt_throttle},
  {"min-cycles", 1, opt_min_cycles},
  {"links", 1, opt_links},         {"faults", 1, opt_faults},
  {"sm-pipe", 1, opt_sm_pipe},     {"sm-widths", 1, opt_sm_widths},
  {"help", 0, opt_help}
};
#define CLI_NOPTS ((int)(sizeof cli_table / sizeof cli_table[0]))

/* After the options: what --mode left to a mechanism named on its own, the
 * default warm-up, and the checks between options.  0 or 2. */
static int cli_finish(cli_parse_t *p)
{
  sim_opts_t *s = &p->o->sim;
  if (p->admit >= 0) s->mode.admit = p->admit;
  if (p->reroute >= 0) s->mode.reroute = p->reroute;
  if (p->adopt >= 0) s->mode.adopt = p->adopt;
  if (p->sm_pipe >= 0) s->sm.pipe = p->sm_pipe;
  if (p->window >= 0) s->mode.window = p->window;
  if (p->window_slack >= 0) s->mode.window_slack = p->window_slack;
  if (p->early_credit >= 0) s->mode.early_credit = p->early_credit;
  if (p->throttle >= 0) s->mode.throttle = p->throttle;
  if (p->min_cycles >= 0) s->mode.min_cycles = p->min_cycles;
  if (!p->warm_set) s->warmup = s->cycles / 10;
  if (s->warmup >= s->cycles) {
    cli_error("--warmup %llu must be smaller than --cycles %llu",
              (unsigned long long)s->warmup, (unsigned long long)s->cycles);
    return 2;
  }
  /* the options themselves name the fix (the network's own checks speak of
   * the make knobs) */
  if (s->algo == ALGO_ESCAPE && s->vcs < 2) {
    cli_error("--routing escape needs --vcs 2, 3 or 4 (VC 0 is the escape VC)");
    return 2;
  }
  if (s->algo == ALGO_ESCAPE && s->spin) {
    cli_error("--routing escape is deadlock-free by itself: run it with --spin 0");
    return 2;
  }
  return 0;
}

int cli_parse(int argc, char **argv, cli_opts_t *o, const char *prog, const char *extra)
{
  struct option longs[CLI_NOPTS + 1];
  cli_parse_t p;
  int c, i, rc;
  for (i = 0; i < CLI_NOPTS; i++) {
    longs[i].name = cli_table[i].name;
    longs[i].has_arg = cli_table[i].has_arg;
    longs[i].flag = NULL;
    longs[i].val = 256 + i;          /* above every character getopt returns */
  }
  memset(&longs[CLI_NOPTS], 0, sizeof longs[CLI_NOPTS]);
  memset(o, 0, sizeof *o);
  sim_defaults(&o->sim);
  sim_set_mode(&o->sim, 1);
  p.o = o;
  p.warm_set = 0;
  p.admit = p.reroute = p.adopt = p.sm_pipe = -1;
  p.window = p.window_slack = p.early_credit = p.throttle = p.min_cycles = -1;
  p.prog = prog;
  p.extra = extra;
  opterr = 0;
  optind = 0;   /* glibc: start afresh, also after a parse that stopped early */
  while ((c = getopt_long(argc, argv, ":", longs, NULL)) != -1) {
    const char *name = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
    if (c >= 256 && c < 256 + CLI_NOPTS) {
      if ((rc = cli_table[c - 256].fn(&p, optarg)) != 0) return rc;
    } else if (c == ':') {
      cli_error("%s needs a value", name);
      return 2;
    } else {
      cli_error("unknown option '%s' (try --help)", name);
      return 2;
    }
  }
  if (optind < argc) {
    cli_error("unexpected argument '%s' (try --help)", argv[optind]);
    return 2;
  }
  return cli_finish(&p);
}

int cli_record_start(const cli_opts_t *o, sim_t *sim)
{
  if ((o->deadlocks || o->links) && net_record(&sim->net) != 0) {
    fprintf(stderr, "error: out of memory for the run's record\n");
    return -1;
  }
  return 0;
}

/* "FILE.tmpPID": the temporary name beside path (malloc'ed), or NULL. */
static char *temp_name(const char *path)
{
  const size_t len = strlen(path) + 32;
  char *tmp = malloc(len);
  if (tmp) snprintf(tmp, len, "%s.tmp%ld", path, (long)getpid());
  return tmp;
}

int cli_output_check(const char *opt, const char *path)
{
  struct stat st;
  char *tmp;
  int fd, regular = 0;
  if (!*path) {
    cli_error("%s: an empty file name", opt);
    return -1;
  }
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      cli_error("%s: %s is a directory", opt, path);
      return -1;
    }
    if (!S_ISREG(st.st_mode)) {
      if (access(path, W_OK) != 0) {
        cli_error("%s: cannot write %s: %s", opt, path, strerror(errno));
        return -1;
      }
      return 0;
    }
    regular = 1;
  } else if (errno != ENOENT) {
    cli_error("%s: cannot write %s: %s", opt, path, strerror(errno));
    return -1;
  }
  /* the file is written beside itself, then renamed: make one there */
  tmp = temp_name(path);
  if (!tmp) {
    cli_error("%s: out of memory", opt);
    return -1;
  }
  fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) {
    cli_error("%s: cannot write %s: %s", opt, path, strerror(errno));
    free(tmp);
    return -1;
  }
  close(fd);
  unlink(tmp);
  free(tmp);
  if (regular && unlink(path) != 0) {
    cli_error("%s: cannot remove the %s of an earlier run: %s", opt, path, strerror(errno));
    return -1;
  }
  return 0;
}

/* path exists and is not a regular file (/dev/stdout, a FIFO) */
static int not_regular(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

int cli_outputs_check(const cli_opts_t *o)
{
  const char *const path[3] = {o->json, o->deadlocks, o->links};
  const char *const opt[3] = {"--json", "--deadlocks", "--links"};
  int i, j;
  for (i = 0; i < 3; i++) {
    if (!path[i]) continue;
    for (j = 0; j < i; j++)
      if (path[j] && !strcmp(path[i], path[j]) && !not_regular(path[i])) {
        cli_error("%s: %s is also the %s file", opt[i], path[i], opt[j]);
        return -1;
      }
    if (cli_output_check(opt[i], path[i]) != 0) return -1;
  }
  return 0;
}

typedef struct {
  const report_t *rep;
  int which;                 /* 0 --json, 1 --deadlocks, 2 --links */
} out_job_t;

static int out_write(const char *path, const out_job_t *j)
{
  return j->which == 0 ? report_json(path, j->rep)
       : j->which == 1 ? record_deadlocks_json(path, j->rep->sim)
                       : record_links_json(path, j->rep->sim);
}

/* Writes one output through its temporary file; 0 or -1 (message printed). */
static int out_commit(const char *opt, const char *path, const out_job_t *j)
{
  struct stat st;
  char *tmp;
  int rc;
  errno = 0;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    if (out_write(path, j) == 0) return 0;
    cli_error("%s: cannot write %s: %s", opt, path, errno ? strerror(errno) : "write failed");
    return -1;
  }
  tmp = temp_name(path);
  if (!tmp) {
    cli_error("%s: out of memory", opt);
    return -1;
  }
  errno = 0;
  rc = out_write(tmp, j) == 0 && rename(tmp, path) == 0 ? 0 : -1;
  if (rc != 0) {
    cli_error("%s: cannot write %s: %s", opt, path, errno ? strerror(errno) : "write failed");
    unlink(tmp);
  }
  free(tmp);
  return rc;
}

int cli_outputs_write(const cli_opts_t *o, const report_t *rep)
{
  const char *const path[3] = {o->json, o->deadlocks, o->links};
  const char *const opt[3] = {"--json", "--deadlocks", "--links"};
  int i, rc = 0;
  for (i = 0; i < 3; i++) {
    out_job_t j;
    j.rep = rep;
    j.which = i;
    if (path[i] && out_commit(opt[i], path[i], &j) != 0) rc = -1;
  }
  return rc;
}
