/* policies/dualapprox.c — DADA's dual approximation on a batch of independent
 * tasks (policies/dualapprox.h; Bleuse et al. 2014, §3.2, Algorithm 2): the orders
 * that do not depend on the guess, ASSIGN for one guess, and the binary
 * search over guesses. */
#include "policies/dualapprox.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>

struct hs_dualapprox {
    struct hs_da_problem p;
    int ncpus, ngpus;
    double *cpu, *gpu;   /* per task: class costs c^CPU, c^GPU (minima over the class) */
    double *backlog;     /* per worker: initial load (ready - now with absolute, else 0) */
    int *aff_order;      /* tasks with an affinity: decreasing score, speedup, activation */
    int naff;
    int *gpu_order;      /* every task: decreasing speedup, then activation order */
    int *cpu_order;      /* every task: the CPU list order */
};

/* ---- orders ----------------------------------------------------------------- */

struct sort_key {
    double first, second; /* both decreasing */
    int task;             /* then increasing: activation order */
};

static int cmp_keys(const void *a, const void *b)
{
    const struct sort_key *x = a, *y = b;
    if (x->first != y->first)
        return x->first > y->first ? -1 : 1;
    if (x->second != y->second)
        return x->second > y->second ? -1 : 1;
    return x->task - y->task;
}

static void sort_tasks(struct sort_key *keys, int n, int *order)
{
    qsort(keys, (size_t)n, sizeof *keys, cmp_keys);
    for (int i = 0; i < n; i++)
        order[i] = keys[i].task;
}

/* S_i = c^CPU / c^GPU: 0 for tasks without a GPU version, infinite for tasks
 * without a CPU one. */
static double speedup(double cpu, double gpu)
{
    if (!isfinite(gpu))
        return 0;
    if (!isfinite(cpu) || gpu <= 0)
        return INFINITY;
    return cpu / gpu;
}

void hs_da_class_costs(int ntasks, int nworkers, const bool *is_gpu, const double *cost, double *cpu,
                       double *gpu)
{
    for (int i = 0; i < ntasks; i++) {
        cpu[i] = gpu[i] = INFINITY;
        for (int w = 0; w < nworkers; w++) {
            double c = cost[(size_t)i * nworkers + w];
            double *class_min = is_gpu[w] ? &gpu[i] : &cpu[i];
            if (c < *class_min)
                *class_min = c;
        }
    }
}

void hs_da_speedup_order(int ntasks, const double *cpu, const double *gpu, int *order)
{
    struct sort_key *keys = hs_xmalloc((size_t)(ntasks + 1) * sizeof *keys);
    for (int i = 0; i < ntasks; i++)
        keys[i] = (struct sort_key){speedup(cpu[i], gpu[i]), 0, i};
    sort_tasks(keys, ntasks, order);
    free(keys);
}

double hs_da_class_sum(int ntasks, const double *cpu, const double *gpu)
{
    double sum = 0;
    for (int i = 0; i < ntasks; i++) {
        double c = cpu[i], g = gpu[i];
        sum += isfinite(c) && isfinite(g) ? fmax(c, g) : isfinite(c) ? c : isfinite(g) ? g : 0;
    }
    return sum;
}

static void build_orders(struct hs_dualapprox *da)
{
    const struct hs_da_problem *p = &da->p;
    int n = p->ntasks;
    struct sort_key *keys = hs_xmalloc((size_t)(n + 1) * sizeof *keys);
    for (int i = 0; i < n; i++)
        if (p->aff_worker && p->aff_worker[i] != HS_DA_NO_AFFINITY)
            keys[da->naff++] = (struct sort_key){p->aff_score[i], speedup(da->cpu[i], da->gpu[i]), i};
    sort_tasks(keys, da->naff, da->aff_order);
    hs_da_speedup_order(n, da->cpu, da->gpu, da->gpu_order);
    for (int i = 0; i < n; i++)
        keys[i] = (struct sort_key){p->cpu_order == HS_DA_CPU_LONGEST ? da->cpu[i] : 0, 0, i};
    sort_tasks(keys, n, da->cpu_order);
    free(keys);
}

