/* tests/cli/test_cmd_sweep.c — `hetsim sweep` (cli/cmd_sweep.c) end to end:
 * one row per run with stable keys, seeds shared by the runs of one instance
 * and reproducible with `hetsim run --seed`, -j 2 equal to -j 1, resume
 * after a killed sweep (nothing lost, nothing twice, an interrupted last
 * line dropped), failed, timed-out and killed runs recorded while the sweep
 * goes on, and one clear line with exit code 2 for every kind of bad input. */
#define _DEFAULT_SOURCE /* kill, nanosleep */
#include "analysis/csv.h"
#include "analysis/sweep.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SMALL "-w cholesky:n=4096,nb=1024"

static const char *cell(const struct hs_csv *csv, long row, const char *col)
{
    int c = hs_csv_col(csv, col);
    return c >= 0 && row < csv->nrows ? csv->rows[row][c] : "";
}

static void test_rows_keys_seeds(void)
{
    char *a = hs_test_tmp(".csv"), *b = hs_test_tmp(".csv");
    const char *args = SMALL " --vary policy=heft,dmda --vary gpus=1,2 --reps 2";
    char cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "%s -j 2", args);
    CU_ASSERT_EQUAL_FATAL(hs_test_sweep(cmd, a, NULL), 0);
    snprintf(cmd, sizeof cmd, "%s -j 1", args);
    CU_ASSERT_EQUAL_FATAL(hs_test_sweep(cmd, b, NULL), 0);
    hs_test_assert_same_rows(a, b, 8); /* -j 2 = -j 1 */
    struct hs_csv csv = hs_test_load_csv(a);
    for (long i = 0; i < csv.nrows; i++) {
        CU_ASSERT_STRING_EQUAL(cell(&csv, i, "status"), "ok");
        CU_ASSERT(atof(cell(&csv, i, "makespan")) > 0);
        for (long j = 0; j < i; j++) {
            bool same_inst = !strcmp(cell(&csv, i, "instance"), cell(&csv, j, "instance"));
            bool same_point = !strcmp(cell(&csv, i, "gpus"), cell(&csv, j, "gpus")) &&
                              !strcmp(cell(&csv, i, "rep"), cell(&csv, j, "rep"));
            CU_ASSERT(strcmp(cell(&csv, i, "key"), cell(&csv, j, "key")) != 0);
            CU_ASSERT_EQUAL(same_inst, same_point); /* the policy is not part of the instance */
            CU_ASSERT_EQUAL(!strcmp(cell(&csv, i, "seed"), cell(&csv, j, "seed")), same_inst);
        }
    }
    /* --dry-run lists the same keys, and runs nothing */
    snprintf(cmd, sizeof cmd, "sweep %s --dry-run", args);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, &out, NULL), 0);
    CU_ASSERT_EQUAL(hs_test_count_lines(out), 9);
    for (long i = 0; i < csv.nrows; i++)
        CU_ASSERT_PTR_NOT_NULL(strstr(out, cell(&csv, i, "key")));
    free(out);
    hs_csv_free(&csv);
    free(a), free(b);
}

/* A row holds all it takes to run it again: `hetsim run` with its columns and seed. */
static void test_row_reruns(void)
{
    char *f = hs_test_tmp(".csv"), *rec = hs_test_tmp(".json");
    CU_ASSERT_EQUAL_FATAL(hs_test_sweep(SMALL " -s random --noise 0.2 --vary gpus=2,3 --seed 9", f, NULL), 0);
    struct hs_csv csv = hs_test_load_csv(f);
    CU_ASSERT_EQUAL_FATAL(csv.nrows, 2);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "run -q -p %s -w %s -s %s --gpus %s --noise %s --seed %s -o %s",
             cell(&csv, 0, "platform"), cell(&csv, 0, "workload"), cell(&csv, 0, "policy"),
             cell(&csv, 0, "gpus"), cell(&csv, 0, "noise"), cell(&csv, 0, "seed"), rec);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(cmd, NULL, NULL), 0);
    char *text = hs_test_read_file(rec);
    cJSON *r = cJSON_Parse(text);
    double m = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "makespan")->valuedouble;
    CU_ASSERT_EQUAL(m, strtod(cell(&csv, 0, "makespan"), NULL));
    CU_ASSERT(strcmp(cell(&csv, 0, "makespan"), cell(&csv, 1, "makespan")) != 0);
    cJSON_Delete(r);
    free(text);
    hs_csv_free(&csv);
    free(f), free(rec);
}

