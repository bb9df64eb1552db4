/* policies/bm/bm_engine.c — the model engine's request-level form
 * (bm_engine.h): Beaumont and Marchal's policy configured for the product and
 * the speeds (bm_policies.h), run to its end in their model (bm_model.h), and
 * recorded as a runtime run is, with their products' section. */
#include "policies/bm/bm_engine.h"
#include "policies/bm/bm_analysis.h"
#include "policies/bm/bm_model.h"
#include "policies/bm/bm_policies.h"
#include "base/rng.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runtime's streams of a seed: 1 for the policy, 2 for noise (here the drift). */
#define POLICY_STREAM 1
#define DRIFT_STREAM 2

struct model_run {
    const struct hs_request_run *req;
    struct hs_bm_model_config mc;
    struct hs_bm_model_result res;
    double beta, wall;
    const char *how;
};

static int prepare(struct model_run *m)
{
    const struct hs_request_run *r = m->req;
    if (hs_bm_policy_config(r->policy, r->n, r->p, r->speeds, &m->mc.strategy, &m->beta, &m->how))
        return -1;
    double *tps = hs_xmalloc((size_t)r->p * sizeof *tps); /* flop/s -> tasks/s */
    for (int k = 0; k < r->p; k++)
        tps[k] = r->speeds[k] / r->task_flops;
    m->mc.speeds = tps;
    m->mc.drift = r->drift;
    return 0;
}

static int simulate(struct model_run *m)
{
    unsigned long seed = m->req->inputs.cfg->opts.seed;
    gsl_rng *rng = hs_rng(seed, POLICY_STREAM);
    gsl_rng *drift = hs_rng(seed, DRIFT_STREAM);
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
    const struct hs_request_run *r = m->req;
    cJSON *arr = cJSON_CreateArray();
    for (int k = 0; k < r->p; k++) {
        char name[32];
        snprintf(name, sizeof name, "P%d", k);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", name);
        cJSON_AddStringToObject(o, "arch", "cpu");
        cJSON_AddStringToObject(o, "memory_node", name);
        cJSON_AddNumberToObject(o, "speed", r->speeds[k]);
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
    const struct hs_request_run *r = m->req;
    double fastest = 0, mean_time = 0, makespan = m->res.makespan, flops = tasks * r->task_flops;
    for (int k = 0; k < r->p; k++) {
        fastest = fmax(fastest, r->speeds[k]);
        mean_time += r->task_flops / r->speeds[k] / r->p;
    }
    double cp = r->task_flops / fastest, seq = flops / fastest;
    cJSON_AddNumberToObject(o, "flops", flops);
    cJSON_AddNumberToObject(o, "gflops", flops / makespan / 1e9);
    cJSON_AddNumberToObject(o, "cp_min", cp);
    cJSON_AddNumberToObject(o, "slr", makespan / cp);
    cJSON_AddNumberToObject(o, "cpic", mean_time);
    cJSON_AddNumberToObject(o, "slr_cpic", makespan / mean_time);
    cJSON_AddNumberToObject(o, "sequential_time", seq);
    cJSON_AddNumberToObject(o, "speedup", seq / makespan);
    cJSON_AddNumberToObject(o, "efficiency", seq / makespan / r->p);
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
    const struct hs_request_run *r = m->req;
    struct hs_bm_analysis a;
    hs_bm_analysis_init(&a, r->dim, r->n, r->p, r->speeds);
    double lb = hs_bm_lower_bound(&a), realised = 0;
    for (int k = 0; k < r->p; k++) /* the bound for the shares each one computed */
        realised += r->dim * pow((double)m->res.tasks[k], (r->dim - 1.0) / r->dim);
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

static cJSON *record_json(const struct model_run *m)
{
    const struct hs_request_run *r = m->req;
    double tasks = pow(r->n, r->dim), moved = (double)m->res.blocks;
    cJSON *rec = cJSON_CreateObject();
    cJSON_AddStringToObject(rec, "hetsim_version", hs_version());
    cJSON_AddStringToObject(rec, "engine", hs_engine_model_requests.name);
    cJSON_AddStringToObject(rec, "engine_reason", r->inputs.engine_reason);
    cJSON_AddBoolToObject(rec, "measured", false);
    cJSON_AddItemToObject(rec, "inputs", hs_record_inputs_json(&r->inputs, 0, r->p));
    cJSON_AddItemToObject(rec, "workers", workers_json(m));
    cJSON *res = cJSON_AddObjectToObject(rec, "results");
    cJSON_AddNumberToObject(res, "makespan", m->res.makespan);
    cJSON_AddNullToObject(res, "predicted_makespan");
    cJSON_AddNumberToObject(res, "tasks", tasks);
    cJSON *pa = cJSON_AddObjectToObject(res, "tasks_per_arch");
    cJSON_AddNumberToObject(pa, "cpu", tasks);
    cJSON_AddNumberToObject(pa, "gpu", 0);
    add_counts(res, "bytes", moved * r->block_bytes);
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

static int serve_requests(const struct hs_request_run *req, cJSON **record)
{
    struct model_run m;
    memset(&m, 0, sizeof m);
    m.req = req;
    int rc = prepare(&m) || simulate(&m) ? 2 : 0;
    if (!rc)
        *record = record_json(&m);
    hs_bm_model_result_free(&m.res);
    free((double *)m.mc.speeds);
    return rc;
}

const struct hs_engine_kind hs_engine_model_requests = {
    "model", "Beaumont and Marchal's model on a free network: their strategies serve the workers' "
    "requests, without the DAG or the runtime", false, NULL, serve_requests};
