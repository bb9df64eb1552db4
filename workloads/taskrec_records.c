/* workloads/taskrec_records.c — the records of a StarPU tasks.rec: the file
 * parsed by GNU recutils' librec (rec_parse_db: records, comments, record
 * descriptors, values continued over '+' lines, as recsel and rec2csv read
 * them), the fields of each task, its architecture and duration, and the
 * order in which the DAG is built (submission order, moved after what a
 * task depends on). librec says where a parse stopped only on stderr, so
 * the line of a malformed file is found from the parser's offset. */
#include "base/inputfile.h"
#include "base/util.h"
#include "workloads/dagio.h"
#include "workloads/foreign.h"
#include "workloads/taskrec.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const field_names[NFIELDS] = {
    "Name", "Model", "JobId", "SubmitOrder", "DependsOn", "WorkerId", "MemoryNode", "StartTime",
    "EndTime", "Footprint", "GFlop", "Handles", "Modes", "Sizes", "EdgeHandles", "Control"};

int hs_taskrec_bad(const struct hs_taskrec *r, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return hs_fail("%s:%d: %s", r->path, line, msg);
}

/* ---- records -------------------------------------------------------------- */

/* The line librec stopped at, which it does not say (rec_parser_perror only
 * prints it): the line of the last byte it read, quoted in the message. */
static int parse_error(const struct hs_taskrec *r, rec_parser_t p, const char *text, size_t len)
{
    long at = rec_parser_tell(p);
    const char *where = text + (at > 0 && (size_t)at <= len ? at - 1 : 0), *bol = where;
    while (bol > text && bol[-1] != '\n')
        bol--;
    int n = (int)strcspn(bol, "\n");
    return hs_taskrec_bad(r, hs_text_line(text, where), "'%.*s%s' is not a 'Field: value' line of rec (a field "
                          "name is a letter then letters, digits or _; a value goes on in lines that start "
                          "with +)", n > 80 ? 80 : n, bol, n > 80 ? "..." : "");
}

/* One record: the fields hetsim reads (StarPU writes many more: ignored),
 * each at most once; one pass over its fields. */
static int record_fields(const struct hs_taskrec *r, rec_record_t rec, struct hs_taskrec_task *t)
{
    *t = (struct hs_taskrec_task){.line = (int)rec_record_location(rec)};
    rec_mset_iterator_t it = rec_mset_iterator(rec_record_mset(rec));
    const void *f;
    int rc = 0;
    while (!rc && rec_mset_iterator_next(&it, MSET_FIELD, &f, NULL)) {
        const char *name = rec_field_name((rec_field_t)f);
        int k = 0;
        while (k < NFIELDS && strcmp(name, field_names[k]) != 0)
            k++;
        if (k == NFIELDS)
            continue;
        if (t->f[k]) /* which one would be the task's? */
            rc = hs_taskrec_bad(r, (int)rec_field_location((rec_field_t)f), "field %s given twice in one record "
                                "(each task is one record, separated by a blank line)", name);
        /* rec takes one blank after the colon; a number or a JobId list may
         * have more (a hand-edited file), a kernel's name keeps them */
        const char *v = rec_field_value((rec_field_t)f);
        t->f[k] = k == F_NAME || k == F_MODEL ? v : v + strspn(v, " \t");
    }
    rec_mset_iterator_free(&it);
    return rc;
}

/* CR LF line ends (and a CR that ends the file) made LF in place (a file saved on Windows, which the
 * hand-written reader accepted): librec reads a lone CR as part of a value,
 * and a blank line of one CR as no end of record. Returns the new length. */
static size_t unix_line_ends(char *text, size_t len)
{
    size_t w = 0;
    for (size_t i = 0; i < len; i++)
        if (!(text[i] == '\r' && (i + 1 == len || text[i + 1] == '\n')))
            text[w++] = text[i];
    text[w] = '\0';
    return w;
}

