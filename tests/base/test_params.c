/* tests/base/test_params.c — "name:key=value" specifications, the timing
 * tables, and the worker selection of hs_platform_build. */
#include "platforms/perfmodel.h"
#include "base/params.h"
#include "base/util.h"
#include "policies/registry.h"
#include "sim/platform.h"
#include "tests/support/testing.h"

#include <math.h>
#include <string.h>

static const struct hs_param table[] = {
    {.name = "p", .type = HS_P_INT, .range = "[1,inf)", .positional = true, .help = "count"},
    {.name = "alpha", .type = HS_P_DOUBLE, .defval = "0.5", .range = "[0,1]", .help = "a"},
    {.name = "mode", .type = HS_P_CHOICE, .defval = "x", .choices = "x|yy", .help = "m"},
    {.name = "on", .type = HS_P_BOOL, .defval = "off", .help = "b"},
    {.name = "bw", .type = HS_P_SI, .defval = "1G", .range = "(0,inf]", .help = "s"},
    {0},
};

static int check(const char *text, struct hs_spec *spec)
{
    if (hs_spec_parse(text, spec))
        return -1;
    int rc = hs_spec_check(spec, table, "thing");
    if (rc)
        hs_spec_free(spec);
    return rc;
}

static void test_spec_parse_and_defaults(void)
{
    struct hs_spec s;
    CU_ASSERT_EQUAL_FATAL(check("flat:8,alpha=1,bw=6Gi", &s), 0);
    CU_ASSERT_STRING_EQUAL(s.name, "flat");
    CU_ASSERT_EQUAL(hs_spec_int(&s, "p"), 8);
    CU_ASSERT_DOUBLE_EQUAL(hs_spec_double(&s, "alpha"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_spec_double(&s, "bw"), 6.0 * 1073741824.0, 0);
    CU_ASSERT_STRING_EQUAL(hs_spec_get(&s, "mode"), "x");
    CU_ASSERT_FALSE(hs_spec_bool(&s, "on"));
    char *text = hs_spec_text(&s);
    CU_ASSERT_STRING_EQUAL(text, "flat:p=8,alpha=1,bw=6Gi,mode=x,on=off");
    free(text);
    hs_spec_free(&s);
    CU_ASSERT_EQUAL_FATAL(check("z:p=2,bw=inf,on=yes,mode=yy", &s), 0);
    CU_ASSERT(isinf(hs_spec_double(&s, "bw")));
    CU_ASSERT_TRUE(hs_spec_bool(&s, "on"));
    hs_spec_free(&s);
}

static void test_spec_errors(void)
{
    struct hs_spec s;
    CU_ASSERT_EQUAL(check("z:p=2,beta=1", &s), -1);
    CU_ASSERT_STRING_EQUAL(hs_last_error(),
                           "thing: unknown parameter 'beta' (valid: p, alpha, mode, on, bw)");
    CU_ASSERT_EQUAL(check("z:p=2,alpha=2", &s), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "alpha: 2 is outside the allowed range [0,1]"));
    CU_ASSERT_EQUAL(check("z:p=x", &s), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "'x' is not an integer"));
    CU_ASSERT_EQUAL(check("z:alpha=0", &s), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "parameter p is required"));
    CU_ASSERT_EQUAL(check("z:p=1,mode=q", &s), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "'q' is not one of x|yy"));
    CU_ASSERT_EQUAL(check("z:p=1,p=2", &s), -1);
    CU_ASSERT_EQUAL(check("z:p=1,bw=0", &s), -1);
    CU_ASSERT_EQUAL(check("z:1,2", &s), -1);
    CU_ASSERT_EQUAL(check(":p=1", &s), -1);
}

static void test_policy_registry(void)
{
    struct hs_spec s;
    CU_ASSERT_PTR_NULL(hs_policy_parse("heftx", &s));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "unknown policy 'heftx' (valid: eager, random, dmda, heft, cpop, peft"));
    CU_ASSERT_PTR_NULL(hs_policy_parse("dmda:gamma=1", &s));
    CU_ASSERT_STRING_EQUAL(hs_last_error(), "policy dmda: unknown parameter 'gamma' (valid: beta, eft, bus, prefetch)");
    const struct hs_policy *p = hs_policy_parse("dmda", &s);
    CU_ASSERT_PTR_EQUAL(p, &hs_policy_dmda);
    CU_ASSERT_STRING_EQUAL(hs_spec_get(&s, "beta"), "1");
    hs_spec_free(&s);
}

