/* tests/workloads/test_estimate.c — a workload's memory is estimated before
 * its DAG is built (workloads/estimate.c): the estimate bounds what building
 * it takes (peak RSS of `hetsim dag W --stats`, measured here) without
 * overstating it more than twice, and a workload beyond the limit (the
 * machine's memory, or --max-memory) is refused at once with how much it
 * needs. The RSS comparison is skipped in the sanitizer build, whose shadow
 * memory makes every process larger. */
#define _DEFAULT_SOURCE /* wait4 */
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef HETSIM_SANITIZE
/* Peak RSS in bytes of `hetsim dag W --stats`. */
static double peak_rss(const char *workload)
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        execl(HETSIM_BIN, "hetsim", "dag", workload, "--stats", (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    CU_ASSERT_EQUAL_FATAL(wait4(pid, &status, 0, &ru), pid);
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return (double)ru.ru_maxrss * 1024;
}

static double estimate(const char *workload)
{
    struct hs_spec spec;
    CU_ASSERT_EQUAL_FATAL(hs_spec_parse(workload, &spec), 0);
    const struct hs_workload *wl = NULL;
    for (const struct hs_workload *const *w = hs_workloads(); *w; w++)
        if (strcmp((*w)->name, spec.name) == 0)
            wl = *w;
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    CU_ASSERT_EQUAL_FATAL(hs_spec_check(&spec, wl->params, "workload"), 0);
    double tasks, bytes = hs_workload_estimate(wl->name, &spec, &tasks);
    hs_spec_free(&spec);
    return bytes;
}
#endif

static void test_estimates_bound_the_build(void)
{
#ifdef HETSIM_SANITIZE
    CU_PASS("RSS not comparable under AddressSanitizer");
#else
    static const char *const workloads[] = {
        "cholesky:n=40960,nb=512", "xkcholesky:n=20480,nb=512", "gemm:n=40960,nb=512",
        "lu:n=20480,nb=512", "qr:n=20480,nb=512", "outer:n=700", "matmul:n=80",
        "random:v=200000", "random:v=20000,outdeg_max=50", "daggen:n=40000",
        "cholesky:n=16384,nb=512,pardiag=32",
    };
    for (size_t i = 0; i < sizeof workloads / sizeof workloads[0]; i++) {
        double rss = peak_rss(workloads[i]), est = estimate(workloads[i]);
        if (!(est >= rss && est <= 2 * rss))
            fprintf(stderr, "\n%s: estimate %.0f bytes, peak RSS %.0f\n", workloads[i], est, rss);
        CU_ASSERT(est >= rss);
        CU_ASSERT(est <= 2 * rss);
    }
#endif
}

/* Counts by hand: 64 tiles of Cholesky are 64·65·66/6 = 45,760 tasks. */
static void test_counts(void)
{
    struct hs_spec spec;
    CU_ASSERT_EQUAL_FATAL(hs_spec_parse("cholesky:n=32768,nb=512,pardiag=0", &spec), 0);
    double tasks;
    hs_workload_estimate("cholesky", &spec, &tasks);
    CU_ASSERT_DOUBLE_EQUAL(tasks, 45760, 0);
    hs_spec_free(&spec);
    CU_ASSERT_EQUAL_FATAL(hs_spec_parse("outer:n=300", &spec), 0);
    hs_workload_estimate("outer", &spec, &tasks);
    CU_ASSERT_DOUBLE_EQUAL(tasks, 90000, 0);
    hs_spec_free(&spec);
}

static void test_refused_before_building(void)
{
    char *err;
    /* about 11.3e9 B (10.52 GiB) for ten million tasks: refused under a 4e9 B (3.73 GiB) limit, in no time */
    CU_ASSERT_EQUAL(hs_test_cli("dag random:v=10000000 --stats --max-memory 4G", NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "building its DAG needs about 10.52 GiB of memory, more than "
                                       "the 3.73 GiB allowed"));
    free(err);
    CU_ASSERT_EQUAL(hs_test_cli("run -q -w outer:n=100000 -s eager", NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "1e+10 tasks, more than a DAG holds"));
    free(err);
    /* within the limit it runs */
    CU_ASSERT_EQUAL(hs_test_cli("dag random:v=1000 --stats --max-memory 100M", NULL, NULL), 0);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"counts by hand", test_counts},
        {"estimates bound the peak RSS of building, within 2x", test_estimates_bound_the_build},
        {"too large: refused before building", test_refused_before_building},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("estimate", tests);
}
