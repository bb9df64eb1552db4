/* workloads/dag_dot_read.c — the "dot" workload: a DAG from a DOT file read
 * with Graphviz cgraph (agread). Every node is a task, every edge an explicit
 * dependency:
 *   node size       flops (SimGrid's and DAGGEN's meaning; absent: 0)
 *   edge size       bytes the target reads from the source (absent: 0; below
 *                   0, SimGrid's size="-1": a pure dependency, unless
 *                   semantics=hetsim, which refuses it)
 *   node label, kernel (default "task"), footprint, costs, archs: hetsim's own
 *                   (written by dag_dot.c; label "\N" or absent: the node name)
 *   other node attributes (DAGGEN's alpha, …) are kept as opaque strings
 *   (hs_task.extra) so that the writers reproduce them.
 * Tasks are numbered in the natural order of the node names (digit runs
 * compared as numbers: t2 before t10, DAGGEN's 2 before 10), not in the
 * order cgraph met them, so hetsim's own files come back in task order. A
 * task with no kernel, no cost and no flops (SimGrid's root and end) gets an
 * explicit zero cost. The DAG takes the graph's name, and its total_flops
 * from the graph attribute of that name (hetsim's writer). */
#include "workloads/dagio.h"
#include "workloads/workload.h"
#include "base/inputfile.h"
#include "base/util.h"

#include <graphviz/cgraph.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { A_LABEL, A_KERNEL, A_SIZE, A_FOOTPRINT, A_COSTS, A_ARCHS, NATTR };

struct dreader {
    const char *path;
    Agraph_t *g;
    struct hs_dag *dag;
    Agsym_t *sym[NATTR];
    int *task_of_seq; /* AGSEQ(node) -> task index */
    int ncosts;       /* per-processor cost length, -1 until the first */
    bool strict;      /* semantics=hetsim: a negative edge size is an error */
    const char *ncosts_node;
    size_t kept, budget; /* bytes of labels, kernels and attributes the nodes hold, and their bound */
};

/* A default (node [label=...]) gives its value to every node after it: the
 * bytes the nodes keep are bounded by the file's size, so that a short file
 * cannot stand for gigabytes of names. */
#define DOT_KEPT_PER_BYTE 16
#define DOT_KEPT_FLOOR ((size_t)1 << 20)

#define bad(r, ...) hs_fail_at((r)->path, -1, __VA_ARGS__)

/* ---- cgraph's messages, gathered into one line ----------------------------- */

static char dot_error[512];

static int gather_error(char *piece)
{
    size_t len = strlen(dot_error);
    snprintf(dot_error + len, sizeof dot_error - len, "%s", piece);
    return 0;
}

static const char *first_error_from(size_t at)
{
    char *msg = dot_error + at;
    if (strncmp(msg, "Error: ", 7) == 0)
        msg += 7;
    msg[strcspn(msg, "\n")] = '\0';
    return *msg ? msg : "no graph in the file";
}

static const char *first_error(void)
{
    return first_error_from(0);
}

static Agraph_t *read_graph(const char *path, size_t *size)
{
    char err[1024];
    FILE *f = hs_input_open(path, HS_INPUT_MAX_BYTES, err, sizeof err);
    if (!f) {
        hs_fail("%s", err);
        return NULL;
    }
    struct stat st;
    *size = fstat(fileno(f), &st) == 0 ? (size_t)st.st_size : 0;
    dot_error[0] = '\0';
    agusererrf previous = agseterrf(gather_error);
    Agraph_t *g = agread(f, NULL);
    size_t first_len = strlen(dot_error);
    Agraph_t *second = g ? agread(f, NULL) : NULL; /* agread stops after one graph */
    agseterrf(previous);
    fclose(f);
    if (!g) {
        hs_fail("%s: malformed DOT: %s", path, first_error());
    } else if (second || strlen(dot_error) > first_len) {
        if (second)
            hs_fail("%s: a second graph '%s' follows graph '%s' (a DAG file holds one graph)",
                    path, agnameof(second), agnameof(g));
        else
            hs_fail("%s: malformed DOT after graph '%s': %s", path, agnameof(g),
                    first_error_from(first_len));
        if (second)
            agclose(second);
        agclose(g);
        g = NULL;
    } else if (!agisdirected(g)) {
        agclose(g);
        g = NULL;
        hs_fail("%s: not a directed graph (a DAG file is a digraph)", path);
    }
    return g;
}

