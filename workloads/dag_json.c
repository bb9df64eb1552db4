/* workloads/dag_json.c — a DAG as JSON, one array element per line.
 *
 *   { "name": "...", "total_flops": f,
 *     "handles": [ {"name": "A(0,0)", "bytes": b}, … ],          original data
 *     "tasks":   [ {"label": "potrf(0)", "kernel": "dpotrf", "flops": f,
 *                   "footprint": nb, "accesses": [{"handle": i, "mode": "RW"}],
 *                   "costs": {"cpu": s, "gpu": s} | [s, s, …] }, … ],
 *     "edges":   [ {"src": i, "dst": j, "bytes": b}, … ],         explicit edges
 *     "dependencies": [ {"src": i, "dst": j, "bytes": b}, … ] }  inferred (informative)
 *
 * Accesses name the original handles (renamed versions are re-derived when
 * the file is read); private edge handles are written as explicit edges.
 *
 * The text is streamed through a buffer rather than built as a cJSON tree:
 * for a 100,000-task random DAG the tree took 0.5 GB and, with cJSON's number
 * printing (three libc conversions per number), 2.5 s. Numbers are written as
 * cJSON writes them, exactly (see format_number), and the bytes of explicit
 * edges are formatted once for both lists; strings with JSON escapes. */
#include "workloads/dagio.h"
#include "sim/util.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Output buffered here and handed to stdio in large blocks. */
struct jout {
    FILE *f;
    char buf[1 << 16];
    size_t n;
};

static void put_bytes(struct jout *o, const char *s, size_t len)
{
    if (o->n + len > sizeof o->buf) {
        fwrite(o->buf, 1, o->n, o->f);
        o->n = 0;
        if (len > sizeof o->buf) {
            fwrite(s, 1, len, o->f);
            return;
        }
    }
    memcpy(o->buf + o->n, s, len);
    o->n += len;
}

static void put(struct jout *o, const char *s)
{
    put_bytes(o, s, strlen(s));
}

static void put_int(struct jout *o, long long v)
{
    char buf[24], *p = buf + sizeof buf;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    put_bytes(o, p, (size_t)(buf + sizeof buf - p));
}

/* Digits 16 and 17 of a %.17g mantissa, or -1 if it shows fewer than 16. */
static int last_two_digits(const char *s)
{
    int nd = 0, d16 = 0, d17 = 0;
    for (; *s && *s != 'e'; s++) {
        if (*s < '0' || *s > '9' || (nd == 0 && *s == '0'))
            continue;
        nd++;
        if (nd == 16)
            d16 = *s - '0';
        else if (nd == 17)
            d17 = *s - '0';
    }
    return nd < 16 ? -1 : 10 * d16 + d17;
}

/* cJSON's rule, made exact: integers below 1e15 as integers; else %.15g if it
 * reads back as v, else %.17g (which always does); non-finite values as null.
 * %.17g is written first: a 15-digit decimal D can read back as v only if
 * |v - D| <= ulp(v)/2 <= 11.1 units of the 17th digit, so digits 16-17 of
 * the %.17g form are then within 12 of a multiple of 100; only then (a
 * quarter of random values) is %.15g tried. Subnormals always try it. */
static void format_number(double v, char buf[static 32])
{
    if (!isfinite(v)) {
        strcpy(buf, "null");
        return;
    }
    if (v == trunc(v) && fabs(v) < 1e15) {
        snprintf(buf, 32, "%lld", (long long)v);
        return;
    }
    snprintf(buf, 32, "%1.17g", v);
    int last = last_two_digits(buf);
    if (last < 0 || last <= 12 || last >= 88 || fabs(v) < DBL_MIN) {
        char b15[32];
        snprintf(b15, sizeof b15, "%1.15g", v);
        if (strtod(b15, NULL) == v)
            strcpy(buf, b15);
    }
}

static void put_number(struct jout *o, double v)
{
    char buf[32];
    if (v == trunc(v) && fabs(v) < 1e15) /* the common integers, without snprintf */
        put_int(o, (long long)v);
    else {
        format_number(v, buf);
        put(o, buf);
    }
}

