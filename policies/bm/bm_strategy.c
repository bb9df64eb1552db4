/* policies/bm/bm_strategy.c — the master's side of Beaumont and Marchal's
 * strategies (bm_strategy.h).
 *
 * The unallocated tasks are an array `pool` with each task's position in
 * `pos` (ALLOCATED once taken): uniform sampling and removal of any task are
 * O(1). A worker's known indices per dimension are the first known[k] entries
 * of a permutation of 0..n−1; drawing an unknown index swaps a uniformly
 * chosen entry of the rest into place, so a dynamic step costs O(1) to
 * choose and O(y) (outer) or O(y²) (matrix) to scan its new tasks. */
#include "policies/bm/bm_strategy.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

#define ALLOCATED UINT32_MAX

struct hs_bm_strategy {
    struct hs_bm_config c;
    gsl_rng *rng;
    long ntasks, left;
    uint32_t *pool, *pos;
    long family_blocks;  /* n^{d−1}: blocks per family (a/b, or A/B/C) */
    size_t words;        /* 64-bit words of one worker's bitset of one family */
    uint64_t *held;      /* [(k·d + f)·words]: blocks worker k holds */
    int32_t *perm;       /* [(k·d + dim)·n]: known indices first (dynamic only) */
    int *known;          /* per worker: how many indices it knows per dimension */
    long sorted_next;    /* sorted: next position in the lexicographic order */
    long blocks, phase1_tasks;
    long *worker_blocks;
    uint32_t *out;       /* tasks of the current request */
    int nout;
    uint32_t *sent;      /* blocks it sent (family·family_blocks + block) */
    int nsent;
};

uint32_t hs_bm_task_id(int dim, int n, const int *idx)
{
    uint32_t t = (uint32_t)idx[0] * (uint32_t)n + (uint32_t)idx[1];
    return dim == 2 ? t : t * (uint32_t)n + (uint32_t)idx[2];
}

long hs_bm_task_block(int dim, int n, uint32_t task, int family)
{
    if (dim == 2)
        return family == 0 ? task / (uint32_t)n : task % (uint32_t)n;
    long k = task % (uint32_t)n, ij = task / (uint32_t)n, i = ij / n, j = ij % n;
    return family == 0 ? i * n + k : family == 1 ? k * n + j : i * n + j;
}

struct hs_bm_strategy *hs_bm_new(const struct hs_bm_config *c, gsl_rng *rng)
{
    long ntasks = c->dim == 2 ? (long)c->n * c->n : (long)c->n * c->n * c->n;
    if (c->n < 1 || c->p < 1 || ntasks > HS_BM_MAX_TASKS) {
        hs_fail("%ld tasks: the strategies handle 1 to %ld tasks", ntasks, HS_BM_MAX_TASKS);
        return NULL;
    }
    struct hs_bm_strategy *s = hs_xcalloc(1, sizeof *s);
    s->c = *c;
    s->rng = rng;
    s->ntasks = s->left = ntasks;
    s->pool = hs_xmalloc((size_t)ntasks * sizeof *s->pool);
    s->pos = hs_xmalloc((size_t)ntasks * sizeof *s->pos);
    for (long t = 0; t < ntasks; t++)
        s->pool[t] = s->pos[t] = (uint32_t)t;
    s->family_blocks = c->dim == 2 ? c->n : (long)c->n * c->n;
    s->words = (size_t)(s->family_blocks + 63) / 64;
    s->held = hs_xcalloc((size_t)c->p * (size_t)c->dim * s->words, sizeof *s->held);
    s->worker_blocks = hs_xcalloc((size_t)c->p, sizeof *s->worker_blocks);
    s->known = hs_xcalloc((size_t)c->p, sizeof *s->known);
    long batch = 1;
    if (c->kind == HS_BM_DYNAMIC || c->kind == HS_BM_TWOPHASE) {
        size_t len = (size_t)c->p * (size_t)c->dim * (size_t)c->n;
        s->perm = hs_xmalloc(len * sizeof *s->perm);
        for (size_t e = 0; e < len; e++)
            s->perm[e] = (int32_t)(e % (size_t)c->n);
        batch = c->dim == 2 ? 2L * c->n + 1 : 3L * c->n * c->n + 3L * c->n + 1;
    }
    s->out = hs_xmalloc((size_t)batch * sizeof *s->out);
    s->sent = hs_xmalloc((size_t)c->dim * (2 * (size_t)c->n + 1) * sizeof *s->sent);
    return s;
}

