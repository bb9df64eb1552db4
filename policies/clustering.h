/* policies/clustering.h — convex clustering of a DAG (Lepère and Trystram
 * 2002 as Beniamine's thesis adapts it, §3.1.2,
 * Algorithm 1), independent of the runtime: it works on a bare DAG
 * given by its transitive closure (closure.h), so it can be checked by brute
 * force on any DAG.
 *
 * extract(S): T times, draw a random pivot x of S and split S into its
 * ancestors A<, its successors A>, the nodes unrelated to x A~, and A = {x};
 * move to A the nodes of A< that do not precede all of A~ and those of A>
 * that do not follow all of A~ (the update step); keep the split with the
 * best score (criterion MAX: max(|A|,|A~|), the thesis; MIN: min, the
 * original). Then each non-empty part larger than max(M,1) is split again,
 * the others become clusters (recursion PER_PART, the thesis; ALL_OR_NONE,
 * the original: split every part if min(|A|,|A~|) > threshold, else S is one
 * cluster).
 *
 * The update step as the thesis writes it (SINGLE) can make A depend on A~
 * and A~ on A at once, which gives non-convex clusters and a cyclic cluster
 * graph; SAFE (the default) then keeps only the moves of the side that scores
 * better (ties: the ancestors' side), and is otherwise identical (our
 * rule: every cluster is then convex and the cluster graph acyclic, which
 * test_clustering checks by brute force). NONE moves nothing. M = 0 means no
 * clustering: one node per cluster (Fig. 3.13b). */
#ifndef HS_CLUSTERING_H
#define HS_CLUSTERING_H

#include "policies/closure.h"

#include <gsl/gsl_rng.h>
#include <stdbool.h>

enum hs_cc_criterion { HS_CC_MAX, HS_CC_MIN };
enum hs_cc_update { HS_CC_SAFE, HS_CC_SINGLE, HS_CC_NONE };
enum hs_cc_recursion { HS_CC_PER_PART, HS_CC_ALL_OR_NONE };

struct hs_cc_params {
    int max_size;  /* M: largest cluster (PER_PART); 0: no clustering */
    int tries;     /* random pivots per call; <= 0: floor(sqrt(n)) of the whole DAG */
    enum hs_cc_criterion criterion;
    enum hs_cc_update update;
    enum hs_cc_recursion recursion;
    int threshold; /* ALL_OR_NONE: split only if min(|A|,|A~|) exceeds it */
};

void hs_cc_params_defaults(struct hs_cc_params *p); /* M 10, sqrt tries, MAX, SAFE, PER_PART */

/* Cluster the DAG whose closure is c: cluster[v] in 0..ncl-1 (clusters are
 * numbered as they are made, parts in the order A, A~, A<, A>). Every random
 * choice comes from rng. Returns ncl. */
int hs_cc_cluster(const struct hs_closure *c, const struct hs_cc_params *p, gsl_rng *rng,
                  int *cluster);

/* One decomposition of the whole DAG around pivot x (the update step as p
 * says): part[v] = 0 for A, 1 for A~, 2 for A< (ancestors of x), 3 for A>. */
void hs_cc_decompose(const struct hs_closure *c, const struct hs_cc_params *p, int x,
                     unsigned char *part);

/* Is every cluster convex (no node outside a cluster both follows and
 * precedes nodes of it)? On failure *bad is such a cluster. */
bool hs_cc_convex(const struct hs_closure *c, const int *cluster, int ncl, int *bad);

/* The cluster graph of a clustering: the distinct pairs (C1, C2), C1 != C2,
 * joined by an edge src[k] -> dst[k], sorted; pair_of[k] is the index of the
 * pair of edge k (-1 inside a cluster) if pair_of is not NULL. Returns the
 * number of pairs, written to *pairs (2 ints each; the caller frees). */
int hs_cc_quotient(int nedges, const int *src, const int *dst, const int *cluster, int **pairs,
                   int *pair_of);

#endif