static void put_string(struct jout *o, const char *s)
{
    char esc[8];
    put_bytes(o, "\"", 1);
    for (const char *c = s; *c;) {
        size_t plain = strcspn(c, "\"\\\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d"
                                  "\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b"
                                  "\x1c\x1d\x1e\x1f");
        put_bytes(o, c, plain);
        c += plain;
        if (!*c)
            break;
        if (*c == '"' || *c == '\\')
            snprintf(esc, sizeof esc, "\\%c", *c);
        else
            snprintf(esc, sizeof esc, "\\u%04x", (unsigned char)*c);
        put(o, esc);
        c++;
    }
    put_bytes(o, "\"", 1);
}

/* Separator before an array element: a new line, and a comma after the first. */
static void next_item(struct jout *o, bool *first)
{
    put(o, *first ? "\n    " : ",\n    ");
    *first = false;
}

static const char *mode_name(enum hs_mode m)
{
    return m == HS_MODE_R ? "R" : m == HS_MODE_W ? "W" : "RW";
}

/* The original (non-temporary, version 0) handles; returns the index of each
 * handle in that list (-1 for the others). */
static int *put_handles(const struct hs_dag *dag, struct jout *o)
{
    int *idx = hs_xmalloc((size_t)(dag->nhandles ? dag->nhandles : 1) * sizeof(int));
    int n = 0;
    bool first = true;
    put(o, "  \"handles\": [");
    for (int h = 0; h < dag->nhandles; h++) {
        const struct hs_handle *hd = &dag->handles[h];
        idx[h] = -1;
        if (hd->temporary || hd->version > 0)
            continue;
        next_item(o, &first);
        put(o, "{\"name\": ");
        put_string(o, hd->name);
        put(o, ", \"bytes\": ");
        put_number(o, hd->bytes);
        put(o, "}");
        idx[h] = n++;
    }
    put(o, "],\n");
    return idx;
}

static void put_costs(const struct hs_dag *dag, const struct hs_task *t, struct jout *o)
{
    if (t->proc_cost) {
        put(o, ", \"costs\": [");
        for (int p = 0; p < dag->nproc_costs; p++) {
            put(o, p ? ", " : "");
            put_number(o, t->proc_cost[p]);
        }
        put(o, "]");
    } else if (!isnan(t->arch_cost[HS_ARCH_CPU]) || !isnan(t->arch_cost[HS_ARCH_GPU])) {
        bool first = true;
        put(o, ", \"costs\": {");
        for (int a = 0; a < HS_NARCH; a++)
            if (!isnan(t->arch_cost[a])) {
                put(o, first ? "\"" : ", \"");
                put(o, hs_arch_name(a));
                put(o, "\": ");
                put_number(o, t->arch_cost[a]);
                first = false;
            }
        put(o, "}");
    }
}

static void put_task(const struct hs_dag *dag, const struct hs_task *t, const int *idx,
                     struct jout *o)
{
    put(o, "{\"label\": ");
    put_string(o, t->label);
    put(o, ", \"kernel\": ");
    put_string(o, dag->kernels[t->kernel]);
    put(o, ", \"flops\": ");
    put_number(o, t->flops);
    put(o, ", \"footprint\": ");
    put_int(o, t->footprint);
    put(o, ", \"accesses\": [");
    bool first = true;
    for (int i = 0; i < t->naccess; i++) {
        const struct hs_handle *hd = &dag->handles[t->access[i].handle];
        if (hd->temporary)
            continue;
        put(o, first ? "{\"handle\": " : ", {\"handle\": ");
        put_int(o, idx[hd->origin]);
        put(o, ", \"mode\": \"");
        put(o, mode_name(t->access[i].mode));
        put(o, "\"}");
        first = false;
    }
    put(o, "]");
    put_costs(dag, t, o);
    put(o, "}");
}

static void put_edge(struct jout *o, int src, int dst, const char *bytes, bool *first)
{
    next_item(o, first);
    put(o, "{\"src\": ");
    put_int(o, src);
    put(o, ", \"dst\": ");
    put_int(o, dst);
    put(o, ", \"bytes\": ");
    put(o, bytes);
    put(o, "}");
}

/* The text of each explicit edge's bytes, kept for the dependency that
 * repeats it (in DAGs made of explicit edges, every one). */
