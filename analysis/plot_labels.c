/* analysis/plot_labels.c — what a figure says in words when the user names
 * nothing: a column's name as an axis reads it ("GPUs", "SLR (makespan /
 * critical path)"), a workload or platform specification as a title reads it
 * ("cholesky (n = 8192, nb = 512)", a file by its name alone), and the
 * direction of a comparison ("dmda's makespan / this one's: above 1 is
 * faster"). The one labelling code of `hetsim plot`, the study plots and the
 * Gantt chart. */
#include "analysis/plot.h"
#include "analysis/sweep.h"

#include <string.h>

static const struct {
    const char *column, *words;
} words[] = {
    {"gpus", "GPUs"},
    {"cpus", "CPU workers"},
    {"gpu_workers", "GPU workers"},
    {"cpu_workers", "CPU workers"},
    {"makespan", "makespan"},
    {"predicted_makespan", "predicted makespan"},
    {"gflops", "GFlop/s"},
    {"slr", "SLR (makespan / critical path)"},
    {"slr_cpic", "SLR (makespan / CPIC)"},
    {"speedup", "speedup (sequential time / makespan)"},
    {"efficiency", "efficiency (speedup / workers)"},
    {"bytes_total", "bytes moved"},
    {"bytes_h2d", "bytes to GPUs"},
    {"bytes_d2h", "bytes from GPUs"},
    {"bytes_d2d", "bytes between GPUs"},
    {"tasks_gpu", "tasks on GPUs"},
    {"tasks_cpu", "tasks on CPUs"},
    {"util_gpu", "GPU utilisation"},
    {"util_cpu", "CPU utilisation"},
    {"energy_joules", "energy (J)"},
    {"sim_seconds", "simulation's wall-clock time"},
    {"policy_seconds", "policy's wall-clock time"},
    {"run_seconds", "run's wall-clock time"},
    {"n", "matrix size n"},
    {"nb", "tile size nb"},
    {"v", "tasks"},
    {"ccr", "CCR (communication / computation)"},
    {"noise", "noise (coefficient of variation)"},
    {"policy", "policy"},
    {"workload", "workload"},
    {"platform", "platform"},
};

const char *hs_plot_words(const char *column)
{
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcmp(words[i].column, column) == 0)
            return words[i].words;
    return column;
}

/* A value that names a file: its name alone (the folders are noise in a title). */
static const char *file_name(const char *v, size_t *n)
{
    const char *slash = memchr(v, '/', *n), *last = NULL;
    for (const char *p = slash; p; p = memchr(p + 1, '/', *n - (size_t)(p + 1 - v)))
        last = p;
    if (!last)
        return v;
    *n -= (size_t)(last + 1 - v);
    return last + 1;
}

void hs_plot_spec_words(struct hs_buf *b, const char *spec, size_t max)
{
    struct hs_buf t = {0};
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    const char *name = file_name(spec, &n);
    hs_buf_printf(&t, "%.*s", (int)n, name);
    for (const char *p = colon ? colon + 1 : NULL; p && *p;) {
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len);
        hs_buf_add(&t, p == colon + 1 ? " (" : ", ");
        if (eq) {
            size_t vn = len - (size_t)(eq + 1 - p);
            const char *v = file_name(eq + 1, &vn);
            hs_buf_printf(&t, "%.*s = %.*s", (int)(eq - p), p, (int)vn, v);
        } else {
            hs_buf_printf(&t, "%.*s", (int)len, p);
        }
        p += len + (p[len] == ',');
        if (!*p)
            hs_buf_add(&t, ")");
    }
    const char *s = hs_buf_str(&t);
    size_t chars = 0, cut = 0; /* characters, not bytes: µ and … are one each */
    for (const char *p = s; *p; p++)
        if (((unsigned char)*p & 0xC0) != 0x80 && ++chars == max)
            cut = (size_t)(p - s);
    if (max && chars > max) {
        hs_buf_printf(b, "%.*s…", (int)cut, s);
    } else {
        hs_buf_add(b, s);
    }
    hs_buf_free(&t);
}

void hs_plot_comparison_words(struct hs_buf *b, const char *metric, const char *stat, const char *versus)
{
    bool lower = hs_metric_lower_is_better(metric);
    const char *m = hs_plot_words(metric);
    if (strcmp(stat, "ratio") == 0)
        hs_buf_printf(b, "%s over %s: %s's %s / this one's; above 1 is %s", lower ? "speedup" : "ratio", versus,
                      versus, m, lower ? "faster" : "worse");
    else
        hs_buf_printf(b, "gain over %s (%%): above 0 is %s", versus, lower ? "faster" : "better");
}
