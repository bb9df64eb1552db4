/* tests/sim/test_sim.c — simulated runs checked against values computed by
 * hand from the platform files and timing tables: execution on one core,
 * isolated and concurrent PCIe transfers on Idgraf, staging through host
 * memory, peer copies, eviction with write-back, the final flush. Each run
 * happens in a forked child (one SimGrid simulation per process). */
#include "platforms/flat.h"
#include "base/util.h"
#include "policies/registry.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <string.h>

#define MIB8 8388608.0
#define IDGRAF_GPU_BYTES 3220551387.0 /* memsize of each GPU in platforms/idgraf.xml */

static struct hs_run_config idgraf(int gpus, int cpus)
{
    struct hs_run_config cfg = hs_test_idgraf_config(gpus, cpus);
    cfg.perf_file = hs_test_data("perf/idgraf.json");
    hs_test_no_costs(&cfg); /* the runtime's costs are checked in test_one_core_sum */
    return cfg;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    CU_ASSERT_PTR_NOT_NULL(v);
    return v ? v->valuedouble : NAN;
}

static const cJSON *item(const cJSON *o, const char *key, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(o, key), i);
}

static cJSON *simulate(const struct hs_run_config *cfg, const struct hs_dag *dag, const char *policy)
{
    struct hs_spec spec;
    const struct hs_policy *p = hs_policy_parse(policy, &spec);
    hs_spec_free(&spec);
    cJSON *r = hs_test_simulate(cfg, dag, p, policy);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(r, "error");
    if (err)
        fprintf(stderr, "simulation failed: %s\n", err->valuestring);
    CU_ASSERT_PTR_NULL(err);
    return r;
}

/* A task that only runs on the GPU for `seconds`, reading and writing handles. */
static int gpu_task(struct hs_dag *dag, double seconds, int rd, int wr)
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

/* One core runs everything: makespan = sum of the table's durations.
 * Cholesky 5x5 tiles of 512: 5 POTRF, 10 TRSM, 10 SYRK, 10 GEMM at the NB-512
 * rates of platforms/perf/idgraf.json (6.0, 7.8, 8.0, 8.6 GFlop/s) plus 1 us
 * start overhead each. With Idgraf's runtime costs (platforms/idgraf.xml),
 * the core also spends 1 us of runtime work before each kernel and 0.2 us
 * pushing each task eager places (its own decisions, all on its timeline). */
static void test_one_core_sum(void)
{
    struct hs_dag *dag = hs_workload_build("cholesky:n=2560,nb=512");
    struct hs_run_config cfg = idgraf(0, 1);
    cJSON *r = simulate(&cfg, dag, "eager");
    double b = 512, ov = 1e-6;
    double expect = 5 * ((b * b * b / 3 + b * b / 2 + b / 6) / 6.0e9 + ov) +
                    10 * (b * b * (b + 1) / 7.8e9 + ov) + 10 * (b * b * (b + 1) / 8.0e9 + ov) +
                    10 * (2 * b * b * b / 8.6e9 + ov);
    HS_ASSERT_NEAR_REL(num(r, "makespan"), expect, 1e-12);
    cJSON_Delete(r);
    cfg = idgraf(0, 1); /* now with the platform's costs */
    for (int i = 0; hs_costs_props[i]; i++)
        hs_costs_set(&cfg.opts.costs, i, NAN);
    r = simulate(&cfg, dag, "eager");
    HS_ASSERT_NEAR_REL(num(r, "makespan"), expect + 35 * (1e-6 + 0.2e-6), 1e-12);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* RAM0 -> GPU0 crosses ioh0_through (13.04 GB/s), sw0_down (5982867814 B/s)
 * and gpu0_h2d (5985150529 B/s, 11.019 us): 8 MiB take 11.019 us + 8 MiB /
 * 5982867814 B/s. The task starts when its input has landed. */
/* One 1 ms GPU task reading 8 MiB from host memory, on GPU0 of Idgraf. */
static cJSON *one_transfer(const struct hs_run_config *cfg)
{
    struct hs_dag *dag = hs_dag_new("one");
    int h = hs_dag_add_handle(dag, "h", MIB8);
    gpu_task(dag, 1e-3, h, -1);
    hs_dag_finalize(dag);
    cJSON *r = simulate(cfg, dag, "eager");
    hs_dag_free(dag);
    return r;
}

static void test_isolated_transfer(void)
{
    struct hs_run_config cfg = idgraf(1, 0);
    cJSON *r = one_transfer(&cfg);
    const cJSON *x = item(r, "xfers", 0);
    double expect = 11.019e-6 + MIB8 / 5982867814.0;
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(r, "xfers")), 1);
    CU_ASSERT_DOUBLE_EQUAL(num(x, "start"), 0, 0);
    HS_ASSERT_NEAR_REL(num(x, "end"), expect, 1e-12);
    HS_ASSERT_NEAR_REL(num(item(r, "tasks", 0), "start"), expect, 1e-12);
    HS_ASSERT_NEAR_REL(num(r, "makespan"), expect + 1e-3, 1e-12);
    cJSON_Delete(r);
}

