/* workloads/taskrec_read.c — the "taskrec" workload: replay the task graph of
 * a StarPU run from its tasks.rec (starpu_fxt_tool's recutils file: records
 * of "Field: value" lines, one per task, separated by empty lines, read by
 * librec in taskrec_records.c), with the
 * durations it measured, as StarPU's starpu_replay does:
 *
 *   JobId, SubmitOrder   tasks are added in submission order (SubmitOrder,
 *                        else the number in JobId), moved after the tasks
 *                        they depend on where StarPU recorded a dependency
 *                        on a task submitted later; labelled by JobId
 *   Handles Modes Sizes  the data each task accesses (R, W, RW; C, X and
 *                        other flags read as RW; S, scratch, is dropped)
 *   DependsOn            dependencies the data does not already give (StarPU
 *                        waits for readers before a write; hetsim renames a
 *                        write-only datum) become pure dependencies
 *   Model (else Name)    the kernel; GFlop gives its flops
 *   WorkerId MemoryNode  where it ran: a GPU if gpu_workers lists the worker,
 *                        else if its memory node is not 0 (StarPU's RAM)
 *   StartTime EndTime    its duration (milliseconds in the file)
 *   Footprint            with durations=model (default), a task's cost on an
 *                        architecture is the mean duration of the tasks of
 *                        its Model and Footprint that ran there (what
 *                        StarPU's history-based models hold), and it may run
 *                        only where such a task ran; durations=task: its own
 *                        duration, on its own architecture only
 *   EdgeHandles          hetsim's own field (sim/trace_taskrec.c): data of an
 *                        explicit edge, read back as that edge
 *
 * Records with Control: WontUse are hints, not tasks, and are skipped; a
 * task that never ran (no WorkerId: StarPU's internal tasks) costs nothing.
 * Other fields are ignored. */
#include "base/util.h"
#include "workloads/dagio.h"
#include "workloads/foreign.h"
#include "workloads/taskrec.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every handle named in the file, numbered in sorted order. */
static void index_handles(struct hs_taskrec *r)
{
    size_t cap = 0, n = 0;
    char **all = NULL;
    for (int i = 0; i < r->n; i++) {
        char *copy = hs_xstrdup(r->t[i].f[F_HANDLES] ? r->t[i].f[F_HANDLES] : ""), *p = copy, *w;
        while ((w = hs_next_word(&p))) {
            HS_GROW(all, cap, n + 1);
            all[n++] = hs_xstrdup(w);
        }
        free(copy);
    }
    if (n)
        qsort(all, n, sizeof *all, cmp_str);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && strcmp(all[m - 1], all[i]) == 0)
            free(all[i]);
        else
            all[m++] = all[i];
    }
    r->handles = all;
    r->nhandles = (int)m;
    r->handle_id = hs_xmalloc((m ? m : 1) * sizeof *r->handle_id);
    for (size_t i = 0; i < m; i++)
        r->handle_id[i] = -1;
}

static int handle_index(const struct hs_taskrec *r, const char *name)
{
    if (!r->nhandles)
        return -1;
    char **k = bsearch(&name, r->handles, (size_t)r->nhandles, sizeof *r->handles, cmp_str);
    return k ? (int)(k - r->handles) : -1;
}

/* ---- the DAG -------------------------------------------------------------- */

static int parse_mode(const char *m, enum hs_mode *mode)
{
    bool rd = strchr(m, 'R'), wr = strchr(m, 'W'), redux = strchr(m, 'X');
    if (!rd && !wr && !redux)
        return strchr(m, 'S') ? 1 : -1; /* scratch: a per-worker buffer, no data flow */
    *mode = redux || (rd && wr) ? HS_MODE_RW : rd ? HS_MODE_R : HS_MODE_W;
    return 0;
}

/* Per handle: the last writer and the readers since (hetsim's inference, to
 * tell which StarPU dependencies the data already gives). */
struct hstate {
    int writer;
    int *readers;
    size_t nreaders, cap;
    int edge_src; /* -2: ordinary data; EdgeHandles: the task that wrote it, or -1 */
};

struct implied {
    int *pred;
    size_t n, cap;
};

static void imply(struct implied *im, int task)
{
    if (task >= 0) {
        HS_GROW(im->pred, im->cap, im->n + 1);
        im->pred[im->n++] = task;
    }
}

