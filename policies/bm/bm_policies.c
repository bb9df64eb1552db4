/* policies/bm/bm_policies.c — Beaumont and Marchal's strategies as policies of
 * the runtime, for real platforms (Idgraf, flat with a finite bandwidth):
 * the same decisions as in the paper's model, but the blocks take the
 * platform's time to arrive and share its links.
 *
 * Demand driven: when a worker with room asks (pop) and holds no task it was
 * given, the master serves a request of the strategy and the worker takes
 * the tasks of that request one by one (a step of a dynamic strategy that
 * yields nothing is repeated at once). The blocks a request sends start
 * moving at once (prefetches): those its tasks need and, for a dynamic step,
 * the rest of the new row and column (faces of the cube), so that the volume
 * is the strategy's, not only what the tasks read. Workers asking at the same instant
 * (every worker at time 0) are served in random order: the request of the
 * worker that asks triggers those of every other idle worker with no task,
 * shuffled; lowest-index-first would turn sorted allocation into a
 * round-robin (our choice: the paper does not order simultaneous requests).
 * The tasks' own readiness (push) plays no part: they are independent and the
 * strategy keeps its own pool.
 *
 * beta=auto takes the workers' speeds from the runtime's estimates of one
 * task on each; beta=estimate assumes equal speeds (the paper's runtime
 * estimation of β, Beaumont and Marchal 2014, §3.6). */
#include "policies/bm/bm_policies.h"
#include "base/util.h"
#include "policies/bm/bm_analysis.h"
#include "policies/bm/bm_dag.h"
#include "policies/registry.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- names, parameters, configuration -------------------------------------- */

static const struct {
    const char *name;
    int dim;
    enum hs_bm_kind kind;
} names[] = {
    {"random-outer", 2, HS_BM_RANDOM},   {"sorted-outer", 2, HS_BM_SORTED},
    {"dynamic-outer", 2, HS_BM_DYNAMIC}, {"dynamic-outer-2phases", 2, HS_BM_TWOPHASE},
    {"random-matrix", 3, HS_BM_RANDOM},  {"sorted-matrix", 3, HS_BM_SORTED},
    {"dynamic-matrix", 3, HS_BM_DYNAMIC}, {"dynamic-matrix-2phases", 3, HS_BM_TWOPHASE},
};

bool hs_bm_policy_kind(const char *name, int *dim, enum hs_bm_kind *kind)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, name) == 0) {
            *dim = names[i].dim;
            *kind = names[i].kind;
            return true;
        }
    return false;
}

static const struct hs_param twophase_params[] = {
    {.name = "beta", .type = HS_P_DOUBLE, .defval = "auto", .choices = "auto|estimate",
     .range = "[0,inf]",
     .help = "Phase 2 starts when e^-beta of the tasks are left; auto: the analysis' optimum for "
             "the workers' speeds; estimate: for equal speeds (the paper's Section 3.6)"},
    {.name = "phase2", .type = HS_P_DOUBLE, .defval = "beta", .choices = "beta", .range = "[0,1]",
     .help = "share of the tasks left to Phase 2 (overrides beta: beta = -ln phase2)"},
    {0},
};

static const struct hs_param sorted_outer_params[] = {
    {.name = "order", .type = HS_P_CHOICE, .defval = "ij", .choices = "ij|ji",
     .help = "lexicographic order, slowest index first"},
    {0},
};

static const struct hs_param sorted_matrix_params[] = {
    {.name = "order", .type = HS_P_CHOICE, .defval = "ijk", .choices = "ijk|ikj|jik|jki|kij|kji",
     .help = "lexicographic order, slowest index first"},
    {0},
};

