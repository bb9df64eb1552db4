/* tests/policies/test_dada.c — the DADA policies (policies/dada.c) and DDA
 * (policies/dda.c) in simulated runs: affinity on hand-made DAGs (with α = 1
 * a single ready task goes to the GPU holding what it writes; with α = 0 its
 * placement does not depend on where its data is), hand-computed allocations
 * of a batch of independent tasks, communication prediction aware of the
 * PCIe switches, the variants as presets of dada, the
 * transfer volume of α = 1 against α = 0 on Cholesky with 8 GPUs, bad
 * parameters, and the quick versions of the studies. */
#include "analysis/csv.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <math.h>
#include <string.h>
#include <time.h>

/* Workers of idgraf with --gpus 2 --cpus 1: GPU0 (0), GPU1 (1), CPU0 (2). */
static void idgraf_config(struct hs_run_config *cfg, int gpus, int cpus)
{
    *cfg = hs_test_idgraf_config(gpus, cpus);
    hs_test_no_costs(cfg); /* batches computed by hand without the runtime's costs */
}

static int worker_of(const cJSON *r, int task)
{
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "tasks"), task);
    return cJSON_GetObjectItem(t, "worker")->valueint;
}

/* A writes the 2 MiB tile h on GPU `writer` (it runs only there); then B,
 * which updates h and runs on either GPU in 1 ms (1 s on the core), is the
 * only task A's completion makes ready. With busy_gpu0, a 1 s task L (GPU0
 * only, its input queued after A's) keeps GPU0 busy when B becomes ready. */
static struct hs_dag *writer_then_update(int writer, bool busy_gpu0, int *b)
{
    struct hs_dag *dag = hs_dag_new("affinity");
    int h = hs_dag_add_handle(dag, "h", 2097152), x = hs_dag_add_handle(dag, "x", 2097152);
    double ca[3] = {-1, -1, -1}, cl[3] = {1, -1, -1}, cb[3] = {1e-3, 1e-3, 1};
    ca[writer] = 1e-3;
    int ta = hs_dag_add_task(dag, "k", "A", 0, 0);
    hs_dag_set_proc_costs(dag, ta, ca, 3);
    hs_dag_access(dag, ta, h, HS_MODE_RW);
    if (busy_gpu0) {
        int tl = hs_dag_add_task(dag, "k", "L", 0, 0);
        hs_dag_set_proc_costs(dag, tl, cl, 3);
        hs_dag_access(dag, tl, x, HS_MODE_RW);
    }
    *b = hs_dag_add_task(dag, "k", "B", 0, 0);
    hs_dag_set_proc_costs(dag, *b, cb, 3);
    hs_dag_access(dag, *b, h, HS_MODE_RW);
    hs_dag_finalize(dag);
    return dag;
}

/* GPU0 busy for 1 s, h on GPU0: α = 1 queues B behind L on GPU0 (its
 * affinity GPU: load 0 < αλ), α = 0 sends it to the idle GPU1 (earliest
 * finish), with or without communication prediction for α = 1. */
static void test_alpha_one_goes_to_affinity_gpu(void)
{
    struct hs_run_config cfg;
    idgraf_config(&cfg, 2, 1);
    int b;
    struct hs_dag *dag = writer_then_update(0, true, &b);
    const char *specs[] = {"dada", "dada-cp", "dada:alpha=0.1", "dada0"};
    int expect[] = {0, 0, 0, 1};
    for (int i = 0; i < 4; i++) {
        cJSON *r = hs_test_simulate_named(&cfg, dag, specs[i]);
        CU_ASSERT_EQUAL(worker_of(r, b), expect[i]);
        cJSON_Delete(r);
    }
    hs_dag_free(dag);
}

/* Both GPUs idle when B becomes ready: DADA(0) puts B on GPU0 (the tie goes
 * to the lowest id) wherever h is; DADA(1) follows h. */
static void test_alpha_zero_ignores_data_location(void)
{
    struct hs_run_config cfg;
    idgraf_config(&cfg, 2, 1);
    for (int writer = 0; writer < 2; writer++) {
        int b;
        struct hs_dag *dag = writer_then_update(writer, false, &b);
        cJSON *r0 = hs_test_simulate_named(&cfg, dag, "dada0");
        cJSON *r1 = hs_test_simulate_named(&cfg, dag, "dada");
        CU_ASSERT_EQUAL(worker_of(r0, b), 0);
        CU_ASSERT_EQUAL(worker_of(r1, b), writer);
        cJSON_Delete(r0);
        cJSON_Delete(r1);
        hs_dag_free(dag);
    }
}

