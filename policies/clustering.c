/* policies/clustering.c — convex clustering (clustering.h; Beniamine 2013, Algorithm 1). Node
 * sets are arrays of node numbers in increasing order; A~ is also kept as a
 * bit row with the list of its non-empty words, so that "does y precede all
 * of A~?" is a word-parallel subset test over the words A~ occupies. */
#include "policies/clustering.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum part { P_A, P_AT, P_AL, P_AG, NPARTS };

struct cc {
    const struct hs_closure *c;
    const struct hs_cc_params *p;
    gsl_rng *rng;
    int *cluster, ncl, tries;
    uint64_t *at;                /* bits of A~ during a try, all clear between tries */
    int *atw, natw;              /* the words of `at` that hold bits */
    int *rel_l, *rel_g;          /* ancestors, successors of the pivot during a try */
    unsigned char *best;         /* part of each node in the best split */
};

/* One split: the sizes of the four parts. */
struct split {
    int size[NPARTS];
};

void hs_cc_params_defaults(struct hs_cc_params *p)
{
    *p = (struct hs_cc_params){.max_size = 10, .tries = 0, .criterion = HS_CC_MAX,
                               .update = HS_CC_SAFE, .recursion = HS_CC_PER_PART, .threshold = 10};
}

/* Does row hold every node of A~? Only the words A~ occupies are read. */
static bool covers(const struct cc *cc, const uint64_t *row)
{
    for (int i = 0; i < cc->natw; i++)
        if (cc->at[cc->atw[i]] & ~row[cc->atw[i]])
            return false;
    return true;
}

/* Does row hold some node of A~? */
static bool meets(const struct cc *cc, const uint64_t *row)
{
    for (int i = 0; i < cc->natw; i++)
        if (cc->at[cc->atw[i]] & row[cc->atw[i]])
            return true;
    return false;
}

static void at_add(struct cc *cc, int v)
{
    if (!cc->at[v >> 6])
        cc->atw[cc->natw++] = v >> 6;
    hs_bit_set(cc->at, v);
}

static long score(const struct cc *cc, int a, int at)
{
    return cc->p->criterion == HS_CC_MAX ? (a > at ? a : at) : (a < at ? a : at);
}

/* Decompose_4_parts around pivot x, then the update step: the sizes of the
 * parts, and with lab the part of every node of S. The ancestors and the
 * successors of x are listed (cc->rel_l, cc->rel_g), those that move to A
 * first. */
static struct split split_at(struct cc *cc, const int *S, int len, int x, unsigned char *lab)
{
    const struct hs_closure *c = cc->c;
    const uint64_t *dx = hs_closure_desc(c, x), *ax = hs_closure_anc(c, x);
    int *L = cc->rel_l, *G = cc->rel_g, nl = 0, ng = 0, nt = 0;
    cc->natw = 0;
    for (int i = 0; i < len; i++) {
        int v = S[i];
        if (v == x)
            continue;
        if (hs_bit(ax, v))
            L[nl++] = v;
        else if (hs_bit(dx, v))
            G[ng++] = v;
        else {
            at_add(cc, v);
            nt++;
        }
    }
    int ml = 0, mg = 0;
    bool fwd = false, bwd = false; /* moves that make A precede / follow part of A~ */
    for (int k = 0; nt && cc->p->update != HS_CC_NONE && k < nl; k++)
        if (!covers(cc, hs_closure_desc(c, L[k]))) {
            fwd = fwd || meets(cc, hs_closure_desc(c, L[k]));
            int y = L[k];
            L[k] = L[ml];
            L[ml++] = y;
        }
    for (int k = 0; nt && cc->p->update != HS_CC_NONE && k < ng; k++)
        if (!covers(cc, hs_closure_anc(c, G[k]))) {
            bwd = bwd || meets(cc, hs_closure_anc(c, G[k]));
            int z = G[k];
            G[k] = G[mg];
            G[mg++] = z;
        }
    for (int i = 0; i < cc->natw; i++)
        cc->at[cc->atw[i]] = 0;
    /* SAFE: both directions would make A and A~ depend on each other; keep
     * the side that scores better, the ancestors' side on a tie. */
    if (cc->p->update == HS_CC_SAFE && fwd && bwd) {
        if (score(cc, 1 + ml, nt) >= score(cc, 1 + mg, nt))
            mg = 0;
        else
            ml = 0;
    }
    if (lab) {
        for (int i = 0; i < len; i++)
            lab[S[i]] = P_AT;
        lab[x] = P_A;
        for (int k = 0; k < nl; k++)
            lab[L[k]] = k < ml ? P_A : P_AL;
        for (int k = 0; k < ng; k++)
            lab[G[k]] = k < mg ? P_A : P_AG;
    }
    return (struct split){{1 + ml + mg, nt, nl - ml, ng - mg}};
}

