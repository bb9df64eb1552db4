/* tests/cli/test_sweep_reuse.c — rows that a sweep, a ledger or a
 * merge reuses instead of running (analysis/sweep_exec.c, sweep_row.c,
 * scenario/ledger_need.c, ledger_pool.c; issue 54):
 *  - a resumed ledger whose file holds part of a round of repetitions (a
 *    ledger killed with kill -9, stood in for by cutting its CSV) ends with
 *    the rows and table of a fresh one;
 *  - a reused row whose figures are not a run's (abc, nan, -1) is refused in
 *    one line naming file and row, on resume, when a ledger copies it, and
 *    when merged;
 *  - two sweeps writing one CSV at once: the second is refused in one line
 *    (the file is locked), and every run is in the file once;
 *  - a row is reused only while the files its run read are as they were (its
 *    inputs column): a platform file, a timing table or a DAG file edited
 *    since reruns the runs that read it, and one line says how many, in a
 *    sweep and in a ledger. */
#include "tests/support/testing.h"
#include "analysis/sweep.h"
#include "base/buf.h"
#include "base/util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

static const char *const claims =
    "{\"papers\": {\"p\": {\"short\": \"Paper 2014\", \"cite\": \"A. Author, A paper, 2014\"}},\n"
    " \"claims\": [\n"
    "  {\"id\": \"t:holds\", \"paper\": \"p\", \"where\": \"Fig. 1\", \"claim\": \"it runs\"},\n"
    "  {\"id\": \"t:fails\", \"paper\": \"p\", \"where\": \"Fig. 3\", \"claim\": \"never ends\", \"why\": \"it ends\"}]}\n";

/* A point whose runs agree (heft, no noise: settled after the first round's
 * 5 repetitions) and a noisy one (eager, noise 0.2) whose mean is checked
 * within 35%: its relative 95% half-width is above 35%/4 after 5
 * repetitions and below it after 10, so a fresh ledger runs 5, then 10
 * (below it after 8 too: a resumed ledger that read 8 repetitions of the
 * second round would settle there, one round short). */
static const char *const reps_study =
    "{\"title\": \"reps\", \"sweep\": {\"base\": {\"platform\": \"flat:2\", \"workload\": "
    "\"random:v=8,seed=3,p=2\"}, \"vary\": {\"policy\": [\"eager\", \"heft\"], \"noise\": [0, 0.2]}, \"reps\": 12},\n"
    " \"published\": [\n"
    "  {\"where\": {\"policy\": \"heft\", \"noise\": 0}, \"metric\": \"makespan\", \"value\": 0, "
    "\"bound\": \"lower\", \"claim\": \"t:holds\"},\n"
    "  {\"where\": {\"policy\": \"eager\", \"noise\": 0.2}, \"metric\": \"makespan\", \"value\": 1e-9, "
    "\"tolerance\": 0.35, \"claim\": \"t:fails\"}]}\n";

/* The same heft point in a second study: a ledger copies its run. */
static const char *const copy_study =
    "{\"title\": \"copy\", \"sweep\": {\"base\": {\"platform\": \"flat:2\", \"workload\": "
    "\"random:v=8,seed=3,p=2\"}, \"vary\": {\"policy\": [\"heft\"]}},\n"
    " \"published\": [{\"where\": {\"policy\": \"heft\"}, \"metric\": \"makespan\", \"value\": 0, "
    "\"bound\": \"lower\", \"claim\": \"t:holds\"}]}\n";

struct ledger_env {
    char *studies, *claims, *out;
};

static void env_init(struct ledger_env *e, bool with_copy)
{
    e->studies = hs_test_tmp_dir("-studies");
    e->claims = hs_test_tmp(".json");
    e->out = hs_test_tmp_dir("-out");
    char path[1024];
    snprintf(path, sizeof path, "%s/reuse-reps.json", e->studies);
    hs_test_write_file(path, reps_study);
    if (with_copy) {
        snprintf(path, sizeof path, "%s/reuse-copy.json", e->studies);
        hs_test_write_file(path, copy_study);
    }
    hs_test_write_file(e->claims, claims);
    setenv("HETSIM_STUDYDIR", e->studies, 1);
}

static void env_free(struct ledger_env *e)
{
    unsetenv("HETSIM_STUDYDIR");
    free(e->studies), free(e->claims), free(e->out);
}

