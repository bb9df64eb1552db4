/* workloads/pegasus_jobs.c — Pegasus's jobs as a WfFormat tree, shared by the
 * DAX (XML) and Pegasus 5 (YAML) readers (pegasus_jobs.h). Both describe a
 * workflow alike: jobs with an id and a name, the files each uses (input,
 * output, inout...) with their sizes, given there or in a file catalogue, and
 * parent -> child links; only the syntax differs. The links and sizes are
 * gathered while reading and resolved once every job is known: jobs are
 * sorted by id and searched, the catalogue is sorted by name (a lookup in a
 * cJSON object would be a scan per use). */
#include "workloads/pegasus_jobs.h"
#include "base/util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cJSON *hs_pegasus_job(cJSON *tasks, const char *id, const char *name, double runtime)
{
    cJSON *job = cJSON_CreateObject();
    cJSON_AddStringToObject(job, "name", id);
    cJSON_AddStringToObject(job, "category", name && *name ? name : "task");
    cJSON_AddNumberToObject(job, "runtimeInSeconds", runtime);
    cJSON_AddItemToObject(job, "parents", cJSON_CreateArray());
    cJSON_AddItemToObject(job, "files", cJSON_CreateArray());
    cJSON_AddItemToArray(tasks, job);
    return job;
}

static cJSON *add_file(cJSON *job, const char *name, const char *link, double size)
{
    cJSON *f = cJSON_CreateObject();
    cJSON_AddStringToObject(f, "link", link);
    cJSON_AddStringToObject(f, "name", name);
    cJSON_AddNumberToObject(f, "sizeInBytes", size); /* < 0: from the catalogue */
    cJSON_AddItemToArray(cJSON_GetObjectItem(job, "files"), f);
    return f;
}

int hs_pegasus_uses(cJSON *job, const char *lfn, const char *link, double bytes, cJSON **first)
{
    if (first)
        *first = NULL;
    if (strcmp(link, "input") && strcmp(link, "output") && strcmp(link, "inout") && strcmp(link, "none") &&
        strcmp(link, "checkpoint"))
        return -1;
    if (strcmp(link, "none") == 0)
        return 0;
    bool in = link[0] == 'i', out = strcmp(link, "input") != 0;
    cJSON *f = NULL;
    if (in)
        f = add_file(job, lfn, "input", bytes);
    if (out) {
        cJSON *o = add_file(job, lfn, "output", bytes);
        f = f ? f : o;
    }
    if (first)
        *first = f;
    return 0;
}

void hs_pegasus_link(struct hs_pegasus_refs *r, const char *child, const char *parent, int line)
{
    HS_GROW(r->links, r->caplinks, r->nlinks + 1);
    r->links[r->nlinks++] = (struct hs_pegasus_link){hs_xstrdup(child), hs_xstrdup(parent), line};
}

void hs_pegasus_size(struct hs_pegasus_refs *r, const char *name, double bytes)
{
    HS_GROW(r->sizes, r->capsizes, r->nsizes + 1);
    r->sizes[r->nsizes] = (struct hs_pegasus_size){hs_xstrdup(name), bytes, r->nsizes};
    r->nsizes++;
}

void hs_pegasus_refs_free(struct hs_pegasus_refs *r)
{
    for (size_t i = 0; i < r->nlinks; i++) {
        free(r->links[i].child);
        free(r->links[i].parent);
    }
    for (size_t i = 0; i < r->nsizes; i++)
        free(r->sizes[i].name);
    free(r->links);
    free(r->sizes);
    memset(r, 0, sizeof *r);
}

static int cmp_named(const void *a, const void *b)
{
    const cJSON *x = *(cJSON *const *)a, *y = *(cJSON *const *)b;
    return strcmp(cJSON_GetObjectItem(x, "name")->valuestring,
                  cJSON_GetObjectItem(y, "name")->valuestring);
}

