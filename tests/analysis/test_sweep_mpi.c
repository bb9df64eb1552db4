/* tests/analysis/test_sweep_mpi.c — work spread over MPI ranks
 * (analysis/sweep_mpi.c): a sweep over 2 ranks (`mpirun -np 2 hetsim sweep`)
 * gives the rows of a serial sweep, the ledger over 2 ranks (`mpirun -np 2
 * hetsim reproduce --ledger`) the table and rows of one process, and bad
 * input is reported once. Skipped (and passed) when hetsim was built without
 * MPI or mpirun is not installed. */
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

/* Run `mpirun … hetsim ARGS`; stdout in *out (unless out is NULL), stderr
 * in *err. LeakSanitizer would report Open MPI's own allocations: it is off
 * for the ranks. */
static int mpirun(const char *args, char **out, char **err)
{
    char *o = hs_test_tmp(".out"), *e = hs_test_tmp(".err"), cmd[8192];
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=detect_leaks=0 OMPI_MCA_btl_vader_single_copy_mechanism=none "
             "mpirun --allow-run-as-root --oversubscribe -x ASAN_OPTIONS -np 2 %s %s >%s 2>%s </dev/null",
             HETSIM_BIN, args, o, e);
    int status = system(cmd);
    if (out)
        *out = hs_test_read_file(o);
    *err = hs_test_read_file(e);
    unlink(o), unlink(e);
    free(o), free(e);
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
    int rc = mpirun(args, NULL, &err);
    if (rc)
        fprintf(stderr, "\nmpirun: %s\n", err);
    CU_ASSERT_EQUAL(rc, 0);
    free(err);
    hs_test_assert_same_rows(serial, ranks, 18);
    /* resumed under MPI: nothing left */
    CU_ASSERT_EQUAL(mpirun(args, NULL, &err), 0);
    free(err);
    hs_test_assert_same_rows(serial, ranks, 18);
    free(serial), free(ranks);
}

/* The path of a study's results.csv under dir (path: 2048 bytes). */
static const char *study_csv(char *path, const char *dir, const char *study)
{
    snprintf(path, 2048, "%s/%s/results.csv", dir, study);
    return path;
}

/* The ledger over 2 ranks, on two shipped studies that share runs
 * (convex-idgraf and convex-idgraf-maxsize): each rank runs its share of
 * both (into DIR/mpi-R-of-2, as --shard R/2 would) and rank 0 joins them:
 * the table of one process, and each study's rows (sorted, without the
 * wall-clock columns) those of one process, every run in one share only. */
static void test_ledger_two_ranks(void)
{
    if (!have_mpirun())
        return;
    static const char *const studies[] = {"convex-idgraf", "convex-idgraf-maxsize"};
    const char *ledger = "reproduce --ledger -q --only convex-idgraf,convex-idgraf-maxsize";
    char *dir = hs_test_tmp("-mpiledger"), args[2048], *one = NULL, *ranks = NULL, *err = NULL, sub[2][1024];
    snprintf(args, sizeof args, "%s -j 2 -o %s/one", ledger, dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &one, NULL), 0);
    snprintf(args, sizeof args, "%s -o %s/mpi", ledger, dir);
    int rc = mpirun(args, &ranks, &err);
    if (rc)
        fprintf(stderr, "\nmpirun: %s\n", err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT(one && strstr(one, " claims: "));
    CU_ASSERT_STRING_EQUAL(ranks, one);
    for (int s = 0; s < 2; s++) {
        char a[2048], b[2048], share[2048];
        long shares[2];
        snprintf(sub[0], sizeof sub[0], "%s/one", dir);
        snprintf(sub[1], sizeof sub[1], "%s/mpi", dir);
        long na = hs_test_lines_of(study_csv(a, sub[0], studies[s])) - 1;
        CU_ASSERT(na > 0);
        hs_test_assert_same_rows(a, study_csv(b, sub[1], studies[s]), na);
        for (int r = 0; r < 2; r++) {
            snprintf(sub[r], sizeof sub[r], "%s/mpi/mpi-%d-of-2", dir, r);
            shares[r] = hs_test_lines_of(study_csv(share, sub[r], studies[s])) - 1;
        }
        CU_ASSERT_EQUAL(shares[0] + shares[1], na); /* no run in both shares */
        CU_ASSERT(shares[0] > 0 && shares[1] > 0);
    }
    free(one), free(ranks), free(err), free(dir);
}

/* `mpirun -np 2 hetsim reproduce STUDY`: the ranks share the study's sweep
 * (its 6 runs once each) and rank 0 alone reports: one table, one line per
 * plot. */
static void test_reproduce_two_ranks(void)
{
    if (!have_mpirun()) {
        printf("(skipped: hetsim built without MPI, or no mpirun) ");
        return;
    }
    char *dir = hs_test_tmp(""), args[2048], *out, *err;
    snprintf(args, sizeof args, "reproduce cholesky-idgraf-gpus --quick -o %s", dir);
    int rc = mpirun(args, &out, &err);
    if (rc)
        fprintf(stderr, "\nmpirun: %s\n", err);
    CU_ASSERT_EQUAL(rc, 0);
    const char *once[] = {"published values beside ours", "plot: ", "not checked (quick run"};
    for (int i = 0; i < 3; i++) {
        const char *first = strstr(out, once[i]);
        CU_ASSERT_PTR_NOT_NULL(first);
        if (i != 1)
            CU_ASSERT_PTR_NULL(first ? strstr(first + 1, once[i]) : NULL);
    }
    char path[2048];
    snprintf(path, sizeof path, "%s/gflops.png", dir);
    int plots = 0;
    for (const char *p = strstr(out, path); p; p = strstr(p + 1, path))
        plots++;
    CU_ASSERT_EQUAL(plots, 1);
    free(out), free(err), free(dir);
}

static void test_bad_input_once(void)
{
    if (!have_mpirun())
        return;
    char *err;
    CU_ASSERT_EQUAL(mpirun("sweep --vary nosuch=1,2 -o /dev/null", NULL, &err), 2);
    const char *first = strstr(err, "hetsim: --vary nosuch: unknown key");
    CU_ASSERT_PTR_NOT_NULL(first);
    CU_ASSERT(first && !strstr(first + 1, "hetsim: --vary nosuch")); /* rank 0 only */
    free(err);
    /* the ledger's ranks take their shares themselves */
    CU_ASSERT_EQUAL(mpirun("reproduce --ledger --shard 0/2 -o /dev/null", NULL, &err), 2);
    first = strstr(err, "hetsim: reproduce --ledger: --shard and --merge are not for mpirun");
    CU_ASSERT_PTR_NOT_NULL(first);
    CU_ASSERT(first && !strstr(first + 1, "hetsim: reproduce")); /* rank 0 only */
    free(err);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"2 MPI ranks give the rows of a serial sweep", test_two_ranks_equal_serial},
        {"the ledger over 2 MPI ranks gives the table and rows of one process", test_ledger_two_ranks},
        {"bad input reported once under MPI", test_bad_input_once},
        {"reproduce under 2 MPI ranks: the sweep shared, one report", test_reproduce_two_ranks},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("sweep_mpi", tests);
}
