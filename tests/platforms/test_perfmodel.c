/* tests/platforms/test_perfmodel.c — timing tables (platforms/perfmodel.c):
 * - the co-running model: a table's "corun" curve gives what a kernel takes
 *   with a number of workers of its architecture busy (and with host-GPU
 *   copies streaming); the lookup interpolates linearly in the number busy,
 *   by hand; bad curves are refused with one line naming the entry; a
 *   simulation executes the curve's value for the number busy when each task
 *   starts while policies are told the table's own entry, by hand on two
 *   cores; a run with more workers than the curve reaches is refused;
 * - the calibration effect (Beniamine 2013, §3.2.1, §3.2.3): a table's
 *   "calibrated" list is what policies are told while the engine executes
 *   the table's own durations; malformed lists are refused; shipped
 *   calibrated tables are what their script writes with today's model;
 * - Idgraf's LU kernel rates: every LU entry of the shipped Idgraf tables
 *   names the StarPU sample it comes from (file and line), and its rate is
 *   that line's mean, by the kernel's flop count (read here from the file). */
#include "base/util.h"
#include "platforms/perfmodel.h"
#include "policies/registry.h"
#include "tests/support/testing.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Load a timing table written as text (the test stops if it is refused). */
static void load_text(const char *text, struct hs_perfmodel *pm)
{
    char *path = hs_test_tmp_text(".json", text), err[256];
    CU_ASSERT_EQUAL_FATAL(hs_perf_load(path, pm, err, sizeof err), 0);
    free(path);
}

/* k on a core: 1 s as policies are told (one point, measured with 2 busy in
 * a real calibration: here 1 s to keep the plan apart), 1.0 s alone, 1.5 s
 * with 2 busy, 2.0 s with 4 busy; 3.0 s with 4 busy while copies stream. */
static const char *table_text =
    "{\"kernels\": ["
    "{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"seconds\": 1.0, \"source\": \"test\"},"
    "{\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 10, \"seconds\": 0.5, \"source\": \"test\"}],"
    " \"corun\": ["
    "{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 1, \"seconds\": 1.0, \"source\": \"test\"},"
    "{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 4, \"seconds\": 2.0, \"source\": \"test\"},"
    "{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 2, \"seconds\": 1.5, \"source\": \"test\"},"
    "{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 4, \"copies\": true, \"seconds\": 3.0,"
    " \"source\": \"test\"}]}";

static void test_lookup(void)
{
    struct hs_perfmodel pm;
    load_text(table_text, &pm);
    CU_ASSERT_EQUAL(pm.ncorun, 4);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_corun_time(&pm, "k", "cpu", 10, 1, 0), 1.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_corun_time(&pm, "k", "cpu", 10, 2, 0), 1.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_corun_time(&pm, "k", "cpu", 10, 3, 0), 1.75, 1e-12); /* halfway 2..4 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_corun_time(&pm, "k", "cpu", 10, 4, 0), 2.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_corun_time(&pm, "k", "cpu", 10, 9, 0), 2.0, 1e-12);  /* the last point */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_corun_time(&pm, "k", "cpu", 10, 4, 1), 3.0, 1e-12);  /* copies */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_corun_time(&pm, "k", "cpu", 10, 1, 1), 3.0, 1e-12);  /* its one point */
    CU_ASSERT_TRUE(isnan(hs_perf_corun_time(&pm, "k", "cpu", 20, 2, 0))); /* no curve at nb 20 */
    CU_ASSERT_TRUE(isnan(hs_perf_corun_time(&pm, "k", "gpu", 10, 2, 0)));
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "k", "cpu", 10, 1), 1.0, 1e-12); /* what policies see */
    hs_perf_free(&pm);
}

