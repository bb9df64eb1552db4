/* tests/policies/test_ws.c — work stealing (XKaapi): the ends of the queues, a
 * steal never taking a task the thief cannot run, H2 sending a task to the
 * GPU that holds the data it writes, and the one-GPU DGEMM moving exactly
 * the minimum (3S in, S out) when the matrices fit, and out of core exactly
 * when its order's working set fits the cache (Table 5.1's 8.00 GiB). */
#include "policies/deque.h"
#include "base/util.h"
#include "policies/registry.h"
#include "policies/ws.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <string.h>

static bool even_only(const struct hs_task *t, void *ctx)
{
    (void)ctx;
    return t->id % 2 == 0;
}

/* Local push at the head, remote push at the tail, pop from the head, steal
 * from the tail, each skipping tasks the worker cannot run. */
static void test_queue_ends(void)
{
    struct hs_task t[6] = {0};
    for (int i = 0; i < 6; i++) {
        t[i].id = i;
        t[i].arch_mask = HS_ARCHMASK_ALL;
    }
    struct hs_deque q;
    hs_deque_init(&q);
    hs_deque_push_head(&q, &t[0]); /* 0 */
    hs_deque_push_head(&q, &t[1]); /* 1 0 */
    hs_deque_push_tail(&q, &t[2]); /* 1 0 2 */
    hs_deque_push_tail(&q, &t[3]); /* 1 0 2 3 */
    hs_deque_push_head(&q, &t[4]); /* 4 1 0 2 3 */
    CU_ASSERT_PTR_EQUAL(hs_deque_at(&q, 0), &t[4]);
    CU_ASSERT_PTR_EQUAL(hs_deque_pop_head(&q, NULL, NULL), &t[4]); /* 1 0 2 3 */
    CU_ASSERT_PTR_EQUAL(hs_deque_pop_tail(&q, NULL, NULL), &t[3]); /* 1 0 2 */
    CU_ASSERT_PTR_EQUAL(hs_deque_pop_head(&q, even_only, NULL), &t[0]); /* skips 1: 1 2 */
    hs_deque_push_tail(&q, &t[5]);                                    /* 1 2 5 */
    CU_ASSERT_PTR_EQUAL(hs_deque_pop_tail(&q, even_only, NULL), &t[2]); /* skips 5: 1 5 */
    CU_ASSERT_PTR_NULL(hs_deque_pop_tail(&q, even_only, NULL));
    CU_ASSERT_EQUAL(q.len, 2);
    CU_ASSERT(hs_deque_admits(&q, HS_ARCH_CPU));
    for (int i = 0; i < 40; i++) /* growth keeps the order */
        hs_deque_push_tail(&q, &t[i % 6]);
    CU_ASSERT_PTR_EQUAL(hs_deque_pop_head(&q, NULL, NULL), &t[1]);
    CU_ASSERT_PTR_EQUAL(hs_deque_pop_head(&q, NULL, NULL), &t[5]);
    CU_ASSERT_PTR_EQUAL(hs_deque_pop_head(&q, NULL, NULL), &t[0]);
    hs_deque_free(&q);
}

/* A queue counts the tasks each architecture may run: a core skips, without a
 * scan, a queue of GPU-only tasks, and sees a CPU-capable one as soon as it
 * arrives and no longer once it is taken. */
static void test_queue_admits(void)
{
    struct hs_task gpu_only = {.id = 0, .arch_mask = HS_ARCH_BIT(HS_ARCH_GPU)};
    struct hs_task any = {.id = 1, .arch_mask = HS_ARCHMASK_ALL};
    struct hs_deque q;
    hs_deque_init(&q);
    CU_ASSERT(!hs_deque_admits(&q, HS_ARCH_CPU) && !hs_deque_admits(&q, HS_ARCH_GPU));
    hs_deque_push_head(&q, &gpu_only);
    CU_ASSERT(!hs_deque_admits(&q, HS_ARCH_CPU) && hs_deque_admits(&q, HS_ARCH_GPU));
    hs_deque_push_tail(&q, &any);
    CU_ASSERT(hs_deque_admits(&q, HS_ARCH_CPU));
    CU_ASSERT_PTR_EQUAL(hs_deque_pop_tail(&q, NULL, NULL), &any);
    CU_ASSERT(!hs_deque_admits(&q, HS_ARCH_CPU) && hs_deque_admits(&q, HS_ARCH_GPU));
    CU_ASSERT_PTR_EQUAL(hs_deque_pop_head(&q, NULL, NULL), &gpu_only);
    CU_ASSERT(!hs_deque_admits(&q, HS_ARCH_GPU));
    hs_deque_free(&q);
}

