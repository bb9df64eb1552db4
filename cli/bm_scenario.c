/* cli/bm_scenario.c — Beaumont and Marchal's scenarios (bm_scenario.h):
 * running their policies in their own model on a free network, checking a
 * runtime run's DAG, and the volume section of the record. */
#include "cli/bm_scenario.h"
#include "policies/bm_analysis.h"
#include "policies/bm_dag.h"
#include "sim/engines/model/bm_model.h"
#include "policies/bm_policies.h"
#include "policies/registry.h"
#include "cli/cli.h"
#include "cli/flat_speeds.h"
#include "sim/record.h"
#include "base/util.h"
#include "base/rng.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runtime's streams of a seed: 1 for the policy, 2 for noise (here the drift). */
#define POLICY_STREAM 1
#define DRIFT_STREAM 2

/* Options that mean nothing where communication is free and no task is traced. */
static int check_options(const struct hs_scenario *sc, int p)
{
    const struct hs_select *sel = &sc->cfg.select;
    if (sc->trace || sc->cfg.paje_file || sc->events)
        return hs_fail("Beaumont and Marchal's model (flat with bw=inf) keeps no per-task trace or "
                       "events: give bw a finite value to run through the runtime");
    if (sc->cfg.opts.noise > 0)
        return hs_fail("Beaumont and Marchal's model has no noise: drift= on the platform changes "
                       "speeds task after task");
    if (sel->gpus > 0)
        return hs_fail("platform %s has no GPU", sc->platform);
    if (sel->cpus >= 0 && sel->cpus != p)
        return hs_fail("Beaumont and Marchal's model uses every processor of flat:P (%d): choose P "
                       "rather than --cpus", p);
    return 0;
}

struct model_run {
    struct hs_product_shape shape;
    struct hs_flat_speeds fs;
    struct hs_spec policy;
    struct hs_bm_model_config mc;
    struct hs_bm_model_result res;
    double beta, wall;
    const char *how;
};

static int prepare(const struct hs_scenario *sc, const struct hs_scenario_plan *plan,
                   struct model_run *m)
{
    int dim = plan->bm_dim;
    const struct hs_policy *pol = hs_policy_parse(sc->policy, &m->policy);
    if (!pol)
        return -1;
    int rc = hs_product_describe(sc->workload, &m->shape);
    if (rc < 0)
        return -1;
    if (rc > 0 || m->shape.dim != dim)
        return hs_fail("policy %s needs the %s workload (-w %s:n=...)", pol->name,
                       dim == 2 ? "outer" : "matmul", dim == 2 ? "outer" : "matmul");
    if (hs_flat_speeds(&plan->flat_spec, sc->cfg.opts.seed, &m->fs) || check_options(sc, m->fs.p))
        return -1;
    if (hs_bm_policy_config(&m->policy, m->shape.n, m->fs.p, m->fs.speeds, &m->mc.strategy, &m->beta,
                            &m->how))
        return -1;
    double *tps = hs_xmalloc((size_t)m->fs.p * sizeof *tps); /* flop/s -> tasks/s */
    for (int k = 0; k < m->fs.p; k++)
        tps[k] = m->fs.speeds[k] / m->shape.task_flops;
    m->mc.speeds = tps;
    m->mc.drift = m->fs.drift;
    return 0;
}

static int simulate(const struct hs_scenario *sc, struct model_run *m)
{
    gsl_rng *rng = hs_rng(sc->cfg.opts.seed, POLICY_STREAM);
    gsl_rng *drift = hs_rng(sc->cfg.opts.seed, DRIFT_STREAM);
    double t0 = hs_now();
    int rc = hs_bm_model_run(&m->mc, rng, drift, &m->res);
    m->wall = hs_now() - t0;
    gsl_rng_free(rng);
    gsl_rng_free(drift);
    return rc;
}

/* ---- the record ------------------------------------------------------------ */

