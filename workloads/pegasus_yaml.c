/* workloads/pegasus_yaml.c — the "pegasus" workload: a Pegasus 5 workflow,
 * the YAML abstract workflow that replaced DAX (Pegasus 5.0's schema
 * wf-5.0.yml), read with libyaml's document API:
 *
 *   pegasus: "5.0"   name: diamond
 *   jobs: [{type: job, id, name, arguments,
 *           uses: [{lfn, type: input|output|inout|none|checkpoint,
 *                   size?, metadata: {size}?, stageOut, registerReplica}],
 *           profiles: {pegasus: {runtime}}?, metadata: {runtime}?}]
 *   jobDependencies: [{id, children: [id, ...]}]
 *   replicaCatalog: {replicas: [{lfn, metadata: {size}?, ...}]}
 *
 * It is read as a DAX file is (dax.c), through the same WfFormat form
 * (pegasus_jobs.c): each file is a data handle of its size (from the use,
 * else the replica catalogue's metadata, else 0 bytes), a job writes its
 * output files and reads its input files, files nobody writes are initial
 * data in host memory, a dependency with no file between its jobs is a pure
 * one. A job's id is its label, its name its kernel; runtime r seconds
 * becomes r × speed flops; a job with no runtime costs nothing. The site and
 * transformation catalogues, hooks, arguments and profiles other than
 * pegasus.runtime say nothing of the DAG and are not read. Sub-workflows
 * (type pegasusWorkflow, dax, dag, condorWorkflow) are refused. A YAML alias
 * to a mapping or sequence walked before is refused (Pegasus writes none, and
 * one alias per job could make a small file cost as a large one). */
#include "base/util.h"
#include "workloads/dagio.h"
#include "workloads/foreign.h"
#include "workloads/pegasus_jobs.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct py {
    const char *path;
    yaml_document_t doc;
    unsigned char *seen; /* per node: a collection already walked */
    cJSON *root, *tasks; /* WfFormat document */
    struct hs_pegasus_refs refs;
};

static int line_of(const yaml_node_t *n)
{
    return (int)n->start_mark.line + 1;
}

#define bad(p, n, ...) hs_fail_at((p)->path, line_of(n), __VA_ARGS__)

static const char *const kind_names[] = {"nothing", "a scalar", "a sequence", "a mapping"};

/* A mapping or sequence about to be walked: a second walk (through an alias) is refused. */
static int take(struct py *p, yaml_node_t *n, yaml_node_type_t type, const char *what)
{
    if (n->type != type)
        return bad(p, n, "%s: %s expected, not %s", what, kind_names[type], kind_names[n->type]);
    size_t i = (size_t)(n - p->doc.nodes.start);
    if (p->seen[i])
        return bad(p, n, "%s: this node is used a second time through a YAML alias (*name): Pegasus "
                   "writes none; write it out", what);
    p->seen[i] = 1;
    return 0;
}

/* The text of a scalar node, or NULL with hs_fail; a name longer than
 * HS_NAME_MAX and a NUL byte (YAML's "\0" escape) are refused. */
static const char *scalar(const struct py *p, const yaml_node_t *n, const char *what)
{
    if (n->type != YAML_SCALAR_NODE) {
        bad(p, n, "%s: a scalar expected, not %s", what, kind_names[n->type]);
        return NULL;
    }
    const char *s = (const char *)n->data.scalar.value;
    if (strlen(s) != n->data.scalar.length) {
        bad(p, n, "%s: a NUL byte in the text", what);
        return NULL;
    }
    return hs_name_ok(s, "%s:%d: %s", p->path, line_of(n), what) ? NULL : s;
}

/* A non-negative number (a size, a runtime). */
static int number(const struct py *p, const yaml_node_t *n, const char *what, double *out)
{
    const char *s = scalar(p, n, what);
    if (!s)
        return -1;
    if (hs_parse_double(s, out) || !isfinite(*out))
        return bad(p, n, "%s '%s' is not a number", what, s);
    if (*out < 0)
        return bad(p, n, "%s %s is negative", what, s);
    return 0;
}

