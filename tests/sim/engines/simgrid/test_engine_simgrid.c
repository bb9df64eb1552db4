/* tests/sim/engines/simgrid/test_engine_simgrid.c — the SimGrid engine
 * (sim/engines/simgrid/engine_simgrid.c): kernels and transfers simulated on
 * the platform files, checked against values computed by hand from the files
 * and timing tables: execution on one core, isolated and concurrent PCIe
 * transfers on Idgraf, its host-side models, idgraf-dada's PCIe model, the
 * platform's bw_scale, lat_scale, gpu_speed and copy_engines. Each run
 * happens in a forked child (one SimGrid simulation per process). */
#include "base/util.h"
#include "platforms/flat.h"
#include "policies/registry.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <string.h>

#define MIB8 8388608.0

/* One core runs everything: makespan = sum of the table's durations.
 * Cholesky 5x5 tiles of 512: 5 POTRF, 10 TRSM, 10 SYRK, 10 GEMM at the NB-512
 * rates of platforms/perf/idgraf.json (6.0, 7.8, 8.0, 8.6 GFlop/s) plus 1 us
 * start overhead each. With Idgraf's runtime costs (platforms/idgraf.xml),
 * the core also spends 9.49 us of runtime work before each kernel and 0.2 us
 * pushing each task eager places (its own decisions, all on its timeline). */
static void test_one_core_sum(void)
{
    struct hs_dag *dag = hs_workload_build("cholesky:n=2560,nb=512");
    struct hs_run_config cfg = hs_test_idgraf_timed(0, 1);
    cJSON *r = hs_test_simulate_named(&cfg, dag, "eager");
    double b = 512, ov = 1e-6;
    double expect = 5 * ((b * b * b / 3 + b * b / 2 + b / 6) / 6.0e9 + ov) +
                    10 * (b * b * (b + 1) / 7.8e9 + ov) + 10 * (b * b * (b + 1) / 8.0e9 + ov) +
                    10 * (2 * b * b * b / 8.6e9 + ov);
    HS_ASSERT_NEAR_REL(hs_test_num(r, "makespan"), expect, 1e-12);
    cJSON_Delete(r);
    cfg = hs_test_idgraf_timed(0, 1); /* now with the platform's costs */
    for (int i = 0; hs_costs_props[i]; i++)
        hs_costs_set(&cfg.opts.costs, i, NAN);
    r = hs_test_simulate_named(&cfg, dag, "eager");
    HS_ASSERT_NEAR_REL(hs_test_num(r, "makespan"), expect + 35 * (9.49e-6 + 0.2e-6), 1e-12);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* RAM0 -> GPU0 crosses ioh0_down (12.8 GB/s), sw0_down (5985150529 B/s, the
 * larger of its pair's samples) and gpu0_h2d (5985150529 B/s, 11.019 us): 8 MiB
 * take 11.019 us + 8 MiB / 5985150529 B/s, GPU0's own sample. The task starts
 * when its input has landed. */
/* One 1 ms GPU task reading 8 MiB from host memory, on GPU0 of Idgraf. */
static cJSON *one_transfer(const struct hs_run_config *cfg)
{
    struct hs_dag *dag = hs_dag_new("one");
    int h = hs_dag_add_handle(dag, "h", MIB8);
    hs_test_gpu_task(dag, 1e-3, h, -1);
    hs_dag_finalize(dag);
    cJSON *r = hs_test_simulate_named(cfg, dag, "eager");
    hs_dag_free(dag);
    return r;
}

static void test_isolated_transfer(void)
{
    struct hs_run_config cfg = hs_test_idgraf_timed(1, 0);
    cJSON *r = one_transfer(&cfg);
    const cJSON *x = hs_test_item(r, "xfers", 0);
    double expect = 11.019e-6 + MIB8 / 5985150529.0;
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(r, "xfers")), 1);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_num(x, "start"), 0, 0);
    HS_ASSERT_NEAR_REL(hs_test_num(x, "end"), expect, 1e-12);
    HS_ASSERT_NEAR_REL(hs_test_num(hs_test_item(r, "tasks", 0), "start"), expect, 1e-12);
    HS_ASSERT_NEAR_REL(hs_test_num(r, "makespan"), expect + 1e-3, 1e-12);
    cJSON_Delete(r);
}