/* ---- background sweeps ------------------------------------------------------ */

static pid_t spawn(const char *args)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "exec %s %s >/dev/null 2>&1 </dev/null", HETSIM_BIN, args);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static void nap(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&t, NULL);
}

/* A child process of `parent` (from /proc), or 0. */
static pid_t child_of(pid_t parent)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    pid_t found = 0;
    while (d && !found && (e = readdir(d))) {
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = atoi(e->d_name) > 0 ? fopen(path, "r") : NULL;
        if (!f)
            continue;
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        char *rp = strrchr(buf, ')');
        int ppid = 0;
        if (rp && sscanf(rp + 1, " %*c %d", &ppid) == 1 && ppid == parent)
            found = atoi(e->d_name);
    }
    if (d)
        closedir(d);
    return found;
}

static int wait_for(pid_t pid)
{
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void test_resume_after_kill(void)
{
    char *ref = hs_test_tmp(".csv"), *part = hs_test_tmp(".csv"), *err;
    const char *args = "-w cholesky:n=16384,nb=1024 --vary policy=heft,dmda --vary gpus=1..4 -j 1";
    CU_ASSERT_EQUAL_FATAL(hs_test_sweep(args, ref, NULL), 0);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "sweep -q %s -o %s", args, part);
    pid_t pid = spawn(cmd);
    for (int i = 0; i < 6000 && hs_test_lines_of(part) < 4; i++)
        nap(0.01);
    kill(pid, SIGKILL); /* the worst case: no chance to clean up */
    wait_for(pid);
    int done = hs_test_lines_of(part) - 1;
    CU_ASSERT(done >= 3);
    FILE *f = fopen(part, "a");
    fputs("0123456789abcdef,0123", f); /* a row cut by the kill */
    fclose(f);
    CU_ASSERT_EQUAL(hs_test_sweep(args, part, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "dropped an incomplete last line"));
    free(err);
    hs_test_assert_same_rows(ref, part, 8);
    CU_ASSERT_EQUAL(hs_test_cli("sweep -w cholesky:n=16384,nb=1024 --vary policy=heft,dmda "
                                "--vary gpus=1..4 -o /dev/null --dry-run", NULL, NULL), 0);
    snprintf(cmd, sizeof cmd, "sweep %s -o %s", args, part); /* nothing left to run */
    CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "0 runs in"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "8 already in"));
    free(err);
    hs_test_assert_same_rows(ref, part, 8);
    free(ref), free(part);
}