struct hs_dualapprox *hs_da_new(const struct hs_da_problem *p)
{
    struct hs_dualapprox *da = hs_xcalloc(1, sizeof *da);
    int n = p->ntasks, P = p->nworkers;
    da->p = *p;
    da->cpu = hs_xmalloc((size_t)(n + 1) * sizeof(double));
    da->gpu = hs_xmalloc((size_t)(n + 1) * sizeof(double));
    da->backlog = hs_xmalloc((size_t)(P + 1) * sizeof(double));
    da->aff_order = hs_xmalloc((size_t)(n + 1) * sizeof(int));
    da->gpu_order = hs_xmalloc((size_t)(n + 1) * sizeof(int));
    da->cpu_order = hs_xmalloc((size_t)(n + 1) * sizeof(int));
    for (int w = 0; w < P; w++) {
        da->backlog[w] = p->absolute ? fmax(p->ready[w] - p->now, 0) : 0;
        p->is_gpu[w] ? da->ngpus++ : da->ncpus++;
    }
    hs_da_class_costs(n, P, p->is_gpu, p->cost, da->cpu, da->gpu);
    build_orders(da);
    return da;
}

void hs_da_free(struct hs_dualapprox *da)
{
    if (!da)
        return;
    free(da->cpu), free(da->gpu), free(da->backlog);
    free(da->aff_order), free(da->gpu_order), free(da->cpu_order);
    free(da);
}

void hs_da_schedule_init(struct hs_da_schedule *s, int ntasks, int nworkers)
{
    s->worker = hs_xmalloc((size_t)(ntasks + 1) * sizeof(int));
    s->rank = hs_xmalloc((size_t)(ntasks + 1) * sizeof(int));
    s->load = hs_xmalloc((size_t)(nworkers + 1) * sizeof(double));
    s->feasible = false;
}

void hs_da_schedule_free(struct hs_da_schedule *s)
{
    free(s->worker), free(s->rank), free(s->load);
}

double hs_da_upper(const struct hs_dualapprox *da)
{
    double backlog = 0;
    for (int w = 0; w < da->p.nworkers; w++)
        backlog = fmax(backlog, da->backlog[w]);
    return hs_da_class_sum(da->p.ntasks, da->cpu, da->gpu) + backlog;
}

/* ---- ASSIGN(R, λ) -------------------------------------------------------------- */

/* One guess in progress: the allocation and each worker's predicted finish. */
struct attempt {
    const struct hs_dualapprox *da;
    struct hs_da_schedule *s;
    double *finish; /* F_w = ready + batch load */
    int next_rank;
};

enum { CPU_CLASS, GPU_CLASS };

static double cost_of(const struct hs_dualapprox *da, int i, int w)
{
    return da->p.cost[(size_t)i * da->p.nworkers + w];
}

/* The worker of a class whose load is under `below` where task i finishes
 * first; ties to the lowest index; -1 if none. */
static int earliest_finish(const struct attempt *a, int i, int class, double below)
{
    const struct hs_da_problem *p = &a->da->p;
    int best = -1;
    double best_f = INFINITY;
    for (int w = 0; w < p->nworkers; w++) {
        if (p->is_gpu[w] != (class == GPU_CLASS) || a->s->load[w] >= below)
            continue;
        double f = a->finish[w] + cost_of(a->da, i, w);
        if (f < best_f) {
            best_f = f;
            best = w;
        }
    }
    return best;
}

static void place(struct attempt *a, int i, int w)
{
    double c = cost_of(a->da, i, w);
    a->s->worker[i] = w;
    a->s->rank[i] = a->next_rank++;
    a->s->load[w] += c;
    a->finish[w] += c;
}

/* Lines 5–7: each task with an affinity goes to its affinity worker while
 * that worker's load is below αλ; the task that crosses αλ is kept. */
static void affinity_phase(struct attempt *a, double lambda)
{
    const struct hs_dualapprox *da = a->da;
    for (int k = 0; k < da->naff; k++) {
        int i = da->aff_order[k], w = da->p.aff_worker[i];
        if (w == HS_DA_ANY_CPU)
            w = earliest_finish(a, i, CPU_CLASS, INFINITY);
        if (w >= 0 && isfinite(cost_of(da, i, w)) && a->s->load[w] < da->p.alpha * lambda)
            place(a, i, w);
    }
}

/* The GPUs are full: every GPU loaded up to λ (the default), or their total
 * up to kλ (fill=area). */
static bool gpus_full(const struct attempt *a, double lambda)
{
    const struct hs_da_problem *p = &a->da->p;
    double sum = 0;
    bool some_below = false;
    for (int w = 0; w < p->nworkers; w++)
        if (p->is_gpu[w]) {
            sum += a->s->load[w];
            some_below |= a->s->load[w] < lambda;
        }
    return p->fill == HS_DA_FILL_AREA ? sum >= a->da->ngpus * lambda : !some_below;
}

