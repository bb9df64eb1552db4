/* workloads/dax.c — the "dax" workload: a Pegasus DAX file (the XML abstract
 * workflow of Pegasus; SimGrid's and WorkflowGenerator's DAG files), read
 * with libxml2's streaming reader:
 *
 *   2.1:  <adag version="2.1"> <job id name runtime> <uses file link size/>
 *         </job> <child ref><parent ref/></child>
 *   3.x:  the same with <uses name=...>, sizes also in <metadata key="size">
 *         (inside <uses>, or in the <file name> catalogue at the top), and
 *         runtimes also in <profile namespace="pegasus" key="runtime"> or
 *         <metadata key="runtime">.
 *
 * The DAG is built as a WfFormat instance would be (wfformat.c): each file
 * is a data handle of its size (none given: 0 bytes), a job writes its
 * output files and reads its input files (link inout: both), files nobody
 * writes are initial data in host memory, a parent/child link with no file
 * between them is a pure dependency. A job's id is its label, its name its
 * kernel. runtime r seconds becomes r × speed flops; simgrid=1 uses
 * SimGrid's constant (simgrid::s4u::create_DAG_from_DAX takes runtimes as
 * measured on a 4.2 GFlop/s machine). A job with no runtime costs nothing.
 * Sub-workflows (<dax>, <dag>) are refused. A file that is not XML but looks
 * like a Pegasus 5 workflow (YAML) goes to pegasus_yaml.c. */
#include "base/util.h"
#include "workloads/dagio.h"
#include "workloads/foreign.h"
#include "workloads/pegasus_jobs.h"
#include "workloads/workload.h"

#include <libxml/xmlreader.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SIMGRID_DAX_SPEED 4.2e9 /* flop/s SimGrid assumes for DAX runtimes */

struct dax {
    const char *path;
    xmlTextReaderPtr rd;
    cJSON *root, *tasks;           /* WfFormat document */
    struct hs_pegasus_refs refs;   /* links and the <file> catalogue's sizes */
    cJSON *job, *uses;             /* the job and uses being read */
    char *file;                    /* the <file> catalogue entry being read */
    char *child;                   /* ref of the <child> being read */
    int child_line;
    char xml_error[256];
    char too_long[512]; /* the first attribute longer than a name may be */
};

static int line_of(struct dax *d);
#define bad(d, ...) hs_fail_at((d)->path, line_of(d), __VA_ARGS__)

/* The line of the element being read (the parser itself may be ahead). */
static int line_of(struct dax *d)
{
    xmlNodePtr n = xmlTextReaderCurrentNode(d->rd);
    long line = n ? xmlGetLineNo(n) : -1;
    return line > 0 ? (int)line : xmlTextReaderGetParserLineNumber(d->rd);
}

static void xml_error(void *ctx, xmlErrorPtr err)
{
    struct dax *d = ctx;
    if (d->xml_error[0] || !err || !err->message)
        return;
    snprintf(d->xml_error, sizeof d->xml_error, "line %d: %s", err->line, err->message);
    d->xml_error[strcspn(d->xml_error, "\n")] = '\0';
}

/* An attribute as a string the caller frees, or NULL. One longer than
 * HS_NAME_MAX is kept in d->too_long, which ends the reading after the
 * element (the caller may have failed meanwhile on something else). */
static char *attr(struct dax *d, const char *name)
{
    xmlChar *v = xmlTextReaderGetAttribute(d->rd, BAD_CAST name);
    if (v && !d->too_long[0] &&
        hs_name_ok((const char *)v, "%s:%d: <%s> %s", d->path, line_of(d),
                   (const char *)xmlTextReaderConstLocalName(d->rd), name))
        snprintf(d->too_long, sizeof d->too_long, "%s", hs_last_error());
    char *s = v ? hs_xstrdup((const char *)v) : NULL;
    xmlFree(v);
    return s;
}

/* A non-negative number, from an attribute or an element's text. */
static int number(struct dax *d, const char *what, const char *text, double *out)
{
    if (hs_parse_double(text, out) || !isfinite(*out))
        return bad(d, "%s '%s' is not a number", what, text);
    if (*out < 0)
        return bad(d, "%s %s is negative", what, text);
    return 0;
}

static char *element_text(struct dax *d)
{
    xmlChar *v = xmlTextReaderReadString(d->rd);
    char *s = hs_xstrdup(v ? (const char *)v : "");
    xmlFree(v);
    return s;
}

/* ---- elements ------------------------------------------------------------- */

