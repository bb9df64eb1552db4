/* workloads/dag_dot.c — a DAG as DOT through Graphviz cgraph: one node per
 * task (label, kernel, size = flops, as SimGrid's DOT DAGs use), one edge per
 * dependency (size = bytes). */
#include "workloads/dagio.h"
#include "sim/util.h"

#include <graphviz/cgraph.h>
#include <stdio.h>
#include <stdlib.h>

static void set_attr(void *obj, int kind, const char *name, const char *value)
{
    (void)kind;
    agsafeset(obj, (char *)name, (char *)value, "");
}

int hs_dag_write_dot(const struct hs_dag *dag, FILE *out)
{
    Agraph_t *g = agopen("dag", Agdirected, NULL);
    Agnode_t **nodes = hs_xmalloc((size_t)dag->ntasks * sizeof *nodes);
    char name[32], buf[64];
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[i];
        snprintf(name, sizeof name, "t%d", i);
        nodes[i] = agnode(g, name, 1);
        set_attr(nodes[i], AGNODE, "label", t->label);
        set_attr(nodes[i], AGNODE, "kernel", dag->kernels[t->kernel]);
        snprintf(buf, sizeof buf, "%.17g", t->flops);
        set_attr(nodes[i], AGNODE, "size", buf);
    }
    for (int e = 0; e < dag->nedges; e++) {
        const struct hs_edge *ed = &dag->edges[e];
        Agedge_t *edge = agedge(g, nodes[ed->src], nodes[ed->dst], NULL, 1);
        snprintf(buf, sizeof buf, "%.17g", ed->bytes);
        set_attr(edge, AGEDGE, "size", buf);
    }
    int rc = agwrite(g, out) == EOF ? hs_fail("cannot write the DAG") : 0;
    agclose(g);
    free(nodes);
    return rc;
}