static void test_bad_curves(void)
{
    static const char *const head =
        "{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"seconds\": 1, \"source\": \"t\"}],"
        " \"corun\": [";
    static const struct {
        const char *entry, *message;
    } cases[] = {
        {"{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"seconds\": 1, \"source\": \"t\"}",
         "corun[0]: field 'busy' (workers running kernels at once) must be an integer in [1, 65536]"},
        {"{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 0, \"seconds\": 1, \"source\": \"t\"}",
         "corun[0]: field 'busy'"},
        {"{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 1.5, \"seconds\": 1, \"source\": \"t\"}",
         "corun[0]: field 'busy'"},
        {"{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 2, \"copies\": \"yes\", \"seconds\": 1,"
         " \"source\": \"t\"}",
         "corun[0]: field 'copies' must be true or false"},
        {"{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 2, \"gflops\": 1, \"source\": \"t\"}",
         "corun[0]: unknown key 'gflops' (valid: kernel, arch, nb, seconds, source, busy, copies)"},
        {"{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 2, \"seconds\": -1, \"source\": \"t\"}",
         "corun[0]: 'seconds' or 'gflops' must be a positive number"},
        {"{\"kernel\": \"j\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 2, \"seconds\": 1, \"source\": \"t\"}",
         "corun[0]: kernel 'j' on cpu is not timed in 'kernels'"},
        {"{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 2, \"seconds\": 1}",
         "corun[0]: field 'source' (provenance) is required"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024], err[256];
        snprintf(text, sizeof text, "%s%s]}", head, cases[i].entry);
        char *path = hs_test_tmp_text(".json", text);
        struct hs_perfmodel pm;
        CU_ASSERT_EQUAL(hs_perf_load(path, &pm, err, sizeof err), -1);
        if (!strstr(err, cases[i].message))
            fprintf(stderr, "\ncase %zu: %s\n", i, err);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[i].message));
        CU_ASSERT_PTR_NULL(strchr(err, '\n'));
        free(path);
    }
    char *path = hs_test_tmp_text(".json", "{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"cpu\", \"seconds\": 1, \"source\": \"t\"}],"
                             " \"corun\": 3}"),
         err[256];
    struct hs_perfmodel pm;
    CU_ASSERT_EQUAL(hs_perf_load(path, &pm, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "field 'corun' must be an array"));
    free(path);
}

/* dag under eager on Mapuche (gpus GPUs, cpus cores, no runtime costs),
 * timed by the table. */
static cJSON *on_mapuche(const struct hs_dag *dag, int gpus, int cpus, const char *table)
{
    char *path = hs_test_tmp_text(".json", table);
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.platform_file = hs_test_data("mapuche.xml");
    cfg.platform_name = "mapuche";
    hs_test_no_costs(&cfg);
    cfg.perf_file = path;
    cfg.select.gpus = gpus;
    cfg.select.cpus = cpus;
    cJSON *r = hs_test_simulate(&cfg, dag, &hs_policy_eager, "eager");
    free(path);
    return r;
}

/* n independent tasks of kernel k (nb 10) on Mapuche's cores, no GPU. */
static cJSON *run_independent(int n, int cpus, const char *table)
{
    struct hs_dag *dag = hs_dag_new("independent");
    for (int i = 0; i < n; i++) {
        char label[16];
        snprintf(label, sizeof label, "t%d", i);
        hs_dag_add_task(dag, "k", label, 1, 10);
    }
    hs_dag_finalize(dag);
    cJSON *r = on_mapuche(dag, 0, cpus, table);
    hs_dag_free(dag);
    return r;
}

/* Four tasks on two cores, by hand: the first starts alone (1.0 s, ends at
 * 1.0), the second beside it (2 busy: 1.5 s, ends at 1.5); at 1.0 the third
 * starts beside the second (1.5 s, ends at 2.5), at 1.5 the fourth beside
 * the third (ends at 3.0). Without the curve: 2 × 1.0 s. On one core every
 * task runs alone: 4 × 1.0 s. */
