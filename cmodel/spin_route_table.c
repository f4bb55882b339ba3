/* spin_route_table.c - one router's routing table, read by its input
 * ports.  RTL twin: rtl/spin_route_table.sv.
 *
 * A table is a row of nodes entries, one per destination node: the output
 * ports allowed toward it (at the node's own router, its NIC port).  Escape routing reads two rows, the
 * adaptive VCs' (mask_a) and the escape VC's (mask_e); the RTL keeps them
 * side by side as one entry {mask_e, mask_a}.  The rows are configuration,
 * constant while the links do not change: network.c points each router's
 * cfg at its rows, topo_route_masks() (topology.c) fills them, and at a
 * link failure sim.c copies in the rows faults.c computed for it.
 * datapath.h says how this file is compiled.
 */
#include "datapath.h"

/* The entry of destination dst; a destination outside the network reads
 * as no port (the input port asserts that a route mask is never empty). */
DP_FN unsigned spin_route_table(const port_mask_t *rows, unsigned nodes, unsigned dst)
{
  return dst < nodes ? rows[dst] : 0u;
}
