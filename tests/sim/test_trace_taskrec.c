/* tests/sim/test_trace_taskrec.c — StarPU's tasks.rec as hetsim writes it
 * (sim/trace_taskrec.c): recutils' rec2csv (StarVZ's reader), librec's
 * parser and recinf read it, kernel names with line breaks and quotes
 * whole, a kernel's shell line continuations joined with a warning, and it
 * replays through the taskrec workload to the same makespan, names and
 * durations. */
#include "base/util.h"
#include "sim/trace_taskrec.h"
#include "tests/support/testing.h"

#include <math.h>
#include <rec.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SMALL_RUN "-p idgraf --gpus 2 --cpus 2 -w cholesky:n=2048,nb=512 -s dmda"

/* Run, write tasks.rec, replay it under the same options: same makespan. */
static void round_trip(const char *run, const char *replay_params)
{
    char *rec = hs_test_tmp(".rec"), args[2048];
    snprintf(args, sizeof args, "%s --tasks-rec %s", run, rec);
    cJSON *a = hs_test_run_record(args);
    const char *w = strstr(run, "-w ");
    char before[1024];
    snprintf(before, sizeof before, "%.*s", (int)(w - run), run);
    const char *after = strchr(w + 3, ' ');
    snprintf(args, sizeof args, "%s -w taskrec:file=%s%s%s", before, rec, replay_params,
             after ? after : "");
    cJSON *b = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    if (fabs(hs_test_makespan(a) - hs_test_makespan(b)) > 1e-9 * hs_test_makespan(a))
        fprintf(stderr, "\n%s: %.17g, replayed %.17g\n", run, hs_test_makespan(a), hs_test_makespan(b));
    CU_ASSERT_DOUBLE_EQUAL(hs_test_makespan(b), hs_test_makespan(a), 1e-9 * hs_test_makespan(a));
    CU_ASSERT_EQUAL(hs_test_num(cJSON_GetObjectItem(b, "results"), "tasks"),
                    hs_test_num(cJSON_GetObjectItem(a, "results"), "tasks"));
    cJSON_Delete(a);
    cJSON_Delete(b);
    unlink(rec);
    free(rec);
}

static void test_tasks_rec(void)
{
    /* StarVZ reads tasks.rec with recutils' rec2csv */
    char *rec = hs_test_tmp(".rec"), *csv = hs_test_tmp(".csv"), args[2048];
    snprintf(args, sizeof args, SMALL_RUN " --tasks-rec %s", rec);
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    snprintf(args, sizeof args, "rec2csv %s > %s", rec, csv);
    CU_ASSERT_EQUAL(system(args), 0);
    char *text = hs_test_read_file(csv);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"JobId\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"StartTime\""));
    int rows = -1; /* the header */
    for (const char *p = text; *p; p++)
        rows += *p == '\n';
    CU_ASSERT_EQUAL(rows, hs_test_num(cJSON_GetObjectItem(r, "results"), "tasks"));
    free(text);
    cJSON_Delete(r);
    unlink(rec);
    unlink(csv);
    free(rec);
    free(csv);
    /* replays: one architecture, CPUs and GPUs, data flushed or not */
    round_trip("-p flat:3 -w daggen:n=40 -s dmda", "");
    round_trip("-p flat:3 -w daggen:n=40 -s heft --no-flush", ",durations=task");
    round_trip("-p idgraf -w cholesky:n=4096,nb=512 -s dmda", "");
    round_trip("-p idgraf -w cholesky:n=4096,nb=512 -s eager --no-flush", "");
    round_trip("-p flat:4 -w stg:file=" HETSIM_SOURCE_DIR "/tests/data/stg-robot.stg -s heft", "");
}

/* Kernel names a workflow file may hold: line breaks, quotes, a line that
 * starts with '+' or '#', leading blanks, a trailing line break. */
static const char *const odd_names[] = {"multi\nline \"quoted\"", "plain", "+ plus\n+ again", "#hash\n# line",
                                        "  two blanks", "ends\n", "a 'single' \"double\" `back`"};
#define NODD ((int)(sizeof odd_names / sizeof *odd_names))

/* tasks.rec written for tasks with odd_names as kernels (task i: 1 + i
 * GFlop, so 1 + i seconds on flat:1); returns the file. */
static char *odd_names_rec(void)
{
    char *dag = hs_test_tmp(".json"), *rec = hs_test_tmp(".rec"), args[4096];
    cJSON *doc = cJSON_CreateObject(), *tasks = cJSON_CreateArray();
    cJSON_AddStringToObject(doc, "name", "odd");
    cJSON_AddItemToObject(doc, "handles", cJSON_CreateArray());
    for (int i = 0; i < NODD; i++) {
        cJSON *t = cJSON_CreateObject();
        char label[16];
        snprintf(label, sizeof label, "t%d", i);
        cJSON_AddStringToObject(t, "label", label);
        cJSON_AddStringToObject(t, "kernel", odd_names[i]);
        cJSON_AddNumberToObject(t, "flops", (1 + i) * 1e9);
        cJSON_AddItemToArray(tasks, t);
    }
    cJSON_AddItemToObject(doc, "tasks", tasks);
    char *text = cJSON_Print(doc);
    hs_test_write_file(dag, text);
    free(text);
    cJSON_Delete(doc);
    snprintf(args, sizeof args, "run -q -p flat:1 -w %s -s eager --tasks-rec %s", dag, rec);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    unlink(dag);
    free(dag);
    return rec;
}

