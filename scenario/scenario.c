/* scenario/scenario.c — reading a scenario's names once into its plan (which
 * engine runs it, and why), resolving them, running it on its engine, and
 * turning the run into its record (with the metrics of analysis/).
 * Beaumont and Marchal's policies on a free flat platform run in the model
 * engine's request-level form (bm_scenario.c). */
#include "scenario/scenario.h"
#include "scenario/bm_scenario.h"
#include "analysis/metrics.h"
#include "policies/registry.h"
#include "policies/bm/bm_engine.h"
#include "policies/bm/bm_policies.h"
#include "sim/outfile.h"
#include "sim/record.h"
#include "sim/trace_chrome.h"
#include "sim/trace_taskrec.h"
#include "base/util.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hs_scenario_defaults(struct hs_scenario *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->engine = "auto";
    sc->platform = HS_DEFAULT_PLATFORM;
    sc->workload = HS_DEFAULT_WORKLOAD;
    sc->policy = HS_DEFAULT_POLICY;
    hs_run_config_defaults(&sc->cfg);
    sc->costs = "platform";
}

const char *hs_engine_name(const char *text)
{
    static const char *const names[] = {"auto", "simgrid", "model", "real"};
    if (strcmp(text, "cuda") == 0)
        return "real";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(text, names[i]) == 0)
            return names[i];
    return NULL;
}

/* The policy's name: the text before ':'. */
static void policy_name(const char *text, char *name, size_t size)
{
    size_t n = strcspn(text, ":");
    snprintf(name, size, "%.*s", (int)(n < size ? n : size - 1), text);
}

static int read_platform_kind(const struct hs_scenario *sc, struct hs_scenario_plan *p)
{
    p->flat = hs_platform_is_flat(sc->platform);
    if (!p->flat)
        return 0;
    if (hs_spec_parse(sc->platform, &p->flat_spec))
        return -1;
    if (hs_spec_check(&p->flat_spec, hs_flat_params(), "platform flat")) {
        hs_spec_free(&p->flat_spec);
        p->flat = false;
        return -1;
    }
    p->free_network = isinf(hs_spec_double(&p->flat_spec, "bw"));
    return 0;
}

/* Which engine runs the scenario, and why (the record says both). This
 * hetsim simulates (simgrid, model); hetsim-real measures (real): main.c
 * hands it `run --engine real`. */
static int choose_engine(const struct hs_scenario *sc, struct hs_scenario_plan *p)
{
    const char *asked = sc->engine;
#if defined(HETSIM_WITH_REAL)
    if (strcmp(asked, "auto") && strcmp(asked, "real"))
        return hs_fail("hetsim-real measures only (--engine real): simulate with hetsim (--engine %s)",
                       asked);
    p->engine = &hs_engine_real;
    snprintf(p->engine_reason, sizeof p->engine_reason, "%s", strcmp(asked, "real") == 0
             ? "asked for (--engine real): measured on this machine" : "hetsim-real measures");
    return 0;
#else
    bool bm_model = p->bm_policy && p->free_network;
    if (strcmp(asked, "real") == 0)
        return hs_fail("this hetsim was built without the real engine (it needs OpenBLAS and LAPACKE "
                       "at build time)");
    if (strcmp(asked, "simgrid") == 0) {
        p->engine = &hs_engine_simgrid;
        snprintf(p->engine_reason, sizeof p->engine_reason, "asked for (--engine simgrid)");
    } else if (strcmp(asked, "model") == 0) {
        p->engine = bm_model ? &hs_engine_model_requests : &hs_engine_model;
        snprintf(p->engine_reason, sizeof p->engine_reason, "asked for (--engine model)%s",
                 bm_model ? ": Beaumont and Marchal's policy at the level of its requests" : "");
    } else if (bm_model) {
        p->engine = &hs_engine_model_requests;
        snprintf(p->engine_reason, sizeof p->engine_reason,
                 "auto: Beaumont and Marchal's policy on a free network (flat:P with bw=inf) runs in "
                 "their model, at the level of its requests");
    } else {
        p->engine = &hs_engine_simgrid;
        snprintf(p->engine_reason, sizeof p->engine_reason, "auto: simulated runs use SimGrid");
    }
    return 0;
#endif
}

