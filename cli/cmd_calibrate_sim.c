/* cli/cmd_calibrate_sim.c — `hetsim calibrate-sim`: simulate XKaapi's
 * calibration run of the GPUs (Beniamine 2013, §3.2.1, §3.2.3: "measured on the
 * CPU, hence it include[s] a few communication times") and write the times
 * it would have recorded into a timing table's "calibrated" list, which is
 * what policies are then told (perfmodel.h).
 *
 * The workload runs on K GPUs and no CPU worker. XKaapi timed a GPU task on
 * the host, so the time it recorded runs from the later of the task's pop (its
 * inputs start moving) and the end of the GPU's previous kernel, to the end of
 * its kernel: the kernel plus the input transfers it did not overlap, which
 * grow when more GPUs share the PCIe links. The mean per kernel and tile size
 * is recorded; the engine keeps executing the table's own durations. The
 * calibration runs under the thesis' online HEFT by default (its scheduler is
 * not said; XKaapi's work stealing, -s ws, moves far more data between GPUs
 * and records far larger times). */
#include "platforms/perfmodel.h"
#include "base/inputfile.h"
#include "cli/cli.h"
#include "scenario/scenario.h"
#include "sim/outfile.h"
#include "base/util.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: hetsim calibrate-sim -p PLATFORM -w WORKLOAD --gpus K [-s POLICY] -o TABLE\n"
            "Simulate XKaapi's calibration run: WORKLOAD on K GPUs and no CPU worker under\n"
            "POLICY (default heft:online=1,order=fifo: the thesis' online HEFT). Each GPU\n"
            "task's time as the host observes it (from the later of its pop and the end of\n"
            "the GPU's previous kernel to its end: the kernel plus the input transfers it\n"
            "did not overlap) is averaged per kernel and tile size and written to TABLE's\n"
            "\"calibrated\" list, which policies then see instead of the table's times (the\n"
            "simulation still executes those). TABLE starts as a copy of the platform's\n"
            "timing table (or --perf) if it does not exist; entries of the same kernel and\n"
            "tile size are replaced.\n\n");
    hs_scenario_usage(out);
    fprintf(out, "  -o, --output TABLE    the timing table to write (required)\n"
                 "  -h, --help            this help\n");
}

struct observed {
    const char *kernel;
    int nb, n;
    double sum;
};

/* A task the calibration run executed on a GPU. */
struct gpu_task {
    const char *worker, *kernel;
    int nb;
    double popped, start, end;
};

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *text(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static bool gpu_worker(const cJSON *rec, const char *name)
{
    const cJSON *w;
    cJSON_ArrayForEach(w, cJSON_GetObjectItem(rec, "workers"))
        if (strcmp(text(w, "name"), name) == 0)
            return strcmp(text(w, "arch"), "gpu") == 0;
    return false;
}

/* Does the table time kernel on GPUs? */
static bool table_has_gpu(const cJSON *table, const char *kernel)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(table, "kernels"))
        if (strcmp(text(e, "kernel"), kernel) == 0 && strcmp(text(e, "arch"), "gpu") == 0)
            return true;
    return false;
}

static int cmp_gpu_task(const void *a, const void *b)
{
    const struct gpu_task *x = a, *y = b;
    int c = strcmp(x->worker, y->worker);
    if (c)
        return c;
    return (x->start > y->start) - (x->start < y->start);
}

static void add_observation(struct observed **obs, int *n, size_t *cap, const struct gpu_task *t, double seconds)
{
    for (int i = 0; i < *n; i++)
        if ((*obs)[i].nb == t->nb && strcmp((*obs)[i].kernel, t->kernel) == 0) {
            (*obs)[i].sum += seconds;
            (*obs)[i].n++;
            return;
        }
    HS_GROW(*obs, *cap, (size_t)*n + 1);
    (*obs)[(*n)++] = (struct observed){t->kernel, t->nb, 1, seconds};
}

/* Host-observed times of the GPU tasks the table times, per kernel and nb. */
static int observe(const cJSON *rec, const struct hs_dag *dag, const cJSON *table, struct observed **obs)
{
    const cJSON *tasks = cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "events"), "tasks"), *e;
    struct gpu_task *gt = hs_xmalloc((size_t)(cJSON_GetArraySize(tasks) + 1) * sizeof *gt);
    int ngt = 0, n = 0;
    cJSON_ArrayForEach(e, tasks)
        if (gpu_worker(rec, text(e, "worker")))
            gt[ngt++] = (struct gpu_task){text(e, "worker"), text(e, "kernel"),
                                          dag->tasks[(int)num(e, "id")].footprint, num(e, "popped"),
                                          num(e, "start"), num(e, "end")};
    qsort(gt, (size_t)ngt, sizeof *gt, cmp_gpu_task);
    size_t cap = 0;
    *obs = NULL;
    for (int i = 0; i < ngt; i++) {
        bool after = i > 0 && strcmp(gt[i - 1].worker, gt[i].worker) == 0;
        double from = fmax(gt[i].popped, after ? gt[i - 1].end : 0);
        if (table_has_gpu(table, gt[i].kernel))
            add_observation(obs, &n, &cap, &gt[i], gt[i].end - from);
    }
    free(gt);
    return n;
}

static cJSON *read_json(const char *path)
{
    char err[1024];
    char *buf = hs_input_read(path, HS_INPUT_MAX_BYTES, NULL, err, sizeof err);
    if (!buf)
        return NULL;
    cJSON *j = cJSON_Parse(buf);
    free(buf);
    return j;
}

