/* tests/sim/test_run.c — the engine interface (sim/run.h, sim/run.c): every
 * engine kind this build has runs the same small DAG under the same policy
 * through hs_engine_kind.run, and gives the makespan computed by hand (the
 * real engine: at least that, measured); SimGrid and the model engine part
 * exactly where the model's free network should make them part; the
 * command's --engine picks the engine and the record says which and why; and
 * Beaumont and Marchal's request-level model is a kind of the same interface
 * (hs_engine_model_requests: a `requests` entry and no runtime run), which a
 * scenario's plan picks for their policies on a free network, and which gives
 * the volume and makespan computed by hand for one processor. */
#include "base/util.h"
#include "policies/bm/bm_engine.h"
#include "policies/registry.h"
#include "scenario/scenario.h"
#include "tests/support/testing.h"

#ifdef HETSIM_TEST_REAL
#include "sim/engines/real/machine.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fork-join on two workers, costs in units of `unit` seconds on either: A
 * 2, then B and C 3 each, then D 1; every edge carries `bytes`. */
static struct hs_dag *fork_join(double unit, double bytes)
{
    struct hs_dag *dag = hs_dag_new("fork-join");
    const double ca[] = {2 * unit, 2 * unit}, cb[] = {3 * unit, 3 * unit}, cd[] = {unit, unit};
    int a = hs_test_task(dag, "A", ca, 2), b = hs_test_task(dag, "B", cb, 2),
        c = hs_test_task(dag, "C", cb, 2), d = hs_test_task(dag, "D", cd, 2);
    hs_dag_add_edge(dag, a, b, bytes);
    hs_dag_add_edge(dag, a, c, bytes);
    hs_dag_add_edge(dag, b, d, bytes);
    hs_dag_add_edge(dag, c, d, bytes);
    CU_ASSERT_EQUAL_FATAL(hs_dag_finalize(dag), 0);
    return dag;
}

/* Every task ran once, on one of the two workers, after its predecessors. */
static void check_schedule(const cJSON *r)
{
    const cJSON *tasks = cJSON_GetObjectItem(r, "tasks");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(tasks), 4);
    double start[4], end[4];
    for (int i = 0; i < 4; i++) {
        const cJSON *t = cJSON_GetArrayItem(tasks, i);
        int w = cJSON_GetObjectItem(t, "worker")->valueint;
        CU_ASSERT_TRUE(w == 0 || w == 1);
        start[i] = cJSON_GetObjectItem(t, "start")->valuedouble;
        end[i] = cJSON_GetObjectItem(t, "end")->valuedouble;
        CU_ASSERT_TRUE(end[i] >= start[i]);
    }
    CU_ASSERT_TRUE(start[1] >= end[0] && start[2] >= end[0]);
    CU_ASSERT_TRUE(start[3] >= end[1] && start[3] >= end[2]);
}

static cJSON *run_on(const struct hs_engine_kind *kind, const struct hs_run_config *cfg,
                     const struct hs_dag *dag)
{
    cJSON *r = hs_test_run_on(kind, cfg, dag, hs_policy_find("heft"), "heft");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const cJSON *err = cJSON_GetObjectItem(r, "error");
    if (err)
        fprintf(stderr, "\n%s: %s\n", kind->name, err->valuestring);
    CU_ASSERT_PTR_NULL(err);
    check_schedule(r);
    return r;
}

static double makespan(const cJSON *r)
{
    return cJSON_GetObjectItem(r, "makespan")->valuedouble;
}

/* Two cores sharing host memory (a machine description, and the SimGrid
 * platform that simulates it): no transfer, so every engine's makespan is
 * A + B (beside C) + D = 0.06 s; the real engine measures at least that. */