static const char *perf_text =
    "{\"overhead_seconds\": {\"gpu\": 0.5},\n"
    " \"kernels\": [\n"
    "  {\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 100, \"gflops\": 1, \"source\": \"t\"},\n"
    "  {\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 200, \"gflops\": 3, \"source\": \"t\"},\n"
    "  {\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 100, \"seconds\": 2, \"source\": \"t\"},\n"
    "  {\"kernel\": \"any\", \"arch\": \"gpu\", \"gflops\": 4, \"source\": \"t\"}\n"
    " ]}\n";

static void test_perf_lookup(void)
{
    char *path = hs_test_tmp(".json"), err[512];
    hs_test_write_file(path, perf_text);
    struct hs_perfmodel pm;
    CU_ASSERT_EQUAL_FATAL(hs_perf_load(path, &pm, err, sizeof err), 0);
    CU_ASSERT_EQUAL(pm.n, 4);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "k", "cpu", 100, 1e9), 1.0, 1e-12);
    /* nb 150: rate halfway between 1 and 3 GFlop/s */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "k", "cpu", 150, 4e9), 2.0, 1e-12);
    /* beyond the last entry: its rate */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "k", "cpu", 400, 6e9), 2.0, 1e-12);
    /* seconds at the exact nb are taken as measured, without overhead */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "k", "gpu", 100, 123), 2.0, 1e-12);
    /* at nb 200 a task of 8x the flops of the nb-100 one: same rate (flops scale as nb^3),
     * so 8 x 2 s, plus the overhead of rate-based durations */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "k", "gpu", 200, 8000), 16.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "any", "gpu", 77, 4e9), 1.5, 1e-12);
    CU_ASSERT(isnan(hs_perf_time(&pm, "any", "cpu", 77, 4e9)));
    CU_ASSERT(isnan(hs_perf_time(&pm, "k", "cpu", 150, 0)));
    CU_ASSERT_TRUE(hs_perf_has(&pm, "any", "gpu"));
    CU_ASSERT_FALSE(hs_perf_has(&pm, "nope", "gpu"));
    hs_perf_free(&pm);
    free(path);
}