static int start_adag(struct dax *d, struct hs_dag *dag)
{
    char *version = attr(d, "version"), *name = attr(d, "name");
    int rc = 0;
    if (version && version[0] != '2' && version[0] != '3')
        rc = bad(d, "<adag version=\"%s\">: hetsim reads DAX 2.1 and 3.x", version);
    if (name && *name)
        hs_dag_rename(dag, name);
    free(version);
    free(name);
    return rc;
}

static int start_job(struct dax *d)
{
    char *id = attr(d, "id"), *name = attr(d, "name"), *runtime = attr(d, "runtime");
    double r = 0;
    int rc = !id || !*id ? bad(d, "<job>: no id") : runtime ? number(d, "<job> runtime", runtime, &r) : 0;
    if (!rc)
        d->job = hs_pegasus_job(d->tasks, id, name, r);
    free(id);
    free(name);
    free(runtime);
    return rc;
}

static int start_uses(struct dax *d)
{
    char *file = attr(d, "file"), *name = attr(d, "name"), *link = attr(d, "link");
    char *size = attr(d, "size");
    const char *f = file ? file : name;
    double bytes = -1;
    int rc = 0;
    d->uses = NULL;
    if (!f || !*f)
        rc = bad(d, "<uses>: no file (2.1) or name (3.x)");
    else if (size)
        rc = number(d, "<uses> size", size, &bytes);
    if (!rc && (!link || hs_pegasus_uses(d->job, f, link, bytes, &d->uses)))
        rc = bad(d, "<uses file=\"%s\">: link '%s' is not input, output, inout, none or checkpoint",
                 f, link ? link : "(none)");
    free(file);
    free(name);
    free(link);
    free(size);
    return rc;
}

/* <metadata key=...>: a size of a <uses> or catalogue <file>, a job's runtime. */
static int metadata(struct dax *d, int depth)
{
    char *key = attr(d, "key"), *text = NULL;
    double v;
    int rc = 0;
    bool size = key && strcmp(key, "size") == 0, runtime = key && strcmp(key, "runtime") == 0;
    if (size && (d->uses || d->file) && (depth == 3 || depth == 2)) {
        text = element_text(d);
        if (!(rc = number(d, "<metadata key=\"size\">", text, &v))) {
            if (d->uses && depth == 3)
                cJSON_SetNumberValue(cJSON_GetObjectItem(d->uses, "sizeInBytes"), v);
            else if (d->file && depth == 2)
                hs_pegasus_size(&d->refs, d->file, v);
        }
    } else if (runtime && d->job && depth == 2) {
        text = element_text(d);
        if (!(rc = number(d, "<metadata key=\"runtime\">", text, &v)))
            cJSON_SetNumberValue(cJSON_GetObjectItem(d->job, "runtimeInSeconds"), v);
    }
    free(key);
    free(text);
    return rc;
}

static int profile(struct dax *d)
{
    char *ns = attr(d, "namespace"), *key = attr(d, "key"), *text = NULL;
    double v;
    int rc = 0;
    if (d->job && ns && key && strcmp(ns, "pegasus") == 0 && strcmp(key, "runtime") == 0) {
        text = element_text(d);
        if (!(rc = number(d, "<profile key=\"runtime\">", text, &v)))
            cJSON_SetNumberValue(cJSON_GetObjectItem(d->job, "runtimeInSeconds"), v);
    }
    free(ns);
    free(key);
    free(text);
    return rc;
}

static int parent(struct dax *d)
{
    char *ref = attr(d, "ref");
    if (!d->child || !ref || !*ref) {
        free(ref);
        return bad(d, "<parent>: no ref, or not inside a <child ref=...>");
    }
    hs_pegasus_link(&d->refs, d->child, ref, line_of(d));
    free(ref);
    return 0;
}

static int element(struct dax *d, const char *name, int depth, struct hs_dag *dag)
{
    if (depth == 0)
        return strcmp(name, "adag") ? bad(d, "<%s>: not a DAX file (no <adag>)", name)
                                    : start_adag(d, dag);
    if (depth == 1) {
        d->job = d->uses = NULL;
        free(d->file);
        free(d->child);
        d->file = d->child = NULL;
        if (strcmp(name, "job") == 0)
            return start_job(d);
        if (strcmp(name, "file") == 0)
            d->file = attr(d, "name");
        else if (strcmp(name, "child") == 0) {
            d->child = attr(d, "ref");
            if (!d->child || !*d->child)
                return bad(d, "<child>: no ref");
        } else if (strcmp(name, "dax") == 0 || strcmp(name, "dag") == 0)
            return bad(d, "<%s>: sub-workflows are not read", name);
        return 0;
    }
    if (depth == 2 && d->job && strcmp(name, "uses") == 0)
        return start_uses(d);
    if (depth == 2 && d->job && strcmp(name, "profile") == 0)
        return profile(d);
    if (strcmp(name, "metadata") == 0)
        return metadata(d, depth);
    if (depth == 2 && strcmp(name, "parent") == 0)
        return parent(d);
    return 0;
}