static void test_every_engine_same_dag(void)
{
    char *base = hs_test_tmp("");
    char xml[1024];
    snprintf(xml, sizeof xml, "%s.xml", base);
#ifdef HETSIM_TEST_REAL
    struct hs_machine m = {.name = "cores", .gpu_model = "", .cores = 2, .core_speed = 1e10,
                           .task_overhead = {NAN, NAN}};
    char json[1024];
    snprintf(json, sizeof json, "%s.machine.json", base);
    CU_ASSERT_EQUAL_FATAL(hs_machine_save(json, &m), 0);
    CU_ASSERT_EQUAL_FATAL(hs_machine_write_platform(&m, xml), 0);
#else
    hs_test_write_file(xml, "<?xml version='1.0'?>\n"
                            "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                            "<platform version=\"4.1\"><zone id=\"cores\" routing=\"Full\">\n"
                            "<host id=\"CPU0\" speed=\"1e10f\"/><host id=\"CPU1\" speed=\"1e10f\"/>\n"
                            "<host id=\"RAM0\" speed=\"1f\"/></zone></platform>\n");
#endif
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.platform_file = xml;
    cfg.platform_name = "cores";
    cfg.opts.flush = false;
    hs_test_no_costs(&cfg);
    struct hs_dag *dag = fork_join(0.01, 1e6);
    const struct hs_engine_kind *simulated[] = {&hs_engine_simgrid, &hs_engine_model};
    for (int e = 0; e < 2; e++) {
        cJSON *r = run_on(simulated[e], &cfg, dag);
        CU_ASSERT_DOUBLE_EQUAL(makespan(r), 0.06, 1e-12);
        cJSON_Delete(r);
    }
#ifdef HETSIM_TEST_REAL
    cJSON *r = run_on(&hs_engine_real, &cfg, dag);
    CU_ASSERT_TRUE(makespan(r) >= 0.06 && makespan(r) < 2);
    cJSON_Delete(r);
#endif
    hs_dag_free(dag);
    free(base);
}

/* flat:2 with 1 B/s links, costs in units of 10 s and edges of 10 B (10 s
 * each on a link). HEFT puts A and B on P0, C and D on P1 (computed by hand:
 * C ends at 60 on P1 against 80 on P0; D at 70 on P1 against 80 on P0). In
 * SimGrid the plan holds: C waits for A's output until 30, D for B's until
 * 60, so the makespan is 70. On the free network the same placement ends at
 * 60: C starts at 20, D at 50. Both move the same two copies. */
static void test_free_network_parts_from_simgrid(void)
{
    struct hs_run_config cfg = hs_test_flat_config(2, NULL);
    cfg.opts.flush = false;
    hs_test_no_costs(&cfg);
    struct hs_dag *dag = fork_join(10, 10);
    cJSON *sg = run_on(&hs_engine_simgrid, &cfg, dag), *model = run_on(&hs_engine_model, &cfg, dag);
    CU_ASSERT_DOUBLE_EQUAL(makespan(sg), 70, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(makespan(model), 60, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(sg, "predicted")->valuedouble, 70, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(model, "predicted")->valuedouble, 70, 1e-9);
    int moved[2] = {0, 0};
    cJSON *runs[2] = {sg, model};
    for (int e = 0; e < 2; e++) {
        const cJSON *count = cJSON_GetObjectItem(runs[e], "count");
        for (int d = 0; d < cJSON_GetArraySize(count); d++)
            moved[e] += cJSON_GetArrayItem(count, d)->valueint;
        const cJSON *tasks = cJSON_GetObjectItem(runs[e], "tasks");
        int on[4];
        for (int i = 0; i < 4; i++)
            on[i] = cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, i), "worker")->valueint;
        CU_ASSERT_TRUE(on[0] == on[1] && on[2] == on[3] && on[0] != on[2]);
    }
    CU_ASSERT_EQUAL(moved[0], 2);
    CU_ASSERT_EQUAL(moved[1], 2);
    cJSON_Delete(sg);
    cJSON_Delete(model);
    hs_dag_free(dag);
}

static const char *engine_of(const cJSON *rec, const char **reason)
{
    *reason = cJSON_GetObjectItem(rec, "engine_reason")->valuestring;
    return cJSON_GetObjectItem(rec, "engine")->valuestring;
}

