/* sim/runtime.c — the life of a task in the runtime.
 *
 *   ready   all predecessors done: pushed to the policy
 *   popped  a worker with room in its window took it from the policy
 *   alloc   room made in the worker's data cache (evictions may write back)
 *   fetch   every input it reads made valid on the worker's memory node
 *   queued  in the worker's execution FIFO (a GPU's kernel stream)
 *   run     executed by the engine for its actual duration
 *   done    written data valid only there; successors become ready
 *
 * After the last task, every datum whose only valid copy is on a device is
 * written back to host memory (the final flush, on by default). A CPU core
 * holds one task at a time (its fetches block it); a GPU or a flat processor
 * holds up to `window` tasks, so the next task's inputs move while the
 * current kernel runs. */
#include "sim/runtime_internal.h"
#include "sim/wclass.h"
#include "base/rng.h"
#include "base/util.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void hs_runtime_opts_defaults(struct hs_runtime_opts *o)
{
    o->noise = 0;
    o->seed = 1;
    o->flush = true;
    hs_machine_params_defaults(&o->machine);
    for (int i = 0; hs_costs_props[i]; i++)
        hs_costs_set(&o->costs, i, NAN); /* from the platform, else none */
}

void hs_rt_fail(struct hs_runtime *rt, const char *fmt, ...)
{
    if (rt->error)
        return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    rt->error = hs_xstrdup(buf);
    if (!rt->finished) {
        rt->finished = true;
        rt->makespan = rt->engine->now(rt->engine);
        rt->engine->finished(rt->engine);
    }
}

/* ---- the policy's timer ---------------------------------------------------- */

void hs_rt_policy_enter(struct hs_runtime *rt)
{
    if (rt->policy_depth++ == 0)
        rt->policy_t0 = hs_now();
}

void hs_rt_policy_leave(struct hs_runtime *rt)
{
    if (--rt->policy_depth == 0)
        rt->policy_wall += hs_now() - rt->policy_t0;
}

/* Stop the timer of the policy call under way (if any) before a call that
 * may yield; returns what hs_rt_policy_resume needs to start it again. Each
 * actor keeps its own depth on its own stack meanwhile. */
int hs_rt_policy_pause(struct hs_runtime *rt)
{
    int depth = rt->policy_depth;
    rt->policy_yields++;
    if (depth > 0)
        rt->policy_wall += hs_now() - rt->policy_t0;
    rt->policy_depth = 0;
    return depth;
}

void hs_rt_policy_resume(struct hs_runtime *rt, int depth)
{
    rt->policy_depth = depth;
    if (depth > 0)
        rt->policy_t0 = hs_now();
}

static void note_room(struct hs_runtime *rt, int w);

/* ---- estimates ------------------------------------------------------------ */

/* Cost of t on w with the timing-table column `table` (estimates or true
 * durations, which differ only for calibrated entries), before the
 * gpu_speed and cpu_speed options; INFINITY: cannot run. */
static double raw_cost(const struct hs_runtime *rt, const struct hs_task *t, int w, const double *table)
{
    const struct hs_worker *wk = &rt->pf->workers[w];
    if (!(t->arch_mask & HS_ARCH_BIT(wk->arch)))
        return INFINITY;
    if (rt->task_bytes[t->id] > rt->pf->nodes[wk->node].capacity)
        return INFINITY; /* its data do not fit in w's memory: no policy may pick w */
    if (t->proc_cost && w < rt->dag->nproc_costs) {
        double c = t->proc_cost[w];
        return c >= 0 ? c : INFINITY;
    }
    if (!isnan(t->arch_cost[wk->arch]))
        return t->arch_cost[wk->arch] >= 0 ? t->arch_cost[wk->arch] : INFINITY;
    if (rt->kernel_in_table[t->kernel]) {
        double v = table[(size_t)t->id * HS_NARCH + wk->arch];
        return isnan(v) ? INFINITY : v;
    }
    if (t->flops > 0 && wk->speed > 0)
        return t->flops / wk->speed;
    return INFINITY;
}

/* GPU kernels take 1/gpu_speed of their time and CPU kernels 1/cpu_speed
 * (the sensitivity options), those of opts.machine.gpu_kernels (cpu_kernels) only
 * when it names some. */
static double cost(const struct hs_runtime *rt, const struct hs_task *t, int w, const double *table)
{
    double v = raw_cost(rt, t, w, table);
    enum hs_arch arch = rt->pf->workers[w].arch;
    if (arch == HS_ARCH_GPU && rt->gpu_scaled[t->kernel])
        return v / rt->opts.machine.gpu_speed;
    if (arch == HS_ARCH_CPU && rt->cpu_scaled[t->kernel])
        return v / rt->opts.machine.cpu_speed;
    return v;
}

/* Which kernels a speed option scales: every one (kernels NULL), or those
 * `kernels` names (':'-separated; platforms/resolve.c checked the names
 * against the platform's timing table). */
static bool *scaled_kernels(const struct hs_dag *dag, const char *kernels)
{
    bool *scaled = hs_xcalloc((size_t)dag->nkernels + 1, sizeof(bool));
    for (int k = 0; k < dag->nkernels; k++)
        scaled[k] = !kernels;
    if (!kernels)
        return scaled;
    char *copy = hs_xstrdup(kernels), *save = NULL;
    for (char *name = strtok_r(copy, ":", &save); name; name = strtok_r(NULL, ":", &save)) {
        int k = hs_dag_find_kernel(dag, name); /* -1: no task of this DAG has it */
        if (k >= 0)
            scaled[k] = true;
    }
    free(copy);
    return scaled;
}

