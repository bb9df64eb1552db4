/* tests/sim/test_wclass.c — classes of identical workers (sim/wclass.c,
 * issue 55 item 2): which workers form a class (flat:8's processors one
 * class; Idgraf's 4 cores on host memory one class and its 8 GPUs, whose
 * measured routes from host memory all differ (hetsim platform idgraf:
 * 5,982.87 to 6,025.79 MB/s), one each: 9), and the choices made through them:
 * dmda, online and offline HEFT give the same records, byte for byte with
 * every task's and transfer's events, as the scan of every worker
 * (HETSIM_WORKER_SCAN=1) on Idgraf, mapuche, flat:3, flat:8, flat:64, the
 * H100 node and SimGrid's small platform with its host map. */
#include "policies/registry.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct hs_policy *base;

/* The number of classes, and whether every member of a class has the
 * architecture and speed of its first, reported as the predicted makespan
 * (the one figure of a run a policy may set that comes back from the child). */
static int classes_init(struct hs_runtime *s)
{
    int rc = base->init(s), n = hs_sched_nclasses(s), bad = 0, seen = 0;
    for (int c = 0; c < n; c++) {
        const int *m;
        int k = hs_sched_class_members(s, c, &m);
        seen += k;
        for (int i = 0; i < k; i++) {
            const struct hs_worker *a = hs_sched_worker(s, m[0]), *b = hs_sched_worker(s, m[i]);
            bad += a->arch != b->arch || a->speed != b->speed || hs_sched_class_of(s, m[i]) != c ||
                   (i > 0 && m[i] <= m[i - 1]);
        }
    }
    hs_sched_set_predicted_makespan(s, bad || seen != hs_sched_nworkers(s) ? -1 : n);
    return rc;
}

static double classes_of(const struct hs_run_config *cfg, const char *workload)
{
    struct hs_dag *dag = hs_workload_build(workload);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    base = hs_policy_find("dmda");
    struct hs_policy p = *base;
    p.init = classes_init;
    cJSON *r = hs_test_simulate(cfg, dag, &p, "dmda");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    double n = hs_test_num(r, "predicted");
    cJSON_Delete(r);
    hs_dag_free(dag);
    return n;
}

static void test_classes(void)
{
    struct hs_run_config flat = hs_test_flat_config(8, NULL);
    CU_ASSERT_EQUAL(classes_of(&flat, "cholesky:n=2048,nb=512"), 1);
    double speeds[] = {1, 1, 2, 1}; /* a faster processor is a class of its own */
    struct hs_run_config mixed = hs_test_flat_config(4, speeds);
    CU_ASSERT_EQUAL(classes_of(&mixed, "cholesky:n=2048,nb=512"), 2);
    struct hs_run_config idgraf = hs_test_idgraf_timed(8, 4);
    CU_ASSERT_EQUAL(classes_of(&idgraf, "cholesky:n=2048,nb=512"), 9);
}

/* The record of `hetsim run` with or without the scan, as bytes. */
static char *record(const char *platform, const char *policy, const char *workload, bool scan)
{
    char *out = hs_test_tmp(".json"), *o = NULL, *e = NULL;
    char args[1024];
    snprintf(args, sizeof args, "run -q --events --seed 1 -o '%s' -p '%s' -s '%s' -w '%s'", out, platform,
             policy, workload);
    if (scan)
        setenv("HETSIM_WORKER_SCAN", "1", 1);
    int rc = hs_test_cli(args, &o, &e);
    unsetenv("HETSIM_WORKER_SCAN");
    if (rc != 0)
        fprintf(stderr, "\nhetsim %s: exit %d: %s\n", args, rc, e);
    CU_ASSERT_EQUAL(rc, 0);
    char *text = rc == 0 ? hs_test_read_file(out) : NULL;
    free(o);
    free(e);
    remove(out);
    free(out);
    return text;
}

static void same_records(const char *platform, const char *workload)
{
    static const char *const policies[] = {"dmda", "dmda:prefetch=0", "dmda:eft=overlap,bus=plain",
                                           "heft:online=1", "heft:online=1,order=fifo,eft=topcuoglu,comm=naccel",
                                           "heft", "heft:insertion=0"};
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++) {
        char *classes = record(platform, policies[i], workload, false);
        char *scan = record(platform, policies[i], workload, true);
        bool same = classes && scan && strcmp(classes, scan) == 0;
        if (!same)
            fprintf(stderr, "\n%s, %s, %s: the records differ through the classes\n", platform, policies[i],
                    workload);
        CU_ASSERT(same);
        free(classes);
        free(scan);
    }
}

static void test_same_records_small(void)
{
    same_records("idgraf", "cholesky:n=8192,nb=1024");
    same_records("mapuche", "cholesky:n=8192,nb=1024");
    same_records("h100", "cholesky:n=8192,nb=1024");
    char smallpf[4096];
    snprintf(smallpf, sizeof smallpf, "%s:hosts=%s", hs_test_datafile("simgrid-small_platform.xml"),
             hs_test_datafile("simgrid-small_platform.hosts"));
    same_records(smallpf, "cholesky:n=4096,nb=1024");
}

/* Processors of one class: many members tie, their copies differ. */
static void test_same_records_flat(void)
{
    same_records("flat:3", "cholesky:n=8192,nb=1024");
    same_records("flat:8", "cholesky:n=8192,nb=512");
    same_records("flat:64", "cholesky:n=16384,nb=1024");
    same_records("flat:64", "lu:n=8192,nb=1024"); /* offline HEFT fills idle windows there */
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"which workers form a class", test_classes},
        {"the same records as the scan: Idgraf, mapuche, H100, a host map", test_same_records_small},
        {"the same records as the scan: flat:3, flat:8, flat:64", test_same_records_flat},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("wclass", tests);
}