static int read_records(struct hs_taskrec *r, char *text, size_t len)
{
    char err[1024];
    if (hs_input_no_nul(r->path, text, len, err, sizeof err))
        return hs_fail("%s", err);
    len = unix_line_ends(text, len);
    rec_parser_t p = rec_parser_new_mem(text, len, r->path);
    if (!p)
        return hs_fail("%s: out of memory", r->path);
    /* rec_parse_db, one record set at a time: on an error it keeps the sets
     * it read, where rec_parse_db would lose them */
    r->db = rec_db_new();
    rec_rset_t rset;
    while (rec_parse_rset(p, &rset))
        rec_db_insert_rset(r->db, rset, rec_db_size(r->db));
    int rc = rec_parser_eof(p) && !rec_parser_error(p) ? 0 : parse_error(r, p, text, len);
    rec_parser_destroy(p);
    if (rc)
        return rc;
    for (size_t s = 0; s < rec_db_size(r->db) && !rc; s++) {
        /* a %rec line makes its record a descriptor, which rec readers do not
         * count as a record: a task's would vanish */
        rec_record_t desc = rec_rset_descriptor(rec_db_get_rset(r->db, s));
        if (desc && rec_record_field_p(desc, "JobId"))
            return hs_taskrec_bad(r, (int)rec_record_location(desc), "a record with both %%rec (a record "
                                  "descriptor, which rec readers do not count as a record) and JobId: give %%rec "
                                  "a record of its own, separated by a blank line");
        rec_mset_iterator_t it = rec_mset_iterator(rec_rset_mset(rec_db_get_rset(r->db, s)));
        const void *rec;
        while (!rc && rec_mset_iterator_next(&it, MSET_RECORD, &rec, NULL)) {
            struct hs_taskrec_task cur;
            rc = record_fields(r, (rec_record_t)rec, &cur);
            if (rc || (cur.f[F_CONTROL] && strcmp(cur.f[F_CONTROL], "WontUse") == 0))
                continue;
            if (!cur.f[F_JOBID] || !*cur.f[F_JOBID])
                rc = hs_taskrec_bad(r, cur.line, "a task record with no JobId");
            else {
                HS_GROW(r->t, r->cap, (size_t)r->n + 1);
                r->t[r->n++] = cur;
            }
        }
        rec_mset_iterator_free(&it);
    }
    if (rc)
        return rc;
    return r->n ? 0 : hs_fail("%s: no task record (a StarPU tasks.rec has JobId lines)", r->path);
}

static double jobid_number(const char *id)
{
    const char *u = strrchr(id, '_'); /* MPI runs prefix the rank: "0_12" */
    return strtod(u ? u + 1 : id, NULL);
}

static int cmp_order(const void *a, const void *b)
{
    const struct hs_taskrec_task *x = a, *y = b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

static int cmp_jobref(const void *a, const void *b)
{
    return strcmp(((const struct hs_taskrec_job *)a)->id, ((const struct hs_taskrec_job *)b)->id);
}

/* JobId -> index, sorted; -1 with hs_fail if a JobId is given twice. */
struct hs_taskrec_job *hs_taskrec_index_jobs(const struct hs_taskrec *r)
{
    struct hs_taskrec_job *jobs = hs_xmalloc((size_t)r->n * sizeof *jobs);
    for (int i = 0; i < r->n; i++)
        jobs[i] = (struct hs_taskrec_job){r->t[i].f[F_JOBID], i};
    qsort(jobs, (size_t)r->n, sizeof *jobs, cmp_jobref);
    for (int i = 1; i < r->n; i++)
        if (strcmp(jobs[i - 1].id, jobs[i].id) == 0) {
            hs_taskrec_bad(r, r->t[jobs[i].index].line, "JobId %s given twice", jobs[i].id);
            free(jobs);
            return NULL;
        }
    return jobs;
}

int hs_taskrec_job(const struct hs_taskrec *r, const struct hs_taskrec_job *jobs, const char *id)
{
    struct hs_taskrec_job key = {id, 0}, *j = bsearch(&key, jobs, (size_t)r->n, sizeof *jobs, cmp_jobref);
    return j ? j->index : -1;
}

/* Reorder r->t (sorted by submission) so that every task comes after those
 * it depends on, keeping submission order otherwise: Kahn's algorithm that
 * always takes the ready task submitted first (a binary heap of indices). */
struct heap {
    int *v;
    int n;
};

static void heap_push(struct heap *h, int x)
{
    int i = h->n++;
    for (; i > 0 && h->v[(i - 1) / 2] > x; i = (i - 1) / 2)
        h->v[i] = h->v[(i - 1) / 2];
    h->v[i] = x;
}

static int heap_pop(struct heap *h)
{
    int top = h->v[0], x = h->v[--h->n], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->v[c + 1] < h->v[c])
            c++;
        if (h->v[c] >= x)
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n)
        h->v[i] = x;
    return top;
}