/* What the policies see: the kernel and the runtime's work around it. */
double hs_runtime_estimate(const struct hs_runtime *rt, const struct hs_task *t, int w)
{
    return cost(rt, t, w, rt->est_arch) + rt->opts.costs.task[rt->pf->workers[w].arch];
}

/* What the engine executes (before noise): the table's own durations. */
static double true_duration(const struct hs_runtime *rt, const struct hs_task *t, int w)
{
    return cost(rt, t, w, rt->true_arch);
}

/* What t takes on w, started now: the timing table's co-running curve
 * where it has one (platforms/perfmodel.h), else its duration. On a core:
 * for the CPU workers busy now (w included), and whether host-GPU copies
 * stream (they cross the host memory the cores share). On a GPU: whether
 * copies into or out of that GPU stream (GPUs share nothing else here, so
 * its curve has the one point busy = 1). Taken when the kernel starts and
 * held for its whole length. */
static double corun_duration(const struct hs_runtime *rt, const struct hs_task *t, int w)
{
    double d = true_duration(rt, t, w);
    if (!rt->perf || !rt->perf->ncorun || !rt->kernel_in_table[t->kernel])
        return d;
    enum hs_arch a = rt->pf->workers[w].arch;
    bool cpu = a == HS_ARCH_CPU;
    int copies = cpu ? rt->copies_active : rt->copies_node ? rt->copies_node[rt->pf->workers[w].node] : 0;
    double c = hs_perf_corun_time(rt->perf, rt->dag->kernels[t->kernel], hs_arch_name(a), t->footprint,
                                  cpu ? rt->running_arch[a] : 1, copies > 0);
    return isnan(c) ? d : c;
}

/* Timing-table durations and estimates per (task, arch), memoised per kernel
 * shape; they differ where the table has calibrated entries. */
static void precompute_estimates(struct hs_runtime *rt)
{
    const struct hs_dag *dag = rt->dag;
    rt->kernel_in_table = hs_xcalloc((size_t)dag->nkernels, sizeof(bool));
    bool any = false;
    for (int k = 0; k < dag->nkernels; k++) {
        rt->kernel_in_table[k] = rt->perf && (hs_perf_has(rt->perf, dag->kernels[k], "cpu") ||
                                              hs_perf_has(rt->perf, dag->kernels[k], "gpu"));
        any |= rt->kernel_in_table[k];
    }
    if (!any)
        return; /* raw_cost reads the tables only for a kernel in the timing table */
    rt->est_arch = hs_xmalloc((size_t)dag->ntasks * HS_NARCH * sizeof(double));
    rt->true_arch = hs_xmalloc((size_t)dag->ntasks * HS_NARCH * sizeof(double));
    int last_kernel = -1, last_nb = -1;
    double last_flops = -1, last[HS_NARCH] = {NAN, NAN}, last_true[HS_NARCH] = {NAN, NAN};
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[i];
        if (rt->kernel_in_table[t->kernel] &&
            !(t->kernel == last_kernel && t->footprint == last_nb && t->flops == last_flops)) {
            for (int a = 0; a < HS_NARCH; a++) {
                last[a] = hs_perf_estimate(rt->perf, dag->kernels[t->kernel], hs_arch_name(a),
                                           t->footprint, t->flops);
                last_true[a] = hs_perf_time(rt->perf, dag->kernels[t->kernel], hs_arch_name(a),
                                            t->footprint, t->flops);
            }
            last_kernel = t->kernel;
            last_nb = t->footprint;
            last_flops = t->flops;
        }
        for (int a = 0; a < HS_NARCH; a++) {
            rt->est_arch[(size_t)i * HS_NARCH + a] = rt->kernel_in_table[t->kernel] ? last[a] : NAN;
            rt->true_arch[(size_t)i * HS_NARCH + a] = rt->kernel_in_table[t->kernel] ? last_true[a] : NAN;
        }
    }
}

/* Bytes of the distinct data each task accesses (hs_rt_allocate pins them
 * all at once on a GPU). */
static double *task_data_bytes(const struct hs_dag *dag)
{
    double *bytes = hs_xcalloc((size_t)dag->ntasks + 1, sizeof *bytes);
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[i];
        for (int a = 0; a < t->naccess; a++) {
            bool seen = false;
            for (int b = 0; b < a && !seen; b++)
                seen = t->access[b].handle == t->access[a].handle;
            if (!seen)
                bytes[i] += dag->handles[t->access[a].handle].bytes;
        }
    }
    return bytes;
}

/* A task that some worker could time but whose memory cannot hold its data. */
static int refuse_too_big(const struct hs_runtime *rt, const struct hs_task *t)
{
    double largest = 0;
    int at = -1;
    for (int w = 0; w < rt->pf->nworkers; w++) {
        double cap = rt->pf->nodes[rt->pf->workers[w].node].capacity;
        if ((t->arch_mask & HS_ARCH_BIT(rt->pf->workers[w].arch)) && cap > largest)
            largest = cap, at = w;
    }
    return hs_fail("task %s accesses %.0f bytes of data, more than the memory of any worker that "
                   "may run it holds (largest: %s, %.0f bytes usable)",
                   t->label, rt->task_bytes[t->id], at >= 0 ? rt->pf->workers[at].name : "none",
                   largest);
}