static int ledger(const struct ledger_env *e, const char *dir, const char *extra, char **out, char **err)
{
    char args[4096];
    snprintf(args, sizeof args, "reproduce --ledger -q -j 2 --claims %s -o %s/%s %s", e->claims, e->out, dir,
             extra);
    return hs_test_cli(args, out, err);
}

/* Rewrite a results file keeping the rows keep() accepts, then half of the
 * first row it drops, without its line break (a write cut by kill -9). */
static void cut_file(const char *path, bool (*keep)(const struct hs_csv *, long))
{
    struct hs_csv csv = hs_test_load_csv(path);
    struct hs_buf b = {0}, dropped = {0};
    hs_csv_line(&b, csv.header, csv.ncols);
    for (long r = 0; r < csv.nrows; r++)
        if (keep(&csv, r))
            hs_csv_line(&b, csv.rows[r], csv.ncols);
        else if (!dropped.len)
            hs_csv_line(&dropped, csv.rows[r], csv.ncols);
    CU_ASSERT(dropped.len > 2);
    hs_buf_addn(&b, hs_buf_str(&dropped), dropped.len / 2);
    hs_test_write_file(path, hs_buf_str(&b));
    hs_buf_free(&b), hs_buf_free(&dropped);
    hs_csv_free(&csv);
}

static int col(const struct hs_csv *csv, const char *name)
{
    int c = hs_csv_col(csv, name);
    CU_ASSERT_FATAL(c >= 0);
    return c;
}

/* The noisy point's repetitions 8 and on were not written (the second
 * round cut after its repetitions 5 to 7). */
static bool before_rep8(const struct hs_csv *csv, long r)
{
    return strcmp(csv->rows[r][col(csv, "policy")], "eager") != 0 || atoi(csv->rows[r][col(csv, "rep")]) < 8;
}

static int count_rows(const char *path, const char *policy)
{
    struct hs_csv csv = hs_test_load_csv(path);
    int n = 0;
    for (long r = 0; r < csv.nrows; r++)
        n += strcmp(csv.rows[r][col(&csv, "policy")], policy) == 0;
    hs_csv_free(&csv);
    return n;
}

static void test_resume_after_kill(void)
{
    struct ledger_env e;
    env_init(&e, false);
    char *fresh = NULL, *resumed = NULL, *err = NULL, path[1024], cmd[2048];
    CU_ASSERT_EQUAL(ledger(&e, "fresh", "", &fresh, &err), 0);
    free(err);
    snprintf(path, sizeof path, "%s/fresh/reuse-reps/results.csv", e.out);
    CU_ASSERT_EQUAL(count_rows(path, "eager"), 10); /* 5, then 10 */
    CU_ASSERT_EQUAL(count_rows(path, "heft"), 5);
    snprintf(cmd, sizeof cmd, "cp -r %s/fresh %s/killed", e.out, e.out);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    snprintf(path, sizeof path, "%s/killed/reuse-reps/results.csv", e.out);
    cut_file(path, before_rep8);
    CU_ASSERT_EQUAL(count_rows(path, "eager"), 8);
    CU_ASSERT_EQUAL(ledger(&e, "killed", "", &resumed, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "dropped an incomplete last line"));
    free(err);
    CU_ASSERT(fresh && resumed && strstr(fresh, "2 claims: 1 hold (0 of them on an assumption), 0 partly, 1 fail"));
    if (fresh && resumed)
        CU_ASSERT_STRING_EQUAL(resumed, fresh);
    char fresh_csv[1024];
    snprintf(fresh_csv, sizeof fresh_csv, "%s/fresh/reuse-reps/results.csv", e.out);
    hs_test_assert_same_rows(fresh_csv, path, hs_test_lines_of(fresh_csv) - 1);
    free(fresh), free(resumed);
    env_free(&e);
}

/* The first ok row of a file with its makespan replaced by text. */
static void spoil_makespan(const char *path, const char *text)
{
    struct hs_csv csv = hs_test_load_csv(path);
    struct hs_buf b = {0};
    hs_csv_line(&b, csv.header, csv.ncols);
    int m = col(&csv, "makespan");
    for (long r = 0; r < csv.nrows; r++) {
        if (r == 0) {
            free(csv.rows[r][m]);
            csv.rows[r][m] = hs_xstrdup(text);
        }
        hs_csv_line(&b, csv.rows[r], csv.ncols);
    }
    hs_test_write_file(path, hs_buf_str(&b));
    hs_buf_free(&b);
    hs_csv_free(&csv);
}