/* Four independent tasks, 1 s on GPU0 and 3 s on CPU0, one batch at time 0.
 * DADA(0) (by hand, dualapprox.h): below λ = 3 all fit only on the GPU, load
 * 4 ≤ 2λ from λ = 2: the search ends near 2 with all four on the GPU
 * (makespan 4 s). DDA: below λ = 3 all on the GPU, area 4 > λ: rejected;
 * at λ = 3 three fill the GPU (area 3 ≤ λ), the fourth overflows to the core
 * (area 3 ≤ λ): makespan 3 s. */
static void test_independent_batch(void)
{
    struct hs_dag *dag = hs_dag_new("batch");
    double c[2] = {1, 3};
    for (int i = 0; i < 4; i++)
        hs_dag_set_proc_costs(dag, hs_dag_add_task(dag, "k", "T", 0, 0), c, 2);
    hs_dag_finalize(dag);
    struct hs_run_config cfg;
    idgraf_config(&cfg, 1, 1);
    const char *specs[] = {"dada0", "dada", "dda"};
    int on_gpu[] = {4, 4, 3};
    double makespan[] = {4, 4, 3};
    for (int s = 0; s < 3; s++) {
        cJSON *r = hs_test_simulate_named(&cfg, dag, specs[s]);
        int gpu = 0;
        for (int i = 0; i < 4; i++)
            gpu += worker_of(r, i) == 0;
        CU_ASSERT_EQUAL(gpu, on_gpu[s]);
        CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, makespan[s], 1e-9);
        cJSON_Delete(r);
    }
    hs_dag_free(dag);
}

/* cp=topology (our option), by hand on idgraf with GPU0, GPU1 (one
 * PCIe switch), GPU2 (alone on the next) and a core. At time 0, L keeps GPU2
 * busy for 0.2 ms and B (1 ms on any GPU, 1 s on the core) reads a 2 MiB
 * tile from host memory: about 11 us + 0.35 ms on every GPU's route. With
 * cp=1, B finishes first on GPU0 or GPU1 (1.36 ms against 0.2 + 1.36 on
 * GPU2); with cp=topology the shared switch halves their bandwidth (1.71 ms)
 * and B goes to GPU2 (1.56 ms). */
static void test_cp_topology(void)
{
    struct hs_run_config cfg;
    idgraf_config(&cfg, 3, 1);
    struct hs_dag *dag = hs_dag_new("topology");
    int h = hs_dag_add_handle(dag, "h", 2097152);
    hs_test_task(dag, "L", (const double[]){-1, -1, 2e-4, -1}, 4);
    int b = hs_test_task(dag, "B", (const double[]){1e-3, 1e-3, 1e-3, 1}, 4);
    hs_dag_access(dag, b, h, HS_MODE_R);
    hs_dag_finalize(dag);
    const char *specs[] = {"dada0-cp", "dada0:cp=topology", "dada-cp:cp=topology"};
    const bool on_gpu2[] = {false, true, true};
    for (int i = 0; i < 3; i++) {
        cJSON *r = hs_test_simulate_named(&cfg, dag, specs[i]);
        CU_ASSERT_EQUAL(worker_of(r, b) == 2, on_gpu2[i]);
        CU_ASSERT(worker_of(r, b) <= 2);
        cJSON_Delete(r);
    }
    hs_dag_free(dag);
}

static double result(const cJSON *r, const char *key)
{
    const cJSON *res = cJSON_GetObjectItem(r, "results");
    if (strcmp(key, "bytes") == 0) {
        const cJSON *b = cJSON_GetObjectItem(res, "bytes");
        return cJSON_GetObjectItem(b, "h2d")->valuedouble + cJSON_GetObjectItem(b, "d2h")->valuedouble +
               cJSON_GetObjectItem(b, "p2p")->valuedouble;
    }
    return cJSON_GetObjectItem(res, key)->valuedouble;
}

/* The check: on Cholesky 8192/512 with 8 GPUs, α = 1 moves less data
 * than α = 0. */
static void test_affinity_moves_less_on_cholesky(void)
{
    const char *base = "-p idgraf -w cholesky:n=8192,nb=512 --gpus 8 --gpu-order spread";
    char args[256];
    snprintf(args, sizeof args, "%s -s dada:alpha=1", base);
    cJSON *one = hs_test_run_record(args);
    snprintf(args, sizeof args, "%s -s dada:alpha=0", base);
    cJSON *zero = hs_test_run_record(args);
    CU_ASSERT(result(one, "bytes") < result(zero, "bytes"));
    cJSON_Delete(one);
    cJSON_Delete(zero);
}

/* dada0, dada-cp, dada0-cp are dada with other defaults: the same run. Every
 * variant, DDA and the options run LU and QR to the end with every kernel on
 * a worker that can run it (the runtime refuses anything else). */
