/* tests/workloads/test_formats_out.c — what hetsim writes for other tools, and
 * other tools' platform files:
 *   - the Chrome trace-event JSON: a track per worker and per copy stream, a
 *     slice per task, each transfer a slice on both ends and a flow;
 *   - StarPU's tasks.rec: recutils' rec2csv (StarVZ's reader), librec's
 *     parser and recinf read it, kernel names with line breaks and quotes
 *     whole, and it replays through the taskrec workload to the same
 *     makespan, names and durations;
 *   - the Paje trace, read by PajeNG's pj_dump: one state per task on its
 *     worker, as long as the record says;
 *   - StarPU's Idgraf and sirocco platform files and SimGrid's example
 *     platform with a host map, as they are. */
#include "base/util.h"
#include "sim/trace_taskrec.h"
#include "tests/support/testing.h"

#include <math.h>
#include <rec.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static double makespan(const cJSON *r)
{
    return num(cJSON_GetObjectItem(r, "results"), "makespan");
}

#define SMALL_RUN "-p idgraf --gpus 2 --cpus 2 -w cholesky:n=2048,nb=512 -s dmda"

/* Is t inside a complete slice of track (pid, tid)? */
static bool inside_slice(const cJSON *events, double pid, double tid, double t)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, events)
    {
        const cJSON *ph = cJSON_GetObjectItem(e, "ph");
        if (strcmp(ph->valuestring, "X") == 0 && num(e, "pid") == pid && num(e, "tid") == tid &&
            t >= num(e, "ts") && t <= num(e, "ts") + num(e, "dur"))
            return true;
    }
    return false;
}

static void test_chrome_trace(void)
{
    char *trace = hs_test_tmp(".json"), args[1024];
    snprintf(args, sizeof args, SMALL_RUN " --chrome-trace %s", trace);
    cJSON *r = hs_test_run_record(args);
    char *text = hs_test_read_file(trace);
    cJSON *doc = cJSON_Parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    const cJSON *events = cJSON_GetObjectItem(doc, "traceEvents"), *e;
    CU_ASSERT_FATAL(cJSON_IsArray(events));
    int threads = 0, slices = 0, starts = 0, finishes = 0, unbound = 0;
    double last_end = 0;
    cJSON_ArrayForEach(e, events)
    {
        const char *ph = cJSON_GetObjectItem(e, "ph")->valuestring;
        double pid = num(e, "pid");
        if (strcmp(ph, "M") == 0 && pid == 1 && cJSON_GetObjectItem(e, "tid"))
            threads++;
        if (strcmp(ph, "X") == 0 && pid == 1) {
            slices++;
            CU_ASSERT(num(e, "dur") >= 0);
            last_end = fmax(last_end, num(e, "ts") + num(e, "dur"));
        }
        if (strcmp(ph, "s") == 0 || strcmp(ph, "f") == 0) {
            if (ph[0] == 's')
                starts++;
            else
                finishes++;
            unbound += !inside_slice(events, pid, num(e, "tid"), num(e, "ts"));
        }
    }
    const cJSON *res = cJSON_GetObjectItem(r, "results"), *n = cJSON_GetObjectItem(res, "transfers");
    CU_ASSERT_EQUAL(threads, cJSON_GetArraySize(cJSON_GetObjectItem(r, "workers")));
    CU_ASSERT_EQUAL(slices, num(res, "tasks"));
    CU_ASSERT_EQUAL(starts, num(n, "h2d") + num(n, "d2h") + num(n, "p2p"));
    CU_ASSERT_EQUAL(finishes, starts);
    CU_ASSERT_EQUAL(unbound, 0); /* every flow end lies in a transfer slice */
    CU_ASSERT(last_end <= makespan(r) * 1e6 * (1 + 1e-12));
    cJSON_Delete(doc);
    cJSON_Delete(r);
    free(text);
    unlink(trace);
    free(trace);
}

/* A complete slice as Perfetto's JSON importer reads it: ts and dur in
 * microseconds, each times 1000 truncated to whole nanoseconds. */
struct read_slice {
    double pid, tid;
    long long start, end;
};

