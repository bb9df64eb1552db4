/* tests/sim/engines/simgrid/test_platform_simgrid.c — platform files loaded
 * through SimGrid (sim/engines/simgrid/platform_simgrid.c), as SimGrid, WRENCH
 * and StarPU users write them: SimGrid's complaints about bad files as the
 * installed SimGrid words them; version-3 files refused (StarPU's
 * HOST.platform.xml in one line naming the .v4.xml beside it); StarPU 1.3's
 * CPU-only HOST.platform.v4.xml runs as written (its unused "Host" link of
 * 0 B/s kept) while a link of 0 B/s on a route of the run is refused with its
 * id; StarPU's Idgraf and sirocco files and SimGrid's example platform with a
 * host map as they are; hosts without hetsim's kind are CPU hosts (with one
 * note line), host memory takes no compute host, core="N" gives N CPU
 * workers, and SimGrid's 65,536-host cluster loads, as CPU hosts and as
 * 65,535 processors (routes asked: 2 per processor and 64, not 4.3 billion),
 * where an eager run gives its record; a route SimGrid aborts on during a
 * run is one line naming both hosts, exit 2. Expected values are
 * computed by hand from the files (tests/data/README.md gives where each
 * comes from). */
#include "base/util.h"
#include "sim/engines/simgrid/platform_simgrid.h"
#include "tests/support/testing.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <rec.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_old_platform(void)
{
    char *pf = hs_test_tmp(".xml"), args[1024];
    hs_test_write_file(pf, "<?xml version='1.0'?>\n<platform version=\"3\">\n<AS id=\"AS0\" "
                           "routing=\"Full\">\n<host id=\"CPU0\" power=\"1\"/>\n</AS>\n</platform>\n");
    snprintf(args, sizeof args, "platform %s", pf);
    hs_test_bad_cli(args, "SimGrid platform version 3 (StarPU's older format); use the .v4.xml file "
                          "StarPU writes beside it");
    free(pf);
}

/* SimGrid's complaints, as the installed SimGrid words them, reach the user
 * (platform_simgrid.c recognises them by their text): a bad number, bad XML,
 * an invalid model in <config> (xbt_die), a route to a link that does not
 * exist (an exception). Never the fallback "SimGrid could not load it". */
static void test_simgrid_wording(void)
{
    static const struct {
        const char *body, *expect;
    } cases[] = {
        {"<host id=\"RAM\" speed=\"1f\"/>\n<host id=\"CPU0\" speed=\"abc\"/>", ":6: cannot parse number:abc"},
        {"<host id=\"RAM\" speed=\"1f\"/>\n<hots id=\"CPU0\" speed=\"1Gf\"/>", ":6: Invalid XML"},
        {"<host id=\"RAM\" speed=\"1f\"/>\n<host id=\"CPU0\" speed=\"1Gf\"/>\n<route src=\"RAM\" dst=\"CPU0\">"
         "<link_ctn id=\"nowhere\"/></route>", "Link not found: nowhere"},
        {NULL, "Model 'Banana' is invalid!"},
    };
    char *pf = hs_test_tmp(".xml"), args[1024], text[2048];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(text, sizeof text, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                 "<platform version=\"4.1\">\n%s<zone id=\"z\" routing=\"Full\">\n%s\n</zone>\n</platform>\n",
                 cases[i].body ? "" : "<config><prop id=\"network/model\" value=\"Banana\"/></config>\n",
                 cases[i].body ? cases[i].body : "<host id=\"RAM\" speed=\"1f\"/>");
        hs_test_write_file(pf, text);
        snprintf(args, sizeof args, "platform %s", pf);
        hs_test_bad_cli(args, cases[i].expect);
    }
    unlink(pf);
    free(pf);
}