/* ---- node order ----------------------------------------------------------- */

/* Natural order: digit runs compare as numbers, other characters as bytes. */
static int natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            while (*a == '0' && a[1] >= '0' && a[1] <= '9')
                a++;
            while (*b == '0' && b[1] >= '0' && b[1] <= '9')
                b++;
            size_t la = strspn(a, "0123456789"), lb = strspn(b, "0123456789");
            int c = la != lb ? (la > lb) - (la < lb) : strncmp(a, b, la);
            if (c)
                return c;
            a += la;
            b += lb;
        } else {
            if (*a != *b)
                return (unsigned char)*a - (unsigned char)*b;
            a++, b++;
        }
    }
    return (unsigned char)*a - (unsigned char)*b;
}

struct named_node {
    const char *name; /* agnameof is a dictionary lookup: once per node */
    Agnode_t *node;
};

static int cmp_nodes(const void *x, const void *y)
{
    const struct named_node *a = x, *b = y;
    int c = natural_cmp(a->name, b->name);
    return c ? c : strcmp(a->name, b->name);
}

/* ---- attributes ----------------------------------------------------------- */

static const char *attr(const struct dreader *r, void *obj, int a)
{
    return r->sym[a] ? agxget(obj, r->sym[a]) : "";
}

static int nonneg(const struct dreader *r, const char *what, const char *text, double *out)
{
    if (!*text) {
        *out = 0;
        return 0;
    }
    if (hs_parse_double(text, out) || isinf(*out))
        return bad(r, "%s: '%s' is not a number", what, text);
    if (*out < 0)
        return bad(r, "%s: %s is negative", what, text);
    return 0;
}

/* costs="cpu=s,gpu=s" (per architecture) or "s,s,…" (per processor). */
static int read_costs(struct dreader *r, const char *node, const char *text, int t)
{
    if (!*text)
        return 0;
    char what[256];
    snprintf(what, sizeof what, "node '%s': costs", node);
    char *copy = hs_xstrdup(text), *save = NULL;
    double *v = hs_xmalloc((strlen(text) / 2 + 1) * sizeof *v);
    int n = 0, rc = 0, per_arch = strchr(text, '=') != NULL;
    struct hs_task *task = &r->dag->tasks[t];
    for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        int a = !eq ? -1 : strncmp(tok, "cpu=", 4) == 0 ? HS_ARCH_CPU
                         : strncmp(tok, "gpu=", 4) == 0 ? HS_ARCH_GPU : -2;
        if (per_arch != (eq != NULL) || a == -2)
            rc = bad(r, "%s: '%s' is not cpu=s,gpu=s or a list of seconds", what, text);
        else if (hs_parse_double(eq ? eq + 1 : tok, &v[n]) || v[n] < 0)
            rc = bad(r, "%s: '%s' is not a non-negative number of seconds (or inf)", what,
                     eq ? eq + 1 : tok);
        else if (a >= 0)
            task->arch_cost[a] = v[n];
        else
            n++;
    }
    if (!rc && !per_arch && r->ncosts >= 0 && n != r->ncosts)
        rc = bad(r, "%s: %d per-processor costs, but node '%s' has %d", what, n, r->ncosts_node,
                 r->ncosts);
    if (!rc && !per_arch) {
        r->ncosts = n;
        r->ncosts_node = node;
        hs_dag_set_proc_costs(r->dag, t, v, n);
    }
    free(v);
    free(copy);
    return rc;
}

