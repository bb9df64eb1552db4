/* sim/sched.c — the read-only runtime view that policies use (sim/sched.h). */
#include "sim/runtime_internal.h"
#include "sim/wclass.h"
#include "base/util.h"

#include <math.h>

const struct hs_dag *hs_sched_dag(const struct hs_runtime *s)
{
    return s->dag;
}

const struct hs_platform *hs_sched_platform(const struct hs_runtime *s)
{
    return s->pf;
}

int hs_sched_nworkers(const struct hs_runtime *s)
{
    return s->pf->nworkers;
}

const struct hs_worker *hs_sched_worker(const struct hs_runtime *s, int w)
{
    return &s->pf->workers[w];
}

double hs_sched_now(const struct hs_runtime *s)
{
    return s->engine->now(s->engine);
}

const struct hs_spec *hs_sched_params(const struct hs_runtime *s)
{
    return s->params;
}

gsl_rng *hs_sched_rng(struct hs_runtime *s)
{
    return s->rng_policy;
}

void *hs_sched_data(const struct hs_runtime *s)
{
    return s->policy_data;
}

void hs_sched_set_data(struct hs_runtime *s, void *data)
{
    s->policy_data = data;
}

bool hs_sched_can_run(const struct hs_runtime *s, const struct hs_task *t, int w)
{
    return isfinite(hs_runtime_estimate(s, t, w));
}

double hs_sched_exec_estimate(const struct hs_runtime *s, const struct hs_task *t, int w)
{
    return hs_runtime_estimate(s, t, w);
}

/* One route's time, its bandwidth shared as slow says (NULL: not shared). */
static double leg_time(const struct hs_runtime *s, int src, int dst, double bytes, const double *slow)
{
    double f = slow ? fmax(slow[src], slow[dst]) : 1;
    return hs_platform_link_time(s->pf, src, dst, bytes * f);
}

static double move_time(const struct hs_runtime *s, int src, int dst, double bytes, const double *slow)
{
    if (src == dst)
        return 0;
    if (hs_rt_direct_allowed(s, src, dst))
        return leg_time(s, src, dst, bytes, slow);
    return leg_time(s, src, 0, bytes, slow) + leg_time(s, 0, dst, bytes, slow);
}

/* Estimated time to bring h to dst from where it is valid now. */
static double handle_move_time(const struct hs_runtime *s, int h, int dst, const double *slow)
{
    double bytes = s->dag->handles[h].bytes;
    int nn = s->pf->nnodes;
    if (s->arriving && s->arriving[(size_t)h * nn + dst] >= 0)
        return 0;
    double best = INFINITY;
    if (dst != 0 && hs_coh_valid(&s->coh, h, 0)) {
        best = move_time(s, 0, dst, bytes, slow); /* host memory is the preferred source */
    } else { /* the fastest of the copies there are (the order of a minimum does not matter) */
        const int *holders;
        int nh = hs_coh_holders(&s->coh, h, &holders);
        for (int i = 0; i < nh; i++)
            if (holders[i] != dst) {
                double t = move_time(s, holders[i], dst, bytes, slow);
                if (t < best)
                    best = t;
            }
    }
    if (!isfinite(best) && s->arriving && s->arriving[(size_t)h * nn] >= 0)
        best = leg_time(s, 0, dst, bytes, slow); /* landing in host memory */
    return isfinite(best) ? best : 0;
}

double hs_sched_move_time(const struct hs_runtime *s, int src, int dst, double bytes)
{
    return move_time(s, src, dst, bytes, NULL);
}

/* Pairs of workers c̄ averages over: every ordered pair up to
 * HS_MEAN_COMM_ALL of them (2,048 workers), else HS_MEAN_COMM_SAMPLE
 * spread evenly (each worker with the same number of others), so that a
 * platform of 65,535 processors asks for 65,535 routes here, not 4.3 billion
 * (an assumption: the sample's mean stands for the mean of every pair, as
 * it is on a crossbar, where every pair costs the same). */
#define HS_MEAN_COMM_ALL (1L << 22)
#define HS_MEAN_COMM_SAMPLE (1L << 16)

/* c̄ is affine in the bytes: average the latency and per-byte terms of every
 * ordered pair of distinct workers once (or of the sample above); on a
 * platform whose routes are all the same (pf->uniform: flat:P) the mean is
 * that one route's, asked once, whatever P (issue 55). */
void hs_sched_mean_comm(const struct hs_runtime *s, double *lat, double *per_byte)
{
    int P = s->pf->nworkers;
    if (s->pf->uniform) {
        int np = P > 1 ? s->pf->workers[0].node : 0, nq = P > 1 ? s->pf->workers[1].node : 0;
        double t0 = np != nq ? hs_sched_move_time(s, np, nq, 0) : 0;
        *lat = t0;
        *per_byte = np != nq ? hs_sched_move_time(s, np, nq, 1) - t0 : 0;
        return;
    }
    long all = (long)P * (P - 1);
    long each = all <= HS_MEAN_COMM_ALL ? P - 1 : (HS_MEAN_COMM_SAMPLE + P - 1) / P; /* others per worker */
    double l = 0, b = 0;
    for (int p = 0; p < P; p++)
        for (long i = 0; i < each; i++) {
            int q = each == P - 1 ? (int)(i < p ? i : i + 1) : (int)((p + 1 + i * (P - 1) / each) % P);
            int np = s->pf->workers[p].node, nq = s->pf->workers[q].node;
            if (np == nq)
                continue;
            double t0 = hs_sched_move_time(s, np, nq, 0);
            l += t0;
            b += hs_sched_move_time(s, np, nq, 1) - t0;
        }
    long pairs = (long)P * each;
    *lat = pairs ? l / pairs : 0;
    *per_byte = pairs ? b / pairs : 0;
}