static void test_variants_and_options(void)
{
    const char *pairs[][2] = {{"dada0", "dada:alpha=0"}, {"dada-cp", "dada:cp=1"}, {"dada0-cp", "dada:alpha=0,cp=1"}};
    for (int i = 0; i < 3; i++) {
        char a[256], b[256];
        snprintf(a, sizeof a, "-w lu:n=2048,nb=512 --gpus 3 -s %s", pairs[i][0]);
        snprintf(b, sizeof b, "-w lu:n=2048,nb=512 --gpus 3 -s %s", pairs[i][1]);
        cJSON *x = hs_test_run_record(a), *y = hs_test_run_record(b);
        CU_ASSERT_EQUAL(result(x, "makespan"), result(y, "makespan"));
        CU_ASSERT_EQUAL(result(x, "bytes"), result(y, "bytes"));
        cJSON_Delete(x);
        cJSON_Delete(y);
    }
    const char *options[] = {"dada:ref=absolute", "dada:gpu_threshold=area", "dada:cpu_order=activation",
                             "dada:affinity=predicted", "dada:aff_host=1", "dada:steal=1,alpha=0.5",
                             "dda", "dda:accept=makespan,ignore_load=1"};
    for (int i = 0; i < 8; i++) {
        char args[256];
        snprintf(args, sizeof args, "-w qr:n=2048,nb=512 --gpus 2 --noise 0.05 -s %s", options[i]);
        cJSON *r = hs_test_run_record(args);
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "tasks")->valueint, 30);
        cJSON_Delete(r);
    }
}

static void test_bad_parameters(void)
{
    const char *bad[][2] = {{"dada:alpha=1.5", "alpha"}, {"dada-cp:rho=0.5", "rho"},
                            {"dada:ref=total", "ref"},   {"dda:accept=both", "accept"},
                            {"dada0:beta=1", "beta"},    {"dada:cp=2", "cp"}};
    for (int i = 0; i < 6; i++) {
        char args[256], *err = NULL;
        snprintf(args, sizeof args, "run -q -w cholesky:n=2048,nb=512 -s %s", bad[i][0]);
        CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 2);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i][1]));
        CU_ASSERT_PTR_NOT_NULL(strchr(err, '\n'));
        CU_ASSERT_PTR_NULL(strchr(strchr(err, '\n') + 1, '\n'));
        free(err);
    }
}

/* The studies of Figs. 1-4, DDA's and our side studies are shipped;
 * the quick versions of the LU figure, of the alpha sweep and of the
 * sensitivity sweep (platform parameters as axes) run in seconds, every row
 * ok, and print the paper's facts as ratios beside ours. */
static void test_quick_studies(void)
{
    char *out;
    CU_ASSERT_EQUAL(hs_test_cli("reproduce --list", &out, NULL), 0);
    for (const char *const *n = (const char *const[]){"dada-alpha ", "dada-alpha-cp", "dada-cholesky", "dada-lu",
                                                      "dada-qr", "dda-ch6", "dada-sensitivity", "dada-sizes",
                                                      "dada-models", NULL};
         *n; n++)
        CU_ASSERT_PTR_NOT_NULL(strstr(out, *n));
    free(out);
    const char *studies[] = {"dada-lu", "dada-alpha", "dada-sensitivity", "dada-alpha-steps"};
    const char *line[] = {"bytes_total ratio  policy=dada-cp gpus=8 vs policy=heft:online=1",
                          "gflops ratio       alpha=0 gpus=2 vs gpus=8",
                          "bytes_total ratio  bw_scale=0.5 gpu_speed=0.75 workload=lu:n=8192,nb=512 policy=dada-cp",
                          "alpha-steps.png"};
    /* 4 policies x 2 GPU counts x 2 reps; 2 alphas x 3 GPU counts x 2 reps;
     * 2 workloads x 2 policies x 2 bandwidths; 3 alphas */
    long rows[] = {16, 12, 8, 3};
    for (int i = 0; i < 4; i++) {
        long n;
        out = hs_test_quick_study(studies[i], &n);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, line[i]));
        CU_ASSERT_EQUAL(n, rows[i]);
        free(out);
    }
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"alpha = 1: a single ready task goes to its affinity GPU", test_alpha_one_goes_to_affinity_gpu},
        {"alpha = 0 ignores where the data is", test_alpha_zero_ignores_data_location},
        {"a batch of independent tasks, by hand (DADA, DDA)", test_independent_batch},
        {"cp=topology: shared PCIe switches in the prediction (by hand)", test_cp_topology},
        {"alpha = 1 moves less than alpha = 0 (Cholesky, 8 GPUs)", test_affinity_moves_less_on_cholesky},
        {"variants are presets; options run LU and QR", test_variants_and_options},
        {"bad parameters: exit 2, one line naming the field", test_bad_parameters},
        {"quick studies of Figs. 1 and 3", test_quick_studies},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("dada", tests);
}
