/* analysis/gantt.c — the Gantt chart of one run (`hetsim run --events -o
 * run.json`): one row per worker, the first at the top; its tasks as boxes
 * coloured by kernel; on the row of a worker with its own memory (a GPU, a
 * flat processor) the transfers into that memory in a thin lane above the
 * tasks and the transfers out of it in a lane below. */
#include "analysis/plot.h"
#include "sim/util.h"

#include <stdlib.h>
#include <string.h>

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

struct rows {
    int n;
    const char **name, **node;
    bool *own_memory;
};

static int worker_rows(const cJSON *record, struct rows *r)
{
    const cJSON *workers = cJSON_GetObjectItemCaseSensitive(record, "workers"), *w;
    r->n = cJSON_GetArraySize(workers);
    r->name = hs_xcalloc((size_t)r->n + 1, sizeof *r->name);
    r->node = hs_xcalloc((size_t)r->n + 1, sizeof *r->node);
    r->own_memory = hs_xcalloc((size_t)r->n + 1, sizeof *r->own_memory);
    int i = 0;
    cJSON_ArrayForEach(w, workers)
    {
        r->name[i] = str(w, "name");
        r->node[i++] = str(w, "memory_node");
    }
    for (i = 0; i < r->n; i++) {
        int sharing = 0;
        for (int j = 0; j < r->n; j++)
            sharing += strcmp(r->node[i], r->node[j]) == 0;
        r->own_memory[i] = sharing == 1;
    }
    return r->n ? 0 : -1;
}

static int row_of(const struct rows *r, const char *key, bool by_node)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(by_node ? r->node[i] : r->name[i], key) == 0 && (!by_node || r->own_memory[i]))
            return r->n - 1 - i;
    return -1;
}

static void axes(struct hs_buf *b, const struct rows *r, const cJSON *record, const char *title)
{
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(record, "inputs");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(record, "results");
    struct hs_buf t = {0};
    hs_buf_printf(&t, "%s | %s on %s | makespan %.6g s", str(in, "workload"), str(in, "policy"),
                  str(in, "platform"), num(res, "makespan"));
    hs_buf_add(b, "set title ");
    hs_gnuplot_quote(b, title ? title : hs_buf_str(&t));
    hs_buf_free(&t);
    hs_buf_printf(b, "\nset xlabel 'time (s)'\nset yrange [-0.7:%g]\nset xrange [0:*]\nset ytics (",
                  r->n - 0.3);
    for (int i = 0; i < r->n; i++) {
        hs_buf_add(b, i ? ", " : "");
        hs_gnuplot_quote(b, r->name[i]);
        hs_buf_printf(b, " %d", r->n - 1 - i);
    }
    hs_buf_add(b, ")\nset grid x\nset key outside right top\nset style fill solid 0.9 border lc rgb 'white'\n");
}

/* One data block per kernel ($k0, …): x y dx dy of each box. */
static int task_blocks(struct hs_buf *b, struct hs_buf *plot, const struct rows *r, const cJSON *tasks)
{
    const char **kernels = NULL;
    int nk = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, tasks)
    {
        bool seen = false;
        for (int k = 0; k < nk && !seen; k++)
            seen = strcmp(kernels[k], str(t, "kernel")) == 0;
        if (!seen) {
            kernels = hs_xrealloc(kernels, (size_t)(nk + 1) * sizeof *kernels);
            kernels[nk++] = str(t, "kernel");
        }
    }
    for (int k = 0; k < nk; k++) {
        hs_buf_printf(b, "$k%d << EOD\n", k);
        cJSON_ArrayForEach(t, tasks)
        {
            int y = row_of(r, str(t, "worker"), false);
            double s = num(t, "start"), e = num(t, "end");
            if (y >= 0 && strcmp(str(t, "kernel"), kernels[k]) == 0)
                hs_buf_printf(b, "%.9g %d %.9g 0.26\n", (s + e) / 2, y, (e - s) / 2);
        }
        hs_buf_add(b, "EOD\n");
        hs_buf_printf(plot, "%s$k%d using 1:2:3:4 with boxxyerror lc %d title ", k ? ", \\\n     " : "plot ",
                      k, k + 1);
        hs_gnuplot_quote(plot, kernels[k]);
    }
    free(kernels);
    return nk;
}

/* Transfers into (in) or out of (!in) a worker's own memory. */
static void transfer_block(struct hs_buf *b, struct hs_buf *plot, const struct rows *r,
                           const cJSON *xfers, bool in)
{
    hs_buf_printf(b, "$%s << EOD\n", in ? "tin" : "tout");
    const cJSON *x;
    int n = 0;
    cJSON_ArrayForEach(x, xfers)
    {
        int y = row_of(r, str(x, in ? "dst" : "src"), true);
        double s = num(x, "start"), e = num(x, "end");
        if (y >= 0) {
            hs_buf_printf(b, "%.9g %g %.9g 0.06\n", (s + e) / 2, y + (in ? 0.34 : -0.34), (e - s) / 2);
            n++;
        }
    }
    hs_buf_add(b, n ? "EOD\n" : "nan nan nan nan\nEOD\n");
    hs_buf_printf(plot, ", \\\n     $%s using 1:2:3:4 with boxxyerror lc rgb '%s' title '%s'",
                  in ? "tin" : "tout", in ? "#202020" : "#d04000",
                  in ? "transfer in (above)" : "transfer out (below)");
}

int hs_plot_gantt(const cJSON *record, const char *file, const char *output, const char *title,
                  const char *script)
{
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(record, "events");
    const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(ev, "tasks");
    if (!cJSON_IsArray(tasks))
        return hs_fail("%s has no events: write it with `hetsim run --events -o %s`", file, file);
    struct rows r;
    if (worker_rows(record, &r)) {
        free(r.name), free(r.node), free(r.own_memory);
        return hs_fail("%s has no workers: is it a run record?", file);
    }
    struct hs_buf b = {0}, plot = {0};
    int height = 120 + 26 * r.n;
    int rc = hs_gnuplot_preamble(&b, output, 1200, height < 360 ? 360 : height);
    if (!rc) {
        axes(&b, &r, record, title);
        if (!task_blocks(&b, &plot, &r, tasks))
            hs_buf_add(&plot, "plot NaN notitle");
        const cJSON *xfers = cJSON_GetObjectItemCaseSensitive(ev, "transfers");
        transfer_block(&b, &plot, &r, xfers, true);
        transfer_block(&b, &plot, &r, xfers, false);
        hs_buf_printf(&b, "%s\n", hs_buf_str(&plot));
        rc = hs_gnuplot_run(hs_buf_str(&b), script);
    }
    hs_buf_free(&b);
    hs_buf_free(&plot);
    free(r.name), free(r.node), free(r.own_memory);
    return rc;
}