static void test_starpu_platforms(void)
{
    char args[1024], *out;
    snprintf(args, sizeof args, "platform %s", hs_test_datafile("starpu-idgraf.platform.v4.xml"));
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "offers 12 cores, 8 GPUs"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "memory 2817982464 B"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "note: host DISK0 is ignored: disks are not modelled"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "note: host MAIN is ignored"));
    free(out);
    snprintf(args, sizeof args, "platform %s", hs_test_datafile("starpu-sirocco.platform.v4.xml"));
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "offers 24 cores, 4 GPUs"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "note: host OpenCL3 is ignored: StarPU's OpenCL view"));
    free(out);
    /* StarPU's own Idgraf file against hetsim's model of it with StarPU's
     * shared Host link (idgraf-starpu): the same machine, within 2%. dmda's
     * bus=gpus would weigh the files' small bandwidth differences 16 times
     * and tip its choices; the platforms, not the policy, are compared here */
    const char *run = "--perf idgraf -w cholesky:n=8192,nb=512 -s dmda:bus=plain";
    snprintf(args, sizeof args, "-p %s %s", hs_test_datafile("starpu-idgraf.platform.v4.xml"), run);
    cJSON *a = hs_test_run_record(args);
    snprintf(args, sizeof args, "-p idgraf-starpu %s", run);
    cJSON *b = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_makespan(a), hs_test_makespan(b), 0.02 * hs_test_makespan(b));
    cJSON_Delete(a);
    cJSON_Delete(b);
    snprintf(args, sizeof args, "-p %s --perf idgraf -w cholesky:n=4096,nb=512 -s dmda",
             hs_test_datafile("starpu-sirocco.platform.v4.xml"));
    a = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL(hs_test_num(cJSON_GetObjectItem(a, "inputs"), "gpus"), 4);
    cJSON_Delete(a);
}

static void test_simgrid_platform(void)
{
    char args[2048], *out;
    snprintf(args, sizeof args, "platform %s:hosts=%s", hs_test_datafile("simgrid-small_platform.xml"),
             hs_test_datafile("simgrid-small_platform.hosts"));
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "offers 0 cores, 0 GPUs, 6 flat processors"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "host endpoint Tremblay"));
    free(out);
    snprintf(args, sizeof args, "-p %s:hosts=%s -w %s -s heft", hs_test_datafile("simgrid-small_platform.xml"),
             hs_test_datafile("simgrid-small_platform.hosts"), hs_test_datafile("simgrid-dag-simple.dot"));
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(hs_test_num(cJSON_GetObjectItem(r, "results"), "tasks"), 5);
    /* c2's 5 Gflop at 137.3 Mflop/s, the fastest host, is a lower bound */
    CU_ASSERT(hs_test_makespan(r) >= 5e9 / 137.333e6);
    cJSON_Delete(r);
}

/* StarPU 1.3's CPU-only file (2 cores, no GPU): Cholesky 2048 in 512-tiles
 * is 4 x 4 tiles, 4 POTRF + 6 TRSM + 6 SYRK + 4 GEMM = 20 tasks, on the two
 * CPU hosts StarPU names (CPU0, CPU1); no transfer (no GPU). */
static void test_cpu_only_v4_runs(void)
{
    char args[1024];
    snprintf(args, sizeof args, "-p %s -w cholesky:n=2048,nb=512 -s eager",
             hs_test_datafile("starpu/vm.platform.v4.xml"));
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const cJSON *in = cJSON_GetObjectItem(r, "inputs"), *res = cJSON_GetObjectItem(r, "results");
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(in, "cpus")->valueint, 2);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(in, "gpus")->valueint, 0);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(res, "tasks")->valueint, 20);
    CU_ASSERT(cJSON_GetObjectItem(res, "makespan")->valuedouble > 0);
    cJSON_Delete(r);
}

/* The version-3 file beside it: one line naming the .v4.xml file, which is
 * there; a copy alone in a folder: the same line says it is not there. */
static void test_v3_points_to_v4(void)
{
    char args[2048], want[1024], *err;
    const char *v3 = hs_test_datafile("starpu/vm.platform.xml");
    snprintf(args, sizeof args, "run -q -p %s -w cholesky:n=2048,nb=512 -s eager", v3);
    snprintf(want, sizeof want, "%s: SimGrid platform version 3 (StarPU's older format); use the .v4.xml "
             "file StarPU writes beside it: %s (it is there)", v3, hs_test_datafile("starpu/vm.platform.v4.xml"));
    hs_test_bad_cli(args, want);
    char *dir = hs_test_tmp_dir(""), copy[1024];
    snprintf(copy, sizeof copy, "%s/vm.platform.xml", dir);
    char *text = hs_test_read_file(v3);
    hs_test_write_file(copy, text);
    snprintf(args, sizeof args, "platform %s", copy);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 2);
    snprintf(want, sizeof want, "beside it: %s/vm.platform.v4.xml (not there: ", dir);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
    free(err);
    free(text);
    unlink(copy);
    rmdir(dir);
    free(dir);
}

