/* workloads/dag_json_read.c — the "json" workload: read a DAG written by
 * hs_dag_write_json (format in dag_json.c and docs/workloads.md), so that JSON →
 * read → write JSON gives the same bytes.
 *
 * The top-level object is scanned here and each handle, task and edge is
 * parsed on its own with cJSON (cJSON_ParseWithLengthOpts stops after one
 * value), so a 100,000-task file never becomes one large cJSON tree. Accesses
 * and edges wait until every handle and task is known, so the keys may come
 * in any order. "dependencies" is informative and ignored. A file whose top
 * level has WfFormat's "workflow" or "schemaVersion" is handed to wfformat.c. */
#include "workloads/dagio.h"
#include "workloads/workload.h"
#include "base/inputfile.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { WFFORMAT = 1 }; /* scan result: the file is a WfFormat instance */

struct pending_access {
    int task, index, handle;
    enum hs_mode mode;
};

struct pending_edge {
    int index;
    double src, dst, bytes;
};

struct jreader {
    const char *path, *text, *p, *end;
    struct hs_dag *dag;
    struct pending_access *acc;
    size_t nacc, cap_acc;
    struct pending_edge *edges;
    size_t nedges, cap_edges;
    int ncosts, ncosts_task; /* per-processor cost length, and the task that set it */
    unsigned seen;           /* top-level keys met (bits) */
    char unknown[64];        /* first unknown top-level key */
};

static const char *const top_keys[] = {"name", "total_flops", "handles", "tasks", "edges",
                                       "dependencies", NULL};
static const char *const task_keys[] = {"label", "kernel", "flops", "footprint", "accesses",
                                        "costs", "archs", "attrs", NULL};

#define bad(r, ...) hs_fail_at((r)->path, -1, __VA_ARGS__)

static int key_index(const char *const *keys, const char *key)
{
    for (int i = 0; keys[i]; i++)
        if (strcmp(keys[i], key) == 0)
            return i;
    return -1;
}

