/* tests/sim/test_datamove.c — how data gets where a task needs it
 * (sim/datamove.c), checked against values computed by hand from the
 * platform files: GPU to GPU staged through host memory or peer to peer, a
 * peer copy across the host bridges, the least traffic of GEMM on one GPU,
 * eviction with write-back, a CPU task fetching from a GPU, prefetch as soon
 * as data is produced. Each run happens in a forked child (one SimGrid
 * simulation per process). */
#include "base/util.h"
#include "platforms/flat.h"
#include "policies/registry.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <string.h>

#define MIB8 8388608.0
#define IDGRAF_GPU_BYTES 3220551387.0 /* memsize of each GPU in platforms/idgraf.xml */

/* A writes h on GPU0 only, B reads it on GPU1 only (explicit per-worker costs). */
static struct hs_dag *producer_consumer(void)
{
    struct hs_dag *dag = hs_dag_new("pc");
    int h = hs_dag_add_handle(dag, "h", MIB8);
    int a = hs_dag_add_task(dag, "k", "A", 0, 0), b = hs_dag_add_task(dag, "k", "B", 0, 0);
    double ca[] = {1e-3, -1}, cb[] = {-1, 1e-3};
    hs_dag_set_proc_costs(dag, a, ca, 2);
    hs_dag_set_proc_costs(dag, b, cb, 2);
    hs_dag_access(dag, a, h, HS_MODE_W);
    hs_dag_access(dag, b, h, HS_MODE_R);
    hs_dag_finalize(dag);
    return dag;
}

static void test_staging_through_host(void)
{
    struct hs_dag *dag = producer_consumer();
    struct hs_run_config cfg = hs_test_idgraf_timed(2, 0);
    cJSON *r = hs_test_simulate_named(&cfg, dag, "eager");
    /* staged: one D2H GPU0 -> host, then one H2D host -> GPU1; host then holds a valid
     * copy, so the final flush moves nothing */
    const cJSON *bytes = cJSON_GetObjectItem(r, "bytes");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 0)->valuedouble, MIB8, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 1)->valuedouble, MIB8, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 2)->valuedouble, 0, 0);
    double d2h = 11.927e-6 + MIB8 / 6518853316.0; /* gpu0_d2h is the bottleneck */
    double h2d = 10.962e-6 + MIB8 / 5982867814.0;
    HS_ASSERT_NEAR_REL(hs_test_num(hs_test_item(r, "tasks", 1), "start"), 1e-3 + d2h + h2d, 1e-12);
    cJSON_Delete(r);
    /* with p2p: one direct copy; host has no valid copy at the end: flushed from GPU0 */
    cfg.select.p2p = true;
    r = hs_test_simulate_named(&cfg, dag, "eager");
    bytes = cJSON_GetObjectItem(r, "bytes");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 0)->valuedouble, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 1)->valuedouble, MIB8, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 2)->valuedouble, MIB8, 0);
    HS_ASSERT_NEAR_REL(hs_test_num(hs_test_item(r, "tasks", 1), "start"), 1e-3 + 18e-6 + MIB8 / 6634600000.0, 1e-12);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* A peer copy across the host bridges, GPU4 -> GPU0 (--p2p, GPUs spread:
 * workers GPU0, GPU2, GPU4), alone: A writes h on GPU4, B reads it on GPU0.
 * The driver stages it through host memory, so its route crosses the host
 * side twice. Latency: p2p_4_0's 27.8 us + QPI's 0.1 us. Rate, by hand:
 *   idgraf-pcie    p2p_4_0's sampled 3.802 GB/s (nothing above the tree)
 *   idgraf-starpu  the one Host link carries the bytes twice: 6520981045 / 2
 *                  = 3260490522.5 B/s, under p2p_4_0's 3.802 GB/s
 *   idgraf-numa    host1 and host0 once each (6.52 GB/s): p2p_4_0 binds */
