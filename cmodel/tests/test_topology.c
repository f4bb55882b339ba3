/* test_topology.c - tests of topology.c (parser, named topologies, masks).
 *
 * Usage: test_topology DATA_DIR   (DATA_DIR holds the *.topo fixtures)
 * Prints one line per failed check (file:line: expression) and ends with
 * "N passed, N failed"; exit status 0 only when nothing failed.
 */
#include "topology.h"
#include "check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fixture directory (the first argument). */
static const char *data_dir;

static int iabs(int v) { return v < 0 ? -v : v; }

static int wrapdist(int a, int b, int size)
{
  int d = iabs(a - b);
  return d < size - d ? d : size - d;
}

static int peer(const topo_t *t, int r, int p)
{
  return t->peer_router[r * t->radix + p];
}

static int peer_port(const topo_t *t, int r, int p)
{
  return t->peer_port[r * t->radix + p];
}

static int dist(const topo_t *t, int a, int b)
{
  return t->dist[a * t->routers + b];
}

/* Opens a topology that must build; 0 on failure (already reported). */
static int open_ok(const char *name, topo_t *t)
{
  char err[256] = "";
  int rc = topo_from_name(name, t, err, sizeof err);
  return CHECK(rc == 0, "%s: %s", name, err);
}

/* Properties every valid topology has: port 0 unused, links symmetric with
 * equal latency >= 1, no self-loop, dist symmetric, zero on the diagonal,
 * finite, and consistent with the links (|dist(a,d) - dist(b,d)| <= 1 for
 * neighbours a, b). */
static void check_common(const topo_t *t)
{
  int n = t->routers, R = t->radix, r, p, d, bad = 0;
  CHECK(R >= 2 && R <= TOPO_MAX_PORTS, "%s radix %d", t->name, R);
  CHECK(n >= 1 && n <= TOPO_MAX_ROUTERS, "%s", t->name);
  for (r = 0; r < n; r++) {
    bad += !CHECK(peer(t, r, 0) == -1, "%s router %d port 0", t->name, r);
    for (p = 1; p < R && bad < 5; p++) {
      int q = peer(t, r, p), qp = peer_port(t, r, p);
      if (q < 0) {
        bad += !CHECK(qp == -1, "%s %d:%d", t->name, r, p);
        continue;
      }
      bad += !CHECK(q < n && q != r && qp >= 1 && qp < R,
                     "%s %d:%d -> %d:%d", t->name, r, p, q, qp);
      if (q >= n || qp < 1 || qp >= R)
        continue;
      bad += !CHECK(peer(t, q, qp) == r && peer_port(t, q, qp) == p,
                     "%s peer of peer of %d:%d", t->name, r, p);
      bad += !CHECK(t->latency[r * R + p] >= 1 &&
                     t->latency[r * R + p] == t->latency[q * R + qp],
                     "%s latency %d:%d", t->name, r, p);
      for (d = 0; d < n && bad < 5; d++)
        bad += !CHECK(iabs(dist(t, r, d) - dist(t, q, d)) <= 1,
                       "%s dist via link %d-%d to %d", t->name, r, q, d);
    }
    for (d = 0; d < n && bad < 5; d++) {
      bad += !CHECK(dist(t, r, d) == dist(t, d, r),
                     "%s dist %d %d", t->name, r, d);
      bad += !CHECK((dist(t, r, d) == 0) == (r == d) && dist(t, r, d) >= 0,
                     "%s dist %d %d = %d", t->name, r, d, dist(t, r, d));
    }
  }
}

/* Every allowed port of every mask must be a minimal next hop, and a packet
 * following the masks reaches its destination (checked by the minimality:
 * each hop lowers the distance by one). */
static void check_masks_minimal_subset(const topo_t *t,
                                       const port_mask_t *m, const char *fn)
{
  int n = t->routers, r, d, p, bad = 0;
  for (r = 0; r < n && bad < 5; r++)
    for (d = 0; d < n && bad < 5; d++) {
      unsigned mk = m[r * n + d];
      if (r == d) {
        bad += !CHECK(mk == 1u, "%s %s eject mask %d = %#x", t->name, fn,
                       r, mk);
        continue;
      }
      bad += !CHECK(mk != 0 && (mk & 1u) == 0, "%s %s mask %d->%d = %#x",
                     t->name, fn, r, d, mk);
      for (p = 1; p < 8; p++)
        if (mk & (1u << p))
          bad += !CHECK(p < t->radix && peer(t, r, p) >= 0 &&
                         dist(t, peer(t, r, p), d) == dist(t, r, d) - 1,
                         "%s %s %d->%d port %d not minimal", t->name, fn, r, d, p);
    }
}

/* ------------------------------------------------------------------------ */