static void key_list(const char *const *keys, char *buf, size_t size)
{
    size_t len = 0;
    for (int i = 0; keys[i]; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", keys[i]);
}

/* ---- scanning ------------------------------------------------------------- */

static void skip_ws(struct jreader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static int malformed(const struct jreader *r, const char *at)
{
    return bad(r, "malformed JSON near line %d", hs_text_line(r->text, at));
}

/* One JSON value at r->p (cJSON), r->p moved past it; NULL with hs_fail. */
static cJSON *next_value(struct jreader *r)
{
    const char *stop = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(r->p, (size_t)(r->end - r->p), &stop, 0);
    if (!v) {
        malformed(r, stop ? stop : r->p);
        return NULL;
    }
    r->p = stop;
    return v;
}

/* Call elem(r, value, i) on each element of the array at r->p. */
static int scan_array(struct jreader *r, const char *key,
                      int (*elem)(struct jreader *, const cJSON *, int))
{
    if (*r->p != '[')
        return bad(r, "'%s' must be an array (line %d)", key, hs_text_line(r->text, r->p));
    r->p++;
    skip_ws(r);
    if (*r->p == ']') {
        r->p++;
        return 0;
    }
    for (int i = 0;; i++) {
        cJSON *v = next_value(r);
        if (!v)
            return -1;
        int rc = elem ? elem(r, v, i) : 0;
        cJSON_Delete(v);
        if (rc)
            return rc;
        skip_ws(r);
        if (*r->p == ']') {
            r->p++;
            return 0;
        }
        if (*r->p != ',')
            return malformed(r, r->p);
        r->p++;
        skip_ws(r);
    }
}

/* ---- values --------------------------------------------------------------- */

/* A number >= 0 (null: infinity when allow_inf); where names it in messages. */
/* where + key name the value in messages (key may be ""): the path is only
 * formatted when a value is refused, which keeps reading large files fast. */
static int nonneg(const struct jreader *r, const cJSON *v, const char *where, const char *key,
                  bool allow_inf, double *out)
{
    if (allow_inf && cJSON_IsNull(v)) {
        *out = INFINITY;
        return 0;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return bad(r, "%s%s: not a number", where, key);
    if (v->valuedouble < 0)
        return bad(r, "%s%s: %g is negative", where, key, v->valuedouble);
    *out = v->valuedouble;
    return 0;
}

static int index_value(const struct jreader *r, const cJSON *v, const char *where, const char *key,
                       double *out)
{
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < 0 ||
        v->valuedouble > INT_MAX)
        return bad(r, "%s%s: not an index (an integer >= 0)", where, key);
    *out = v->valuedouble;
    return 0;
}

static const char *string_field(const struct jreader *r, const cJSON *o, const char *key,
                                const char *where, const char *def, int *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return def;
    if (!cJSON_IsString(v) || !*v->valuestring) {
        *err = bad(r, "%s.%s: not a non-empty string", where, key);
        return NULL;
    }
    return v->valuestring;
}

/* Keys outside the list, or given twice anywhere in o (cJSON keeps the first
 * of two silently). */
static int unknown_keys(const struct jreader *r, const cJSON *o, const char *const *keys,
                        const char *where)
{
    char twice[256];
    if (hs_json_unique_keys(o, where, twice, sizeof twice))
        return bad(r, "%s: given twice", twice);
    const cJSON *c;
    cJSON_ArrayForEach(c, o)
    {
        if (key_index(keys, c->string) < 0) {
            char names[256];
            key_list(keys, names, sizeof names);
            return bad(r, "%s: unknown key '%s' (valid: %s)", where, c->string, names);
        }
    }
    return 0;
}

/* ---- elements ------------------------------------------------------------- */

static int read_handle(struct jreader *r, const cJSON *o, int i)
{
    static const char *const keys[] = {"name", "bytes", NULL};
    char where[64];
    snprintf(where, sizeof where, "handles[%d]", i);
    int err = 0;
    if (!cJSON_IsObject(o))
        return bad(r, "%s: not an object", where);
    if (unknown_keys(r, o, keys, where))
        return -1;
    const char *name = string_field(r, o, "name", where, NULL, &err);
    if (err || (name && hs_name_ok(name, "%s: %s.name", r->path, where)))
        return -1;
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "bytes");
    double bytes = 0;
    snprintf(where + strlen(where), sizeof where - strlen(where), ".bytes");
    if (!b)
        return bad(r, "%s: missing", where);
    if (nonneg(r, b, where, "", false, &bytes))
        return -1;
    if (bytes != floor(bytes) || bytes > 9007199254740992.0) /* whole bytes, exact in a double (2^53) */
        return bad(r, "%s: %.17g is not a whole number of bytes up to 2^53", where, bytes);
    char def[32];
    snprintf(def, sizeof def, "h%d", i);
    hs_dag_add_handle(r->dag, name ? name : def, bytes);
    return 0;
}

static int read_accesses(struct jreader *r, const cJSON *list, int t, const char *where)
{
    static const char *const keys[] = {"handle", "mode", NULL};
    if (!list)
        return 0;
    if (!cJSON_IsArray(list))
        return bad(r, "%s.accesses: not an array", where);
    int i = 0;
    for (const cJSON *a = list->child; a; a = a->next, i++) {
        char w[96];
        snprintf(w, sizeof w, "%s.accesses[%d]", where, i);
        if (!cJSON_IsObject(a))
            return bad(r, "%s: not an object", w);
        if (unknown_keys(r, a, keys, w))
            return -1;
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(a, "handle");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(a, "mode");
        double hv = 0;
        if (index_value(r, h, w, ".handle", &hv))
            return -1;
        const char *ms = cJSON_IsString(m) ? m->valuestring : "";
        enum hs_mode mode = strcmp(ms, "R") == 0 ? HS_MODE_R : strcmp(ms, "W") == 0 ? HS_MODE_W
                          : strcmp(ms, "RW") == 0 ? HS_MODE_RW : 0;
        if (!mode)
            return bad(r, "%s.accesses[%d].mode: not \"R\", \"W\" or \"RW\"", where, i);
        HS_GROW(r->acc, r->cap_acc, r->nacc + 1);
        r->acc[r->nacc++] = (struct pending_access){t, i, (int)hv, mode};
    }
    return 0;
}

static int read_proc_costs(struct jreader *r, const cJSON *c, int t, const char *where)
{
    int n = cJSON_GetArraySize(c);
    if (n == 0)
        return bad(r, "%s.costs: empty array", where);
    if (r->ncosts >= 0 && n != r->ncosts)
        return bad(r, "%s.costs: %d per-processor costs, but tasks[%d] has %d", where, n,
                   r->ncosts_task, r->ncosts);
    r->ncosts = n;
    r->ncosts_task = t;
    double *v = hs_xmalloc((size_t)n * sizeof(double));
    int i = 0;
    for (const cJSON *x = c->child; x; x = x->next, i++) {
        if (cJSON_IsNumber(x) && isfinite(x->valuedouble) && x->valuedouble >= 0) {
            v[i] = x->valuedouble; /* the common case, without formatting a path */
            continue;
        }
        char w[96];
        snprintf(w, sizeof w, "%s.costs[%d]", where, i);
        if (nonneg(r, x, w, "", true, &v[i])) {
            free(v);
            return -1;
        }
    }
    hs_dag_set_proc_costs(r->dag, t, v, n);
    free(v);
    return 0;
}

static int read_costs(struct jreader *r, const cJSON *c, int t, const char *where)
{
    static const char *const keys[] = {"cpu", "gpu", NULL};
    if (!c)
        return 0;
    if (cJSON_IsArray(c))
        return read_proc_costs(r, c, t, where);
    char w[96];
    snprintf(w, sizeof w, "%s.costs", where);
    if (!cJSON_IsObject(c))
        return bad(r, "%s: not an object {\"cpu\": s, \"gpu\": s} or an array [s, …]", w);
    if (unknown_keys(r, c, keys, w))
        return -1;
    for (int a = 0; a < HS_NARCH; a++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(c, keys[a]);
        char wa[112];
        snprintf(wa, sizeof wa, "%s.%s", w, keys[a]);
        if (x && nonneg(r, x, wa, "", true, &r->dag->tasks[t].arch_cost[a]))
            return -1;
    }
    return 0;
}

static int read_archs_attrs(struct jreader *r, const cJSON *o, int t, const char *where)
{
    struct hs_task *task = &r->dag->tasks[t];
    const cJSON *archs = cJSON_GetObjectItemCaseSensitive(o, "archs");
    if (archs) {
        unsigned mask = 0;
        const cJSON *x;
        cJSON_ArrayForEach(x, archs)
        {
            unsigned m;
            if (!cJSON_IsString(x) || hs_archs_parse(x->valuestring, &m) || strchr(x->valuestring, ','))
                return bad(r, "%s.archs: not a list of \"cpu\" and \"gpu\"", where);
            mask |= m;
        }
        if (!cJSON_IsArray(archs) || !mask)
            return bad(r, "%s.archs: not a non-empty list of \"cpu\" and \"gpu\"", where);
        task->arch_mask = mask;
    }
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(o, "attrs");
    if (attrs && !cJSON_IsObject(attrs))
        return bad(r, "%s.attrs: not an object", where);
    const cJSON *x;
    cJSON_ArrayForEach(x, attrs)
    {
        if (!cJSON_IsString(x))
            return bad(r, "%s.attrs.%s: not a string", where, x->string);
        if (hs_name_ok(x->string, "%s: %s.attrs (a key)", r->path, where))
            return -1;
        if (hs_dot_reserved(x->string))
            return bad(r, "%s.attrs.%s: a name hetsim uses (label, kernel, size, footprint, "
                       "costs, archs)", where, x->string);
        hs_task_add_extra(task, x->string, x->valuestring);
    }
    return 0;
}

static int read_task(struct jreader *r, const cJSON *o, int i)
{
    char where[64];
    snprintf(where, sizeof where, "tasks[%d]", i);
    int err = 0;
    if (!cJSON_IsObject(o))
        return bad(r, "%s: not an object", where);
    if (unknown_keys(r, o, task_keys, where))
        return -1;
    const char *kernel = string_field(r, o, "kernel", where, "task", &err);
    const char *label = err ? NULL : string_field(r, o, "label", where, NULL, &err);
    if (err || hs_name_ok(kernel, "%s: %s.kernel", r->path, where) ||
        (label && hs_name_ok(label, "%s: %s.label", r->path, where)))
        return -1;
    double flops = 0, footprint = 0;
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, "flops");
    const cJSON *fp = cJSON_GetObjectItemCaseSensitive(o, "footprint");
    if (f && nonneg(r, f, where, ".flops", false, &flops))
        return -1;
    if (fp && index_value(r, fp, where, ".footprint", &footprint))
        return -1;
    int t = hs_dag_add_task(r->dag, kernel, label, flops, (int)footprint);
    if (read_accesses(r, cJSON_GetObjectItemCaseSensitive(o, "accesses"), t, where) ||
        read_costs(r, cJSON_GetObjectItemCaseSensitive(o, "costs"), t, where))
        return -1;
    return read_archs_attrs(r, o, t, where);
}