struct edge_memo {
    int *writer; /* task writing each private handle, or -1 */
    size_t *at;  /* offset of the handle's bytes in text, or SIZE_MAX */
    char *text;
    size_t len, cap;
};

static void remember(struct edge_memo *m, int handle, const char *bytes)
{
    size_t n = strlen(bytes) + 1;
    HS_GROW(m->text, m->cap, m->len + n);
    memcpy(m->text + m->len, bytes, n);
    m->at[handle] = m->len;
    m->len += n;
}

/* The remembered text for dependency e, if a private handle read by its
 * target (looked for among the first 64 accesses) carries exactly it. */
static const char *recall(const struct hs_dag *dag, const struct edge_memo *m, int e)
{
    const struct hs_edge *ed = &dag->edges[e];
    const struct hs_task *t = &dag->tasks[ed->dst];
    for (int a = 0; a < t->naccess && a < 64; a++) {
        int h = t->access[a].handle;
        if (dag->handles[h].temporary && t->access[a].mode == HS_MODE_R && m->writer[h] == ed->src &&
            dag->handles[h].bytes == ed->bytes && m->at[h] != SIZE_MAX)
            return m->text + m->at[h];
    }
    return NULL;
}

/* Explicit edges: the private handles, from their writer to their reader. */
static void put_explicit_edges(const struct hs_dag *dag, struct jout *o, struct edge_memo *m)
{
    size_t nh = (size_t)(dag->nhandles ? dag->nhandles : 1);
    m->writer = hs_xmalloc(nh * sizeof(int));
    m->at = hs_xmalloc(nh * sizeof(size_t));
    for (int h = 0; h < dag->nhandles; h++) {
        m->writer[h] = -1;
        m->at[h] = SIZE_MAX;
    }
    for (int i = 0; i < dag->ntasks; i++)
        for (int a = 0; a < dag->tasks[i].naccess; a++) {
            const struct hs_access *ac = &dag->tasks[i].access[a];
            if (dag->handles[ac->handle].temporary && HS_MODE_WRITES(ac->mode))
                m->writer[ac->handle] = i;
        }
    bool first = true;
    char buf[32];
    put(o, "  \"edges\": [");
    for (int i = 0; i < dag->ntasks; i++)
        for (int a = 0; a < dag->tasks[i].naccess; a++) {
            const struct hs_access *ac = &dag->tasks[i].access[a];
            const struct hs_handle *hd = &dag->handles[ac->handle];
            if (!hd->temporary || ac->mode != HS_MODE_R || m->writer[hd->id] < 0)
                continue;
            format_number(hd->bytes, buf);
            remember(m, hd->id, buf);
            put_edge(o, m->writer[hd->id], i, buf, &first);
        }
    put(o, "],\n");
}

static void put_dependencies(const struct hs_dag *dag, struct jout *o, const struct edge_memo *m)
{
    bool first = true;
    char buf[32];
    put(o, "  \"dependencies\": [");
    for (int e = 0; e < dag->nedges; e++) {
        const char *bytes = recall(dag, m, e);
        if (!bytes)
            format_number(dag->edges[e].bytes, buf);
        put_edge(o, dag->edges[e].src, dag->edges[e].dst, bytes ? bytes : buf, &first);
    }
    put(o, "]\n}\n");
}

int hs_dag_write_json(const struct hs_dag *dag, FILE *out)
{
    struct jout *o = hs_xmalloc(sizeof *o);
    o->f = out;
    o->n = 0;
    put(o, "{\n  \"name\": ");
    put_string(o, dag->name);
    put(o, ",\n  \"total_flops\": ");
    put_number(o, hs_dag_flops(dag));
    put(o, ",\n");
    int *idx = put_handles(dag, o);
    bool first = true;
    put(o, "  \"tasks\": [");
    for (int i = 0; i < dag->ntasks; i++) {
        next_item(o, &first);
        put_task(dag, &dag->tasks[i], idx, o);
    }
    put(o, "],\n");
    free(idx);
    struct edge_memo memo = {0};
    put_explicit_edges(dag, o, &memo);
    put_dependencies(dag, o, &memo);
    free(memo.writer);
    free(memo.at);
    free(memo.text);
    fwrite(o->buf, 1, o->n, out);
    free(o);
    return ferror(out) ? hs_fail("cannot write the DAG") : 0;
}