/* A co-running curve of the cores must reach the run's CPU workers: its
 * value past the last point measured would be a guess. (A GPU's curve is
 * its own: busy = 1.) */
static int check_corun(const struct hs_runtime *rt)
{
    const struct hs_perfmodel *pm = rt->perf;
    int workers = 0;
    for (int w = 0; pm && pm->ncorun && w < rt->pf->nworkers; w++)
        workers += rt->pf->workers[w].arch == HS_ARCH_CPU;
    for (int i = 0; pm && i < pm->ncorun; i++) {
        const struct hs_perf_entry *e = &pm->corun[i];
        if (strcmp(e->arch, "cpu") != 0 || e->busy >= workers)
            continue; /* a GPU's curve is its own; a point at the run's workers reaches them */
        int most = 0;
        for (int j = 0; j < pm->ncorun; j++)
            if (pm->corun[j].nb == e->nb && strcmp(pm->corun[j].kernel, e->kernel) == 0 &&
                strcmp(pm->corun[j].arch, e->arch) == 0 && pm->corun[j].busy > most)
                most = pm->corun[j].busy;
        bool used = false;
        for (int k = 0; k < rt->dag->nkernels && !used; k++)
            used = strcmp(rt->dag->kernels[k], e->kernel) == 0;
        if (used && workers > most)
            return hs_fail("timing table %s: its co-running curve of %s on %s (nb %d) stops at %d worker%s "
                           "busy, and this run has %d %s workers (calibrate with --cpu-threads %d, or select "
                           "at most %d)", pm->file, e->kernel, e->arch, e->nb, most, most == 1 ? "" : "s",
                           workers, e->arch, workers, most);
    }
    return 0;
}

static int check_runnable(const struct hs_runtime *rt)
{
    if (check_corun(rt))
        return -1;
    if (rt->dag->nproc_costs > 0 && rt->dag->nproc_costs != rt->pf->nworkers)
        return hs_fail("DAG '%s' gives per-processor costs for %d processors but %d workers are "
                       "selected (choose them with --cpus/--gpus or the platform)",
                       rt->dag->name, rt->dag->nproc_costs, rt->pf->nworkers);
    for (int i = 0; i < rt->dag->ntasks; i++) {
        const struct hs_task *t = &rt->dag->tasks[i];
        bool ok = false;
        for (int w = 0; w < rt->pf->nworkers && !ok; w++)
            ok = isfinite(hs_runtime_estimate(rt, t, w));
        if (ok)
            continue;
        bool arch = false;
        for (int w = 0; w < rt->pf->nworkers; w++) {
            bool may = t->arch_mask & HS_ARCH_BIT(rt->pf->workers[w].arch);
            if (may && rt->task_bytes[t->id] > rt->pf->nodes[rt->pf->workers[w].node].capacity)
                return refuse_too_big(rt, t);
            arch |= may;
        }
        const char *kernel = rt->dag->kernels[t->kernel];
        if (!arch)
            return hs_fail("task %s: kernel %s may run only on %s workers (its architecture hints), "
                           "and platform %s gives none (%d workers selected)",
                           t->label, kernel, t->arch_mask == HS_ARCH_BIT(HS_ARCH_GPU) ? "GPU" : "CPU",
                           rt->pf->name, rt->pf->nworkers);
        if (rt->kernel_in_table[t->kernel])
            return hs_fail("task %s: kernel %s has no timing for the architectures of the "
                           "selected workers in %s (nb=%d)",
                           t->label, kernel, rt->perf->file, t->footprint);
        return hs_fail("task %s: kernel %s has no timing for any architecture (no timing-table "
                       "entry, no explicit cost, no flops)",
                       t->label, kernel);
    }
    return 0;
}

/* Actual duration: the estimate times a lognormal factor of mean 1. */
static double actual_duration(struct hs_runtime *rt, double estimate)
{
    double cv = rt->opts.noise;
    if (cv <= 0)
        return estimate;
    double sigma2 = log1p(cv * cv);
    return estimate * gsl_ran_lognormal(rt->rng_noise, -sigma2 / 2, sqrt(sigma2));
}

/* ---- creation ------------------------------------------------------------- */