static int parse(struct dax *d, const char *text, size_t len, struct hs_dag *dag)
{
    /* Neither XML_PARSE_NOENT (substitute entities), XML_PARSE_DTDLOAD (read
     * an external DTD) nor XML_PARSE_HUGE (lift libxml2's limits on names
     * and texts): with entity declarations refused (read_dax), a DAX file
     * costs in proportion to its size */
    d->rd = xmlReaderForMemory(text, (int)len, d->path, NULL,
                               XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!d->rd)
        return hs_fail("%s: cannot start the XML reader", d->path);
    xmlTextReaderSetStructuredErrorHandler(d->rd, xml_error, d);
    int ret, rc = 0;
    while (!rc && (ret = xmlTextReaderRead(d->rd)) == 1)
        if (xmlTextReaderNodeType(d->rd) == XML_READER_TYPE_ELEMENT) {
            rc = element(d, (const char *)xmlTextReaderConstLocalName(d->rd),
                         xmlTextReaderDepth(d->rd), dag);
            if (d->too_long[0])
                rc = hs_fail("%s", d->too_long);
        }
    if (!rc && ret != 0)
        rc = hs_fail("%s: malformed XML: %s", d->path, d->xml_error[0] ? d->xml_error : "unreadable");
    xmlFreeTextReader(d->rd);
    return rc;
}

static int read_dax(const char *path, double speed, struct hs_dag *dag)
{
    size_t len = 0;
    char *text = hs_read_text(path, &len);
    if (!text)
        return -1;
    if (hs_pegasus_yaml_like(text)) { /* Pegasus 5 writes YAML, often named as DAX files were */
        free(text);
        return hs_pegasus_yaml_read(path, speed, dag);
    }
    if (len > (size_t)0x7fffffff) {
        free(text);
        return hs_fail("%s: too large for the XML reader", path);
    }
    /* Pegasus writes no entity; a declared one is expanded wherever it is
     * used, so that a 200 KB file could stand for gigabytes of names: the
     * cost of reading a file stays in proportion to its size */
    const char *entity = strstr(text, "<!ENTITY"); /* (a NUL before it: refused by the XML reader) */
    if (entity) {
        int line = 1;
        for (const char *c = text; c < entity; c++)
            line += *c == '\n';
        free(text);
        return hs_fail("%s: line %d declares an XML entity (<!ENTITY): DAX files have none, and their "
                       "expansion would cost out of proportion to the file; write the text out instead",
                       path, line);
    }
    struct dax d = {.path = path, .root = cJSON_CreateObject()};
    cJSON *wf = cJSON_AddObjectToObject(d.root, "workflow");
    d.tasks = cJSON_AddArrayToObject(wf, "tasks");
    int rc = parse(&d, text, len, dag);
    if (!rc && cJSON_GetArraySize(d.tasks) == 0)
        rc = hs_fail("%s: no <job>", path);
    if (!rc)
        rc = hs_pegasus_refs_resolve(path, d.tasks, &d.refs);
    if (!rc)
        rc = hs_wfformat_build(path, d.root, speed, dag);
    hs_pegasus_refs_free(&d.refs);
    free(d.file);
    free(d.child);
    cJSON_Delete(d.root);
    free(text);
    return rc;
}

static const struct hs_param dax_params[] = {
    {.name = "file", .type = HS_P_STRING, .positional = true,
     .help = "Pegasus DAX file (XML, 2.1 or 3.x: SimGrid's and WorkflowGenerator's DAGs)"},
    {.name = "speed", .type = HS_P_SI, .defval = "1G", .range = "(0,inf)",
     .help = "flop/s of the machine the runtimes were measured on (flops = runtime x speed)"},
    {.name = "simgrid", .type = HS_P_BOOL, .defval = "0",
     .help = "SimGrid's convention: runtimes measured at 4.2 Gflop/s (overrides speed)"},
    {0},
};

static int build_dax(const struct hs_spec *spec, struct hs_dag *dag)
{
    double speed = hs_spec_bool(spec, "simgrid") ? SIMGRID_DAX_SPEED : hs_spec_double(spec, "speed");
    return read_dax(hs_spec_get(spec, "file"), speed, dag);
}

const struct hs_workload hs_workload_dax = {
    .name = "dax",
    .summary = "Pegasus DAX workflow (XML 2.1 or 3.x; files become data handles)",
    .params = dax_params,
    .build = build_dax,
};