static void add_cluster(struct cc *cc, const int *S, int len)
{
    for (int i = 0; i < len; i++)
        cc->cluster[S[i]] = cc->ncl;
    cc->ncl++;
}

static void extract(struct cc *cc, const int *S, int len);

/* Each non-empty part of S (by the best labels) is split again if larger
 * than max(M, 1), else it becomes a cluster. */
static void recurse(struct cc *cc, const int *S, int len, const struct split *best)
{
    int *parts = hs_xmalloc((size_t)len * sizeof(int)), start[NPARTS], fill[NPARTS];
    for (int p = 0, at = 0; p < NPARTS; at += best->size[p], p++)
        start[p] = fill[p] = at;
    for (int i = 0; i < len; i++)
        parts[fill[cc->best[S[i]]]++] = S[i];
    int limit = cc->p->max_size > 1 ? cc->p->max_size : 1;
    for (int p = 0; p < NPARTS; p++) {
        int n = best->size[p];
        if (n > limit)
            extract(cc, parts + start[p], n);
        else if (n > 0)
            add_cluster(cc, parts + start[p], n);
    }
    free(parts);
}

static void extract(struct cc *cc, const int *S, int len)
{
    struct split best = {{0}};
    long cur = cc->p->criterion == HS_CC_MAX ? 0 : -1;
    int pivot = S[0];
    for (int r = 0; r < cc->tries; r++) {
        int x = S[gsl_rng_uniform_int(cc->rng, (unsigned long)len)];
        struct split s = split_at(cc, S, len, x, NULL);
        long sc = score(cc, s.size[P_A], s.size[P_AT]);
        if (sc > cur) { /* strict: the first best split is kept */
            cur = sc;
            best = s;
            pivot = x;
        }
    }
    split_at(cc, S, len, pivot, cc->best); /* the parts of the best split */
    bool split_all = cc->p->recursion == HS_CC_PER_PART ||
                     (best.size[P_A] < best.size[P_AT] ? best.size[P_A] : best.size[P_AT]) >
                         cc->p->threshold;
    if (split_all)
        recurse(cc, S, len, &best);
    else
        add_cluster(cc, S, len);
}

static void work_alloc(struct cc *cc, int n)
{
    cc->at = hs_xcalloc((size_t)(cc->c->words ? cc->c->words : 1), sizeof(uint64_t));
    cc->atw = hs_xmalloc((size_t)(cc->c->words ? cc->c->words : 1) * sizeof(int));
    cc->rel_l = hs_xmalloc((size_t)(n ? n : 1) * sizeof(int));
    cc->rel_g = hs_xmalloc((size_t)(n ? n : 1) * sizeof(int));
}

static void work_free(struct cc *cc)
{
    free(cc->at);
    free(cc->atw);
    free(cc->rel_l);
    free(cc->rel_g);
}

int hs_cc_cluster(const struct hs_closure *c, const struct hs_cc_params *p, gsl_rng *rng,
                  int *cluster)
{
    int n = c->n;
    if (n == 0)
        return 0;
    if (p->max_size <= 0) { /* no clustering */
        for (int v = 0; v < n; v++)
            cluster[v] = v;
        return n;
    }
    struct cc cc = {.c = c, .p = p, .rng = rng, .cluster = cluster};
    cc.tries = p->tries > 0 ? p->tries : (int)floor(sqrt((double)n));
    if (cc.tries < 1)
        cc.tries = 1;
    work_alloc(&cc, n);
    cc.best = hs_xmalloc((size_t)n);
    int *all = hs_xmalloc((size_t)n * sizeof(int));
    for (int v = 0; v < n; v++)
        all[v] = v;
    extract(&cc, all, n);
    free(all);
    free(cc.best);
    work_free(&cc);
    return cc.ncl;
}

