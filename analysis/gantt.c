/* analysis/gantt.c — the Gantt chart of one run (`hetsim run --events -o
 * run.json`): one row per worker that ran something, the first at the top,
 * the idle ones collapsed into one row at the bottom; its tasks as boxes
 * coloured by kernel (a legend names the kernels); on the row of a worker
 * with its own memory (a GPU, a flat processor) the transfers into that
 * memory in a thin lane above the tasks and those out of it below. Boxes
 * have no white border and are at least a pixel wide, so that a GPU busy with
 * thousands of short tasks reads as busy at any size of the run. */
#include "analysis/plot.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 1200   /* pixels, by default */
#define MARGIN_PX 200 /* the picture's width less its time axis, about */

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
    int n;             /* workers */
    const char **name, **node;
    bool *own_memory;
    int *row;          /* of each worker: its row from the bottom; idle ones share row 0 */
    int nrows, nidle;  /* rows drawn; workers in the idle row */
};

static bool ran_something(const char *name, const cJSON *tasks)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, tasks)
        if (strcmp(str(t, "worker"), name) == 0)
            return true;
    return false;
}

static int worker_rows(const cJSON *record, const cJSON *tasks, struct rows *r)
{
    const cJSON *workers = cJSON_GetObjectItemCaseSensitive(record, "workers"), *w;
    r->n = cJSON_GetArraySize(workers);
    r->name = hs_xcalloc((size_t)r->n + 1, sizeof *r->name);
    r->node = hs_xcalloc((size_t)r->n + 1, sizeof *r->node);
    r->own_memory = hs_xcalloc((size_t)r->n + 1, sizeof *r->own_memory);
    r->row = hs_xcalloc((size_t)r->n + 1, sizeof *r->row);
    int i = 0;
    cJSON_ArrayForEach(w, workers)
    {
        r->name[i] = str(w, "name");
        r->node[i++] = str(w, "memory_node");
    }
    bool *busy = hs_xcalloc((size_t)r->n + 1, sizeof *busy);
    for (i = 0; i < r->n; i++) {
        int sharing = 0;
        for (int j = 0; j < r->n; j++)
            sharing += strcmp(r->node[i], r->node[j]) == 0;
        r->own_memory[i] = sharing == 1;
        busy[i] = ran_something(r->name[i], tasks);
        r->nidle += !busy[i];
    }
    int busy_rows = r->n - r->nidle;
    r->nrows = busy_rows + (r->nidle > 0);
    for (i = 0; i < r->n; i++) /* the first worker at the top */
        r->row[i] = busy[i] ? --busy_rows + (r->nidle > 0) : 0;
    free(busy);
    return r->n ? 0 : -1;
}

static void rows_free(struct rows *r)
{
    free(r->name), free(r->node), free(r->own_memory), free(r->row);
}

/* The row of a worker (by name) or of a memory node's only worker; -1. */
static int row_of(const struct rows *r, const char *key, bool by_node)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(by_node ? r->node[i] : r->name[i], key) == 0 && (!by_node || r->own_memory[i]))
            return r->row[i];
    return -1;
}

static void axes(struct hs_buf *b, const struct rows *r, const cJSON *record, const char *title,
                 struct hs_unit u, double from, double to, int width)
{
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(record, "inputs");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(record, "results");
    struct hs_buf t = {0};
    /* the makespan first, where a cut cannot reach it; the specifications in
       words on a second line, cut to the picture's width */
    const char *policy = str(in, "policy");
    struct hs_unit m = hs_unit_for("time", num(res, "makespan"));
    hs_buf_printf(&t, "makespan %.6g %s: %.*s on ", num(res, "makespan") / m.div, m.name,
                  (int)strcspn(policy, ":"), policy);
    hs_plot_spec_words(&t, str(in, "platform"), 40);
    if (num(in, "gpus") > 0 || num(in, "cpus") > 0)
        hs_buf_printf(&t, ", %g GPU%s and %g CPU worker%s", num(in, "gpus"), num(in, "gpus") == 1 ? "" : "s",
                      num(in, "cpus"), num(in, "cpus") == 1 ? "" : "s");
    hs_buf_add(&t, "\n");
    struct hs_buf spec = {0};
    hs_plot_spec_words(&spec, str(in, "workload"), 0);
    if (strchr(policy, ':')) {
        hs_buf_add(&spec, "; policy ");
        hs_plot_spec_words(&spec, policy, 0);
    }
    hs_plot_spec_words(&t, hs_buf_str(&spec), (size_t)(width / 7)); /* about 7 px a character at Sans 10 */
    hs_buf_free(&spec);
    hs_buf_add(b, "set title ");
    if (title)
        hs_gnuplot_quote(b, title);
    else
        hs_gnuplot_quote_lines(b, hs_buf_str(&t));
    hs_buf_printf(b, "\nset xlabel 'time (%s)'\nset yrange [-0.7:%g]\nset xrange [%.9g:%.9g]\nset ytics (", u.name,
                  r->nrows - 0.3, from / u.div, to / u.div);
    bool first = true;
    for (int i = 0; i < r->n; i++) {
        if (r->row[i] == 0 && r->nidle)
            continue;
        hs_buf_add(b, first ? "" : ", ");
        hs_gnuplot_quote(b, r->name[i]);
        hs_buf_printf(b, " %d", r->row[i]);
        first = false;
    }
    if (r->nidle) { /* "idle: CPU1 CPU6 CPU7", or how many when they are many */
        hs_buf_reset(&t);
        hs_buf_printf(&t, "idle (%d)", r->nidle);
        for (int i = 0, shown = 0; i < r->n && r->nidle <= 4; i++)
            if (r->row[i] == 0)
                hs_buf_printf(&t, "%s%s", shown++ ? " " : ": ", r->name[i]);
        hs_buf_add(b, first ? "" : ", ");
        hs_gnuplot_quote(b, hs_buf_str(&t));
        hs_buf_add(b, " 0");
    }
    hs_buf_free(&t);
    hs_buf_add(b, ")\nset grid x\nset key outside below center horizontal\n"
                  "set style fill solid 1.0 border\n"); /* the border in the box's own colour */
}

