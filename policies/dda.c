/* policies/dda.c — DDA, XKaapi's Distributed Dual Approximation ("gdual";
 * Lima's thesis §6.3.3, Algorithm 7; Kedad-Sidhoum et al. 2013),
 * the predecessor of DADA without affinity. Per batch of ready tasks, a binary
 * search on the guess λ (policies/dualapprox.c's bisection) over a DualHP
 * partition between the two classes:
 *
 *   c_i = alpha·p(i,CPU) + beta·C_i(CPU),  g_i = alpha·p(i,GPU) + beta·C_i(GPU)
 *         (the best worker of each class; C the estimated input transfers)
 *   reject λ if a task has c_i > λ and g_i > λ;
 *   tasks with c_i > λ on the GPUs, tasks with g_i > λ on the cores; the others
 *   by decreasing c_i/g_i onto the GPUs while L_gpu + Σ g ≤ kλ, the rest
 *   (from the first that overflows) onto the cores;
 *   fits when L_gpu + Σ_GPU g ≤ kλ and L_cpu + Σ_CPU c ≤ mλ (accept=area),
 *   where L is the work the class already holds (0 with ignore_load=1); or
 *   when the mapping below finishes every worker within 2λ (accept=makespan).
 *
 * The kept partition is mapped by earliest finish time: GPU tasks by
 * decreasing g_i onto the GPUs, CPU tasks by decreasing c_i onto the cores.
 * C is latency + bytes/bandwidth (Eq. 6.1) or, comm=naccel, with
 * bytes/bandwidth times the GPUs in use, as XKaapi 2.1 (Eq. 6.2, §6.2). */
#include "policies/batchq.h"
#include "base/util.h"
#include "policies/dualapprox.h"
#include "policies/registry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct hs_param dda_params[] = {
    {.name = "alpha", .type = HS_P_DOUBLE, .defval = "1", .range = "[0,inf)",
     .help = "weight of the estimated execution time (KAAPI_GDUAL_ALPHA)"},
    {.name = "beta", .type = HS_P_DOUBLE, .defval = "1", .range = "[0,inf)",
     .help = "weight of the estimated transfer time (KAAPI_GDUAL_BETA)"},
    {.name = "eps", .type = HS_P_DOUBLE, .defval = "1e-3", .range = "(0,1)",
     .help = "precision of the binary search, relative to the initial upper bound"},
    {.name = "ignore_load", .type = HS_P_BOOL, .defval = "0",
     .help = "leave out the work the workers already hold"},
    {.name = "accept", .type = HS_P_CHOICE, .defval = "area", .choices = "area|makespan",
     .help = "a guess fits by the classes' areas, or by the mapping's makespan within 2*lambda"},
    {.name = "comm", .type = HS_P_CHOICE, .defval = "plain", .choices = "plain|naccel",
     .help = "a transfer predicted as latency + bytes/bandwidth (Lima 2014, Eq. 6.1), or with "
             "bytes/bandwidth times the GPUs in use (naccel: XKaapi 2.1's Eq. 6.2)"},
    {0},
};

struct dda {
    struct hs_batchq bq;
    double alpha, beta, eps;
    bool ignore_load, by_makespan;
    double *slow; /* comm=naccel: the factor on bytes/bandwidth per memory node */
};

static int dda_init(struct hs_runtime *s)
{
    const struct hs_spec *p = hs_sched_params(s);
    struct dda *d = hs_xcalloc(1, sizeof *d);
    hs_batchq_init(&d->bq, s);
    hs_sched_set_decision(s, HS_DECIDE_WORKERS); /* the dual approximation weighs every worker */
    d->alpha = hs_spec_double(p, "alpha");
    d->beta = hs_spec_double(p, "beta");
    d->eps = hs_spec_double(p, "eps");
    d->ignore_load = hs_spec_bool(p, "ignore_load");
    d->by_makespan = strcmp(hs_spec_get(p, "accept"), "makespan") == 0;
    if (strcmp(hs_spec_get(p, "comm"), "naccel") == 0)
        d->slow = hs_sched_gpu_factors(s, 1);
    hs_sched_set_data(s, d);
    return 0;
}