void hs_bm_free(struct hs_bm_strategy *s)
{
    if (!s)
        return;
    free(s->pool), free(s->pos), free(s->held), free(s->perm);
    free(s->known), free(s->worker_blocks), free(s->out), free(s->sent);
    free(s);
}

long hs_bm_left(const struct hs_bm_strategy *s)
{
    return s->left;
}

long hs_bm_blocks(const struct hs_bm_strategy *s)
{
    return s->blocks;
}

long hs_bm_worker_blocks(const struct hs_bm_strategy *s, int k)
{
    return s->worker_blocks[k];
}

long hs_bm_phase1_tasks(const struct hs_bm_strategy *s)
{
    return s->phase1_tasks;
}

static uint64_t *bitset(const struct hs_bm_strategy *s, int k, int family)
{
    return s->held + ((size_t)k * (size_t)s->c.dim + (size_t)family) * s->words;
}

bool hs_bm_holds(const struct hs_bm_strategy *s, int k, int family, long block)
{
    return bitset(s, k, family)[block / 64] >> (block % 64) & 1;
}

/* Send block `block` of family f to worker k unless it holds it. */
static void send(struct hs_bm_strategy *s, int k, int family, long block)
{
    uint64_t *w = &bitset(s, k, family)[block / 64], bit = (uint64_t)1 << (block % 64);
    if (*w & bit)
        return;
    *w |= bit;
    s->blocks++;
    s->worker_blocks[k]++;
    s->sent[s->nsent++] = (uint32_t)(family * s->family_blocks + block);
}

/* Allocate task t to worker k with the blocks it lacks. */
static void allocate(struct hs_bm_strategy *s, int k, uint32_t t)
{
    uint32_t last = s->pool[--s->left], at = s->pos[t];
    s->pool[at] = last;
    s->pos[last] = at;
    s->pos[t] = ALLOCATED;
    for (int f = 0; f < s->c.dim; f++)
        send(s, k, f, hs_bm_task_block(s->c.dim, s->c.n, t, f));
    s->out[s->nout++] = t;
}

static void try_allocate(struct hs_bm_strategy *s, int k, uint32_t t)
{
    if (s->pos[t] != ALLOCATED)
        allocate(s, k, t);
}

static void random_step(struct hs_bm_strategy *s, int k)
{
    allocate(s, k, s->pool[gsl_rng_uniform_int(s->rng, (unsigned long)s->left)]);
}

static void sorted_step(struct hs_bm_strategy *s, int k)
{
    for (;; s->sorted_next++) {
        int idx[3] = {0, 0, 0};
        long rest = s->sorted_next;
        for (int m = s->c.dim - 1; m >= 0; m--, rest /= s->c.n)
            idx[s->c.order[m]] = (int)(rest % s->c.n);
        uint32_t t = hs_bm_task_id(s->c.dim, s->c.n, idx);
        if (s->pos[t] != ALLOCATED) {
            allocate(s, k, t);
            return;
        }
    }
}

/* Worker k's known indices of one dimension (a permutation, known first). */
static int32_t *known_of(struct hs_bm_strategy *s, int k, int dim)
{
    return s->perm + ((size_t)k * (size_t)s->c.dim + (size_t)dim) * (size_t)s->c.n;
}