static yaml_node_t *node(struct py *p, int index)
{
    return yaml_document_get_node(&p->doc, index);
}

/* The value of key in a mapping, or NULL; keys that are not scalars are skipped. */
static yaml_node_t *get(struct py *p, const yaml_node_t *map, const char *key)
{
    for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < map->data.mapping.pairs.top; q++) {
        yaml_node_t *k = node(p, q->key);
        if (k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0)
            return node(p, q->value);
    }
    return NULL;
}

static int cmp_keys(const void *a, const void *b)
{
    const yaml_node_t *x = *(yaml_node_t *const *)a, *y = *(yaml_node_t *const *)b;
    int c = strcmp((const char *)x->data.scalar.value, (const char *)y->data.scalar.value);
    return c ? c : (x > y) - (x < y);
}

/* Take a mapping (take) whose scalar keys are each given once: YAML parsers
 * differ on which of two values they keep, so hetsim keeps neither. */
static int take_map(struct py *p, yaml_node_t *map, const char *what)
{
    if (take(p, map, YAML_MAPPING_NODE, what))
        return -1;
    size_t n = 0, cap = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
    if (cap < 2)
        return 0;
    yaml_node_t **keys = hs_xmalloc(cap * sizeof *keys);
    for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < map->data.mapping.pairs.top; q++)
        if (node(p, q->key)->type == YAML_SCALAR_NODE)
            keys[n++] = node(p, q->key);
    qsort(keys, n, sizeof *keys, cmp_keys);
    int rc = 0;
    for (size_t i = 1; i < n && !rc; i++)
        if (strcmp((const char *)keys[i - 1]->data.scalar.value, (const char *)keys[i]->data.scalar.value) == 0)
            rc = bad(p, keys[i], "%s: key '%s' given twice", what, (const char *)keys[i]->data.scalar.value);
    free(keys);
    return rc;
}

/* Item index of the list named list, a mapping: its name in what (list[index]). */
static int take_item(struct py *p, yaml_node_t *n, const char *list, int index, char *what, size_t size)
{
    snprintf(what, size, "%s[%d]", list, index);
    return take_map(p, n, what);
}

/* map.key.key2 (both mappings on the way), or NULL. */
static int get2(struct py *p, yaml_node_t *map, const char *key, const char *key2, const char *what,
                yaml_node_t **out)
{
    *out = NULL;
    yaml_node_t *m = get(p, map, key);
    if (!m)
        return 0;
    char where[256];
    snprintf(where, sizeof where, "%s.%s", what, key);
    if (take_map(p, m, where))
        return -1;
    *out = get(p, m, key2);
    return 0;
}

/* ---- jobs ------------------------------------------------------------------ */

static int read_use(struct py *p, cJSON *job, yaml_node_t *u, const char *id)
{
    char what[192];
    snprintf(what, sizeof what, "job '%.64s': uses", id);
    if (take_map(p, u, what))
        return -1;
    yaml_node_t *lfn_n = get(p, u, "lfn"), *type_n = get(p, u, "type"), *size_n = get(p, u, "size"), *meta;
    if (!lfn_n)
        return bad(p, u, "%s: an entry without lfn", what);
    if (!type_n)
        return bad(p, u, "%s: an entry without type (input, output, inout, none or checkpoint)", what);
    const char *lfn = scalar(p, lfn_n, "lfn"), *type = lfn ? scalar(p, type_n, "type") : NULL;
    if (!type)
        return -1;
    if (!*lfn)
        return bad(p, lfn_n, "%s: an empty lfn", what);
    if (get2(p, u, "metadata", "size", what, &meta))
        return -1;
    double bytes = -1; /* none given: the catalogue's */
    if (size_n && number(p, size_n, "size", &bytes))
        return -1;
    if (!size_n && meta && number(p, meta, "metadata size", &bytes))
        return -1;
    if (hs_pegasus_uses(job, lfn, type, bytes, NULL))
        return bad(p, type_n, "lfn %s: type '%s' is not input, output, inout, none or checkpoint", lfn, type);
    return 0;
}