static cJSON *workers_json(const struct model_run *m)
{
    cJSON *arr = cJSON_CreateArray();
    for (int k = 0; k < m->fs.p; k++) {
        char name[32];
        snprintf(name, sizeof name, "P%d", k);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", name);
        cJSON_AddStringToObject(o, "arch", "cpu");
        cJSON_AddStringToObject(o, "memory_node", name);
        cJSON_AddNumberToObject(o, "speed", m->fs.speeds[k]);
        cJSON_AddNumberToObject(o, "tasks", (double)m->res.tasks[k]);
        cJSON_AddNumberToObject(o, "blocks", (double)m->res.blocks_of[k]);
        cJSON_AddNumberToObject(o, "busy", m->res.busy[k]);
        cJSON_AddNumberToObject(o, "scheduling_overhead", 0);
        cJSON_AddNumberToObject(o, "utilisation", m->res.makespan > 0 ? m->res.busy[k] / m->res.makespan : 0);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* The metrics of analysis/metrics.h for independent tasks of equal flops:
 * the critical path is one task on the fastest processor, the sequential
 * time all of them there. */
static void add_metrics(cJSON *o, const struct model_run *m, double tasks)
{
    double fastest = 0, mean_time = 0, makespan = m->res.makespan, flops = tasks * m->shape.task_flops;
    for (int k = 0; k < m->fs.p; k++) {
        fastest = fmax(fastest, m->fs.speeds[k]);
        mean_time += m->shape.task_flops / m->fs.speeds[k] / m->fs.p;
    }
    double cp = m->shape.task_flops / fastest, seq = flops / fastest;
    cJSON_AddNumberToObject(o, "flops", flops);
    cJSON_AddNumberToObject(o, "gflops", flops / makespan / 1e9);
    cJSON_AddNumberToObject(o, "cp_min", cp);
    cJSON_AddNumberToObject(o, "slr", makespan / cp);
    cJSON_AddNumberToObject(o, "cpic", mean_time);
    cJSON_AddNumberToObject(o, "slr_cpic", makespan / mean_time);
    cJSON_AddNumberToObject(o, "sequential_time", seq);
    cJSON_AddNumberToObject(o, "speedup", seq / makespan);
    cJSON_AddNumberToObject(o, "efficiency", seq / makespan / m->fs.p);
}

static void add_counts(cJSON *o, const char *key, double h2d)
{
    cJSON *c = cJSON_AddObjectToObject(o, key);
    cJSON_AddNumberToObject(c, "h2d", h2d);
    cJSON_AddNumberToObject(c, "d2h", 0);
    cJSON_AddNumberToObject(c, "p2p", 0);
}

/* results.products of a model run: volume, bound, and the analysis. */
static cJSON *products_json(const struct model_run *m, double tasks)
{
    struct hs_bm_analysis a;
    hs_bm_analysis_init(&a, m->shape.dim, m->shape.n, m->fs.p, m->fs.speeds);
    double lb = hs_bm_lower_bound(&a), realised = 0;
    for (int k = 0; k < m->fs.p; k++) /* the bound for the shares each one computed */
        realised += m->shape.dim * pow((double)m->res.tasks[k], (m->shape.dim - 1.0) / m->shape.dim);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "blocks", (double)m->res.blocks);
    cJSON_AddNumberToObject(o, "lower_bound", lb);
    cJSON_AddNumberToObject(o, "ratio", (double)m->res.blocks / lb);
    cJSON_AddNumberToObject(o, "realised_lower_bound", realised);
    cJSON_AddNumberToObject(o, "requests", (double)m->res.requests);
    if (!isnan(m->beta)) {
        /* the closed form predicts nothing where β is a fallback (it has no minimum there) */
        bool fallback = strncmp(m->how, "exact", 5) == 0 || strncmp(m->how, "no interior", 11) == 0;
        double f = fallback ? NAN : hs_bm_ratio(&a, m->beta); /* NAN for beta = inf too */
        cJSON_AddNumberToObject(o, "beta", m->beta);
        cJSON_AddStringToObject(o, "beta_from", m->how);
        cJSON_AddNumberToObject(o, "phase1_share", -expm1(-m->beta));
        cJSON_AddNumberToObject(o, "phase1_tasks", (double)m->res.phase1_tasks / tasks);
        if (isfinite(f))
            cJSON_AddNumberToObject(o, "analysis", f);
        if (isfinite(m->res.switch_time))
            cJSON_AddNumberToObject(o, "switch_time", m->res.switch_time);
    }
    hs_bm_analysis_free(&a);
    return o;
}

static cJSON *record_json(const struct hs_scenario *sc, const struct hs_scenario_plan *plan,
                          const struct model_run *m)
{
    double tasks = pow(m->shape.n, m->shape.dim), moved = (double)m->res.blocks;
    char *policy = hs_spec_text(&m->policy);
    struct hs_record_inputs in = {sc->platform, m->shape.canonical, policy, NULL, &sc->cfg,
                                  plan->engine_reason};
    cJSON *rec = cJSON_CreateObject();
    cJSON_AddStringToObject(rec, "hetsim_version", hs_version());
    cJSON_AddStringToObject(rec, "engine", "model"); /* hs_engine_model, in its request-level form */
    cJSON_AddStringToObject(rec, "engine_reason", in.engine_reason);
    cJSON_AddBoolToObject(rec, "measured", false);
    cJSON_AddItemToObject(rec, "inputs", hs_record_inputs_json(&in, 0, m->fs.p));
    free(policy);
    cJSON_AddItemToObject(rec, "workers", workers_json(m));
    cJSON *res = cJSON_AddObjectToObject(rec, "results");
    cJSON_AddNumberToObject(res, "makespan", m->res.makespan);
    cJSON_AddNullToObject(res, "predicted_makespan");
    cJSON_AddNumberToObject(res, "tasks", tasks);
    cJSON *pa = cJSON_AddObjectToObject(res, "tasks_per_arch");
    cJSON_AddNumberToObject(pa, "cpu", tasks);
    cJSON_AddNumberToObject(pa, "gpu", 0);
    add_counts(res, "bytes", moved * m->shape.block_bytes);
    add_counts(res, "transfers", moved);
    cJSON_AddNumberToObject(res, "evictions", 0);
    cJSON_AddNumberToObject(res, "writebacks", 0);
    cJSON_AddNumberToObject(res, "prefetches", 0);
    add_metrics(res, m, tasks);
    cJSON_AddItemToObject(res, "products", products_json(m, tasks));
    cJSON *t = cJSON_AddObjectToObject(rec, "timing");
    cJSON_AddNumberToObject(t, "wall_seconds", m->wall);
    cJSON_AddNumberToObject(t, "policy_seconds", m->wall);
    return rec;
}

int hs_bm_scenario_run(const struct hs_scenario *sc, const struct hs_scenario_plan *plan,
                       cJSON **record)
{
    struct model_run m;
    memset(&m, 0, sizeof m);
    int rc = prepare(sc, plan, &m) ? HS_EXIT_USAGE : 0;
    if (!rc && simulate(sc, &m))
        rc = HS_EXIT_USAGE;
    if (!rc)
        *record = record_json(sc, plan, &m);
    hs_bm_model_result_free(&m.res);
    free((double *)m.mc.speeds);
    hs_flat_speeds_free(&m.fs);
    free(m.shape.canonical);
    hs_spec_free(&m.policy);
    return rc;
}

/* ---- runtime runs ------------------------------------------------------------ */

int hs_bm_scenario_check(const struct hs_dag *dag, const struct hs_scenario_plan *plan,
                         const char *policy_name)
{
    struct hs_bm_shape shape;
    if (!plan->bm_policy || hs_bm_dag_shape(dag, plan->bm_dim, &shape) == 0)
        return 0;
    char why[1024];
    snprintf(why, sizeof why, "%s", hs_last_error());
    return hs_fail("policy %s: %s", policy_name, why);
}

void hs_bm_scenario_volume(cJSON *record, const struct hs_run *run)
{
    struct hs_bm_shape shape;
    const struct hs_sched *rt = run->rt;
    if (hs_sched_dag(rt)->ntasks == 0 || hs_bm_dag_shape(hs_sched_dag(rt), 0, &shape))
        return;
    struct hs_bm_volume v;
    hs_bm_run_volume(rt, &shape, hs_runtime_bytes(rt, HS_DIR_H2D) + hs_runtime_bytes(rt, HS_DIR_P2P), &v);
    cJSON *o = cJSON_AddObjectToObject(cJSON_GetObjectItemCaseSensitive(record, "results"), "products");
    cJSON_AddNumberToObject(o, "blocks", v.blocks);
    cJSON_AddNumberToObject(o, "lower_bound", v.lower_bound);
    cJSON_AddNumberToObject(o, "ratio", v.ratio);
}
