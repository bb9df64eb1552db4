/* tests/support/testing_sim.c — a simulation run in a forked child (SimGrid
 * allows one simulation per process), its events handed back as JSON; flat
 * platforms for such runs. */
#include "base/util.h"
#include "platforms/flat.h"
#include "policies/registry.h"
#include "sim/runtime_internal.h"
#include "tests/support/testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static cJSON *events_json(const struct hs_run *run)
{
    const struct hs_runtime *rt = run->rt;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "makespan", rt->makespan);
    cJSON_AddNumberToObject(o, "predicted", isfinite(rt->predicted_makespan) ? rt->predicted_makespan : -1);
    if (rt->clusters >= 0) { /* the cluster graph a clustering policy reported */
        cJSON_AddNumberToObject(o, "clusters", rt->clusters);
        cJSON_AddNumberToObject(o, "cluster_edges", rt->cluster_edges);
    }
    cJSON *bytes = cJSON_AddArrayToObject(o, "bytes"), *count = cJSON_AddArrayToObject(o, "count");
    for (int d = 0; d < HS_NDIR; d++) {
        cJSON_AddItemToArray(bytes, cJSON_CreateNumber(rt->bytes[d]));
        cJSON_AddItemToArray(count, cJSON_CreateNumber((double)rt->count[d]));
    }
    cJSON_AddNumberToObject(o, "audit", (double)rt->audit_violations);
    cJSON_AddNumberToObject(o, "evictions", (double)rt->evictions);
    cJSON_AddNumberToObject(o, "writebacks", (double)rt->writebacks);
    cJSON_AddNumberToObject(o, "routes_asked", (double)hs_platform_routes_asked(&run->pf));
    cJSON_AddNumberToObject(o, "policy_seconds", rt->policy_wall);
    cJSON *tasks = cJSON_AddArrayToObject(o, "tasks");
    for (int i = 0; i < rt->dag->ntasks; i++) {
        const struct hs_task_event *ev = &rt->ts[i].ev;
        cJSON *t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "worker", ev->worker);
        cJSON_AddNumberToObject(t, "node", ev->worker >= 0 ? run->pf.workers[ev->worker].node : -1);
        cJSON_AddNumberToObject(t, "start", ev->start);
        cJSON_AddNumberToObject(t, "end", ev->end);
        cJSON_AddNumberToObject(t, "duration", ev->duration);
        cJSON_AddNumberToObject(t, "inputs", ev->inputs);
        cJSON_AddItemToArray(tasks, t);
    }
    cJSON *xfers = cJSON_AddArrayToObject(o, "xfers");
    for (size_t i = 0; i < rt->nxfers; i++) {
        const struct hs_xfer_event *ev = &rt->xfers[i].ev;
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "handle", ev->handle);
        cJSON_AddNumberToObject(x, "src", ev->src);
        cJSON_AddNumberToObject(x, "dst", ev->dst);
        cJSON_AddNumberToObject(x, "bytes", ev->bytes);
        cJSON_AddNumberToObject(x, "start", ev->start);
        cJSON_AddNumberToObject(x, "end", ev->end);
        cJSON_AddItemToArray(xfers, x);
    }
    return o;
}

cJSON *hs_test_simulate(const struct hs_run_config *cfg, const struct hs_dag *dag,
                        const struct hs_policy *policy, const char *policy_spec)
{
    return hs_test_run_on(&hs_engine_simgrid, cfg, dag, policy, policy_spec);
}

cJSON *hs_test_run_on(const struct hs_engine_kind *engine, const struct hs_run_config *cfg,
                      const struct hs_dag *dag, const struct hs_policy *policy,
                      const char *policy_spec)
{
    int fds[2];
    if (pipe(fds))
        return NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        struct hs_spec spec;
        hs_spec_parse(policy_spec, &spec);
        hs_spec_check(&spec, policy->params, "policy");
        struct hs_run run;
        int rc = engine->run(cfg, dag, policy, &spec, &run);
        cJSON *o = rc == 0 ? events_json(&run) : cJSON_CreateObject();
        if (rc)
            cJSON_AddStringToObject(o, "error", rc == 1 ? run.rt->error : hs_last_error());
        char *text = cJSON_PrintUnformatted(o);
        size_t len = strlen(text), off = 0;
        while (off < len) {
            ssize_t w = write(fds[1], text + off, len - off);
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    char *text = hs_test_read_fd(fds[0]);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    cJSON *o = cJSON_Parse(text);
    free(text);
    return o;
}

cJSON *hs_test_simulate_named(const struct hs_run_config *cfg, const struct hs_dag *dag,
                              const char *policy_spec)
{
    struct hs_spec spec;
    const struct hs_policy *p = hs_policy_parse(policy_spec, &spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    hs_spec_free(&spec);
    cJSON *r = hs_test_simulate(cfg, dag, p, policy_spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(r, "error");
    if (err)
        fprintf(stderr, "simulation failed: %s\n", err->valuestring);
    CU_ASSERT_PTR_NULL(err);
    return r;
}

struct hs_run_config hs_test_idgraf_timed(int gpus, int cpus)
{
    struct hs_run_config cfg = hs_test_idgraf_config(gpus, cpus);
    cfg.perf_file = hs_test_data("perf/idgraf.json");
    hs_test_no_costs(&cfg); /* the runtime's costs are checked in test_engine_simgrid's test_one_core_sum */
    return cfg;
}

int hs_test_gpu_task(struct hs_dag *dag, double seconds, int rd, int wr)
{
    int t = hs_dag_add_task(dag, "k", NULL, 0, 0);
    dag->tasks[t].arch_cost[HS_ARCH_GPU] = seconds;
    dag->tasks[t].arch_mask = HS_ARCH_BIT(HS_ARCH_GPU);
    if (rd >= 0)
        hs_dag_access(dag, t, rd, HS_MODE_R);
    if (wr >= 0)
        hs_dag_access(dag, t, wr, HS_MODE_W);
    return t;
}

struct hs_run_config hs_test_flat_config(int p, const double *speeds)
{
    static struct hs_flat flats[8]; /* the configuration points at it while the test runs */
    static int slot;
    struct hs_flat *flat = &flats[slot++ % 8];
    *flat = (struct hs_flat){.p = p, .speeds = speeds, .speed = 1, .bw = 1, .lat = 0};
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.flat = flat;
    cfg.platform_name = "flat";
    return cfg;
}

struct hs_run_config hs_test_idgraf_config(int gpus, int cpus)
{
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.platform_file = hs_test_data("idgraf.xml");
    cfg.platform_name = "idgraf";
    cfg.select.gpus = gpus;
    cfg.select.cpus = cpus;
    return cfg;
}

void hs_test_no_costs(struct hs_run_config *cfg)
{
    memset(&cfg->opts.costs, 0, sizeof cfg->opts.costs);
}

/* A platform of one zone holding body. */
char *hs_test_platform_file(const char *body)
{
    char text[4096];
    snprintf(text, sizeof text,
             "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n%s\n</zone>\n</platform>\n", body);
    return hs_test_tmp_text(".xml", text);
}

/* n independent tasks of flops each, without data, as a hetsim JSON DAG. */
char *hs_test_independent_tasks(int n, double flops)
{
    char text[8192];
    int len = snprintf(text, sizeof text, "{\"name\":\"independent\",\"tasks\":[");
    for (int i = 0; i < n; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, "%s{\"label\":\"t%d\",\"flops\":%.0f,\"accesses\":[]}",
                        i ? "," : "", i, flops);
    snprintf(text + len, sizeof text - (size_t)len, "]}\n");
    return hs_test_tmp_text(".json", text);
}
