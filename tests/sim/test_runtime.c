/* tests/sim/test_runtime.c — the runtime (sim/runtime.c) offers work only
 * to the workers a policy names (hs_sched_offer_mode, issue 55 item 3): the runs of eager,
 * dmda and online HEFT are the same event for event as when every worker
 * with room is asked at every completion (offers turned off under the same
 * policy), and so are those of the offline list schedulers (HEFT, CPOP,
 * PEFT, HEFT-NC) and of work stealing (ws), on Idgraf with its timing table
 * and on flat:8; the pops the runtime makes follow the ready work, not the
 * workers: a chain of 20 tasks on flat:64 takes one pop per task. */
#include "policies/registry.h"
#include "sim/runtime_internal.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <string.h>

static const struct hs_policy *base; /* the policy under test (the run is in a child) */
static bool offers_off;
static int pops;

static int wrapped_init(struct hs_runtime *s)
{
    int rc = base->init(s);
    if (offers_off)
        s->offers = false; /* every worker with room asked, as before offers */
    return rc;
}

/* Each pop counted, the count reported as the predicted makespan (the one
 * figure of a run a policy may set that comes back from the child). */
static struct hs_task *counted_pop(struct hs_runtime *s, int w)
{
    hs_sched_set_predicted_makespan(s, ++pops);
    return base->pop(s, w);
}

static cJSON *run(const struct hs_run_config *cfg, const struct hs_dag *dag, const char *spec, bool off)
{
    char name[64];
    snprintf(name, sizeof name, "%s", spec);
    name[strcspn(name, ":")] = 0;
    base = hs_policy_find(name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(base);
    struct hs_policy p = *base;
    p.init = wrapped_init;
    p.pop = counted_pop;
    offers_off = off;
    pops = 0;
    cJSON *r = hs_test_simulate(cfg, dag, &p, spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(r, "error"));
    return r;
}

static void same_both_ways(const struct hs_run_config *cfg, const struct hs_dag *dag, const char *what)
{
    static const char *const specs[] = {"eager", "dmda", "dmda:prefetch=0", "dmda:eft=overlap",
                                        "heft:online=1", "heft:online=1,order=fifo", "heft",
                                        "heft:insertion=0", "cpop", "peft", "heftnc", "ws",
                                        "ws:push=locality", "lws:victim=random"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        cJSON *on = run(cfg, dag, specs[i], false), *off = run(cfg, dag, specs[i], true);
        double pops_on = hs_test_num(on, "predicted"), pops_off = hs_test_num(off, "predicted");
        for (cJSON *r = on; r; r = r == on ? off : NULL) {
            cJSON_DeleteItemFromObject(r, "predicted");
            cJSON_DeleteItemFromObject(r, "policy_seconds");
        }
        bool same = cJSON_Compare(on, off, true);
        if (!same)
            fprintf(stderr, "\n%s under %s: the runs differ with offers\n", what, specs[i]);
        CU_ASSERT(same);
        CU_ASSERT(pops_on <= pops_off); /* the pops passed over were those that gave nothing */
        cJSON_Delete(on);
        cJSON_Delete(off);
    }
}

static void test_same_runs_idgraf(void)
{
    struct hs_run_config cfg = hs_test_idgraf_timed(3, 9);
    struct hs_dag *dag = hs_workload_build("cholesky:n=10240,nb=1024");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    same_both_ways(&cfg, dag, "Cholesky on Idgraf");
    hs_dag_free(dag);
}

static void test_same_runs_flat(void)
{
    struct hs_run_config cfg = hs_test_flat_config(8, NULL);
    /* 1 GB/s: at the test platform's 1 B/s, heftnc's second DAG runs to a clock of 3.35e10 s,
     * where SimGrid leaves activities below its precision unfinished (the run fails so) */
    static struct hs_flat fast;
    fast = *cfg.flat;
    fast.bw = 1e9;
    cfg.flat = &fast;
    for (int seed = 1; seed <= 2; seed++) {
        struct hs_dag *dag = hs_test_build_seeded("random:v=150,p=8,seed=%d", seed);
        CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
        same_both_ways(&cfg, dag, "a random DAG on flat:8");
        hs_dag_free(dag);
    }
}

static void test_pops_follow_work(void)
{
    struct hs_run_config cfg = hs_test_flat_config(64, NULL);
    struct hs_dag *dag = hs_dag_new("chain");
    int h = hs_dag_add_handle(dag, "x", 8);
    for (int i = 0; i < 20; i++)
        hs_dag_access(dag, hs_dag_add_task(dag, "k", NULL, 1, 0), h, HS_MODE_RW);
    CU_ASSERT_EQUAL_FATAL(hs_dag_finalize(dag), 0);
    static const char *const specs[] = {"eager", "dmda", "heft:online=1", "heft", "peft", "ws"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        cJSON *r = run(&cfg, dag, specs[i], false);
        double n = hs_test_num(r, "predicted");
        if (n > 20)
            fprintf(stderr, "\n%s: %.0f pops for a chain of 20 tasks on 64 workers\n", specs[i], n);
        CU_ASSERT_EQUAL(n, 20); /* one per task: the worker that just finished takes the next */
        cJSON_Delete(r);
    }
    hs_dag_free(dag);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"eager, dmda, HEFT, CPOP, PEFT, HEFT-NC, ws run the same with offers (Idgraf, Cholesky)",
         test_same_runs_idgraf},
        {"... and on flat:8 (random DAGs)", test_same_runs_flat},
        {"a chain on 64 workers takes one pop per task", test_pops_follow_work},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("runtime", tests);
}
