/* policies/closure.h — the transitive closure of a DAG as two bit matrices
 * (descendants and ancestors of every node), so that "does x precede y?" is
 * one bit test and set operations on node sets are word-parallel. The convex
 * clustering (clustering.h) is built on it (Beniamine
 * 2013, §3.1.2: the Warshall closure).
 *
 * Nodes are 0..n-1 numbered in a topological order (every edge goes from a
 * lower to a higher number). Three ways to compute it, all giving the same
 * matrices (tests/bench/bench_clustering.sh measures them):
 *   HS_CLOSURE_DAG       each row is the OR of its neighbours' rows, in
 *                        (reverse) topological order: O(|E|·n/64) word operations
 *   HS_CLOSURE_WARSHALL  the thesis' Warshall algorithm with word-parallel row
 *                        ORs: O(#related pairs · n/64)
 *   HS_CLOSURE_IGRAPH    a breadth-first search from every node with igraph
 *                        (igraph_subcomponent), the nodes found set as bits:
 *                        O(n·(n + |E|)) */
#ifndef HS_CLOSURE_H
#define HS_CLOSURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hs_closure_method { HS_CLOSURE_DAG, HS_CLOSURE_WARSHALL, HS_CLOSURE_IGRAPH };

struct hs_closure {
    int n;
    int words;     /* 64-bit words per row */
    uint64_t *desc; /* row i: bit j set iff i precedes j (strictly) */
    uint64_t *anc;  /* row j: bit i set iff i precedes j */
};

/* Build the closure of the DAG with n nodes and edges src[k] -> dst[k].
 * Returns 0, or -1 with hs_fail if an edge is not from a lower to a higher
 * node number. */
int hs_closure_build(struct hs_closure *c, int n, int nedges, const int *src, const int *dst,
                     enum hs_closure_method method);
void hs_closure_free(struct hs_closure *c);

/* "dag", "warshall", "igraph" -> method; -1 if unknown. */
int hs_closure_method_parse(const char *name);

static inline const uint64_t *hs_closure_desc(const struct hs_closure *c, int i)
{
    return c->desc + (size_t)i * (size_t)c->words;
}

static inline const uint64_t *hs_closure_anc(const struct hs_closure *c, int j)
{
    return c->anc + (size_t)j * (size_t)c->words;
}

static inline bool hs_bit(const uint64_t *row, int j)
{
    return (row[j >> 6] >> (j & 63)) & 1u;
}

static inline void hs_bit_set(uint64_t *row, int j)
{
    row[j >> 6] |= (uint64_t)1 << (j & 63);
}

static inline void hs_bit_clear(uint64_t *row, int j)
{
    row[j >> 6] &= ~((uint64_t)1 << (j & 63));
}

/* Does i precede j (a path i -> … -> j)? */
static inline bool hs_closure_precedes(const struct hs_closure *c, int i, int j)
{
    return hs_bit(hs_closure_desc(c, i), j);
}

#endif
