/* tests/workloads/test_tiles.c — what the LU and QR tile factorisations
 * share (workloads/tiles.c, their parameters and loop shape): task counts
 * against the closed formulas, the WAR edges the specs name, bad
 * parameters, CPU-only kernels kept off the GPUs, and the options left to us
 * by Bleuse et al. 2014 (regions of the diagonal tile, a GPU TSTRF, updates
 * on GPUs only), each on both factorisations. */
#include "analysis/dagstats.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <string.h>

static int count(const struct hs_dag *dag, const char *kernel)
{
    int n = 0;
    for (int i = 0; i < dag->ntasks; i++)
        n += strcmp(dag->kernels[dag->tasks[i].kernel], kernel) == 0;
    return n;
}

static int task_id(const struct hs_dag *dag, const char *label)
{
    for (int i = 0; i < dag->ntasks; i++)
        if (strcmp(dag->tasks[i].label, label) == 0)
            return i;
    return -1;
}

static void test_counts(void)
{
    const int nts[] = {1, 2, 3, 5, 8, 16};
    const char *lu[4] = {"dgetrf", "dgessm", "dtstrf", "dssssm"};
    const char *qr[4] = {"dgeqrt", "dormqr", "dtsqrt", "dtsmqr"};
    for (int i = 0; i < 6; i++) {
        int nt = nts[i], expect[4] = {nt, nt * (nt - 1) / 2, nt * (nt - 1) / 2, (nt - 1) * nt * (2 * nt - 1) / 6};
        for (int w = 0; w < 2; w++) {
            char spec[64];
            snprintf(spec, sizeof spec, "%s:n=%d,nb=64,ib=16", w ? "qr" : "lu", 64 * nt);
            struct hs_dag *dag = hs_workload_build(spec);
            CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
            for (int k = 0; k < 4; k++)
                CU_ASSERT_EQUAL(count(dag, (w ? qr : lu)[k]), expect[k]);
            hs_dag_free(dag);
        }
    }
}

/* TSQRT(k+1,k) waits for every ORMQR(k,·) (WAR on A(k,k));
 * the TSTRF(·,k) of a panel are chained on A(k,k). */
static void test_named_dependencies(void)
{
    struct hs_dag *dag = hs_workload_build("qr:n=256,nb=64,ib=16");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    int ts = task_id(dag, "tsqrt(1,0)");
    for (int n = 1; n < 4; n++) {
        char label[32];
        snprintf(label, sizeof label, "ormqr(0,%d)", n);
        CU_ASSERT((hs_test_edge_bytes(dag, task_id(dag, label), ts) == 0));
    }
    hs_dag_free(dag);
    dag = hs_workload_build("lu:n=256,nb=64,ib=16");
    CU_ASSERT((hs_test_edge_bytes(dag, task_id(dag, "tstrf(1,0)"), task_id(dag, "tstrf(2,0)")) == 64 * 64 * 8));
    CU_ASSERT((hs_test_edge_bytes(dag, task_id(dag, "tstrf(2,0)"), task_id(dag, "tstrf(3,0)")) == 64 * 64 * 8));
    hs_dag_free(dag);
}

static void test_bad_parameters(void)
{
    CU_ASSERT_PTR_NULL(hs_workload_build("lu:n=512,nb=64,ib=128"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "workload lu: ib=128 is larger than nb=64"));
    CU_ASSERT_PTR_NULL(hs_workload_build("qr:n=512,nb=64,ib=0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "ib: 0 is outside the allowed range"));
    CU_ASSERT_PTR_NULL(hs_workload_build("qr:n=500,nb=64"));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "nb=64 does not divide n=500"));
}

/* On Idgraf, GETRF, TSTRF, GEQRT and TSQRT have no GPU version. */
static void test_cpu_only_kernels(void)
{
    const char *cmds[] = {"run -q -w lu:n=4096,nb=512 -s dmda --events", "run -q -w qr:n=4096,nb=512 -s heft --events",
                          "run -q -w lu:n=4096,nb=512 -s ws --events"};
    for (int i = 0; i < 3; i++) {
        char *rec = hs_test_tmp(".json"), args[512];
        snprintf(args, sizeof args, "%s -o %s", cmds[i], rec);
        CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
        char *text = hs_test_read_file(rec);
        cJSON *r = cJSON_Parse(text);
        int wrong = 0, seen = 0;
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItem(cJSON_GetObjectItem(r, "events"), "tasks"))
        {
            const char *k = cJSON_GetObjectItem(t, "kernel")->valuestring;
            if (strstr("dgetrf dtstrf dgeqrt dtsqrt", k)) {
                seen++;
                wrong += strncmp(cJSON_GetObjectItem(t, "worker")->valuestring, "CPU", 3) != 0;
            }
        }
        CU_ASSERT(seen > 0);
        CU_ASSERT_EQUAL(wrong, 0);
        cJSON_Delete(r);
        free(text);
        free(rec);
    }
}

/* regions=1 (QUARK's regions, which XKaapi ignored) on 2×2 tiles of nb = 2: A(0,0) is
 * its strict lower part (1 element, 8 B) and its upper part with the
 * diagonal (3 elements, 24 B). GESSM/ORMQR read the first, TSTRF/TSQRT update
 * the second: the WAR edge between them goes, every other edge stays, and a
 * whole diagonal tile (A(1,1) into GETRF(1)) still carries its 32 B. */