void hs_cc_decompose(const struct hs_closure *c, const struct hs_cc_params *p, int x,
                     unsigned char *part)
{
    struct cc cc = {.c = c, .p = p};
    work_alloc(&cc, c->n);
    int *all = hs_xmalloc((size_t)c->n * sizeof(int));
    for (int v = 0; v < c->n; v++)
        all[v] = v;
    split_at(&cc, all, c->n, x, part);
    free(all);
    work_free(&cc);
}

/* Members of each cluster, grouped: members[first[C] .. first[C + 1]). */
static int *group(const int *cluster, int n, int ncl, int **first)
{
    int *f = hs_xcalloc((size_t)ncl + 1, sizeof(int)), *members = hs_xmalloc((size_t)(n ? n : 1) * sizeof(int));
    for (int v = 0; v < n; v++)
        f[cluster[v] + 1]++;
    for (int k = 0; k < ncl; k++)
        f[k + 1] += f[k];
    int *fill = hs_xmalloc((size_t)(ncl ? ncl : 1) * sizeof(int));
    memcpy(fill, f, (size_t)ncl * sizeof(int));
    for (int v = 0; v < n; v++)
        members[fill[cluster[v]]++] = v;
    free(fill);
    *first = f;
    return members;
}

/* C is convex iff every node that follows some node of C and precedes some
 * node of C is in C: (∪ desc) ∩ (∪ anc) ⊆ C. */
bool hs_cc_convex(const struct hs_closure *c, const int *cluster, int ncl, int *bad)
{
    int *first, *members = group(cluster, c->n, ncl, &first);
    uint64_t *below = hs_xmalloc((size_t)c->words * sizeof(uint64_t) * 3);
    uint64_t *above = below + c->words, *in = above + c->words;
    bool ok = true;
    for (int k = 0; k < ncl && ok; k++) {
        memset(below, 0, (size_t)c->words * sizeof(uint64_t) * 3);
        for (int m = first[k]; m < first[k + 1]; m++) {
            int v = members[m];
            const uint64_t *d = hs_closure_desc(c, v), *a = hs_closure_anc(c, v);
            for (int w = 0; w < c->words; w++) {
                below[w] |= d[w];
                above[w] |= a[w];
            }
            hs_bit_set(in, v);
        }
        for (int w = 0; w < c->words && ok; w++)
            ok = !(below[w] & above[w] & ~in[w]);
        if (!ok && bad)
            *bad = k;
    }
    free(below);
    free(members);
    free(first);
    return ok;
}

struct qedge {
    int a, b, k;
};

static int cmp_qedge(const void *x, const void *y)
{
    const struct qedge *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return p->k - q->k;
}

int hs_cc_quotient(int nedges, const int *src, const int *dst, const int *cluster, int **pairs,
                   int *pair_of)
{
    struct qedge *q = hs_xmalloc((size_t)(nedges ? nedges : 1) * sizeof *q);
    int nq = 0;
    for (int k = 0; k < nedges; k++) {
        if (pair_of)
            pair_of[k] = -1;
        if (cluster[src[k]] != cluster[dst[k]])
            q[nq++] = (struct qedge){cluster[src[k]], cluster[dst[k]], k};
    }
    qsort(q, (size_t)nq, sizeof *q, cmp_qedge);
    int *out = hs_xmalloc((size_t)(nq ? nq : 1) * 2 * sizeof(int)), np = 0;
    for (int i = 0; i < nq; i++) {
        if (i == 0 || q[i].a != q[i - 1].a || q[i].b != q[i - 1].b) {
            out[2 * np] = q[i].a;
            out[2 * np + 1] = q[i].b;
            np++;
        }
        if (pair_of)
            pair_of[q[i].k] = np - 1;
    }
    free(q);
    *pairs = out;
    return np;
}