static int read_job(struct py *p, yaml_node_t *j, int index)
{
    char what[96];
    if (take_item(p, j, "jobs", index, what, sizeof what))
        return -1;
    yaml_node_t *type_n = get(p, j, "type"), *id_n = get(p, j, "id"), *name_n = get(p, j, "name");
    const char *type = type_n ? scalar(p, type_n, "type") : "job";
    if (!type)
        return -1;
    if (strcmp(type, "job") != 0) {
        if (!strcmp(type, "pegasusWorkflow") || !strcmp(type, "condorWorkflow") || !strcmp(type, "dax") ||
            !strcmp(type, "dag"))
            return bad(p, type_n, "%s: type %s: sub-workflows are not read", what, type);
        return bad(p, type_n, "%s: type '%s' is not job", what, type);
    }
    if (!id_n)
        return bad(p, j, "%s: a job without id", what);
    const char *id = scalar(p, id_n, "id");
    if (!id)
        return -1;
    if (!*id)
        return bad(p, id_n, "%s: an empty id", what);
    const char *name = name_n ? scalar(p, name_n, "name") : "";
    if (!name)
        return -1;
    snprintf(what, sizeof what, "job '%.64s'", id);
    yaml_node_t *prof, *meta;
    double runtime = 0;
    if (get2(p, j, "profiles", "pegasus", what, &prof))
        return -1;
    if (prof) {
        char where[128];
        snprintf(where, sizeof where, "%s.profiles.pegasus", what);
        if (take_map(p, prof, where))
            return -1;
        prof = get(p, prof, "runtime");
    }
    if (get2(p, j, "metadata", "runtime", what, &meta))
        return -1;
    if (prof ? number(p, prof, "runtime", &runtime) : meta ? number(p, meta, "metadata runtime", &runtime) : 0)
        return -1;
    cJSON *job = hs_pegasus_job(p->tasks, id, name, runtime);
    yaml_node_t *uses = get(p, j, "uses");
    if (!uses)
        return 0;
    snprintf(what, sizeof what, "job '%.64s': uses", id);
    if (take(p, uses, YAML_SEQUENCE_NODE, what))
        return -1;
    for (yaml_node_item_t *i = uses->data.sequence.items.start; i < uses->data.sequence.items.top; i++)
        if (read_use(p, job, node(p, *i), id))
            return -1;
    return 0;
}

static int read_dependency(struct py *p, yaml_node_t *d, int index)
{
    char what[96];
    if (take_item(p, d, "jobDependencies", index, what, sizeof what))
        return -1;
    yaml_node_t *id_n = get(p, d, "id"), *children = get(p, d, "children");
    if (!id_n)
        return bad(p, d, "%s: no id", what);
    const char *id = scalar(p, id_n, "id");
    if (!id)
        return -1;
    if (!children)
        return 0;
    if (take(p, children, YAML_SEQUENCE_NODE, "children"))
        return -1;
    for (yaml_node_item_t *i = children->data.sequence.items.start; i < children->data.sequence.items.top; i++) {
        yaml_node_t *c = node(p, *i);
        const char *child = scalar(p, c, "children");
        if (!child)
            return -1;
        hs_pegasus_link(&p->refs, child, id, line_of(c));
    }
    return 0;
}