/* Count what a node keeps of text against the budget. */
static int keep(struct dreader *r, const char *node, const char *what, const char *text)
{
    r->kept += strlen(text);
    if (r->kept <= r->budget)
        return 0;
    return bad(r, "node '%s': %s: the nodes' labels, kernels and attributes come to more than %d "
               "times the file's size (a default, node [%s=...], copied into every node?)", node,
               what, DOT_KEPT_PER_BYTE, what);
}

static int keep_extra(struct dreader *r, Agnode_t *n, const char *name, struct hs_task *t)
{
    for (Agsym_t *s = agnxtattr(r->g, AGNODE, NULL); s; s = agnxtattr(r->g, AGNODE, s)) {
        const char *v = agxget(n, s);
        if (hs_dot_reserved(s->name) || !*v)
            continue;
        if (hs_name_ok(s->name, "%s: node attribute", r->path) ||
            hs_name_ok(v, "%s: node '%s': %s", r->path, name, s->name) || keep(r, name, s->name, v))
            return -1;
        hs_task_add_extra(t, s->name, v);
    }
    return 0;
}

static int read_node(struct dreader *r, Agnode_t *n, const char *name)
{
    const char *label = attr(r, n, A_LABEL), *kernel = attr(r, n, A_KERNEL);
    if (hs_name_ok(name, "%s: a node name", r->path) ||
        hs_name_ok(label, "%s: node '%s': label", r->path, name) ||
        hs_name_ok(kernel, "%s: node '%s': kernel", r->path, name))
        return -1;
    char what[256];
    double flops, footprint;
    snprintf(what, sizeof what, "node '%s': size", name);
    if (nonneg(r, what, attr(r, n, A_SIZE), &flops))
        return -1;
    snprintf(what, sizeof what, "node '%s': footprint", name);
    if (nonneg(r, what, attr(r, n, A_FOOTPRINT), &footprint))
        return -1;
    if (footprint != floor(footprint) || footprint > INT_MAX)
        return bad(r, "%s: '%s' is not an integer", what, attr(r, n, A_FOOTPRINT));
    if (!*label || strcmp(label, "\\N") == 0)
        label = name;
    if (keep(r, name, "label", label) || keep(r, name, "kernel", kernel))
        return -1;
    int t = hs_dag_add_task(r->dag, *kernel ? kernel : "task", label, flops, (int)footprint);
    r->task_of_seq[AGSEQ(n)] = t;
    if (read_costs(r, name, attr(r, n, A_COSTS), t))
        return -1;
    struct hs_task *task = &r->dag->tasks[t];
    const char *archs = attr(r, n, A_ARCHS);
    if (*archs && hs_archs_parse(archs, &task->arch_mask))
        return bad(r, "node '%s': archs '%s' is not cpu, gpu or cpu,gpu", name, archs);
    if (keep_extra(r, n, name, task))
        return -1;
    if (!*kernel)
        hs_task_zero_cost(task);
    return 0;
}

static int edge_error(const struct dreader *r, Agedge_t *e, const char *what)
{
    return bad(r, "edge '%s' -> '%s': %s", agnameof(agtail(e)), agnameof(aghead(e)), what);
}

/* Names are looked up only for messages: agnameof is a dictionary lookup. */
static int read_edges(struct dreader *r, Agnode_t *n, Agsym_t *size)
{
    for (Agedge_t *e = agfstout(r->g, n); e; e = agnxtout(r->g, e)) {
        const char *text = size ? agxget(e, size) : "";
        double bytes = 0;
        char what[300];
        if (*text && (hs_parse_double(text, &bytes) || isinf(bytes)))
            return edge_error(r, e, (snprintf(what, sizeof what, "size: '%s' is not a number", text), what));
        if (bytes < 0 && !r->strict)
            bytes = 0; /* SimGrid's pure dependency */
        if (bytes < 0)
            return edge_error(r, e, (snprintf(what, sizeof what, "size: %s is negative", text), what));
        if (agtail(e) == aghead(e))
            return edge_error(r, e, "a task that depends on itself (a cycle)");
        hs_dag_add_edge(r->dag, r->task_of_seq[AGSEQ(agtail(e))],
                        r->task_of_seq[AGSEQ(aghead(e))], bytes);
    }
    return 0;
}