/* Two tasks on two GPUs, each reading its own `bytes` at time 0. */
static cJSON *two_transfers_of(const char *platform, enum hs_gpu_order order, double bytes)
{
    struct hs_dag *dag = hs_dag_new("two");
    int a = hs_dag_add_handle(dag, "a", bytes), b = hs_dag_add_handle(dag, "b", bytes);
    gpu_task(dag, 1e-3, a, -1);
    gpu_task(dag, 1e-3, b, -1);
    hs_dag_finalize(dag);
    struct hs_run_config cfg = idgraf(2, 0);
    cfg.platform_file = hs_test_data(platform);
    cfg.select.gpu_order = order;
    cfg.select.window = 1; /* so that each GPU takes one task */
    cJSON *r = simulate(&cfg, dag, "eager");
    hs_dag_free(dag);
    return r;
}

static cJSON *two_transfers(const char *platform, enum hs_gpu_order order)
{
    return two_transfers_of(platform, order, MIB8);
}

static double xfer_time(const cJSON *r, int i)
{
    const cJSON *x = item(r, "xfers", i);
    CU_ASSERT_DOUBLE_EQUAL(num(x, "start"), 0, 0);
    return num(x, "end") - num(x, "start");
}

/* SimGrid's CM02 model shares a link among flows in inverse proportion to
 * their route latency (TCP RTT fairness); the latencies of GPU0 and GPU1
 * differ by 0.5%, so "twice as long" holds within 1%. */
static void test_switch_contention(void)
{
    /* The PCIe tree alone (idgraf-pcie): GPU0 and GPU1 share switch 0, whose
     * 5982867814 B/s uplink is split in two */
    cJSON *r = two_transfers("idgraf-pcie.xml", HS_GPU_FIRST);
    double alone = MIB8 / 5982867814.0;
    double t0 = xfer_time(r, 0) - 11.019e-6, t1 = xfer_time(r, 1) - 10.962e-6;
    HS_ASSERT_NEAR_REL(t0, 2 * alone, 1e-2);
    HS_ASSERT_NEAR_REL(t1, 2 * alone, 1e-2);
    /* the uplink is used at full capacity: the last one ends when 16 MiB went through */
    HS_ASSERT_NEAR_REL(fmax(t0, t1), 2 * alone, 1e-4);
    cJSON_Delete(r);
    /* GPU0 and GPU2 are on different switches: as fast as alone */
    r = two_transfers("idgraf-pcie.xml", HS_GPU_SPREAD);
    HS_ASSERT_NEAR_REL(xfer_time(r, 0), 11.019e-6 + MIB8 / 5982867814.0, 1e-12);
    HS_ASSERT_NEAR_REL(xfer_time(r, 1), 10.954e-6 + MIB8 / 6002864228.0, 1e-12);
    cJSON_Delete(r);
    /* StarPU's variant: one 6520981045 B/s host link shared by every transfer */
    r = two_transfers("idgraf-starpu.xml", HS_GPU_SPREAD);
    HS_ASSERT_NEAR_REL(xfer_time(r, 0) - 11.019e-6, MIB8 / (6520981045.0 / 2), 1e-2);
    HS_ASSERT_NEAR_REL(xfer_time(r, 1) - 10.954e-6, MIB8 / (6520981045.0 / 2), 1e-2);
    cJSON_Delete(r);
}

