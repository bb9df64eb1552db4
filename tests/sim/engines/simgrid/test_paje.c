/* tests/sim/engines/simgrid/test_paje.c — the Paje trace
 * (sim/engines/simgrid/paje.c), read by PajeNG's pj_dump: one state per task
 * on its worker, as long as the record says; a <cluster> platform's trace
 * without its topology; multi-cluster platforms SimGrid cannot trace refused; no hosts and links the run did not use; ids it
 * cannot hold refused. */
#include "analysis/csv.h"
#include "analysis/plot.h"
#include "analysis/stats.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <math.h>
#include <rec.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SMALL_RUN "-p idgraf --gpus 2 --cpus 2 -w cholesky:n=2048,nb=512 -s dmda"

/* A platform of one <cluster> zone (SimGrid's shape for a cluster: node-0
 * to node-3 behind private links and a backbone), node-0 the RAM host. */
static char *cluster_platform(char **map)
{
    char *pf = hs_test_tmp(".xml");
    hs_test_write_file(pf, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                           "<platform version=\"4.1\">\n<cluster id=\"acme\" prefix=\"node-\" suffix=\"\" "
                           "radical=\"0-3\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" "
                           "bb_lat=\"500us\"/>\n</platform>\n");
    *map = hs_test_tmp(".hosts");
    hs_test_write_file(*map, "node-0 ram\nnode-* cpu\n");
    return pf;
}

/* SimGrid 3.32 aborts drawing a <cluster>'s topology in a Paje trace
 * ("container with name acme_link_0_UP not found"): the trace is written
 * without the topology's links, with a note, and holds every task. */
static void test_paje_cluster(void)
{
    char *map, *pf = cluster_platform(&map), *trace = hs_test_tmp(".trace"), *dump = hs_test_tmp(".csv");
    char args[4096], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "run -q -p %s:hosts=%s -w cholesky:n=1024,nb=256 -s eager -o /dev/null --paje %s",
             pf, map, trace);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT(err && strstr(err, "SimGrid cannot draw the topology of platform"));
    snprintf(args, sizeof args, "pj_dump %s > %s", trace, dump);
    CU_ASSERT_EQUAL_FATAL(system(args), 0);
    char *text = hs_test_read_file(dump);
    int states = 0;
    for (const char *p = text; (p = strstr(p, "State, node-")); p++)
        states++;
    CU_ASSERT_EQUAL(states, 20); /* a 4×4-tile Cholesky: 4 + 6 + 6 + 4 tasks, each a state */
    free(text), free(out), free(err);
    unlink(trace), unlink(dump), unlink(pf), unlink(map);
    free(trace), free(dump), free(pf), free(map);
}

/* SimGrid's multi-cluster examples, whose tracing crashes even without the
 * topology (griffon.xml: SIGSEGV when it seals the links; cluster_multi.xml:
 * an uncaught TracingError, exit 134): refused in one line, exit 2, before
 * the run, and no NAME.tmp-XXXXXX left beside the trace. */
static void test_paje_multi_cluster(void)
{
    const char *files[] = {"simgrid-multi/griffon.xml", "simgrid-multi/cluster_multi.xml"};
    for (int i = 0; i < 2; i++) {
        char *dir = hs_test_tmp_dir(".paje"), args[8300], *out = NULL, *err = NULL, ls[4200];
        snprintf(args, sizeof args, "run -q -p %s -w cholesky:n=2048,nb=512 -s eager --paje %s/t.paje",
                 hs_test_datafile(files[i]), dir);
        CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 2);
        CU_ASSERT_EQUAL(hs_test_count_lines(err), 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "SimGrid cannot write a Paje trace of this platform"));
        free(out), free(err);
        snprintf(ls, sizeof ls, "ls -A '%s'", dir);
        CU_ASSERT_EQUAL(hs_test_sh(NULL, ls, &out), 0);
        CU_ASSERT_STRING_EQUAL(out, ""); /* no trace, no temporary file */
        free(out);
        free(dir);
    }
}

/* Paje quotes names and has no escape: an id with a quote or a line break
 * (XML's &quot; and &#10;) is refused with --paje, and runs without it. */