static void test_regions_2x2(void)
{
    const char *specs[] = {"lu:n=4,nb=2,ib=1,regions=1", "qr:n=4,nb=2,ib=1,regions=1"};
    const double panel_ws[] = {8, 16}; /* IPIV(0,0); T(0,0) */
    const double update_ws[] = {16 + 8, 16}; /* L(1,0) and IPIV(1,0); T(1,0) */
    for (int w = 0; w < 2; w++) {
        struct hs_dag *dag = hs_workload_build(specs[w]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
        CU_ASSERT_EQUAL(dag->nedges, 5);
        CU_ASSERT((hs_test_edge_bytes(dag, 0, 1) == 8 + panel_ws[w])); /* A(0,0)'s lower part */
        CU_ASSERT((hs_test_edge_bytes(dag, 0, 2) == 24));              /* A(0,0)'s upper part */
        CU_ASSERT_FALSE((hs_test_edge_bytes(dag, 1, 2) == 0));         /* no WAR */
        CU_ASSERT((hs_test_edge_bytes(dag, 1, 3) == 32));
        CU_ASSERT((hs_test_edge_bytes(dag, 2, 3) == 32 + update_ws[w]));
        CU_ASSERT((hs_test_edge_bytes(dag, 3, 4) == 24 + 8)); /* A(1,1), both parts */
        hs_dag_free(dag);
    }
}

/* Regions on 4×4 tiles: the same data (no extra bytes), and the longest
 * path, by hand from the loop nest, goes from 13 tasks to 10: without
 * regions each TSTRF(k+1,k) waits for the GESSM(k,·) row. */
static void test_regions_shorten_the_path(void)
{
    const char *specs[][2] = {{"lu:n=256,nb=64,ib=16", "lu:n=256,nb=64,ib=16,regions=1"},
                              {"qr:n=256,nb=64,ib=16", "qr:n=256,nb=64,ib=16,regions=1"}};
    for (int w = 0; w < 2; w++) {
        double bytes[2] = {0, 0};
        int depth[2];
        for (int r = 0; r < 2; r++) {
            struct hs_dag *dag = hs_workload_build(specs[w][r]);
            CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
            for (int h = 0; h < dag->nhandles; h++)
                bytes[r] += dag->handles[h].bytes;
            struct hs_dagstats st;
            hs_dag_stats(dag, 1e9, 1e9, &st, NULL);
            depth[r] = st.depth;
            CU_ASSERT_EQUAL(st.edges, r ? 60 - 6 : 60); /* the 6 GESSM/ORMQR -> TSTRF/TSQRT WAR edges */
            hs_dag_free(dag);
        }
        CU_ASSERT_EQUAL(bytes[1], bytes[0]);
        CU_ASSERT_EQUAL(depth[0], 13);
        CU_ASSERT_EQUAL(depth[1], 10);
    }
}

static int tasks_on(const cJSON *r, const char *arch)
{
    const cJSON *res = cJSON_GetObjectItem(r, "results");
    return cJSON_GetObjectItem(cJSON_GetObjectItem(res, "tasks_per_arch"), arch)->valueint;
}

/* setarch=1 (QUARK_ARCH_GPU_ONLY) and gpu_tstrf=1, 1 GPU and 11 cores under
 * dmda: by default some updates run on the idle cores; with setarch only the
 * panels do: on 8×8 tiles (QR) the 8 GEQRT and 28 TSQRT (168 updates on the
 * GPU), on 12×12 (LU, whose sampled GPU updates keep 8×8's on the GPU) the 12
 * GETRF and 66 TSTRF (66 GESSM + 506 SSSSM on the GPU); with gpu_tstrf too,
 * only the GETRF (8 on 8×8 tiles). */
static void test_update_architectures(void)
{
    const struct {
        const char *args;
        int panels, updates;
    } base[] = {{"-s dmda --gpus 1 -w lu:n=6144,nb=512", 12 + 66, 66 + 506},
                {"-s dmda --gpus 1 -w qr:n=4096,nb=512", 8 + 28, 28 + 140}};
    for (int w = 0; w < 2; w++) {
        char args[256];
        cJSON *r = hs_test_run_record(base[w].args);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT(tasks_on(r, "cpu") > base[w].panels);
        cJSON_Delete(r);
        snprintf(args, sizeof args, "%s,setarch=1", base[w].args);
        r = hs_test_run_record(args);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_EQUAL(tasks_on(r, "cpu"), base[w].panels);
        CU_ASSERT_EQUAL(tasks_on(r, "gpu"), base[w].updates);
        cJSON_Delete(r);
    }
    cJSON *r = hs_test_run_record("-s dmda --gpus 1 -w lu:n=4096,nb=512,setarch=1,gpu_tstrf=1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(tasks_on(r, "cpu"), 8);
    CU_ASSERT_EQUAL(tasks_on(r, "gpu"), 196);
    cJSON_Delete(r);
    /* perf/idgraf-dada.json's timings make TSTRF 7.5 times faster on a GPU (6.5 ms against
     * 48.9 on a core, StarPU's GETRF rate at 512): with gpu_tstrf=1 alone, dmda runs some
     * TSTRF there */
    r = hs_test_run_record("-p idgraf-dada -s dmda --gpus 4 -w lu:n=4096,nb=512,gpu_tstrf=1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT(tasks_on(r, "cpu") < 36);
    cJSON_Delete(r);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"LU and QR task counts", test_counts},
        {"dependencies the specs name", test_named_dependencies},
        {"bad parameters", test_bad_parameters},
        {"CPU-only kernels stay on cores", test_cpu_only_kernels},
        {"regions on 2x2 tiles by hand", test_regions_2x2},
        {"regions: same data, a shorter longest path", test_regions_shorten_the_path},
        {"updates on GPUs only; a GPU TSTRF", test_update_architectures},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("tiles", tests);
}
