/* sim/cli/scenario.c — resolving a scenario's names, running it, and turning
 * the run into its record (with the metrics of analysis/). Beaumont and
 * Marchal's policies on a free flat platform run in their own model
 * (bm_scenario.c). */
#include "sim/cli/scenario.h"
#include "sim/cli/bm_scenario.h"
#include "analysis/metrics.h"
#include "policies/registry.h"
#include "sim/cli/cli.h"
#include "sim/record.h"
#include "sim/trace_chrome.h"
#include "sim/trace_taskrec.h"
#include "sim/util.h"
#include "workloads/workload.h"
#ifdef HETSIM_WITH_REAL
#include "sim/real/run_real.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hs_scenario_defaults(struct hs_scenario *sc)
{
    memset(sc, 0, sizeof *sc);
#ifdef HETSIM_WITH_REAL
    sc->engine = "real"; /* hetsim-real */
#else
    sc->engine = "simgrid";
#endif
    sc->platform = HS_DEFAULT_PLATFORM;
    sc->workload = HS_DEFAULT_WORKLOAD;
    sc->policy = HS_DEFAULT_POLICY;
    hs_run_config_defaults(&sc->cfg);
    sc->costs = "platform";
}

static void add_metrics(cJSON *rec, const struct hs_run *run)
{
    struct hs_metrics m;
    hs_metrics_compute(run->rt, run->rt->makespan, &m);
    cJSON *res = cJSON_GetObjectItemCaseSensitive(rec, "results");
    cJSON_AddNumberToObject(res, "flops", m.flops);
    cJSON_AddNumberToObject(res, "gflops", m.gflops);
    cJSON_AddNumberToObject(res, "cp_min", m.cp_min);
    cJSON_AddNumberToObject(res, "slr", m.slr);
    cJSON_AddNumberToObject(res, "cpic", m.cpic);
    cJSON_AddNumberToObject(res, "slr_cpic", m.slr_cpic);
    cJSON_AddNumberToObject(res, "sequential_time", m.sequential);
    cJSON_AddNumberToObject(res, "speedup", m.speedup);
    cJSON_AddNumberToObject(res, "efficiency", m.efficiency);
    /* for the summary of `hetsim run` only (not written to the record) */
    cJSON *x = cJSON_AddObjectToObject(rec, "explain");
    if (m.sequential_worker >= 0)
        cJSON_AddStringToObject(x, "sequential_worker", hs_sched_worker(run->rt, m.sequential_worker)->name);
    cJSON *t = cJSON_AddObjectToObject(rec, "timing");
    cJSON_AddNumberToObject(t, "wall_seconds", run->wall);
    cJSON_AddNumberToObject(t, "policy_seconds", run->rt->policy_wall);
}

static int write_trace(const char *path, const struct hs_run *run,
                       int (*writer)(const struct hs_sched *, FILE *))
{
    if (!path)
        return 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return hs_fail("cannot write %s", path);
    int rc = writer(run->rt, f);
    if (fclose(f))
        rc = hs_fail("cannot write %s", path);
    return rc;
}