static void test_mesh(void)
{
  static const char *names[] = {"mesh4x4", "mesh3x5", "mesh1x4", "mesh5x1",
                                "mesh8x8", "mesh2x2", "mesh2x1"};
  size_t k;
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    topo_t t;
    int W, H, r, d, bad = 0;
    if (!open_ok(names[k], &t))
      continue;
    check_common(&t);
    W = t.width;
    H = t.height;
    CHECK0(t.kind == TOPO_KIND_MESH);
    CHECK0(strcmp(t.name, names[k]) == 0);
    CHECK0(W * H == t.routers);
    CHECK0(t.radix == 5);
    CHECK0(t.has_coords == 1);
    for (r = 0; r < t.routers && bad < 5; r++) {
      int x = r % W, y = r / W;
      bad += !CHECK(t.x[r] == x && t.y[r] == y, "%s router %d", t.name, r);
      /* neighbour in the right direction, or unused at the edge */
      bad += !CHECK(peer(&t, r, PORT_EAST) == (x + 1 < W ? r + 1 : -1),
                     "%s %d east", t.name, r);
      bad += !CHECK(peer(&t, r, PORT_WEST) == (x > 0 ? r - 1 : -1),
                     "%s %d west", t.name, r);
      bad += !CHECK(peer(&t, r, PORT_NORTH) == (y + 1 < H ? r + W : -1),
                     "%s %d north", t.name, r);
      bad += !CHECK(peer(&t, r, PORT_SOUTH) == (y > 0 ? r - W : -1),
                     "%s %d south", t.name, r);
      if (x + 1 < W)
        bad += !CHECK(peer_port(&t, r, PORT_EAST) == PORT_WEST, "%d", r);
      if (y + 1 < H)
        bad += !CHECK(peer_port(&t, r, PORT_NORTH) == PORT_SOUTH, "%d", r);
      for (d = 0; d < t.routers; d++)
        bad += !CHECK(dist(&t, r, d) == iabs(x - d % W) + iabs(y - d / W),
                       "%s dist %d %d", t.name, r, d);
    }
    topo_free(&t);
  }
}

static void test_torus(void)
{
  static const char *names[] = {"torus4x4", "torus5x3", "torus2x4", "torus3x2",
                                "torus2x2", "torus3x1", "torus1x6", "torus8x8"};
  size_t k;
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    topo_t t;
    int W, H, r, d, bad = 0;
    if (!open_ok(names[k], &t))
      continue;
    check_common(&t);
    W = t.width;
    H = t.height;
    CHECK0(t.kind == TOPO_KIND_TORUS);
    CHECK0(W * H == t.routers && t.radix == 5 && t.has_coords == 1);
    for (r = 0; r < t.routers && bad < 5; r++) {
      int x = r % W, y = r / W;
      /* wrap only in dimensions of size >= 3; size 2 is a mesh dimension,
       * size 1 has no links */
      int e = x + 1 < W ? r + 1 : (W >= 3 ? y * W : -1);
      int w = x > 0 ? r - 1 : (W >= 3 ? y * W + W - 1 : -1);
      int nn = y + 1 < H ? r + W : (H >= 3 ? x : -1);
      int s = y > 0 ? r - W : (H >= 3 ? (H - 1) * W + x : -1);
      bad += !CHECK(t.x[r] == x && t.y[r] == y, "%s %d", t.name, r);
      bad += !CHECK(peer(&t, r, PORT_EAST) == e, "%s %d east", t.name, r);
      bad += !CHECK(peer(&t, r, PORT_WEST) == w, "%s %d west", t.name, r);
      bad += !CHECK(peer(&t, r, PORT_NORTH) == nn, "%s %d north", t.name, r);
      bad += !CHECK(peer(&t, r, PORT_SOUTH) == s, "%s %d south", t.name, r);
      if (e >= 0)
        bad += !CHECK(peer_port(&t, r, PORT_EAST) == PORT_WEST, "%d", r);
      if (nn >= 0)
        bad += !CHECK(peer_port(&t, r, PORT_NORTH) == PORT_SOUTH, "%d", r);
      for (d = 0; d < t.routers; d++)
        bad += !CHECK(dist(&t, r, d) == wrapdist(x, d % W, W) +
                       wrapdist(y, d / W, H), "%s dist %d %d", t.name, r, d);
    }
    topo_free(&t);
  }
}

static void test_ring(void)
{
  static const char *names[] = {"ring-3", "ring-4", "ring-8", "ring-13"};
  size_t k;
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    topo_t t;
    int n, i, j, bad = 0;
    if (!open_ok(names[k], &t))
      continue;
    check_common(&t);
    n = t.routers;
    CHECK0(t.kind == TOPO_KIND_RING);
    CHECK0(t.radix == 3 && t.width == n && t.height == 1 && t.has_coords);
    for (i = 0; i < n && bad < 5; i++) {
      bad += !CHECK(peer(&t, i, 1) == (i + 1) % n && peer_port(&t, i, 1) == 2,
                     "%s %d", t.name, i);
      bad += !CHECK(t.x[i] == i && t.y[i] == 0, "%s %d", t.name, i);
      for (j = 0; j < n; j++)
        bad += !CHECK(dist(&t, i, j) == wrapdist(i, j, n), "%s %d %d",
                       t.name, i, j);
    }
    topo_free(&t);
  }
  {
    topo_t t;
    if (open_ok("ring-8", &t)) {
      CHECK0(t.routers == 8);
      topo_free(&t);
    }
  }
}

static unsigned low_bit_of(unsigned m)
{
  unsigned b = 0;
  while (m && !(m >> b & 1u)) b++;
  return b;
}

static int contains_str(const char *s, const char *piece)
{
  return strstr(s, piece) != NULL;
}