static int dependency_order(struct hs_taskrec *r)
{
    struct hs_taskrec_job *jobs = hs_taskrec_index_jobs(r);
    if (!jobs)
        return -1;
    struct hs_edges e = {0};
    int rc = 0, *indeg = hs_xcalloc((size_t)r->n, sizeof *indeg);
    for (int i = 0; i < r->n && !rc; i++) {
        char *copy = hs_xstrdup(r->t[i].f[F_DEPS] ? r->t[i].f[F_DEPS] : ""), *p = copy, *w;
        while (!rc && (w = hs_next_word(&p))) {
            int j = hs_taskrec_job(r, jobs, w);
            if (j < 0)
                rc = hs_taskrec_bad(r, r->t[i].line, "JobId %s: DependsOn %s is not the JobId of a task",
                         r->t[i].f[F_JOBID], w);
            else {
                hs_edges_add(&e, j, i, 0);
                indeg[i]++;
            }
        }
        free(copy);
    }
    int *start = hs_xcalloc((size_t)r->n + 1, sizeof *start), *succ = hs_xmalloc((e.n + 1) * sizeof *succ);
    for (size_t k = 0; k < e.n; k++)
        start[e.src[k] + 1]++;
    for (int i = 0; i < r->n; i++)
        start[i + 1] += start[i];
    int *fill = hs_xmalloc(((size_t)r->n + 1) * sizeof *fill);
    memcpy(fill, start, ((size_t)r->n + 1) * sizeof *fill);
    for (size_t k = 0; k < e.n; k++)
        succ[fill[e.src[k]]++] = e.dst[k];
    struct heap h = {hs_xmalloc((size_t)r->n * sizeof(int)), 0};
    struct hs_taskrec_task *sorted = hs_xmalloc((size_t)r->n * sizeof *sorted);
    int done = 0;
    for (int i = 0; i < r->n; i++)
        if (!indeg[i])
            heap_push(&h, i);
    while (!rc && h.n) {
        int i = heap_pop(&h);
        sorted[done++] = r->t[i];
        for (int k = start[i]; k < start[i + 1]; k++)
            if (--indeg[succ[k]] == 0)
                heap_push(&h, succ[k]);
    }
    if (!rc && done < r->n)
        rc = hs_fail("%s: the DependsOn links have a cycle", r->path);
    if (!rc)
        memcpy(r->t, sorted, (size_t)r->n * sizeof *sorted);
    free(sorted);
    free(h.v);
    free(fill);
    free(succ);
    free(start);
    free(indeg);
    hs_edges_free(&e);
    free(jobs);
    return rc;
}

/* ---- values --------------------------------------------------------------- */

static bool listed(const char *list, long worker)
{
    for (const char *p = list; *p;) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        if (worker >= a && worker <= b)
            return true;
        p = *end ? end + 1 : end;
    }
    return false;
}

static int timing(struct hs_taskrec *r, struct hs_taskrec_task *t)
{
    t->arch = -1;
    if (!t->f[F_WORKER] || !*t->f[F_WORKER])
        return 0;
    long w, node = 0;
    double s, e;
    if (hs_parse_long(t->f[F_WORKER], &w) || w < 0)
        return hs_taskrec_bad(r, t->line, "JobId %s: WorkerId '%s' is not a worker number (0 or more)",
                              t->f[F_JOBID], t->f[F_WORKER]);
    if (t->f[F_NODE] && hs_parse_long(t->f[F_NODE], &node))
        return hs_taskrec_bad(r, t->line, "JobId %s: MemoryNode '%s' is not a number", t->f[F_JOBID],
                   t->f[F_NODE]);
    /* starpu_fxt_tool leaves out times that are 0 */
    s = e = 0;
    if ((t->f[F_START] && hs_parse_double(t->f[F_START], &s)) ||
        (t->f[F_END] && hs_parse_double(t->f[F_END], &e)) || !isfinite(s) || !isfinite(e) || e < s)
        return hs_taskrec_bad(r, t->line, "JobId %s: StartTime and EndTime must be numbers, EndTime >= "
                   "StartTime ('%s', '%s')", t->f[F_JOBID], t->f[F_START] ? t->f[F_START] : "",
                   t->f[F_END] ? t->f[F_END] : "");
    t->arch = *r->gpu_workers ? listed(r->gpu_workers, w) : node != 0;
    t->duration = (e - s) / 1000;
    return 0;
}

int hs_taskrec_load(struct hs_taskrec *r, char *text, size_t len)
{
    int rc = read_records(r, text, len);
    for (int i = 0; i < r->n && !rc; i++) {
        struct hs_taskrec_task *t = &r->t[i];
        double so;
        t->order = t->f[F_SUBMIT] && !hs_parse_double(t->f[F_SUBMIT], &so) ? so
                                                                          : jobid_number(t->f[F_JOBID]);
        rc = timing(r, t);
    }
    if (!rc) {
        qsort(r->t, (size_t)r->n, sizeof *r->t, cmp_order);
        rc = dependency_order(r);
    }
    return rc;
}

void hs_taskrec_free(struct hs_taskrec *r)
{
    for (int k = 0; k < r->nhandles; k++)
        free(r->handles[k]);
    free(r->handles);
    free(r->handle_id);
    free(r->t);
    if (r->db)
        rec_db_destroy(r->db);
}
