/* fuzz_trace.c - libFuzzer target: the trace parser (cmodel/traffic.c,
 * traffic_trace_buf) on arbitrary bytes, for a 4x4 mesh (16 nodes); every
 * packet of an accepted trace is then emitted, cycle after cycle of those
 * the trace names.  Besides the sanitizers' findings, it stops on a broken
 * promise: an error message that is empty, does not name the file or
 * holds a control byte; or an accepted packet that breaks the rules of
 * docs/traffic.md (cycles non-decreasing and at most 10^15, src != dst,
 * both below 16, 1 to 5 flits). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "topology.h"
#include "traffic.h"

#define NAME "fuzz.trace"

static void fail(const char *why, const char *err)
{
  fprintf(stderr, "fuzz_trace: %s: \"%s\"\n", why, err);
  abort();
}

typedef struct {
  uint64_t cycle;
  unsigned long count;
} seen_t;

static uint64_t g_cycle;

static void on_packet(void *ctx, int src, int dst, int flits)
{
  seen_t *s = ctx;
  if (src < 0 || src >= 16 || dst < 0 || dst >= 16 || src == dst || flits < 1 ||
      flits > PKT_MAX_FLITS)
    fail("bad packet accepted", "");
  if (g_cycle > SIM_MAX_CYCLE) fail("cycle beyond 10^15 accepted", "");
  s->count++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static topo_t mesh;
  static int ready;
  char err[512] = "";
  traffic_t *tg;
  seen_t seen = {0, 0};
  uint64_t prev = 0, next;
  const unsigned char *p;
  if (!ready) {
    if (topo_from_name("mesh4x4", &mesh, err, sizeof err) != 0) fail("mesh4x4", err);
    ready = 1;
  }
  tg = traffic_trace_buf(NAME, (const char *)data, size, &mesh, err, sizeof err);
  if (!tg) {
    if (!err[0] || strncmp(err, NAME, strlen(NAME)) != 0) fail("bad error message", err);
    for (p = (const unsigned char *)err; *p; p++)
      if (*p < 0x20 || *p == 0x7f) fail("control byte in the message", err);
    return 0;
  }
  if (traffic_kind(tg) != TRAFFIC_TRACE) fail("not a trace", "");
  while ((next = traffic_next_cycle(tg)) != UINT64_MAX) {
    if (next < prev) fail("cycles go back", "");
    prev = g_cycle = next;
    if (traffic_tick(tg, next, on_packet, &seen) < 1) fail("no packet at its cycle", "");
  }
  if (!traffic_exhausted(tg)) fail("packets left", "");
  traffic_free(tg);
  return 0;
}