static void test_simulation_executes_the_curve(void)
{
    cJSON *r = run_independent(4, 2, table_text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 3.0, 1e-9);
    cJSON_Delete(r);
    r = run_independent(4, 1, table_text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 4.0, 1e-9);
    cJSON_Delete(r);
    const char *flat = "{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"seconds\": 1.0, "
                       "\"source\": \"test\"}]}";
    r = run_independent(4, 2, flat);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 2.0, 1e-9);
    cJSON_Delete(r);
}

/* Mapuche's 4 cores, 3 selected, beyond a curve's last point (2 busy):
 * refused in one line that names the table, the kernel, the point and the
 * workers; 2 selected run. */
static void test_beyond_the_curve(void)
{
    const char *table =
        "{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"seconds\": 1.0, \"source\": \"t\"}],"
        " \"corun\": ["
        "{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 1, \"seconds\": 1.0, \"source\": \"t\"},"
        "{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 10, \"busy\": 2, \"seconds\": 1.5, \"source\": \"t\"}]}";
    cJSON *r = run_independent(2, 3, table);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const cJSON *error = cJSON_GetObjectItem(r, "error");
    CU_ASSERT_FATAL(cJSON_IsString(error));
    CU_ASSERT_PTR_NOT_NULL(strstr(error->valuestring, "its co-running curve of k on cpu (nb 10) stops at 2 "
                                                      "workers busy, and this run has 3 cpu workers"));
    CU_ASSERT_PTR_NULL(strchr(error->valuestring, '\n'));
    cJSON_Delete(r);
    r = run_independent(2, 2, table);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(r, "error"));
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 1.5, 1e-9); /* 1.0 and 1.5 at once */
    cJSON_Delete(r);
}

/* A GPU's curve: on Mapuche's GPU (3000 MB/s, 10 us each way), two tasks
 * of k reading a datum of 3 MB each, whose copies in follow each other in
 * the GPU's stream: 1.01 ms each. By hand: the first task starts at 1.01 ms
 * while the second's datum is copied (0.3 s: the curve with copies), the
 * second at 0.30101 s with nothing copied (0.1 s alone): 0.40101 s. The
 * copy of a core's task does not count for another GPU (one GPU here). */
static void test_gpu_beside_copies(void)
{
    const char *table =
        "{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 10, \"seconds\": 0.1, \"source\": \"t\"}],"
        " \"corun\": ["
        "{\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 10, \"busy\": 1, \"seconds\": 0.1, \"source\": \"t\"},"
        "{\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 10, \"busy\": 1, \"copies\": true, \"seconds\": 0.3,"
        " \"source\": \"t\"}]}";
    struct hs_dag *dag = hs_dag_new("two-reads");
    for (int i = 0; i < 2; i++) {
        char label[16];
        snprintf(label, sizeof label, "h%d", i);
        int h = hs_dag_add_handle(dag, label, 3e6);
        snprintf(label, sizeof label, "t%d", i);
        int t = hs_dag_add_task(dag, "k", label, 1, 10);
        hs_dag_access(dag, t, h, HS_MODE_R);
    }
    hs_dag_finalize(dag);
    cJSON *r = on_mapuche(dag, 1, 0, table);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(r, "error"));
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 0.40101, 1e-9);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

static const char *calibrated_table_text =
    "{\"kernels\": ["
    "{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 0, \"seconds\": 1.0, \"source\": \"test\"},"
    "{\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 0, \"seconds\": 0.1, \"source\": \"test\"}],"
    " \"calibrated\": ["
    "{\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 10, \"seconds\": 10, \"gpus\": 8, \"source\": \"test\"}]}";

static void test_estimate_lookup(void)
{
    struct hs_perfmodel pm;
    load_text(calibrated_table_text, &pm);
    CU_ASSERT_EQUAL(pm.ncalibrated, 1);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_estimate(&pm, "k", "gpu", 10, 1), 10, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "k", "gpu", 10, 1), 0.1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_estimate(&pm, "k", "gpu", 20, 1), 0.1, 1e-12); /* other nb */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_estimate(&pm, "k", "cpu", 10, 1), 1.0, 1e-12);
    hs_perf_free(&pm);
}