/* tests/data/bad/link-zero-bandwidth.xml: RAM0 -> GPU0 crosses the link
 * "pcie" of 0 B/s, and a link "unused" of 0 B/s is on no route. With the GPU
 * the run uses that route: refused, naming the link; without it (--gpus 0)
 * no route is used and the file runs. */
static void test_zero_link_only_where_used(void)
{
    char args[1024];
    const char *pf = hs_test_datafile("bad/link-zero-bandwidth.xml");
    snprintf(args, sizeof args, "run -q -p %s -w cholesky:n=1024,nb=512", pf);
    hs_test_bad_cli(args, "link pcie has bandwidth 0 B/s and the route from RAM0 to GPU0");
    snprintf(args, sizeof args, "-p %s --gpus 0 -w cholesky:n=1024,nb=512", pf);
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL(r);
    cJSON_Delete(r);
}

/* SimGrid's small_platform (7 hosts, none named or marked): 7 CPU workers,
 * host memory at the first host by name (Boivin), and one note. */
static void test_default_cpu_hosts(void)
{
    char *out = NULL, *err = NULL;
    int rc = hs_test_cli("platform " HETSIM_SOURCE_DIR "/tests/data/simgrid-small_platform.xml", &out, &err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "offers 7 cores, 0 GPUs"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "0   host     host endpoint Boivin"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "6   Tremblay cpu"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "7 of its 7 hosts have no kind"));
    free(out);
    free(err);
    /* a host named RAM* is still host memory, and the others CPU hosts */
    char *pf = hs_test_platform_file("<host id=\"RAM\" speed=\"1f\"/><host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>"
                        "<link id=\"l\" bandwidth=\"1GBps\" latency=\"0\"/>");
    char args[4096];
    snprintf(args, sizeof args, "platform %s", pf);
    rc = hs_test_cli(args, &out, &err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "offers 2 cores"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "endpoint RAM"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "2 of its 3 hosts have no kind"));
    free(out);
    free(err);
    /* -q: no note */
    char *dag = hs_test_independent_tasks(1, 1e9);
    snprintf(args, sizeof args, "run -q -p %s -w json:file=%s -s eager", pf, dag);
    rc = hs_test_cli(args, &out, &err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NULL(strstr(err, "note:"));
    free(out);
    free(err);
    free(dag);
    free(pf);
}

/* The makespan of eager running the DAG file on the platform file, and the
 * number of workers of the run. */
static double makespan_on(const char *pf, const char *dag, int *nworkers)
{
    char args[4096];
    snprintf(args, sizeof args, "-p %s -w json:file=%s -s eager", pf, dag);
    cJSON *rec = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    double makespan = cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "results"), "makespan")->valuedouble;
    *nworkers = cJSON_GetArraySize(cJSON_GetObjectItem(rec, "workers"));
    cJSON_Delete(rec);
    return makespan;
}

/* core="4" at 1 Gflop/s: 4 workers; 4 independent tasks of 2 Gflop run
 * side by side in 2 s, 8 tasks in two rounds, 4 s (no runtime costs, no
 * data). The same host without core= is one worker: 4 tasks take 8 s. */
static void test_cores(void)
{
    char *pf4 = hs_test_platform_file("<host id=\"node\" speed=\"1Gf\" core=\"4\"/>");
    char *pf1 = hs_test_platform_file("<host id=\"node\" speed=\"1Gf\"/>");
    char *four = hs_test_independent_tasks(4, 2e9), *eight = hs_test_independent_tasks(8, 2e9);
    int nworkers = 0;
    CU_ASSERT_DOUBLE_EQUAL(makespan_on(pf4, four, &nworkers), 2.0, 1e-9);
    CU_ASSERT_EQUAL(nworkers, 4);
    CU_ASSERT_DOUBLE_EQUAL(makespan_on(pf4, eight, &nworkers), 4.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(makespan_on(pf1, four, &nworkers), 8.0, 1e-9);
    CU_ASSERT_EQUAL(nworkers, 1);
    char *out = NULL, *err = NULL, args[4096];
    snprintf(args, sizeof args, "platform %s", pf4);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "3   node#3   cpu"));
    free(out);
    free(err);
    free(pf4);
    free(pf1);
    free(four);
    free(eight);
}