/* replicaCatalog.replicas[].metadata.size: the sizes of files whose uses give none. */
static int read_replicas(struct py *p, yaml_node_t *root)
{
    yaml_node_t *reps;
    if (get2(p, root, "replicaCatalog", "replicas", "workflow", &reps))
        return -1;
    if (!reps)
        return 0;
    if (take(p, reps, YAML_SEQUENCE_NODE, "replicaCatalog.replicas"))
        return -1;
    for (yaml_node_item_t *i = reps->data.sequence.items.start; i < reps->data.sequence.items.top; i++) {
        yaml_node_t *r = node(p, *i), *lfn_n, *size_n;
        if (take_map(p, r, "replicaCatalog.replicas"))
            return -1;
        if (!(lfn_n = get(p, r, "lfn")))
            return bad(p, r, "replicaCatalog.replicas: an entry without lfn");
        if (get2(p, r, "metadata", "size", "replicaCatalog.replicas", &size_n))
            return -1;
        const char *lfn = scalar(p, lfn_n, "lfn");
        double bytes;
        if (!lfn || (size_n && number(p, size_n, "metadata size", &bytes)))
            return -1;
        if (size_n)
            hs_pegasus_size(&p->refs, lfn, bytes);
    }
    return 0;
}

static int read_workflow(struct py *p, yaml_node_t *root, struct hs_dag *dag)
{
    if (root->type != YAML_MAPPING_NODE)
        return bad(p, root, "not a Pegasus 5 workflow: the document is %s, not a mapping (pegasus:, name:, "
                   "jobs:)", kind_names[root->type]);
    if (take_map(p, root, "workflow"))
        return -1;
    yaml_node_t *version = get(p, root, "pegasus"), *name = get(p, root, "name"), *jobs = get(p, root, "jobs");
    if (!version)
        return bad(p, root, "not a Pegasus 5 workflow: no 'pegasus' key (its format's version, \"5.0\")");
    const char *v = scalar(p, version, "pegasus");
    if (!v)
        return -1;
    if (v[0] != '5' || (v[1] && v[1] != '.'))
        return bad(p, version, "pegasus: '%s': hetsim reads Pegasus 5 workflows (5.x; DAX for 4.x)", v);
    if (name) {
        const char *n = scalar(p, name, "name");
        if (!n)
            return -1;
        if (*n)
            hs_dag_rename(dag, n);
    }
    if (!jobs)
        return bad(p, root, "no jobs");
    if (take(p, jobs, YAML_SEQUENCE_NODE, "jobs"))
        return -1;
    int k = 0;
    for (yaml_node_item_t *i = jobs->data.sequence.items.start; i < jobs->data.sequence.items.top; i++)
        if (read_job(p, node(p, *i), k++))
            return -1;
    if (k == 0)
        return bad(p, jobs, "no jobs");
    yaml_node_t *deps = get(p, root, "jobDependencies");
    if (deps) {
        if (take(p, deps, YAML_SEQUENCE_NODE, "jobDependencies"))
            return -1;
        k = 0;
        for (yaml_node_item_t *i = deps->data.sequence.items.start; i < deps->data.sequence.items.top; i++)
            if (read_dependency(p, node(p, *i), k++))
                return -1;
    }
    return read_replicas(p, root);
}

/* ---- the file ---------------------------------------------------------------- */

static int syntax_error(const char *path, const yaml_parser_t *ps)
{
    if (ps->context)
        return hs_fail("%s:%zu: YAML syntax error: %s (%s at line %zu)", path, ps->problem_mark.line + 1,
                       ps->problem ? ps->problem : "unreadable", ps->context, ps->context_mark.line + 1);
    return hs_fail("%s:%zu: YAML syntax error: %s", path, ps->problem_mark.line + 1,
                   ps->problem ? ps->problem : "unreadable");
}

/* Whether text starts as XML does (a DAX file), past a byte-order mark and blanks. */
static bool xml_like(const char *text)
{
    const char *s = text;
    if (strncmp(s, "\xef\xbb\xbf", 3) == 0)
        s += 3;
    return s[strspn(s, " \t\r\n")] == '<';
}

