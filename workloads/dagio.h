/* workloads/dagio.h — writing DAGs to files: JSON (hetsim's own format, with
 * handles and accesses, so that the data-flow is kept) and DOT (the task
 * graph with SimGrid's "size" attributes: flops on nodes, bytes on edges),
 * the latter through Graphviz cgraph. */
#ifndef HS_DAGIO_H
#define HS_DAGIO_H

#include "sim/dag.h"

#include <stdio.h>

/* Returns 0, or -1 with hs_fail. */
int hs_dag_write_json(const struct hs_dag *dag, FILE *out);
int hs_dag_write_dot(const struct hs_dag *dag, FILE *out);

#endif