/* SimGrid 3.32's examples/platforms/cluster_crossbar.xml: radical="0-65535",
 * so 65,536 CPU workers, and no route asked for (the hosts compute in host
 * memory, at the first host). */
static void test_crossbar(void)
{
    char *out = NULL, *err = NULL;
    int rc = hs_test_cli("platform " HETSIM_SOURCE_DIR "/tests/data/simgrid-cluster_crossbar.xml", &out, &err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "offers 65536 cores, 0 GPUs"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  65535 node-65535.simgrid.org cpu")); /* natural order */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "endpoint node-0.simgrid.org"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "65536 of its 65536 hosts have no kind"));
    free(out);
    free(err);
}

/* The same cluster with tests/data/simgrid-cluster_crossbar.hosts: node-0
 * is host memory, the 65,535 other hosts processors. The check asks 2 routes
 * per processor (to and from node-0) and 32 pairs both ways; building asks
 * the 2 per processor again; a Cholesky of 8 x 8 tiles (120 tasks) runs. */
#define CROSSBAR_PROCS HETSIM_SOURCE_DIR "/tests/data/simgrid-cluster_crossbar.xml:hosts=" \
    HETSIM_SOURCE_DIR "/tests/data/simgrid-cluster_crossbar.hosts"
static void test_crossbar_procs(void)
{
    struct hs_sg_check chk;
    CU_ASSERT_EQUAL_FATAL(hs_sg_check_platform_child(hs_test_datafile("simgrid-cluster_crossbar.xml"),
                                                     hs_test_datafile("simgrid-cluster_crossbar.hosts"), &chk), 0);
    CU_ASSERT_EQUAL(chk.nprocs, 65535);
    CU_ASSERT_EQUAL(chk.routes_asked, 2L * 65535 + 2 * HS_SG_PROC_SAMPLE);
    char *out = NULL, *err = NULL;
    int rc = hs_test_cli("platform " CROSSBAR_PROCS, &out, &err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "offers 0 cores, 0 GPUs, 65535 flat processors"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  65535 node-65535.simgrid.org proc endpoint node-65535.simgrid.org"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "... and those of the 65471 other nodes"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  131070 routes asked (to and from host memory); the 4294770690 between the "
                                       "65535 processors are asked by a run when it first needs one"));
    free(out);
    free(err);
    cJSON *r = hs_test_run_record("-p " CROSSBAR_PROCS " -w cholesky:n=4096,nb=512 -s eager");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const cJSON *res = cJSON_GetObjectItem(r, "results");
    CU_ASSERT_EQUAL(hs_test_num(res, "tasks"), 120); /* 8 + 28 + 28 + 56 */
    CU_ASSERT(hs_test_num(res, "makespan") > 0);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(r, "workers")), 65535);
    cJSON_Delete(r);
}

/* Routes SimGrid completes when it seals the platform are asked after it
 * (issue 54): g5k.xml (SimGrid's Grid'5000 file, a Floyd zone over the
 * sites) with a host map of bordeplage-1 (host memory), bordeplage-2 and
 * adonis-1 (processors) across Bordeaux and Grenoble: the route to adonis-1
 * crosses 10 links (the two cluster links and backbones, the two gateways'
 * and sites' links, Bordeaux_Lyon and Lyon_Grenoble) with 1 ms of latency
 * in all (0.1 ms per link and backbone, 0.1 ms per site link, by hand from
 * the file), and a run gets its tasks done; and nine processors in a Floyd
 * zone whose P0-P2 pair has no <route> of its own, which SimGrid routes
 * through another host once sealed. Both were refused as missing routes. */