/* Replace the calibrated entries of the observed kernels and tile sizes. */
static void update_table(cJSON *table, const struct observed *obs, int n, int gpus, const char *source)
{
    cJSON *cal = cJSON_GetObjectItem(table, "calibrated");
    if (!cal)
        cal = cJSON_AddArrayToObject(table, "calibrated");
    for (int i = 0; i < n; i++) {
        for (int k = cJSON_GetArraySize(cal) - 1; k >= 0; k--) {
            const cJSON *e = cJSON_GetArrayItem(cal, k);
            if (strcmp(text(e, "kernel"), obs[i].kernel) == 0 && strcmp(text(e, "arch"), "gpu") == 0 &&
                num(e, "nb") == obs[i].nb)
                cJSON_DeleteItemFromArray(cal, k);
        }
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "kernel", obs[i].kernel);
        cJSON_AddStringToObject(e, "arch", "gpu");
        cJSON_AddNumberToObject(e, "nb", obs[i].nb);
        cJSON_AddNumberToObject(e, "seconds", obs[i].sum / obs[i].n);
        cJSON_AddNumberToObject(e, "gpus", gpus);
        cJSON_AddNumberToObject(e, "tasks", obs[i].n);
        cJSON_AddStringToObject(e, "source", source);
        cJSON_AddItemToArray(cal, e);
    }
}

static int write_json(const char *path, const cJSON *j)
{
    return hs_outfile_write_json(path, j);
}

/* The table to update: TABLE itself if it exists (and is a valid timing
 * table), else the platform's. */
static cJSON *base_table(const struct hs_scenario *sc, const char *output)
{
    if (access(output, F_OK) == 0) {
        struct hs_perfmodel pm;
        char err[512];
        if (hs_perf_load(output, &pm, err, sizeof err)) {
            hs_fail("%s", err);
            return NULL;
        }
        hs_perf_free(&pm);
        cJSON *j = read_json(output);
        if (!j)
            hs_fail("%s is not a JSON timing table", output);
        return j;
    }
    struct hs_platform_ref ref;
    if (hs_resolve_platform(sc->platform, sc->perf, &ref))
        return NULL;
    cJSON *j = ref.perf ? read_json(ref.perf) : NULL, *desc = cJSON_GetObjectItem(j, "description");
    if (!j)
        hs_fail("platform %s has no readable timing table to start from (give --perf)", sc->platform);
    if (cJSON_IsString(desc)) {
        char *text = hs_xmalloc(strlen(desc->valuestring) + 256);
        sprintf(text, "%s The 'calibrated' list holds what simulated calibration runs recorded "
                      "(hetsim calibrate-sim): policies see those times, runs execute the ones above.",
                desc->valuestring);
        cJSON_SetValuestring(desc, text);
        free(text);
    }
    hs_platform_ref_free(&ref);
    return j;
}

static void parse_args(int argc, char **argv, struct hs_scenario *sc, const char **output)
{
    static const struct option own[] = {
        {"output", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    struct option *opts = hs_scenario_options(own);
    int c;
    optind = 1;
    while ((c = hs_getopt("calibrate-sim", argc, argv, HS_SCENARIO_SHORTOPTS "o:h", opts)) != -1) {
        switch (c) {
        case 'o': *output = optarg; break;
        case 'h': usage(stdout); exit(HS_EXIT_OK);
        default: hs_scenario_apply_option(sc, c, optarg);
        }
    }
    free(opts);
    if (optind < argc)
        hs_die(HS_EXIT_USAGE, "calibrate-sim: unexpected argument '%s'", argv[optind]);
    if (!*output)
        hs_die(HS_EXIT_USAGE, "calibrate-sim: give -o TABLE (the timing table to write)");
    hs_output_require("calibrate-sim", "-o", *output, false);
    if (sc->cfg.select.gpus == 0)
        hs_die(HS_EXIT_USAGE, "calibrate-sim: --gpus must be at least 1 (it calibrates GPUs)");
}

int hs_cmd_calibrate_sim(int argc, char **argv)
{
    struct hs_scenario sc;
    hs_scenario_defaults(&sc);
    sc.policy = "heft:online=1,order=fifo";
    const char *output = NULL;
    parse_args(argc, argv, &sc, &output);
    sc.cfg.select.cpus = 0; /* a GPU-only run */
    sc.events = true;
    cJSON *table = base_table(&sc, output), *rec = NULL;
    if (!table)
        hs_die(HS_EXIT_USAGE, "calibrate-sim: %s", hs_last_error());
    int rc = hs_scenario_run(&sc, &rec);
    struct hs_dag *dag = rc == 0 ? hs_workload_build(sc.workload) : NULL;
    if (!dag) {
        cJSON_Delete(table);
        hs_die(rc ? rc : HS_EXIT_USAGE, "calibrate-sim: %s", hs_last_error());
    }
    struct observed *obs;
    int n = observe(rec, dag, table, &obs), gpus = (int)num(cJSON_GetObjectItem(rec, "inputs"), "gpus");
    char source[1024];
    snprintf(source, sizeof source, "hetsim calibrate-sim: mean host-observed time (kernel and the "
             "input transfers it did not overlap) of %s on %s with %d GPUs and no CPU, policy %s, seed %lu",
             sc.workload, sc.platform, gpus, sc.policy, sc.cfg.opts.seed);
    update_table(table, obs, n, gpus, source);
    for (int i = 0; i < n; i++)
        printf("%s nb=%d: %.9g s over %d tasks\n", obs[i].kernel, obs[i].nb, obs[i].sum / obs[i].n, obs[i].n);
    rc = write_json(output, table);
    free(obs);
    hs_dag_free(dag);
    cJSON_Delete(rec);
    cJSON_Delete(table);
    if (rc)
        hs_die(HS_EXIT_FAIL, "calibrate-sim: %s", hs_last_error());
    return HS_EXIT_OK;
}