static void test_peer_copy_across_bridges(void)
{
    const struct {
        const char *file;
        double rate;
    } models[] = {{"idgraf-pcie.xml", 3802000000.0},
                  {"idgraf-starpu.xml", 6520981045.0 / 2},
                  {"idgraf-numa.xml", 3802000000.0}};
    struct hs_dag *dag = hs_dag_new("peer");
    int h = hs_dag_add_handle(dag, "h", MIB8);
    int a = hs_dag_add_task(dag, "k", "A", 0, 0), b = hs_dag_add_task(dag, "k", "B", 0, 0);
    double ca[] = {-1, -1, 1e-3}, cb[] = {1e-3, -1, -1};
    hs_dag_set_proc_costs(dag, a, ca, 3);
    hs_dag_set_proc_costs(dag, b, cb, 3);
    hs_dag_access(dag, a, h, HS_MODE_W);
    hs_dag_access(dag, b, h, HS_MODE_R);
    hs_dag_finalize(dag);
    for (int m = 0; m < 3; m++) {
        struct hs_run_config cfg = hs_test_idgraf_timed(3, 0);
        cfg.platform_file = hs_test_data(models[m].file);
        cfg.select.gpu_order = HS_GPU_SPREAD;
        cfg.select.p2p = true;
        cJSON *r = hs_test_simulate_named(&cfg, dag, "eager");
        CU_ASSERT_EQUAL(hs_test_num(hs_test_item(r, "tasks", 0), "worker"), 2); /* GPU4 */
        CU_ASSERT_EQUAL(hs_test_num(hs_test_item(r, "tasks", 1), "worker"), 0); /* GPU0 */
        double copy = 27.8e-6 + 0.1e-6 + MIB8 / models[m].rate;
        HS_ASSERT_NEAR_REL(hs_test_num(hs_test_item(r, "tasks", 1), "start"), 1e-3 + copy, 1e-12);
        cJSON_Delete(r);
    }
    hs_dag_free(dag);
}

/* One GPU, no core: tiled GEMM n=4096, nb=1024 fits in the cache, so A, B and
 * C are loaded once and C written back once: 3S H2D + S D2H, S = 128 MiB. */
static void test_gemm_minimal_traffic(void)
{
    struct hs_dag *dag = hs_workload_build("gemm:n=4096,nb=1024");
    struct hs_run_config cfg = hs_test_idgraf_timed(1, 0);
    cJSON *r = hs_test_simulate_named(&cfg, dag, "dmda");
    const cJSON *bytes = cJSON_GetObjectItem(r, "bytes");
    double S = 4096.0 * 4096 * 8;
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 0)->valuedouble, 3 * S, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 1)->valuedouble, S, 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_num(r, "evictions"), 0, 0);
    cJSON_Delete(r);
    cfg.opts.flush = false;
    r = hs_test_simulate_named(&cfg, dag, "dmda");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "bytes"), 1)->valuedouble, 0, 0);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* Four GPU tasks, each updating its own 8 MiB datum, on a cache that holds
 * 2.5 data: the third and fourth allocations evict the least recently used
 * written datum, which is the only valid copy and goes back to host first.
 * Every datum crosses PCIe once each way. */