/* Two tasks on two GPUs, each reading its own `bytes` at time 0. */
static cJSON *two_transfers_of(const char *platform, enum hs_gpu_order order, double bytes)
{
    struct hs_dag *dag = hs_dag_new("two");
    int a = hs_dag_add_handle(dag, "a", bytes), b = hs_dag_add_handle(dag, "b", bytes);
    hs_test_gpu_task(dag, 1e-3, a, -1);
    hs_test_gpu_task(dag, 1e-3, b, -1);
    hs_dag_finalize(dag);
    struct hs_run_config cfg = hs_test_idgraf_timed(2, 0);
    cfg.platform_file = hs_test_data(platform);
    cfg.select.gpu_order = order;
    cfg.select.window = 1; /* so that each GPU takes one task */
    cJSON *r = hs_test_simulate_named(&cfg, dag, "eager");
    hs_dag_free(dag);
    return r;
}

static cJSON *two_transfers(const char *platform, enum hs_gpu_order order)
{
    return two_transfers_of(platform, order, MIB8);
}

static double xfer_time(const cJSON *r, int i)
{
    const cJSON *x = hs_test_item(r, "xfers", i);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_num(x, "start"), 0, 0);
    return hs_test_num(x, "end") - hs_test_num(x, "start");
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
            hs_test_gpu_task(dag, 1e-3, hs_dag_add_handle(dag, "h", B), -1);
        hs_dag_finalize(dag);
        struct hs_run_config cfg = hs_test_idgraf_timed(4, 0);
        cfg.platform_file = hs_test_data(models[m].file);
        cfg.select.gpu_order = HS_GPU_SPREAD;
        cfg.select.window = 1; /* each GPU takes one task */
        cJSON *r = hs_test_simulate_named(&cfg, dag, "eager");
        double last[2] = {0, 0};
        int flows[2] = {0, 0};
        for (int i = 0; i < 4; i++) {
            const cJSON *x = hs_test_item(r, "xfers", i);
            int g = (int)hs_test_num(hs_test_item(r, "tasks", (int)hs_test_num(x, "handle")), "worker"); /* the task of handle i */
            HS_ASSERT_NEAR_REL(hs_test_num(x, "end") - hs_test_num(x, "start") - lat[g], B / models[m].bw[g], 2e-2);
            int k = models[m].group[g];
            if (k >= 0) {
                last[k] = fmax(last[k], hs_test_num(x, "end"));
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

/* Idgraf as the papers describe it (platforms/idgraf.xml, issue 58), 64 MiB
 * (67108864 B) from RAM0 into each of two or four GPUs at time 0, by hand
 * from the file's links:
 *   GPU0 and GPU1, one switch: both cross sw0_down (5985150529 B/s, one x16
 *     uplink): the last lands when 2 x 64 MiB went through it, 22.4251 ms
 *     after its latency, each flow taking about half (CM02 weighs the flows by
 *     their route latencies, 11.019 and 10.962 us: within 1%);
 *   GPU0 and GPU2, two switches: each as alone, 11.019 us + B / 5985150529
 *     and 10.954 us + B / 6004601450 B/s (11.2236 and 11.1872 ms): ioh0_down's
 *     12.8 GB/s carries both (11.99 GB/s) unsaturated;
 *   GPU0, GPU2, GPU4, GPU6 (one per switch): all four cross bridge 0's QPI
 *     link ioh0_down (12.8 GB/s, 24.02 GB/s asked), GPU4 and GPU6 also the
 *     QPI link between the bridges (qpi_0to1, 0.1 us): about 3.2 GB/s each
 *     (within 2%), the last landing when 4 x 64 MiB crossed 12.8 GB/s,
 *     20.9715 ms (at most 1% later, the tail). Under StarPU's one Host link
 *     (idgraf-starpu) the same two GPUs of two switches take twice as long. */
static void test_papers_tree(void)
{
    const double B = 64 * 1048576.0, sw0 = 5985150529.0;
    HS_ASSERT_NEAR_REL(2 * B / sw0, 22.4251e-3, 1e-5); /* by hand, to 0.1 us */
    HS_ASSERT_NEAR_REL(4 * B / 12.8e9, 20.9715e-3, 1e-5);
    cJSON *r = two_transfers_of("idgraf.xml", HS_GPU_FIRST, B);
    double t0 = xfer_time(r, 0) - 11.019e-6, t1 = xfer_time(r, 1) - 10.962e-6;
    HS_ASSERT_NEAR_REL(t0, 2 * B / sw0, 1e-2);
    HS_ASSERT_NEAR_REL(t1, 2 * B / sw0, 1e-2);
    HS_ASSERT_NEAR_REL(fmax(t0, t1), 2 * B / sw0, 1e-4);
    cJSON_Delete(r);
    r = two_transfers_of("idgraf.xml", HS_GPU_SPREAD, B);
    HS_ASSERT_NEAR_REL(xfer_time(r, 0), 11.019e-6 + B / 5985150529.0, 1e-12);
    HS_ASSERT_NEAR_REL(xfer_time(r, 1), 10.954e-6 + B / 6004601450.0, 1e-12);
    HS_ASSERT_NEAR_REL(xfer_time(r, 0), 11.2236e-3, 1e-5);
    HS_ASSERT_NEAR_REL(xfer_time(r, 1), 11.1872e-3, 1e-5);
    cJSON_Delete(r);
    r = two_transfers_of("idgraf-starpu.xml", HS_GPU_SPREAD, B);
    HS_ASSERT_NEAR_REL(xfer_time(r, 0) - 11.019e-6, B / (6520981045.0 / 2), 1e-2);
    cJSON_Delete(r);

    struct hs_dag *dag = hs_dag_new("four");
    for (int g = 0; g < 4; g++)
        hs_test_gpu_task(dag, 1e-3, hs_dag_add_handle(dag, "h", B), -1);
    hs_dag_finalize(dag);
    struct hs_run_config cfg = hs_test_idgraf_timed(4, 0);
    cfg.select.gpu_order = HS_GPU_SPREAD;
    cfg.select.window = 1; /* each GPU takes one task */
    r = hs_test_simulate_named(&cfg, dag, "eager");
    const double lat[4] = {11.019e-6, 10.954e-6, 11.006e-6 + 0.1e-6, 11.110e-6 + 0.1e-6};
    double last = 0;
    for (int i = 0; i < 4; i++) {
        const cJSON *x = hs_test_item(r, "xfers", i);
        int g = (int)hs_test_num(hs_test_item(r, "tasks", (int)hs_test_num(x, "handle")), "worker");
        HS_ASSERT_NEAR_REL(hs_test_num(x, "end") - hs_test_num(x, "start") - lat[g], B / 3.2e9, 2e-2);
        last = fmax(last, hs_test_num(x, "end"));
    }
    CU_ASSERT(last >= 4 * B / 12.8e9 * (1 - 1e-12));
    CU_ASSERT(last <= 4 * B / 12.8e9 * 1.01);
    cJSON_Delete(r);
    hs_dag_free(dag);
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

/* An H2D beside a D2H, 2 MiB each: A (no time) writes h, which B needs on
 * a core, while C reads a. Each task's cost per worker (GPUs, then the core;
 * -1: not there) is given. */
static struct hs_dag *duplex_dag(const double *ca, const double *cc, const double *cb, int nworkers)
{
    const double mib2 = 2097152;
    struct hs_dag *dag = hs_dag_new("duplex");
    int a = hs_dag_add_handle(dag, "a", mib2), h = hs_dag_add_handle(dag, "h", mib2);
    int ta = hs_test_task(dag, "A", ca, nworkers);
    int tc = hs_test_task(dag, "C", cc, nworkers);
    int tb = hs_test_task(dag, "B", cb, nworkers);
    hs_dag_access(dag, tc, a, HS_MODE_R);
    hs_dag_access(dag, ta, h, HS_MODE_W);
    hs_dag_access(dag, tb, h, HS_MODE_R);
    hs_dag_finalize(dag);
    return dag;
}

/* SPLITDUPLEX (the C2050's two copy engines): a D2H out of GPU1 beside an H2D into GPU0, the
 * two GPUs on one switch, each takes 359.525 us. A (GPU1, no time) writes h,
 * which B needs on the core; C reads a on GPU0. */
static void test_dada_platform_duplex(void)
{
    struct hs_dag *dag = duplex_dag((const double[]){-1, 0, -1}, (const double[]){1e-3, -1, -1},
                                    (const double[]){-1, -1, 1e-3}, 3);
    struct hs_run_config cfg = hs_test_idgraf_timed(2, 1);
    cfg.platform_file = hs_test_data("idgraf-dada.xml");
    cfg.perf_file = NULL;
    cJSON *r = hs_test_simulate_named(&cfg, dag, "eager");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(r, "xfers")), 2);
    HS_ASSERT_NEAR_REL(xfer_time(r, 0), 359.525e-6, 1e-6);
    HS_ASSERT_NEAR_REL(xfer_time(r, 1), 359.525e-6, 1e-6);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* Duplex on Idgraf as the papers describe it: a D2H of 2 MiB out of GPU1
 * (gpu1_d2h, sw0_up, ioh0_up) beside an H2D of 2 MiB into GPU0 (ioh0_down,
 * sw0_down, gpu0_h2d), the two GPUs on one switch: no link in common, so each
 * takes what it takes alone, by hand 11.956 us + 2097152 / 6507263283 B/s =
 * 334.2346 us and 11.019 us + 2097152 / 5985150529 B/s = 361.4115 us, at the
 * same time. Under StarPU's one Host link (idgraf-starpu) the two share
 * 6520981045 B/s and each takes longer. A (GPU1, no time) writes h, which B
 * needs on the core; C reads a on GPU0. */
static void test_papers_duplex(void)
{
    const double mib2 = 2097152, d2h = 11.956e-6 + mib2 / 6507263283.0, h2d = 11.019e-6 + mib2 / 5985150529.0;
    HS_ASSERT_NEAR_REL(d2h, 334.2346e-6, 1e-6); /* by hand, to 0.1 ns */
    HS_ASSERT_NEAR_REL(h2d, 361.4115e-6, 1e-6);
    const char *files[] = {"idgraf.xml", "idgraf-starpu.xml"};
    for (int f = 0; f < 2; f++) {
        struct hs_dag *dag = duplex_dag((const double[]){-1, 0, -1}, (const double[]){1e-3, -1, -1},
                                        (const double[]){-1, -1, 1e-3}, 3);
        struct hs_run_config cfg = hs_test_idgraf_timed(2, 1);
        cfg.platform_file = hs_test_data(files[f]);
        cfg.perf_file = NULL;
        cJSON *r = hs_test_simulate_named(&cfg, dag, "eager");
        CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(cJSON_GetObjectItem(r, "xfers")), 2);
        for (int x = 0; x < 2; x++) {
            const cJSON *t = hs_test_item(r, "xfers", x);
            double took = hs_test_num(t, "end") - hs_test_num(t, "start");
            bool out = hs_test_num(t, "handle") == 1; /* h, out of GPU1 (a is handle 0) */
            CU_ASSERT_DOUBLE_EQUAL(hs_test_num(t, "start"), 0, 1e-9);
            if (f == 0) {
                HS_ASSERT_NEAR_REL(took, out ? d2h : h2d, 1e-9);
            } else {
                CU_ASSERT(took > (out ? d2h : h2d) * 1.5);
            }
        }
        cJSON_Delete(r);
        hs_dag_free(dag);
    }
}

/* The sensitivity knobs (our dada-sensitivity study): bw_scale multiplies every link's
 * bandwidth (8 MiB into GPU0 of Idgraf at half of 5985150529 B/s, estimates
 * included: the task starts when the copy lands), gpu_speed divides GPU
 * kernel times (a 1 ms kernel takes 0.8 ms at 1.25). */
static void test_platform_knobs(void)
{
    struct hs_run_config cfg = hs_test_idgraf_timed(1, 0);
    cfg.opts.machine.bw_scale = 0.5;
    cfg.opts.machine.gpu_speed = 1.25;
    cJSON *r = one_transfer(&cfg);
    double copy = 11.019e-6 + MIB8 / (0.5 * 5985150529.0);
    HS_ASSERT_NEAR_REL(hs_test_num(hs_test_item(r, "xfers", 0), "end"), copy, 1e-12);
    HS_ASSERT_NEAR_REL(hs_test_num(r, "makespan"), copy + 0.8e-3, 1e-12);
    cJSON_Delete(r);
}

/* lat_scale multiplies every link's latency: the 8 MiB into GPU0 of Idgraf
 * take 8 MiB / 5985150529 B/s alone at 0 (the task starts when they land)
 * and 2 x 11.019 us + 8 MiB / 5985150529 B/s at 2. */
static void test_lat_scale(void)
{
    const double factors[] = {0, 2};
    for (int i = 0; i < 2; i++) {
        struct hs_run_config cfg = hs_test_idgraf_timed(1, 0);
        cfg.opts.machine.lat_scale = factors[i];
        cJSON *r = one_transfer(&cfg);
        double copy = factors[i] * 11.019e-6 + MIB8 / 5985150529.0;
        HS_ASSERT_NEAR_REL(hs_test_num(hs_test_item(r, "xfers", 0), "end"), copy, 1e-12);
        HS_ASSERT_NEAR_REL(hs_test_num(r, "makespan"), copy + 1e-3, 1e-12);
        cJSON_Delete(r);
    }
}

/* An H2D and a D2H of 2 MiB on Mapuche's one GPU at once (its own links
 * pcie_h2d and pcie_d2h, 3 GB/s and 10 us each: 10 us + 2097152 / 3e9 s =
 * 709.0507 us alone): A and C on the GPU, B on a core. copy_engines: 0
 * keeps the file's property. */
static cJSON *mapuche_duplex(int copy_engines)
{
    struct hs_dag *dag = duplex_dag((const double[]){0, -1}, (const double[]){1e-3, -1},
                                    (const double[]){-1, 1e-3}, 2);
    struct hs_run_config cfg = hs_test_idgraf_timed(1, 1);
    cfg.platform_file = hs_test_data("mapuche.xml");
    cfg.perf_file = NULL;
    cfg.opts.machine.copy_engines = copy_engines;
    cJSON *r = hs_test_simulate_named(&cfg, dag, "eager");
    hs_dag_free(dag);
    return r;
}

/* ---- a shared resource: the memory bandwidth of one socket (issue 58) ---- */

/* A task that only runs on a core, for `seconds`, accessing handle h in mode. */
static int cpu_task(struct hs_dag *dag, double seconds, int h, enum hs_mode mode)
{
    int t = hs_dag_add_task(dag, "k", NULL, 0, 0);
    dag->tasks[t].arch_cost[HS_ARCH_CPU] = seconds;
    dag->tasks[t].arch_mask = HS_ARCH_BIT(HS_ARCH_CPU);
    hs_dag_access(dag, t, h, mode);
    return t;
}

/* Two tasks on platforms/socket-membw.xml (cores CPU0 and CPU1 sharing
 * socket0_mem, 10 GB/s, no latency, no runtime costs), on `cpus` cores. */
static cJSON *membw_run(int cpus, double seconds, double bytes0, double bytes1, enum hs_mode mode1)
{
    struct hs_dag *dag = hs_dag_new("membw");
    int a = hs_dag_add_handle(dag, "a", bytes0), b = hs_dag_add_handle(dag, "b", bytes1);
    cpu_task(dag, seconds, a, HS_MODE_R);
    cpu_task(dag, seconds, b, mode1);
    hs_dag_finalize(dag);
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.platform_file = hs_test_data("socket-membw.xml");
    cfg.platform_name = "socket-membw";
    cfg.select.cpus = cpus;
    cfg.select.gpus = 0;
    cJSON *r = hs_test_simulate_named(&cfg, dag, "eager");
    hs_dag_free(dag);
    return r;
}

static double task_end(const cJSON *r, int i)
{
    return hs_test_num(hs_test_item(r, "tasks", i), "end");
}

/* By hand, a kernel lasts max(its duration, its bytes / its share of 10 GB/s):
 *   task 0 reads a (1e9 B: 1e9 B moved), task 1 reads and writes b (5e8 B:
 *   1e9 B moved), each 0.15 s.
 *   one core: each alone, max(0.15, 1e9 / 1e10 = 0.1) = 0.15 s: 0.30 s;
 *   two cores: both at once, 5 GB/s each: 1e9 / 5e9 = 0.2 s for both
 *     (without the sharing each would take 0.15 s, and so would the run);
 *   two cores, 1e9 and 2.5e8 B read, 0.01 s each: 5 GB/s each until task 1
 *     is done, 2.5e8 / 5e9 = 0.05 s; task 0 has 7.5e8 B left, alone at
 *     10 GB/s: 0.075 s more, so it ends at 0.125 s (max-min: the link's
 *     whole bandwidth goes to the flow left). */
static void test_memory_link(void)
{
    cJSON *r = membw_run(1, 0.15, 1e9, 5e8, HS_MODE_RW);
    HS_ASSERT_NEAR_REL(hs_test_num(r, "makespan"), 0.30, 1e-12);
    cJSON_Delete(r);
    r = membw_run(2, 0.15, 1e9, 5e8, HS_MODE_RW);
    HS_ASSERT_NEAR_REL(task_end(r, 0), 0.2, 1e-12);
    HS_ASSERT_NEAR_REL(task_end(r, 1), 0.2, 1e-12);
    HS_ASSERT_NEAR_REL(hs_test_num(r, "makespan"), 0.2, 1e-12);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(r, "xfers")), 0); /* not the runtime's transfers */
    cJSON_Delete(r);
    r = membw_run(2, 0.01, 1e9, 2.5e8, HS_MODE_R);
    HS_ASSERT_NEAR_REL(task_end(r, 1), 0.05, 1e-12);
    HS_ASSERT_NEAR_REL(task_end(r, 0), 0.125, 1e-12);
    cJSON_Delete(r);
}

