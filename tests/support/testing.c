/* tests/support/testing.c — helpers shared by the CUnit tests: the suite's
 * main, the hetsim command as a subprocess, files (simulations in a child
 * process are in testing_sim.c). */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _XOPEN_SOURCE 700 /* nftw */
#include "analysis/csv.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef HETSIM_SOURCE_DIR
#error "HETSIM_SOURCE_DIR must be defined"
#endif
#ifndef HETSIM_BIN
#error "HETSIM_BIN must be defined"
#endif

static char tmp_dir[256]; /* hs_test_tmp's folder, made on first use */

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

/* A passing suite leaves nothing in /tmp; a failing one keeps its files
 * for a look and says where they are. */
static void tidy_tmp_dir(unsigned failed)
{
    if (!tmp_dir[0])
        return;
    if (failed)
        fprintf(stderr, "test files kept in %s\n", tmp_dir);
    else
        nftw(tmp_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int hs_test_main(const char *suite, const CU_TestInfo *tests)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_SuiteInfo suites[] = {{(char *)suite, NULL, NULL, NULL, NULL, (CU_TestInfo *)tests},
                             CU_SUITE_INFO_NULL};
    if (CU_register_suites(suites) != CUE_SUCCESS)
        return 1;
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    tidy_tmp_dir(failed);
    return failed ? 1 : 0;
}

const char *hs_test_data(const char *relative)
{
    static char buf[4][1024];
    static int slot;
    slot = (slot + 1) % 4;
    snprintf(buf[slot], sizeof buf[slot], "%s/platforms/%s", HETSIM_SOURCE_DIR, relative);
    return buf[slot];
}

const char *hs_test_datafile(const char *name)
{
    static char buf[4][1024];
    static int slot;
    slot = (slot + 1) % 4;
    snprintf(buf[slot], sizeof buf[slot], "%s/tests/data/%s", HETSIM_SOURCE_DIR, name);
    return buf[slot];
}

cJSON *hs_test_read_json(const char *path)
{
    char *text = hs_test_read_file(path);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    free(text);
    return j;
}

char *hs_test_read_fd(int fd)
{
    size_t len = 0, cap = 65536;
    char *buf = hs_xmalloc(cap);
    ssize_t r;
    while ((r = read(fd, buf + len, cap - len - 1)) > 0) {
        len += (size_t)r;
        if (cap - len < 4096)
            buf = hs_xrealloc(buf, cap *= 2);
    }
    buf[len] = '\0';
    return buf;
}

int hs_test_cli(const char *args, char **out, char **err)
{
    char *o = hs_test_tmp(".out"), *e = hs_test_tmp(".err");
    char cmd[8192];
    const char *bin = getenv("HETSIM_TEST_BIN"); /* e.g. a deployed hetsim-cuda on a GPU node */
    snprintf(cmd, sizeof cmd, "%s %s >%s 2>%s </dev/null", bin ? bin : HETSIM_BIN, args, o, e);
    int status = system(cmd);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    char *so = hs_test_read_file(o), *se = hs_test_read_file(e);
    unlink(o);
    unlink(e);
    free(o);
    free(e);
    if (out)
        *out = so;
    else
        free(so);
    if (err)
        *err = se;
    else
        free(se);
    return rc;
}

double hs_test_num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    CU_ASSERT_TRUE(cJSON_IsNumber(v));
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const cJSON *hs_test_item(const cJSON *o, const char *key, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(o, key), i);
}

double hs_test_makespan(const cJSON *rec)
{
    return hs_test_num(cJSON_GetObjectItemCaseSensitive(rec, "results"), "makespan");
}

int hs_test_count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

int hs_test_lines_of(const char *path)
{
    char *text = hs_test_read_file(path);
    int n = hs_test_count_lines(text);
    free(text);
    return n;
}

void hs_test_bad_cli(const char *args, const char *expect)
{
    char *err;
    int rc = hs_test_cli(args, NULL, &err), lines = hs_test_count_lines(err);
    if (rc != 2 || lines != 1 || !strstr(err, expect))
        fprintf(stderr, "\n`hetsim %s` -> %d: %s(expected: %s)\n", args, rc, err, expect);
    CU_ASSERT_EQUAL(rc, 2);
    CU_ASSERT_EQUAL(lines, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, expect));
    CU_ASSERT_PTR_NULL(strstr(err, "backtrace")); /* never SimGrid's */
    free(err);
}

