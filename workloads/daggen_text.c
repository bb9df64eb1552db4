/* workloads/daggen_text.c — the "daggen-text" workload: DAGGEN's own text
 * output (github.com/frs69wq/daggen, without --dot):
 *
 *   // comments
 *   NODE_COUNT <n>
 *   NODE <id> <children: a,b,c or -> <ROOT|COMPUTATION|TRANSFER|END> <cost> <alpha>
 *
 * A COMPUTATION is a task of <cost> flops (its alpha is kept as the "alpha"
 * attribute, as the DOT reader keeps it); a TRANSFER, the one child of a
 * computation, is an edge of <cost> bytes from that computation to its own
 * one child. ROOT and END (zero-cost, artificial) are dropped, so that the
 * DAG is the one DAGGEN's DOT output of the same graph gives: computations
 * are labelled 1, 2, ... in the order of their ids, as DAGGEN numbers them
 * in DOT. */
#include "base/util.h"
#include "workloads/dagio.h"
#include "workloads/foreign.h"
#include "workloads/workload.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum ntype { N_NONE, N_ROOT, N_COMP, N_TRANSFER, N_END };

struct dnode {
    enum ntype type;
    double cost;
    char *children; /* in the text */
    char *alpha;
    int line;
    int task; /* computations: task index */
};

static int bad_line(const char *path, int line, const char *what, const char *value)
{
    return hs_fail("%s:%d: %s '%s'", path, line, what, value ? value : "(missing)");
}

static int parse_node(const char *path, int line, char *l, struct dnode *nodes, long count)
{
    char *rest = l, *w[7];
    for (int k = 0; k < 7; k++)
        w[k] = hs_next_word(&rest);
    long id;
    if (!w[5] || w[6])
        return hs_fail("%s:%d: a NODE line has 5 fields: id, children, type, cost, alpha", path, line);
    if (hs_parse_long(w[1], &id) || id < 0 || id >= count)
        return bad_line(path, line, "node id not in [0, NODE_COUNT)", w[1]);
    struct dnode *d = &nodes[id];
    if (d->type != N_NONE)
        return hs_fail("%s:%d: node %ld declared twice (also line %d)", path, line, id, d->line);
    static const char *const types[] = {"", "ROOT", "COMPUTATION", "TRANSFER", "END"};
    for (int t = 1; t <= N_END; t++)
        if (strcmp(w[3], types[t]) == 0)
            d->type = (enum ntype)t;
    if (d->type == N_NONE)
        return bad_line(path, line, "node type (ROOT, COMPUTATION, TRANSFER, END)", w[3]);
    double alpha;
    if (hs_parse_double(w[4], &d->cost) || !isfinite(d->cost) || d->cost < 0)
        return bad_line(path, line, "cost (a number >= 0)", w[4]);
    if (hs_parse_double(w[5], &alpha) || !isfinite(alpha))
        return bad_line(path, line, "alpha (a number)", w[5]);
    d->children = w[2];
    d->alpha = w[5];
    d->line = line;
    return 0;
}

/* The children of node i: each an id of the right type. */
static int children(const char *path, struct dnode *nodes, long count, long i, struct hs_edges *e)
{
    struct dnode *d = &nodes[i];
    if (strcmp(d->children, "-") == 0)
        return d->type == N_END ? 0 : hs_fail("%s:%d: node %ld has no child", path, d->line, i);
    int k = 0;
    for (char *p = d->children; *p; k++) {
        char *end;
        long c = strtol(p, &end, 10);
        if (end == p || (*end && *end != ',') || c < 0 || c >= count || nodes[c].type == N_NONE)
            return hs_fail("%s:%d: node %ld: child '%s' is not a node", path, d->line, i, d->children);
        p = *end ? end + 1 : end;
        enum ntype ct = nodes[c].type;
        bool ok = d->type == N_ROOT ? ct == N_COMP || ct == N_END
                : d->type == N_COMP ? ct == N_TRANSFER || ct == N_END
                : d->type == N_TRANSFER ? ct == N_COMP && k == 0 : false;
        if (!ok)
            return hs_fail("%s:%d: node %ld: child %ld is of the wrong type (ROOT -> COMPUTATION, "
                           "COMPUTATION -> TRANSFER, TRANSFER -> one COMPUTATION)", path, d->line, i, c);
        if (d->type == N_COMP && ct == N_TRANSFER) {
            const struct dnode *x = &nodes[c];
            long to = strtol(x->children, NULL, 10);
            if (to >= 0 && to < count && nodes[to].type == N_COMP)
                hs_edges_add(e, d->task, nodes[to].task, x->cost);
        }
    }
    return 0;
}

