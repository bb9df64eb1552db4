/* cli/cmd_compare.c — `hetsim compare SIM.json REAL.json`: how far a
 * simulation is from a measured run (or any two run records): makespan
 * error, mean kernel time per (kernel, architecture) error (from the records'
 * events, see `hetsim run --events`), data moved and transfer counts per
 * direction, per-worker busy time. A measured record's CPU tasks also have
 * their core time (the CPU time their thread had: wall time less what other
 * processes took of the core; a simulated task's is its duration), compared
 * per kernel and per worker too: a kernel that drifts in wall time but not in
 * core time lost its core to other processes. Errors are (first - second) /
 * second. */
#include "base/buf.h"
#include "base/inputfile.h"
#include "cli/cli.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What of a run record the comparison reads, each of the type hetsim writes
 * (a record edited or written elsewhere): the first field that is not, or
 * NULL. results.makespan a number; workers[] objects with a string name and
 * arch; events, when there, an object whose tasks[] are objects with a
 * string kernel and worker and numbers start and end. */
static const char *record_flaw(const cJSON *r)
{
    const cJSON *res = cJSON_GetObjectItem(r, "results"), *x;
    if (!cJSON_IsObject(res))
        return "results";
    if (!cJSON_IsNumber(cJSON_GetObjectItem(res, "makespan")))
        return "results.makespan";
    const cJSON *workers = cJSON_GetObjectItem(r, "workers");
    if (workers && !cJSON_IsArray(workers))
        return "workers";
    cJSON_ArrayForEach(x, workers)
    if (!cJSON_IsString(cJSON_GetObjectItem(x, "name")) || !cJSON_IsString(cJSON_GetObjectItem(x, "arch")))
        return "workers[].name and arch";
    const cJSON *events = cJSON_GetObjectItem(r, "events");
    if (!events)
        return NULL;
    const cJSON *tasks = cJSON_GetObjectItem(events, "tasks");
    if (!cJSON_IsObject(events) || !cJSON_IsArray(tasks))
        return "events.tasks";
    cJSON_ArrayForEach(x, tasks)
    if (!cJSON_IsString(cJSON_GetObjectItem(x, "kernel")) || !cJSON_IsString(cJSON_GetObjectItem(x, "worker")) ||
        !cJSON_IsNumber(cJSON_GetObjectItem(x, "start")) || !cJSON_IsNumber(cJSON_GetObjectItem(x, "end")))
        return "events.tasks[].kernel, worker, start and end";
    return NULL;
}

static cJSON *load(const char *path)
{
    struct hs_buf b = {0};
    if (hs_buf_read_file(&b, path))
        hs_die(HS_EXIT_USAGE, "compare: %s", hs_last_error());
    char err[1024];
    if (hs_input_no_nul(path, hs_buf_str(&b), b.len, err, sizeof err))
        hs_die(HS_EXIT_USAGE, "compare: %s", err);
    cJSON *r = cJSON_Parse(hs_buf_str(&b));
    hs_buf_free(&b);
    if (!r || !cJSON_IsObject(cJSON_GetObjectItem(r, "results")))
        hs_die(HS_EXIT_USAGE, "compare: %s is not a run record (hetsim run -o FILE)", path);
    const char *flaw = record_flaw(r);
    if (flaw)
        hs_die(HS_EXIT_USAGE, "compare: %s: field %s is missing or not what hetsim run writes", path, flaw);
    return r;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void row(const char *what, double a, double b)
{
    double err = b != 0 ? 100 * (a - b) / b : (a == 0 ? 0 : NAN);
    printf("  %-28s %14.6g %14.6g %9.2f%%\n", what, a, b, err);
}

static const char *arch_of(const cJSON *rec, const char *worker)
{
    const cJSON *w;
    cJSON_ArrayForEach(w, cJSON_GetObjectItem(rec, "workers"))
    {
        const cJSON *name = cJSON_GetObjectItem(w, "name");
        if (cJSON_IsString(name) && strcmp(name->valuestring, worker) == 0)
            return cJSON_GetObjectItem(w, "arch")->valuestring;
    }
    return "?";
}

/* A task's time: its core time when asked and recorded, else its duration. */
static double task_time(const cJSON *t, bool core)
{
    const cJSON *c = cJSON_GetObjectItem(t, "core_time");
    return core && cJSON_IsNumber(c) ? c->valuedouble : num(t, "end") - num(t, "start");
}

static const cJSON *task_events(const cJSON *rec)
{
    return cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "events"), "tasks");
}