/* One batch: costs per worker and class, and the partition being tried. */
struct batch {
    struct hs_runtime *s;
    struct dda *d;
    struct hs_task **tasks;
    int n, P, m, k;
    bool *is_gpu;          /* per worker */
    double *cost;          /* [i * P + w]: alpha·exec + beta·transfer */
    double *cpu, *gpu;     /* per task: c_i, g_i */
    double *ready, now;    /* per worker */
    double load_cpu, load_gpu;
    int *by_ratio;         /* tasks by decreasing c_i/g_i */
    bool *on_gpu, *kept;   /* per task: the partition tried, the one kept */
    int *worker;           /* per task: the mapping */
};

static int cmp_key_desc(const void *a, const void *b)
{
    const double *x = a, *y = b; /* {key, task}: decreasing key, then activation order */
    if (x[0] != y[0])
        return x[0] > y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

static void describe(struct batch *b)
{
    struct hs_runtime *s = b->s;
    for (int w = 0; w < b->P; w++) {
        b->is_gpu[w] = hs_sched_worker(s, w)->arch == HS_ARCH_GPU;
        b->is_gpu[w] ? b->k++ : b->m++;
        b->ready[w] = hs_batchq_ready(&b->d->bq, s, w);
        double held = b->d->ignore_load ? 0 : b->ready[w] - b->now;
        *(b->is_gpu[w] ? &b->load_gpu : &b->load_cpu) += held;
    }
    for (int i = 0; i < b->n; i++)
        for (int w = 0; w < b->P; w++) {
            double p = hs_sched_exec_estimate(s, b->tasks[i], w), c = INFINITY;
            if (isfinite(p))
                c = b->d->alpha * p +
                    b->d->beta * hs_sched_transfer_estimate_shared(s, b->tasks[i], w, b->d->slow);
            b->cost[(size_t)i * b->P + w] = c;
        }
    hs_da_class_costs(b->n, b->P, b->is_gpu, b->cost, b->cpu, b->gpu);
    hs_da_speedup_order(b->n, b->cpu, b->gpu, b->by_ratio);
}

/* Tasks of one class by decreasing class cost onto that class's workers, each
 * where it finishes first (ties: lowest id). Returns the latest finish. */
static double map_class(struct batch *b, const bool *on_gpu, bool gpu_class, double *finish)
{
    const double *key = gpu_class ? b->gpu : b->cpu;
    double *keys = hs_xmalloc((size_t)(2 * b->n + 1) * sizeof *keys);
    int n = 0;
    for (int i = 0; i < b->n; i++)
        if (on_gpu[i] == gpu_class) {
            keys[2 * n] = key[i];
            keys[2 * n++ + 1] = i;
        }
    qsort(keys, (size_t)n, 2 * sizeof *keys, cmp_key_desc);
    double latest = b->now;
    for (int j = 0; j < n; j++) {
        int i = (int)keys[2 * j + 1], best = -1;
        const double *c = &b->cost[(size_t)i * b->P];
        for (int w = 0; w < b->P; w++)
            if (b->is_gpu[w] == gpu_class && isfinite(c[w]) && (best < 0 || finish[w] + c[w] < finish[best] + c[best]))
                best = w;
        b->worker[i] = best;
        finish[best] += c[best];
        latest = fmax(latest, finish[best]);
    }
    free(keys);
    return latest;
}

/* Map a partition; returns its predicted makespan relative to now. */
static double map_partition(struct batch *b, const bool *on_gpu)
{
    double *finish = hs_xmalloc((size_t)b->P * sizeof *finish);
    memcpy(finish, b->ready, (size_t)b->P * sizeof *finish);
    double end = fmax(map_class(b, on_gpu, true, finish), map_class(b, on_gpu, false, finish));
    free(finish);
    return end - b->now;
}

static bool partition(struct batch *b, double lambda)
{
    double area_gpu = b->load_gpu, area_cpu = b->load_cpu;
    for (int i = 0; i < b->n; i++)
        if (b->cpu[i] > lambda && b->gpu[i] > lambda)
            return false;
    for (int i = 0; i < b->n; i++) {
        b->on_gpu[i] = b->cpu[i] > lambda;
        area_gpu += b->on_gpu[i] ? b->gpu[i] : 0;
    }
    bool overflowed = false; /* after the first overflow, everything else to the cores */
    for (int j = 0; j < b->n; j++) {
        int i = b->by_ratio[j];
        if (b->on_gpu[i] || b->gpu[i] > lambda)
            continue;
        overflowed |= area_gpu + b->gpu[i] > b->k * lambda;
        if (!overflowed) {
            b->on_gpu[i] = true;
            area_gpu += b->gpu[i];
        }
    }
    for (int i = 0; i < b->n; i++)
        area_cpu += b->on_gpu[i] ? 0 : b->cpu[i];
    if (b->d->by_makespan)
        return map_partition(b, b->on_gpu) <= 2 * lambda;
    return area_gpu <= b->k * lambda && area_cpu <= b->m * lambda;
}

static bool try_guess(void *ctx, double lambda)
{
    struct batch *b = ctx;
    bool fits = partition(b, lambda);
    if (fits)
        memcpy(b->kept, b->on_gpu, (size_t)b->n * sizeof *b->kept);
    return fits;
}

static double upper_bound(const struct batch *b)
{
    return hs_da_class_sum(b->n, b->cpu, b->gpu) + (b->m ? b->load_cpu / b->m : 0) +
           (b->k ? b->load_gpu / b->k : 0);
}

static void schedule_batch(struct hs_runtime *s, struct dda *d)
{
    struct batch b = {.s = s, .d = d, .P = hs_sched_nworkers(s), .now = hs_sched_now(s)};
    b.n = hs_batchq_take(&d->bq, &b.tasks);
    b.is_gpu = hs_xcalloc((size_t)b.P, sizeof *b.is_gpu);
    b.ready = hs_xmalloc((size_t)b.P * sizeof *b.ready);
    b.cost = hs_xmalloc((size_t)b.n * b.P * sizeof *b.cost);
    b.cpu = hs_xmalloc((size_t)b.n * sizeof *b.cpu);
    b.gpu = hs_xmalloc((size_t)b.n * sizeof *b.gpu);
    b.by_ratio = hs_xmalloc((size_t)b.n * sizeof *b.by_ratio);
    b.on_gpu = hs_xmalloc((size_t)b.n * sizeof *b.on_gpu);
    b.kept = hs_xmalloc((size_t)b.n * sizeof *b.kept);
    b.worker = hs_xmalloc((size_t)b.n * sizeof *b.worker);
    describe(&b);
    double upper = upper_bound(&b);
    for (int i = 0; i < b.n; i++) /* in case no guess fits: each task on its faster class */
        b.kept[i] = b.gpu[i] < b.cpu[i];
    hs_da_bisect(upper, d->eps * upper, try_guess, &b, NULL);
    map_partition(&b, b.kept);
    for (int i = 0; i < b.n; i++)
        hs_batchq_assign(&d->bq, b.tasks[i], b.worker[i], b.cost[(size_t)i * b.P + b.worker[i]]);
    free(b.tasks), free(b.is_gpu), free(b.ready), free(b.cost), free(b.cpu), free(b.gpu);
    free(b.by_ratio), free(b.on_gpu), free(b.kept), free(b.worker);
}

static void dda_push(struct hs_runtime *s, struct hs_task *t)
{
    struct dda *d = hs_sched_data(s);
    hs_batchq_add(&d->bq, t);
}

static struct hs_task *dda_pop(struct hs_runtime *s, int w)
{
    struct dda *d = hs_sched_data(s);
    if (d->bq.batch.len)
        schedule_batch(s, d);
    return hs_batchq_pop(&d->bq, w);
}

static void dda_fini(struct hs_runtime *s)
{
    struct dda *d = hs_sched_data(s);
    hs_batchq_free(&d->bq);
    free(d->slow);
    free(d);
}

const struct hs_policy hs_policy_dda = {
    .name = "dda",
    .summary = "XKaapi's DDA (Lima 2014): per batch of ready tasks, a dual approximation "
               "(binary search on lambda) splitting the batch between cores and GPUs by area",
    .params = dda_params,
    .init = dda_init,
    .push = dda_push,
    .pop = dda_pop,
    .fini = dda_fini,
};
