/* policies/bm/bm_strategy.h — Beaumont and Marchal's demand-driven strategies
 * for the outer product (d = 2: n² tasks T(i,j) reading a_i, b_j) and the
 * matrix product (d = 3: n³ tasks T(i,j,k) reading A_ik, B_kj, C_ij), as a
 * state machine independent of any runtime (Beaumont and Marchal 2014,
 * §3.2, Algorithms 1–3): a master holds every unallocated task; when worker
 * k asks for work it allocates tasks to k and sends k the blocks they need
 * that k does not hold yet (a worker keeps every block it received).
 *
 *   random    one task drawn uniformly among the unallocated ones
 *   sorted    the first unallocated task in lexicographic order
 *   dynamic   k learns one new index per dimension (drawn uniformly among
 *             those it does not know), receives the blocks that extend its
 *             known square (cube) and takes every unallocated task in it
 *             (Algorithms 1 and 3); a step may find no task (k asks again)
 *   twophase  dynamic while more than `threshold` tasks are unallocated,
 *             then random (Algorithm 2)
 *
 * Task ids: t = i·n + j, and t = (i·n + j)·n + k. Blocks are counted as
 * sent; holdings are bitsets (p·d·n^{d−1} bits). Both the runtime policies
 * (bm_policies.c) and the paper's own event-driven model (bm_model.c) drive
 * this same code. */
#ifndef HS_BM_STRATEGY_H
#define HS_BM_STRATEGY_H

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stdint.h>

enum hs_bm_kind { HS_BM_RANDOM, HS_BM_SORTED, HS_BM_DYNAMIC, HS_BM_TWOPHASE };

struct hs_bm_config {
    int dim;          /* 2: outer product, 3: matrix product */
    int n;            /* blocks per dimension */
    int p;            /* workers */
    enum hs_bm_kind kind;
    double threshold; /* twophase: Phase 1 while more tasks than this are unallocated */
    int order[3];     /* sorted: the indices (0 i, 1 j, 2 k) from slowest to fastest */
};

struct hs_bm_strategy;

/* NULL with hs_fail when the problem has more than HS_BM_MAX_TASKS tasks.
 * rng is the stream every random choice comes from (not owned). */
#define HS_BM_MAX_TASKS 2000000000L
struct hs_bm_strategy *hs_bm_new(const struct hs_bm_config *c, gsl_rng *rng);
void hs_bm_free(struct hs_bm_strategy *s);

/* Serve one request of worker k. Returns the number of tasks allocated,
 * their ids in *tasks (valid until the next call); 0 when a dynamic step
 * found nothing new (the worker asks again) or when nothing is left. */
int hs_bm_request(struct hs_bm_strategy *s, int k, const uint32_t **tasks);

/* The blocks the last request sent, numbered family·n^{d−1} + block (the
 * handle ids of workloads/products.c): a runtime moves exactly these. */
int hs_bm_sent(const struct hs_bm_strategy *s, const uint32_t **blocks);

long hs_bm_left(const struct hs_bm_strategy *s);          /* unallocated tasks */
long hs_bm_blocks(const struct hs_bm_strategy *s);        /* blocks sent so far */
long hs_bm_worker_blocks(const struct hs_bm_strategy *s, int k);
long hs_bm_phase1_tasks(const struct hs_bm_strategy *s);  /* allocated by dynamic steps */
bool hs_bm_holds(const struct hs_bm_strategy *s, int k, int family, long block);

/* The task id of indices (i, j) or (i, j, k); its block in family f (0: a or
 * A_ik, 1: b or B_kj, 2: C_ij) numbered i, j (outer) or row·n + column. */
uint32_t hs_bm_task_id(int dim, int n, const int *idx);
long hs_bm_task_block(int dim, int n, uint32_t task, int family);

#endif