static void test_bad_calibrated(void)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"cpu\", \"seconds\": 1, \"source\": \"t\"}],"
         " \"calibrated\": [{\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 1, \"seconds\": -1, \"source\": \"t\"}]}",
         "calibrated[0]: 'seconds' or 'gflops' must be a positive number"},
        {"{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"cpu\", \"seconds\": 1, \"source\": \"t\"}],"
         " \"calibrated\": 3}",
         "field 'calibrated' must be an array"},
        /* the engine would have no duration to execute */
        {"{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"cpu\", \"seconds\": 1, \"source\": \"t\"}],"
         " \"calibrated\": [{\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 1, \"seconds\": 1, \"source\": \"t\"}]}",
         "calibrated[0]: kernel 'k' on gpu is not timed in 'kernels'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *path = hs_test_tmp_text(".json", cases[i].text), err[256];
        struct hs_perfmodel pm;
        CU_ASSERT_EQUAL(hs_perf_load(path, &pm, err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[i].message));
        free(path);
    }
}

/* One task of kernel k (nb 10) on Mapuche: the calibrated 10 s on the GPU
 * sends it to a core (1 s); forced onto the GPU it runs in the true 0.1 s
 * while the plan predicts 10. */
static void test_policy_sees_calibration(void)
{
    struct hs_dag *dag = hs_dag_new("one");
    hs_dag_add_task(dag, "k", "t", 1, 10);
    hs_dag_finalize(dag);
    char *path = hs_test_tmp_text(".json", calibrated_table_text);
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.platform_file = hs_test_data("mapuche.xml");
    cfg.platform_name = "mapuche";
    hs_test_no_costs(&cfg);
    cfg.perf_file = path;
    cJSON *r = hs_test_simulate(&cfg, dag, &hs_policy_heft, "heft");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 1.0, 1e-9);
    cJSON_Delete(r);
    cfg.select.cpus = 0;
    r = hs_test_simulate(&cfg, dag, &hs_policy_heft, "heft");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 0.1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "predicted")->valuedouble, 10, 1e-9);
    cJSON_Delete(r);
    free(path);
    hs_dag_free(dag);
}

static cJSON *read_table(const char *path)
{
    cJSON *j = hs_test_read_json(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    return j;
}

static int same_int(const cJSON *x, const cJSON *y, const char *field)
{
    return cJSON_GetObjectItem(x, field)->valueint == cJSON_GetObjectItem(y, field)->valueint;
}

/* The same entry (kernel, nb, gpus) in both calibrated lists, with the same
 * time and task count, and the same kernel table: the shipped table is what
 * the script writes today. */
static void check_same_calibrated(const char *name, const cJSON *shipped, const cJSON *fresh)
{
    const cJSON *a = cJSON_GetObjectItem(shipped, "calibrated"), *b = cJSON_GetObjectItem(fresh, "calibrated");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(a), cJSON_GetArraySize(b));
    CU_ASSERT(cJSON_Compare(cJSON_GetObjectItem(shipped, "kernels"), cJSON_GetObjectItem(fresh, "kernels"), 1));
    for (int i = 0; i < cJSON_GetArraySize(a); i++) {
        const cJSON *x = cJSON_GetArrayItem(a, i), *y = cJSON_GetArrayItem(b, i);
        double sx = cJSON_GetObjectItem(x, "seconds")->valuedouble, sy = cJSON_GetObjectItem(y, "seconds")->valuedouble;
        int same = strcmp(cJSON_GetObjectItem(x, "kernel")->valuestring, cJSON_GetObjectItem(y, "kernel")->valuestring) == 0 &&
                   same_int(x, y, "nb") && same_int(x, y, "gpus") && same_int(x, y, "tasks") &&
                   fabs(sx - sy) <= 1e-9 * sy;
        if (!same)
            fprintf(stderr, "\n%s: calibrated entry %d is %s nb=%d %.9g s, the script writes %.9g s "
                    "(rerun platforms/tools/calibrate_beniamine.sh)\n", name, i,
                    cJSON_GetObjectItem(x, "kernel")->valuestring, cJSON_GetObjectItem(x, "nb")->valueint, sx, sy);
        CU_ASSERT(same);
    }
}