static int read_edge(struct jreader *r, const cJSON *o, int i)
{
    static const char *const keys[] = {"src", "dst", "bytes", NULL};
    char where[64];
    snprintf(where, sizeof where, "edges[%d]", i);
    if (!cJSON_IsObject(o))
        return bad(r, "%s: not an object", where);
    if (unknown_keys(r, o, keys, where))
        return -1;
    struct pending_edge e = {.index = i};
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "bytes");
    if (index_value(r, cJSON_GetObjectItemCaseSensitive(o, "src"), where, ".src", &e.src) ||
        index_value(r, cJSON_GetObjectItemCaseSensitive(o, "dst"), where, ".dst", &e.dst) ||
        (b && nonneg(r, b, where, ".bytes", false, &e.bytes)))
        return -1;
    HS_GROW(r->edges, r->cap_edges, r->nedges + 1);
    r->edges[r->nedges++] = e;
    return 0;
}

/* ---- the document --------------------------------------------------------- */

static int read_member(struct jreader *r, const char *key)
{
    if (strcmp(key, "workflow") == 0 || strcmp(key, "schemaVersion") == 0)
        return WFFORMAT;
    int k = key_index(top_keys, key);
    if (k >= 0 && (r->seen & (1u << k)))
        return bad(r, "key '%s' given twice", key);
    if (k >= 0)
        r->seen |= 1u << k;
    if (k == 2 || k == 3 || k == 4 || k == 5) {
        int (*elem[])(struct jreader *, const cJSON *, int) = {read_handle, read_task, read_edge, NULL};
        return scan_array(r, key, elem[k - 2]);
    }
    cJSON *v = next_value(r);
    if (!v)
        return -1;
    int rc = 0;
    if (k < 0 && !r->unknown[0])
        snprintf(r->unknown, sizeof r->unknown, "%s", key);
    else if (k == 0 && !cJSON_IsString(v))
        rc = bad(r, "name: not a string");
    else if (k == 0 && hs_name_ok(v->valuestring, "%s: name", r->path))
        rc = -1;
    else if (k == 0)
        hs_dag_rename(r->dag, v->valuestring);
    else if (k == 1)
        rc = nonneg(r, v, "total_flops", "", false, &r->dag->total_flops);
    cJSON_Delete(v);
    return rc;
}