static void expect_refused(int rc, char *err, const char *path, const char *value)
{
    char line[1200];
    snprintf(line, sizeof line, "%s: row 1 (key ", path);
    bool ok = rc == 2 && hs_test_count_lines(err) == 1 && strstr(err, line);
    snprintf(line, sizeof line, "column makespan: '%s' is not a finite number >= 0", value);
    ok = ok && strstr(err, line);
    if (!ok)
        fprintf(stderr, "\nexit %d, stderr: %s(expected one line naming %s, row 1 and '%s')\n", rc, err, path, value);
    CU_ASSERT(ok);
    free(err);
}

/* Reused rows are checked: a ledger resumed on its own file, a ledger
 * copying another study's row of the same run, a sweep resumed, a merge. */
static void test_reused_rows_checked(void)
{
    static const char *const bad[] = {"abc", "nan", "-1", "inf"};
    struct ledger_env e;
    env_init(&e, true);
    char *out = NULL, *err = NULL, path[1024], cmd[2048];
    CU_ASSERT_EQUAL_FATAL(ledger(&e, "base", "--only reuse-reps", &out, &err), 0);
    free(out), free(err);
    for (int i = 0; i < 4; i++) {
        char dir[64];
        /* copied from another study's file: reuse-copy's run is reuse-reps' heft row */
        snprintf(dir, sizeof dir, "copy-%d", i);
        snprintf(cmd, sizeof cmd, "rm -rf %s/%s && cp -r %s/base %s/%s", e.out, dir, e.out, e.out, dir);
        CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
        snprintf(path, sizeof path, "%s/%s/reuse-reps/results.csv", e.out, dir);
        struct hs_csv csv = hs_test_load_csv(path);
        /* the first row a copy would lend: heft without noise, rep 0 */
        long first = -1;
        for (long r = 0; r < csv.nrows && first < 0; r++)
            if (!strcmp(csv.rows[r][col(&csv, "policy")], "heft") && !strcmp(csv.rows[r][col(&csv, "rep")], "0") &&
                !strcmp(csv.rows[r][col(&csv, "noise")], "0"))
                first = r;
        CU_ASSERT_FATAL(first >= 0);
        struct hs_buf b = {0};
        hs_csv_line(&b, csv.header, csv.ncols);
        hs_csv_line(&b, csv.rows[first], csv.ncols); /* it first, then the others */
        for (long r = 0; r < csv.nrows; r++)
            if (r != first)
                hs_csv_line(&b, csv.rows[r], csv.ncols);
        hs_test_write_file(path, hs_buf_str(&b));
        hs_buf_free(&b);
        hs_csv_free(&csv);
        spoil_makespan(path, bad[i]);
        int rc = ledger(&e, dir, "--only reuse-copy", &out, &err);
        free(out);
        expect_refused(rc, err, path, bad[i]);
        /* resumed on its own file */
        rc = ledger(&e, dir, "--only reuse-reps", &out, &err);
        free(out);
        expect_refused(rc, err, path, bad[i]);
        /* merged */
        snprintf(cmd, sizeof cmd, "merge -o %s/%s/m.csv %s", e.out, dir, path);
        rc = hs_test_cli(cmd, NULL, &err);
        expect_refused(rc, err, path, bad[i]);
    }
    /* a sweep resumed on its own file */
    char *csv = hs_test_tmp(".csv");
    const char *args = "-p flat:2 -w random:v=8,seed=3,p=2 --vary policy=heft,eager";
    CU_ASSERT_EQUAL(hs_test_sweep(args, csv, NULL), 0);
    spoil_makespan(csv, "-1");
    int rc = hs_test_sweep(args, csv, &err);
    expect_refused(rc, err, csv, "-1");
    free(csv);
    env_free(&e);
}

/* Two writers of one CSV: a lock held on it (as a running sweep holds it)
 * refuses a sweep in one line and leaves the file as it was; two sweeps
 * started at once write every run once, the second refused or resuming
 * after the first. */
