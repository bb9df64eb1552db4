/* policies/closure.c — transitive closure as bit matrices (closure.h).
 *
 * igraph gives reachability as vertex lists (one search per node), not as
 * a constant-time "is x before y?", and its DAG closure is a graph with one
 * edge per related pair; the clustering needs the bit test and word-parallel
 * set operations, so the bit rows are computed here. The igraph path is kept
 * to measure that choice (tests/bench/bench_clustering.sh). */
#include "policies/closure.h"
#include "base/util.h"

#include <igraph/igraph.h>
#include <stdlib.h>
#include <string.h>

/* Adjacency in compressed rows: the neighbours of v are adj[off[v] .. off[v+1]). */
struct csr {
    int *off, *adj;
};

static struct csr csr_build(int n, int nedges, const int *from, const int *to)
{
    struct csr g = {hs_xcalloc((size_t)n + 1, sizeof(int)), hs_xmalloc((size_t)(nedges ? nedges : 1) * sizeof(int))};
    for (int e = 0; e < nedges; e++)
        g.off[from[e] + 1]++;
    for (int v = 0; v < n; v++)
        g.off[v + 1] += g.off[v];
    int *fill = hs_xmalloc((size_t)(n ? n : 1) * sizeof(int));
    memcpy(fill, g.off, (size_t)n * sizeof(int));
    for (int e = 0; e < nedges; e++)
        g.adj[fill[from[e]]++] = to[e];
    free(fill);
    return g;
}

static void csr_free(struct csr *g)
{
    free(g->off);
    free(g->adj);
}

static uint64_t *row(uint64_t *m, const struct hs_closure *c, int i)
{
    return m + (size_t)i * (size_t)c->words;
}

/* desc[i] = OR over successors j of ({j} ∪ desc[j]), in reverse topological
 * order; desc[j] only holds bits above j, so the OR starts at j's word. */
static void closure_dag(struct hs_closure *c, int nedges, const int *src, const int *dst)
{
    struct csr succ = csr_build(c->n, nedges, src, dst), pred = csr_build(c->n, nedges, dst, src);
    for (int i = c->n - 1; i >= 0; i--) {
        uint64_t *ri = row(c->desc, c, i);
        for (int k = succ.off[i]; k < succ.off[i + 1]; k++) {
            int j = succ.adj[k];
            const uint64_t *rj = row(c->desc, c, j);
            for (int w = j >> 6; w < c->words; w++)
                ri[w] |= rj[w];
            hs_bit_set(ri, j);
        }
    }
    for (int j = 0; j < c->n; j++) {
        uint64_t *rj = row(c->anc, c, j);
        for (int k = pred.off[j]; k < pred.off[j + 1]; k++) {
            int i = pred.adj[k];
            const uint64_t *ri = row(c->anc, c, i);
            for (int w = 0; w <= i >> 6; w++)
                rj[w] |= ri[w];
            hs_bit_set(rj, i);
        }
    }
    csr_free(&succ);
    csr_free(&pred);
}

/* Warshall: for every k, every row holding k takes k's row. In a topological
 * numbering only rows i < k can hold k in desc (i > k in anc), and k's row
 * holds bits above k (below k in anc): the OR covers those words only. */
static void closure_warshall(struct hs_closure *c, int nedges, const int *src, const int *dst)
{
    for (int e = 0; e < nedges; e++) {
        hs_bit_set(row(c->desc, c, src[e]), dst[e]);
        hs_bit_set(row(c->anc, c, dst[e]), src[e]);
    }
    for (int k = 0; k < c->n; k++) {
        const uint64_t *dk = row(c->desc, c, k), *ak = row(c->anc, c, k);
        for (int i = 0; i < k; i++) {
            uint64_t *di = row(c->desc, c, i);
            if (hs_bit(di, k))
                for (int w = k >> 6; w < c->words; w++)
                    di[w] |= dk[w];
        }
        for (int i = k + 1; i < c->n; i++) {
            uint64_t *ai = row(c->anc, c, i);
            if (hs_bit(ai, k))
                for (int w = 0; w <= k >> 6; w++)
                    ai[w] |= ak[w];
        }
    }
}

/* Breadth-first search from every node with igraph_subcomponent. (igraph
 * 0.10.2's igraph_transitive_closure_dag repeats closure edges, 196,417 of
 * them for a 30-node DAG, and igraph deprecated it: igraph issue #2566.) */
static void closure_igraph(struct hs_closure *c, int nedges, const int *src, const int *dst)
{
    igraph_vector_int_t ev, reached;
    igraph_vector_int_init(&ev, 2 * (igraph_integer_t)nedges);
    for (int e = 0; e < nedges; e++) {
        VECTOR(ev)[2 * e] = src[e];
        VECTOR(ev)[2 * e + 1] = dst[e];
    }
    igraph_t g;
    igraph_create(&g, &ev, c->n, IGRAPH_DIRECTED);
    igraph_vector_int_init(&reached, 0);
    for (int i = 0; i < c->n; i++) {
        igraph_subcomponent(&g, &reached, i, IGRAPH_OUT);
        for (igraph_integer_t k = 0; k < igraph_vector_int_size(&reached); k++) {
            int j = (int)VECTOR(reached)[k];
            if (j != i) {
                hs_bit_set(row(c->desc, c, i), j);
                hs_bit_set(row(c->anc, c, j), i);
            }
        }
    }
    igraph_vector_int_destroy(&reached);
    igraph_destroy(&g);
    igraph_vector_int_destroy(&ev);
}

int hs_closure_build(struct hs_closure *c, int n, int nedges, const int *src, const int *dst,
                     enum hs_closure_method method)
{
    memset(c, 0, sizeof *c);
    for (int e = 0; e < nedges; e++)
        if (src[e] < 0 || dst[e] >= n || src[e] >= dst[e])
            return hs_fail("closure: edge %d -> %d does not follow the topological numbering of "
                           "%d nodes", src[e], dst[e], n);
    c->n = n;
    c->words = (n + 63) / 64;
    size_t cells = (size_t)n * (size_t)c->words;
    c->desc = hs_xcalloc(cells ? cells : 1, sizeof(uint64_t));
    c->anc = hs_xcalloc(cells ? cells : 1, sizeof(uint64_t));
    if (method == HS_CLOSURE_WARSHALL)
        closure_warshall(c, nedges, src, dst);
    else if (method == HS_CLOSURE_IGRAPH)
        closure_igraph(c, nedges, src, dst);
    else
        closure_dag(c, nedges, src, dst);
    return 0;
}

void hs_closure_free(struct hs_closure *c)
{
    free(c->desc);
    free(c->anc);
    memset(c, 0, sizeof *c);
}

int hs_closure_method_parse(const char *name)
{
    static const char *const names[] = {"dag", "warshall", "igraph"};
    for (int m = 0; m < 3; m++)
        if (strcmp(name, names[m]) == 0)
            return m;
    return -1;
}