static void test_dragonfly(void)
{
  static const struct { const char *name; int a, h; } cases[] = {
      {"dragonfly-4-1-2", 4, 2}, {"dragonfly-2-1-1", 2, 1},
      {"dragonfly-1-1-3", 1, 3}, {"dragonfly-4-1-4", 4, 4},
      {"dragonfly-3-1-2", 3, 2}, {"dragonfly-7-1-1", 7, 1}};
  size_t k;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    topo_t t;
    int a = cases[k].a, h = cases[k].h, g = a * h + 1;
    int *pairs, r, p, d, G, diam = 0, bad = 0;
    if (!open_ok(cases[k].name, &t))
      continue;
    check_common(&t);
    CHECK0(t.kind == TOPO_KIND_DRAGONFLY);
    CHECK(t.routers == a * g, "%s %d routers", t.name, t.routers);
    CHECK(t.radix == a + h, "%s radix %d", t.name, t.radix);
    CHECK0(t.has_coords == 0 && t.width == 0 && t.height == 0);
    pairs = calloc((size_t)g * (size_t)g, sizeof *pairs);
    if (!CHECK0(pairs != NULL)) {
      topo_free(&t);
      continue;
    }
    for (r = 0; r < t.routers && bad < 5; r++) {
      int grp = r / a, i = r % a;
      /* local ports 1..a-1: the other group members in increasing order */
      for (p = 1; p < a; p++) {
        int m = p - 1 < i ? p - 1 : p;
        bad += !CHECK(peer(&t, r, p) == grp * a + m, "%s %d:%d", t.name,
                       r, p);
      }
      /* global ports a..a+h-1: other groups, absolute arrangement */
      for (p = a; p < a + h; p++) {
        int q = peer(&t, r, p), chan = i * h + (p - a);
        int want = chan < grp ? chan : chan + 1;
        if (!CHECK(q >= 0, "%s %d:%d unused", t.name, r, p)) {
          bad++;
          continue;
        }
        bad += !CHECK(q / a == want && peer_port(&t, r, p) >= a,
                       "%s %d:%d -> %d", t.name, r, p, q);
        pairs[grp * g + q / a]++;
      }
      for (d = 0; d < t.routers; d++)
        if (dist(&t, r, d) > diam)
          diam = dist(&t, r, d);
    }
    CHECK(diam <= 3, "%s diameter %d", t.name, diam);
    for (G = 0; G < g * g && bad < 5; G++)
      bad += !CHECK(pairs[G] == (G / g == G % g ? 0 : 1),
                     "%s groups %d,%d joined by %d global links", t.name,
                     G / g, G % g, pairs[G]);
    free(pairs);
    topo_free(&t);
  }
}

/* Concentration: dragonfly-a-p-h with p NIC ports (ports 0..p-1), nodes =
 * routers * p, local ports p..p+a-2, global ports p+a-1..; the
 * hierarchical minimal tables (ROUTE_DF_MIN) take local, global, local hops
 * and eject at the node's own NIC port; topo_df_hops counts that route. */
static void test_dragonfly_concentration(void)
{
  static const struct { const char *name; int a, p, h, radix; } cases[] = {
      {"dragonfly-4-2-2@4", 4, 2, 2, 7}, {"dragonfly-8-4-4@8", 8, 4, 4, 15},
      {"dragonfly-3-3-1", 3, 3, 1, 6}};
  size_t k;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    topo_t t;
    char err[256] = "";
    const int a = cases[k].a, P = cases[k].p, h = cases[k].h, g = a * h + 1;
    int r, d, p, n, bad = 0;
    port_mask_t *m;
    if (!open_ok(cases[k].name, &t))
      continue;
    n = t.routers;
    CHECK(t.routers == a * g && t.nics == P && t.nodes == a * g * P && t.radix == cases[k].radix,
          "%s: %d routers, %d NICs, %d nodes, radix %d", t.name, t.routers, t.nics, t.nodes,
          t.radix);
    for (r = 0; r < n && bad < 5; r++) {
      for (p = 0; p < P; p++) bad += !CHECK(peer(&t, r, p) == -1, "%s NIC port %d:%d linked", t.name, r, p);
      for (p = P; p < P + a - 1; p++)
        bad += !CHECK(peer(&t, r, p) / a == r / a && !topo_df_global(&t, r, p) &&
                      t.latency[r * t.radix + p] == 1, "%s local %d:%d", t.name, r, p);
      for (p = P + a - 1; p < t.radix; p++)
        bad += !CHECK(peer(&t, r, p) / a != r / a && topo_df_global(&t, r, p) &&
                      t.latency[r * t.radix + p] == (strchr(t.name, '@') ? atoi(strchr(t.name, '@') + 1) : 1),
                      "%s global %d:%d", t.name, r, p);
    }
    m = malloc((size_t)n * (size_t)t.nodes * sizeof *m);
    if (!CHECK0(m != NULL) ||
        !CHECK(topo_route_masks(&t, ROUTE_DF_MIN, m, err, sizeof err) == 0, "%s: %s", t.name, err)) {
      free(m);
      topo_free(&t);
      continue;
    }
    /* follow the table from every router to every node */
    for (r = 0; r < n && bad < 5; r++)
      for (d = 0; d < t.nodes && bad < 5; d++) {
        int at = r, hops = 0, globals = 0;
        unsigned mk = m[(size_t)at * t.nodes + d];
        while (at != d / P && hops < 5) {
          const int o = (int)low_bit_of(mk);
          bad += !CHECK(mk && (mk & (mk - 1u)) == 0 && o >= P, "%s %d->%d mask %#x", t.name, at, d, mk);
          globals += topo_df_global(&t, at, o);
          bad += !CHECK(globals <= 1 || 0, "%s %d->%d: two global hops", t.name, r, d);
          at = peer(&t, at, o);
          hops++;
          mk = m[(size_t)at * t.nodes + d];
        }
        bad += !CHECK(at == d / P && mk == 1u << (d % P), "%s %d->%d ends at %d mask %#x", t.name, r, d, at, mk);
        bad += !CHECK(hops == topo_df_hops(&t, r, d / P) && hops <= 3, "%s %d->%d: %d hops, df_hops %d",
                      t.name, r, d, hops, topo_df_hops(&t, r, d / P));
      }
    /* the landing router of a global link is its peer */
    for (r = 0; r < n && bad < 5; r++)
      for (p = P + a - 1; p < t.radix; p++) {
        const int q = peer(&t, r, p);
        bad += !CHECK(topo_df_landing(&t, r / a, q / a) == q, "%s landing %d -> group %d", t.name, r, q / a);
      }
    CHECK0(topo_route_masks(&t, ROUTE_XY, m, err, sizeof err) == -1);
    free(m);
    topo_free(&t);
  }
  {   /* ROUTE_DF_MIN on a mesh is refused */
    topo_t t;
    char err[256] = "";
    port_mask_t m[16 * 16];
    if (open_ok("mesh4x4", &t)) {
      CHECK0(topo_route_masks(&t, ROUTE_DF_MIN, m, err, sizeof err) == -1 &&
             contains_str(err, "dragonflies only"));
      topo_free(&t);
    }
  }
}

