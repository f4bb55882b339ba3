/* topology.h - network topologies: parsing, named generators, routing tables.
 *
 * A topology is a set of routers joined by bidirectional links between ports.
 * Port 0 of every router is its NIC; network ports are 1..radix-1.  The file
 * format and the named topologies are those of docs/topology.md.
 *
 * Routing tables: for every (router r, destination d) two output-port masks,
 * bit p set when port p is allowed (bit 0 = eject, set only when r == d):
 *   mask_det[r][d]  the restricted function (XY, west-first, or the escape VC)
 *   mask_min[r][d]  every minimal next hop (adaptive routing)
 * The router RTL reads the same tables (generated into the network top).
 */
#ifndef SPIN_TOPOLOGY_H
#define SPIN_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#define TOPO_MAX_PORTS  8      /* radix limit, NIC port included */
#define TOPO_MAX_ROUTERS 4096
#define TOPO_MAX_LATENCY 16    /* link latency limit of the router (contract 1) */

/* Mesh port numbering (also used by torus): */
enum { PORT_NIC = 0, PORT_EAST = 1, PORT_WEST = 2, PORT_NORTH = 3, PORT_SOUTH = 4 };

typedef enum {
  TOPO_KIND_FILE = 0,
  TOPO_KIND_MESH,
  TOPO_KIND_TORUS,
  TOPO_KIND_RING,
  TOPO_KIND_DRAGONFLY
} topo_kind_t;

typedef struct {
  topo_kind_t kind;
  char name[128];      /* as given: "mesh8x8", "file:foo.topo", ... */
  int routers;         /* N */
  int radix;           /* max over routers of (highest used port + 1), >= 2 */
  int width, height;   /* mesh/torus: W and H; ring: N and 1; else 0 */
  /* Per (router, port), index r * radix + p.  peer_router = -1 when unused.
   * Port 0 is never a network link (peer_router[r*radix+0] == -1). */
  int *peer_router;
  int *peer_port;
  int *latency;        /* link latency in cycles, >= 1 */
  int *line;           /* file topologies: the line of the link at (r, p) in
                          the file; 0 for the others and for unused ports */
  int has_coords;      /* coord lines given (files) or implied (mesh/torus/ring) */
  int *x, *y;          /* per router, valid when has_coords */
  int *dist;           /* routers x routers hop distances (BFS), index a*N+b */
} topo_t;

/* Builds a topology from a name: meshWxH, torusWxH, ring-N, dragonfly-a-p-h,
 * or file:PATH.  A generated name may end in "@L": its links have latency L
 * (a dragonfly's global links; its local links have 1).  Returns 0 on success; otherwise -1 with a one-line message
 * in err ("file.topo:12: port 3 of router 5 used twice", ...). */
int topo_from_name(const char *name, topo_t *t, char *err, size_t errlen);

/* Parses a topology file (format in docs/topology.md). Same error rules. */
int topo_parse_file(const char *path, topo_t *t, char *err, size_t errlen);

/* The same for topology text in memory (len bytes, NUL bytes included, no
 * terminating NUL needed); name stands for the file in messages. */
int topo_parse_buf(const char *name, const char *buf, size_t len, topo_t *t,
                   char *err, size_t errlen);

void topo_free(topo_t *t);

/* A deep copy of src into dst (for the reduced topologies of run-time link
 * failures, cmodel/faults.c).  Returns 0, or -1 when out of memory (dst is
 * then empty). */
int topo_copy(const topo_t *src, topo_t *dst);

/* Removes the link at router r port p, both of its ends, and recomputes the
 * hop distances.  Returns 0, or -1 when (r, p) holds no link or memory runs
 * out. */
int topo_remove_link(topo_t *t, int r, int p);

/* Router r's link latencies less 1, 4 bits a port (port p at bits 4p, 0
 * for unused ports): the router's cfg_xlat_i (contract section 1). */
unsigned topo_xlat_word(const topo_t *t, int r);

/* Routing algorithms whose tables can be built. */
typedef enum {
  ROUTE_XY = 0,        /* mesh only: deterministic dimension order */
  ROUTE_WEST_FIRST,    /* mesh only: west hops first, then adaptive E/N/S */
  ROUTE_MINIMAL        /* any topology: every minimal next hop */
} route_fn_t;

/* Fills masks (routers*routers entries, index r*N+d) with the allowed output
 * ports of function fn.  Returns 0, or -1 with a message when fn does not
 * apply to the topology (XY on a dragonfly, ...). */
int topo_route_masks(const topo_t *t, route_fn_t fn, uint8_t *masks,
                     char *err, size_t errlen);

#endif