/* Energy is SimGrid's energy plugin's: the other engines cannot count it. */
static int check_energy(const struct hs_scenario *sc, const struct hs_scenario_plan *p)
{
#if defined(HETSIM_WITH_REAL)
    (void)p;
    if (sc->cfg.energy)
        return hs_fail("--energy: a measured run cannot count energy (simulated runs do, with SimGrid's "
                       "energy plugin)");
#else
    if (sc->cfg.energy && p->engine != &hs_engine_simgrid)
        return hs_fail("--energy: the %s engine cannot count energy (--engine simgrid does)", p->engine->name);
#endif
    return 0;
}

/* The last error, prefixed with the path of the output it concerns. */
static int fail_with_path(const char *path)
{
    char why[1024];
    snprintf(why, sizeof why, "%s", hs_last_error());
    return hs_fail("%s: %s", path, why);
}

/* The platform, the DAG and the policy of a run through the runtime, in the
 * order their errors are reported. */
static int plan_runtime_run(const struct hs_scenario *sc, struct hs_scenario_plan *p)
{
    if (hs_resolve_platform_seeded(sc->platform, sc->perf, sc->cfg.opts.seed, &p->platform))
        return -1;
    if (!(p->dag = hs_workload_build(sc->workload)))
        return -1;
    if (sc->tasks_rec) /* before the run, once, not when writing it */
        hs_trace_taskrec_warn(p->dag, sc->tasks_rec, stderr);
    if (!(p->policy = hs_policy_parse(sc->policy, &p->policy_spec)))
        return -1;
    if (hs_bm_scenario_check(p->dag, p, p->policy->name))
        return -1;
    const struct hs_platform_ref *ref = &p->platform;
    int changed = hs_machine_params_changed_simulated(&ref->machine);
    if (p->engine->measured && changed >= 0) {
        char v[256];
        return hs_fail("platform %s: %s=%s changes a simulated machine; the real engine measures this one",
                       sc->platform, hs_machine_param_info(changed)->name,
                       hs_machine_param_text(&ref->machine, changed, v, sizeof v));
    }
    if (p->engine->measured && ref->flat)
        return hs_fail("platform %s: flat:P is a simulated machine; the real engine measures a calibrated "
                       "one (hetsim calibrate)", sc->platform);
    p->cfg = sc->cfg;
    p->cfg.platform_file = ref->file;
    p->cfg.flat = ref->flat;
    p->cfg.platform_name = ref->name;
    p->cfg.perf_file = ref->perf;
    p->cfg.opts.machine = ref->machine; /* whole: its texts stay the plan's */
    return 0;
}

int hs_scenario_plan(const struct hs_scenario *sc, struct hs_scenario_plan *p)
{
    memset(p, 0, sizeof *p);
    char name[128];
    enum hs_bm_kind kind;
    policy_name(sc->policy, name, sizeof name);
    p->bm_policy = hs_bm_policy_kind(name, &p->bm_dim, &kind);
    if (read_platform_kind(sc, p) || choose_engine(sc, p) || check_energy(sc, p) ||
        (!p->engine->requests && plan_runtime_run(sc, p))) {
        hs_scenario_plan_free(p);
        return HS_EXIT_USAGE;
    }
    return 0;
}

void hs_scenario_plan_free(struct hs_scenario_plan *p)
{
    if (p->flat)
        hs_spec_free(&p->flat_spec);
    if (p->platform.name)
        hs_platform_ref_free(&p->platform);
    hs_dag_free(p->dag);
    if (p->policy)
        hs_spec_free(&p->policy_spec);
    memset(p, 0, sizeof *p);
}

static void add_metrics(cJSON *rec, const struct hs_run *run)
{
    struct hs_metrics m;
    hs_metrics_compute(run->rt, hs_runtime_makespan(run->rt), &m);
    cJSON *res = cJSON_GetObjectItemCaseSensitive(rec, "results");
    cJSON_AddNumberToObject(res, "flops", m.flops);
    cJSON_AddNumberToObject(res, "gflops", m.gflops);
    cJSON_AddNumberToObject(res, "cp_min", m.cp_min);
    cJSON_AddNumberToObject(res, "slr", m.slr);
    cJSON_AddNumberToObject(res, "cpic", m.cpic);
    cJSON_AddNumberToObject(res, "slr_cpic", m.slr_cpic);
    if (m.sequential_worker >= 0) {
        cJSON_AddNumberToObject(res, "sequential_time", m.sequential);
        cJSON_AddNumberToObject(res, "speedup", m.speedup);
        cJSON_AddNumberToObject(res, "efficiency", m.efficiency);
    } else { /* no worker can run every task: no sequential time to compare with */
        cJSON_AddNullToObject(res, "sequential_time");
        cJSON_AddNullToObject(res, "speedup");
        cJSON_AddNullToObject(res, "efficiency");
    }
    cJSON_AddNumberToObject(res, "speedup_split", m.speedup_split);
    /* for the summary of `hetsim run` only (not written to the record) */
    cJSON *x = cJSON_AddObjectToObject(rec, "explain");
    if (m.sequential_worker >= 0)
        cJSON_AddStringToObject(x, "sequential_worker", hs_sched_worker(run->rt, m.sequential_worker)->name);
    double speed = hs_runtime_dag(run->rt)->runtime_speed;
    if (speed > 0) /* a workflow of runtimes: its flops are runtime x speed */
        cJSON_AddNumberToObject(x, "runtime_speed", speed);
    cJSON *t = cJSON_AddObjectToObject(rec, "timing");
    cJSON_AddNumberToObject(t, "wall_seconds", run->wall);
    cJSON_AddNumberToObject(t, "policy_seconds", hs_runtime_policy_seconds(run->rt));
}

