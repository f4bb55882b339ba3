/* fuzz_topology.c - libFuzzer target: the topology file parser
 * (cmodel/topology.c, topo_parse_buf) on arbitrary bytes, then the routing
 * masks of what it accepts.  Besides the sanitizers' findings, it stops on
 * a broken promise: an error message that is empty, spans lines, does not
 * name the file or holds a control byte; or an accepted topology that
 * breaks the rules of docs/topology.md (links symmetric, radix and router
 * count in range, connected). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "topology.h"

#define NAME "fuzz.topo"

static void fail(const char *why, const char *err)
{
  fprintf(stderr, "fuzz_topology: %s: \"%s\"\n", why, err);
  abort();
}

/* One line, not empty, starts with the file's name, no control byte. */
static void check_msg(const char *err, const char *prefix)
{
  const unsigned char *p;
  if (!err[0]) fail("empty error message", err);
  if (strncmp(err, prefix, strlen(prefix)) != 0) fail("message does not name the file", err);
  for (p = (const unsigned char *)err; *p; p++)
    if (*p < 0x20 || *p == 0x7f) fail("control byte in the message", err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  topo_t t;
  char err[512] = "";
  int r, p, n, R;
  port_mask_t *masks;
  if (topo_parse_buf(NAME, (const char *)data, size, &t, err, sizeof err) != 0) {
    check_msg(err, NAME);
    topo_free(&t);
    return 0;
  }
  n = t.routers;
  R = t.radix;
  if (n < 1 || n > TOPO_MAX_ROUTERS || R < 2 || R > TOPO_MAX_PORTS) fail("sizes out of range", t.name);
  for (r = 0; r < n; r++) {
    if (t.peer_router[r * R] != -1) fail("port 0 linked", t.name);
    for (p = 1; p < R; p++) {
      const int q = t.peer_router[r * R + p], qp = t.peer_port[r * R + p];
      if (q < 0) continue;
      if (q >= n || q == r || qp < 1 || qp >= R || t.peer_router[q * R + qp] != r ||
          t.peer_port[q * R + qp] != p || t.latency[r * R + p] < 1 ||
          t.latency[q * R + qp] != t.latency[r * R + p] || t.line[r * R + p] < 1)
        fail("link not symmetric or out of range", t.name);
    }
    if (t.dist[r] < 0) fail("disconnected network accepted", t.name);
  }
  masks = malloc((size_t)n * (size_t)t.nodes * sizeof *masks);
  if (masks) {
    err[0] = '\0';
    if (topo_route_masks(&t, ROUTE_MINIMAL, masks, err, sizeof err) != 0)
      fail("no minimal routes on an accepted topology", err);
    /* XY and west-first apply to meshes only: a file topology is refused */
    if (topo_route_masks(&t, ROUTE_XY, masks, err, sizeof err) == 0)
      fail("xy routing accepted on a file topology", t.name);
    check_msg(err, "xy routing");
    free(masks);
  }
  topo_free(&t);
  return 0;
}