/* --engine picks the engine; the record says which ran and why. */
static void test_engine_option(void)
{
    const char *why;
    cJSON *r = hs_test_run_record("-w cholesky:n=2048,nb=512");
    CU_ASSERT_STRING_EQUAL(engine_of(r, &why), "simgrid");
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "auto"));
    cJSON_Delete(r);
    r = hs_test_run_record("-w cholesky:n=2048,nb=512 --engine model");
    CU_ASSERT_STRING_EQUAL(engine_of(r, &why), "model");
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "--engine model"));
    cJSON_Delete(r);
    /* Beaumont and Marchal on a free network: their model unless asked otherwise */
    r = hs_test_run_record("-p flat:4,bw=inf -w outer:n=12 -s dynamic-outer");
    CU_ASSERT_STRING_EQUAL(engine_of(r, &why), "model");
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "Beaumont and Marchal"));
    cJSON_Delete(r);
    r = hs_test_run_record("-p flat:4,bw=inf -w outer:n=12 -s dynamic-outer --engine simgrid");
    CU_ASSERT_STRING_EQUAL(engine_of(r, &why), "simgrid");
    const cJSON *products = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "products");
    CU_ASSERT_PTR_NOT_NULL(products); /* through the runtime, the DAG's volume */
    cJSON_Delete(r);
    hs_test_bad_cli("run --engine warp", "'warp' is not auto, simgrid, model or real");
    char *paje = hs_test_tmp(".paje"), args[1024];
    snprintf(args, sizeof args, "run -w cholesky:n=2048,nb=512 --engine model --paje %s", paje);
    hs_test_bad_cli(args, "the model engine runs no SimGrid simulation");
    free(paje);
}

/* The kind each scenario's plan picks: the request-level form for Beaumont and
 * Marchal's policies on a free network only. */
static const struct hs_engine_kind *planned(const char *platform, const char *policy,
                                            const char *engine)
{
    struct hs_scenario sc;
    hs_scenario_defaults(&sc);
    sc.platform = platform;
    sc.workload = "outer:n=4";
    sc.policy = policy;
    sc.engine = engine;
    struct hs_scenario_plan plan;
    CU_ASSERT_EQUAL_FATAL(hs_scenario_plan(&sc, &plan), 0);
    const struct hs_engine_kind *k = plan.engine;
    hs_scenario_plan_free(&plan);
    return k;
}

static void test_request_level_kind(void)
{
    const struct hs_engine_kind *k = &hs_engine_model_requests;
    CU_ASSERT_STRING_EQUAL(k->name, "model"); /* the model engine, in its request-level form */
    CU_ASSERT_TRUE(k->requests != NULL && k->run == NULL && !k->measured);
    CU_ASSERT_TRUE(hs_engine_simgrid.requests == NULL && hs_engine_model.requests == NULL);
    CU_ASSERT_TRUE(planned("flat:4,bw=inf", "dynamic-outer", "auto") == k);
    CU_ASSERT_TRUE(planned("flat:4,bw=inf", "dynamic-outer", "model") == k);
    CU_ASSERT_TRUE(planned("flat:4,bw=inf", "dynamic-outer", "simgrid") == &hs_engine_simgrid);
    CU_ASSERT_TRUE(planned("flat:4,bw=1e9", "dynamic-outer", "auto") == &hs_engine_simgrid);
    CU_ASSERT_TRUE(planned("flat:4,bw=inf", "eager", "model") == &hs_engine_model);
    /* By hand: one processor of 2 flop/s, tasks of 2 flop (1 s each), an outer
     * product of n = 4: its 16 tasks end at 16 s, and it receives each of the
     * 2n = 8 blocks once (8 bytes each: 64 bytes), the lower bound 2·√16 = 8. */
    struct hs_spec spec;
    CU_ASSERT_PTR_NOT_NULL_FATAL(hs_policy_parse("random-outer", &spec));
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    const double speed[] = {2};
    struct hs_request_run req = {&spec, 2, 4, 8, 2, 1, speed, 0,
                                 {"flat:1,bw=inf", "outer:n=4", "random-outer", NULL, &cfg, "test"}};
    cJSON *rec = NULL;
    CU_ASSERT_EQUAL_FATAL(k->requests(&req, &rec), 0);
    const cJSON *res = cJSON_GetObjectItem(rec, "results");
    const cJSON *products = cJSON_GetObjectItem(res, "products");
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(rec, "engine")->valuestring, "model");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(res, "makespan")->valuedouble, 16, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(cJSON_GetObjectItem(res, "bytes"), "h2d")->valuedouble,
                           64, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(products, "blocks")->valuedouble, 8, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(products, "lower_bound")->valuedouble, 8, 1e-9);
    cJSON_Delete(rec);
    hs_spec_free(&spec);
}

int main(void)
{
    const CU_TestInfo tests[] = {
        {"every engine runs the same DAG", test_every_engine_same_dag},
        {"the free network parts from SimGrid as computed", test_free_network_parts_from_simgrid},
        {"--engine and the record", test_engine_option},
        {"Beaumont and Marchal's request-level kind", test_request_level_kind},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("run", tests);
}
