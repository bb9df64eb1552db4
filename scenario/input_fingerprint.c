/* scenario/input_fingerprint.c — a fingerprint of the content of the files a
 * run reads: its platform file, its host map, its timing table (a StarPU
 * perfmodel folder: every file in it) and its DAG file. A sweep's key names
 * a run by its texts (a platform's name, a file's path), which stay the same
 * when a shipped platform file or a timing table is edited; the fingerprint,
 * written beside the key in the row's inputs column, tells the edit, so that
 * a resumed sweep or ledger runs such a run again instead of reusing a row
 * made from the old files (analysis/sweep_exec.c). It never enters the key
 * or the seed.
 *
 * FNV-1a 64 (base/util.h) over each file's role, size and bytes: it guards
 * against a file edited since, not against one crafted to collide; an edit
 * gives another value but with a chance of about 2^-64, as the sweep's keys
 * and checked.json's digests already accept. Each text is hashed once per
 * process (a sweep describes every run twice, a ledger thousands). */
#include "scenario/scenario.h"
#include "base/inputfile.h"
#include "base/util.h"
#include "workloads/workload.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Fold a file's role, size and bytes into h; a file that cannot be read
 * folds in its role and "unreadable" (its run says why). */
static uint64_t fold_file(uint64_t h, const char *role, const char *path)
{
    char err[512];
    h = hs_fnv1a64(role, strlen(role) + 1, h);
    FILE *f = hs_input_open(path, HS_INPUT_MAX_BYTES, err, sizeof err);
    if (!f)
        return hs_fnv1a64("unreadable", 11, h);
    char buf[65536];
    size_t n;
    unsigned long long size = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        h = hs_fnv1a64(buf, n, h);
        size += n;
    }
    fclose(f);
    return hs_fnv1a64(&size, sizeof size, h);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* A timing table, or a StarPU perfmodel folder: each regular file in it,
 * by name (a superset of the codelet files the loader reads). */
static uint64_t fold_perf(uint64_t h, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return fold_file(h, "timing table", path);
    struct dirent **names;
    int n = scandir(path, &names, NULL, by_name);
    for (int i = 0; i < n; i++) {
        char *file = hs_path_join(path, names[i]->d_name);
        if (names[i]->d_name[0] != '.' && stat(file, &st) == 0 && S_ISREG(st.st_mode)) {
            h = hs_fnv1a64(names[i]->d_name, strlen(names[i]->d_name) + 1, h);
            h = fold_file(h, "perfmodel file", file);
        }
        free(file);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
    return h;
}

/* The DAG file a workload text reads (its file= parameter), or NULL. */
static char *dag_file(const char *workload)
{
    struct hs_spec spec;
    if (hs_workload_spec_parse(workload, &spec))
        return NULL;
    const struct hs_param *params = NULL;
    for (const struct hs_workload *const *w = hs_workloads(); *w; w++)
        if (strcmp((*w)->name, spec.name) == 0)
            params = (*w)->params;
    const char *file = params && hs_spec_check(&spec, params, "workload") == 0 ? hs_spec_get(&spec, "file") : NULL;
    char *out = file ? hs_xstrdup(file) : NULL;
    hs_spec_free(&spec);
    return out;
}

/* What the texts read, folded (HS_FNV_OFFSET when nothing). */
static uint64_t fingerprint(const char *platform, const char *perf, const char *workload)
{
    uint64_t h = HS_FNV_OFFSET;
    struct hs_platform_ref ref;
    if (hs_resolve_platform(platform, perf, &ref) == 0) { /* else the run says why */
        if (ref.file)
            h = fold_file(h, "platform file", ref.file);
        if (ref.machine.hosts)
            h = fold_file(h, "host map", ref.machine.hosts);
        if (ref.perf)
            h = fold_perf(h, ref.perf);
        hs_platform_ref_free(&ref);
    }
    char *dag = dag_file(workload);
    if (dag)
        h = fold_file(h, "DAG file", dag);
    free(dag);
    return h;
}

struct known {
    char *text;
    uint64_t fingerprint;
};

static struct known *known;
static size_t nknown, capknown;

uint64_t hs_inputs_fingerprint(const char *platform, const char *perf, const char *workload)
{
    size_t len = strlen(platform) + (perf ? strlen(perf) : 0) + strlen(workload) + 3;
    char *text = hs_xmalloc(len);
    snprintf(text, len, "%s\n%s\n%s", platform, perf ? perf : "", workload);
    for (size_t i = 0; i < nknown; i++)
        if (strcmp(known[i].text, text) == 0) {
            free(text);
            return known[i].fingerprint;
        }
    uint64_t h = fingerprint(platform, perf, workload);
    h = h == HS_FNV_OFFSET ? 0 : h; /* no file read: 0 */
    HS_GROW(known, capknown, nknown + 1);
    known[nknown++] = (struct known){text, h};
    return h;
}