/* Four GPUs, one per PCIe switch (GPU0, GPU2, GPU4, GPU6), each reading its
 * own 64 MiB from RAM0 at time 0, under each host-side model of Idgraf:
 *   pcie    GPU0 and GPU2 as alone (their switch links, 5982867814 and
 *           6002864228 B/s); GPU4 and GPU6 split QPI's 10.24 GB/s
 *   starpu  the four split the one host link of 6520981045 B/s
 *   numa    GPU0 and GPU2 split host bridge 0's link (6518853316 B/s),
 *           GPU4 and GPU6 host bridge 1's (6520981045 B/s)
 * CM02 weighs the flows of a link by their route latencies, which differ by
 * under 2%, so each flow's share is checked within 2%. The last flow of a
 * shared link ends no earlier than all their bytes can cross it, and at
 * most 1% later (the link stays saturated but for a short tail, when the
 * last flow runs alone at its own link's rate). */
static void test_host_link(void)
{
    const double B = 64 * 1048576.0;
    const double lat[4] = {11.019e-6, 10.954e-6, 11.006e-6 + 0.1e-6, 11.110e-6 + 0.1e-6};
    const struct {
        const char *file;
        double bw[4]; /* each flow's share */
        int group[4]; /* flows sharing one saturated link: same group (-1: none) */
        double link[2];
    } models[] = {
        {"idgraf-pcie.xml", {5982867814.0, 6002864228.0, 5.12e9, 5.12e9}, {-1, -1, 0, 0}, {10.24e9, 0}},
        {"idgraf-starpu.xml", {1630245261.25, 1630245261.25, 1630245261.25, 1630245261.25}, {0, 0, 0, 0},
         {6520981045.0, 0}},
        {"idgraf-numa.xml", {3259426658.0, 3259426658.0, 3260490522.5, 3260490522.5}, {0, 0, 1, 1},
         {6518853316.0, 6520981045.0}},
    };
    for (int m = 0; m < 3; m++) {
        struct hs_dag *dag = hs_dag_new("four");
        for (int g = 0; g < 4; g++)
            gpu_task(dag, 1e-3, hs_dag_add_handle(dag, "h", B), -1);
        hs_dag_finalize(dag);
        struct hs_run_config cfg = idgraf(4, 0);
        cfg.platform_file = hs_test_data(models[m].file);
        cfg.select.gpu_order = HS_GPU_SPREAD;
        cfg.select.window = 1; /* each GPU takes one task */
        cJSON *r = simulate(&cfg, dag, "eager");
        double last[2] = {0, 0};
        int flows[2] = {0, 0};
        for (int i = 0; i < 4; i++) {
            const cJSON *x = item(r, "xfers", i);
            int g = (int)num(item(r, "tasks", (int)num(x, "handle")), "worker"); /* the task of handle i */
            HS_ASSERT_NEAR_REL(num(x, "end") - num(x, "start") - lat[g], B / models[m].bw[g], 2e-2);
            int k = models[m].group[g];
            if (k >= 0) {
                last[k] = fmax(last[k], num(x, "end"));
                flows[k]++;
            }
        }
        for (int k = 0; k < 2; k++)
            if (flows[k]) { /* no faster than the link, and at most 1% slower */
                double bound = flows[k] * B / models[m].link[k];
                CU_ASSERT(last[k] >= bound * (1 - 1e-12));
                CU_ASSERT(last[k] <= bound * 1.01);
            }
        cJSON_Delete(r);
        hs_dag_free(dag);
    }
}

/* The plain PCIe model of Idgraf (platforms/idgraf-dada.xml), against times
 * worked by hand (and checked with SimGrid 3.32 and CM02 outside hetsim): a 2 MiB H2D takes
 * 10 us + 2097152 / 6e9 s = 359.525 us alone (and with the other GPU on
 * another switch), 709.05 us each when two GPUs of one switch load at once. */
static void test_dada_platform(void)
{
    const double mib2 = 2097152, alone = 10e-6 + mib2 / 6e9;
    HS_ASSERT_NEAR_REL(alone, 359.525e-6, 1e-6); /* to the ns, as computed by hand */
    const enum hs_gpu_order orders[] = {HS_GPU_SPREAD, HS_GPU_FIRST};
    const double expect[] = {359.525e-6, 709.05e-6};
    for (int o = 0; o < 2; o++) {
        cJSON *r = two_transfers_of("idgraf-dada.xml", orders[o], mib2);
        HS_ASSERT_NEAR_REL(xfer_time(r, 0), expect[o], 1e-6);
        HS_ASSERT_NEAR_REL(xfer_time(r, 1), expect[o], 1e-6);
        cJSON_Delete(r);
    }
}

/* SPLITDUPLEX (the C2050's two copy engines): a D2H out of GPU1 beside an H2D into GPU0, the
 * two GPUs on one switch, each takes 359.525 us. A (GPU1, no time) writes h,
 * which B needs on the core; C reads a on GPU0. */