static double twophase_beta(const struct hs_spec *spec, int dim, int n, int p, const double *speeds,
                            const char **how)
{
    const char *phase2 = hs_spec_get(spec, "phase2"), *beta = hs_spec_get(spec, "beta");
    if (phase2 && strcmp(phase2, "beta") != 0) {
        *how = "phase2";
        return -log(hs_spec_double(spec, "phase2"));
    }
    bool est = strcmp(beta, "estimate") == 0;
    if (!est && strcmp(beta, "auto") != 0) {
        *how = "given";
        return hs_spec_double(spec, "beta");
    }
    struct hs_bm_analysis a;
    if (hs_bm_analysis_init(&a, dim, n, p, est ? NULL : speeds))
        return NAN;
    double b = hs_bm_beta_auto(&a, how);
    hs_bm_analysis_free(&a);
    return b;
}

int hs_bm_policy_config(const struct hs_spec *spec, int n, int p, const double *speeds,
                        struct hs_bm_config *c, double *beta, const char **how)
{
    int dim;
    enum hs_bm_kind kind;
    if (!hs_bm_policy_kind(spec->name, &dim, &kind))
        return hs_fail("policy %s is not one of Beaumont and Marchal's", spec->name);
    *c = (struct hs_bm_config){dim, n, p, kind, 0, {0, 1, 2}};
    *beta = NAN;
    *how = "";
    const char *order = hs_spec_get(spec, "order");
    for (int m = 0; order && m < dim; m++)
        c->order[m] = order[m] - 'i';
    if (kind == HS_BM_TWOPHASE) {
        *beta = twophase_beta(spec, dim, n, p, speeds, how);
        if (isnan(*beta))
            return -1;
        c->threshold = exp(-*beta) * pow(n, dim);
    }
    return 0;
}

/* ---- the runtime policies ---------------------------------------------------- */

struct batch {
    uint32_t *task;
    int head, len, cap;
};

struct bm {
    struct hs_bm_strategy *st;
    struct batch *given;  /* per worker: tasks allocated to it, not yet taken */
};

static int bm_init(struct hs_runtime *s)
{
    const struct hs_spec *spec = hs_sched_params(s);
    int dim = 0, p = hs_sched_nworkers(s);
    enum hs_bm_kind kind;
    hs_bm_policy_kind(spec->name, &dim, &kind);
    struct hs_bm_shape shape;
    if (hs_bm_dag_shape(hs_sched_dag(s), dim, &shape))
        return -1;
    double *speeds = hs_xmalloc((size_t)p * sizeof *speeds), beta;
    hs_bm_worker_speeds(s, speeds);
    struct hs_bm_config c;
    const char *how;
    int rc = hs_bm_policy_config(spec, shape.n, p, speeds, &c, &beta, &how);
    free(speeds);
    struct hs_bm_strategy *st = rc ? NULL : hs_bm_new(&c, hs_sched_rng(s));
    if (!st)
        return -1;
    struct bm *b = hs_xcalloc(1, sizeof *b);
    b->st = st;
    b->given = hs_xcalloc((size_t)p, sizeof *b->given);
    hs_sched_set_data(s, b);
    return 0;
}

static void bm_push(struct hs_runtime *s, struct hs_task *t)
{
    (void)s, (void)t; /* every task is ready at once; the strategy keeps its own pool */
}

/* Blocks to send after a round. */
struct sends {
    struct send {
        int worker;
        uint32_t block;
    } *v;
    size_t n, cap;
};

/* One request of worker w, repeated while a dynamic step finds nothing:
 * its tasks go to w's batch, the blocks it sent to `out`. */
static void serve(struct bm *b, int w, struct sends *out)
{
    struct batch *q = &b->given[w];
    int got = 0;
    while (hs_bm_left(b->st) > 0 && got == 0) {
        const uint32_t *tasks, *blocks;
        got = hs_bm_request(b->st, w, &tasks);
        int nb = hs_bm_sent(b->st, &blocks);
        HS_GROW(out->v, out->cap, out->n + (size_t)nb);
        for (int i = 0; i < nb; i++)
            out->v[out->n++] = (struct send){w, blocks[i]};
        if (got > q->cap) {
            q->cap = got;
            q->task = hs_xrealloc(q->task, (size_t)got * sizeof *q->task);
        }
        if (got)
            memcpy(q->task, tasks, (size_t)got * sizeof *tasks);
    }
    q->head = 0;
    q->len = got;
}