static int run_resolved(const struct hs_scenario *sc, const struct hs_platform_ref *ref,
                        const struct hs_dag *dag, const struct hs_policy *policy,
                        const struct hs_spec *pspec, cJSON **record)
{
    struct hs_run_config cfg = sc->cfg;
    cfg.platform_file = ref->file;
    cfg.platform_name = ref->name;
    cfg.perf_file = ref->perf;
    cfg.bw_scale = ref->bw_scale;
    cfg.host_map = ref->host_map;
    cfg.opts.gpu_speed = ref->gpu_speed;
    struct hs_run run;
    int rc;
    bool real = strcmp(sc->engine, "real") == 0;
    if (real && (ref->bw_scale != 1 || ref->gpu_speed != 1)) {
        hs_fail("platform %s: bw_scale and gpu_speed scale a simulated machine; the real engine "
                "measures this one",
                sc->platform);
        return HS_EXIT_USAGE;
    }
#if defined(HETSIM_WITH_REAL)
    if (!real) {
        hs_fail("hetsim-real measures only (--engine real): simulate with hetsim");
        return HS_EXIT_USAGE;
    }
    rc = hs_run_real(&cfg, dag, policy, pspec, &run);
#elif defined(HETSIM_WITH_SIMGRID)
    if (real) { /* main.c hands these to hetsim-real when it was built */
        hs_fail("this hetsim was built without the real engine (it needs OpenBLAS and LAPACKE at "
                "build time)");
        return HS_EXIT_USAGE;
    }
    rc = hs_run_simgrid(&cfg, dag, policy, pspec, &run);
#endif
    if (rc == HS_EXIT_FAIL)
        hs_fail("run failed: %s", run.rt->error);
    else if (rc && run.rt && run.rt->refused)
        hs_fail("%s", run.rt->error);
    if (rc == 0) {
        char *policy_text = hs_spec_text(pspec);
        struct hs_record_inputs in = {sc->platform, dag->name, policy_text, ref->perf_label, &cfg};
        *record = hs_record_new(&in, &run);
        free(policy_text);
        add_metrics(*record, &run);
        hs_bm_scenario_volume(*record, &run);
        if (sc->events) {
            hs_record_add_events(*record, run.rt);
            hs_record_add_core_times(*record, &run);
        }
        if (write_trace(sc->trace, &run, hs_trace_write_csv) ||
            write_trace(sc->chrome_trace, &run, hs_trace_write_chrome) ||
            write_trace(sc->tasks_rec, &run, hs_trace_write_taskrec)) {
            cJSON_Delete(*record);
            *record = NULL;
            rc = HS_EXIT_FAIL;
        }
    }
    hs_run_free(&run);
    return rc;
}

/* A platform file with no timing table times kernels as flops / host speed:
 * say so, since the user may expect the kernels of the machine it describes
 * (flat:P is defined by its speeds, and explicit costs need no table). */
static void warn_rate_based(const struct hs_scenario *sc, const struct hs_platform_ref *ref,
                            const struct hs_dag *dag)
{
    if (ref->perf || hs_platform_is_flat(sc->platform) || strcmp(sc->engine, "simgrid") != 0)
        return;
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[i];
        if (!t->proc_cost && isnan(t->arch_cost[HS_ARCH_CPU]) && isnan(t->arch_cost[HS_ARCH_GPU]) &&
            t->flops > 0) {
            fprintf(stderr, "hetsim: warning: platform %s has no timing table: kernels such as %s "
                            "last flops / host speed (name a table with --perf)\n",
                    sc->platform, dag->kernels[t->kernel]);
            return;
        }
    }
}

int hs_scenario_run(const struct hs_scenario *sc, cJSON **record)
{
    *record = NULL;
    if (hs_bm_scenario_is_model(sc))
        return hs_bm_scenario_run(sc, record);
    struct hs_platform_ref ref;
    if (hs_resolve_platform_seeded(sc->platform, sc->perf, sc->cfg.opts.seed, &ref))
        return HS_EXIT_USAGE;
    struct hs_dag *dag = hs_workload_build(sc->workload);
    struct hs_spec pspec;
    const struct hs_policy *policy = dag && !hs_bm_scenario_check(dag, sc->policy)
                                         ? hs_policy_parse(sc->policy, &pspec) : NULL;
    int rc = HS_EXIT_USAGE;
    if (policy) {
        rc = run_resolved(sc, &ref, dag, policy, &pspec, record);
        if (rc == 0) /* once the platform is known to load */
            warn_rate_based(sc, &ref, dag);
        hs_spec_free(&pspec);
    }
    hs_dag_free(dag);
    hs_platform_ref_free(&ref);
    return rc;
}