static int contains(const char *err, const char *piece)
{
  return strstr(err, piece) != NULL;
}

static void expect_name_error(const char *name, const char *piece,
                              const char *piece2)
{
  topo_t t;
  char err[256] = "";
  int rc = topo_from_name(name, &t, err, sizeof err);
  CHECK(rc == -1, "%s accepted", name ? name : "(null)");
  CHECK(contains(err, piece), "%s: '%s' lacks '%s'", name, err, piece);
  if (piece2 != NULL)
    CHECK(contains(err, piece2), "%s: '%s' lacks '%s'", name, err, piece2);
  CHECK0(t.peer_router == NULL && t.dist == NULL && t.x == NULL);
  topo_free(&t);   /* harmless after an error */
}

static void test_name_errors(void)
{
  char err[256], big[300];
  topo_t t;
  expect_name_error("foo",
                    "unknown topology 'foo' (expected meshWxH, torusWxH, "
                    "ring-N, dragonfly-a-p-h or file:PATH)", NULL);
  expect_name_error("", "unknown topology ''", NULL);
  expect_name_error("mesh8x", "missing height", NULL);
  expect_name_error("mesh8", "missing 'x'", NULL);
  expect_name_error("mesh", "missing width", NULL);
  expect_name_error("mesh0x4", "width must be >= 1", NULL);
  expect_name_error("mesh4x0", "height must be >= 1", NULL);
  expect_name_error("meshAxB", "width is not a number", NULL);
  expect_name_error("mesh4xB", "height is not a number", NULL);
  expect_name_error("mesh-4x4", "width is not a number", NULL);
  expect_name_error("mesh4x4z", "unexpected 'z'", NULL);
  expect_name_error("mesh4y4", "found 'y4'", NULL);
  expect_name_error("mesh1x1", "at least 2 routers", NULL);
  expect_name_error("mesh65x64", "TOPO_MAX_ROUTERS", "4096");
  expect_name_error("mesh99999999999999999999x2", "TOPO_MAX_ROUTERS", NULL);
  expect_name_error("torus1x1", "at least 2 routers", NULL);
  expect_name_error("torus4x", "missing height", NULL);
  expect_name_error("ring-2", "at least 3", NULL);
  expect_name_error("ring-0", "at least 3", NULL);
  expect_name_error("ring8", "'-'", NULL);
  expect_name_error("ring-", "missing router count", NULL);
  expect_name_error("ring-x", "not a number", NULL);
  expect_name_error("ring-4097", "TOPO_MAX_ROUTERS", NULL);
  expect_name_error("dragonfly-4-0-2", "p must be >= 1", NULL);
  expect_name_error("dragonfly-10-4-4", "TOPO_MAX_PORTS", "16");
  expect_name_error("dragonfly-10-4-4", "p+a-1+h = 17", NULL);
  expect_name_error("dragonfly-0-1-2", "a must be >= 1", NULL);
  expect_name_error("dragonfly-4-1-0", "h must be >= 1", NULL);
  expect_name_error("dragonfly-4-1", "missing '-'", NULL);
  expect_name_error("dragonfly-4-1-x", "not a number", NULL);
  expect_name_error("file:", "missing path", NULL);
  expect_name_error(NULL, "no name", NULL);
  CHECK0(topo_from_name("mesh4x4", NULL, err, sizeof err) == -1);
  /* a NULL or empty error buffer is allowed */
  CHECK0(topo_from_name("nope", &t, NULL, 0) == -1);
  CHECK0(topo_from_name("nope", &t, err, 0) == -1);

  /* leading zeros are plain decimal; name[] keeps the name, truncated */
  memset(big, '0', sizeof big);
  memcpy(big, "mesh", 4);
  memcpy(big + 200, "4x3", 4);
  if (open_ok(big, &t)) {
    CHECK0(t.width == 4 && t.height == 3);
    CHECK0(strlen(t.name) == sizeof t.name - 1);
    CHECK0(strncmp(t.name, big, sizeof t.name - 1) == 0);
    topo_free(&t);
    topo_free(&t);   /* twice is harmless */
  }
}