struct hs_runtime *hs_runtime_new(const struct hs_dag *dag, const struct hs_platform *pf,
                                const struct hs_perfmodel *perf, const struct hs_policy *policy,
                                const struct hs_spec *params, const struct hs_runtime_opts *opts)
{
    struct hs_runtime *rt = hs_xcalloc(1, sizeof *rt);
    rt->dag = dag;
    rt->pf = pf;
    rt->perf = perf;
    rt->policy = policy;
    rt->params = params;
    rt->opts = *opts;
    for (int i = 0; hs_costs_props[i]; i++)
        if (isnan(hs_costs_get(&rt->opts.costs, i)))
            hs_costs_set(&rt->opts.costs, i, 0);
    rt->predicted_makespan = NAN;
    rt->clusters = rt->cluster_edges = -1;
    rt->task_bytes = task_data_bytes(dag);
    precompute_estimates(rt);
    rt->gpu_scaled = scaled_kernels(dag, rt->opts.machine.gpu_kernels);
    rt->cpu_scaled = scaled_kernels(dag, rt->opts.machine.cpu_kernels);
    if (check_runnable(rt)) {
        free(rt->est_arch);
        free(rt->true_arch);
        free(rt->kernel_in_table);
        free(rt->gpu_scaled);
        free(rt->cpu_scaled);
        free(rt->task_bytes);
        free(rt);
        return NULL;
    }
    rt->rng_policy = hs_rng(opts->seed, 1);
    rt->rng_noise = hs_rng(opts->seed, 2);
    rt->ts = hs_xcalloc((size_t)dag->ntasks, sizeof *rt->ts);
    for (int i = 0; i < dag->ntasks; i++) {
        rt->ts[i].npred_left = dag->tasks[i].npred;
        rt->ts[i].ev.worker = -1;
    }
    rt->ws = hs_xcalloc((size_t)pf->nworkers, sizeof *rt->ws);
    for (int w = 0; w < pf->nworkers; w++) {
        rt->ws[w].running = -1;
        rt->ws[w].qcap = pf->workers[w].window + 1;
        rt->ws[w].queue = hs_xmalloc((size_t)rt->ws[w].qcap * sizeof(int));
    }
    rt->nwords = (pf->nworkers + 63) / 64;
    rt->room_bits = hs_xcalloc((size_t)rt->nwords, sizeof(uint64_t));
    rt->want_bits = hs_xcalloc((size_t)rt->nwords, sizeof(uint64_t));
    for (int a = 0; a < HS_NARCH; a++)
        rt->arch_bits[a] = hs_xcalloc((size_t)rt->nwords, sizeof(uint64_t));
    for (int w = 0; w < pf->nworkers; w++) {
        rt->arch_bits[pf->workers[w].arch][w / 64] |= UINT64_C(1) << (w % 64);
        note_room(rt, w);
    }
    return rt;
}

void hs_runtime_free(struct hs_runtime *rt)
{
    if (!rt)
        return;
    if (rt->engine)
        hs_rt_datamove_free(rt);
    for (int w = 0; w < rt->pf->nworkers; w++) {
        free(rt->ws[w].queue);
        free(rt->ws[w].deferred);
    }
    free(rt->ws);
    free(rt->ts);
    free(rt->room_bits);
    free(rt->want_bits);
    for (int a = 0; a < HS_NARCH; a++)
        free(rt->arch_bits[a]);
    free(rt->est_arch);
    free(rt->true_arch);
    free(rt->kernel_in_table);
    free(rt->gpu_scaled);
    free(rt->cpu_scaled);
    free(rt->task_bytes);
    hs_wclasses_free(rt->classes);
    gsl_rng_free(rt->rng_policy);
    gsl_rng_free(rt->rng_noise);
    free(rt->error);
    free(rt);
}

/* ---- task lifecycle -------------------------------------------------------- */

static void dispatch(struct hs_runtime *rt, int first);

static int worker_node(const struct hs_runtime *rt, int w)
{
    return rt->pf->workers[w].node;
}

/* Keep w's bit of room_bits: whether its window has room for another task. */
static void note_room(struct hs_runtime *rt, int w)
{
    uint64_t bit = UINT64_C(1) << (w % 64);
    if (rt->ws[w].inflight < rt->pf->workers[w].window)
        rt->room_bits[w / 64] |= bit;
    else
        rt->room_bits[w / 64] &= ~bit;
}

static void call_push(struct hs_runtime *rt, int task)
{
    if (!rt->policy->push) /* optional: a policy may follow readiness in done (docs/writing-a-policy.md) */
        return;
    hs_rt_policy_enter(rt);
    rt->policy->push(rt, &rt->dag->tasks[task]);
    hs_rt_policy_leave(rt);
}

/* Time the policy takes to place one ready task (sim/costs.h). */
static double decision_time(const struct hs_runtime *rt)
{
    const struct hs_costs *c = &rt->opts.costs;
    double t = c->decide_push;
    if (rt->decision == HS_DECIDE_WORKERS)
        t += c->decide_worker * rt->pf->nworkers;
    return t;
}

/* Push a ready task, decided by a core whose decisions end at *clock. */
static void make_ready(struct hs_runtime *rt, int task, double *clock)
{
    *clock += decision_time(rt);
    rt->ts[task].release = *clock;
    rt->ts[task].ev.ready = *clock;
    call_push(rt, task);
}

static void exec_done(void *ctx, long id);

static void enqueue(struct hs_worker_state *ws, int task)
{
    ws->queue[(ws->qhead + ws->qlen) % ws->qcap] = task;
    ws->qlen++;
}