static void test_failures_recorded(void)
{
    char *f = hs_test_tmp(".csv"), *t = hs_test_tmp(".csv"), *k = hs_test_tmp(".csv");
    /* a policy that refuses the DAG: found only when the run builds it; with
     * -q the failure is still said, in one line */
    char *first = NULL;
    CU_ASSERT_EQUAL(hs_test_sweep(SMALL " --vary policy=dmda,dynamic-outer,eager", f, &first), 1);
    CU_ASSERT(first && strstr(first, "hetsim: 1 of 3 runs failed (1 error, 0 crash, 0 timeout): "
                                                  "their rows in "));
    CU_ASSERT(first && strstr(first, "say why; --retry-failed runs them again\n"));
    CU_ASSERT_EQUAL(first ? hs_test_count_lines(first) : -1, 1);
    free(first);
    struct hs_csv csv = hs_test_load_csv(f);
    CU_ASSERT_EQUAL_FATAL(csv.nrows, 3);
    int errors = 0;
    for (long i = 0; i < csv.nrows; i++)
        if (!strcmp(cell(&csv, i, "policy"), "dynamic-outer")) {
            CU_ASSERT_STRING_EQUAL(cell(&csv, i, "status"), "error");
            CU_ASSERT_PTR_NOT_NULL(strstr(cell(&csv, i, "error"), "is not an outer product"));
            CU_ASSERT_STRING_EQUAL(cell(&csv, i, "makespan"), "");
            errors++;
        } else {
            CU_ASSERT_STRING_EQUAL(cell(&csv, i, "status"), "ok");
        }
    CU_ASSERT_EQUAL(errors, 1);
    hs_csv_free(&csv);
    char *err, retry[2048];
    /* resumed without --retry-failed: nothing runs, but the sweep is not done: exit 1, said even with -q */
    snprintf(retry, sizeof retry, "sweep -q " SMALL " --vary policy=dmda,dynamic-outer,eager -o %s", f);
    CU_ASSERT_EQUAL(hs_test_cli(retry, NULL, &err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 run already in"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "failed (error, crash or timeout) and was not run again: --retry-failed runs it"));
    free(err);
    CU_ASSERT_EQUAL(hs_test_lines_of(f), 4);
    snprintf(retry, sizeof retry, "sweep " SMALL " --vary policy=dmda,dynamic-outer,eager --retry-failed -o %s", f);
    CU_ASSERT_EQUAL(hs_test_cli(retry, NULL, &err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 runs in")); /* the failed one, again */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "2 already in"));
    free(err);
    CU_ASSERT_EQUAL(hs_test_lines_of(f), 4);

    /* 60x60 tiles (37,820 tasks) take far longer than 20 ms */
    CU_ASSERT_EQUAL(hs_test_sweep("-w cholesky:n=61440,nb=1024 --vary gpus=1,2 --timeout 0.02", t, NULL), 1);
    csv = hs_test_load_csv(t);
    CU_ASSERT_EQUAL_FATAL(csv.nrows, 2);
    CU_ASSERT_STRING_EQUAL(cell(&csv, 0, "status"), "timeout");
    CU_ASSERT_STRING_EQUAL(cell(&csv, 0, "error"), "timed out after 0.02 s");
    hs_csv_free(&csv);

    /* a run killed by a signal: recorded, and the next one runs */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "sweep -q -w cholesky:n=40960,nb=1024 --vary gpus=1,2 -j 1 -o %s", k);
    pid_t pid = spawn(cmd), child = 0;
    for (int i = 0; i < 3000 && hs_test_lines_of(k) < 1; i++) /* planned (its checks fork too) */
        nap(0.005);
    for (int i = 0; i < 3000 && !(child = child_of(pid)); i++)
        nap(0.005);
    CU_ASSERT_FATAL(child > 0);
    kill(child, SIGKILL);
    CU_ASSERT_EQUAL(wait_for(pid), 1);
    csv = hs_test_load_csv(k);
    CU_ASSERT_EQUAL_FATAL(csv.nrows, 2);
    int crashes = 0, oks = 0;
    for (long i = 0; i < csv.nrows; i++) {
        crashes += !strcmp(cell(&csv, i, "status"), "crash");
        oks += !strcmp(cell(&csv, i, "status"), "ok");
        if (!strcmp(cell(&csv, i, "status"), "crash"))
            CU_ASSERT_PTR_NOT_NULL(strstr(cell(&csv, i, "error"), "killed by signal 9"));
    }
    CU_ASSERT_EQUAL(crashes, 1);
    CU_ASSERT_EQUAL(oks, 1);
    hs_csv_free(&csv);
    free(f), free(t), free(k);
}

static void test_bad_input(void)
{
    char *study = hs_test_tmp(".json"), *typo = hs_test_tmp(".json"), *broken = hs_test_tmp(".json");
    char *other = hs_test_tmp(".csv"), *res = hs_test_tmp(".csv"), args[2048];
    hs_test_write_file(study, "{\"sweep\": {\"vary\": {\"gpus\": [1, {\"x\": 2}]}}}");
    hs_test_write_file(typo, "{\"sweep\": {\"reps\": 2}, \"plotz\": []}");
    hs_test_write_file(broken, "{\"sweep\": {\n\"reps\": 2,,\n}}");
    hs_test_write_file(other, "key,instance,x\n1,2,3\n");
    hs_test_bad_cli("sweep --vary ccr=1,2", "--vary ccr: unknown key (valid: platform, workload, policy, gpus,");
    hs_test_bad_cli("sweep --vary nb=1024 --vary workload.nb=512", "vary the same parameter");
    hs_test_bad_cli("sweep --vary beta=0,1 -s heft", "unknown key (valid:");
    hs_test_bad_cli("sweep --vary beta=0,1 --vary policy=dmda,heft -o /dev/null",
        "--vary beta: policy heft has no parameter beta (valid: online, insertion, rank, order, eft, comm)");
    hs_test_bad_cli("sweep --vary workload.colour=red", "no workload of this sweep has a parameter colour");
    hs_test_bad_cli("sweep --vary seed=1,2", "--vary seed: every run's seed derives from --seed");
    hs_test_bad_cli("sweep --vary gpus=x", "--vary gpus: 'x' is not an integer in [0, 1048576]");
    hs_test_bad_cli("sweep --vary gpus=1,1", "are the same run");
    hs_test_bad_cli("sweep --vary gpus", "expected KEY=V1,V2,...");
    hs_test_bad_cli("sweep --vary gpus=4..1", "range 4..1: expected LOW..HIGH");
    hs_test_bad_cli("sweep --vary nb=1024,0 -o /dev/null", "workload cholesky: parameter nb: 0 is outside the allowed range");
    hs_test_bad_cli("sweep --gpus x", "option --gpus: 'x' is not an integer");
    hs_test_bad_cli("sweep --shard 3/2", "option --shard: '3/2' is not I/N with 0 <= I < N");
    hs_test_bad_cli("sweep --shard x", "option --shard: 'x' is not I/N");
    hs_test_bad_cli("sweep -p nosuch", "unknown platform 'nosuch'");
    hs_test_bad_cli("sweep --quick", "--quick needs --study");
    snprintf(args, sizeof args, "sweep --study %s", study);
    hs_test_bad_cli(args, "sweep.vary.gpus[1]: expected a string or a number");
    snprintf(args, sizeof args, "sweep --study %s", typo);
    hs_test_bad_cli(args, "plotz: unknown key (valid here: name, title,");
    snprintf(args, sizeof args, "sweep --study %s", broken);
    hs_test_bad_cli(args, "malformed JSON near line 2");
    hs_test_bad_cli("sweep --study nosuch", "unknown study 'nosuch' (shipped: beaumont-beta-grid, "); /* the first by name */
    hs_test_bad_cli("reproduce nosuch", "unknown study 'nosuch'");
    snprintf(args, sizeof args, "sweep -q " SMALL " -o %s", other);
    hs_test_bad_cli(args, "holds the results of another sweep");
    hs_test_bad_cli("summarize /nonexistent/r.csv", "/nonexistent/r.csv: cannot read: No such file");
    hs_test_write_file(res, "key,instance,policy,status,makespan\na,1,x,ok,1\nb,2,y,ok,abc\n");
    snprintf(args, sizeof args, "summarize %s --metrics gflops", res);
    hs_test_bad_cli(args, "has no column 'gflops' (columns: key, instance, policy, status, makespan)");
    snprintf(args, sizeof args, "summarize %s --by nosuch", res);
    hs_test_bad_cli(args, "has no column 'nosuch'");
    snprintf(args, sizeof args, "summarize %s --by policy", res);
    hs_test_bad_cli(args, "row 2, column makespan: 'abc' is not a number");
    snprintf(args, sizeof args, "plot %s -x policy -y makespan -o p.jpg", other);
    hs_test_bad_cli(args, "has no column 'makespan' (columns: key, instance, x)");
    snprintf(args, sizeof args, "plot %s -x x -y x -o p.jpg", other);
    hs_test_bad_cli(args, "unknown image format 'jpg' (use .png, .svg or .pdf)");
    snprintf(args, sizeof args, "merge %s %s", other, res);
    hs_test_bad_cli(args, "its columns differ from those of");
    snprintf(args, sizeof args, "gantt %s", study);
    hs_test_bad_cli(args, "has no events: write it with `hetsim run --events");
    free(study), free(typo), free(broken), free(other), free(res);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"rows, keys, shared seeds; -j 2 = -j 1; dry run", test_rows_keys_seeds},
        {"a row runs again with hetsim run", test_row_reruns},
        {"resume after a killed sweep", test_resume_after_kill},
        {"failed, timed-out and killed runs recorded", test_failures_recorded},
        {"bad input: one line, exit 2", test_bad_input},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cmd_sweep", tests);
}