static void test_paje_unsafe_id(void)
{
    char *pf = hs_test_tmp(".xml"), *trace = hs_test_tmp(".trace"), args[2048];
    hs_test_write_file(pf, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                           "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n"
                           "<host id=\"RAM\" speed=\"1f\"><prop id=\"kind\" value=\"ram\"/></host>\n"
                           "<host id=\"CPU&quot;0&#10;x\" speed=\"1Gf\"><prop id=\"kind\" value=\"cpu\"/></host>\n"
                           "<link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
                           "<route src=\"RAM\" dst=\"CPU&quot;0&#10;x\"><link_ctn id=\"l\"/></route>\n"
                           "</zone>\n</platform>\n");
    snprintf(args, sizeof args, "-p %s -w cholesky:n=512,nb=256 -s eager", pf);
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL(r);
    cJSON_Delete(r);
    snprintf(args, sizeof args, "run -q -p %s -w cholesky:n=512,nb=256 -s eager -o /dev/null --paje %s", pf, trace);
    hs_test_bad_cli(args, "host id \"CPU\"0\\x0ax\" holds a quote or a control character, which a Paje trace "
                          "cannot (--paje)");
    unlink(pf), unlink(trace);
    free(pf), free(trace);
}

static void test_paje_pj_dump(void)
{
    char *trace = hs_test_tmp(".trace"), *dump = hs_test_tmp(".csv"), args[1024];
    snprintf(args, sizeof args, SMALL_RUN " --paje %s", trace);
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    snprintf(args, sizeof args, "pj_dump %s > %s", trace, dump);
    CU_ASSERT_EQUAL(system(args), 0);
    char *text = hs_test_read_file(dump), *save = NULL;
    const cJSON *w;
    cJSON_ArrayForEach(w, cJSON_GetObjectItem(r, "workers"))
    {
        const char *name = cJSON_GetObjectItem(w, "name")->valuestring;
        double busy = 0;
        int states = 0;
        char *copy = hs_xstrdup(text);
        for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
            char host[64];
            double start, end, dur;
            if (sscanf(l, "State, %63[^,], %*[^,], %lf, %lf, %lf", host, &start, &end, &dur) == 4 &&
                strcmp(host, name) == 0) {
                busy += dur;
                states++;
            }
        }
        free(copy);
        /* one state per task; pj_dump prints microseconds */
        CU_ASSERT_EQUAL(states, hs_test_num(w, "tasks"));
        CU_ASSERT_DOUBLE_EQUAL(busy, hs_test_num(w, "busy"), 1e-6 * (states + 1));
    }
    free(text);
    cJSON_Delete(r);
    unlink(trace);
    unlink(dump);
    free(trace);
    free(dump);
}

/* Idgraf with 4 of its 8 GPUs: GPU4-7, RAM1 and every GPU-to-GPU link go;
 * what stays is a trace pj_dump reads. */
static void test_paje_without_unused_containers(void)
{
    char *trace = hs_test_tmp(".trace"), args[1024], *out;
    snprintf(args, sizeof args, "run -q -w cholesky:n=4096,nb=1024 --gpus 4 --paje %s", trace);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    char *text = hs_test_read_file(trace);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"GPU3\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"RAM0\""));
    CU_ASSERT_PTR_NULL(strstr(text, "\"GPU4\""));
    CU_ASSERT_PTR_NULL(strstr(text, "\"RAM1\""));
    CU_ASSERT_PTR_NULL(strstr(text, "\"p2p_"));
    CU_ASSERT_PTR_NULL(strstr(text, "\"gpu7_h2d\""));
    free(text);
    snprintf(args, sizeof args, "pj_dump '%s' >/dev/null", trace);
    int rc = hs_test_sh(NULL, args, &out);
    if (rc)
        fprintf(stderr, "\n%s: %s\n", args, out);
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    unlink(trace), free(trace);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"Paje trace read by pj_dump", test_paje_pj_dump},
        {"Paje trace of a <cluster> platform, without its topology", test_paje_cluster},
        {"--paje on multi-cluster platforms SimGrid cannot trace: refused, no temporary file", test_paje_multi_cluster},
        {"Paje trace refuses ids it cannot hold", test_paje_unsafe_id},
        {"Paje: no unused containers", test_paje_without_unused_containers},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("paje", tests);
}
