/* tests/sim/engines/simgrid/test_platform_flat.c — flat:P built in SimGrid
 * through its API, with no file (sim/engines/simgrid/platform_flat.c and
 * platform_flat_zone.cpp): up to 128 processors one FATPIPE link per ordered
 * pair of hosts (P = 3: 4 hosts, 4 x 3 = 12 links), past it a star zone of
 * two links per host (P = 200: 201 hosts, 402 links, no route table); each
 * route has latency lat and bandwidth bw, hosts their kind and speed; a
 * transfer of b bytes between two processors takes lat + b / bw in a run on
 * either zone (by hand: 1 s + 0.01 s + 10^8 B / 10^9 B/s + 1 s = 2.11 s);
 * bad values refused with one line before SimGrid sees them. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "sim/engines/simgrid/platform_flat.h"
#include "base/util.h"
#include "policies/registry.h"
#include "sim/engines/simgrid/platform_simgrid.h"
#include "tests/support/testing.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the child that builds a platform saw. */
struct built {
    int rc;
    size_t hosts, links;
    double lat, bw, lat_ram, bw_ram, speed1;
    char links_p[256], links_ram[256], kind_ram[16], kind_p[16];
};

/* Build flat in a child (SimGrid holds one platform per process) and look
 * at the route from processor a to processor b and from RAM to b. */
static struct built build_in_child(const struct hs_flat *flat, int a, int b)
{
    struct built *shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CU_ASSERT_FATAL(shared != MAP_FAILED);
    memset(shared, 0, sizeof *shared);
    shared->rc = -2;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        hs_sg_init(false, NULL, 0, NULL);
        shared->rc = hs_sg_flat_build(flat);
        char pa[16], pb[16];
        snprintf(pa, sizeof pa, "P%d", a);
        snprintf(pb, sizeof pb, "P%d", b);
        shared->hosts = sg_host_count();
        shared->links = sg_link_count();
        hs_sg_route(NULL, pa, pb, &shared->lat, &shared->bw);
        hs_sg_route(NULL, "RAM", pb, &shared->lat_ram, &shared->bw_ram);
        hs_sg_route_links(pa, pb, shared->links_p, sizeof shared->links_p);
        hs_sg_route_links("RAM", pb, shared->links_ram, sizeof shared->links_ram);
        snprintf(shared->kind_ram, sizeof shared->kind_ram, "%s",
                 sg_host_get_property_value(sg_host_by_name("RAM"), "kind"));
        snprintf(shared->kind_p, sizeof shared->kind_p, "%s", sg_host_get_property_value(sg_host_by_name(pb), "kind"));
        shared->speed1 = sg_host_get_speed(sg_host_by_name("P1"));
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct built out = *shared;
    munmap(shared, sizeof *shared);
    return out;
}

static void test_pair_zone(void)
{
    double speeds[] = {1e9, 2e9, 3e9};
    struct hs_flat flat = {.p = 3, .speeds = speeds, .bw = 2e9, .lat = 1e-6};
    struct built b = build_in_child(&flat, 0, 2);
    CU_ASSERT_EQUAL(b.rc, 0);
    CU_ASSERT_EQUAL(b.hosts, 4);
    CU_ASSERT_EQUAL(b.links, 12 + 1); /* and SimGrid's own __loopback__ */
    CU_ASSERT_EQUAL(b.lat, 1e-6);
    CU_ASSERT_EQUAL(b.bw, 2e9);
    CU_ASSERT_EQUAL(b.lat_ram, 1e-6);
    CU_ASSERT_EQUAL(b.bw_ram, 2e9);
    CU_ASSERT_STRING_EQUAL(b.links_p, "net-P0-P2");
    CU_ASSERT_STRING_EQUAL(b.links_ram, "net-RAM-P2");
    CU_ASSERT_STRING_EQUAL(b.kind_ram, "ram");
    CU_ASSERT_STRING_EQUAL(b.kind_p, "proc");
    CU_ASSERT_EQUAL(b.speed1, 2e9);
}