/* Start the head of w's execution FIFO if w is idle and its inputs are there. */
static void try_exec(struct hs_runtime *rt, int w)
{
    struct hs_worker_state *ws = &rt->ws[w];
    if (ws->running >= 0 || ws->qlen == 0 || rt->finished || !rt->ts[ws->queue[ws->qhead]].inputs_ok)
        return;
    int task = ws->queue[ws->qhead];
    ws->qhead = (ws->qhead + 1) % ws->qcap;
    ws->qlen--;
    ws->running = task;
    rt->running_arch[rt->pf->workers[w].arch]++;
    const struct hs_task *t = &rt->dag->tasks[task];
    struct hs_task_event *ev = &rt->ts[task].ev;
    int node = worker_node(rt, w);
    for (int i = 0; i < t->naccess; i++) /* audit: inputs valid where it runs */
        if (HS_MODE_READS(t->access[i].mode) && !hs_coh_valid(&rt->coh, t->access[i].handle, node))
            rt->audit_violations++;
    /* The kernel waits for its push's decision (and for a deciding core's
     * own decisions), then the runtime's work for the task: one activity,
     * so the costs add no event to the engine. */
    double now = rt->engine->now(rt->engine);
    enum hs_arch arch = rt->pf->workers[w].arch;
    double ready = fmax(rt->ts[task].release, arch == HS_ARCH_CPU ? ws->busy_until : now);
    double wait = fmax(0, ready - now);
    double overhead = rt->opts.costs.task[arch] + rt->opts.costs.transfer_issue * rt->ts[task].issued;
    ev->start = now + wait + overhead;
    ws->runtime += overhead;
    ws->pending_estimate -= ev->estimate;
    if (rt->classes) /* its availability changed: running, pending */
        hs_wclasses_touch(rt->classes, w);
    ev->duration = actual_duration(rt, corun_duration(rt, t, w));
    rt->activities++;
    rt->engine->exec(rt->engine, w, task, wait + overhead, ev->duration, exec_done, rt, task);
}

static bool reclaim_room(struct hs_runtime *rt, int w, bool force);

static void inputs_ready(struct hs_runtime *rt, int task)
{
    int w = rt->ts[task].ev.worker;
    rt->ts[task].ev.inputs = rt->engine->now(rt->engine);
    rt->ts[task].inputs_ok = true;
    if (!rt->in_order)
        enqueue(&rt->ws[w], task);
    try_exec(rt, w);
    reclaim_room(rt, w, false); /* a later task that held room while fetching may give it back */
}

void hs_rt_task_input_arrived(struct hs_runtime *rt, int task)
{
    if (--rt->ts[task].pending_inputs == 0)
        inputs_ready(rt, task);
}

/* Fetch every distinct handle the task reads; a guard count keeps the task
 * from completing the phase before all requests are issued. */
static void fetch_inputs(struct hs_runtime *rt, int task)
{
    const struct hs_task *t = &rt->dag->tasks[task];
    int node = worker_node(rt, rt->ts[task].ev.worker);
    size_t before = rt->nxfers;
    rt->ts[task].pending_inputs = 1;
    for (int i = 0; i < t->naccess; i++) {
        const struct hs_access *a = &t->access[i];
        if (!HS_MODE_READS(a->mode))
            continue;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = t->access[j].handle == a->handle && HS_MODE_READS(t->access[j].mode);
        if (!seen && !hs_rt_require(rt, a->handle, node, HS_WAIT_INPUT, task))
            rt->ts[task].pending_inputs++;
    }
    rt->ts[task].issued += (int)(rt->nxfers - before);
    hs_rt_task_input_arrived(rt, task);
}

void hs_rt_task_alloc_done(struct hs_runtime *rt, int task)
{
    if (--rt->ts[task].pending_alloc == 0)
        fetch_inputs(rt, task);
}

static bool start_task(struct hs_runtime *rt, int task)
{
    int node = worker_node(rt, rt->ts[task].ev.worker);
    size_t before = rt->nxfers;
    bool room = hs_rt_allocate(rt, task, node);
    rt->ts[task].issued += (int)(rt->nxfers - before); /* write-backs of its evictions */
    if (!room)
        return false;
    rt->ts[task].room = true;
    rt->ts[task].pending_alloc++; /* guard */
    hs_rt_task_alloc_done(rt, task);
    return true;
}

static void delayed_start(void *ctx, long id);
static void begin_prologue(struct hs_runtime *rt, int task, int w);

/* Room in w's FIFO and deferred list for every task it holds (neither holds
 * more). The window bounds them, except that a policy's pop may yield (its
 * prefetch starts a copy) to actors that give w tasks meanwhile, past it. */
static void hold_room(struct hs_worker_state *ws)
{
    if (ws->inflight <= ws->qcap)
        return;
    int cap = 2 * ws->qcap;
    int *queue = hs_xmalloc((size_t)cap * sizeof(int));
    for (int i = 0; i < ws->qlen; i++)
        queue[i] = ws->queue[(ws->qhead + i) % ws->qcap];
    free(ws->queue);
    ws->queue = queue;
    ws->qhead = 0;
    if (ws->deferred)
        ws->deferred = hs_xrealloc(ws->deferred, (size_t)cap * sizeof(int));
    ws->qcap = cap;
}