static int write_trace(const char *path, const struct hs_run *run,
                       int (*writer)(const struct hs_runtime *, FILE *))
{
    if (!path)
        return 0;
    struct hs_outfile out;
    if (hs_outfile_open(&out, path))
        return -1;
    int rc = writer(run->rt, out.f);
    if (rc) { /* the writer's message, with the path; the old file stays */
        hs_outfile_abort(&out);
        return fail_with_path(path);
    }
    return hs_outfile_commit(&out);
}

static int run_planned(const struct hs_scenario *sc, const struct hs_scenario_plan *plan,
                       cJSON **record)
{
    const struct hs_dag *dag = plan->dag;
    struct hs_run run;
    int rc = plan->engine->run(&plan->cfg, dag, plan->policy, &plan->policy_spec, &run);
    if (rc == HS_EXIT_FAIL)
        hs_fail("run failed: %s", hs_runtime_error(run.rt));
    else if (rc && run.rt && hs_runtime_refused(run.rt))
        hs_fail("%s", hs_runtime_error(run.rt));
    if (rc == 0) {
        /* a plugin's run is named by its policy's name, the plugin's path beside it */
        struct hs_spec named = plan->policy_spec;
        named.name = (char *)plan->policy->name;
        char *policy_text = hs_spec_text(&named);
        struct hs_record_inputs in = {sc->platform, dag->name, policy_text, plan->platform.perf_label,
                                      &plan->cfg, plan->engine_reason};
        *record = hs_record_new(&in, &run);
        free(policy_text);
        if (strcmp(plan->policy->name, plan->policy_spec.name) != 0)
            cJSON_AddStringToObject(cJSON_GetObjectItem(*record, "inputs"), "policy_plugin", plan->policy_spec.name);
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
static void warn_rate_based(const struct hs_scenario *sc, const struct hs_scenario_plan *plan)
{
    const struct hs_dag *dag = plan->dag;
    if (plan->platform.perf || plan->flat || plan->engine->measured)
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

/* A DAG none of whose tasks costs anything (a DAX or workflow without
 * runtimes): the makespan is the transfers alone, and SLR and speedup have
 * nothing to divide (null in the record): say so once. */
static void warn_costless(const struct hs_scenario_plan *plan)
{
    const struct hs_dag *dag = plan->dag;
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[i];
        if (t->flops > 0 || t->proc_cost || t->arch_cost[HS_ARCH_CPU] > 0 || t->arch_cost[HS_ARCH_GPU] > 0)
            return;
    }
    if (dag->ntasks > 0)
        fprintf(stderr, "hetsim: warning: DAG %s: no task has a cost (no runtime or flops in the file): the "
                        "makespan is its transfers alone, and SLR and speedup are n/a\n", dag->name);
}

int hs_scenario_run(const struct hs_scenario *sc, cJSON **record)
{
    *record = NULL;
    struct hs_scenario_plan plan;
    if (hs_scenario_plan(sc, &plan))
        return HS_EXIT_USAGE;
    int rc;
    if (plan.engine->requests) { /* the model engine's request-level form */
        rc = hs_bm_scenario_run(sc, &plan, record);
    } else {
        rc = run_planned(sc, &plan, record);
        if (rc == 0) { /* once the platform is known to load */
            warn_rate_based(sc, &plan);
            warn_costless(&plan);
        }
    }
    hs_scenario_plan_free(&plan);
    return rc;
}