/* Lines 8–16 on the tasks left by the affinity phase: the basic 2-dual
 * approximation. Returns false if a task is longer than λ on both classes. */
static bool balance_phase(struct attempt *a, double lambda)
{
    const struct hs_dualapprox *da = a->da;
    int n = da->p.ntasks;
    for (int i = 0; i < n; i++)
        if (a->s->worker[i] < 0 && da->cpu[i] > lambda && da->gpu[i] > lambda)
            return false;
    for (int k = 0; k < n; k++) { /* fit only on GPUs, by decreasing speedup */
        int i = da->gpu_order[k];
        if (a->s->worker[i] < 0 && da->cpu[i] > lambda)
            place(a, i, earliest_finish(a, i, GPU_CLASS, INFINITY));
    }
    for (int k = 0; k < n && !gpus_full(a, lambda); k++) { /* the largest speedups fill the GPUs */
        int i = da->gpu_order[k];
        if (a->s->worker[i] >= 0 || da->gpu[i] > lambda)
            continue;
        int g = earliest_finish(a, i, GPU_CLASS, da->p.fill == HS_DA_FILL_AREA ? INFINITY : lambda);
        if (g >= 0) /* (-1: only filled GPUs can run it: it goes to the cores) */
            place(a, i, g);
    }
    for (int k = 0; k < n; k++) { /* the rest (each at most λ there) on the cores */
        int i = da->cpu_order[k];
        if (a->s->worker[i] < 0)
            place(a, i, earliest_finish(a, i, CPU_CLASS, INFINITY));
    }
    return true;
}

bool hs_da_assign(const struct hs_dualapprox *da, double lambda, struct hs_da_schedule *out)
{
    const struct hs_da_problem *p = &da->p;
    double *finish = hs_xmalloc((size_t)(p->nworkers + 1) * sizeof *finish);
    for (int w = 0; w < p->nworkers; w++) {
        out->load[w] = da->backlog[w];
        finish[w] = p->ready[w];
    }
    for (int i = 0; i < p->ntasks; i++)
        out->worker[i] = out->rank[i] = -1;
    struct attempt a = {da, out, finish, 0};
    if (p->alpha > 0)
        affinity_phase(&a, lambda);
    out->feasible = balance_phase(&a, lambda);
    for (int w = 0; w < p->nworkers && out->feasible; w++) /* line 10: fit into (ρ+α)λ */
        out->feasible = out->load[w] <= (p->rho + p->alpha) * lambda;
    free(finish);
    return out->feasible;
}

/* ---- the binary search (lines 1–4, 10–18) ------------------------------------ */

double hs_da_bisect(double upper, double eps, bool (*try_guess)(void *ctx, double lambda), void *ctx,
                    int *iterations)
{
    double lower = 0;
    int it = 0;
    try_guess(ctx, upper); /* the fallback: the first upper bound always fits */
    while (upper - lower > eps) {
        double lambda = (upper + lower) / 2;
        if (try_guess(ctx, lambda))
            upper = lambda; /* keep current schedule */
        else
            lower = lambda; /* reject it */
        it++;
    }
    if (iterations)
        *iterations = it;
    return upper;
}

struct search {
    const struct hs_dualapprox *da;
    struct hs_da_schedule *kept, scratch;
    bool have;
};

static bool try_assign(void *ctx, double lambda)
{
    struct search *s = ctx;
    bool fits = hs_da_assign(s->da, lambda, &s->scratch);
    if (fits || !s->have) { /* keep it: swap the arrays */
        struct hs_da_schedule t = *s->kept;
        *s->kept = s->scratch;
        s->scratch = t;
        s->have = true;
    }
    return fits;
}

double hs_da_solve(const struct hs_dualapprox *da, struct hs_da_schedule *out, int *iterations)
{
    struct search s = {.da = da, .kept = out};
    hs_da_schedule_init(&s.scratch, da->p.ntasks, da->p.nworkers);
    double upper = hs_da_upper(da);
    double eps = fmax(da->p.eps_rel * upper, da->p.eps_abs);
    double lambda = hs_da_bisect(upper, eps, try_assign, &s, iterations);
    hs_da_schedule_free(&s.scratch);
    return lambda;
}