int hs_test_sh(const char *dir, const char *command, char **out)
{
    char *o = hs_test_tmp(".out");
    size_t size = strlen(command) + strlen(dir ? dir : ".") + strlen(o) + 64;
    char *cmd = hs_xmalloc(size);
    /* a subshell, so that the command's own redirections and && chains stay its own */
    snprintf(cmd, size, "cd '%s' && ( %s\n) >%s 2>&1 </dev/null", dir ? dir : ".", command, o);
    int status = system(cmd);
    free(cmd);
    char *text = hs_test_read_file(o);
    unlink(o);
    free(o);
    if (out)
        *out = text;
    else
        free(text);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

cJSON *hs_test_run_record(const char *args)
{
    char *rec = hs_test_tmp(".json"), cmd[4096];
    snprintf(cmd, sizeof cmd, "run -q %s -o %s", args, rec);
    char *err;
    int rc = hs_test_cli(cmd, NULL, &err);
    if (rc)
        fprintf(stderr, "\n`hetsim %s` -> %d: %s", cmd, rc, err);
    CU_ASSERT_EQUAL(rc, 0);
    free(err);
    char *text = hs_test_read_file(rec);
    cJSON *r = cJSON_Parse(text);
    free(text);
    unlink(rec);
    free(rec);
    return r;
}

char *hs_test_quick_study(const char *name, long *rows)
{
    char *dir = hs_test_tmp(""), cmd[1024], *out;
    snprintf(cmd, sizeof cmd, "reproduce %s --quick -j 2 -o %s", name, dir); /* its tables: no -q */
    time_t t0 = time(NULL);
    int rc = hs_test_cli(cmd, &out, NULL);
    if (rc)
        fprintf(stderr, "\n`hetsim %s` -> %d\n", cmd, rc);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT(time(NULL) - t0 < 60);
    snprintf(cmd, sizeof cmd, "%s/results.csv", dir);
    struct hs_csv csv;
    *rows = 0;
    if (hs_csv_read(cmd, &csv) == 0) {
        int st = hs_csv_col(&csv, "status");
        CU_ASSERT(st >= 0);
        for (long r = 0; st >= 0 && r < csv.nrows; r++)
            CU_ASSERT_STRING_EQUAL(csv.rows[r][st], "ok");
        *rows = csv.nrows;
        hs_csv_free(&csv);
    } else {
        CU_FAIL("no results.csv");
    }
    free(dir);
    return out;
}

char *hs_test_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return hs_xstrdup("");
    char *buf = hs_test_read_fd(fileno(f));
    fclose(f);
    return buf;
}

char *hs_test_doc_text(const char *doc)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", HETSIM_SOURCE_DIR, doc);
    char *text = hs_test_read_file(path), *w = text;
    CU_ASSERT_FATAL(text[0] != '\0');
    for (const char *r = text; *r; r++) {
        bool blank = *r == ' ' || *r == '\n' || *r == '\t';
        if (!blank || (w > text && w[-1] != ' '))
            *w++ = blank ? ' ' : *r;
    }
    *w = '\0';
    return text;
}

void hs_test_doc_quotes(const char *doc, const char *phrase)
{
    char *text = hs_test_doc_text(doc);
    bool found = strstr(text, phrase) != NULL;
    if (!found)
        fprintf(stderr, "\n%s does not say \"%s\" (what this build gives): rerun its command and fix the page\n",
                doc, phrase);
    CU_ASSERT(found);
    free(text);
}

char *hs_test_tmp_text(const char *suffix, const char *text)
{
    char *path = hs_test_tmp(suffix);
    hs_test_write_file(path, text);
    return path;
}

char *hs_test_tmp(const char *suffix)
{
    char *dir = tmp_dir;
    static int counter;
    if (!dir[0]) {
        snprintf(dir, sizeof tmp_dir, "%s/hetsim-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            exit(1);
        }
    }
    char *path = hs_xmalloc(strlen(dir) + 64);
    sprintf(path, "%s/f%d-%d%s", dir, (int)getpid(), counter++, suffix);
    return path;
}

char *hs_test_tmp_dir(const char *suffix)
{
    char *dir = hs_test_tmp(suffix);
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0755), 0);
    return dir;
}

void hs_test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    fclose(f);
}

int hs_test_task(struct hs_dag *dag, const char *label, const double *costs, int nworkers)
{
    int t = hs_dag_add_task(dag, "k", label, 0, 0);
    hs_dag_set_proc_costs(dag, t, costs, nworkers);
    return t;
}

int hs_test_task_named(const struct hs_dag *dag, const char *label)
{
    for (int i = 0; i < dag->ntasks; i++)
        if (strcmp(dag->tasks[i].label, label) == 0)
            return i;
    return -1;
}

int hs_test_handle_named(const struct hs_dag *dag, const char *name)
{
    for (int h = 0; h < dag->nhandles; h++)
        if (strcmp(dag->handles[h].name, name) == 0)
            return h;
    return -1;
}

/* Bytes of the dependency between two labelled tasks, -1 if none. */
double hs_test_dep_bytes(const struct hs_dag *dag, const char *src, const char *dst)
{
    int s = hs_test_task_named(dag, src), d = hs_test_task_named(dag, dst);
    for (int e = 0; e < dag->nedges; e++)
        if (dag->edges[e].src == s && dag->edges[e].dst == d)
            return dag->edges[e].bytes;
    return -1;
}