bool hs_pegasus_yaml_like(const char *text)
{
    if (xml_like(text))
        return false;
    const char *s = text;
    for (const char *line = s; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
        if (strncmp(line, "pegasus:", 8) == 0 || strncmp(line, "jobs:", 5) == 0)
            return true;
    return false;
}

/* A Pegasus workflow nests a few levels (jobs, a job, its uses, a use's
 * metadata); libyaml's scanner costs time in proportion to the depth for
 * every token (its stack of possible simple keys grows with each flow
 * level: 100,000 nested '[' took 17 s of CPU), and its composer recurses.
 * The events are read first, and a file that nests deeper than this is
 * refused as soon as it does: the cost stays in proportion to its size. */
enum { MAX_DEPTH = 256 };

static int check_depth(const char *path, const char *text, size_t len)
{
    yaml_parser_t ps;
    yaml_parser_initialize(&ps);
    yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
    int depth = 0, rc = 0;
    for (bool done = false; !done && !rc;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&ps, &ev))
            break; /* the loader says what is wrong */
        if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
            if (++depth > MAX_DEPTH)
                rc = hs_fail("%s:%zu: YAML nested more than %d levels deep (a Pegasus workflow nests a few)", path,
                             ev.start_mark.line + 1, MAX_DEPTH);
        } else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT)
            depth--;
        done = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&ps);
    return rc;
}

int hs_pegasus_yaml_read(const char *path, double speed, struct hs_dag *dag)
{
    size_t len = 0;
    char *text = hs_read_text(path, &len);
    if (!text)
        return -1;
    if (xml_like(text)) {
        free(text);
        return hs_fail("%s: an XML file, not a Pegasus 5 workflow (YAML): read a DAX file as dax:file=%s", path,
                       path);
    }
    if (check_depth(path, text, len)) {
        free(text);
        return -1;
    }
    yaml_parser_t ps;
    yaml_parser_initialize(&ps);
    yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
    struct py p = {.path = path, .root = cJSON_CreateObject()};
    p.tasks = cJSON_AddArrayToObject(cJSON_AddObjectToObject(p.root, "workflow"), "tasks");
    int rc = 0;
    if (!yaml_parser_load(&ps, &p.doc)) {
        rc = syntax_error(path, &ps);
    } else {
        yaml_node_t *root = yaml_document_get_root_node(&p.doc);
        p.seen = hs_xcalloc((size_t)(p.doc.nodes.top - p.doc.nodes.start) + 1, 1);
        if (!root)
            rc = hs_fail("%s: an empty YAML document (a Pegasus 5 workflow has pegasus:, name: and jobs:)", path);
        else
            rc = read_workflow(&p, root, dag);
        yaml_document_t next;
        if (!rc && !yaml_parser_load(&ps, &next))
            rc = syntax_error(path, &ps);
        else if (!rc) {
            yaml_node_t *second = yaml_document_get_root_node(&next);
            if (second)
                rc = hs_fail("%s:%zu: a second YAML document: a Pegasus workflow is one", path,
                             next.start_mark.line + 1);
            yaml_document_delete(&next);
        }
        yaml_document_delete(&p.doc);
        free(p.seen);
    }
    yaml_parser_delete(&ps);
    if (!rc)
        rc = hs_pegasus_refs_resolve(path, p.tasks, &p.refs);
    if (!rc)
        rc = hs_wfformat_build(path, p.root, speed, dag);
    hs_pegasus_refs_free(&p.refs);
    cJSON_Delete(p.root);
    free(text);
    return rc;
}

static const struct hs_param pegasus_params[] = {
    {.name = "file", .type = HS_P_STRING, .positional = true,
     .help = "Pegasus 5 workflow (YAML, pegasus: \"5.0\"; a .yml or .yaml file is read so)"},
    {.name = "speed", .type = HS_P_SI, .defval = "1G", .range = "(0,inf)",
     .help = "flop/s of the machine the runtimes were measured on (flops = runtime x speed)"},
    {0},
};

static int build_pegasus(const struct hs_spec *spec, struct hs_dag *dag)
{
    return hs_pegasus_yaml_read(hs_spec_get(spec, "file"), hs_spec_double(spec, "speed"), dag);
}

const struct hs_workload hs_workload_pegasus = {
    .name = "pegasus",
    .summary = "Pegasus 5 workflow (YAML; files become data handles, as for DAX)",
    .params = pegasus_params,
    .build = build_pegasus,
};