static void test_masks_mesh(void)
{
  static const char *names[] = {"mesh4x4", "mesh5x3", "mesh1x4", "mesh6x1"};
  size_t k;
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    topo_t t;
    port_mask_t *xy, *wf, *mn;
    char err[256] = "";
    int n, r, d, bad = 0;
    if (!open_ok(names[k], &t))
      continue;
    n = t.routers;
    xy = malloc((size_t)n * (size_t)n * sizeof(port_mask_t));
    wf = malloc((size_t)n * (size_t)n * sizeof(port_mask_t));
    mn = malloc((size_t)n * (size_t)n * sizeof(port_mask_t));
    if (CHECK0(xy && wf && mn) &&
        CHECK(topo_route_masks(&t, ROUTE_XY, xy, err, sizeof err) == 0,
               "%s", err) &&
        CHECK(topo_route_masks(&t, ROUTE_WEST_FIRST, wf, err, sizeof err)
                       == 0, "%s", err) &&
        CHECK(topo_route_masks(&t, ROUTE_MINIMAL, mn, err, sizeof err)
                       == 0, "%s", err)) {
      check_masks_minimal_subset(&t, xy, "xy");
      check_masks_minimal_subset(&t, wf, "west-first");
      check_masks_minimal_subset(&t, mn, "minimal");
      for (r = 0; r < n && bad < 5; r++)
        for (d = 0; d < n && bad < 5; d++) {
          int dx = t.x[d] - t.x[r], dy = t.y[d] - t.y[r];
          unsigned want_xy, want_min, m_xy = xy[r * n + d], m_wf = wf[r * n + d];
          if (r == d)
            continue;
          /* XY: a single bit, X first */
          want_xy = dx > 0 ? 1u << PORT_EAST : dx < 0 ? 1u << PORT_WEST
                    : dy > 0 ? 1u << PORT_NORTH : 1u << PORT_SOUTH;
          bad += !CHECK(m_xy == want_xy, "%s xy %d->%d = %#x", t.name, r,
                         d, m_xy);
          bad += !CHECK((m_xy & (m_xy - 1)) == 0, "%s xy %d->%d", t.name,
                         r, d);
          /* every productive direction */
          want_min = (dx > 0 ? 1u << PORT_EAST : 0) |
                     (dx < 0 ? 1u << PORT_WEST : 0) |
                     (dy > 0 ? 1u << PORT_NORTH : 0) |
                     (dy < 0 ? 1u << PORT_SOUTH : 0);
          bad += !CHECK(mn[r * n + d] == want_min, "%s min %d->%d",
                         t.name, r, d);
          /* west-first: West alone while West hops remain; never West after */
          if (dx < 0)
            bad += !CHECK(m_wf == 1u << PORT_WEST, "%s wf %d->%d = %#x",
                           t.name, r, d, m_wf);
          else
            bad += !CHECK(m_wf == want_min && !(m_wf & (1u << PORT_WEST)),
                           "%s wf %d->%d = %#x", t.name, r, d, m_wf);
        }
    }
    free(xy);
    free(wf);
    free(mn);
    topo_free(&t);
  }
}

static void test_masks_other(void)
{
  static const char *names[] = {"torus4x4", "torus5x3", "torus2x3", "ring-5",
                                "ring-6", "dragonfly-4-1-2", "dragonfly-2-1-1",
                                "mesh3x3"};
  size_t k;
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    topo_t t;
    port_mask_t *m;
    char err[256] = "";
    int n;
    if (!open_ok(names[k], &t))
      continue;
    n = t.routers;
    m = malloc((size_t)n * (size_t)n * sizeof *m);
    if (CHECK0(m != NULL) &&
        CHECK(topo_route_masks(&t, ROUTE_MINIMAL, m, err, sizeof err) == 0,
               "%s: %s", t.name, err)) {
      int r, d, p, bad = 0;
      check_masks_minimal_subset(&t, m, "minimal");
      /* complete: every minimal next hop is allowed */
      for (r = 0; r < n && bad < 5; r++)
        for (d = 0; d < n; d++)
          for (p = 1; p < t.radix && r != d; p++)
            if (peer(&t, r, p) >= 0 &&
                dist(&t, peer(&t, r, p), d) == dist(&t, r, d) - 1)
              bad += !CHECK(m[r * n + d] & (1u << p),
                             "%s min %d->%d port %d missing", t.name, r, d, p);
      if (strcmp(t.name, "torus4x4") == 0) {
        /* (0,0) -> (2,0): tie, East and West both minimal; (0,0) -> (3,3):
         * West and South via the wrap links */
        CHECK0(m[0 * n + 2] == ((1u << PORT_EAST) | (1u << PORT_WEST)));
        CHECK0(m[0 * n + 15] == ((1u << PORT_WEST) | (1u << PORT_SOUTH)));
        CHECK0(m[0 * n + 5] == ((1u << PORT_EAST) | (1u << PORT_NORTH)));
      }
      if (strcmp(t.name, "torus2x3") == 0)   /* x: size 2, no wrap */
        CHECK0(m[1 * n + 0] == 1u << PORT_WEST);
      if (strcmp(t.name, "ring-6") == 0) {
        CHECK0(m[0 * n + 3] == 6u);   /* opposite: both ports */
        CHECK0(m[0 * n + 1] == 2u);
        CHECK0(m[0 * n + 5] == 4u);
      }
      if (strcmp(t.name, "dragonfly-4-1-2") == 0) {
        /* same group: the one local port; router 0 -> group 1 (channel 0 of
         * group 0 = router 0 global port 4): that port only */
        CHECK0(m[0 * n + 3] == 1u << 3);
        CHECK0(m[0 * n + 4] == 1u << 4);
      }
    }
    if (t.kind != TOPO_KIND_MESH) {
      err[0] = '\0';
      CHECK(topo_route_masks(&t, ROUTE_XY, m, err, sizeof err) == -1,
             "%s xy accepted", t.name);
      CHECK(contains(err, "xy") && contains(err, t.name), "%s: %s",
             t.name, err);
      err[0] = '\0';
      CHECK(topo_route_masks(&t, ROUTE_WEST_FIRST, m, err, sizeof err)
                     == -1, "%s wf accepted", t.name);
      CHECK(contains(err, "west-first") && contains(err, t.name),
             "%s: %s", t.name, err);
    }
    CHECK0(topo_route_masks(&t, (route_fn_t)7, m, err, sizeof err) == -1);
    CHECK0(topo_route_masks(&t, ROUTE_MINIMAL, NULL, err, sizeof err) == -1);
    free(m);
    topo_free(&t);
  }
}