static int by_track_start(const void *a, const void *b)
{
    const struct read_slice *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* The slices of every track nest: none partly overlaps the next one of its
 * track (read as Perfetto reads them); returns how many do. */
static int partial_overlaps(const cJSON *events, int *nslices)
{
    int n = cJSON_GetArraySize(events), k = 0, bad = 0;
    struct read_slice *s = hs_xcalloc((size_t)n + 1, sizeof *s);
    const cJSON *e;
    cJSON_ArrayForEach(e, events)
    {
        if (strcmp(cJSON_GetObjectItem(e, "ph")->valuestring, "X") != 0)
            continue;
        long long start = (long long)(num(e, "ts") * 1000.0), dur = (long long)(num(e, "dur") * 1000.0);
        s[k++] = (struct read_slice){num(e, "pid"), num(e, "tid"), start, start + dur};
    }
    qsort(s, (size_t)k, sizeof *s, by_track_start);
    for (int i = 1; i < k; i++)
        if (s[i].pid == s[i - 1].pid && s[i].tid == s[i - 1].tid && s[i].start < s[i - 1].end &&
            s[i].end > s[i - 1].end) /* starts inside the previous one, ends after it */
            bad++;
    free(s);
    *nslices = k;
    return bad;
}

/* Copies run concurrently on one node (RAM feeding 8 GPUs): each gets a lane
 * of its own, and back-to-back tasks of a worker do not overlap by rounding
 * (before: 133 partly overlapping slices in this run, all of copies). */
static void test_chrome_trace_nests(void)
{
    char *trace = hs_test_tmp(".json"), args[1024];
    snprintf(args, sizeof args, "-p idgraf -w cholesky:n=4096,nb=512 -s dmda --chrome-trace %s", trace);
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    char *text = hs_test_read_file(trace);
    cJSON *doc = cJSON_Parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    const cJSON *events = cJSON_GetObjectItem(doc, "traceEvents"), *e;
    int slices = 0, lanes = 0;
    CU_ASSERT_EQUAL(partial_overlaps(events, &slices), 0);
    const cJSON *res = cJSON_GetObjectItem(r, "results"), *n = cJSON_GetObjectItem(res, "transfers");
    double copies = num(n, "h2d") + num(n, "d2h") + num(n, "p2p");
    CU_ASSERT(copies > 0);
    CU_ASSERT_EQUAL(slices, num(res, "tasks") + 2 * copies);
    cJSON_ArrayForEach(e, events) /* concurrent copies did take second lanes */
    {
        const cJSON *args_ = cJSON_GetObjectItem(e, "args"), *name = cJSON_GetObjectItem(args_, "name");
        lanes += strcmp(cJSON_GetObjectItem(e, "ph")->valuestring, "M") == 0 && cJSON_IsString(name) &&
                 strstr(name->valuestring, "host out #2") != NULL;
    }
    CU_ASSERT_EQUAL(lanes, 1);
    cJSON_Delete(doc);
    cJSON_Delete(r);
    free(text);
    unlink(trace);
    free(trace);
}

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
    if (fabs(makespan(a) - makespan(b)) > 1e-9 * makespan(a))
        fprintf(stderr, "\n%s: %.17g, replayed %.17g\n", run, makespan(a), makespan(b));
    CU_ASSERT_DOUBLE_EQUAL(makespan(b), makespan(a), 1e-9 * makespan(a));
    CU_ASSERT_EQUAL(num(cJSON_GetObjectItem(b, "results"), "tasks"),
                    num(cJSON_GetObjectItem(a, "results"), "tasks"));
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
    CU_ASSERT_EQUAL(rows, num(cJSON_GetObjectItem(r, "results"), "tasks"));
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

/* librec itself (recsel's parser) reads one record per task, each Name whole. */
static void test_tasks_rec_librec_reads_it(void)
{
    char *rec = odd_names_rec(), *text = hs_test_read_file(rec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    rec_parser_t p = rec_parser_new_str(text, rec);
    rec_db_t db = NULL;
    CU_ASSERT_FATAL(rec_parse_db(p, &db));
    CU_ASSERT_EQUAL_FATAL(rec_db_size(db), 1);
    rec_rset_t rset = rec_db_get_rset(db, 0);
    CU_ASSERT_EQUAL(rec_rset_num_records(rset), NODD);
    rec_mset_iterator_t it = rec_mset_iterator(rec_rset_mset(rset));
    const void *r;
    for (int i = 0; rec_mset_iterator_next(&it, MSET_RECORD, &r, NULL) && i < NODD; i++) {
        rec_field_t name = rec_record_get_field_by_name((rec_record_t)r, "Name", 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(name);
        CU_ASSERT_STRING_EQUAL(rec_field_value(name), odd_names[i]);
        CU_ASSERT_EQUAL(rec_record_get_num_fields_by_name((rec_record_t)r, "JobId"), 1);
    }
    rec_mset_iterator_free(&it);
    rec_db_destroy(db);
    rec_parser_destroy(p);
    free(text);
    /* and recutils' recinf counts them, where it is installed */
    if (system("command -v recinf > /dev/null 2>&1") == 0) {
        char args[2048], *count = hs_test_tmp(".txt");
        snprintf(args, sizeof args, "recinf %s > %s", rec, count);
        CU_ASSERT_EQUAL(system(args), 0);
        text = hs_test_read_file(count);
        CU_ASSERT_EQUAL(atoi(text), NODD);
        free(text);
        unlink(count);
        free(count);
    } else
        fprintf(stderr, "  (recinf not installed: recutils' own count skipped)\n");
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
        CU_ASSERT_DOUBLE_EQUAL(num(cJSON_GetObjectItem(t, "costs"), "cpu"), 1 + i, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(num(t, "flops"), (1 + i) * 1e9, 1);
    }
    cJSON_Delete(doc);
    free(text);
    unlink(rec), unlink(back);
    free(rec), free(back);
}

/* A kernel a rec file cannot hold (a line ending with a backslash, which
 * rec readers join to the next line) is refused before the run, with exit 2
 * and one line naming the file, the DAG and the kernel (its line break
 * written as \n), not written as another and not after simulating. */
static void test_tasks_rec_backslash_refused(void)
{
    char *dag = hs_test_tmp_text(".json", "{\"name\": \"b\", \"handles\": [], \"tasks\": ["
                                          "{\"label\": \"a\", \"kernel\": \"fine\", \"flops\": 1e9},"
                                          "{\"label\": \"c\", \"kernel\": \"one\\\\\\nend\", \"flops\": 1e9}]}");
    char *rec = hs_test_tmp(".rec"), *out = hs_test_tmp(".json"), args[2048], expect[2048];
    snprintf(args, sizeof args, "run -q -p flat:1 -w %s -s eager --tasks-rec %s -o %s", dag, rec, out);
    snprintf(expect, sizeof expect, "%s: DAG b, kernel \"one\\\\\\nend\": a line of it ends with a backslash, "
             "which a rec file cannot hold", rec);
    hs_test_bad_cli(args, expect);
    CU_ASSERT(access(rec, F_OK) != 0);
    CU_ASSERT(access(out, F_OK) != 0); /* no record: nothing ran */
    unlink(dag);
    free(dag), free(rec), free(out);
}

/* The check itself, once per kernel: a backslash inside a line is kept
 * (rec continues only a line that ends with one), at a line's end or the
 * name's end it is refused. */
static void test_tasks_rec_check_names(void)
{
    static const struct {
        const char *kernel;
        int refused;
    } names[] = {{"a\\b", 0}, {"a\\ \nb", 0}, {"\\x", 0}, {"x\\", 1}, {"x\\\ny", 1}, {"x\ny\\", 1}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        struct hs_dag *d = hs_dag_new("names");
        hs_dag_add_task(d, "plain", "p", 1, 0);
        hs_dag_add_task(d, names[i].kernel, "t", 1, 0);
        CU_ASSERT_EQUAL(hs_trace_taskrec_check(d), names[i].refused ? -1 : 0);
        if (names[i].refused) {
            CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "a line of it ends with a backslash"));
            CU_ASSERT_PTR_NULL(strchr(hs_last_error(), '\n')); /* one line */
        }
        hs_dag_free(d);
    }
}

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
        CU_ASSERT_EQUAL(states, num(w, "tasks"));
        CU_ASSERT_DOUBLE_EQUAL(busy, num(w, "busy"), 1e-6 * (states + 1));
    }
    free(text);
    cJSON_Delete(r);
    unlink(trace);
    unlink(dump);
    free(trace);
    free(dump);
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
    CU_ASSERT_DOUBLE_EQUAL(makespan(a), makespan(b), 0.02 * makespan(b));
    cJSON_Delete(a);
    cJSON_Delete(b);
    snprintf(args, sizeof args, "-p %s --perf idgraf -w cholesky:n=4096,nb=512 -s dmda",
             hs_test_datafile("starpu-sirocco.platform.v4.xml"));
    a = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL(num(cJSON_GetObjectItem(a, "inputs"), "gpus"), 4);
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
    CU_ASSERT_EQUAL(num(cJSON_GetObjectItem(r, "results"), "tasks"), 5);
    /* c2's 5 Gflop at 137.3 Mflop/s, the fastest host, is a lower bound */
    CU_ASSERT(makespan(r) >= 5e9 / 137.333e6);
    cJSON_Delete(r);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"Chrome trace-event JSON", test_chrome_trace},
        {"Chrome trace: the slices of every track nest", test_chrome_trace_nests},
        {"tasks.rec: rec2csv reads it, it replays", test_tasks_rec},
        {"tasks.rec: librec and recinf read one record per task, names whole", test_tasks_rec_librec_reads_it},
        {"tasks.rec: names with line breaks and quotes read back, durations too", test_tasks_rec_round_trip_names},
        {"tasks.rec: a kernel whose line ends with a backslash is refused before the run", test_tasks_rec_backslash_refused},
        {"tasks.rec: the check of kernel names, backslash by backslash", test_tasks_rec_check_names},
        {"Paje trace read by pj_dump", test_paje_pj_dump},
        {"Paje trace of a <cluster> platform, without its topology", test_paje_cluster},
        {"Paje trace refuses ids it cannot hold", test_paje_unsafe_id},
        {"StarPU's Idgraf and sirocco platforms", test_starpu_platforms},
        {"SimGrid's small_platform with a host map", test_simgrid_platform},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("formats_out", tests);
}