/* Move a uniformly drawn unknown index of dimension `dim` to position y. */
static void learn(struct hs_bm_strategy *s, int k, int dim, int y)
{
    int32_t *list = known_of(s, k, dim);
    int r = y + (int)gsl_rng_uniform_int(s->rng, (unsigned long)(s->c.n - y));
    int32_t tmp = list[y];
    list[y] = list[r];
    list[r] = tmp;
}

/* Algorithm 1: new a_i, b_j; tasks (i, j') for j' ∈ J ∪ {j}, (i', j) for i' ∈ I. */
static void dynamic_outer(struct hs_bm_strategy *s, int k, int y)
{
    const int32_t *I = known_of(s, k, 0), *J = known_of(s, k, 1);
    uint32_t n = (uint32_t)s->c.n;
    send(s, k, 0, I[y]);
    send(s, k, 1, J[y]);
    for (int b = 0; b <= y; b++)
        try_allocate(s, k, (uint32_t)I[y] * n + (uint32_t)J[b]);
    for (int a = 0; a < y; a++)
        try_allocate(s, k, (uint32_t)I[a] * n + (uint32_t)J[y]);
}

/* Algorithm 3: new i, j, k extend the known cube I×J×K; send the blocks of
 * its three new faces (3(2y+1)) and take its unallocated tasks with i' = i,
 * or j' = j, or k' = k (3y² + 3y + 1 candidates). */
static void dynamic_matrix(struct hs_bm_strategy *s, int w, int y)
{
    const int32_t *I = known_of(s, w, 0), *J = known_of(s, w, 1), *K = known_of(s, w, 2);
    int i = I[y], j = J[y], k = K[y], n = s->c.n;
    for (int a = 0; a <= y; a++) {
        send(s, w, 0, (long)i * n + K[a]), send(s, w, 0, (long)I[a] * n + k);
        send(s, w, 1, (long)k * n + J[a]), send(s, w, 1, (long)K[a] * n + j);
        send(s, w, 2, (long)i * n + J[a]), send(s, w, 2, (long)I[a] * n + j);
    }
    uint32_t un = (uint32_t)n;
#define ID(i_, j_, k_) (((uint32_t)(i_) * un + (uint32_t)(j_)) * un + (uint32_t)(k_))
    for (int b = 0; b <= y; b++)
        for (int c = 0; c <= y; c++)
            try_allocate(s, w, ID(i, J[b], K[c]));
    for (int a = 0; a < y; a++)
        for (int c = 0; c <= y; c++)
            try_allocate(s, w, ID(I[a], j, K[c]));
    for (int a = 0; a < y; a++)
        for (int b = 0; b < y; b++)
            try_allocate(s, w, ID(I[a], J[b], k));
#undef ID
}

static void dynamic_step(struct hs_bm_strategy *s, int k)
{
    int y = s->known[k];
    if (y == s->c.n) { /* k knows every index: then every task is allocated */
        random_step(s, k);
        return;
    }
    for (int d = 0; d < s->c.dim; d++)
        learn(s, k, d, y);
    s->known[k] = y + 1;
    if (s->c.dim == 2)
        dynamic_outer(s, k, y);
    else
        dynamic_matrix(s, k, y);
    s->phase1_tasks += s->nout;
}

int hs_bm_sent(const struct hs_bm_strategy *s, const uint32_t **blocks)
{
    *blocks = s->sent;
    return s->nsent;
}

int hs_bm_request(struct hs_bm_strategy *s, int k, const uint32_t **tasks)
{
    s->nout = s->nsent = 0;
    *tasks = s->out;
    if (s->left == 0)
        return 0;
    switch (s->c.kind) {
    case HS_BM_RANDOM: random_step(s, k); break;
    case HS_BM_SORTED: sorted_step(s, k); break;
    case HS_BM_DYNAMIC: dynamic_step(s, k); break;
    case HS_BM_TWOPHASE:
        if ((double)s->left > s->c.threshold)
            dynamic_step(s, k);
        else
            random_step(s, k);
        break;
    }
    return s->nout;
}