/* copy_engines overrides every GPU's property: with Mapuche's one engine
 * (its file, or copy_engines=1) the second copy waits for the first and
 * ends at 2 x 709.0507 us; with two (one each way) both start at 0 and
 * end at 709.0507 us. */
static void test_copy_engines(void)
{
    const double alone = 10e-6 + 2097152 / 3e9;
    HS_ASSERT_NEAR_REL(alone, 709.0507e-6, 1e-7); /* to the 0.1 ns, as computed by hand */
    const int engines[] = {0, 1, 2};
    for (int i = 0; i < 3; i++) {
        cJSON *r = mapuche_duplex(engines[i]);
        CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(cJSON_GetObjectItem(r, "xfers")), 2);
        double start[2], end[2];
        for (int x = 0; x < 2; x++) {
            start[x] = hs_test_num(hs_test_item(r, "xfers", x), "start");
            end[x] = hs_test_num(hs_test_item(r, "xfers", x), "end");
            HS_ASSERT_NEAR_REL(end[x] - start[x], alone, 1e-9);
        }
        if (engines[i] == 2) {
            CU_ASSERT_DOUBLE_EQUAL(fmax(start[0], start[1]), 0, 1e-12);
            HS_ASSERT_NEAR_REL(fmax(end[0], end[1]), alone, 1e-9);
        } else {
            HS_ASSERT_NEAR_REL(fmax(start[0], start[1]), alone, 1e-9);
            HS_ASSERT_NEAR_REL(fmax(end[0], end[1]), 2 * alone, 1e-9);
        }
        cJSON_Delete(r);
    }
}