static cJSON *find_job(cJSON **jobs, size_t n, const char *id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(cJSON_GetObjectItem(jobs[mid], "name")->valuestring, id);
        if (c == 0)
            return jobs[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int cmp_sized(const void *a, const void *b)
{
    const struct hs_pegasus_size *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* The size the sorted catalogue gives a file (its first entry), or 0. */
static double catalog_size(const struct hs_pegasus_refs *r, const char *name)
{
    size_t lo = 0, hi = r->nsizes;
    while (lo < hi) { /* the first entry not below name */
        size_t mid = (lo + hi) / 2;
        if (strcmp(r->sizes[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->nsizes && strcmp(r->sizes[lo].name, name) == 0 ? r->sizes[lo].bytes : 0;
}

/* A mention of a file by a job, in reading order. */
struct mention {
    const char *file, *job;
    double bytes;
    size_t seq;
};

static int cmp_mention(const void *a, const void *b)
{
    const struct mention *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* A file given several sizes (by its jobs' uses, or the catalogue's
 * entries; a use that gives none takes the catalogue's, or 0, and is left
 * out): the DAG keeps the first (hs_wfformat_build keeps a file's first
 * mention), as SimGrid's DAX loader does, and says so in one warning line,
 * as SimGrid warns ("Ignoring file ... size redefinition"). */
static void warn_sizes(const char *path, cJSON *tasks, const struct hs_pegasus_refs *r)
{
    size_t n = 0, cap = 0;
    struct mention *m = NULL;
    cJSON *t, *f;
    cJSON_ArrayForEach(t, tasks)
    {
        cJSON_ArrayForEach(f, cJSON_GetObjectItem(t, "files"))
        {
            if (cJSON_GetObjectItem(f, "sizeInBytes")->valuedouble < 0)
                continue; /* no size given there: the catalogue's, or 0 */
            HS_GROW(m, cap, n + 1);
            m[n] = (struct mention){cJSON_GetObjectItem(f, "name")->valuestring,
                                    cJSON_GetObjectItem(t, "name")->valuestring,
                                    cJSON_GetObjectItem(f, "sizeInBytes")->valuedouble, n};
            n++;
        }
    }
    if (n > 1)
        qsort(m, n, sizeof *m, cmp_mention);
    const struct mention *first = NULL, *other = NULL;
    long files = 0; /* files given several sizes */
    for (size_t g = 0, e; g < n; g = e) { /* m[g]: a file's first mention, m[g..e) its mentions */
        const struct mention *differs = NULL;
        for (e = g + 1; e < n && strcmp(m[e].file, m[g].file) == 0; e++)
            if (!differs && m[e].bytes != m[g].bytes)
                differs = &m[e];
        if (differs && !files++)
            first = &m[g], other = differs;
    }
    const struct hs_pegasus_size *cat = NULL;
    for (size_t i = 1; i < r->nsizes && !cat; i++) /* sorted by name, then order */
        if (strcmp(r->sizes[i].name, r->sizes[i - 1].name) == 0 && r->sizes[i].bytes != r->sizes[i - 1].bytes)
            cat = &r->sizes[i];
    if (first)
        fprintf(stderr, "hetsim: warning: %s: file '%s' has %.17g bytes in job '%s' and %.17g in job '%s': the "
                "first, %.17g bytes, is kept (as SimGrid keeps it)%s\n", path, first->file, first->bytes, first->job,
                other->bytes, other->job, first->bytes, files > 1 ? "; other files too" : "");
    else if (cat) {
        const struct hs_pegasus_size *kept = cat;
        while (kept > r->sizes && strcmp(kept[-1].name, cat->name) == 0)
            kept--;
        fprintf(stderr, "hetsim: warning: %s: the file catalogue gives file '%s' %.17g bytes and %.17g bytes: "
                "the first, %.17g bytes, is kept (as SimGrid keeps it)\n", path, cat->name, kept->bytes,
                cat->bytes, kept->bytes);
    }
    free(m);
}

int hs_pegasus_refs_resolve(const char *path, cJSON *tasks, struct hs_pegasus_refs *r)
{
    size_t n = (size_t)cJSON_GetArraySize(tasks), k = 0;
    cJSON **jobs = hs_xmalloc((n ? n : 1) * sizeof *jobs), *t;
    cJSON_ArrayForEach(t, tasks) jobs[k++] = t;
    qsort(jobs, n, sizeof *jobs, cmp_named);
    int rc = 0;
    for (k = 1; k < n && !rc; k++)
        if (cmp_named(&jobs[k - 1], &jobs[k]) == 0)
            rc = hs_fail("%s: two jobs have id '%s'", path, cJSON_GetObjectItem(jobs[k], "name")->valuestring);
    for (size_t i = 0; i < r->nlinks && !rc; i++) {
        cJSON *c = find_job(jobs, n, r->links[i].child);
        const char *missing = !c ? r->links[i].child
                              : !find_job(jobs, n, r->links[i].parent) ? r->links[i].parent : NULL;
        if (missing)
            rc = hs_fail("%s:%d: '%s' is not the id of a job", path, r->links[i].line, missing);
        else
            cJSON_AddItemToArray(cJSON_GetObjectItem(c, "parents"), cJSON_CreateString(r->links[i].parent));
    }
    free(jobs);
    if (r->nsizes > 1)
        qsort(r->sizes, r->nsizes, sizeof *r->sizes, cmp_sized);
    if (!rc)
        warn_sizes(path, tasks, r);
    cJSON_ArrayForEach(t, tasks)
    {
        cJSON *f;
        cJSON_ArrayForEach(f, cJSON_GetObjectItem(t, "files"))
        {
            cJSON *size = cJSON_GetObjectItem(f, "sizeInBytes");
            if (size->valuedouble < 0)
                cJSON_SetNumberValue(size, catalog_size(r, cJSON_GetObjectItem(f, "name")->valuestring));
        }
    }
    return rc;
}
