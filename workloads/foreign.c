/* workloads/foreign.c — what the foreign DAG readers share (foreign.h):
 * walking the lines of a text, edge lists, topological order, plain graphs. */
#include "workloads/foreign.h"
#include "base/util.h"
#include "workloads/dagio.h"

#include <stdlib.h>
#include <igraph/igraph.h>
#include <string.h>

void hs_lines_init(struct hs_lines *l, char *text)
{
    l->p = text;
    l->line = 0;
}

char *hs_lines_next(struct hs_lines *l)
{
    if (!l->p || (!*l->p && l->line > 0))
        return NULL;
    char *start = l->p, *nl = strchr(start, '\n');
    if (nl) {
        *nl = '\0';
        l->p = nl + 1;
    } else {
        l->p = NULL;
    }
    size_t n = strlen(start);
    if (n && start[n - 1] == '\r')
        start[n - 1] = '\0';
    l->line++;
    if (!nl && !*start)
        return NULL;
    return start;
}

char *hs_next_word(char **s)
{
    char *p = *s + strspn(*s, " \t\r");
    if (!*p) {
        *s = p;
        return NULL;
    }
    char *end = p + strcspn(p, " \t\r");
    if (*end)
        *end++ = '\0';
    *s = end;
    return p;
}

void hs_edges_add(struct hs_edges *e, int src, int dst, double bytes)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 64;
        e->src = hs_xrealloc(e->src, e->cap * sizeof *e->src);
        e->dst = hs_xrealloc(e->dst, e->cap * sizeof *e->dst);
        e->bytes = hs_xrealloc(e->bytes, e->cap * sizeof *e->bytes);
    }
    e->src[e->n] = src;
    e->dst[e->n] = dst;
    e->bytes[e->n++] = bytes;
}

void hs_edges_free(struct hs_edges *e)
{
    free(e->src);
    free(e->dst);
    free(e->bytes);
    memset(e, 0, sizeof *e);
}

int hs_topo_order(int n, const struct hs_edges *e, int *order)
{
    igraph_vector_int_t ev;
    igraph_vector_int_init(&ev, 2 * (igraph_integer_t)e->n);
    for (size_t k = 0; k < e->n; k++) {
        VECTOR(ev)[2 * k] = e->src[k];
        VECTOR(ev)[2 * k + 1] = e->dst[k];
    }
    igraph_t g;
    igraph_create(&g, &ev, n, IGRAPH_DIRECTED);
    igraph_vector_int_destroy(&ev);
    igraph_bool_t dag = 0;
    igraph_is_dag(&g, &dag);
    if (dag) {
        igraph_vector_int_t o;
        igraph_vector_int_init(&o, 0);
        igraph_topological_sorting(&g, &o, IGRAPH_OUT);
        for (int k = 0; k < n; k++)
            order[k] = (int)VECTOR(o)[k];
        igraph_vector_int_destroy(&o);
    }
    igraph_destroy(&g);
    return dag ? 0 : -1;
}

int hs_build_plain(struct hs_dag *dag, const char *path, const struct hs_plain_task *t, int n,
                   const struct hs_edges *e)
{
    int *order = hs_xmalloc((size_t)n * sizeof *order), *pos = hs_xmalloc((size_t)n * sizeof *pos);
    int rc = hs_topo_order(n, e, order);
    if (rc)
        rc = hs_fail("%s: the dependencies have a cycle", path);
    for (int k = 0; k < n && !rc; k++) {
        const struct hs_plain_task *x = &t[order[k]];
        pos[order[k]] = hs_dag_add_task(dag, x->kernel, x->label, x->flops, 0);
        if (x->flops == 0)
            hs_task_zero_cost(&dag->tasks[pos[order[k]]]);
        if (x->attr_key)
            hs_task_add_extra(&dag->tasks[pos[order[k]]], x->attr_key, x->attr_value);
    }
    for (size_t k = 0; k < e->n && !rc; k++)
        hs_dag_add_edge(dag, pos[e->src[k]], pos[e->dst[k]], e->bytes[k]);
    free(order);
    free(pos);
    return rc;
}
