/* tests/platforms/test_flat.c — flat:P (platforms/flat.c) is the
 * contention-free model of the list-scheduling literature: a transfer of b
 * bytes takes lat + b/bw whatever lat is. SimGrid bounds a flow by its TCP
 * window (network/TCP-gamma: at most 4 MiB / (2 lat)) unless told otherwise;
 * hetsim turns that off, so HEFT's plan (which uses lat + b/bw) is what the
 * simulation does, for latencies of 0 to 0.25 s and edges of 1 KB to 1 GB. A
 * platform file's own <config> setting still wins. */
#include "tests/support/testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const double lats[] = {0, 1e-3, 1e-2, 0.25};
static const double sizes[] = {1e3, 1e6, 1e8, 1e9};

/* a on P0 (1 s), then b on P1 (1 s) reading bytes from a: each costs 1000 s
 * elsewhere, so the edge must cross. */
static char *chain_file(double bytes)
{
    char *path = hs_test_tmp(".json"), text[512];
    snprintf(text, sizeof text,
             "{\"tasks\": [{\"label\":\"a\",\"kernel\":\"k\",\"costs\":[1,1000]},"
             "{\"label\":\"b\",\"kernel\":\"k\",\"costs\":[1000,1]}],"
             " \"edges\": [{\"src\":0,\"dst\":1,\"bytes\":%.0f}]}", bytes);
    hs_test_write_file(path, text);
    return path;
}

static double result(const cJSON *rec, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "results"), key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* By hand: 1 s + (lat + bytes / 1 GB/s) + 1 s, planned and simulated. */
static void test_chain(void)
{
    for (size_t l = 0; l < sizeof lats / sizeof lats[0]; l++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            char *dag = chain_file(sizes[s]), args[1024];
            snprintf(args, sizeof args, "-p flat:2,bw=1G,lat=%g -w %s -s heft", lats[l], dag);
            cJSON *rec = hs_test_run_record(args);
            double expect = 2 + lats[l] + sizes[s] / 1e9;
            HS_ASSERT_NEAR_REL(result(rec, "makespan"), expect, 1e-9);
            HS_ASSERT_NEAR_REL(result(rec, "predicted_makespan"), expect, 1e-9);
            cJSON_Delete(rec);
            remove(dag);
            free(dag);
        }
}

/* Random DAGs with edges from about a kilobyte (ccr 1e-6 of ~1 s tasks) to
 * gigabytes: the plan is the execution. */
static void test_random(void)
{
    static const double ccrs[] = {1e-6, 1e-3, 1};
    for (size_t l = 0; l < sizeof lats / sizeof lats[0]; l++)
        for (size_t c = 0; c < sizeof ccrs / sizeof ccrs[0]; c++) {
            char args[512];
            snprintf(args, sizeof args, "-p flat:4,bw=1G,lat=%g -w random:v=40,p=4,ccr=%g,seed=3 -s heft",
                     lats[l], ccrs[c]);
            cJSON *rec = hs_test_run_record(args);
            HS_ASSERT_NEAR_REL(result(rec, "makespan"), result(rec, "predicted_makespan"), 1e-9);
            cJSON_Delete(rec);
        }
}

/* A file that sets network/TCP-gamma itself keeps it: with lat 0.25 s the
 * 1 GB edge then runs at 4 MiB / 0.5 s (SimGrid's bound), far from 1 GB/s. */
static void test_file_config_wins(void)
{
    char *xml = hs_test_tmp(".xml"), *dag = chain_file(1e9), args[1024];
    hs_test_write_file(xml,
        "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n <config>\n  <prop id=\"network/model\" value=\"CM02\"/>\n"
        "  <prop id=\"network/TCP-gamma\" value=\"4194304\"/>\n </config>\n"
        " <zone id=\"z\" routing=\"Full\">\n"
        "  <host id=\"RAM\" speed=\"1f\"><prop id=\"kind\" value=\"ram\"/></host>\n"
        "  <host id=\"P0\" speed=\"1Gf\"/>\n  <host id=\"P1\" speed=\"1Gf\"/>\n"
        "  <link id=\"net\" bandwidth=\"1GBps\" latency=\"0.25s\" sharing_policy=\"FATPIPE\"/>\n"
        "  <route src=\"RAM\" dst=\"P0\"><link_ctn id=\"net\"/></route>\n"
        "  <route src=\"RAM\" dst=\"P1\"><link_ctn id=\"net\"/></route>\n"
        "  <route src=\"P0\" dst=\"P1\"><link_ctn id=\"net\"/></route>\n"
        " </zone>\n</platform>\n");
    snprintf(args, sizeof args, "-p %s -w %s -s heft", xml, dag);
    cJSON *rec = hs_test_run_record(args);
    double window_bound = 4194304 / (2 * 0.25);
    HS_ASSERT_NEAR_REL(result(rec, "makespan"), 2 + 0.25 + 1e9 / window_bound, 1e-6);
    HS_ASSERT_NEAR_REL(result(rec, "predicted_makespan"), 2 + 0.25 + 1, 1e-9);
    cJSON_Delete(rec);
    remove(xml);
    remove(dag);
    free(xml);
    free(dag);
}

/* flat:P is read into a struct hs_flat (platforms/flat.c) and built in
 * SimGrid through its API: no file is written, so a run needs no writable
 * TMPDIR (a temporary hetsim-flat-*.xml was written there and parsed back);
 * a bad flat:P is one line naming the value. */
static void test_no_file(void)
{
    char *out = NULL;
    int rc = hs_test_sh(NULL, "TMPDIR=/nonexistent/hetsim-flat-test " HETSIM_BIN
                        " run -p flat:4,bw=2G,lat=1e-6 -w cholesky:n=2048,nb=512 -s dmda -q", &out);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_STRING_EQUAL(out, "");
    free(out);
    hs_test_bad_cli("run -p flat:0", "platform flat: parameter p: 0 is outside the allowed range");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"chain: lat + bytes/bw for lat 0..0.25 s, 1 KB..1 GB", test_chain},
        {"random DAGs: HEFT's plan is the simulation", test_random},
        {"a file's own TCP-gamma is kept", test_file_config_wins},
        {"no file written: a run needs no writable TMPDIR", test_no_file},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("flat", tests);
}