static void assign(struct hs_runtime *rt, int task, int w)
{
    struct hs_worker_state *ws = &rt->ws[w];
    struct hs_task_event *ev = &rt->ts[task].ev;
    double now = rt->engine->now(rt->engine);
    ev->worker = w;
    ev->popped = fmax(now, rt->ts[task].release); /* no pop before its push is decided */
    ev->estimate = hs_runtime_estimate(rt, &rt->dag->tasks[task], w);
    ws->inflight++;
    note_room(rt, w);
    hold_room(ws); /* a pop that yielded may have let w fill past its window: no overflow */
    if (rt->in_order)
        enqueue(ws, task);
    ws->pending_estimate += ev->estimate;
    if (rt->classes)
        hs_wclasses_touch(rt->classes, w);
    /* the policy charged w for taking this task (a steal), or its push is
     * still being decided: the prologue starts after both */
    double early = rt->ts[task].release - now;
    if (ws->delay > 0 || early > 0) {
        double d = fmax(ws->delay, 0) + fmax(early, 0);
        ws->overhead += ws->delay;
        ws->delay = 0;
        rt->activities++;
        rt->engine->timer(rt->engine, d, delayed_start, rt, task);
        return;
    }
    begin_prologue(rt, task, w);
}

static void begin_prologue(struct hs_runtime *rt, int task, int w)
{
    struct hs_worker_state *ws = &rt->ws[w];
    if (ws->ndeferred > 0 || !start_task(rt, task)) {
        if (!ws->deferred)
            ws->deferred = hs_xmalloc((size_t)ws->qcap * sizeof(int));
        ws->deferred[ws->ndeferred++] = task;
        /* it waits for room: a task of w finishing, or a copy into or out of the cache
           ending, unpins data (hs_rt_room_freed) */
        reclaim_room(rt, w, false);
    }
}

static void delayed_start(void *ctx, long id)
{
    struct hs_runtime *rt = ctx;
    rt->activities--;
    if (!rt->finished)
        begin_prologue(rt, (int)id, rt->ts[id].ev.worker);
    hs_rt_check_stall(rt);
}

/* Tasks that waited for cache room retry, in order, when w finished one. */
static void retry_deferred(struct hs_runtime *rt, int w)
{
    struct hs_worker_state *ws = &rt->ws[w];
    while (ws->ndeferred > 0) {
        /* off the list before it starts: starting may yield to actors that retry or
           defer w's tasks too (an index kept across it went stale: a task started twice) */
        int task = ws->deferred[0];
        memmove(ws->deferred, ws->deferred + 1, (size_t)(ws->ndeferred - 1) * sizeof(int));
        ws->ndeferred--;
        if (!start_task(rt, task)) { /* no room: nothing yielded, so it goes back first */
            memmove(ws->deferred + 1, ws->deferred, (size_t)ws->ndeferred * sizeof(int));
            ws->deferred[0] = task;
            ws->ndeferred++;
            reclaim_room(rt, w, false); /* a later task of w may just have taken that room */
            return;
        }
    }
}

static bool accesses(const struct hs_task *t, int upto, int h)
{
    for (int i = 0; i < upto; i++)
        if (t->access[i].handle == h)
            return true;
    return false;
}

static bool is_deferred(const struct hs_worker_state *ws, int task)
{
    for (int i = 0; i < ws->ndeferred; i++)
        if (ws->deferred[i] == task)
            return true;
    return false;
}

/* Bytes of the data pinned by the tasks at FIFO positions first + 1 .. of w
 * that hold room, less those the task at `first` accesses itself. */
static double pinned_after(const struct hs_runtime *rt, const struct hs_worker_state *ws, int first)
{
    const struct hs_task *f = &rt->dag->tasks[ws->queue[(ws->qhead + first) % ws->qcap]];
    double bytes = 0;
    for (int i = first + 1; i < ws->qlen; i++) {
        const struct hs_task *t = &rt->dag->tasks[ws->queue[(ws->qhead + i) % ws->qcap]];
        if (!rt->ts[t->id].room)
            continue;
        for (int a = 0; a < t->naccess; a++) {
            int h = t->access[a].handle;
            bool seen = accesses(f, f->naccess, h) || accesses(t, a, h);
            for (int j = first + 1; j < i && !seen; j++) {
                const struct hs_task *u = &rt->dag->tasks[ws->queue[(ws->qhead + j) % ws->qcap]];
                seen = rt->ts[u->id].room && accesses(u, u->naccess, h);
            }
            if (!seen)
                bytes += rt->dag->handles[h].bytes;
        }
    }
    return bytes;
}

/* In order (rt->in_order), w's kernels start in pop order, and a task pins
 * its data from its prologue until it ends. A later task's prologue may go
 * first (the earlier one's push was still being decided: delayed_start, or
 * the deferred list let it by), and its data may take the room that the
 * earlier task needs: that one waits for room, the later one for it to run,
 * a stall. So the first task of w's FIFO without room, when it waits for room
 * (deferred), takes back the room of the later tasks once it could never fit
 * beside their data, or (force) once nothing moves any more: those whose
 * prologue is over are unpinned and deferred again, the list in FIFO order,
 * and one still fetching gives its room back when its inputs have arrived
 * (inputs_ready). Every other pin ends by itself, so a run that does not
 * stall never takes anything back. True if something was taken back. */