static bool has_core_times(const cJSON *rec)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, task_events(rec))
    if (cJSON_GetObjectItem(t, "core_time"))
        return true;
    return false;
}

/* Mean time of the tasks of `kernel` run on `arch` (NAN if none). */
static double kernel_mean(const cJSON *rec, const char *kernel, const char *arch, bool core)
{
    double sum = 0;
    int n = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, task_events(rec))
    {
        const cJSON *k = cJSON_GetObjectItem(t, "kernel"), *w = cJSON_GetObjectItem(t, "worker");
        if (!cJSON_IsString(k) || !cJSON_IsString(w) || strcmp(k->valuestring, kernel) ||
            strcmp(arch_of(rec, w->valuestring), arch))
            continue;
        sum += task_time(t, core);
        n++;
    }
    return n ? sum / n : NAN;
}

static void compare_kernels(const cJSON *a, const cJSON *b)
{
    if (!task_events(a) || !task_events(b)) {
        printf("  (no events in the records: run both with --events for per-kernel times)\n");
        return;
    }
    bool core = has_core_times(a) || has_core_times(b);
    char seen[64][48];
    int nseen = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, task_events(a))
    {
        char key[48];
        const cJSON *w = cJSON_GetObjectItem(t, "worker");
        snprintf(key, sizeof key, "%s on %s", cJSON_GetObjectItem(t, "kernel")->valuestring,
                 arch_of(a, cJSON_IsString(w) ? w->valuestring : ""));
        bool dup = false;
        for (int i = 0; i < nseen && !dup; i++)
            dup = strcmp(seen[i], key) == 0;
        if (dup || nseen == 64)
            continue;
        snprintf(seen[nseen++], sizeof seen[0], "%s", key);
        const char *kernel = cJSON_GetObjectItem(t, "kernel")->valuestring;
        const char *arch = arch_of(a, w->valuestring);
        char label[64];
        snprintf(label, sizeof label, "mean %s (s)", key);
        row(label, kernel_mean(a, kernel, arch, false), kernel_mean(b, kernel, arch, false));
        if (core && strcmp(arch, "cpu") == 0)
            row("  its core time (s)", kernel_mean(a, kernel, arch, true), kernel_mean(b, kernel, arch, true));
    }
}

/* Sum of the core times (else durations) of the tasks run by `worker`. */
static double worker_core(const cJSON *rec, const char *worker)
{
    double sum = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, task_events(rec))
    {
        const cJSON *w = cJSON_GetObjectItem(t, "worker");
        if (cJSON_IsString(w) && strcmp(w->valuestring, worker) == 0)
            sum += task_time(t, true);
    }
    return sum;
}

static void compare_workers(const cJSON *a, const cJSON *b)
{
    bool core = has_core_times(a) || has_core_times(b);
    const cJSON *w;
    cJSON_ArrayForEach(w, cJSON_GetObjectItem(a, "workers"))
    {
        const char *name = cJSON_GetObjectItem(w, "name")->valuestring;
        const cJSON *v;
        cJSON_ArrayForEach(v, cJSON_GetObjectItem(b, "workers"))
        if (strcmp(cJSON_GetObjectItem(v, "name")->valuestring, name) == 0) {
            char label[64];
            snprintf(label, sizeof label, "busy %s (s)", name);
            row(label, num(w, "busy"), num(v, "busy"));
            if (core && strcmp(cJSON_GetObjectItem(w, "arch")->valuestring, "cpu") == 0)
                row("  its core time (s)", worker_core(a, name), worker_core(b, name));
        }
    }
}

