/* tests/analysis/test_sweep_mpi.c — a sweep spread over MPI ranks
 * (analysis/sweep_mpi.c): `mpirun -np 2 hetsim sweep` gives the rows of a
 * serial sweep, and bad input is reported once. Skipped (and passed) when
 * hetsim was built without MPI or mpirun is not installed. */
#include "analysis/csv.h"
#include "analysis/sweep.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static bool have_mpirun(void)
{
#ifdef HETSIM_MPI
    return system("command -v mpirun >/dev/null 2>&1") == 0;
#else
    return false;
#endif
}

/* Run `mpirun … hetsim ARGS`; stderr in *err. LeakSanitizer would report
 * Open MPI's own allocations: it is off for the ranks. */
static int mpirun(const char *args, char **err)
{
    char *e = hs_test_tmp(".err"), cmd[8192];
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=detect_leaks=0 OMPI_MCA_btl_vader_single_copy_mechanism=none "
             "mpirun --allow-run-as-root --oversubscribe -x ASAN_OPTIONS -np 2 %s %s >/dev/null 2>%s </dev/null",
             HETSIM_BIN, args, e);
    int status = system(cmd);
    *err = hs_test_read_file(e);
    unlink(e);
    free(e);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static void test_two_ranks_equal_serial(void)
{
    if (!have_mpirun()) {
        printf("(skipped: hetsim built without MPI, or no mpirun) ");
        return;
    }
    char *serial = hs_test_tmp(".csv"), *ranks = hs_test_tmp(".csv"), args[2048], *err;
    const char *sweep = "sweep -q -w cholesky:n=4096,nb=1024 -s random --noise 0.1 "
                        "--vary policy=heft,dmda,random --vary gpus=1..3 --reps 2";
    snprintf(args, sizeof args, "%s -o %s", sweep, serial);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "%s -o %s", sweep, ranks);
    int rc = mpirun(args, &err);
    if (rc)
        fprintf(stderr, "\nmpirun: %s\n", err);
    CU_ASSERT_EQUAL(rc, 0);
    free(err);
    hs_test_assert_same_rows(serial, ranks, 18);
    /* resumed under MPI: nothing left */
    CU_ASSERT_EQUAL(mpirun(args, &err), 0);
    free(err);
    hs_test_assert_same_rows(serial, ranks, 18);
    free(serial), free(ranks);
}

static void test_bad_input_once(void)
{
    if (!have_mpirun())
        return;
    char *err;
    CU_ASSERT_EQUAL(mpirun("sweep --vary nosuch=1,2 -o /dev/null", &err), 2);
    const char *first = strstr(err, "hetsim: --vary nosuch: unknown key");
    CU_ASSERT_PTR_NOT_NULL(first);
    CU_ASSERT(first && !strstr(first + 1, "hetsim: --vary nosuch")); /* rank 0 only */
    free(err);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"2 MPI ranks give the rows of a serial sweep", test_two_ranks_equal_serial},
        {"bad input reported once under MPI", test_bad_input_once},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("sweep_mpi", tests);
}