static bool reclaim_room(struct hs_runtime *rt, int w, bool force)
{
    struct hs_worker_state *ws = &rt->ws[w];
    double capacity = rt->pf->nodes[worker_node(rt, w)].capacity;
    if (!rt->in_order || ws->ndeferred == 0 || !isfinite(capacity) || rt->finished)
        return false;
    int first = 0;
    while (first < ws->qlen && rt->ts[ws->queue[(ws->qhead + first) % ws->qcap]].room)
        first++;
    if (first == ws->qlen || !is_deferred(ws, ws->queue[(ws->qhead + first) % ws->qcap]))
        return false; /* none, or its prologue waits for its push's decision: it comes */
    int head = ws->queue[(ws->qhead + first) % ws->qcap];
    if (!force && rt->task_bytes[head] + pinned_after(rt, ws, first) <= capacity)
        return false; /* it fits once the pins that end by themselves have */
    int *order = hs_xmalloc((size_t)ws->qlen * sizeof(int)), n = 0;
    bool took = false;
    for (int i = first; i < ws->qlen; i++) {
        int task = ws->queue[(ws->qhead + i) % ws->qcap];
        struct hs_task_state *ts = &rt->ts[task];
        if (ts->room && ts->inputs_ok) {
            hs_rt_unpin_task(rt, task, worker_node(rt, w));
            ts->room = ts->inputs_ok = false;
            took = true;
        } else if (!is_deferred(ws, task)) {
            continue; /* fetching, or waiting for its push's decision */
        }
        order[n++] = task;
    }
    if (took) {
        memcpy(ws->deferred, order, (size_t)n * sizeof(int));
        ws->ndeferred = n;
    }
    free(order);
    if (took)
        retry_deferred(rt, w);
    return took;
}

void hs_rt_room_freed(struct hs_runtime *rt, int node)
{
    for (int w = 0; w < rt->pf->nworkers && !rt->finished; w++)
        if (rt->pf->workers[w].node == node && rt->ws[w].ndeferred > 0)
            retry_deferred(rt, w);
}

/* May w's pop give it a task? Always, unless the policy names the workers
 * to offer work to (hs_sched_offer_mode). */
static bool offer_to(const struct hs_runtime *rt, int w)
{
    return !rt->offers || (rt->want_bits[w / 64] >> (w % 64) & 1) ||
           rt->want_arch[rt->pf->workers[w].arch];
}

static void dispatch_worker(struct hs_runtime *rt, int w)
{
    struct hs_worker_state *ws = &rt->ws[w];
    while (!rt->finished && ws->inflight < rt->pf->workers[w].window && offer_to(rt, w)) {
        long yields = rt->policy_yields;
        hs_rt_policy_enter(rt);
        struct hs_task *t = rt->policy->pop(rt, w);
        hs_rt_policy_leave(rt);
        if (!t) {
            /* until named again, unless the pop yielded: others may have named w meanwhile */
            if (rt->offers && rt->policy_yields == yields)
                rt->want_bits[w / 64] &= ~(UINT64_C(1) << (w % 64));
            return;
        }
        if (rt->ts[t->id].ev.worker >= 0 || rt->ts[t->id].npred_left > 0) {
            hs_rt_fail(rt, "policy %s returned task %s, which is %s", rt->policy->name, t->label,
                       rt->ts[t->id].ev.worker >= 0 ? "already taken" : "not ready");
            return;
        }
        if (!isfinite(hs_runtime_estimate(rt, t, w))) {
            hs_rt_fail(rt, "policy %s gave task %s to worker %s, which cannot run it",
                       rt->policy->name, t->label, rt->pf->workers[w].name);
            return;
        }
        assign(rt, t->id, w);
    }
}

/* The lowest worker from `from` on with room that the policy named (alone
 * or by its architecture); -1 if none. The words are read afresh at each
 * call: a pop or what it set off may have changed them. */
static int next_offer(const struct hs_runtime *rt, int from)
{
    for (int i = from / 64; i < rt->nwords; i++) {
        uint64_t named = rt->want_bits[i];
        for (int a = 0; a < HS_NARCH; a++)
            if (rt->want_arch[a])
                named |= rt->arch_bits[a][i];
        uint64_t word = rt->room_bits[i] & named;
        if (i == from / 64)
            word &= ~UINT64_C(0) << (from % 64);
        if (word)
            return i * 64 + __builtin_ctzll(word);
    }
    return -1;
}

/* Offer work to every worker with room: `first` (the one that just finished)
 * before the others, which go in id order. Where the policy names the workers
 * to offer work to, the others are passed over: their pop would return
 * nothing and change nothing (hs_sched_offer_mode), so the run is the same. */
static void dispatch(struct hs_runtime *rt, int first)
{
    if (first >= 0)
        dispatch_worker(rt, first);
    if (rt->offers) {
        for (int w = next_offer(rt, 0); w >= 0; w = next_offer(rt, w + 1))
            if (w != first)
                dispatch_worker(rt, w);
        return;
    }
    for (int w = 0; w < rt->pf->nworkers; w++)
        if (w != first)
            dispatch_worker(rt, w);
}

static void finish(struct hs_runtime *rt)
{
    if (rt->finished)
        return;
    rt->finished = true;
    rt->makespan = rt->engine->now(rt->engine);
    rt->engine->finished(rt->engine);
}

void hs_rt_flush_done(struct hs_runtime *rt)
{
    if (--rt->pending_flush == 0)
        finish(rt);
}