static void test_routes_after_seal(void)
{
    char args[4096], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "platform %s:hosts=%s", hs_test_datafile("simgrid-multi/g5k.xml"),
             hs_test_datafile("simgrid-multi/g5k-two-sites.hosts"));
    int rc = hs_test_cli(args, &out, &err);
    if (rc)
        fprintf(stderr, "\n%s -> %d: %s", args, rc, err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "host     -> adonis-1.grenoble.grid5000.fr     125.00 MB/s  1000.000 us  "
                                       "[AS_bordeplage_link_1_UP,AS_bordeplage_backbone,link_bordeplage,link_gw_"
                                       "bordeaux,Bordeaux_Lyon,Lyon_Grenoble,link_gw_grenoble,link_adonis,AS_adonis_"
                                       "backbone,AS_adonis_link_1_DOWN]"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "-p %s:hosts=%s -w cholesky:n=2048,nb=512 -s dmda",
             hs_test_datafile("simgrid-multi/g5k.xml"), hs_test_datafile("simgrid-multi/g5k-two-sites.hosts"));
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(hs_test_num(cJSON_GetObjectItem(r, "results"), "tasks"), 20);
    cJSON_Delete(r);
    snprintf(args, sizeof args, "platform %s", hs_test_datafile("floyd-unsampled-pair.xml"));
    rc = hs_test_cli(args, &out, &err);
    if (rc)
        fprintf(stderr, "\n%s -> %d: %s", args, rc, err);
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    free(err);
}

/* Floyd's routing aborts on a pair without a route ("No route from") before
 * the platform is sealed, as a run with --paje loads it (hs_sg_load with
 * paje): asked during a run (after hs_sg_route_run), one line naming both
 * hosts, exit 2, no SimGrid backtrace. */
static void test_missing_route_during_run(void)
{
    char *pf = hs_test_tmp(".xml"), *log = hs_test_tmp(".log");
    hs_test_write_file(pf, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                           "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Floyd\">\n"
                           "<host id=\"RAM0\" speed=\"1f\"/>\n"
                           "<host id=\"P0\" speed=\"1Gf\"/>\n<host id=\"P1\" speed=\"1Gf\"/>\n"
                           "<link id=\"l0\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
                           "<link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
                           "<route src=\"RAM0\" dst=\"P0\"><link_ctn id=\"l0\"/></route>\n"
                           "<route src=\"RAM0\" dst=\"P1\"><link_ctn id=\"l1\"/></route>\n"
                           "</zone>\n</platform>\n");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *f = freopen(log, "w", stderr);
        (void)f;
        hs_sg_init(false, NULL, 0, NULL);
        hs_sg_load(pf, true); /* as with --paje: not sealed */
        static struct hs_sg_zero_link ctx;
        double lat, bw;
        bool there = hs_sg_route(&ctx, "RAM0", "P0", &lat, &bw); /* while building: as SimGrid answers */
        hs_sg_route_run(&ctx, "floyd");
        hs_sg_route(&ctx, "P0", "P1", &lat, &bw);
        _exit(there ? 0 : 5); /* not reached: the route aborts */
    }
    int status = 0;
    CU_ASSERT_EQUAL_FATAL(waitpid(pid, &status, 0), pid);
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 2);
    char *text = hs_test_read_file(log);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(hs_test_count_lines(text), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "hetsim: platform floyd: no route from P0 to P1: SimGrid cannot look it up"));
    CU_ASSERT_PTR_NULL(strstr(text, "acktrace"));
    free(text);
    unlink(pf);
    unlink(log);
    free(pf);
    free(log);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"SimGrid's complaints as the installed SimGrid words them", test_simgrid_wording},
        {"version-3 platform files", test_old_platform},
        {"StarPU's Idgraf and sirocco platforms", test_starpu_platforms},
        {"SimGrid's small_platform with a host map", test_simgrid_platform},
        {"StarPU 1.3's CPU-only platform.v4.xml runs as written", test_cpu_only_v4_runs},
        {"StarPU's version-3 platform.xml: one line naming the .v4.xml", test_v3_points_to_v4},
        {"a link of 0 B/s is refused only on a route the run uses", test_zero_link_only_where_used},
        {"hosts without a kind are CPU hosts", test_default_cpu_hosts},
        {"core=N gives N workers", test_cores},
        {"SimGrid's 65,536-host crossbar cluster", test_crossbar},
        {"the crossbar cluster as 65,535 processors", test_crossbar_procs},
        {"a route SimGrid aborts on during a run (not sealed, as with --paje)", test_missing_route_during_run},
        {"routes SimGrid completes when sealing: g5k.xml across two sites, a Floyd pair", test_routes_after_seal},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("platform_simgrid", tests);
}