/* The shipped calibrated tables (idgraf-cal1..8, mapuche-cal1) were written
 * by platforms/tools/calibrate_beniamine.sh: after a change of the model
 * (kernel rates, runtime costs, links) they must be rewritten, or the
 * Beniamine studies plan with another machine's calibration. */
static void test_shipped_tables_current(void)
{
    char *dir = hs_test_tmp_dir(".cal"), cmd[2048], *out = NULL;
    snprintf(cmd, sizeof cmd, "sh %s/platforms/tools/calibrate_beniamine.sh %s %s", HETSIM_SOURCE_DIR, HETSIM_BIN, dir);
    CU_ASSERT_EQUAL_FATAL(hs_test_sh(NULL, cmd, &out), 0);
    free(out);
    /* every table the script wrote, against the shipped file of that name */
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int tables = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.')
            continue;
        char shipped[1024], fresh[1024];
        snprintf(shipped, sizeof shipped, "%s/platforms/perf/%s", HETSIM_SOURCE_DIR, de->d_name);
        snprintf(fresh, sizeof fresh, "%s/%s", dir, de->d_name);
        cJSON *a = read_table(shipped), *b = read_table(fresh);
        check_same_calibrated(de->d_name, a, b);
        cJSON_Delete(a), cJSON_Delete(b);
        remove(fresh);
        tables++;
    }
    closedir(d);
    CU_ASSERT_EQUAL(tables, 5); /* idgraf-cal1, -cal2, -cal4, -cal8, mapuche-cal1 */
    rmdir(dir), free(dir);
}

/* The StarPU sample each LU kernel of Idgraf's tables takes its rate from
 * (docs/fidelity.md, Idgraf's kernel rates): PLASMA's incremental-pivoting
 * kernels at the rate of the closest kernel of StarPU's LU example, 11 GETRF
 * (2nb³/3 flop, one tile), 12 the TRSM of the row (nb³, two tiles), 22 the
 * GEMM update (2nb³, three tiles); on a GPU the cuda0 combination (the lowest
 * device id, as platforms/perf_starpu.c takes it). TSTRF's GPU entry is not
 * here: the period code had no GPU TSTRF, its rate stays an assumption
 * (test_idgraf_gpu_tstrf_no_speedup). */
static const struct lu_sample {
    const char *kernel, *arch, *code;
    double flops_per_nb3;
    int tiles;
} lu_samples[] = {
    {"dgetrf", "cpu", "11", 2.0 / 3, 1}, {"dtstrf", "cpu", "11", 2.0 / 3, 1},
    {"dgessm", "cpu", "12", 1, 2},       {"dgessm", "gpu", "12", 1, 2},
    {"dssssm", "cpu", "22", 2, 3},       {"dssssm", "gpu", "22", 2, 3},
};
#define NLU ((int)(sizeof lu_samples / sizeof lu_samples[0]))

/* Line `line` of the sample file (1-based) and the combination it is in;
 * false if the file has no such line. */
static bool sample_line(const char *text, int line, char *out, size_t outlen, char *comb, size_t comblen)
{
    const char *p = text;
    comb[0] = 0;
    for (int i = 1; *p; i++) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (strncmp(p, "# Model for ", 12) == 0)
            snprintf(comb, comblen, "%.*s", (int)strcspn(p + 12, " \n"), p + 12);
        if (i == line) {
            snprintf(out, outlen, "%.*s", (int)len, p);
            return true;
        }
        if (!end)
            break;
        p = end + 1;
    }
    return false;
}

