/* workloads/dag_dot.c — writing a DAG as DOT through Graphviz cgraph. The
 * graph is named after the DAG and has a total_flops attribute when the DAG
 * gives the operation's count; node t<i> is task i with
 *   label      the task's label          kernel     its kernel
 *   size       flops (SimGrid, DAGGEN)   footprint  tile size (if not 0)
 *   costs      "cpu=s,gpu=s" or "s,s,…" (explicit seconds, per architecture
 *              or per processor; "inf": cannot run there)
 *   archs      "cpu" or "gpu" when the task may not run everywhere
 *   and any attribute kept from the file the DAG was read from (hs_task.extra);
 * one edge per dependency with size = bytes. The most common value of kernel,
 * size, footprint and edge size is declared as the default (node [...],
 * edge [...]), which agwrite leaves out of each statement: smaller files that
 * read faster, with the same meaning for any DOT reader. dag_dot_read.c reads
 * them back; docs/workloads.md documents the attributes. */
#include "workloads/dagio.h"
#include "base/util.h"

#include <graphviz/cgraph.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Most common value (the smallest among ties); 0 for an empty list. */
static double mode_of(double *v, int n)
{
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double best = v[0];
    int best_run = 0;
    for (int i = 0, j; i < n; i = j) {
        for (j = i; j < n && v[j] == v[i]; j++)
            ;
        if (j - i > best_run) {
            best_run = j - i;
            best = v[i];
        }
    }
    return best;
}

static Agsym_t *declare(Agraph_t *g, int kind, const char *name, double dflt)
{
    char buf[32];
    hs_format_double(buf, dflt);
    return agattr(g, kind, (char *)name, buf);
}

/* kernel, size and footprint, with their most common values as defaults */
static void declare_node_attrs(Agraph_t *g, const struct hs_dag *dag, Agsym_t **sym)
{
    int n = dag->ntasks;
    double *v = hs_xmalloc((size_t)(n ? n : 1) * sizeof *v);
    bool any_footprint = false, any_costs = false, any_archs = false;
    for (int i = 0; i < n; i++) {
        const struct hs_task *t = &dag->tasks[i];
        v[i] = t->kernel;
        any_footprint |= t->footprint != 0;
        any_costs |= t->proc_cost || !isnan(t->arch_cost[0]) || !isnan(t->arch_cost[1]);
        any_archs |= t->arch_mask != HS_ARCHMASK_ALL;
    }
    sym[0] = agattr(g, AGNODE, "label", "\\N");
    sym[1] = agattr(g, AGNODE, "kernel", dag->kernels[(int)mode_of(v, n)]);
    for (int i = 0; i < n; i++)
        v[i] = dag->tasks[i].flops;
    sym[2] = declare(g, AGNODE, "size", mode_of(v, n));
    for (int i = 0; i < n; i++)
        v[i] = dag->tasks[i].footprint;
    sym[3] = any_footprint ? declare(g, AGNODE, "footprint", mode_of(v, n)) : NULL;
    sym[4] = any_costs ? agattr(g, AGNODE, "costs", "") : NULL;
    sym[5] = any_archs ? agattr(g, AGNODE, "archs", "") : NULL;
    free(v);
}

static void set_num(void *obj, Agsym_t *sym, double value)
{
    char buf[32];
    hs_format_double(buf, value);
    agxset(obj, sym, buf);
}

static void set_costs(const struct hs_dag *dag, const struct hs_task *t, void *node, Agsym_t *sym)
{
    size_t size = (size_t)(dag->nproc_costs + HS_NARCH) * 40, len = 0;
    char *text = hs_xmalloc(size), num[32];
    text[0] = '\0';
    for (int p = 0; t->proc_cost && p < dag->nproc_costs; p++) {
        hs_format_double(num, t->proc_cost[p]);
        len += (size_t)snprintf(text + len, size - len, "%s%s", p ? "," : "", num);
    }
    for (int a = 0; !t->proc_cost && a < HS_NARCH; a++)
        if (!isnan(t->arch_cost[a])) {
            hs_format_double(num, t->arch_cost[a]);
            len += (size_t)snprintf(text + len, size - len, "%s%s=%s", len ? "," : "",
                                    hs_arch_name((enum hs_arch)a), num);
        }
    agxset(node, sym, text);
    free(text);
}

static void set_extra(Agraph_t *g, void *node, char **extra)
{
    for (char **x = extra; x && *x; x += 2) {
        if (hs_dot_reserved(x[0]))
            continue;
        Agsym_t *sym = agattr(g, AGNODE, x[0], NULL);
        if (!sym)
            sym = agattr(g, AGNODE, x[0], "");
        agxset(node, sym, x[1]);
    }
}

static void write_node(Agraph_t *g, const struct hs_dag *dag, int i, Agnode_t *node,
                       Agsym_t **sym)
{
    const struct hs_task *t = &dag->tasks[i];
    agxset(node, sym[0], t->label);
    agxset(node, sym[1], dag->kernels[t->kernel]);
    set_num(node, sym[2], t->flops);
    if (sym[3])
        set_num(node, sym[3], t->footprint);
    if (sym[4])
        set_costs(dag, t, node, sym[4]);
    if (sym[5]) {
        char archs[16];
        hs_archs_format(t->arch_mask == HS_ARCHMASK_ALL ? 0 : t->arch_mask, archs, sizeof archs);
        agxset(node, sym[5], archs);
    }
    set_extra(g, node, t->extra);
}

/* cgraph takes a name starting with '%' for one of its internal ids: the
 * graph would be written without its name (and cgraph leaks its entry). */
int hs_dot_name_check(const struct hs_dag *dag)
{
    if (dag->name[0] != '%')
        return 0;
    return hs_fail("DAG '%s': DOT cannot keep a name that starts with '%%' (Graphviz reserves it); "
                   "write it as JSON", dag->name);
}

int hs_dag_write_dot(const struct hs_dag *dag, FILE *out)
{
    if (hs_dot_name_check(dag))
        return -1;
    Agraph_t *g = agopen(dag->name, Agdirected, NULL);
    Agnode_t **nodes = hs_xmalloc((size_t)(dag->ntasks ? dag->ntasks : 1) * sizeof *nodes);
    Agsym_t *sym[6];
    if (dag->total_flops > 0)
        declare(g, AGRAPH, "total_flops", dag->total_flops);
    declare_node_attrs(g, dag, sym);
    double *bytes = hs_xmalloc((size_t)(dag->nedges ? dag->nedges : 1) * sizeof *bytes);
    for (int e = 0; e < dag->nedges; e++)
        bytes[e] = dag->edges[e].bytes;
    Agsym_t *esize = declare(g, AGEDGE, "size", mode_of(bytes, dag->nedges));
    free(bytes);
    char name[32];
    for (int i = 0; i < dag->ntasks; i++) {
        snprintf(name, sizeof name, "t%d", i);
        nodes[i] = agnode(g, name, 1);
        write_node(g, dag, i, nodes[i], sym);
    }
    for (int e = 0; e < dag->nedges; e++) {
        const struct hs_edge *ed = &dag->edges[e];
        Agedge_t *edge = agedge(g, nodes[ed->src], nodes[ed->dst], NULL, 1);
        set_num(edge, esize, ed->bytes);
    }
    int rc = agwrite(g, out) == EOF ? hs_fail("cannot write the DAG") : 0;
    agclose(g);
    free(nodes);
    return rc;
}
