/* analysis/sweep_row.c — the CSV columns of a sweep and one row from a run
 * record: identity (key, instance, rep, seed), the parameter columns, the
 * status and error, the metrics, and the wall-clock columns last; the sweep
 * and the fingerprint of the run's input files (inputs) follow the identity. */
#include "base/buf.h"
#include "analysis/csv.h"
#include "analysis/sweep.h"
#include "base/util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Metric column -> path in the run record ("bytes_total" is the sum of the
 * three directions). */
static const struct {
    const char *column, *path;
    bool higher_better;
} metrics[] = {
    {"makespan", "results.makespan", false},
    {"predicted_makespan", "results.predicted_makespan", false},
    /* the graph of clusters a clustering policy planned (cluster) */
    {"clusters", "results.clusters", false},
    {"cluster_edges", "results.cluster_edges", false},
    {"gflops", "results.gflops", true},
    {"slr", "results.slr", false},
    {"speedup", "results.speedup", true},
    {"efficiency", "results.efficiency", true},
    {"speedup_split", "results.speedup_split", true},
    {"cp_min", "results.cp_min", false},
    {"slr_cpic", "results.slr_cpic", false},
    {"cpic", "results.cpic", false},
    {"sequential_time", "results.sequential_time", false},
    {"tasks", "results.tasks", false},
    {"tasks_cpu", "results.tasks_per_arch.cpu", false},
    {"tasks_gpu", "results.tasks_per_arch.gpu", false},
    /* busy time over the architecture's workers' time, 0 to 1 */
    {"util_cpu", "results.utilisation_per_arch.cpu", true},
    {"util_gpu", "results.utilisation_per_arch.gpu", true},
    {"gpu_workers", "inputs.gpus", false},
    {"cpu_workers", "inputs.cpus", false},
    {"bytes_h2d", "results.bytes.h2d", false},
    {"bytes_d2h", "results.bytes.d2h", false},
    {"bytes_p2p", "results.bytes.p2p", false},
    {"bytes_total", NULL, false},
    {"transfers_h2d", "results.transfers.h2d", false},
    {"transfers_d2h", "results.transfers.d2h", false},
    {"transfers_p2p", "results.transfers.p2p", false},
    {"evictions", "results.evictions", false},
    {"writebacks", "results.writebacks", false},
    {"prefetches", "results.prefetches", false},
    /* outer and matrix products (Beaumont and Marchal): blocks moved, their
     * lower bound, the ratio; two-phase policies in their model: the
     * analysis' predicted ratio, β and the share of tasks in Phase 1 */
    {"blocks", "results.products.blocks", false},
    {"lower_bound", "results.products.lower_bound", false},
    {"comm_ratio", "results.products.ratio", false},
    {"analysis_ratio", "results.products.analysis", false},
    {"beta_used", "results.products.beta", false},
    {"phase1_share", "results.products.phase1_share", false},
    /* joules of the hosts that declare wattage_per_state (SimGrid's host
     * energy plugin); empty where the platform declares no energy */
    {"energy_joules", "results.energy.total_joules", false},
};
#define NMETRICS (sizeof metrics / sizeof metrics[0])

/* Wall-clock figures: the simulation alone, the policy's share of it, and the
 * whole run in its process (loading the platform and building the DAG too). */
static const char *const wallclock[] = {"sim_seconds", "policy_seconds", "run_seconds"};
#define NWALL 3

static const char *const ident[] = {"key", "instance", "rep", "seed", "sweep", "inputs"};
#define NIDENT 6

const char *hs_run_status_name(enum hs_run_status s)
{
    static const char *names[] = {"ok", "error", "crash", "timeout"};
    return names[s];
}

const char *const *hs_sweep_metric_names(void)
{
    static const char *names[NMETRICS + 1];
    for (size_t i = 0; i < NMETRICS; i++)
        names[i] = metrics[i].column;
    return names;
}

bool hs_metric_lower_is_better(const char *metric)
{
    for (size_t i = 0; i < NMETRICS; i++)
        if (strcmp(metrics[i].column, metric) == 0)
            return !metrics[i].higher_better;
    return true;
}

bool hs_sweep_is_wallclock_column(const char *name)
{
    for (int i = 0; i < NWALL; i++)
        if (strcmp(wallclock[i], name) == 0)
            return true;
    return false;
}