/* One LU entry: its source names the sample's file and line, and its rate
 * is the line's mean (µs) over the sampled kernel's flops at its nb. */
static void check_lu_entry(const char *table, const cJSON *e, const struct lu_sample *s)
{
    const char *src = cJSON_GetObjectItem(e, "source")->valuestring;
    int nb = cJSON_GetObjectItem(e, "nb")->valueint, line = 0;
    const cJSON *gf = cJSON_GetObjectItem(e, "gflops");
    char file[128], at[64], text_line[512], comb[64];
    snprintf(file, sizeof file, "StarPU 1.3.10's starpu_dlu_lu_model_%s_atlas.idgraf", s->code);
    const char *l = strstr(src, "line ");
    bool named = strstr(src, file) && strstr(src, "3f3cc82a6fe5fd0b919f8c6954ac8254b1fb3190") && l &&
                 sscanf(l, "line %d", &line) == 1 && strncmp(src, "assumption", 10) != 0;
    if (!named || !gf)
        fprintf(stderr, "\n%s: %s %s nb=%d does not name %s and a line, or gives no rate: '%.60s...'\n", table,
                s->kernel, s->arch, nb, file, src);
    CU_ASSERT_FATAL(named && gf);
    snprintf(file, sizeof file, "starpu-sampling/idgraf-lu/codelets/45/starpu_dlu_lu_model_%s_atlas.idgraf", s->code);
    char *text = hs_test_read_file(hs_test_datafile(file));
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_FATAL(sample_line(text, line, text_line, sizeof text_line, comb, sizeof comb));
    free(text);
    char hash[16];
    long size = 0;
    double flops = 0, mean = 0;
    CU_ASSERT_EQUAL_FATAL(sscanf(text_line, "%15s %ld %lf %lf", hash, &size, &flops, &mean), 4);
    snprintf(at, sizeof at, "%s0_impl0", strcmp(s->arch, "cpu") == 0 ? "cpu" : "cuda");
    CU_ASSERT_STRING_EQUAL(comb, at);
    CU_ASSERT_EQUAL(size, (long)s->tiles * 8 * nb * nb);
    double b = nb, rate = s->flops_per_nb3 * b * b * b / (mean * 1e-6) / 1e9;
    if (fabs(gf->valuedouble - rate) > 0.005 * rate)
        fprintf(stderr, "\n%s: %s %s nb=%d gives %g GFlop/s, line %d of its sample %g\n", table, s->kernel,
                s->arch, nb, gf->valuedouble, line, rate);
    HS_ASSERT_NEAR_REL(gf->valuedouble, rate, 0.005); /* the table rounds to 3 digits */
}

/* Every shipped Idgraf table times the LU kernels from StarPU's samples of
 * Idgraf (nb = 320, 640, 960), none as an assumption. */
static void test_idgraf_lu_from_starpu(void)
{
    static const char *const tables[] = {"idgraf", "idgraf-cal1", "idgraf-cal2", "idgraf-cal4", "idgraf-cal8",
                                         "idgraf-dada"};
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/platforms/perf/%s.json", HETSIM_SOURCE_DIR, tables[t]);
        cJSON *j = read_table(path);
        int found[NLU] = {0};
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "kernels"))
        {
            const char *k = cJSON_GetObjectItem(e, "kernel")->valuestring, *a = cJSON_GetObjectItem(e, "arch")->valuestring;
            for (int i = 0; i < NLU; i++)
                if (strcmp(k, lu_samples[i].kernel) == 0 && strcmp(a, lu_samples[i].arch) == 0) {
                    check_lu_entry(tables[t], e, &lu_samples[i]);
                    found[i]++;
                }
        }
        for (int i = 0; i < NLU; i++)
            CU_ASSERT_EQUAL(found[i], 3); /* nb = 320, 640, 960: the sizes sampled */
        cJSON_Delete(j);
    }
}