/* ------------------------------------------------------------------------ */
/* parser */

static void data_path(const char *file, char *out, size_t len)
{
  snprintf(out, len, "%s/%s", data_dir, file);
}

static int parse_ok(const char *file, topo_t *t)
{
  char path[1024], err[512] = "";
  int rc;
  data_path(file, path, sizeof path);
  rc = topo_parse_file(path, t, err, sizeof err);
  return CHECK(rc == 0, "%s: %s", file, err);
}

/* line > 0: message must start with "PATH:LINE: "; line == 0: "PATH: ". */
static void expect_file_error(const char *file, int line,
                              const char *piece, const char *piece2)
{
  char path[1024], err[512] = "", prefix[1100];
  topo_t t;
  int rc;
  data_path(file, path, sizeof path);
  rc = topo_parse_file(path, &t, err, sizeof err);
  if (line > 0)
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
  else
    snprintf(prefix, sizeof prefix, "%s: ", path);
  CHECK(rc == -1, "%s accepted", file);
  CHECK(strncmp(err, prefix, strlen(prefix)) == 0,
         "%s: '%s' does not start with '%s'", file, err, prefix);
  CHECK(contains(err, piece), "%s: '%s' lacks '%s'", file, err, piece);
  if (piece2 != NULL)
    CHECK(contains(err, piece2), "%s: '%s' lacks '%s'", file, err, piece2);
  CHECK0(t.peer_router == NULL && t.dist == NULL && t.x == NULL);
  topo_free(&t);
}

static void test_parse_good(void)
{
  topo_t t;
  char path[1024], name[1100], err[512] = "";
  data_path("good.topo", path, sizeof path);
  snprintf(name, sizeof name, "file:%s", path);
  if (parse_ok("good.topo", &t)) {
    check_common(&t);
    CHECK0(t.kind == TOPO_KIND_FILE);
    CHECK0(t.routers == 4);
    CHECK0(t.radix == 8);   /* port 7 of router 0 is used */
    CHECK0(t.width == 0 && t.height == 0);
    CHECK0(peer(&t, 0, 1) == 1 && peer_port(&t, 0, 1) == 2);
    CHECK0(peer(&t, 1, 2) == 0 && peer_port(&t, 1, 2) == 1);
    CHECK0(peer(&t, 1, 3) == 2 && peer_port(&t, 1, 3) == 4);
    CHECK0(peer(&t, 2, 2) == 3 && peer_port(&t, 2, 2) == 1);
    CHECK0(peer(&t, 3, 5) == 0 && peer_port(&t, 3, 5) == 7);
    CHECK0(peer(&t, 0, 2) == -1 && peer(&t, 2, 1) == -1);
    CHECK0(t.latency[0 * 8 + 1] == 1 && t.latency[1 * 8 + 2] == 1);
    CHECK0(t.latency[1 * 8 + 3] == 3 && t.latency[2 * 8 + 4] == 3);
    CHECK0(t.latency[3 * 8 + 5] == 2 && t.latency[0 * 8 + 7] == 2);
    CHECK0(t.has_coords == 1);
    CHECK0(t.x[1] == 10 && t.y[1] == 0 && t.x[2] == 10 && t.y[2] == -10);
    CHECK0(t.x[3] == 0 && t.y[3] == -10);
    CHECK0(dist(&t, 0, 2) == 2 && dist(&t, 1, 3) == 2 && dist(&t, 3, 0) == 1);
    CHECK0(strcmp(t.name, name) == 0);
    topo_free(&t);
  }
  /* the same through topo_from_name */
  if (open_ok(name, &t)) {
    CHECK0(t.kind == TOPO_KIND_FILE && t.routers == 4 && t.radix == 8);
    CHECK0(strcmp(t.name, name) == 0);
    topo_free(&t);
  }
  if (parse_ok("good_nocoord.topo", &t)) {
    port_mask_t m[9];
    check_common(&t);
    CHECK0(t.has_coords == 0 && t.routers == 3 && t.radix == 4);
    /* parallel links 0-1 on two port pairs: both minimal */
    CHECK(topo_route_masks(&t, ROUTE_MINIMAL, m, err, sizeof err) == 0,
           "%s", err);
    CHECK0(m[0 * 3 + 1] == ((1u << 1) | (1u << 2)));
    CHECK0(m[0 * 3 + 2] == ((1u << 1) | (1u << 2)));
    CHECK0(m[2 * 3 + 0] == 1u << 1);
    CHECK0(topo_route_masks(&t, ROUTE_XY, m, err, sizeof err) == -1);
    topo_free(&t);
  }
  if (parse_ok("good_single.topo", &t)) {
    port_mask_t m[1] = {0};
    CHECK0(t.routers == 1 && t.radix == 2 && t.has_coords == 0);
    CHECK0(peer(&t, 0, 0) == -1 && peer(&t, 0, 1) == -1);
    CHECK0(t.dist[0] == 0);
    CHECK0(topo_route_masks(&t, ROUTE_MINIMAL, m, err, sizeof err) == 0);
    CHECK0(m[0] == 1);
    topo_free(&t);
  }
  if (parse_ok("good_crlf.topo", &t)) {
    CHECK0(t.routers == 2 && peer(&t, 0, 1) == 1 && t.latency[1] == 4);
    topo_free(&t);
  }
  if (parse_ok("good_noeol.topo", &t)) {
    CHECK0(t.routers == 2 && peer(&t, 1, 1) == 0);
    topo_free(&t);
  }
  if (parse_ok("good_longest_line.topo", &t)) {   /* exactly 1024 chars */
    CHECK0(t.routers == 2 && peer(&t, 1, 1) == 0);
    topo_free(&t);
  }
}