/* The rec file holds one record set of n records whose Names are names[],
 * each with one JobId, as librec (recsel's parser) reads it; and recutils'
 * recinf counts n records, where it is installed. */
static void assert_rec_names(const char *rec, const char *const *names, int n)
{
    char *text = hs_test_read_file(rec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    rec_parser_t p = rec_parser_new_str(text, rec);
    rec_db_t db = NULL;
    CU_ASSERT_FATAL(rec_parse_db(p, &db));
    CU_ASSERT_EQUAL_FATAL(rec_db_size(db), 1);
    rec_rset_t rset = rec_db_get_rset(db, 0);
    CU_ASSERT_EQUAL(rec_rset_num_records(rset), (size_t)n);
    rec_mset_iterator_t it = rec_mset_iterator(rec_rset_mset(rset));
    const void *r;
    for (int i = 0; rec_mset_iterator_next(&it, MSET_RECORD, &r, NULL) && i < n; i++) {
        rec_field_t name = rec_record_get_field_by_name((rec_record_t)r, "Name", 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(name);
        CU_ASSERT_STRING_EQUAL(rec_field_value(name), names[i]);
        CU_ASSERT_EQUAL(rec_record_get_num_fields_by_name((rec_record_t)r, "JobId"), 1);
    }
    rec_mset_iterator_free(&it);
    rec_db_destroy(db);
    rec_parser_destroy(p);
    free(text);
    if (system("command -v recinf > /dev/null 2>&1") == 0) {
        char args[2048], *count = hs_test_tmp(".txt");
        snprintf(args, sizeof args, "recinf %s > %s", rec, count);
        CU_ASSERT_EQUAL(system(args), 0);
        text = hs_test_read_file(count);
        CU_ASSERT_EQUAL(atoi(text), n);
        free(text);
        unlink(count);
        free(count);
    } else
        fprintf(stderr, "  (recinf not installed: recutils' own count skipped)\n");
}

/* librec itself (recsel's parser) reads one record per task, each Name whole. */
static void test_tasks_rec_librec_reads_it(void)
{
    char *rec = odd_names_rec();
    assert_rec_names(rec, odd_names, NODD);
    unlink(rec);
    free(rec);
}

/* hetsim reads back what it wrote: the same tasks, kernel names and durations. */
static void test_tasks_rec_round_trip_names(void)
{
    char *rec = odd_names_rec(), *back = hs_test_tmp(".json"), args[4096], *out = NULL;
    snprintf(args, sizeof args, "dag taskrec:file=%s,durations=task --format json -o %s", rec, back);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, &out, NULL), 0);
    free(out);
    char *text = hs_test_read_file(back);
    cJSON *doc = cJSON_Parse(text), *tasks = cJSON_GetObjectItem(doc, "tasks");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(tasks), NODD);
    for (int i = 0; i < NODD; i++) {
        const cJSON *t = cJSON_GetArrayItem(tasks, i);
        CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(t, "kernel")), odd_names[i]);
        /* 1 + i GFlop at flat:1's 1 GFlop/s, one after the other */
        CU_ASSERT_DOUBLE_EQUAL(hs_test_num(cJSON_GetObjectItem(t, "costs"), "cpu"), 1 + i, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(hs_test_num(t, "flops"), (1 + i) * 1e9, 1);
    }
    cJSON_Delete(doc);
    free(text);
    unlink(rec), unlink(back);
    free(rec), free(back);
}

/* A workflow whose tasks are named by shell commands with line
 * continuations (as WfCommons' nf-core sarek instance is): WfFormat 1.5
 * with category "gatk4 \<LF>  --java-options -Xmx4g \<LF>  MarkDuplicates"
 * on one task, a continuation at the name's end on another, and a plain one.
 * The run is not refused: one warning naming the file, the first such task
 * and the joined name; the tasks.rec holds the names joined as the shell
 * joins them, which librec, recinf and hetsim's own reader read back. */
static const char *const sarek_names[] = {"gatk4 \\\n  --java-options -Xmx4g \\\n  MarkDuplicates",
                                          "samtools \\\n  index\\", "fastqc"};
static const char *const sarek_joined[] = {"gatk4   --java-options -Xmx4g   MarkDuplicates", "samtools   index",
                                           "fastqc"};