/* DTSTRF's GPU entry (only lu:gpu_tstrf=1 uses it) is the assumption its
 * source states, Lima 2014 App. C.1's "no speedup on a GPU", read the
 * simplest way: a core's rate at each size StarPU sampled, so the GPU is
 * neither faster nor slower than a core there. */
static void test_idgraf_gpu_tstrf_no_speedup(void)
{
    static const char *const tables[] = {"idgraf", "idgraf-cal1", "idgraf-cal2", "idgraf-cal4", "idgraf-cal8"};
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/platforms/perf/%s.json", HETSIM_SOURCE_DIR, tables[t]);
        cJSON *j = read_table(path);
        int gpu = 0, matched = 0;
        const cJSON *g, *c;
        cJSON_ArrayForEach(g, cJSON_GetObjectItem(j, "kernels"))
        {
            if (strcmp(cJSON_GetObjectItem(g, "kernel")->valuestring, "dtstrf") != 0 ||
                strcmp(cJSON_GetObjectItem(g, "arch")->valuestring, "gpu") != 0)
                continue;
            gpu++;
            const char *src = cJSON_GetObjectItem(g, "source")->valuestring;
            CU_ASSERT(strncmp(src, "assumption", 10) == 0 && strstr(src, "App. C.1") != NULL);
            int nb = cJSON_GetObjectItem(g, "nb")->valueint;
            const cJSON *ggf = cJSON_GetObjectItem(g, "gflops");
            CU_ASSERT_PTR_NOT_NULL_FATAL(ggf);
            cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "kernels"))
            {
                const cJSON *cgf = cJSON_GetObjectItem(c, "gflops");
                if (strcmp(cJSON_GetObjectItem(c, "kernel")->valuestring, "dtstrf") != 0 ||
                    strcmp(cJSON_GetObjectItem(c, "arch")->valuestring, "cpu") != 0 ||
                    cJSON_GetObjectItem(c, "nb")->valueint != nb || !cgf)
                    continue;
                if (ggf->valuedouble != cgf->valuedouble)
                    fprintf(stderr, "\n%s: dtstrf gpu nb=%d gives %g GFlop/s, the core %g\n", tables[t], nb,
                            ggf->valuedouble, cgf->valuedouble);
                CU_ASSERT_DOUBLE_EQUAL(ggf->valuedouble, cgf->valuedouble, 1e-12);
                matched++;
            }
        }
        CU_ASSERT_EQUAL(gpu, 3);     /* nb = 320, 640, 960 */
        CU_ASSERT_EQUAL(matched, 3); /* each at a size the core's entry has */
        cJSON_Delete(j);
    }
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"the curve, by hand: linear in the workers busy, copies apart", test_lookup},
        {"bad curves refused in one line naming the entry", test_bad_curves},
        {"a simulation executes the curve for the workers busy at each start", test_simulation_executes_the_curve},
        {"a run with more workers than the curve reaches is refused", test_beyond_the_curve},
        {"a GPU's kernel beside its copies, by hand", test_gpu_beside_copies},
        {"calibrated entries: what policies are told", test_estimate_lookup},
        {"malformed calibrated lists are refused", test_bad_calibrated},
        {"policies plan with the calibrated time, runs take the true one", test_policy_sees_calibration},
        {"shipped calibrated tables are what calibrate_beniamine.sh writes", test_shipped_tables_current},
        {"Idgraf's LU kernel rates are StarPU's samples, file and line", test_idgraf_lu_from_starpu},
        {"Idgraf's GPU DTSTRF at a core's rate: no speedup (Lima 2014, App. C.1)", test_idgraf_gpu_tstrf_no_speedup},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("perfmodel", tests);
}