static void start_flush(struct hs_runtime *rt)
{
    rt->flushing = true;
    if (!rt->opts.flush) {
        finish(rt);
        return;
    }
    rt->pending_flush = 1; /* guard */
    for (int h = 0; h < rt->dag->nhandles; h++) {
        const struct hs_handle *hd = &rt->dag->handles[h];
        if (hd->temporary || !hd->latest)
            continue;
        if (!hs_rt_require(rt, h, 0, HS_WAIT_FLUSH, -1))
            rt->pending_flush++;
    }
    hs_rt_flush_done(rt);
}

static void complete_task(struct hs_runtime *rt, int task, int w)
{
    const struct hs_task *t = &rt->dag->tasks[task];
    int node = worker_node(rt, w);
    for (int i = 0; i < t->naccess; i++)
        if (HS_MODE_WRITES(t->access[i].mode))
            hs_coh_write(&rt->coh, t->access[i].handle, node);
    hs_rt_unpin_task(rt, task, node);
    rt->ws[w].inflight--;
    note_room(rt, w);
    rt->ws[w].ntasks++;
    rt->ndone++;
    if (rt->policy->done) {
        hs_rt_policy_enter(rt);
        rt->policy->done(rt, (struct hs_task *)t, w);
        hs_rt_policy_leave(rt);
    }
    double clock = rt->engine->now(rt->engine); /* w's core decides the successors' pushes */
    for (int i = 0; i < t->nsucc; i++) {
        int s = rt->dag->edges[t->succ[i]].dst;
        if (--rt->ts[s].npred_left == 0)
            make_ready(rt, s, &clock);
    }
    if (rt->pf->workers[w].arch == HS_ARCH_CPU)
        rt->ws[w].busy_until = clock;
}

static void exec_done(void *ctx, long id)
{
    struct hs_runtime *rt = ctx;
    int task = (int)id;
    struct hs_task_event *ev = &rt->ts[task].ev;
    int w = ev->worker;
    rt->activities--;
    ev->end = rt->engine->now(rt->engine);
    ev->duration = ev->end - ev->start; /* what the engine took: real engines differ */
    rt->ws[w].busy += ev->duration;
    rt->ws[w].running = -1;
    rt->running_arch[rt->pf->workers[w].arch]--;
    if (rt->classes)
        hs_wclasses_touch(rt->classes, w);
    complete_task(rt, task, w);
    retry_deferred(rt, w);
    try_exec(rt, w);
    dispatch(rt, w);
    if (rt->ndone == rt->dag->ntasks && !rt->flushing)
        start_flush(rt);
    hs_rt_check_stall(rt);
}

/* Why nothing moves any more: a task waiting for room in a data cache that
 * nothing will free, else the policy holding ready tasks back. */
static void fail_stalled(struct hs_runtime *rt)
{
    for (int w = 0; w < rt->pf->nworkers; w++)
        if (rt->ws[w].ndeferred > 0) {
            int task = rt->ws[w].deferred[0], node = worker_node(rt, w);
            const struct hs_cache *c = &rt->cache[node];
            double pinned = 0;
            for (int h = 0; h < c->nhandles; h++)
                pinned += c->blk[h].present && c->blk[h].pins > 0 ? c->blk[h].bytes : 0;
            hs_rt_fail(rt, "simulation stalled with %d of %d tasks done: task %s (%.0f bytes of "
                           "data) waits for room in the data cache of %s (capacity %.0f bytes, "
                           "%.0f pinned by %d tasks in flight there)",
                       rt->ndone, rt->dag->ntasks, rt->dag->tasks[task].label,
                       rt->task_bytes[task], rt->pf->workers[w].name,
                       rt->pf->nodes[node].capacity, pinned, rt->ws[w].inflight - rt->ws[w].ndeferred);
            return;
        }
    int stuck = -1;
    for (int i = 0; i < rt->dag->ntasks && stuck < 0; i++)
        if (rt->ts[i].ev.worker < 0)
            stuck = i;
    hs_rt_fail(rt, "simulation stalled with %d of %d tasks done: policy %s gave no work to the "
                   "idle workers (first task never run: %s)",
               rt->ndone, rt->dag->ntasks, rt->policy->name,
               stuck >= 0 ? rt->dag->tasks[stuck].label : "?");
}

void hs_rt_check_stall(struct hs_runtime *rt)
{
    if (rt->finished || rt->activities > 0)
        return;
    for (int w = 0; w < rt->pf->nworkers; w++) /* the safety net of reclaim_room's test */
        reclaim_room(rt, w, true);
    if (rt->finished || rt->activities > 0)
        return;
    fail_stalled(rt);
}

void hs_runtime_start(struct hs_runtime *rt, struct hs_engine *engine)
{
    rt->engine = engine;
    hs_rt_datamove_init(rt);
    hs_rt_policy_enter(rt);
    int rc = rt->policy->init ? rt->policy->init(rt) : 0;
    hs_rt_policy_leave(rt);
    if (rc) {
        hs_rt_fail(rt, "policy %s refused this run: %s", rt->policy->name, hs_last_error());
        rt->refused = true;
        return;
    }
    double clock = 0; /* the master core decides the sources' pushes */
    for (int i = 0; i < rt->dag->ntasks; i++)
        if (rt->ts[i].npred_left == 0)
            make_ready(rt, i, &clock);
    dispatch(rt, -1);
    hs_rt_check_stall(rt);
}