/* POTRF on cores only, the rest on GPUs only: every variant completes (the
 * runtime refuses a task given to a worker that cannot run it) with the
 * kernels where the hints put them. 10x10 tiles: 10 POTRF, 210 others. The
 * same for GEMM on GPUs only. */
static void test_steal_respects_architectures(void)
{
    const char *policies[] = {"ws", "ws:push=locality", "ws:push=writer", "ws:push=writer,writer=thesis",
                              "ws:scope=gpu,push=locality", "lws"};
    for (int i = 0; i < 6; i++) {
        char args[256];
        snprintf(args, sizeof args, "-w cholesky:n=5120,nb=512,setarch=1 -s %s --gpus 3 --seed %d",
                 policies[i], i + 1);
        cJSON *r = hs_test_run_record(args);
        const cJSON *arch = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "tasks_per_arch");
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(arch, "cpu")->valueint, 10);
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(arch, "gpu")->valueint, 210);
        cJSON_Delete(r);
        /* the parallel diagonal keeps its 10 x (2 views + 20 sub-tile tasks) on the cores */
        snprintf(args, sizeof args, "-w cholesky:n=5120,nb=512,setarch=1,pardiag=128 -s %s --gpus 3 --seed %d",
                 policies[i], i + 1);
        r = hs_test_run_record(args);
        arch = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "tasks_per_arch");
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(arch, "cpu")->valueint, 220);
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(arch, "gpu")->valueint, 210);
        cJSON_Delete(r);
        /* GEMM's hint: all 4x4x4 = 64 GEMMs on the GPUs, none stolen by a core */
        snprintf(args, sizeof args, "-w gemm:n=2048,nb=512,setarch=1 -s %s --gpus 2 --seed %d", policies[i], i + 1);
        r = hs_test_run_record(args);
        arch = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "tasks_per_arch");
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(arch, "cpu")->valueint, 0);
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(arch, "gpu")->valueint, 64);
        cJSON_Delete(r);
    }
}

/* Workers GPU0, GPU1, CPU0. A writes h on GPU1; B (on the core) finishes
 * last, so the core activates C, which updates h: H2 mails C to GPU1, where
 * h is; the default pushes it locally, on the core. No stealing, so that the
 * push alone decides. */
static void test_h2_goes_to_the_writer(void)
{
    struct hs_dag *dag = hs_dag_new("h2");
    int h = hs_dag_add_handle(dag, "h", 1 << 20), b = hs_dag_add_handle(dag, "b", 8);
    double ca[] = {-1, 1e-3, -1}, cb[] = {-1, -1, 1e-2}, cc[] = {1e-3, 1e-3, 1e-3};
    int ta = hs_dag_add_task(dag, "k", "A", 0, 0), tb = hs_dag_add_task(dag, "k", "B", 0, 0);
    int tc = hs_dag_add_task(dag, "k", "C", 0, 0);
    hs_dag_set_proc_costs(dag, ta, ca, 3);
    hs_dag_set_proc_costs(dag, tb, cb, 3);
    hs_dag_set_proc_costs(dag, tc, cc, 3);
    hs_dag_access(dag, ta, h, HS_MODE_RW);
    hs_dag_access(dag, tb, b, HS_MODE_W);
    hs_dag_access(dag, tc, h, HS_MODE_RW);
    hs_dag_access(dag, tc, b, HS_MODE_R);
    hs_dag_finalize(dag);
    struct hs_run_config cfg = hs_test_idgraf_config(2, 1);
    const char *specs[] = {"ws:push=writer,steal=0", "ws:steal=0"};
    int expect[] = {1, 2};
    for (int i = 0; i < 2; i++) {
        struct hs_spec spec;
        const struct hs_policy *p = hs_policy_parse(specs[i], &spec);
        hs_spec_free(&spec);
        cJSON *r = hs_test_simulate(&cfg, dag, p, specs[i]);
        CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(r, "error"));
        const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "tasks"), tc);
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(c, "worker")->valueint, expect[i]);
        cJSON_Delete(r);
    }
    hs_dag_free(dag);
}

/* Bytes moved host to GPU and back by one run of hetsim. */
static void moved(const char *args, double *h2d, double *d2h)
{
    cJSON *r = hs_test_run_record(args);
    const cJSON *bytes = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "bytes");
    *h2d = cJSON_GetObjectItem(bytes, "h2d")->valuedouble;
    *d2h = cJSON_GetObjectItem(bytes, "d2h")->valuedouble;
    cJSON_Delete(r);
}

/* DGEMM 8192 on one GPU: A, B and C (512 MiB each) fit in the cache, so each
 * tile goes in once and C comes back once: 3S + S. */