static void test_dada_platform_duplex(void)
{
    const double mib2 = 2097152;
    struct hs_dag *dag = hs_dag_new("duplex");
    int a = hs_dag_add_handle(dag, "a", mib2), h = hs_dag_add_handle(dag, "h", mib2);
    int tc = hs_test_task(dag, "C", (const double[]){1e-3, -1, -1}, 3);
    int ta = hs_test_task(dag, "A", (const double[]){-1, 0, -1}, 3);
    int tb = hs_test_task(dag, "B", (const double[]){-1, -1, 1e-3}, 3);
    hs_dag_access(dag, tc, a, HS_MODE_R);
    hs_dag_access(dag, ta, h, HS_MODE_W);
    hs_dag_access(dag, tb, h, HS_MODE_R);
    hs_dag_finalize(dag);
    struct hs_run_config cfg = idgraf(2, 1);
    cfg.platform_file = hs_test_data("idgraf-dada.xml");
    cfg.perf_file = NULL;
    cJSON *r = simulate(&cfg, dag, "eager");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(r, "xfers")), 2);
    HS_ASSERT_NEAR_REL(xfer_time(r, 0), 359.525e-6, 1e-6);
    HS_ASSERT_NEAR_REL(xfer_time(r, 1), 359.525e-6, 1e-6);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* The sensitivity knobs (our dada-sensitivity study): bw_scale multiplies every link's
 * bandwidth (8 MiB into GPU0 of Idgraf at half of 5982867814 B/s, estimates
 * included: the task starts when the copy lands), gpu_speed divides GPU
 * kernel times (a 1 ms kernel takes 0.8 ms at 1.25). */
static void test_platform_knobs(void)
{
    struct hs_run_config cfg = idgraf(1, 0);
    cfg.bw_scale = 0.5;
    cfg.opts.gpu_speed = 1.25;
    cJSON *r = one_transfer(&cfg);
    double copy = 11.019e-6 + MIB8 / (0.5 * 5982867814.0);
    HS_ASSERT_NEAR_REL(num(item(r, "xfers", 0), "end"), copy, 1e-12);
    HS_ASSERT_NEAR_REL(num(r, "makespan"), copy + 0.8e-3, 1e-12);
    cJSON_Delete(r);
}

/* gpu_kernels restricts gpu_speed to the kernels it names (the sensitivity
 * of a timing table's assumed rates): a chain of two 1 ms GPU tasks, kernels
 * k and dgessm, takes 1 + 1/1.25 = 1.8 ms when only dgessm is scaled, and
 * 2/1.25 = 1.6 ms when every kernel is. */
static void test_gpu_kernels(void)
{
    struct hs_dag *dag = hs_dag_new("two-kernels");
    int a = gpu_task(dag, 1e-3, -1, -1);
    int b = hs_dag_add_task(dag, "dgessm", NULL, 0, 0);
    dag->tasks[b].arch_cost[HS_ARCH_GPU] = 1e-3;
    dag->tasks[b].arch_mask = HS_ARCH_BIT(HS_ARCH_GPU);
    hs_dag_add_edge(dag, a, b, 0);
    hs_dag_finalize(dag);
    struct hs_run_config cfg = idgraf(1, 0);
    cfg.opts.gpu_speed = 1.25;
    cfg.opts.gpu_kernels = "dsyrk:dgessm";
    cJSON *r = simulate(&cfg, dag, "eager");
    HS_ASSERT_NEAR_REL(num(r, "makespan"), 1.8e-3, 1e-12);
    cJSON_Delete(r);
    cfg.opts.gpu_kernels = NULL;
    r = simulate(&cfg, dag, "eager");
    HS_ASSERT_NEAR_REL(num(r, "makespan"), 1.6e-3, 1e-12);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

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
    struct hs_run_config cfg = idgraf(2, 0);
    cJSON *r = simulate(&cfg, dag, "eager");
    /* staged: one D2H GPU0 -> host, then one H2D host -> GPU1; host then holds a valid
     * copy, so the final flush moves nothing */
    const cJSON *bytes = cJSON_GetObjectItem(r, "bytes");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 0)->valuedouble, MIB8, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 1)->valuedouble, MIB8, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 2)->valuedouble, 0, 0);
    double d2h = 11.927e-6 + MIB8 / 6518853316.0; /* gpu0_d2h is the bottleneck */
    double h2d = 10.962e-6 + MIB8 / 5982867814.0;
    HS_ASSERT_NEAR_REL(num(item(r, "tasks", 1), "start"), 1e-3 + d2h + h2d, 1e-12);
    cJSON_Delete(r);
    /* with p2p: one direct copy; host has no valid copy at the end: flushed from GPU0 */
    cfg.select.p2p = true;
    r = simulate(&cfg, dag, "eager");
    bytes = cJSON_GetObjectItem(r, "bytes");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 0)->valuedouble, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 1)->valuedouble, MIB8, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 2)->valuedouble, MIB8, 0);
    HS_ASSERT_NEAR_REL(num(item(r, "tasks", 1), "start"), 1e-3 + 18e-6 + MIB8 / 6634600000.0, 1e-12);
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
        struct hs_run_config cfg = idgraf(3, 0);
        cfg.platform_file = hs_test_data(models[m].file);
        cfg.select.gpu_order = HS_GPU_SPREAD;
        cfg.select.p2p = true;
        cJSON *r = simulate(&cfg, dag, "eager");
        CU_ASSERT_EQUAL(num(item(r, "tasks", 0), "worker"), 2); /* GPU4 */
        CU_ASSERT_EQUAL(num(item(r, "tasks", 1), "worker"), 0); /* GPU0 */
        double copy = 27.8e-6 + 0.1e-6 + MIB8 / models[m].rate;
        HS_ASSERT_NEAR_REL(num(item(r, "tasks", 1), "start"), 1e-3 + copy, 1e-12);
        cJSON_Delete(r);
    }
    hs_dag_free(dag);
}