static int scan_document(struct jreader *r)
{
    skip_ws(r);
    if (*r->p != '{')
        return *r->p == '[' ? bad(r, "the top level must be an object {\"tasks\": [...], ...}")
                            : malformed(r, r->p);
    r->p++;
    skip_ws(r);
    if (*r->p == '}')
        r->p++;
    else
        for (;;) {
            cJSON *key = next_value(r);
            if (!key)
                return -1;
            skip_ws(r);
            if (!cJSON_IsString(key) || *r->p != ':') {
                cJSON_Delete(key);
                return malformed(r, r->p);
            }
            r->p++;
            skip_ws(r);
            int rc = read_member(r, key->valuestring);
            cJSON_Delete(key);
            if (rc)
                return rc;
            skip_ws(r);
            if (*r->p == '}') {
                r->p++;
                break;
            }
            if (*r->p != ',')
                return malformed(r, r->p);
            r->p++;
            skip_ws(r);
        }
    skip_ws(r);
    return r->p == r->end ? 0 : malformed(r, r->p);
}

/* Accesses and edges, now that every handle and task is known. */
static int apply_pending(struct jreader *r)
{
    struct hs_dag *dag = r->dag;
    for (size_t i = 0; i < r->nacc; i++) {
        const struct pending_access *a = &r->acc[i];
        if (a->handle >= dag->nhandles)
            return bad(r, "tasks[%d].accesses[%d].handle: %d is not a handle (the file has %d)",
                       a->task, a->index, a->handle, dag->nhandles);
        hs_dag_access(dag, a->task, a->handle, a->mode);
    }
    for (size_t i = 0; i < r->nedges; i++) {
        const struct pending_edge *e = &r->edges[i];
        if (e->src >= dag->ntasks || e->dst >= dag->ntasks)
            return bad(r, "edges[%d]: task %.0f is not a task (the file has %d)", e->index,
                       e->src >= dag->ntasks ? e->src : e->dst, dag->ntasks);
        if (e->src == e->dst)
            return bad(r, "edges[%d]: task %s depends on itself (a cycle)", e->index,
                       dag->tasks[(int)e->src].label);
        hs_dag_add_edge(dag, (int)e->src, (int)e->dst, e->bytes);
    }
    for (int t = 0; t < dag->ntasks && r->ncosts > 0; t++)
        if (!dag->tasks[t].proc_cost)
            return bad(r, "tasks[%d]: no per-processor costs, but tasks[%d] has %d (give every "
                       "task the same number)", t, r->ncosts_task, r->ncosts);
    return 0;
}