static void test_star_zone(void)
{
    struct hs_flat flat = {.p = 200, .speed = 5e9, .bw = 2e9, .lat = 1e-6};
    struct built b = build_in_child(&flat, 3, 150);
    CU_ASSERT_EQUAL(b.rc, 0);
    CU_ASSERT_EQUAL(b.hosts, 201);
    CU_ASSERT_EQUAL(b.links, 402 + 1);
    CU_ASSERT_EQUAL(b.lat, 1e-6); /* the link out's lat + the link in's 0 */
    CU_ASSERT_EQUAL(b.bw, 2e9);
    CU_ASSERT_EQUAL(b.lat_ram, 1e-6);
    CU_ASSERT_EQUAL(b.bw_ram, 2e9);
    CU_ASSERT_STRING_EQUAL(b.links_p, "P3-out,P150-in");
    CU_ASSERT_STRING_EQUAL(b.links_ram, "RAM-out,P150-in");
    CU_ASSERT_STRING_EQUAL(b.kind_ram, "ram");
    CU_ASSERT_STRING_EQUAL(b.kind_p, "proc");
    CU_ASSERT_EQUAL(b.speed1, 5e9);
}

/* a (1 s, P0 only) writes 10^8 B that b (1 s, on the last processor only)
 * reads: 1 + 0.01 + 0.1 + 1 = 2.11 s on 1 GB/s with lat 0.01 s. */
static void test_transfer_time(void)
{
    static const int sizes[] = {3, 200};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        int p = sizes[i];
        double *ca = hs_xcalloc((size_t)p, sizeof *ca), *cb = hs_xcalloc((size_t)p, sizeof *cb);
        for (int w = 0; w < p; w++)
            ca[w] = cb[w] = -1;
        ca[0] = cb[p - 1] = 1;
        struct hs_dag *dag = hs_dag_new("chain");
        int h = hs_dag_add_handle(dag, "h", 1e8);
        int a = hs_test_task(dag, "a", ca, p), b = hs_test_task(dag, "b", cb, p);
        hs_dag_access(dag, a, h, HS_MODE_W);
        hs_dag_access(dag, b, h, HS_MODE_R);
        hs_dag_finalize(dag);
        struct hs_flat flat = {.p = p, .speed = 1e9, .bw = 1e9, .lat = 0.01};
        struct hs_run_config cfg;
        hs_run_config_defaults(&cfg);
        cfg.flat = &flat;
        cfg.platform_name = "flat";
        cfg.opts.flush = false;
        hs_test_no_costs(&cfg);
        cJSON *r = hs_test_simulate(&cfg, dag, hs_policy_find("eager"), "");
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_DOUBLE_EQUAL(hs_test_num(r, "makespan"), 2.11, 1e-12);
        cJSON_Delete(r);
        hs_dag_free(dag);
        free(ca);
        free(cb);
    }
}

static void test_refused(void)
{
    double bad[] = {1e9, 0};
    static const struct {
        struct hs_flat flat;
        const char *expect;
    } cases[] = {
        {{.p = 0, .speed = 1, .bw = 1}, "needs at least one processor (got 0)"},
        {{.p = 2, .speed = 1, .bw = 0}, "needs bw > 0 and a finite lat >= 0"},
        {{.p = 2, .speed = 1, .bw = 1, .lat = -1}, "needs bw > 0 and a finite lat >= 0"},
        {{.p = 2, .speed = 1, .bw = 1, .lat = INFINITY}, "needs bw > 0 and a finite lat >= 0"},
        {{.p = 2, .speed = NAN, .bw = 1}, "speed of processor 0 must be positive and finite"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) { /* refused before SimGrid: safe here */
        CU_ASSERT_EQUAL(hs_sg_flat_build(&cases[i].flat), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), cases[i].expect));
    }
    struct hs_flat flat = {.p = 2, .speeds = bad, .bw = 1};
    CU_ASSERT_EQUAL(hs_sg_flat_build(&flat), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "speed of processor 1 must be positive and finite (got 0)"));
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"flat:3: a link per ordered pair of hosts", test_pair_zone},
        {"flat:200: a star zone, two links per host", test_star_zone},
        {"a transfer takes lat + bytes / bw on either zone", test_transfer_time},
        {"bad values refused before SimGrid", test_refused},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("platform_flat", tests);
}