static void test_two_writers(void)
{
    char *csv = hs_test_tmp(".csv"), *err = NULL, cmd[8192];
    const char *args = "-p flat:2 -w random:v=30,seed=3,p=2 --vary policy=heft,eager,dmda,ws --vary noise=0,0.1,0.2 -j 1";
    hs_test_write_file(csv, "");
    int fd = open(csv, O_RDONLY);
    CU_ASSERT_FATAL(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0);
    int rc = hs_test_sweep(args, csv, &err);
    CU_ASSERT_EQUAL(rc, 2);
    CU_ASSERT_EQUAL(hs_test_count_lines(err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "is writing it now: wait until it ends"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, csv));
    free(err);
    char *text = hs_test_read_file(csv);
    CU_ASSERT_STRING_EQUAL(text, "");
    free(text);
    close(fd); /* the lock goes with it */
    unlink(csv);
    char *codes = hs_test_tmp(".codes"), *errs = hs_test_tmp(".err");
    snprintf(cmd, sizeof cmd,
             "(%s sweep -q %s -o %s 2>>%s; echo $? >>%s) & (%s sweep -q %s -o %s 2>>%s; echo $? >>%s) & wait",
             HETSIM_BIN, args, csv, errs, codes, HETSIM_BIN, args, csv, errs, codes);
    CU_ASSERT_EQUAL(system(cmd), 0);
    char *c = hs_test_read_file(codes), *e = hs_test_read_file(errs);
    CU_ASSERT(c && (!strcmp(c, "0\n0\n") || !strcmp(c, "0\n2\n") || !strcmp(c, "2\n0\n")));
    if (c && strchr(c, '2'))
        CU_ASSERT(e && strstr(e, "is writing it now") && hs_test_count_lines(e) == 1);
    struct hs_csv rows = hs_test_load_csv(csv);
    CU_ASSERT_EQUAL(rows.nrows, 4 * 3); /* every run once */
    for (long r = 1; r < rows.nrows; r++)
        for (long q = 0; q < r; q++)
            CU_ASSERT(strcmp(rows.rows[r][0], rows.rows[q][0]) != 0);
    hs_csv_free(&rows);
    free(c), free(e), free(codes), free(errs), free(csv);
}

/* A run may write inf where a quantity is unbounded: dynamic-outer-2phases
 * with phase2 = 0 uses beta = -ln 0 = inf (Beaumont and Marchal's Fig. 2,
 * study beaumont-outer-threshold). Its rows are resumed, not refused. */
static void test_unbounded_resumed(void)
{
    char *csv = hs_test_tmp(".csv"), *err = NULL;
    const char *args = "-p flat:4,bw=inf -w outer:n=10 -s dynamic-outer-2phases --vary phase2=0,0.5";
    CU_ASSERT_EQUAL_FATAL(hs_test_sweep(args, csv, NULL), 0);
    struct hs_csv rows = hs_test_load_csv(csv);
    CU_ASSERT_EQUAL(rows.nrows, 2);
    bool inf = false;
    for (long r = 0; r < rows.nrows; r++)
        inf |= strcmp(rows.rows[r][col(&rows, "beta_used")], "inf") == 0;
    CU_ASSERT(inf); /* the case this test is for */
    hs_csv_free(&rows);
    int rc = hs_test_sweep(args, csv, &err);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc)
        fprintf(stderr, "\nresumed sweep: %s", err ? err : "");
    CU_ASSERT_EQUAL(hs_test_lines_of(csv), 1 + 2);
    free(err);
    free(csv);
}

/* A copy of a shipped file into dir (caller frees the path). */
static char *copy_shipped(const char *dir, const char *shipped, const char *name)
{
    char *path = hs_xmalloc(strlen(dir) + strlen(name) + 2), cmd[4096];
    sprintf(path, "%s/%s", dir, name);
    snprintf(cmd, sizeof cmd, "cp '%s/%s' '%s'", HETSIM_SOURCE_DIR, shipped, path);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    return path;
}