static int accesses(struct hs_taskrec *r, int i, struct hs_dag *dag, struct hstate *hs, struct implied *im)
{
    struct hs_taskrec_task *t = &r->t[i];
    const char *hp = t->f[F_HANDLES] ? t->f[F_HANDLES] : "", *mp = t->f[F_MODES] ? t->f[F_MODES] : "";
    const char *sp = t->f[F_SIZES] ? t->f[F_SIZES] : "";
    char *h, *m, *s;
    char *hc = hs_xstrdup(hp), *mc = hs_xstrdup(mp), *sc = hs_xstrdup(sp);
    char *ph = hc, *pm = mc, *ps = sc;
    int rc = 0;
    while (!rc && (h = hs_next_word(&ph))) {
        m = hs_next_word(&pm);
        s = hs_next_word(&ps);
        double bytes;
        enum hs_mode mode = HS_MODE_R;
        if (hs_name_ok(h, "%s:%d: JobId %s: Handles", r->path, t->line, t->f[F_JOBID])) {
            rc = -1;
            break;
        }
        int k = handle_index(r, h), pr = m ? parse_mode(m, &mode) : -1;
        if (pr < 0 || !s || hs_parse_double(s, &bytes) || !(bytes >= 0) || !isfinite(bytes)) {
            rc = hs_taskrec_bad(r, t->line, "JobId %s: handle %s needs a mode (R, W, RW) and a size in bytes "
                     "(Modes '%s', Sizes '%s')", t->f[F_JOBID], h, mp, sp);
            break;
        }
        if (pr > 0)
            continue;
        struct hstate *st = &hs[k];
        if (st->edge_src != -2) { /* hetsim's explicit edge */
            if (HS_MODE_WRITES(mode))
                st->edge_src = t->id;
            else if (st->edge_src >= 0)
                hs_dag_add_edge(dag, st->edge_src, t->id, bytes);
            continue;
        }
        if (r->handle_id[k] < 0)
            r->handle_id[k] = hs_dag_add_handle(dag, h, bytes);
        hs_dag_access(dag, t->id, r->handle_id[k], mode);
        if (HS_MODE_READS(mode))
            imply(im, st->writer);
        if (mode == HS_MODE_RW)
            for (size_t q = 0; q < st->nreaders; q++)
                imply(im, st->readers[q]);
        if (HS_MODE_WRITES(mode)) {
            st->writer = i;
            st->nreaders = 0;
        } else {
            HS_GROW(st->readers, st->cap, st->nreaders + 1);
            st->readers[st->nreaders++] = i;
        }
    }
    if (!rc && (hs_next_word(&pm) || hs_next_word(&ps)))
        rc = hs_taskrec_bad(r, t->line, "JobId %s: Handles, Modes and Sizes have different lengths",
                 t->f[F_JOBID]);
    free(hc);
    free(mc);
    free(sc);
    return rc;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* DependsOn entries that the data does not give become pure dependencies. */
static int depends(struct hs_taskrec *r, int i, const struct hs_taskrec_job *jobs, struct implied *im,
                   struct hs_dag *dag)
{
    struct hs_taskrec_task *t = &r->t[i];
    if (!t->f[F_DEPS])
        return 0;
    if (im->n)
        qsort(im->pred, im->n, sizeof *im->pred, cmp_int);
    char *copy = hs_xstrdup(t->f[F_DEPS]), *p = copy, *w;
    int rc = 0;
    while (!rc && (w = hs_next_word(&p))) {
        int j = hs_taskrec_job(r, jobs, w);
        if (!im->n || !bsearch(&j, im->pred, im->n, sizeof *im->pred, cmp_int))
            hs_dag_add_edge(dag, r->t[j].id, t->id, 0);
    }
    free(copy);
    return rc;
}

static const char *kernel_of(const struct hs_taskrec_task *t)
{
    return t->f[F_MODEL] && *t->f[F_MODEL] ? t->f[F_MODEL]
           : t->f[F_NAME] && *t->f[F_NAME] ? t->f[F_NAME] : "task";
}

static int cmp_kind(const void *a, const void *b)
{
    const struct hs_taskrec_task *x = *(struct hs_taskrec_task *const *)a, *y = *(struct hs_taskrec_task *const *)b;
    int c = strcmp(kernel_of(x), kernel_of(y));
    return c ? c : strcmp(x->f[F_FOOT] ? x->f[F_FOOT] : "", y->f[F_FOOT] ? y->f[F_FOOT] : "");
}

static void set_costs(struct hs_task *task, const double *sum, const int *count)
{
    unsigned mask = 0;
    for (int a = 0; a < HS_NARCH; a++)
        if (count[a]) {
            task->arch_cost[a] = sum[a] / count[a];
            mask |= HS_ARCH_BIT(a);
        }
    if (mask)
        task->arch_mask = mask;
    else
        hs_task_zero_cost(task);
}

/* durations=model: means per Model, Footprint and architecture; task: own. */
static void costs(struct hs_taskrec *r, struct hs_dag *dag, bool per_task)
{
    struct hs_taskrec_task **v = hs_xmalloc((size_t)r->n * sizeof *v);
    for (int i = 0; i < r->n; i++)
        v[i] = &r->t[i];
    if (!per_task)
        qsort(v, (size_t)r->n, sizeof *v, cmp_kind);
    for (int g = 0, e; g < r->n; g = e) {
        double sum[HS_NARCH] = {0};
        int count[HS_NARCH] = {0};
        for (e = g; e < r->n && (e == g || (!per_task && cmp_kind(&v[g], &v[e]) == 0)); e++)
            if (v[e]->arch >= 0) {
                sum[v[e]->arch] += v[e]->duration;
                count[v[e]->arch]++;
            }
        for (int k = g; k < e; k++)
            set_costs(&dag->tasks[v[k]->id], sum, count);
    }
    free(v);
}

static int build(struct hs_taskrec *r, struct hs_dag *dag, bool per_task)
{
    struct hs_taskrec_job *jobs = hs_taskrec_index_jobs(r);
    if (!jobs)
        return -1;
    int rc = 0;
    struct hstate *hs = hs_xcalloc((size_t)r->nhandles + 1, sizeof *hs);
    for (int k = 0; k < r->nhandles; k++)
        hs[k] = (struct hstate){.writer = -1, .edge_src = -2};
    for (int i = 0; i < r->n; i++) { /* data of hetsim's explicit edges */
        char *copy = hs_xstrdup(r->t[i].f[F_EDGES] ? r->t[i].f[F_EDGES] : ""), *p = copy, *w;
        while ((w = hs_next_word(&p)))
            if (handle_index(r, w) >= 0)
                hs[handle_index(r, w)].edge_src = -1;
        free(copy);
    }
    struct implied im = {0};
    for (int i = 0; i < r->n && !rc; i++) {
        struct hs_taskrec_task *t = &r->t[i];
        double gflop = 0;
        if (hs_name_ok(t->f[F_JOBID], "%s:%d: JobId", r->path, t->line) ||
            hs_name_ok(kernel_of(t), "%s:%d: JobId %s: %s", r->path, t->line, t->f[F_JOBID],
                       t->f[F_MODEL] && *t->f[F_MODEL] ? "Model" : "Name"))
            rc = -1;
        else if (t->f[F_GFLOP] && (hs_parse_double(t->f[F_GFLOP], &gflop) || !(gflop >= 0) || !isfinite(gflop)))
            rc = hs_taskrec_bad(r, t->line, "JobId %s: GFlop '%s' is not a number >= 0", t->f[F_JOBID], t->f[F_GFLOP]);
        else {
            t->id = hs_dag_add_task(dag, kernel_of(t), t->f[F_JOBID], gflop * 1e9, 0);
            im.n = 0;
            rc = accesses(r, i, dag, hs, &im);
            if (!rc)
                rc = depends(r, i, jobs, &im, dag);
        }
    }
    if (!rc)
        costs(r, dag, per_task);
    for (int k = 0; k < r->nhandles; k++)
        free(hs[k].readers);
    free(hs);
    free(im.pred);
    free(jobs);
    return rc;
}

static int read_taskrec(const char *path, const char *durations, const char *gpu_workers,
                        struct hs_dag *dag)
{
    size_t len;
    char *text = hs_read_text(path, &len);
    if (!text)
        return -1;
    struct hs_taskrec r = {.path = path, .gpu_workers = gpu_workers};
    int rc = hs_taskrec_load(&r, text, len);
    free(text);
    if (!rc) {
        index_handles(&r);
        rc = build(&r, dag, strcmp(durations, "task") == 0);
    }
    hs_taskrec_free(&r);
    return rc;
}

static const struct hs_param taskrec_params[] = {
    {.name = "file", .type = HS_P_STRING, .positional = true,
     .help = "StarPU tasks.rec (starpu_fxt_tool's, or hetsim run --tasks-rec)"},
    {.name = "durations", .type = HS_P_CHOICE, .defval = "model", .choices = "model|task",
     .help = "model: mean per Model, Footprint and architecture; task: each task's own, on its "
             "own architecture"},
    {.name = "gpu_workers", .type = HS_P_STRING, .defval = "",
     .help = "WorkerIds of GPU workers, e.g. 0-3:8 (default: those on a memory node other than 0)"},
    {0},
};

/* gpu_workers: items separated by ':', each a worker number N or a range
 * A-B with A <= B, numbers of at most 9 digits; "" (none given) passes. */
static bool worker_list(const char *g)
{
    for (const char *p = g; *p;) {
        size_t a = strspn(p, "0123456789");
        if (a == 0 || a > 9)
            return false;
        long lo = strtol(p, NULL, 10), hi = lo;
        p += a;
        if (*p == '-') {
            size_t b = strspn(++p, "0123456789");
            if (b == 0 || b > 9)
                return false;
            hi = strtol(p, NULL, 10);
            p += b;
        }
        if (hi < lo || (*p && *p != ':') || (*p == ':' && !p[1]))
            return false;
        p += *p == ':';
    }
    return true;
}

static int build_taskrec(const struct hs_spec *spec, struct hs_dag *dag)
{
    const char *g = hs_spec_get(spec, "gpu_workers");
    if (!worker_list(g))
        return hs_fail("workload taskrec: gpu_workers '%s' is not a list of worker numbers and "
                       "ranges, low to high (0-3:8)", g);
    return read_taskrec(hs_spec_get(spec, "file"), hs_spec_get(spec, "durations"), g, dag);
}

const struct hs_workload hs_workload_taskrec = {
    .name = "taskrec",
    .summary = "StarPU tasks.rec: a run's task graph with its measured durations (starpu_replay)",
    .params = taskrec_params,
    .build = build_taskrec,
};