static void test_parse_errors(void)
{
  char path[1024], err[512] = "", want[1100];
  topo_t t;

  expect_file_error("bad_keyword.topo", 3, "unknown keyword 'lnk'", NULL);
  expect_file_error("bad_routers_missing.topo", 3, "before 'routers N'",
                    NULL);
  expect_file_error("bad_routers_repeat.topo", 3, "repeated",
                    "first on line 1");
  expect_file_error("bad_routers_zero.topo", 2, "router count 0 out of range",
                    "1..4096");
  expect_file_error("bad_routers_big.topo", 1, "out of range", NULL);
  expect_file_error("bad_routers_nonnumeric.topo", 1, "'four' is not an integer",
                    NULL);
  expect_file_error("bad_routers_nocount.topo", 1, "missing router count",
                    NULL);
  expect_file_error("bad_routers_extra.topo", 1, "extra field '5'", NULL);
  expect_file_error("bad_empty.topo", 0, "missing 'routers N'", NULL);
  expect_file_error("bad_range.topo", 3, "router 4 out of range", "0..3");
  expect_file_error("bad_range_negative.topo", 2, "router -1 out of range",
                    NULL);
  expect_file_error("bad_port_range.topo", 3, "port 16 of router 2 out of range",
                    "1..15");
  expect_file_error("bad_port_zero.topo", 2, "port 0 of router 0", "NIC");
  expect_file_error("bad_port_twice.topo", 5,
                    "port 1 of router 2 used twice", "first used on line 3");
  expect_file_error("bad_selfloop.topo", 4, "self-loop", "router 2");
  expect_file_error("bad_missing_field.topo", 2, "missing field", NULL);
  expect_file_error("bad_extra_field.topo", 2, "extra field 'fast'", NULL);
  expect_file_error("bad_unknown_field.topo", 2, "unexpected field 'delay'",
                    NULL);
  expect_file_error("bad_nonnumeric.topo", 2, "port 'a' is not an integer",
                    NULL);
  expect_file_error("bad_endpoint.topo", 2, "'0-1' is not ROUTER:PORT", NULL);
  expect_file_error("bad_latency.topo", 2, "latency 0 out of range", NULL);
  expect_file_error("bad_latency_missing.topo", 2,
                    "missing value after 'latency'", NULL);
  expect_file_error("bad_latency_nonnumeric.topo", 2,
                    "latency '2.5' is not an integer", NULL);
  expect_file_error("bad_coord_dup.topo", 5, "duplicate coord for router 0",
                    "first on line 3");
  expect_file_error("bad_coord_missing.topo", 0, "router 1 has no coord",
                    "line 4");
  expect_file_error("bad_coord_fields.topo", 3, "missing field", NULL);
  expect_file_error("bad_coord_nonnumeric.topo", 3, "'x' is not an integer",
                    NULL);
  expect_file_error("bad_coord_range.topo", 3, "router 2 out of range", NULL);
  expect_file_error("bad_longline.topo", 3, "longer than 1024", NULL);
  expect_file_error("bad_longline_by_one.topo", 2, "longer than 1024", NULL);

  /* disconnected: exact message, no line number, lowest unreachable router */
  data_path("bad_disconnected.topo", path, sizeof path);
  snprintf(want, sizeof want, "%s: router 3 is not connected to router 0", path);
  CHECK0(topo_parse_file(path, &t, err, sizeof err) == -1);
  CHECK(strcmp(err, want) == 0, "'%s'", err);
  topo_free(&t);

  /* cannot open */
  data_path("no_such_file.topo", path, sizeof path);
  snprintf(want, sizeof want, "%s: cannot open: %s", path, strerror(ENOENT));
  CHECK0(topo_parse_file(path, &t, err, sizeof err) == -1);
  CHECK(strcmp(err, want) == 0, "'%s'", err);
  snprintf(want, sizeof want, "file:%s", path);
  CHECK0(topo_from_name(want, &t, err, sizeof err) == -1);
  CHECK(contains(err, "cannot open"), "'%s'", err);
  /* a directory opens on some systems but cannot be read as a topology */
  CHECK0(topo_parse_file(data_dir, &t, err, sizeof err) == -1);
  topo_free(&t);
  /* a short error buffer is truncated, not overrun */
  {
    char small[8];
    memset(small, 'z', sizeof small);
    data_path("bad_keyword.topo", path, sizeof path);
    CHECK0(topo_parse_file(path, &t, small, 6) == -1);
    CHECK0(strlen(small) == 5 && small[6] == 'z' && small[7] == 'z');
  }
}