/* Replace the first `from` of the file by `to`. */
static void edit_file(const char *path, const char *from, const char *to)
{
    char *text = hs_test_read_file(path), *at = strstr(text, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    struct hs_buf b = {0};
    hs_buf_addn(&b, text, (size_t)(at - text));
    hs_buf_add(&b, to);
    hs_buf_add(&b, at + strlen(from));
    hs_test_write_file(path, hs_buf_str(&b));
    hs_buf_free(&b);
    free(text);
}

/* The value of column name in the row whose column by is value (NULL if none;
 * caller frees). */
static char *cell(const char *csv_path, const char *by, const char *value, const char *name)
{
    struct hs_csv csv = hs_test_load_csv(csv_path);
    char *out = NULL;
    for (long r = 0; r < csv.nrows && !out; r++)
        if (strcmp(csv.rows[r][col(&csv, by)], value) == 0)
            out = hs_xstrdup(csv.rows[r][col(&csv, name)]);
    hs_csv_free(&csv);
    return out;
}

/* The resumed sweep's stderr says in one line how many runs' inputs changed
 * (none: no such line). */
static void expect_changed(const char *err, int n)
{
    const char *line = err ? strstr(err, "finished run") : NULL;
    if (n == 0) {
        CU_ASSERT_PTR_NULL(line);
        return;
    }
    char want[64];
    snprintf(want, sizeof want, ": %d finished run%s had been made from input files", n, n == 1 ? "" : "s");
    CU_ASSERT(err && strstr(err, want));
    if (!err || !strstr(err, want))
        fprintf(stderr, "\nexpected '%s' in: %s\n", want, err ? err : "(nothing)");
    CU_ASSERT_EQUAL(hs_test_count_lines(err), 1);
}

/* A sweep over two copies of Mapuche (a.xml, b.xml) with a copy of its
 * timing table, then the same into the same file: unchanged, every row is
 * reused; a.xml's host-to-GPU link slowed from 3 to 1 GB/s, its run alone
 * reruns and its makespan grows, b.xml's row stays as it was (its
 * run_seconds too: not run again); the timing table's SGEMM on the GPU made
 * slower, both rerun. A DAG file edited likewise. The rows' seeds never
 * change. */
static void test_changed_inputs_rerun(void)
{
    char *dir = hs_test_tmp_dir("-inputs"), *err = NULL, args[4096];
    char *a = copy_shipped(dir, "platforms/mapuche.xml", "a.xml"), *b = copy_shipped(dir, "platforms/mapuche.xml", "b.xml");
    char *perf = copy_shipped(dir, "platforms/perf/mapuche.json", "t.json"), *csv = hs_test_tmp(".csv");
    snprintf(args, sizeof args, "--vary platform=%s,%s --perf %s -w cholesky:n=1000,nb=100,precision=s -s dmda --gpus 1",
             a, b, perf);
    CU_ASSERT_EQUAL_FATAL(hs_test_sweep(args, csv, NULL), 0);
    char *a0 = cell(csv, "platform", a, "makespan"), *b0 = cell(csv, "platform", b, "run_seconds");
    char *seed_a = cell(csv, "platform", a, "seed"), *in_a = cell(csv, "platform", a, "inputs");
    CU_ASSERT_FATAL(a0 && b0 && seed_a && in_a);
    CU_ASSERT_EQUAL(strlen(in_a), 16);
    CU_ASSERT(strcmp(in_a, "0000000000000000") != 0);
    /* unchanged: reused */
    CU_ASSERT_EQUAL(hs_test_sweep(args, csv, &err), 0);
    expect_changed(err, 0);
    free(err);
    char *a1 = cell(csv, "platform", a, "run_seconds"), *a1m = cell(csv, "platform", a, "makespan");
    CU_ASSERT_STRING_EQUAL(a1m, a0);
    /* the platform file a.xml edited: its run reruns */
    edit_file(a, "pcie_h2d\" bandwidth=\"3GBps\"", "pcie_h2d\" bandwidth=\"1GBps\"");
    CU_ASSERT_EQUAL(hs_test_sweep(args, csv, &err), 0);
    expect_changed(err, 1);
    free(err);
    CU_ASSERT_EQUAL(hs_test_lines_of(csv), 1 + 2);
    char *a2 = cell(csv, "platform", a, "makespan"), *b2 = cell(csv, "platform", b, "run_seconds");
    char *seed_a2 = cell(csv, "platform", a, "seed"), *in_a2 = cell(csv, "platform", a, "inputs");
    CU_ASSERT(a2 && atof(a2) > atof(a0) * 1.01); /* the slower link shows */
    CU_ASSERT_STRING_EQUAL(b2, b0);              /* b.xml's row as it was */
    CU_ASSERT_STRING_EQUAL(seed_a2, seed_a);
    CU_ASSERT(strcmp(in_a2, in_a) != 0);
    /* the timing table both read edited: both rerun */
    edit_file(perf, "\"gflops\": 25", "\"gflops\": 5");
    CU_ASSERT_EQUAL(hs_test_sweep(args, csv, &err), 0);
    expect_changed(err, 2);
    free(err);
    char *b3 = cell(csv, "platform", b, "makespan"), *b0m = NULL;
    CU_ASSERT_EQUAL(hs_test_lines_of(csv), 1 + 2);
    CU_ASSERT_PTR_NOT_NULL(b3);
    /* a DAG file edited: its runs rerun, the others' rows stay */
    char *dag = hs_xmalloc(strlen(dir) + 16), *dcsv = hs_test_tmp(".csv");
    sprintf(dag, "%s/d.json", dir);
    hs_test_write_file(dag, "{\"name\":\"d\",\"handles\":[],\"tasks\":[{\"label\":\"a\",\"kernel\":\"k\",\"accesses\":[],"
                            "\"costs\":[2]}]}");
    snprintf(args, sizeof args, "-p flat:1 --vary 'workload=%s;random:v=5,p=1' -s eager", dag);
    CU_ASSERT_EQUAL_FATAL(hs_test_sweep(args, dcsv, NULL), 0);
    b0m = cell(dcsv, "workload", dag, "makespan");
    CU_ASSERT(b0m && atof(b0m) == 2);
    CU_ASSERT_EQUAL(hs_test_sweep(args, dcsv, &err), 0);
    expect_changed(err, 0);
    free(err);
    edit_file(dag, "[2]", "[3]");
    CU_ASSERT_EQUAL(hs_test_sweep(args, dcsv, &err), 0);
    expect_changed(err, 1);
    free(err);
    char *d3 = cell(dcsv, "workload", dag, "makespan");
    CU_ASSERT(d3 && atof(d3) == 3);
    CU_ASSERT_EQUAL(hs_test_lines_of(dcsv), 1 + 2);
    free(a0), free(b0), free(seed_a), free(in_a), free(a1), free(a1m), free(a2), free(b2), free(seed_a2), free(in_a2);
    free(b3), free(b0m), free(d3), free(dag), free(dcsv);
    free(a), free(b), free(perf), free(csv), free(dir);
}

/* A ledger into one folder twice: the second reuses every run; with the
 * study's platform file edited between, its runs rerun (the line says how
 * many), none is copied from the old rows, and the rows hold the new figure. */
static void test_ledger_changed_inputs(void)
{
    struct ledger_env e;
    env_init(&e, false);
    char *dir = hs_test_tmp_dir("-plat"), *out = NULL, *err = NULL, path[1024];
    char *xml = copy_shipped(dir, "platforms/mapuche.xml", "m.xml");
    snprintf(path, sizeof path, "%s/reuse-file.json", e.studies);
    char study[2048];
    snprintf(study, sizeof study,
             "{\"title\": \"file\", \"sweep\": {\"base\": {\"platform\": \"%s\", \"workload\": "
             "\"cholesky:n=1000,nb=100,precision=s\", \"gpus\": \"1\", \"policy\": \"dmda\"}},\n"
             " \"published\": [{\"where\": {\"policy\": \"dmda\"}, \"metric\": \"makespan\", \"value\": 0, "
             "\"bound\": \"lower\", \"claim\": \"t:holds\"}]}\n", xml);
    hs_test_write_file(path, study);
    CU_ASSERT_EQUAL_FATAL(ledger(&e, "l", "--only reuse-file", &out, &err), 0);
    free(out), free(err);
    snprintf(path, sizeof path, "%s/l/reuse-file/results.csv", e.out);
    char *m0 = cell(path, "policy", "dmda", "makespan");
    CU_ASSERT_EQUAL_FATAL(ledger(&e, "l", "--only reuse-file", &out, &err), 0);
    expect_changed(err, 0);
    free(out), free(err);
    edit_file(xml, "pcie_h2d\" bandwidth=\"3GBps\"", "pcie_h2d\" bandwidth=\"1GBps\"");
    CU_ASSERT_EQUAL(ledger(&e, "l", "--only reuse-file", &out, &err), 0);
    int rows = hs_test_lines_of(path) - 1;
    CU_ASSERT(rows >= 1);
    expect_changed(err, rows);
    free(out), free(err);
    char *m1 = cell(path, "policy", "dmda", "makespan");
    CU_ASSERT(m0 && m1 && atof(m1) > atof(m0) * 1.01);
    free(m0), free(m1), free(xml), free(dir);
    env_free(&e);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"a ledger resumed after kill -9 ends as a fresh one", test_resume_after_kill},
        {"reused rows whose figures are not a run's are refused", test_reused_rows_checked},
        {"two writers of one CSV: the second refused, every run once", test_two_writers},
        {"a run's inf where a quantity is unbounded is resumed, not refused", test_unbounded_resumed},
        {"a run whose input files changed reruns, the others are reused", test_changed_inputs_rerun},
        {"a ledger reruns the runs whose input files changed", test_ledger_changed_inputs},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("sweep_reuse", tests);
}