/* A measured run whose CPU tasks took more wall time than core time (the CPU
 * time their threads had) by more than the validation target (10%, 5% for a
 * run over 1 s: docs/real-engine.md) lost its cores to other processes: one
 * line says so, with the load average the run recorded, since the error then
 * measures the machine, not the model. */
static void note_loaded(const cJSON *rec, const char *path)
{
    double wall = 0, core = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, task_events(rec))
    {
        if (cJSON_IsNumber(cJSON_GetObjectItem(t, "core_time"))) {
            wall += task_time(t, false);
            core += task_time(t, true);
        }
    }
    const cJSON *res = cJSON_GetObjectItem(rec, "results");
    double target = num(res, "makespan") > 1 ? 0.05 : 0.10;
    if (!(core > 0) || !(wall > core * (1 + target)))
        return;
    const cJSON *load = cJSON_GetObjectItem(res, "load_average");
    double before = num(load, "before"), after = num(load, "after");
    char loads[96] = "";
    if (isfinite(before) && isfinite(after))
        snprintf(loads, sizeof loads, "; load average %.2f before, %.2f after", before, after);
    printf("note: %s's CPU tasks took %.1f%% more wall time than core time (target %.0f%%%s): other processes "
           "took its cores, so the error measures the machine, not the model\n",
           path, 100 * (wall / core - 1), 100 * target, loads);
}

int hs_cmd_compare(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        printf("usage: hetsim compare FIRST.json SECOND.json\n"
               "Compare two run records (typically a simulation and a measured run of the same\n"
               "scenario): makespan, per-kernel mean times (records made with --events), data\n"
               "moved and transfers per direction, per-worker busy time; error = (first-second)/second.\n"
               "A measured run's CPU tasks also have their core time (wall time less what other\n"
               "processes took of the core; a simulated task's is its duration): kernels that\n"
               "drift in wall time but not in core time lost their core to other processes;\n"
               "a measured run whose CPU tasks took more wall than core time by over the target\n"
               "(10%%, 5%% over 1 s) gets a note line with its load average: its error measures\n"
               "the machine, not the model.\n");
        return HS_EXIT_OK;
    }
    if (argc != 3)
        hs_die(HS_EXIT_USAGE, "compare: give two run records (see `hetsim compare --help`)");
    cJSON *a = load(argv[1]), *b = load(argv[2]);
    const cJSON *ra = cJSON_GetObjectItem(a, "results"), *rb = cJSON_GetObjectItem(b, "results");
    printf("  %-28s %14s %14s %10s\n", "", argv[1], argv[2], "error");
    row("makespan (s)", num(ra, "makespan"), num(rb, "makespan"));
    row("GFlop/s", num(ra, "gflops"), num(rb, "gflops"));
    static const char *dirs[] = {"h2d", "d2h", "p2p"};
    for (int d = 0; d < 3; d++) {
        char label[64];
        snprintf(label, sizeof label, "%s bytes", dirs[d]);
        row(label, num(cJSON_GetObjectItem(ra, "bytes"), dirs[d]), num(cJSON_GetObjectItem(rb, "bytes"), dirs[d]));
        snprintf(label, sizeof label, "%s transfers", dirs[d]);
        row(label, num(cJSON_GetObjectItem(ra, "transfers"), dirs[d]),
            num(cJSON_GetObjectItem(rb, "transfers"), dirs[d]));
    }
    compare_kernels(a, b);
    compare_workers(a, b);
    note_loaded(a, argv[1]);
    note_loaded(b, argv[2]);
    cJSON_Delete(a);
    cJSON_Delete(b);
    return HS_EXIT_OK;
}
