/* scenario/bm_scenario.c — Beaumont and Marchal's scenarios (bm_scenario.h):
 * the names of a run of their policies on a free network read into what the
 * model engine's request-level form takes (policies/bm/bm_engine.h), a
 * runtime run's DAG checked, and the volume section of its record. */
#include "scenario/bm_scenario.h"
#include "policies/bm/bm_dag.h"
#include "policies/bm/bm_engine.h"
#include "policies/registry.h"
#include "scenario/scenario.h"
#include "platforms/flat_speeds.h"
#include "base/util.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Options that mean nothing where communication is free and no task is traced. */
static int check_options(const struct hs_scenario *sc, int p)
{
    const struct hs_select *sel = &sc->cfg.select;
    const char *traced = sc->trace ? "--trace" : sc->cfg.paje_file ? "--paje" : sc->chrome_trace ? "--chrome-trace"
                         : sc->tasks_rec ? "--tasks-rec" : sc->events ? "--events" : NULL;
    if (traced) /* every one of them, not to write nothing and exit 0 */
        return hs_fail("%s: Beaumont and Marchal's model (flat with bw=inf) keeps no per-task trace or "
                       "events: give bw a finite value to run through the runtime", traced);
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

/* What the request-level engine is handed, read from the scenario's names. */
struct names {
    struct hs_product_shape shape;
    struct hs_flat_speeds fs;
    struct hs_spec policy;
};

static int read_names(const struct hs_scenario *sc, const struct hs_scenario_plan *plan,
                      struct names *m)
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
    return 0;
}

int hs_bm_scenario_run(const struct hs_scenario *sc, const struct hs_scenario_plan *plan,
                       cJSON **record)
{
    struct names m;
    memset(&m, 0, sizeof m);
    int rc = read_names(sc, plan, &m) ? HS_EXIT_USAGE : 0;
    if (!rc) {
        char *policy = hs_spec_text(&m.policy);
        struct hs_request_run req = {
            &m.policy, m.shape.dim, m.shape.n, m.shape.block_bytes, m.shape.task_flops, m.fs.p,
            m.fs.speeds, m.fs.drift,
            {sc->platform, m.shape.canonical, policy, NULL, &sc->cfg, plan->engine_reason}};
        rc = plan->engine->requests(&req, record) ? HS_EXIT_USAGE : 0;
        free(policy);
    }
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
    const struct hs_runtime *rt = run->rt;
    if (hs_sched_dag(rt)->ntasks == 0 || hs_bm_dag_shape(hs_sched_dag(rt), 0, &shape))
        return;
    struct hs_bm_volume v;
    hs_bm_run_volume(rt, &shape, hs_runtime_bytes(rt, HS_DIR_H2D) + hs_runtime_bytes(rt, HS_DIR_P2P), &v);
    cJSON *o = cJSON_AddObjectToObject(cJSON_GetObjectItemCaseSensitive(record, "results"), "products");
    cJSON_AddNumberToObject(o, "blocks", v.blocks);
    cJSON_AddNumberToObject(o, "lower_bound", v.lower_bound);
    cJSON_AddNumberToObject(o, "ratio", v.ratio);
}