/* One GPU, no core: tiled GEMM n=4096, nb=1024 fits in the cache, so A, B and
 * C are loaded once and C written back once: 3S H2D + S D2H, S = 128 MiB. */
static void test_gemm_minimal_traffic(void)
{
    struct hs_dag *dag = hs_workload_build("gemm:n=4096,nb=1024");
    struct hs_run_config cfg = idgraf(1, 0);
    cJSON *r = simulate(&cfg, dag, "dmda");
    const cJSON *bytes = cJSON_GetObjectItem(r, "bytes");
    double S = 4096.0 * 4096 * 8;
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 0)->valuedouble, 3 * S, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 1)->valuedouble, S, 0);
    CU_ASSERT_DOUBLE_EQUAL(num(r, "evictions"), 0, 0);
    cJSON_Delete(r);
    cfg.opts.flush = false;
    r = simulate(&cfg, dag, "dmda");
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
        int t = gpu_task(dag, 1e-3, -1, -1);
        hs_dag_access(dag, t, h, HS_MODE_RW);
    }
    hs_dag_finalize(dag);
    struct hs_run_config cfg = idgraf(1, 0);
    cfg.select.cache_fraction = 2.5 * MIB8 / IDGRAF_GPU_BYTES;
    cJSON *r = simulate(&cfg, dag, "eager");
    const cJSON *bytes = cJSON_GetObjectItem(r, "bytes");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 0)->valuedouble, 4 * MIB8, 0);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(bytes, 1)->valuedouble, 4 * MIB8, 0);
    CU_ASSERT_DOUBLE_EQUAL(num(r, "evictions"), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(num(r, "writebacks"), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(num(r, "audit"), 0, 0);
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
    int a = gpu_task(dag, 1e-3, -1, -1);
    hs_dag_access(dag, a, h, HS_MODE_RW);
    int b = hs_dag_add_task(dag, "k", "cpu", 0, 0);
    dag->tasks[b].arch_cost[HS_ARCH_CPU] = 2e-3;
    dag->tasks[b].arch_mask = HS_ARCH_BIT(HS_ARCH_CPU);
    hs_dag_access(dag, b, h, HS_MODE_R);
    hs_dag_finalize(dag);
    struct hs_run_config cfg = idgraf(1, 1);
    cJSON *r = simulate(&cfg, dag, "eager");
    double h2d = 11.019e-6 + MIB8 / 5982867814.0, d2h = 11.927e-6 + MIB8 / 6518853316.0;
    HS_ASSERT_NEAR_REL(num(item(r, "tasks", 1), "start"), h2d + 1e-3 + d2h, 1e-12);
    HS_ASSERT_NEAR_REL(num(r, "makespan"), h2d + 1e-3 + d2h + 2e-3, 1e-12);
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
    char *xml = hs_test_tmp(".xml"), err[128];
    FILE *f = fopen(xml, "w");
    struct hs_flat flat = {.p = 3, .speed = 1e9, .bw = 1e9, .lat = 0};
    CU_ASSERT_EQUAL_FATAL(hs_flat_write(f, &flat, err, sizeof err), 0);
    fclose(f);
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
    cfg.platform_file = xml;
    cfg.platform_name = "flat:3";
    cfg.opts.flush = false;
    cJSON *r = hs_test_simulate(&cfg, dag, &planned, "planned:prefetch=0");
    CU_ASSERT_DOUBLE_EQUAL(num(item(r, "tasks", tc), "start"), 4.0, 1e-9);
    cJSON_Delete(r);
    r = hs_test_simulate(&cfg, dag, &planned, "planned:prefetch=1");
    CU_ASSERT_DOUBLE_EQUAL(num(item(r, "tasks", tc), "start"), 3.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(num(item(r, "xfers", 0), "start"), 1.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(num(r, "makespan"), 4.0, 1e-9);
    cJSON_Delete(r);
    hs_dag_free(dag);
    free(xml);
    /* into a GPU cache: staged GPU0 -> host -> GPU1 as soon as A is done */
    dag = producer_consumer();
    cfg = idgraf(2, 0);
    r = hs_test_simulate(&cfg, dag, &planned, "planned:prefetch=1");
    double d2h = 11.927e-6 + MIB8 / 6518853316.0, h2d = 10.962e-6 + MIB8 / 5982867814.0;
    HS_ASSERT_NEAR_REL(num(item(r, "tasks", 1), "start"), 1e-3 + d2h + h2d, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(num(r, "audit"), 0, 0);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* A policy that charges every pop 1 ms (like a steal): one worker, three
 * independent 1 s tasks: each starts 1 ms after the worker took it. */
static struct hs_task *delayed_pop(struct hs_runtime *s, int w)
{
    struct hs_task *t = hs_policy_eager.pop(s, w);
    if (t)
        hs_sched_delay(s, w, 1e-3);
    return t;
}

static void test_scheduling_delay(void)
{
    struct hs_policy delayed = hs_policy_eager;
    delayed.pop = delayed_pop;
    char *xml = hs_test_tmp(".xml"), err[128];
    FILE *f = fopen(xml, "w");
    struct hs_flat flat = {.p = 1, .speed = 1, .bw = 1, .lat = 0};
    CU_ASSERT_EQUAL_FATAL(hs_flat_write(f, &flat, err, sizeof err), 0);
    fclose(f);
    struct hs_dag *dag = hs_dag_new("three");
    for (int i = 0; i < 3; i++)
        hs_dag_add_task(dag, "k", NULL, 1, 0);
    hs_dag_finalize(dag);
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.platform_file = xml;
    cfg.platform_name = "flat:1";
    cfg.select.window = 1;
    cJSON *r = hs_test_simulate(&cfg, dag, &delayed, "eager");
    CU_ASSERT_DOUBLE_EQUAL(num(item(r, "tasks", 0), "start"), 1e-3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(num(item(r, "tasks", 2), "start"), 2 + 3e-3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(num(r, "makespan"), 3 + 3e-3, 1e-12);
    cJSON_Delete(r);
    hs_dag_free(dag);
    free(xml);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"one core: makespan = sum of durations", test_one_core_sum},
        {"isolated transfer = latency + bytes/bandwidth", test_isolated_transfer},
        {"two transfers: shared switch x2, separate switches x1", test_switch_contention},
        {"four transfers through Idgraf's host-side models", test_host_link},
        {"idgraf-dada's PCIe model: 359.525 us alone, 709.05 us shared", test_dada_platform},
        {"idgraf-dada's PCIe model: H2D and D2H do not interfere", test_dada_platform_duplex},
        {"bw_scale and gpu_speed", test_platform_knobs},
        {"gpu_speed on the kernels gpu_kernels names", test_gpu_kernels},
        {"GPU to GPU staged through host, or p2p", test_staging_through_host},
        {"a peer copy across the host bridges crosses the host side twice", test_peer_copy_across_bridges},
        {"GEMM on one GPU moves 3S H2D + S D2H", test_gemm_minimal_traffic},
        {"eviction writes sole copies back", test_eviction_writeback},
        {"CPU task fetches from GPU", test_cpu_fetch_from_gpu},
        {"prefetch moves data as soon as it is produced", test_prefetch},
        {"a policy can charge scheduling time to a worker", test_scheduling_delay},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("sim", tests);
}