static int read_text(const char *path, struct hs_dag *dag)
{
    char *text = hs_read_text(path, NULL);
    if (!text)
        return -1;
    long nlines = 1; /* NODE_COUNT may not exceed the lines of the file */
    for (const char *p = text; *p; p++)
        nlines += *p == '\n';
    struct hs_lines lines;
    hs_lines_init(&lines, text);
    struct dnode *nodes = NULL;
    long count = -1;
    int rc = 0;
    for (char *l; !rc && (l = hs_lines_next(&lines));) {
        char *p = l + strspn(l, " \t");
        if (!*p || strncmp(p, "//", 2) == 0)
            continue;
        if (count < 0) {
            char *rest = p, *kw = hs_next_word(&rest), *n = hs_next_word(&rest);
            if (!kw || strcmp(kw, "NODE_COUNT") || !n || hs_parse_long(n, &count) || count < 1)
                rc = hs_fail("%s:%d: not DAGGEN's text output (it starts with NODE_COUNT <n>)",
                             path, lines.line);
            else if (count > nlines)
                rc = hs_fail("%s:%d: NODE_COUNT %ld, but the file has %ld lines", path,
                             lines.line, count, nlines);
            else
                nodes = hs_xcalloc((size_t)count, sizeof *nodes);
        } else if (strncmp(p, "NODE ", 5) == 0) {
            rc = parse_node(path, lines.line, p, nodes, count);
        } else {
            rc = bad_line(path, lines.line, "not a NODE line", p);
        }
    }
    if (!rc && count < 0)
        rc = hs_fail("%s: empty (no NODE_COUNT)", path);
    struct hs_plain_task *t = NULL;
    int ntasks = 0;
    struct hs_edges e = {0};
    char (*labels)[24] = NULL;
    if (!rc) {
        t = hs_xcalloc((size_t)count, sizeof *t);
        labels = hs_xmalloc((size_t)count * sizeof *labels);
        for (long i = 0; i < count && !rc; i++) {
            if (nodes[i].type == N_NONE)
                rc = hs_fail("%s: node %ld is not declared (NODE_COUNT is %ld)", path, i, count);
            else if (nodes[i].type == N_COMP) {
                snprintf(labels[ntasks], sizeof labels[ntasks], "%d", ntasks + 1);
                t[ntasks] = (struct hs_plain_task){labels[ntasks], "task", nodes[i].cost, "alpha",
                                                   nodes[i].alpha};
                nodes[i].task = ntasks++;
            }
        }
    }
    for (long i = 0; i < count && !rc; i++)
        rc = children(path, nodes, count, i, &e);
    if (!rc && ntasks == 0)
        rc = hs_fail("%s: no COMPUTATION node", path);
    if (!rc)
        rc = hs_build_plain(dag, path, t, ntasks, &e);
    hs_edges_free(&e);
    free(labels);
    free(t);
    free(nodes);
    free(text);
    return rc;
}

static const struct hs_param daggen_text_params[] = {
    {.name = "file", .type = HS_P_STRING, .positional = true,
     .help = "DAGGEN's text output (NODE_COUNT and NODE lines)"},
    {0},
};

static int build_daggen_text(const struct hs_spec *spec, struct hs_dag *dag)
{
    return read_text(hs_spec_get(spec, "file"), dag);
}

const struct hs_workload hs_workload_daggen_text = {
    .name = "daggen-text",
    .summary = "DAGGEN's text output (costs in flops, transfers in bytes; see docs/formats.md)",
    .params = daggen_text_params,
    .build = build_daggen_text,
};