static char *sarek_like_json(void)
{
    cJSON *doc = cJSON_CreateObject(), *wf = cJSON_CreateObject(), *spec = cJSON_CreateObject();
    cJSON *tasks = cJSON_CreateArray(), *exec = cJSON_CreateObject(), *etasks = cJSON_CreateArray();
    cJSON_AddStringToObject(doc, "name", "sarek-like");
    cJSON_AddStringToObject(doc, "schemaVersion", "1.5");
    for (int i = 0; i < 3; i++) {
        char id[16];
        snprintf(id, sizeof id, "t%d", i);
        cJSON *t = cJSON_CreateObject(), *e = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "name", id);
        cJSON_AddStringToObject(t, "id", id);
        cJSON_AddStringToObject(t, "category", sarek_names[i]);
        cJSON_AddItemToObject(t, "parents", cJSON_CreateArray());
        cJSON_AddItemToObject(t, "children", cJSON_CreateArray());
        cJSON_AddItemToArray(tasks, t);
        cJSON_AddStringToObject(e, "id", id);
        cJSON_AddNumberToObject(e, "runtimeInSeconds", 1 + i);
        cJSON_AddItemToArray(etasks, e);
    }
    cJSON_AddItemToObject(spec, "tasks", tasks);
    cJSON_AddItemToObject(spec, "files", cJSON_CreateArray());
    cJSON_AddItemToObject(wf, "specification", spec);
    cJSON_AddItemToObject(exec, "tasks", etasks);
    cJSON_AddItemToObject(wf, "execution", exec);
    cJSON_AddItemToObject(doc, "workflow", wf);
    char *path = hs_test_tmp(".json"), *text = cJSON_Print(doc);
    hs_test_write_file(path, text);
    free(text);
    cJSON_Delete(doc);
    return path;
}

static void test_tasks_rec_shell_continuations(void)
{
    char *dag = sarek_like_json(), *rec = hs_test_tmp(".rec"), *out = hs_test_tmp(".json"), *err = NULL;
    char args[4096];
    snprintf(args, sizeof args, "run -q -p flat:1 -w %s -s eager --tasks-rec %s -o %s", dag, rec, out);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, &err), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    char expect[1024];
    snprintf(expect, sizeof expect, "hetsim: warning: %s: DAG sarek-like, task t0: its kernel "
             "\"gatk4 \\\\\\n  --java-options -Xmx4g \\\\\\n  MarkDuplicates\" has lines ending with a backslash", rec);
    if (!strstr(err, expect))
        fprintf(stderr, "\nstderr: %s\nexpected: %s\n", err, expect);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, expect));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "written joined as the shell joins them, "
                                       "\"gatk4   --java-options -Xmx4g   MarkDuplicates\" (and 1 other kernel alike)\n"));
    CU_ASSERT_EQUAL(hs_test_count_lines(err), 1); /* one warning */
    free(err);
    /* librec reads each Name joined, one record per task; recinf counts three */
    assert_rec_names(rec, sarek_joined, 3);
    /* hetsim's reader: the three tasks, the joined names, 1, 2, 3 s */
    char *back = hs_test_tmp(".json"), *o = NULL;
    snprintf(args, sizeof args, "dag taskrec:file=%s,durations=task --format json -o %s", rec, back);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, &o, NULL), 0);
    free(o);
    char *text = hs_test_read_file(back);
    cJSON *doc = cJSON_Parse(text), *tasks = cJSON_GetObjectItem(doc, "tasks");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(tasks), 3);
    for (int i = 0; i < 3; i++) {
        const cJSON *t = cJSON_GetArrayItem(tasks, i);
        CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(t, "kernel")), sarek_joined[i]);
        CU_ASSERT_DOUBLE_EQUAL(hs_test_num(cJSON_GetObjectItem(t, "costs"), "cpu"), 1 + i, 1e-9);
    }
    cJSON_Delete(doc);
    free(text);
    unlink(dag), unlink(rec), unlink(out), unlink(back);
    free(dag), free(rec), free(out), free(back);
}

/* The name written, backslash by backslash: a backslash inside a line is
 * kept (rec continues only a line that ends with one); at a line's end it
 * goes with its line break, at the name's end alone; an escaped backslash
 * before a line break keeps one backslash, no longer at a line's end. */
static void test_tasks_rec_names_joined(void)
{
    static const struct {
        const char *kernel, *written;
    } names[] = {{"a\\b", "a\\b"},   {"a\\ \nb", "a\\ \nb"}, {"\\x", "\\x"},        {"x\\", "x"},
                 {"x\\\ny", "xy"},   {"x\ny\\", "x\ny"},     {"a\\\\\nb", "a\\b"}, {"a\\\\\n", "a"},
                 {"plain", "plain"}, {"\\\n\\\n", ""}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char *w = hs_trace_taskrec_name(names[i].kernel);
        CU_ASSERT_STRING_EQUAL(w, names[i].written);
        free(w);
    }
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"tasks.rec: rec2csv reads it, it replays", test_tasks_rec},
        {"tasks.rec: librec and recinf read one record per task, names whole", test_tasks_rec_librec_reads_it},
        {"tasks.rec: names with line breaks and quotes read back, durations too", test_tasks_rec_round_trip_names},
        {"tasks.rec: a workflow's shell line continuations joined, one warning, read back",
         test_tasks_rec_shell_continuations},
        {"tasks.rec: names with backslashes at a line's end, as written", test_tasks_rec_names_joined},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("trace_taskrec", tests);
}