static int read_json(const char *path, struct hs_dag *dag)
{
    size_t len;
    char *text = hs_read_text(path, &len);
    if (!text)
        return -1;
    char err[1024]; /* cJSON skips a NUL byte as white space, where a value ends */
    if (hs_input_no_nul(path, text, len, err, sizeof err)) {
        free(text);
        return hs_fail("%s", err);
    }
    struct jreader r = {.path = path, .text = text, .p = text, .end = text + len, .dag = dag,
                        .ncosts = -1};
    int rc = scan_document(&r);
    if (rc == 0 && r.unknown[0]) {
        char names[256];
        key_list(top_keys, names, sizeof names);
        rc = bad(&r, "unknown key '%s' (valid: %s; or a WfFormat instance)", r.unknown, names);
    }
    if (rc == WFFORMAT && (dag->ntasks || dag->nhandles))
        rc = bad(&r, "mixes hetsim keys (handles, tasks) with WfFormat's workflow");
    if (rc == 0)
        rc = apply_pending(&r);
    free(r.acc);
    free(r.edges);
    free(text);
    return rc;
}

static const struct hs_param json_params[] = {
    {.name = "file", .type = HS_P_STRING, .positional = true,
     .help = "hetsim JSON DAG file (a WfFormat instance is read as wfformat:file=)"},
    {0},
};

static int build_json(const struct hs_spec *spec, struct hs_dag *dag)
{
    const char *path = hs_spec_get(spec, "file");
    int rc = read_json(path, dag);
    if (rc == WFFORMAT)
        return hs_wfformat_read(path, 1e9, dag);
    return rc;
}

const struct hs_workload hs_workload_json = {
    .name = "json",
    .summary = "DAG file in hetsim's JSON format (docs/workloads.md, hetsim JSON)",
    .params = json_params,
    .build = build_json,
};