static int read_nodes(struct dreader *r)
{
    static const char *const names[NATTR] = {"label", "kernel", "size", "footprint", "costs",
                                             "archs"};
    for (int a = 0; a < NATTR; a++)
        r->sym[a] = agattr(r->g, AGNODE, (char *)names[a], NULL);
    int nn = agnnodes(r->g), i = 0;
    if (nn == 0)
        return bad(r, "the graph has no node");
    struct named_node *nodes = hs_xmalloc((size_t)nn * sizeof *nodes);
    size_t maxseq = 0;
    for (Agnode_t *n = agfstnode(r->g); n; n = agnxtnode(r->g, n)) {
        nodes[i++] = (struct named_node){agnameof(n), n};
        maxseq = AGSEQ(n) > maxseq ? AGSEQ(n) : maxseq;
    }
    qsort(nodes, (size_t)nn, sizeof *nodes, cmp_nodes);
    r->task_of_seq = hs_xmalloc((maxseq + 1) * sizeof(int));
    Agsym_t *size = agattr(r->g, AGEDGE, "size", NULL);
    int rc = 0;
    for (i = 0; i < nn && !rc; i++)
        rc = read_node(r, nodes[i].node, nodes[i].name);
    for (i = 0; i < nn && !rc; i++)
        rc = read_edges(r, nodes[i].node, size);
    for (i = 0; i < nn && !rc && r->ncosts > 0; i++)
        if (!r->dag->tasks[i].proc_cost)
            rc = bad(r, "node '%s': no per-processor costs, but node '%s' has %d (give every "
                     "node the same number)", nodes[i].name, r->ncosts_node, r->ncosts);
    free(nodes);
    return rc;
}

static const struct hs_param dot_params[] = {
    {.name = "file", .type = HS_P_STRING, .positional = true,
     .help = "DOT DAG file (SimGrid, DAGGEN or hetsim attributes)"},
    {.name = "semantics", .type = HS_P_CHOICE, .defval = "simgrid", .choices = "simgrid|hetsim",
     .help = "simgrid: an edge size below 0 (size=\"-1\") is a pure dependency; hetsim: refused"},
    {0},
};

static int build_dot(const struct hs_spec *spec, struct hs_dag *dag)
{
    struct dreader r = {.path = hs_spec_get(spec, "file"), .dag = dag, .ncosts = -1,
                        .strict = strcmp(hs_spec_get(spec, "semantics"), "hetsim") == 0};
    size_t size = 0;
    r.g = read_graph(r.path, &size);
    if (!r.g)
        return -1;
    r.budget = DOT_KEPT_PER_BYTE * size + DOT_KEPT_FLOOR;
    const char *name = agnameof(r.g);
    if (name && hs_name_ok(name, "%s: the graph's name", r.path)) {
        agclose(r.g);
        return -1;
    }
    if (name && *name && name[0] != '%') /* cgraph names anonymous graphs %N */
        hs_dag_rename(dag, name);
    Agsym_t *total = agattr(r.g, AGRAPH, "total_flops", NULL);
    int rc = total ? nonneg(&r, "graph total_flops", agxget(r.g, total), &dag->total_flops) : 0;
    if (rc == 0)
        rc = read_nodes(&r);
    free(r.task_of_seq);
    agclose(r.g);
    return rc;
}

const struct hs_workload hs_workload_dot = {
    .name = "dot",
    .summary = "DAG file in DOT (SimGrid's and DAGGEN's size attributes; docs/workloads.md, DOT)",
    .params = dot_params,
    .build = build_dot,
};