static void test_perf_errors(void)
{
    char *path = hs_test_tmp(".json"), err[512];
    struct hs_perfmodel pm;
    hs_test_write_file(path, "{\"kernels\": [\n {\"kernel\": \"k\", \"arch\": \"cpu\",,}]}");
    CU_ASSERT_EQUAL(hs_perf_load(path, &pm, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "malformed JSON near line 2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, path));
    hs_test_write_file(path, "{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"fpga\", \"gflops\": 1, \"source\": \"x\"}]}");
    CU_ASSERT_EQUAL(hs_perf_load(path, &pm, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "kernels[0]: field 'arch'"));
    hs_test_write_file(path, "{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"cpu\", \"gflops\": 1}]}");
    CU_ASSERT_EQUAL(hs_perf_load(path, &pm, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "'source' (provenance) is required"));
    hs_test_write_file(path, "{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"cpu\", \"gflops\": -1, \"source\": \"x\"}]}");
    CU_ASSERT_EQUAL(hs_perf_load(path, &pm, err, sizeof err), -1);
    hs_test_write_file(path, "{\"kernels\": []}");
    CU_ASSERT_EQUAL(hs_perf_load(path, &pm, err, sizeof err), -1);
    CU_ASSERT_EQUAL(hs_perf_load("/nonexistent/x.json", &pm, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/x.json: No such file"));
    free(path);
}

static void test_shipped_perf_tables(void)
{
    char err[512];
    struct hs_perfmodel pm;
    CU_ASSERT_EQUAL_FATAL(hs_perf_load(hs_test_data("perf/idgraf.json"), &pm, err, sizeof err), 0);
    /* DGEMM on a C2050 at NB 512: 2*512^3 flops at 250 GFlop/s + 5 us launch */
    double f = 2.0 * 512 * 512 * 512;
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "dgemm", "gpu", 512, f), f / 250e9 + 5e-6, 1e-15);
    CU_ASSERT(isnan(hs_perf_time(&pm, "dpotrf", "gpu", 512, 1e8))); /* CPU-only kernel */
    CU_ASSERT_FALSE(hs_perf_has(&pm, "dgeqrt", "gpu"));
    hs_perf_free(&pm);
    CU_ASSERT_EQUAL(hs_perf_load(hs_test_data("perf/mapuche.json"), &pm, err, sizeof err), 0);
    hs_perf_free(&pm);
}

/* ---- worker selection on a synthetic Idgraf-like inventory ---------------- */

static bool fake_route(void *ctx, const char *src, const char *dst, double *lat, double *bw)
{
    (void)ctx;
    bool gpu_pair = src[0] == 'G' && dst[0] == 'G';
    *lat = 1e-5;
    *bw = 6e9;
    return !gpu_pair;
}

static void inventory(struct hs_inventory *inv, int ncores, int ngpus)
{
    inv->n = 0;
    inv->hosts = hs_xcalloc((size_t)(ncores + ngpus + 1), sizeof *inv->hosts);
    char name[16];
    for (int i = 0; i < ncores; i++) {
        snprintf(name, sizeof name, "CPU%d", i);
        inv->hosts[inv->n++] = (struct hs_inv_host){hs_xstrdup(name), HS_HOST_CPU, 1e9, 0, -1, i / 6, 0, 1, false};
    }
    for (int i = 0; i < ngpus; i++) {
        snprintf(name, sizeof name, "GPU%d", i);
        inv->hosts[inv->n++] = (struct hs_inv_host){hs_xstrdup(name), HS_HOST_GPU, 1e11, 1e9, i / 2, i / 4, 2, 1, false};
    }
    inv->hosts[inv->n++] = (struct hs_inv_host){hs_xstrdup("RAM0"), HS_HOST_RAM, 1, 0, -1, 0, 0, 1, false};
}

static void test_selection(void)
{
    struct hs_inventory inv;
    struct hs_select sel;
    struct hs_platform pf;
    inventory(&inv, 12, 8);
    hs_select_defaults(&sel);
    CU_ASSERT_EQUAL_FATAL(hs_platform_build(&pf, "t", &inv, &sel, fake_route, NULL), 0);
    CU_ASSERT_EQUAL(pf.nworkers, 12); /* 8 GPUs + 4 cores, each GPU driven by a core */
    CU_ASSERT_EQUAL(pf.nnodes, 9);
    CU_ASSERT_EQUAL(pf.workers[0].arch, HS_ARCH_GPU);
    CU_ASSERT_EQUAL(pf.workers[11].arch, HS_ARCH_CPU);
    CU_ASSERT_DOUBLE_EQUAL(pf.nodes[1].capacity, 0.8e9, 1e-3);
    CU_ASSERT_FALSE(hs_platform_has_route(&pf, 1, 2));
    CU_ASSERT_DOUBLE_EQUAL(hs_platform_link_time(&pf, 0, 1, 6e9), 1 + 1e-5, 1e-12);
    hs_platform_free(&pf);

    sel.gpus = 4;
    sel.gpu_order = HS_GPU_SPREAD;
    CU_ASSERT_EQUAL_FATAL(hs_platform_build(&pf, "t", &inv, &sel, fake_route, NULL), 0);
    CU_ASSERT_EQUAL(pf.nworkers, 12); /* 4 GPUs + 8 cores */
    const char *spread[] = {"GPU0", "GPU2", "GPU4", "GPU6"};
    for (int i = 0; i < 4; i++)
        CU_ASSERT_STRING_EQUAL(pf.workers[i].name, spread[i]);
    hs_platform_free(&pf);

    sel.gpus = 8;
    CU_ASSERT_EQUAL_FATAL(hs_platform_build(&pf, "t", &inv, &sel, fake_route, NULL), 0);
    const char *spread8[] = {"GPU0", "GPU2", "GPU4", "GPU6", "GPU1", "GPU3", "GPU5", "GPU7"};
    for (int i = 0; i < 8; i++)
        CU_ASSERT_STRING_EQUAL(pf.workers[i].name, spread8[i]);
    hs_platform_free(&pf);

    /* The sets of plasma-kaapi's 2013 timing script for Idgraf: k = 5 is GPUs 1-5 (switches 1
     * and 2 shared), k = 7 all but GPU6, k = 2 GPUs 1 and 4. */
    sel.gpu_order = HS_GPU_SCRIPT;
    const int script_k[] = {5, 7, 2};
    const char *script[][7] = {{"GPU1", "GPU2", "GPU3", "GPU4", "GPU5"},
                               {"GPU0", "GPU1", "GPU2", "GPU3", "GPU4", "GPU5", "GPU7"},
                               {"GPU1", "GPU4"}};
    for (int c = 0; c < 3; c++) {
        sel.gpus = script_k[c];
        CU_ASSERT_EQUAL_FATAL(hs_platform_build(&pf, "t", &inv, &sel, fake_route, NULL), 0);
        for (int i = 0; i < script_k[c]; i++)
            CU_ASSERT_STRING_EQUAL(pf.workers[i].name, script[c][i]);
        CU_ASSERT_EQUAL(pf.workers[script_k[c]].arch, HS_ARCH_CPU);
        hs_platform_free(&pf);
    }
    enum hs_gpu_order order;
    CU_ASSERT_EQUAL(hs_gpu_order_parse("script", &order), 0);
    CU_ASSERT_EQUAL(order, HS_GPU_SCRIPT);
    CU_ASSERT_STRING_EQUAL(hs_gpu_order_name(order), "script");
    CU_ASSERT_EQUAL(hs_gpu_order_parse("scripted", &order), -1);
    sel.gpu_order = HS_GPU_SPREAD;

    sel.gpus = 9;
    CU_ASSERT_EQUAL(hs_platform_build(&pf, "t", &inv, &sel, fake_route, NULL), -1);
    CU_ASSERT_STRING_EQUAL(hs_last_error(), "platform t has 8 GPUs; --gpus 9 asks for more");
    hs_platform_free(&pf);
    sel.gpus = 8;
    sel.cpus = 5;
    CU_ASSERT_EQUAL(hs_platform_build(&pf, "t", &inv, &sel, fake_route, NULL), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "do not fit"));
    hs_platform_free(&pf);
    sel.gpus = 0;
    sel.cpus = 0;
    CU_ASSERT_EQUAL(hs_platform_build(&pf, "t", &inv, &sel, fake_route, NULL), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "no worker selected"));
    hs_platform_free(&pf);
    hs_inventory_free(&inv);
    inventory(&inv, 12, 4); /* the script's sets are Idgraf's 8 GPUs */
    sel.gpus = 2;
    sel.cpus = -1;
    sel.gpu_order = HS_GPU_SCRIPT;
    CU_ASSERT_EQUAL(hs_platform_build(&pf, "t", &inv, &sel, fake_route, NULL), -1);
    CU_ASSERT_STRING_EQUAL(hs_last_error(), "platform t has 4 GPUs: --gpu-order script takes the 2013 Idgraf "
                                            "script's sets of 8 GPUs");
    hs_platform_free(&pf);
    hs_inventory_free(&inv);
}

/* The one byte formatter: powers of 1024, by hand. */
static void test_format_bytes(void)
{
    char b[32];
    hs_format_bytes(0, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "0 B");
    hs_format_bytes(1023, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "1023 B");
    hs_format_bytes(1024, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "1.00 KiB");
    hs_format_bytes(360710144, b, sizeof b); /* 344 × 2^20 */
    CU_ASSERT_STRING_EQUAL(b, "344.00 MiB");
    hs_format_bytes(1.5 * 1073741824.0, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "1.50 GiB");
    hs_format_bytes(4e9, b, sizeof b); /* --max-memory 4G */
    CU_ASSERT_STRING_EQUAL(b, "3.73 GiB");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"spec parsing and defaults", test_spec_parse_and_defaults},
        {"spec errors name the parameter", test_spec_errors},
        {"policy registry", test_policy_registry},
        {"timing table lookup and interpolation", test_perf_lookup},
        {"timing table errors", test_perf_errors},
        {"shipped timing tables", test_shipped_perf_tables},
        {"worker selection", test_selection},
        {"byte counts as people read them", test_format_bytes},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("params", tests);
}
