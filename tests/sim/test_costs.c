/* tests/sim/test_costs.c — the runtime's costs in simulated time
 * (sim/costs.h), against makespans computed by hand on small DAGs of
 * explicit costs on flat:2 (1 B/s links, no latency): the per-task
 * overhead, the per-copy issue cost and the decisions (a look-up for eager,
 * every worker examined for online HEFT) each add exactly their model's
 * time; parsing of the cost settings (scale=F included) and of the
 * platform's properties. */
#include "sim/costs.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MS 1e-3
#define US 1e-6

/* A chain a -> b -> c of 1 ms tasks, whose edges carry nothing; or, split,
 * of 1 s tasks where a runs only on processor 0 and b, c only on processor
 * 1, and a -> b carries `bytes`. */
static struct hs_dag *chain(double bytes, bool split)
{
    struct hs_dag *dag = hs_dag_new("chain");
    const double both[2] = {MS, MS}, p0[2] = {1, -1}, p1[2] = {-1, 1};
    int a = hs_test_task(dag, "a", split ? p0 : both, 2);
    int b = hs_test_task(dag, "b", split ? p1 : both, 2);
    int c = hs_test_task(dag, "c", split ? p1 : both, 2);
    hs_dag_add_edge(dag, a, b, bytes);
    hs_dag_add_edge(dag, b, c, 0);
    hs_dag_finalize(dag);
    return dag;
}

static struct hs_run_config with_costs(double task, double issue, double push, double worker)
{
    struct hs_run_config cfg = hs_test_flat_config(2, NULL);
    cfg.opts.costs = (struct hs_costs){.task = {task, task}, .transfer_issue = issue,
                                       .decide_push = push, .decide_worker = worker};
    return cfg;
}

static double makespan(const struct hs_run_config *cfg, const struct hs_dag *dag, const char *policy)
{
    cJSON *r = hs_test_simulate_named(cfg, dag, policy);
    double m = r ? cJSON_GetObjectItem(r, "makespan")->valuedouble : NAN;
    cJSON_Delete(r);
    return m;
}