static void test_eviction_writeback(void)
{
    struct hs_dag *dag = hs_dag_new("evict");
    for (int i = 0; i < 4; i++) {
        char name[8];
        snprintf(name, sizeof name, "h%d", i);
        int h = hs_dag_add_handle(dag, name, MIB8);
        int t = hs_test_gpu_task(dag, 1e-3, -1, -1);
        hs_dag_access(dag, t, h, HS_MODE_RW);
    }
    hs_dag_finalize(dag);
    struct hs_run_config cfg = hs_test_idgraf_timed(1, 0);
    cfg.select.cache_fraction = 2.5 * MIB8 / IDGRAF_GPU_BYTES;
    cJSON *r = hs_test_simulate_named(&cfg, dag, "eager");
    const cJSON *bytes = cJSON_GetObjectItem(r, "bytes");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 0)->valuedouble, 4 * MIB8, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 1)->valuedouble, 4 * MIB8, 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_num(r, "evictions"), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_num(r, "writebacks"), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_num(r, "audit"), 0, 0);
    /* a cache smaller than one task's data is an error before the run, not a hang */
    cfg.select.cache_fraction = 0.5 * MIB8 / IDGRAF_GPU_BYTES;
    struct hs_spec spec;
    const struct hs_policy *p = hs_policy_parse("eager", &spec);
    hs_spec_free(&spec);
    cJSON_Delete(r);
    r = hs_test_simulate(&cfg, dag, p, "eager");
    const cJSON *err = cJSON_GetObjectItem(r, "error");
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err->valuestring, "accesses 8388608 bytes of data, more than the "
                                                     "memory of any worker that may run it holds"));
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* A CPU task reading data last written on a GPU fetches it (D2H) first. */
static void test_cpu_fetch_from_gpu(void)
{
    struct hs_dag *dag = hs_dag_new("fetch");
    int h = hs_dag_add_handle(dag, "h", MIB8);
    int a = hs_test_gpu_task(dag, 1e-3, -1, -1);
    hs_dag_access(dag, a, h, HS_MODE_RW);
    int b = hs_dag_add_task(dag, "k", "cpu", 0, 0);
    dag->tasks[b].arch_cost[HS_ARCH_CPU] = 2e-3;
    dag->tasks[b].arch_mask = HS_ARCH_BIT(HS_ARCH_CPU);
    hs_dag_access(dag, b, h, HS_MODE_R);
    hs_dag_finalize(dag);
    struct hs_run_config cfg = hs_test_idgraf_timed(1, 1);
    cJSON *r = hs_test_simulate_named(&cfg, dag, "eager");
    double h2d = 11.019e-6 + MIB8 / 5985150529.0, d2h = 11.927e-6 + MIB8 / 6518853316.0;
    HS_ASSERT_NEAR_REL(hs_test_num(hs_test_item(r, "tasks", 1), "start"), h2d + 1e-3 + d2h, 1e-12);
    HS_ASSERT_NEAR_REL(hs_test_num(r, "makespan"), h2d + 1e-3 + d2h + 2e-3, 1e-12);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* ---- prefetch: a policy that runs each task on the only worker that can run
 * it, and with prefetch=1 sends produced data to planned consumers at once --- */

struct planned {
    struct hs_task *ready[16];
    int n;
    bool prefetch;
};

static int only_worker(struct hs_runtime *s, const struct hs_task *t)
{
    for (int w = 0; w < hs_sched_nworkers(s); w++)
        if (hs_sched_can_run(s, t, w))
            return w;
    return -1;
}

static int planned_init(struct hs_runtime *s)
{
    struct planned *p = hs_xcalloc(1, sizeof *p);
    p->prefetch = hs_spec_bool(hs_sched_params(s), "prefetch");
    hs_sched_set_data(s, p);
    return 0;
}

static void planned_push(struct hs_runtime *s, struct hs_task *t)
{
    struct planned *p = hs_sched_data(s);
    p->ready[p->n++] = t;
}

static struct hs_task *planned_pop(struct hs_runtime *s, int w)
{
    struct planned *p = hs_sched_data(s);
    for (int i = 0; i < p->n; i++)
        if (only_worker(s, p->ready[i]) == w) {
            struct hs_task *t = p->ready[i];
            p->ready[i] = p->ready[--p->n];
            return t;
        }
    return NULL;
}

static void planned_done(struct hs_runtime *s, struct hs_task *t, int w)
{
    struct planned *p = hs_sched_data(s);
    const struct hs_dag *dag = hs_sched_dag(s);
    (void)w;
    if (!p->prefetch)
        return;
    for (int i = 0; i < t->nsucc; i++) {
        const struct hs_task *succ = &dag->tasks[dag->edges[t->succ[i]].dst];
        int node = hs_sched_worker(s, only_worker(s, succ))->node;
        for (int a = 0; a < t->naccess; a++)
            if (HS_MODE_WRITES(t->access[a].mode))
                hs_sched_prefetch(s, t->access[a].handle, node);
    }
}

static void planned_fini(struct hs_runtime *s)
{
    free(hs_sched_data(s));
}

static const struct hs_param planned_params[] = {
    {.name = "prefetch", .type = HS_P_BOOL, .defval = "0", .help = "prefetch"},
    {0},
};

static const struct hs_policy planned = {
    .name = "planned", .params = planned_params, .init = planned_init, .push = planned_push,
    .pop = planned_pop, .done = planned_done, .fini = planned_fini,
};

/* flat:3 at 1 GB/s. A (1 s on P0) writes a (1 GB); B (3 s on P1) writes b;
 * C (1 s on P1) reads both. Without prefetch, a leaves P0 when C is ready
 * (t = 3) and C starts at 4; with prefetch it leaves at 1 and C starts at 3. */
static void test_prefetch(void)
{
    struct hs_flat flat = {.p = 3, .speed = 1e9, .bw = 1e9, .lat = 0};
    struct hs_dag *dag = hs_dag_new("prefetch");
    int a = hs_dag_add_handle(dag, "a", 1e9), b = hs_dag_add_handle(dag, "b", 1);
    double ca[] = {1, -1, -1}, cb[] = {-1, 3, -1}, cc[] = {-1, 1, -1};
    int ta = hs_dag_add_task(dag, "k", "A", 0, 0), tb = hs_dag_add_task(dag, "k", "B", 0, 0);
    int tc = hs_dag_add_task(dag, "k", "C", 0, 0);
    hs_dag_set_proc_costs(dag, ta, ca, 3);
    hs_dag_set_proc_costs(dag, tb, cb, 3);
    hs_dag_set_proc_costs(dag, tc, cc, 3);
    hs_dag_access(dag, ta, a, HS_MODE_W);
    hs_dag_access(dag, tb, b, HS_MODE_W);
    hs_dag_access(dag, tc, a, HS_MODE_R);
    hs_dag_access(dag, tc, b, HS_MODE_R);
    hs_dag_finalize(dag);
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.flat = &flat;
    cfg.platform_name = "flat:3";
    cfg.opts.flush = false;
    cJSON *r = hs_test_simulate(&cfg, dag, &planned, "planned:prefetch=0");
    CU_ASSERT_DOUBLE_EQUAL(hs_test_num(hs_test_item(r, "tasks", tc), "start"), 4.0, 1e-9);
    cJSON_Delete(r);
    r = hs_test_simulate(&cfg, dag, &planned, "planned:prefetch=1");
    CU_ASSERT_DOUBLE_EQUAL(hs_test_num(hs_test_item(r, "tasks", tc), "start"), 3.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_num(hs_test_item(r, "xfers", 0), "start"), 1.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_num(r, "makespan"), 4.0, 1e-9);
    cJSON_Delete(r);
    hs_dag_free(dag);
    /* into a GPU cache: staged GPU0 -> host -> GPU1 as soon as A is done */
    dag = producer_consumer();
    cfg = hs_test_idgraf_timed(2, 0);
    r = hs_test_simulate(&cfg, dag, &planned, "planned:prefetch=1");
    double d2h = 11.927e-6 + MIB8 / 6518853316.0, h2d = 10.962e-6 + MIB8 / 5982867814.0;
    HS_ASSERT_NEAR_REL(hs_test_num(hs_test_item(r, "tasks", 1), "start"), 1e-3 + d2h + h2d, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_num(r, "audit"), 0, 0);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"GPU to GPU staged through host, or p2p", test_staging_through_host},
        {"a peer copy across the host bridges crosses the host side twice", test_peer_copy_across_bridges},
        {"GEMM on one GPU moves 3S H2D + S D2H", test_gemm_minimal_traffic},
        {"eviction writes sole copies back", test_eviction_writeback},
        {"CPU task fetches from GPU", test_cpu_fetch_from_gpu},
        {"prefetch moves data as soon as it is produced", test_prefetch},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("datamove", tests);
}