static void test_one_gpu_dgemm_minimum(void)
{
    const char *policies[] = {"ws", "ws:push=writer", "lws"};
    double S = 8192.0 * 8192 * 8;
    for (int i = 0; i < 3; i++) {
        char args[256];
        snprintf(args, sizeof args, "-w gemm:n=8192,nb=1024 -s %s --gpus 1 --cpus 0", policies[i]);
        double h2d, d2h;
        moved(args, &h2d, &d2h);
        CU_ASSERT_DOUBLE_EQUAL(h2d, 3 * S, 0);
        CU_ASSERT_DOUBLE_EQUAL(d2h, S, 0);
    }
}

/* Out of core, the minimum depends on the order's working set (8 MiB tiles; a
 * C2050 without ECC, as Idgraf's were in Lima 2014's runs, holds 3 220 551 387
 * B, the cache a fraction of it; a window of 2 pins at most 3 tasks' 9 tiles).
 * Read-only blocks are evicted first, so the finished C tiles stay and the
 * rest must fit beside them:
 *   XKaapi's order (each C(i,j) chain to its end, row by row) reuses B for
 *   every row of C: C + B + a row of A, 2t^2 + t tiles for t x t tiles;
 *   a k-wave (all chains advance together: a central FIFO, or ws:order=fifo,
 *   the activation order of the root frame) needs C and one row of the
 *   wave's operand: t^2 + t + 1 tiles.
 * DGEMM 8192 (t = 8, A + B + C = 192 tiles): the k-wave needs 73 (+9), XKaapi's
 * order 136 (+9). Table 5.1's DGEMM 16384 (t = 16): the k-wave needs 273 (+9),
 * XKaapi's order 528; XKaapi's cache (0.8 of the memory) is 307 tiles, so the
 * k-wave reaches the thesis' 8.00 GiB there and XKaapi's order does not; with
 * 0.7 (268 tiles, the cache of a C2050 with ECC) neither does. */
static void test_one_gpu_dgemm_out_of_core(void)
{
    const double S8 = 8192.0 * 8192 * 8, S16 = 16384.0 * 16384 * 8;
    const char *gemm8 = "-w gemm:n=8192,nb=1024,setarch=1 --gpus 1 --cpus 0";
    const char *gemm16 = "-w gemm:n=16384,nb=1024,setarch=1 --gpus 1 --cpus 0";
    struct {
        const char *workload, *policy, *fraction;
        double S;
        bool minimum;
    } cases[] = {
        {gemm8, "ws", "0.5", S8, true},      /* 191 tiles >= 145 */
        {gemm8, "ws", "0.3", S8, false},     /* 115 tiles < 136 */
        {gemm8, "eager", "0.3", S8, true},   /* 115 tiles >= 82 */
        {gemm8, "eager", "0.17", S8, false}, /* 65 tiles < 73 (C alone: 64) */
        {gemm16, "ws", "0.8", S16, false},   /* 307 tiles < 528 */
        {gemm16, "eager", "0.7", S16, false}, /* 268 tiles < 273 */
        {gemm16, "eager", "0.8", S16, true}, /* 307 tiles >= 282 */
        {gemm8, "ws:order=fifo", "0.3", S8, true},   /* 115 tiles >= 82 */
        {gemm8, "ws:order=fifo", "0.17", S8, false}, /* 65 tiles < 73 */
        {gemm16, "ws:order=fifo", "0.7", S16, false}, /* 268 tiles < 273 */
        {gemm16, "ws:order=fifo", "0.8", S16, true},  /* 307 tiles: Table 5.1's 8.00 GiB */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[256];
        snprintf(args, sizeof args, "%s -s %s --cache-fraction %s", cases[i].workload,
                 cases[i].policy, cases[i].fraction);
        double h2d, d2h;
        moved(args, &h2d, &d2h);
        if (cases[i].minimum) {
            CU_ASSERT_DOUBLE_EQUAL(h2d, 3 * cases[i].S, 0);
            CU_ASSERT_DOUBLE_EQUAL(d2h, cases[i].S, 0);
        } else { /* C evicted too (cache below C) sends it back early */
            CU_ASSERT(h2d > 3 * cases[i].S);
            CU_ASSERT(d2h >= cases[i].S);
        }
    }
}

/* The steal cost is charged: with a huge cost per attempt, stolen tasks start late. */
static void test_steal_cost_charged(void)
{
    cJSON *cheap = hs_test_run_record("-w cholesky:n=4096,nb=512,setarch=1 -s ws:steal_cost=0 --gpus 2");
    cJSON *dear = hs_test_run_record("-w cholesky:n=4096,nb=512,setarch=1 -s ws:steal_cost=1e-2 --gpus 2");
    double a = cJSON_GetObjectItem(cJSON_GetObjectItem(cheap, "results"), "makespan")->valuedouble;
    double b = cJSON_GetObjectItem(cJSON_GetObjectItem(dear, "results"), "makespan")->valuedouble;
    CU_ASSERT(b > a + 1e-2); /* at least one steal of at least one attempt */
    double overhead = 0;
    const cJSON *w;
    cJSON_ArrayForEach(w, cJSON_GetObjectItem(dear, "workers"))
        overhead += cJSON_GetObjectItem(w, "scheduling_overhead")->valuedouble;
    CU_ASSERT(overhead >= 1e-2);
    cJSON_Delete(cheap);
    cJSON_Delete(dear);
}

