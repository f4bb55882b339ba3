/* topology.h - network topologies: parsing, named generators, routing tables.
 *
 * A topology is a set of routers joined by bidirectional links between ports.
 * Ports 0..nics-1 of every router are its NICs (concentration: nics nodes a
 * router; 1 except on a dragonfly-a-p-h with p > 1); network ports are
 * nics..radix-1.  Node k is NIC port k % nics of router k / nics.  The file
 * format and the named topologies are those of docs/topology.md.
 *
 * Routing tables: for every (router r, destination node d) an output-port
 * mask, bit p set when port p is allowed (at d's own router only the bit of
 * d's NIC port, the ejection).  The router RTL reads the same tables
 * (generated into the network top, or answered by the harness).
 */
#ifndef SPIN_TOPOLOGY_H
#define SPIN_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#define TOPO_MAX_PORTS  16     /* radix limit, NIC ports included */
#define TOPO_MAX_ROUTERS 4096
#define TOPO_MAX_LATENCY 1024  /* link latency limit (contract 1): XlatW 10 */

/* Mesh port numbering (also used by torus): */
enum { PORT_NIC = 0, PORT_EAST = 1, PORT_WEST = 2, PORT_NORTH = 3, PORT_SOUTH = 4 };

/* A route mask: bit p = output port p (TOPO_MAX_PORTS bits). */
typedef uint16_t port_mask_t;

typedef enum {
  TOPO_KIND_FILE = 0,
  TOPO_KIND_MESH,
  TOPO_KIND_TORUS,
  TOPO_KIND_RING,
  TOPO_KIND_DRAGONFLY
} topo_kind_t;

typedef struct topo_s {
  topo_kind_t kind;
  char name[128];      /* as given: "mesh8x8", "file:foo.topo", ... */
  int routers;         /* N */
  int nics;            /* NIC ports a router (ports 0..nics-1), >= 1 */
  int nodes;           /* routers * nics: the network's end points */
  int radix;           /* max over routers of (highest used port + 1), >= nics + 1 */
  int width, height;   /* mesh/torus: W and H; ring: N and 1; else 0 */
  int df_a, df_h;      /* dragonfly: routers a group, global links a router; else 0 */
  /* Per (router, port), index r * radix + p.  peer_router = -1 when unused.
   * A NIC port is never a network link (peer_router[r*radix+p] == -1, p < nics). */
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

/* All-pairs zero-load cycle distances: for routers a, b the least sum over
 * a path of (link latency + 1), the cycles a head spends on that route's
 * hops (contract 8), at index a*N+b; -1 = unreachable.  A new table the
 * caller frees, or NULL when out of memory. */
int *topo_cycle_dist(const topo_t *t);

/* The longest link's latency (1 when there are no network links). */
int topo_max_latency(const topo_t *t);

/* The most hops between two routers that reach each other (dist). */
int topo_diameter(const topo_t *t);

/* The bits a router's cfg_xlat_i needs a port for this network's links
 * (latency - 1, at least 1 bit): the RTL's XlatW (contract section 1). */
unsigned topo_xlat_width(const topo_t *t);

/* Router r's link latencies less 1, w bits a port (port p at bits w*p, 0
 * for unused ports), into words[0..nwords-1] (32-bit words, least
 * significant first; the bits above are left 0): the router's cfg_xlat_i
 * (contract section 1).  A latency - 1 that does not fit w bits is cut. */
void topo_xlat_bits(const topo_t *t, int r, unsigned w, uint32_t *words, unsigned nwords);

/* The router of node k and its NIC port there. */
static inline int topo_node_router(const topo_t *t, int k) { return k / t->nics; }
static inline int topo_node_port(const topo_t *t, int k) { return k % t->nics; }

/* The NIC ports of a router as a mask (bits 0..nics-1). */
static inline unsigned topo_nic_mask(const topo_t *t) { return (1u << t->nics) - 1u; }

/* Dragonfly: the group of router r, and whether port p of r is a global
 * link (it leads to another group). */
static inline int topo_df_group(const topo_t *t, int r) { return r / t->df_a; }
int topo_df_global(const topo_t *t, int r, int p);

/* Dragonfly: the hops of the hierarchical minimal route from router r to
 * router d (local, global, local: 0 to 3), the route ROUTE_DF_MIN takes. */
int topo_df_hops(const topo_t *t, int r, int d);

/* Dragonfly: the router of group T where the global link from group G
 * lands (G != T). */
int topo_df_landing(const topo_t *t, int G, int T);

/* Routing algorithms whose tables can be built. */
typedef enum {
  ROUTE_XY = 0,        /* mesh only: deterministic dimension order */
  ROUTE_WEST_FIRST,    /* mesh only: west hops first, then adaptive E/N/S */
  ROUTE_MINIMAL,       /* any topology: every minimal next hop */
  ROUTE_MIN_CYCLES,    /* any topology: every next hop on a path of the least
                          zero-load cycles (the sum of link latency + 1 over
                          its hops, topo_cycle_dist): ROUTE_MINIMAL where every
                          network link has the same latency */
  ROUTE_DF_MIN         /* dragonfly only: the hierarchical minimal route, a
                          local hop to the router holding the global link to
                          the destination's group, that link, a local hop */
} route_fn_t;

/* fn takes every minimal next hop, in hops or in cycles (any topology). */
static inline int route_fn_minimal(route_fn_t fn)
{
  return fn == ROUTE_MINIMAL || fn == ROUTE_MIN_CYCLES;
}

/* Fills masks (routers*nodes entries, index r*nodes+d, d a node) with the
 * allowed output ports of function fn.  Returns 0, or -1 with a message
 * when fn does not apply to the topology (XY on a dragonfly, ...). */
int topo_route_masks(const topo_t *t, route_fn_t fn, port_mask_t *masks,
                     char *err, size_t errlen);

#endif