/* w asks with nothing given: serve it and every other idle worker with
 * nothing given (they ask at this same instant), in random order. Then the
 * master sends the blocks of these requests at once (the paper's "send a_i
 * and b_j to P_k"), whether or not one of their tasks needs them. The
 * prefetches come last: an engine call may run other workers' callbacks
 * (and their pops) before it returns, so the state must be whole by then. */
static void serve_round(struct hs_runtime *s, struct bm *b, int w)
{
    int m = 0, *round = hs_xmalloc((size_t)hs_sched_nworkers(s) * sizeof *round);
    round[m++] = w;
    for (int v = 0; v < hs_sched_nworkers(s); v++)
        if (v != w && b->given[v].len == 0 &&
            hs_sched_worker_inflight(s, v) < hs_sched_worker(s, v)->window)
            round[m++] = v;
    gsl_ran_shuffle(hs_sched_rng(s), round, (size_t)m, sizeof *round);
    struct sends out = {0};
    for (int i = 0; i < m; i++)
        serve(b, round[i], &out);
    for (size_t i = 0; i < out.n; i++)
        hs_sched_prefetch(s, (int)out.v[i].block, hs_sched_worker(s, out.v[i].worker)->node);
    free(out.v), free(round);
}

static struct hs_task *bm_pop(struct hs_runtime *s, int w)
{
    struct bm *b = hs_sched_data(s);
    struct batch *q = &b->given[w];
    if (q->len == 0 && hs_bm_left(b->st) > 0)
        serve_round(s, b, w);
    if (q->len == 0)
        return NULL;
    q->len--;
    return &hs_sched_dag(s)->tasks[q->task[q->head++]];
}

static void bm_fini(struct hs_runtime *s)
{
    struct bm *b = hs_sched_data(s);
    if (!b)
        return;
    for (int w = 0; w < hs_sched_nworkers(s); w++)
        free(b->given[w].task);
    free(b->given);
    hs_bm_free(b->st);
    free(b);
}

#define BM_POLICY(var, pname, params_, text)                                                        \
    const struct hs_policy var = {                                                                  \
        .name = pname, .summary = text, .params = params_, .init = bm_init,                          \
        .push = bm_push, .pop = bm_pop, .fini = bm_fini,                                             \
    }

BM_POLICY(hs_policy_random_outer, "random-outer", NULL,
          "outer product (Beaumont-Marchal): a uniformly drawn unallocated task per request");
BM_POLICY(hs_policy_sorted_outer, "sorted-outer", sorted_outer_params,
          "outer product: the next unallocated task in lexicographic order per request");
BM_POLICY(hs_policy_dynamic_outer, "dynamic-outer", NULL,
          "outer product: a new a_i and b_j per request, with every task they complete (Alg. 1)");
BM_POLICY(hs_policy_dynamic_outer_2phases, "dynamic-outer-2phases", twophase_params,
          "outer product: dynamic-outer, then random-outer for the last e^-beta of the tasks (Alg. 2)");
BM_POLICY(hs_policy_random_matrix, "random-matrix", NULL,
          "matrix product (Beaumont-Marchal): a uniformly drawn unallocated task per request");
BM_POLICY(hs_policy_sorted_matrix, "sorted-matrix", sorted_matrix_params,
          "matrix product: the next unallocated task in lexicographic order per request");
BM_POLICY(hs_policy_dynamic_matrix, "dynamic-matrix", NULL,
          "matrix product: new i, j, k per request, with every task of the grown cube (Alg. 3)");
BM_POLICY(hs_policy_dynamic_matrix_2phases, "dynamic-matrix-2phases", twophase_params,
          "matrix product: dynamic-matrix, then random-matrix for the last e^-beta of the tasks");