/* No costs: the kernels alone. */
static void test_no_costs(void)
{
    struct hs_dag *dag = chain(0, false);
    struct hs_run_config cfg = with_costs(0, 0, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(makespan(&cfg, dag, "eager"), 3 * MS, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(makespan(&cfg, dag, "heft:online=1"), 3 * MS, 1e-15);
    hs_dag_free(dag);
}

/* Each task: its push decided (a look-up, 1 us), then 10 us of runtime work
 * before its kernel: 3 x (1 + 10) us on top of 3 ms. */
static void test_task_overhead_and_lookup(void)
{
    struct hs_dag *dag = chain(0, false);
    struct hs_run_config cfg = with_costs(10 * US, 0, 1 * US, 2 * US);
    CU_ASSERT_DOUBLE_EQUAL(makespan(&cfg, dag, "eager"), 3 * MS + 3 * 11 * US, 1e-12);
    hs_dag_free(dag);
}

/* Online HEFT examines both workers per task: a decision is 1 + 2 x 2 = 5 us,
 * made by the core that completed the predecessor (the master for a):
 * 3 x (5 + 10) us on top of 3 ms. */
static void test_decision_per_worker(void)
{
    struct hs_dag *dag = chain(0, false);
    struct hs_run_config cfg = with_costs(10 * US, 0, 1 * US, 2 * US);
    CU_ASSERT_DOUBLE_EQUAL(makespan(&cfg, dag, "heft:online=1"), 3 * MS + 3 * 15 * US, 1e-12);
    hs_dag_free(dag);
}

/* b must run on processor 1 and reads 2 B of a's output (2 s at 1 B/s; the
 * kernels take 1 s here): a ends at 5 + 10 us + 1 s; b's push is decided
 * 5 us later, then its copy (2 s), then 10 us of overhead plus 3 us for the
 * copy it issued, then its kernel; c follows on the same processor
 * (5 + 10 us, no copy). */
static void test_transfer_issue(void)
{
    struct hs_dag *dag = chain(2, true);
    struct hs_run_config cfg = with_costs(10 * US, 3 * US, 1 * US, 2 * US);
    double a_end = 15 * US + 1, b_end = a_end + 5 * US + 2 + 13 * US + 1;
    double c_end = b_end + 15 * US + 1;
    CU_ASSERT_DOUBLE_EQUAL(makespan(&cfg, dag, "heft:online=1"), c_end, 1e-12);
    hs_dag_free(dag);
}

/* The settings a run gives, and what is refused. */
static void test_parse(void)
{
    struct hs_costs c;
    double s;
    CU_ASSERT_EQUAL(hs_costs_parse_time("5us", &s), 0);
    CU_ASSERT_DOUBLE_EQUAL(s, 5e-6, 1e-18);
    CU_ASSERT_EQUAL(hs_costs_parse_time("0.1ms", &s), 0);
    CU_ASSERT_DOUBLE_EQUAL(s, 1e-4, 1e-18);
    CU_ASSERT_EQUAL(hs_costs_parse_time("2e-6", &s), 0);
    CU_ASSERT_DOUBLE_EQUAL(s, 2e-6, 1e-18);
    CU_ASSERT_NOT_EQUAL(hs_costs_parse_time("5 us", &s), 0);
    CU_ASSERT_NOT_EQUAL(hs_costs_parse_time("-1us", &s), 0);
    CU_ASSERT_NOT_EQUAL(hs_costs_parse_time("abc", &s), 0);
    CU_ASSERT_EQUAL(hs_costs_parse_spec("platform", &c), 0);
    CU_ASSERT_TRUE(isnan(c.task[HS_ARCH_CPU]) && isnan(c.decide_worker));
    CU_ASSERT_EQUAL(hs_costs_parse_spec("off", &c), 0);
    CU_ASSERT_FALSE(hs_costs_any(&c));
    CU_ASSERT_EQUAL(hs_costs_parse_spec("task=4us/decide_worker=50us", &c), 0);
    CU_ASSERT_DOUBLE_EQUAL(c.task[HS_ARCH_CPU], 4e-6, 1e-18);
    CU_ASSERT_DOUBLE_EQUAL(c.task[HS_ARCH_GPU], 4e-6, 1e-18);
    CU_ASSERT_DOUBLE_EQUAL(c.decide_worker, 5e-5, 1e-18);
    CU_ASSERT_TRUE(isnan(c.transfer_issue)); /* the platform's */
    CU_ASSERT_NOT_EQUAL(hs_costs_parse_spec("launch=5us", &c), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "launch"));
    CU_ASSERT_NOT_EQUAL(hs_costs_parse_spec("task=fast", &c), 0);
    /* scale=F: the platform's costs times F, the explicit ones left as given */
    CU_ASSERT_EQUAL(hs_costs_parse_spec("platform", &c), 0);
    CU_ASSERT_DOUBLE_EQUAL(c.scale, 1, 0);
    CU_ASSERT_EQUAL(hs_costs_parse_spec("scale=2/decide_worker=3us", &c), 0);
    CU_ASSERT_DOUBLE_EQUAL(c.scale, 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(c.decide_worker, 3e-6, 1e-18);
    CU_ASSERT_TRUE(isnan(c.task[HS_ARCH_CPU]));
    CU_ASSERT_NOT_EQUAL(hs_costs_parse_spec("scale=0", &c), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "scale '0' is not a number > 0"));
    CU_ASSERT_NOT_EQUAL(hs_costs_parse_spec("scale=-1", &c), 0);
    CU_ASSERT_NOT_EQUAL(hs_costs_parse_spec("scale=2x", &c), 0);
    CU_ASSERT_NOT_EQUAL(hs_costs_parse_spec("scale=inf", &c), 0);
}

/* A platform's zone properties set the costs; a bad one is refused with its
 * name and value; --costs overrides them. */
static void test_platform_properties(void)
{
    char *xml = hs_test_tmp(".xml");
    hs_test_write_file(xml, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                            "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"
                            " <prop id=\"runtime/task_cpu\" value=\"7us\"/>\n"
                            " <host id=\"CPU0\" speed=\"1Gf\"/><host id=\"RAM0\" speed=\"1f\"/>\n"
                            " <link id=\"l\" bandwidth=\"1GBps\" latency=\"0\"/>\n"
                            " <route src=\"CPU0\" dst=\"RAM0\"><link_ctn id=\"l\"/></route>\n"
                            "</zone></platform>\n");
    char *out = NULL, *err = NULL, args[1024];
    snprintf(args, sizeof args, "run -q -p %s -w random:v=5,seed=1,p=1 -s eager -o -", xml);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"task_cpu\":\t7e-06"));
    free(out), free(err);
    /* scale=F multiplies what the platform declares (7 us) and leaves what it
     * does not declare (decide_push: none) at none; an explicit cost is not
     * scaled */
    snprintf(args, sizeof args, "run -q -p %s -w random:v=5,seed=1,p=1 -s eager --costs scale=2 -o -", xml);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"task_cpu\":\t1.4e-05"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"decide_push\":\t0"));
    free(out), free(err);
    snprintf(args, sizeof args,
             "run -q -p %s -w random:v=5,seed=1,p=1 -s eager --costs scale=0.5/task_gpu=3us -o -", xml);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"task_cpu\":\t3.5e-06"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"task_gpu\":\t3e-06"));
    free(out), free(err);
    snprintf(args, sizeof args, "run -q -p %s -w random:v=5,seed=1,p=1 -s eager --no-costs -o -", xml);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "runtime_costs"));
    free(out), free(err);
    char *text = hs_test_read_file(xml), *p = strstr(text, "7us");
    memcpy(p, "7xx", 3);
    hs_test_write_file(xml, text);
    snprintf(args, sizeof args, "run -q -p %s -w random:v=5,seed=1,p=1 -s eager -o /dev/null", xml);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "runtime/task_cpu='7xx'"));
    free(out), free(err), free(text), free(xml);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"no costs", test_no_costs},
        {"task overhead and a look-up decision", test_task_overhead_and_lookup},
        {"a decision per worker examined", test_decision_per_worker},
        {"a copy's issue cost", test_transfer_issue},
        {"parsing", test_parse},
        {"platform properties", test_platform_properties},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("costs", tests);
}
