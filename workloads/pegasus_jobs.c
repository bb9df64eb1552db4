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
