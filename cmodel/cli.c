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
"  --tdd N            SPIN deadlock-detection threshold in cycles, 2..32768 (128)\n"
"  --mode live|paper  live: the three mechanisms below on (default); paper: all\n"
"                     off, the router of the SPIN paper\n"
"  --admit 0|1        injection admission: a new packet enters only while every\n"
"                     network output of its router has a free VC (mode)\n"
"  --reroute 0|1      a head waiting for a busy VC routes again every cycle (mode)\n"
"  --adopt 0|1        SPIN probe adoption: a router takes the loop another\n"
"                     router's probe went round (mode)\n"
"  --admit-occ 0|1|2  occupancy admission: a new packet enters only while at\n"
"                     most one (1) or no (2) network input port of its router\n"
"                     holds flits; 0 off (0)\n"
"  --sm-pipe 0|1|2    SPIN's special messages: 2, registered on arrival and\n"
"                     before they leave (2 cycles more a hop); 1, before they\n"
"                     leave (1 more); 0, neither, the paper's timing (mode:\n"
"                     2 live, 0 paper)\n"
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
"  --help             this text\n", prog);
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

int cli_parse(int argc, char **argv, cli_opts_t *o, const char *prog, const char *extra)
{
  static const struct option longs[] = {
    {"topo", 1, 0, 't'}, {"routing", 1, 0, 'r'}, {"vcs", 1, 0, 'v'},
    {"traffic", 1, 0, 'T'}, {"rate", 1, 0, 'R'}, {"long-frac", 1, 0, 'L'},
    {"cycles", 1, 0, 'c'}, {"warmup", 1, 0, 'w'}, {"drain-limit", 1, 0, 'd'},
    {"seed", 1, 0, 's'}, {"json", 1, 0, 'j'}, {"quiet", 0, 0, 'q'},
    {"spin", 1, 0, 'S'}, {"tdd", 1, 0, 'D'}, {"mode", 1, 0, 'M'}, {"admit", 1, 0, 'A'},
    {"reroute", 1, 0, 'E'}, {"adopt", 1, 0, 'O'}, {"admit-occ", 1, 0, 'Q'}, {"deadlocks", 1, 0, 'K'}, {"links", 1, 0, 'N'},
    {"faults", 1, 0, 'F'}, {"sm-pipe", 1, 0, 'P'}, {"sm-widths", 1, 0, 'W'},
    {"help", 0, 0, 'h'}, {0, 0, 0, 0}
  };
  int c, warm_set = 0;
  int admit = -1, reroute = -1, adopt = -1, sm_pipe = -1;   /* -1: as --mode says */
  uint64_t u;
  memset(o, 0, sizeof *o);
  sim_defaults(&o->sim);
  opterr = 0;
  optind = 0;   /* glibc: start afresh, also after a parse that stopped early */
  while ((c = getopt_long(argc, argv, ":", longs, NULL)) != -1) {
    const char *name = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
    switch (c) {
    case 't': o->sim.topo = optarg; break;
    case 'r':
      if (algo_parse(optarg, &o->sim.algo) != 0) {
        cli_error("--routing: unknown routing '%s' (expected xy, west_first, "
                  "escape, favors_min, favors_nmin, df_min or ugal)", optarg);
        return 2;
      }
      break;
    case 'v':
      if (num_u64("vcs", optarg, &u) || u < 1 || u > MAX_VCS) {
        cli_error("--vcs: must be 1..%d", MAX_VCS);
        return 2;
      }
      o->sim.vcs = (int)u;
      break;
    case 'T': o->sim.traffic = optarg; break;
    case 'R': if (num_frac("rate", optarg, 0.0, 1.0, &o->sim.rate)) return 2; break;
    case 'L': if (num_frac("long-frac", optarg, 0.0, 1.0, &o->sim.long_frac)) return 2; break;
    case 'c':
      if (num_cycles("cycles", optarg, &o->sim.cycles)) return 2;
      if (o->sim.cycles == 0) {
        cli_error("--cycles: must be at least 1");
        return 2;
      }
      break;
    case 'w': if (num_cycles("warmup", optarg, &o->sim.warmup)) return 2; warm_set = 1; break;
    case 'd': if (num_cycles("drain-limit", optarg, &o->sim.drain_limit)) return 2; break;
    case 's': if (num_u64("seed", optarg, &o->sim.seed)) return 2; break;
    case 'S':
      if (strcmp(optarg, "0") && strcmp(optarg, "1")) {
        cli_error("--spin: '%s' is not 0 or 1", optarg);
        return 2;
      }
      o->sim.spin = optarg[0] == '1';
      break;
    case 'D':
      if (num_u64("tdd", optarg, &u) || u < 2 || u > 32768) {
        cli_error("--tdd: must be 2..32768");
        return 2;
      }
      o->sim.tdd = (unsigned)u;
      break;
    case 'M':
      if (!strcmp(optarg, "live") || !strcmp(optarg, "paper")) {
        const int on = optarg[0] == 'l';
        o->sim.mode.admit = o->sim.mode.reroute = o->sim.mode.adopt = on;
        o->sim.sm.pipe = on ? 2 : 0;     /* the paper's router, its timing too */
      } else {
        cli_error("--mode: '%s' is not live or paper", optarg);
        return 2;
      }
      break;
    case 'Q':
      if (strcmp(optarg, "0") && strcmp(optarg, "1") && strcmp(optarg, "2")) {
        cli_error("--admit-occ: '%s' is not 0, 1 or 2", optarg);
        return 2;
      }
      o->sim.mode.admit_occ = optarg[0] - '0';
      break;
    case 'A': case 'E': case 'O': {
      int *dst = c == 'A' ? &admit : c == 'E' ? &reroute : &adopt;
      if (strcmp(optarg, "0") && strcmp(optarg, "1")) {
        cli_error("--%s: '%s' is not 0 or 1",
                  c == 'A' ? "admit" : c == 'E' ? "reroute" : "adopt",
                  optarg);
        return 2;
      }
      *dst = optarg[0] == '1';
      break;
    }
    case 'P':
      if (strcmp(optarg, "0") && strcmp(optarg, "1") && strcmp(optarg, "2")) {
        cli_error("--sm-pipe: '%s' is not 0, 1 or 2", optarg);
        return 2;
      }
      sm_pipe = optarg[0] - '0';
      break;
    case 'W': {
      unsigned a, w;
      char tail;
      if (sscanf(optarg, "%u,%u%c", &a, &w, &tail) != 2 || a < 1 || a > 16 || w < 6 || w > 28) {
        cli_error("--sm-widths: '%s' is not IdW,CycW (IdW 1..16, CycW 6..28)", optarg);
        return 2;
      }
      o->sim.sm.idw = a;
      o->sim.sm.cycw = w;
      break;
    }
    case 'j': o->json = optarg; break;
    case 'K': o->deadlocks = optarg; break;
    case 'N': o->links = optarg; break;
    case 'F':
      if (!*optarg) {
        cli_error("--faults: empty (give CYCLE@ROUTER:PORT[,...] or file:PATH)");
        return 2;
      }
      if (o->sim.faults) {
        cli_error("--faults given twice ('%s', then '%s'): give every failure in one "
                  "list, CYCLE@ROUTER:PORT,..., or in one file", o->sim.faults, optarg);
        return 2;
      }
      o->sim.faults = optarg;
      break;
    case 'q': o->quiet = 1; break;
    case 'h': usage(stdout, prog, extra); return 1;
    case ':':
      cli_error("%s needs a value", name);
      return 2;
    default:
      cli_error("unknown option '%s' (try --help)", name);
      return 2;
    }
  }
  if (optind < argc) {
    cli_error("unexpected argument '%s' (try --help)", argv[optind]);
    return 2;
  }
  /* a mechanism named on its own wins over --mode, in any order */
  if (admit >= 0) o->sim.mode.admit = admit;
  if (reroute >= 0) o->sim.mode.reroute = reroute;
  if (adopt >= 0) o->sim.mode.adopt = adopt;
  if (sm_pipe >= 0) o->sim.sm.pipe = sm_pipe;
  if (!warm_set) o->sim.warmup = o->sim.cycles / 10;
  if (o->sim.warmup >= o->sim.cycles) {
    cli_error("--warmup %llu must be smaller than --cycles %llu",
              (unsigned long long)o->sim.warmup, (unsigned long long)o->sim.cycles);
    return 2;
  }
  /* the options themselves name the fix (the network's own checks speak of
   * the make knobs) */
  if (o->sim.algo == ALGO_ESCAPE && o->sim.vcs < 2) {
    cli_error("--routing escape needs --vcs 2, 3 or 4 (VC 0 is the escape VC)");
    return 2;
  }
  if (o->sim.algo == ALGO_ESCAPE && o->sim.spin) {
    cli_error("--routing escape is deadlock-free by itself: run it with --spin 0");
    return 2;
  }
  return 0;
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