/* A chain of two 1 ms tasks on arch, kernels k and `second`. */
static struct hs_dag *two_kernels(enum hs_arch arch, const char *second)
{
    struct hs_dag *dag = hs_dag_new("two-kernels");
    const char *kernels[] = {"k", second};
    for (int i = 0; i < 2; i++) {
        int t = hs_dag_add_task(dag, kernels[i], NULL, 0, 0);
        dag->tasks[t].arch_cost[arch] = 1e-3;
        dag->tasks[t].arch_mask = HS_ARCH_BIT(arch);
    }
    hs_dag_add_edge(dag, 0, 1, 0);
    hs_dag_finalize(dag);
    return dag;
}

/* The makespan of dag with *kernels (cfg's gpu_kernels or cpu_kernels) set
 * to `named`, then unset: only_named, then every_kernel. */
static void check_named_kernels(struct hs_run_config *cfg, char **kernels, const char *named,
                                double only_named, double every_kernel)
{
    struct hs_dag *dag = two_kernels(kernels == &cfg->opts.machine.gpu_kernels ? HS_ARCH_GPU : HS_ARCH_CPU,
                                     strrchr(named, ':') + 1);
    *kernels = (char *)named; /* borrowed, as the scenario lends the plan's */
    cJSON *r = hs_test_simulate_named(cfg, dag, "eager");
    HS_ASSERT_NEAR_REL(hs_test_num(r, "makespan"), only_named, 1e-12);
    cJSON_Delete(r);
    *kernels = NULL;
    r = hs_test_simulate_named(cfg, dag, "eager");
    HS_ASSERT_NEAR_REL(hs_test_num(r, "makespan"), every_kernel, 1e-12);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* gpu_kernels restricts gpu_speed to the kernels it names (the sensitivity
 * of a timing table's assumed rates): a chain of two 1 ms GPU tasks, kernels
 * k and dgessm, takes 1 + 1/1.25 = 1.8 ms when only dgessm is scaled, and
 * 2/1.25 = 1.6 ms when every kernel is. */
static void test_gpu_kernels(void)
{
    struct hs_run_config cfg = hs_test_idgraf_timed(1, 0);
    cfg.opts.machine.gpu_speed = 1.25;
    check_named_kernels(&cfg, &cfg.opts.machine.gpu_kernels, "dsyrk:dgessm", 1.8e-3, 1.6e-3);
}

/* cpu_kernels restricts cpu_speed to the kernels it names, the mirror of
 * gpu_kernels: a chain of two 1 ms CPU tasks, kernels k and dpotrf, takes
 * 1 + 1/2 = 1.5 ms at cpu_speed=2 when only dpotrf is scaled, and 2/2 = 1
 * ms when every kernel is; gpu_speed leaves them alone. */
static void test_cpu_kernels(void)
{
    struct hs_run_config cfg = hs_test_idgraf_timed(0, 1);
    cfg.opts.machine.cpu_speed = 2;
    cfg.opts.machine.gpu_speed = 4;
    check_named_kernels(&cfg, &cfg.opts.machine.cpu_kernels, "dsyrk:dpotrf", 1.5e-3, 1e-3);
}

/* The same through the command line on the timing table: one DPOTRF of
 * nb = 512 (cholesky n = 512) on one core of Idgraf, whose table gives
 * 6.0 GFlop/s and a 1 us task start (both "assumption"), takes
 * (512^3/3 + 512^2/2 + 512/6) flop = 44,870,400 flop / 6e9 flop/s + 1 us =
 * 7.4794 ms, and half of it at cpu_speed=2 (the record keeps 0.1 us). */
static void test_cpu_speed_table(void)
{
    const char *fmt = "--no-costs -p idgraf%s --gpus 0 --cpus 1 -w cholesky:n=512,nb=512 -s eager";
    const char *params[] = {"", ":cpu_speed=2,cpu_kernels=dpotrf", ":cpu_speed=2"};
    const double alone = 44870400 / 6e9 + 1e-6, expect[] = {alone, alone / 2, alone / 2};
    for (int i = 0; i < 3; i++) {
        char args[256];
        snprintf(args, sizeof args, fmt, params[i]);
        CU_ASSERT_DOUBLE_EQUAL(hs_test_run_makespan(args), expect[i], 0.6e-7);
    }
}

/* A host SimGrid turns off mid-run kills the actors on it, and their tasks
 * never end: the run is no result (exit 1, the count of tasks not finished),
 * where it was reported finished with the tasks done so far (faulty_host.xml
 * turned off the host that holds hetsim's actors: 74 of 120 tasks, exit 0).
 * A policy that runs eager and, at the first task it hands out, starts an
 * actor on worker 1's host that turns off the host of the runtime's actors
 * 1 ms later (as a state profile would). */
static sg_host_t off_home;

static void off_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    sg_actor_sleep_for(1e-3);
    sg_host_turn_off(off_home);
}

static struct hs_task *off_pop(struct hs_runtime *s, int w)
{
    struct hs_task *t = hs_policy_eager.pop(s, w);
    if (t && !off_home) {
        off_home = sg_host_by_name("RAM"); /* flat's host memory, where the engine's actors run */
        sg_actor_create("turn-off", sg_host_by_name(hs_sched_worker(s, 1)->host), off_actor, 0, NULL);
    }
    return t;
}

static void test_host_turned_off(void)
{
    struct hs_dag *dag = hs_workload_build("cholesky:n=2048,nb=512");
    struct hs_run_config cfg = hs_test_flat_config(2, NULL);
    struct hs_policy off = hs_policy_eager;
    off.pop = off_pop;
    cJSON *r = hs_test_simulate(&cfg, dag, &off, "eager");
    const cJSON *err = cJSON_GetObjectItem(r, "error");
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err->valuestring, "tasks not finished"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err->valuestring, "of 20 tasks"));
    cJSON_Delete(r);
    hs_dag_free(dag);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"one core: makespan = sum of durations", test_one_core_sum},
        {"isolated transfer = latency + bytes/bandwidth", test_isolated_transfer},
        {"two transfers: shared switch x2, separate switches x1", test_switch_contention},
        {"four transfers through Idgraf's host-side models", test_host_link},
        {"Idgraf as the papers describe it: one x16 per switch, bridge 0's QPI", test_papers_tree},
        {"Idgraf as the papers describe it: H2D and D2H do not interfere", test_papers_duplex},
        {"idgraf-dada's PCIe model: 359.525 us alone, 709.05 us shared", test_dada_platform},
        {"idgraf-dada's PCIe model: H2D and D2H do not interfere", test_dada_platform_duplex},
        {"bw_scale and gpu_speed", test_platform_knobs},
        {"gpu_speed on the kernels gpu_kernels names", test_gpu_kernels},
        {"cpu_speed on the kernels cpu_kernels names", test_cpu_kernels},
        {"cpu_speed on a timing table's DPOTRF (hetsim run)", test_cpu_speed_table},
        {"lat_scale: latency times 0 and 2", test_lat_scale},
        {"copy_engines: Mapuche's H2D and D2H in turn with 1, at once with 2", test_copy_engines},
        {"a memory link: two cores sharing 10 GB/s, by hand", test_memory_link},
        {"a host turned off mid-run: no result, the tasks not finished counted", test_host_turned_off},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("engine_simgrid", tests);
}