double hs_sched_transfer_estimate(const struct hs_runtime *s, const struct hs_task *t, int w)
{
    return hs_sched_transfer_estimate_shared(s, t, w, NULL);
}

double hs_sched_transfer_estimate_shared(const struct hs_runtime *s, const struct hs_task *t, int w,
                                         const double *slow)
{
    int node = s->pf->workers[w].node;
    double sum = 0;
    for (int i = 0; i < t->naccess; i++) {
        const struct hs_access *a = &t->access[i];
        if (!HS_MODE_READS(a->mode) || hs_coh_valid(&s->coh, a->handle, node))
            continue;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = t->access[j].handle == a->handle && HS_MODE_READS(t->access[j].mode);
        if (!seen)
            sum += handle_move_time(s, a->handle, node, slow);
    }
    return sum;
}

double *hs_sched_gpu_factors(const struct hs_runtime *s, double per_gpu)
{
    int gpus = 0;
    for (int w = 0; w < s->pf->nworkers; w++)
        gpus += s->pf->workers[w].arch == HS_ARCH_GPU;
    double *f = hs_xcalloc((size_t)s->pf->nnodes, sizeof(double));
    for (int n = 0; n < s->pf->nnodes; n++)
        f[n] = gpus ? per_gpu * gpus : 1;
    return f;
}

double hs_sched_worker_ready_at(const struct hs_runtime *s, int w)
{
    double now = hs_sched_now(s);
    const struct hs_worker_state *ws = &s->ws[w];
    double t = now;
    if (ws->running >= 0) {
        const struct hs_task_event *ev = &s->ts[ws->running].ev;
        if (ev->start + ev->estimate > t)
            t = ev->start + ev->estimate;
    }
    return t + ws->pending_estimate;
}

int hs_sched_worker_inflight(const struct hs_runtime *s, int w)
{
    return s->ws[w].inflight;
}

bool hs_sched_valid(const struct hs_runtime *s, int handle, int node)
{
    return hs_coh_valid(&s->coh, handle, node);
}

void hs_sched_delay(struct hs_runtime *s, int w, double seconds)
{
    if (seconds > 0)
        s->ws[w].delay += seconds;
}

void hs_sched_set_in_order(struct hs_runtime *s, bool in_order)
{
    s->in_order = in_order;
}

bool hs_sched_prefetch(struct hs_runtime *s, int handle, int node)
{
    int depth = hs_rt_policy_pause(s); /* a copy started may yield to other actors */
    bool started = hs_rt_prefetch(s, handle, node);
    hs_rt_policy_resume(s, depth);
    return started;
}

int hs_sched_holders(const struct hs_runtime *s, int handle, const int **nodes)
{
    return hs_coh_holders(&s->coh, handle, nodes);
}

void hs_sched_offer_mode(struct hs_runtime *s)
{
    s->offers = true;
}

void hs_sched_offer(struct hs_runtime *s, int w, bool work)
{
    if (work)
        s->want_bits[w / 64] |= UINT64_C(1) << (w % 64);
    else
        s->want_bits[w / 64] &= ~(UINT64_C(1) << (w % 64));
}

void hs_sched_offer_arch(struct hs_runtime *s, enum hs_arch arch, bool work)
{
    s->want_arch[arch] = work;
}

void hs_sched_set_predicted_makespan(struct hs_runtime *s, double makespan)
{
    s->predicted_makespan = makespan;
}

void hs_sched_set_clusters(struct hs_runtime *s, int clusters, int edges)
{
    s->clusters = clusters;
    s->cluster_edges = edges;
}

void hs_sched_set_decision(struct hs_runtime *s, enum hs_decision_kind kind)
{
    s->decision = kind;
}

double hs_sched_task_overhead(const struct hs_runtime *s, int w)
{
    return s->opts.costs.task[s->pf->workers[w].arch] + s->opts.costs.decide_push;
}

int hs_sched_arriving(const struct hs_runtime *s, int handle, const int **nodes)
{
    if (!s->narriving) {
        *nodes = NULL;
        return 0;
    }
    *nodes = s->arriving_nodes[handle];
    return s->narriving[handle];
}

/* The classes, made on first use: a cache, which a const runtime may fill. */
static struct hs_wclasses *classes(const struct hs_runtime *s)
{
    if (!s->classes)
        ((struct hs_runtime *)s)->classes = hs_wclasses_new(s);
    return s->classes;
}

int hs_sched_nclasses(const struct hs_runtime *s)
{
    return hs_wclasses_count(classes(s));
}

int hs_sched_class_of(const struct hs_runtime *s, int w)
{
    return hs_wclasses_of(classes(s), w);
}

int hs_sched_class_members(const struct hs_runtime *s, int c, const int **members)
{
    return hs_wclasses_members(classes(s), c, members);
}

int hs_sched_best_worker(struct hs_runtime *s, const struct hs_task *t, const double *queued,
                         const double *slow, hs_fit_fn fit, void *ctx, double *fitness)
{
    classes(s);
    return hs_wclasses_best(s, t, queued, slow, fit, ctx, fitness);
}

void hs_sched_queued_changed(struct hs_runtime *s, int w)
{
    if (s->classes)
        hs_wclasses_touch(s->classes, w);
}