/* A box centred on (s+e)/2 at height y, at least a pixel wide. */
/* The window drawn, in seconds: boxes wholly outside it are left out. */
struct window {
    double from, to;
};

static bool outside(const struct window *w, double s, double e)
{
    return e < w->from || s > w->to;
}

static void box(struct hs_buf *b, double s, double e, double y, double half_height, double min_half)
{
    hs_buf_printf(b, "%.9g %g %.9g %g\n", (s + e) / 2, y, fmax((e - s) / 2, min_half), half_height);
}

/* The kernels' colours: one per kernel name, whatever the window, the run or
 * the policy, so that a chart and its zoom, or two policies side by side,
 * compare. The kernels of the dense factorisations have a colour by their
 * role (the panel, its solve, the diagonal update, the trailing update),
 * with or without a precision prefix (dpotrf, spotrf, potrf); other names
 * take, in alphabetical order among the record's kernels, the colours the
 * known ones left. Okabe and Ito's (2008) colours, then Tol's muted ones
 * (2021), all told apart on white by colour-blind readers. */
static const char *const kernel_colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
                                             "#882255", "#44AA99", "#DDCC77", "#117733", "#999999", "#332288"};
#define NCOLOURS ((int)(sizeof kernel_colours / sizeof *kernel_colours))
static const struct {
    const char *base;
    int colour;
} known_kernels[] = {
    {"potrf", 0}, {"trsm", 1},  {"syrk", 2},  {"gemm", 3},  /* Cholesky; LU's trsm and gemm */
    {"getrf", 0}, {"gessm", 1}, {"tstrf", 2}, {"ssssm", 3}, /* LU without pivoting, by tiles */
    {"geqrt", 0}, {"ormqr", 1}, {"tsqrt", 2}, {"tsmqr", 3}, /* QR by tiles */
};
#define NKNOWN ((int)(sizeof known_kernels / sizeof *known_kernels))

/* The entry of known_kernels that names kernel (with a precision prefix s,
 * d, c or z or without), or -1. */
static int known(const char *kernel)
{
    for (int i = 0; i < NKNOWN; i++) {
        const char *b = known_kernels[i].base;
        if (strcmp(kernel, b) == 0 || (strchr("sdcz", kernel[0]) && kernel[0] && strcmp(kernel + 1, b) == 0))
            return i;
    }
    return -1;
}

struct kernel_key {
    const char *name;
    int order;  /* the known ones first, in the table's order; then by name */
    int colour; /* index into kernel_colours */
};

static int cmp_key(const void *a, const void *b)
{
    const struct kernel_key *x = a, *y = b;
    return x->order != y->order ? (x->order > y->order) - (x->order < y->order) : strcmp(x->name, y->name);
}

/* Every kernel of the record (not only of the window), sorted as the
 * legend lists them, with its colour; returns how many. */
static int kernel_keys(const cJSON *tasks, struct kernel_key **keys)
{
    struct kernel_key *k = NULL;
    int nk = 0;
    size_t cap = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, tasks)
    {
        bool seen = false;
        for (int i = 0; i < nk && !seen; i++)
            seen = strcmp(k[i].name, str(t, "kernel")) == 0;
        if (!seen) {
            HS_GROW(k, cap, (size_t)nk + 1); /* doubling, not one realloc per kernel */
            int w = known(str(t, "kernel"));
            k[nk++] = (struct kernel_key){str(t, "kernel"), w >= 0 ? w : NKNOWN, w >= 0 ? known_kernels[w].colour : -1};
        }
    }
    if (nk)
        qsort(k, (size_t)nk, sizeof *k, cmp_key);
    bool taken[NCOLOURS] = {false};
    for (int i = 0; i < nk; i++)
        if (k[i].colour >= 0)
            taken[k[i].colour] = true;
    for (int i = 0, next = 0; i < nk; i++) { /* the others: the colours left, then all again */
        if (k[i].colour >= 0)
            continue;
        int c = next;
        while (c < NCOLOURS && taken[c])
            c++;
        k[i].colour = c < NCOLOURS ? c : next % NCOLOURS;
        next = c < NCOLOURS ? c + 1 : next + 1;
    }
    *keys = k;
    return nk;
}