/* The policy under test, its pop reporting after each call the attempts on
 * workers without work so far (as the predicted makespan: the one figure a
 * policy sets that comes back from the child running the simulation). */
static const struct hs_policy *watched;

static struct hs_task *watched_pop(struct hs_runtime *s, int w)
{
    struct hs_task *t = watched->pop(s, w);
    hs_sched_set_predicted_makespan(s, (double)hs_ws_empty_visits(s));
    return t;
}

static double empty_visits(const struct hs_run_config *cfg, const struct hs_dag *dag, const char *spec)
{
    struct hs_spec parsed;
    watched = hs_policy_parse(spec, &parsed);
    hs_spec_free(&parsed);
    CU_ASSERT_PTR_NOT_NULL_FATAL(watched);
    struct hs_policy p = *watched;
    p.pop = watched_pop;
    cJSON *r = hs_test_simulate(cfg, dag, &p, spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(r, "error"));
    double n = hs_test_num(r, "predicted");
    cJSON_Delete(r);
    return n;
}

/* Random victims are drawn among the workers with work for the thief's
 * architecture only: no attempt on any other, with GPU-only tasks in the
 * queues (SetArch), mailboxes (push=locality, push=writer) and the master
 * list; lws's visit in turn, for contrast, passes such workers. */
static void test_no_steal_from_a_worker_without_work(void)
{
    struct hs_run_config idgraf = hs_test_idgraf_config(3, 4);
    struct hs_dag *chol = hs_workload_build("cholesky:n=8192,nb=1024,setarch=1");
    struct hs_run_config flat = hs_test_flat_config(8, NULL);
    struct hs_dag *rnd = hs_test_build_seeded("random:v=300,p=8,seed=%d", 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(chol);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rnd);
    const char *specs[] = {"ws", "ws:push=locality", "ws:push=writer", "ws:attempts=1", "lws:victim=random"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        double a = empty_visits(&idgraf, chol, specs[i]), b = empty_visits(&flat, rnd, specs[i]);
        if (a != 0 || b != 0)
            fprintf(stderr, "\n%s: %.0f and %.0f attempts on workers without work\n", specs[i], a, b);
        CU_ASSERT(a == 0 && b == 0);
    }
    CU_ASSERT(empty_visits(&idgraf, chol, "lws") > 0);
    hs_dag_free(chol);
    hs_dag_free(rnd);
}

/* Every XKaapi study runs in its quick version, every row ok, and prints the
 * thesis' figures beside ours. */
static void test_quick_studies(void)
{
    const char *studies[] = {"xkaapi-dgemm-gpus",          "xkaapi-dgemm-sizes", "xkaapi-dgemm-heuristics",
                             "xkaapi-cholesky-heuristics", "xkaapi-cholesky-sizes", "xkaapi-pardiag",
                             "xkaapi-ch6"};
    /* quick grids: 2 policies x 2 GPU counts; 2 GPU counts x 2 sizes; 3 heuristics x
     * 2 GPU counts; 3 heuristics x 2 GPU counts x 2 windows; 3 heuristics x 2 sizes;
     * 2 sizes x 2 CPU counts x 2 diagonals; 4 workloads x 3 policies (HEFT with
     * Eq. 6.1 and 6.2, WS locality) x 2 GPU counts */
    long rows[] = {4, 4, 6, 12, 6, 8, 24};
    for (int i = 0; i < 7; i++) {
        long n;
        char *out = hs_test_quick_study(studies[i], &n);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "published values beside ours"));
        if (n != rows[i])
            fprintf(stderr, "\n%s: %ld rows\n", studies[i], n);
        CU_ASSERT_EQUAL(n, rows[i]);
        free(out);
    }
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"queue ends", test_queue_ends},
        {"queues count what each architecture may run", test_queue_admits},
        {"steals respect architectures (SetArch)", test_steal_respects_architectures},
        {"H2 sends a task to the GPU holding its written data", test_h2_goes_to_the_writer},
        {"one-GPU DGEMM moves the minimum when it fits", test_one_gpu_dgemm_minimum},
        {"out of core, the minimum iff the order's working set fits", test_one_gpu_dgemm_out_of_core},
        {"steal cost is charged to the thief", test_steal_cost_charged},
        {"no steal attempt on a worker without work", test_no_steal_from_a_worker_without_work},
        {"the XKaapi studies run (quick)", test_quick_studies},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("ws", tests);
}