/* ROUTE_MIN_CYCLES: on a dragonfly with global links of 4 cycles every
 * allowed port starts a path of the least zero-load cycles (a recomputed
 * Dijkstra distance, not the model's), every such port is allowed, and
 * following any allowed port from r to d takes one global hop at most
 * where ROUTE_MINIMAL (hops) allows paths of two; where every link has one
 * latency the tables equal ROUTE_MINIMAL's. */
static void test_masks_min_cycles(void)
{
  static const char *same[] = {"mesh4x4@3", "torus4x4", "dragonfly-4-1-2", "ring-6@5"};
  topo_t t;
  char err[256] = "";
  port_mask_t *a, *b;
  int *cd, r, d, p, n, R, bad = 0, two_global = 0;
  size_t k;
  for (k = 0; k < sizeof same / sizeof same[0]; k++) {
    if (!open_ok(same[k], &t)) continue;
    a = malloc((size_t)t.routers * (size_t)t.nodes * sizeof *a);
    b = malloc((size_t)t.routers * (size_t)t.nodes * sizeof *b);
    CHECK(a && b && topo_route_masks(&t, ROUTE_MINIMAL, a, err, sizeof err) == 0 &&
              topo_route_masks(&t, ROUTE_MIN_CYCLES, b, err, sizeof err) == 0 &&
              memcmp(a, b, (size_t)t.routers * (size_t)t.nodes * sizeof *a) == 0,
          "%s: cycle-minimal tables unlike the minimal ones %s", same[k], err);
    free(a);
    free(b);
    topo_free(&t);
  }
  if (!open_ok("dragonfly-4-1-2@4", &t)) return;
  n = t.routers;
  R = t.radix;
  a = malloc((size_t)n * (size_t)t.nodes * sizeof *a);
  b = malloc((size_t)n * (size_t)t.nodes * sizeof *b);
  cd = malloc((size_t)n * (size_t)n * sizeof *cd);
  if (!CHECK0(a && b && cd) ||
      !CHECK(topo_route_masks(&t, ROUTE_MIN_CYCLES, a, err, sizeof err) == 0 &&
                 topo_route_masks(&t, ROUTE_MINIMAL, b, err, sizeof err) == 0, "%s", err))
    goto done;
  /* Bellman-Ford from every destination: cd[r*n+d] */
  for (r = 0; r < n * n; r++) cd[r] = r % (n + 1) == 0 ? 0 : 1 << 28;
  for (k = 0; k < (size_t)n; k++)
    for (r = 0; r < n; r++)
      for (p = 1; p < R; p++) {
        const int q = t.peer_router[r * R + p];
        if (q < 0) continue;
        for (d = 0; d < n; d++)
          if (cd[q * n + d] + t.latency[r * R + p] + 1 < cd[r * n + d])
            cd[r * n + d] = cd[q * n + d] + t.latency[r * R + p] + 1;
      }
  for (r = 0; r < n && bad < 5; r++)
    for (d = 0; d < n && bad < 5; d++) {
      unsigned want = 0;
      if (r == d) continue;
      for (p = 1; p < R; p++) {
        const int q = t.peer_router[r * R + p];
        if (q >= 0 && cd[q * n + d] + t.latency[r * R + p] + 1 == cd[r * n + d]) want |= 1u << p;
      }
      bad += !CHECK(a[(size_t)r * t.nodes + d] == want, "%d->%d: mask %#x, least-cycle ports %#x",
                    r, d, a[(size_t)r * t.nodes + d], want);
      for (p = 1; p < R; p++) {   /* a hop-minimal global hop whose next hop is global too */
        const int q = t.peer_router[r * R + p];
        if (q >= 0 && (b[(size_t)r * t.nodes + d] >> p & 1u) && topo_df_global(&t, r, p) && q != d &&
            (b[(size_t)q * t.nodes + d] & ~1u) && topo_df_global(&t, q, (int)low_bit_of(b[(size_t)q * t.nodes + d])))
          two_global++;
      }
    }
  for (r = 0; r < n && bad < 5; r++)
    for (d = 0; d < n && bad < 5; d++) {
      unsigned mk;
      for (p = 1; p < R; p++) {
        const int q = t.peer_router[r * R + p];
        if (r == d || q < 0 || !(a[(size_t)r * t.nodes + d] >> p & 1u) || !topo_df_global(&t, r, p)) continue;
        for (mk = a[(size_t)q * t.nodes + d]; q != d && mk; mk &= mk - 1u)
          bad += !CHECK(!topo_df_global(&t, q, (int)low_bit_of(mk)), "%d->%d: two global hops", r, d);
      }
    }
  CHECK(two_global > 0, "the hop-minimal tables of %s never take two global hops: the test "
        "shows nothing", t.name);
done:
  free(a);
  free(b);
  free(cd);
  topo_free(&t);
}

int main(int argc, char **argv)
{
  test_mesh();
  test_torus();
  test_ring();
  test_dragonfly();
  test_dragonfly_concentration();
  test_name_errors();
  test_masks_mesh();
  test_masks_other();
  test_masks_min_cycles();
  if (argc >= 2) {
    data_dir = argv[1];
    test_parse_good();
    test_parse_errors();
  } else {
    CHECK(argc >= 2, "usage: %s DATA_DIR  (parser tests not run)", argv[0]);
  }
  return check_done();
}