/* One data block per kernel drawn in the window ($k0, …): x y dx dy of each
 * box, in the unit u; returns how many. */
static int task_blocks(struct hs_buf *b, struct hs_buf *plot, const struct rows *r, const cJSON *tasks,
                       struct hs_unit u, double min_half, const struct window *w)
{
    struct kernel_key *keys;
    int nk = kernel_keys(tasks, &keys), drawn = 0;
    for (int k = 0; k < nk; k++) {
        const cJSON *t;
        bool any = false; /* a kernel not in the window: no key entry */
        cJSON_ArrayForEach(t, tasks)
        {
            int y = row_of(r, str(t, "worker"), false);
            if (y < 0 || strcmp(str(t, "kernel"), keys[k].name) != 0 || outside(w, num(t, "start"), num(t, "end")))
                continue;
            if (!any)
                hs_buf_printf(b, "$k%d << EOD\n", k);
            any = true;
            box(b, num(t, "start") / u.div, num(t, "end") / u.div, y, 0.26, min_half);
        }
        if (!any)
            continue;
        hs_buf_add(b, "EOD\n");
        hs_buf_printf(plot, "%s$k%d using 1:2:3:4 with boxxyerror lc rgb '%s' title ", drawn++ ? ", \\\n     " : "plot ",
                      k, kernel_colours[keys[k].colour]);
        hs_gnuplot_quote(plot, keys[k].name);
    }
    free(keys);
    return drawn;
}

/* Transfers into (in) or out of (!in) a worker's own memory. */
static void transfer_block(struct hs_buf *b, struct hs_buf *plot, const struct rows *r, const cJSON *xfers,
                           bool in, struct hs_unit u, double min_half, const struct window *w)
{
    hs_buf_printf(b, "$%s << EOD\n", in ? "tin" : "tout");
    const cJSON *x;
    int n = 0;
    cJSON_ArrayForEach(x, xfers)
    {
        int y = row_of(r, str(x, in ? "dst" : "src"), true);
        if (y >= 0 && !outside(w, num(x, "start"), num(x, "end"))) {
            box(b, num(x, "start") / u.div, num(x, "end") / u.div, y + (in ? 0.34 : -0.34), 0.06, min_half);
            n++;
        }
    }
    hs_buf_add(b, n ? "EOD\n" : "nan nan nan nan\nEOD\n");
    hs_buf_printf(plot, ", \\\n     $%s using 1:2:3:4 with boxxyerror lc rgb '%s' title '%s'",
                  in ? "tin" : "tout", in ? "#404040" : "#b03000",
                  in ? "transfer in (above)" : "transfer out (below)");
}

int hs_plot_gantt(const cJSON *record, const char *file, const char *output, const struct hs_gantt_opts *o)
{
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(record, "events");
    const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(ev, "tasks");
    if (!cJSON_IsArray(tasks))
        return hs_fail("%s has no events: write it with `hetsim run --events -o %s`", file, file);
    struct rows r = {0};
    if (worker_rows(record, tasks, &r)) {
        rows_free(&r);
        return hs_fail("%s has no workers: is it a run record?", file);
    }
    double makespan = num(cJSON_GetObjectItemCaseSensitive(record, "results"), "makespan");
    struct window w = {o->from, o->to > 0 ? o->to : makespan};
    if (!(w.to > w.from)) {
        rows_free(&r);
        return hs_fail("%s: the window from %g s to %g s is empty (the makespan is %g s)", file, w.from, w.to,
                       makespan);
    }
    if (w.from >= makespan) { /* nothing runs there: an empty chart would say nothing */
        rows_free(&r);
        return hs_fail("%s: the window from %g s to %g s starts at or after the run's end (the makespan is %g s): "
                       "nothing ran in it (give --from below %g)", file, w.from, w.to, makespan, makespan);
    }
    int width = o->width > 0 ? o->width : WIDTH;
    struct hs_unit u = hs_unit_for("time", w.to - w.from);
    double min_half = (w.to - w.from) / u.div / (width - MARGIN_PX) / 2; /* half a pixel */
    struct hs_buf b = {0}, plot = {0};
    int height = 150 + 30 * r.nrows;
    int rc = hs_gnuplot_preamble(&b, output, width, height < 360 ? 360 : height);
    if (!rc) {
        axes(&b, &r, record, o->title, u, w.from, w.to, width);
        if (!task_blocks(&b, &plot, &r, tasks, u, min_half, &w))
            hs_buf_add(&plot, "plot NaN notitle");
        const cJSON *xfers = cJSON_GetObjectItemCaseSensitive(ev, "transfers");
        transfer_block(&b, &plot, &r, xfers, true, u, min_half, &w);
        transfer_block(&b, &plot, &r, xfers, false, u, min_half, &w);
        hs_buf_printf(&b, "%s\n", hs_buf_str(&plot));
        rc = hs_gnuplot_run(hs_buf_str(&b), output, o->script);
    }
    hs_buf_free(&b);
    hs_buf_free(&plot);
    rows_free(&r);
    return rc;
}