char *hs_sweep_header(const struct hs_sweep_ops *ops)
{
    struct hs_buf b = {0};
    for (int i = 0; i < NIDENT; i++)
        hs_csv_field(&b, ident[i], i == 0);
    for (int i = 0; i < ops->nparams; i++)
        hs_csv_field(&b, ops->param_names[i], false);
    hs_csv_field(&b, "status", false);
    hs_csv_field(&b, "error", false);
    for (size_t i = 0; i < NMETRICS; i++)
        hs_csv_field(&b, metrics[i].column, false);
    for (int i = 0; i < NWALL; i++)
        hs_csv_field(&b, wallclock[i], false);
    hs_buf_add(&b, "\n");
    return hs_buf_take(&b);
}

/* The number at a dotted path of the record; NAN when absent or null. */
static double at(const cJSON *rec, const char *path)
{
    char part[64];
    const cJSON *o = rec;
    for (const char *p = path; o && *p;) {
        size_t len = strcspn(p, ".");
        snprintf(part, sizeof part, "%.*s", (int)len, p);
        o = cJSON_GetObjectItemCaseSensitive(o, part);
        p += len + (p[len] == '.');
    }
    return cJSON_IsNumber(o) ? o->valuedouble : NAN;
}

/* Full precision, so that identical runs give identical text. */
static void number(struct hs_buf *b, double v)
{
    if (isnan(v))
        hs_buf_add(b, ",");
    else
        hs_buf_printf(b, ",%.17g", v);
}

static double metric_value(const cJSON *rec, size_t i)
{
    if (metrics[i].path)
        return at(rec, metrics[i].path);
    return at(rec, "results.bytes.h2d") + at(rec, "results.bytes.d2h") + at(rec, "results.bytes.p2p");
}

static void row_head(struct hs_buf *b, const struct hs_sweep_ops *ops, const struct hs_sweep_job *job)
{
    hs_buf_printf(b, "%016" PRIx64 ",%016" PRIx64 ",%d,%lu,%016" PRIx64, job->id.key,
                  job->id.instance, job->rep, job->id.seed, ops->sweep);
    if (ops->nshards > 1)
        hs_buf_printf(b, ":%d/%d", ops->shard, ops->nshards);
    hs_buf_printf(b, ",%016" PRIx64, job->inputs);
    for (int i = 0; i < ops->nparams; i++)
        hs_csv_field(b, job->params[i], false);
}

char *hs_sweep_row_head(const struct hs_sweep_ops *ops, const struct hs_sweep_job *job)
{
    struct hs_buf b = {0};
    row_head(&b, ops, job);
    return hs_buf_take(&b);
}

char *hs_sweep_row(const struct hs_sweep_ops *ops, const struct hs_sweep_job *job,
                   enum hs_run_status status, const char *error, const cJSON *record,
                   double run_seconds)
{
    struct hs_buf b = {0};
    row_head(&b, ops, job);
    hs_csv_field(&b, hs_run_status_name(status), false);
    hs_csv_field(&b, error ? error : "", false);
    for (size_t i = 0; i < NMETRICS; i++)
        number(&b, record ? metric_value(record, i) : NAN);
    number(&b, record ? at(record, "timing.wall_seconds") : NAN);
    number(&b, record ? at(record, "timing.policy_seconds") : NAN);
    number(&b, run_seconds >= 0 ? run_seconds : NAN);
    hs_buf_add(&b, "\n");
    return hs_buf_take(&b);
}

int hs_sweep_row_check(const struct hs_csv *csv, long r, const char *file)
{
    int status = hs_csv_col(csv, "status");
    if (status < 0 || strcmp(csv->rows[r][status], "ok") != 0)
        return 0;
    for (int c = status + 2; c < csv->ncols; c++) {
        const char *v = csv->rows[r][c];
        double x;
        /* a run may write inf there: β = −ln phase2 with phase2 = 0 */
        bool unbounded = strcmp(csv->header[c], "beta_used") == 0;
        if (*v && (hs_parse_double(v, &x) || isnan(x) || x < 0 || (isinf(x) && !unbounded)))
            return hs_fail("%s: row %ld (key %s): column %s: '%s' is not a %snumber >= 0, as a run writes "
                           "it (the file was edited or damaged: remove the row, and its run is run again)",
                           file, r + 1, csv->rows[r][0], csv->header[c], v, unbounded ? "" : "finite ");
    }
    return 0;
}
