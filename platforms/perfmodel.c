/* platforms/perfmodel.c — loading timing tables (cJSON; StarPU's perfmodels
 * through platforms/perf_starpu.c) and looking durations up, and the
 * calibrated durations policies are told (perfmodel.h). */
#include "platforms/perfmodel.h"
#include "base/inputfile.h"
#include "base/util.h"
#include "platforms/perf_starpu.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Where an entry is: its list ("kernels" or "calibrated") and index. */
struct entry_at {
    const char *path, *list;
    int i;
};

static int entry_error(char *err, size_t errlen, struct entry_at at, const char *what)
{
    snprintf(err, errlen, "%s: %s[%d]: %s", at.path, at.list, at.i, what);
    return -1;
}

/* The first key of o outside keys (NULL-terminated), or NULL. */
static const char *unknown_key(const cJSON *o, const char *const *keys)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, o)
    {
        int k = 0;
        while (keys[k] && strcmp(keys[k], c->string ? c->string : "") != 0)
            k++;
        if (!keys[k])
            return c->string ? c->string : "";
    }
    return NULL;
}

/* A "corun" entry's busy count (an integer >= 1) and copies flag. */
static int parse_corun(const cJSON *item, struct hs_perf_entry *e, struct entry_at at, char *err, size_t errlen)
{
    const cJSON *busy = cJSON_GetObjectItemCaseSensitive(item, "busy");
    const cJSON *copies = cJSON_GetObjectItemCaseSensitive(item, "copies");
    if (!cJSON_IsNumber(busy) || !(busy->valuedouble >= 1) || busy->valuedouble > 65536 ||
        busy->valuedouble != floor(busy->valuedouble))
        return entry_error(err, errlen, at, "field 'busy' (workers running kernels at once) must be an "
                           "integer in [1, 65536]");
    if (copies && !cJSON_IsBool(copies))
        return entry_error(err, errlen, at, "field 'copies' must be true or false");
    if (!cJSON_GetObjectItemCaseSensitive(item, "seconds"))
        return entry_error(err, errlen, at, "a corun entry gives 'seconds', not 'gflops'");
    e->busy = (int)busy->valuedouble;
    e->copies = cJSON_IsTrue(copies);
    return 0;
}

static int parse_entry(const cJSON *item, struct hs_perf_entry *e, struct entry_at at, char *err,
                       size_t errlen)
{
    static const char *const keys[] = {"kernel", "arch", "nb", "seconds", "gflops", "source",
                                       "gpus", "tasks", NULL};
    static const char *const corun_keys[] = {"kernel", "arch", "nb", "seconds", "source", "busy",
                                             "copies", NULL};
    bool corun = strcmp(at.list, "corun") == 0;
    if (!cJSON_IsObject(item))
        return entry_error(err, errlen, at, "not an object");
    const char *unknown = unknown_key(item, corun ? corun_keys : keys);
    if (unknown) {
        char what[192];
        snprintf(what, sizeof what, "unknown key '%.64s' (valid: %s)", unknown,
                 corun ? "kernel, arch, nb, seconds, source, busy, copies"
                       : "kernel, arch, nb, seconds, gflops, source, gpus, tasks");
        return entry_error(err, errlen, at, what);
    }
    if (corun && parse_corun(item, e, at, err, errlen))
        return -1;
    const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(item, "kernel");
    const cJSON *arch = cJSON_GetObjectItemCaseSensitive(item, "arch");
    const cJSON *nb = cJSON_GetObjectItemCaseSensitive(item, "nb");
    const cJSON *sec = cJSON_GetObjectItemCaseSensitive(item, "seconds");
    const cJSON *gf = cJSON_GetObjectItemCaseSensitive(item, "gflops");
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(item, "source");
    if (!cJSON_IsString(kernel) || !*kernel->valuestring)
        return entry_error(err, errlen, at, "field 'kernel' must be a non-empty string");
    if (!cJSON_IsString(arch) ||
        (strcmp(arch->valuestring, "cpu") != 0 && strcmp(arch->valuestring, "gpu") != 0))
        return entry_error(err, errlen, at, "field 'arch' must be \"cpu\" or \"gpu\"");
    if (nb && (!cJSON_IsNumber(nb) || !(nb->valuedouble >= 0) || nb->valuedouble > INT_MAX ||
               nb->valuedouble != floor(nb->valuedouble)))
        return entry_error(err, errlen, at, "field 'nb' must be an integer in [0, 2147483647]");
    if ((sec != NULL) == (gf != NULL))
        return entry_error(err, errlen, at, "give exactly one of 'seconds' and 'gflops'");
    const cJSON *val = sec ? sec : gf;
    if (!cJSON_IsNumber(val) || !(val->valuedouble > 0) || !isfinite(val->valuedouble)) {
        char what[128];
        if (cJSON_IsNumber(val))
            snprintf(what, sizeof what, "'seconds' or 'gflops' must be a positive number: '%s' "
                     "is %g", sec ? "seconds" : "gflops", val->valuedouble);
        else
            snprintf(what, sizeof what, "'seconds' or 'gflops' must be a positive number");
        return entry_error(err, errlen, at, what);
    }
    if (!cJSON_IsString(src) || !*src->valuestring)
        return entry_error(err, errlen, at, "field 'source' (provenance) is required");
    e->kernel = dup_str(kernel->valuestring);
    e->arch = dup_str(arch->valuestring);
    e->nb = nb ? (int)nb->valuedouble : 0;
    e->seconds = sec ? sec->valuedouble : 0;
    e->gflops = gf ? gf->valuedouble : 0;
    e->source = dup_str(src->valuestring);
    return 0;
}

static int parse_overhead(const cJSON *root, struct hs_perfmodel *pm, const char *path, char *err,
                          size_t errlen)
{
    const cJSON *ov = cJSON_GetObjectItemCaseSensitive(root, "overhead_seconds");
    if (!ov)
        return 0;
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(ov, "cpu");
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(ov, "gpu");
    if (!cJSON_IsObject(ov) || (c && !cJSON_IsNumber(c)) || (g && !cJSON_IsNumber(g)) ||
        (c && !(c->valuedouble >= 0 && isfinite(c->valuedouble))) ||
        (g && !(g->valuedouble >= 0 && isfinite(g->valuedouble)))) {
        snprintf(err, errlen, "%s: 'overhead_seconds' must be {\"cpu\": s, \"gpu\": s} with s >= 0",
                 path);
        return -1;
    }
    pm->overhead_cpu = c ? c->valuedouble : 0;
    pm->overhead_gpu = g ? g->valuedouble : 0;
    return 0;
}

/* Parse every entry of a list; on error *n counts those parsed (to free). */
static int parse_list(const cJSON *list, const char *name, const char *path,
                      struct hs_perf_entry **entries, int *n, char *err, size_t errlen)
{
    int size = cJSON_GetArraySize(list);
    *entries = calloc((size_t)(size ? size : 1), sizeof **entries);
    *n = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
    {
        if (parse_entry(item, &(*entries)[*n], (struct entry_at){path, name, *n}, err, errlen))
            return -1;
        (*n)++;
    }
    return 0;
}

/* Every entry of a list names a kernel the "kernels" list times on its arch:
 * the engine executes the table's own durations. */
static int check_timed(const struct hs_perfmodel *pm, const struct hs_perf_entry *list, int n, const char *name,
                       const char *path, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (!hs_perf_has(pm, list[i].kernel, list[i].arch)) {
            char what[160];
            snprintf(what, sizeof what, "kernel '%s' on %s is not timed in 'kernels'", list[i].kernel,
                     list[i].arch);
            return entry_error(err, errlen, (struct entry_at){path, name, i}, what);
        }
    return 0;
}

int hs_perf_load(const char *path, struct hs_perfmodel *pm, char *err, size_t errlen)
{
    return hs_perf_load_for(path, NULL, pm, err, errlen);
}

int hs_perf_load_for(const char *path, const char *platform_file, struct hs_perfmodel *pm, char *err,
                     size_t errlen)
{
    memset(pm, 0, sizeof *pm);
    if (hs_perf_is_starpu(path))
        return hs_perf_load_starpu(path, platform_file, pm, err, errlen);
    size_t len = 0;
    char *text = hs_input_read(path, HS_INPUT_MAX_BYTES, &len, err, errlen);
    if (!text)
        return -1;
    cJSON *root = hs_json_parse_strict(path, text, len, err, errlen);
    free(text);
    if (!root)
        return -1;
    int rc = -1;
    static const char *const top_keys[] = {"description", "platform", "overhead_seconds",
                                           "overhead_source", "kernels", "calibrated", "corun", NULL};
    const char *unknown = cJSON_IsObject(root) ? unknown_key(root, top_keys) : NULL;
    if (unknown) {
        snprintf(err, errlen, "%s: unknown key '%.64s' (valid: description, platform, "
                 "overhead_seconds, overhead_source, kernels, calibrated, corun)", path, unknown);
        goto out;
    }
    const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(root, "kernels");
    if (!cJSON_IsArray(kernels) || cJSON_GetArraySize(kernels) == 0) {
        snprintf(err, errlen, "%s: field 'kernels' must be a non-empty array", path);
        goto out;
    }
    if (parse_overhead(root, pm, path, err, errlen))
        goto out;
    if (parse_list(kernels, "kernels", path, &pm->entries, &pm->n, err, errlen))
        goto out;
    const cJSON *calibrated = cJSON_GetObjectItemCaseSensitive(root, "calibrated");
    if (calibrated && !cJSON_IsArray(calibrated)) {
        snprintf(err, errlen, "%s: field 'calibrated' must be an array", path);
        goto out;
    }
    if (calibrated && parse_list(calibrated, "calibrated", path, &pm->calibrated, &pm->ncalibrated,
                                 err, errlen))
        goto out;
    if (check_timed(pm, pm->calibrated, pm->ncalibrated, "calibrated", path, err, errlen))
        goto out;
    const cJSON *corun = cJSON_GetObjectItemCaseSensitive(root, "corun");
    if (corun && !cJSON_IsArray(corun)) {
        snprintf(err, errlen, "%s: field 'corun' must be an array", path);
        goto out;
    }
    if (corun && (parse_list(corun, "corun", path, &pm->corun, &pm->ncorun, err, errlen) ||
                  check_timed(pm, pm->corun, pm->ncorun, "corun", path, err, errlen)))
        goto out;
    const cJSON *desc = cJSON_GetObjectItemCaseSensitive(root, "description");
    pm->description = dup_str(cJSON_IsString(desc) ? desc->valuestring : "");
    pm->file = dup_str(path);
    rc = 0;
out:
    cJSON_Delete(root);
    if (rc)
        hs_perf_free(pm);
    return rc;
}

static void free_list(struct hs_perf_entry *entries, int n)
{
    for (int i = 0; i < n; i++) {
        free(entries[i].kernel);
        free(entries[i].arch);
        free(entries[i].source);
    }
    free(entries);
}

void hs_perf_free(struct hs_perfmodel *pm)
{
    free_list(pm->entries, pm->n);
    free_list(pm->calibrated, pm->ncalibrated);
    free_list(pm->corun, pm->ncorun);
    free_list(pm->starpu_empty, pm->nstarpu_empty);
    for (int i = 0; i < pm->nreg; i++) {
        free(pm->reg[i].kernel);
        free(pm->reg[i].arch);
        free(pm->reg[i].source);
    }
    free(pm->reg);
    for (int i = 0; i < pm->nnotes; i++)
        free(pm->notes[i]);
    free(pm->notes);
    free(pm->starpu_gpu_at);
    free(pm->file);
    free(pm->description);
    memset(pm, 0, sizeof *pm);
}

void hs_perf_note(struct hs_perfmodel *pm, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    HS_GROW_IMPLIED(pm->notes, pm->nnotes, pm->nnotes + 1);
    pm->notes[pm->nnotes++] = hs_xstrdup(text);
}

int hs_perf_has(const struct hs_perfmodel *pm, const char *kernel, const char *arch)
{
    for (int i = 0; pm && i < pm->n; i++)
        if (strcmp(pm->entries[i].kernel, kernel) == 0 && strcmp(pm->entries[i].arch, arch) == 0)
            return 1;
    for (int i = 0; pm && i < pm->nreg; i++)
        if (strcmp(pm->reg[i].kernel, kernel) == 0 && strcmp(pm->reg[i].arch, arch) == 0)
            return 1;
    return 0;
}

int hs_perf_has_nb(const struct hs_perfmodel *pm, const char *kernel, const char *arch, int nb)
{
    for (int i = 0; pm && i < pm->n; i++)
        if ((pm->entries[i].nb == nb || pm->entries[i].nb == 0) &&
            strcmp(pm->entries[i].kernel, kernel) == 0 && strcmp(pm->entries[i].arch, arch) == 0)
            return 1;
    return 0;
}

const struct hs_perf_regression *hs_perf_regression_for(const struct hs_perfmodel *pm, const char *kernel,
                                                        const char *arch, int nb)
{
    for (int i = 0; pm && i < pm->nreg; i++) {
        const struct hs_perf_regression *r = &pm->reg[i];
        double size = r->bytes_per_nb2 * nb * nb;
        if (strcmp(r->kernel, kernel) == 0 && strcmp(r->arch, arch) == 0 && size >= 0.9 * r->minx &&
            size <= 1.1 * r->maxx)
            return r;
    }
    return NULL;
}

/* Rate (flop/s) of an entry for a task of `flops` at tile size nb. */
static double entry_rate(const struct hs_perf_entry *e, int nb, double flops)
{
    if (e->gflops > 0)
        return e->gflops * 1e9;
    double scale = (e->nb > 0 && nb > 0) ? pow((double)e->nb / nb, 3) : 1.0;
    return flops * scale / e->seconds;
}

double hs_perf_time(const struct hs_perfmodel *pm, const char *kernel, const char *arch, int nb,
                    double flops)
{
    const struct hs_perf_entry *below = NULL, *above = NULL;
    double overhead = strcmp(arch, "gpu") == 0 ? pm->overhead_gpu : pm->overhead_cpu;
    for (int i = 0; i < pm->n; i++) {
        const struct hs_perf_entry *e = &pm->entries[i];
        if (strcmp(e->kernel, kernel) != 0 || strcmp(e->arch, arch) != 0)
            continue;
        if (e->nb == nb || e->nb == 0) {
            if (e->seconds > 0)
                return e->seconds;
            return flops > 0 ? flops / (e->gflops * 1e9) + overhead : NAN;
        }
        if (e->nb < nb && (!below || e->nb > below->nb))
            below = e;
        if (e->nb > nb && (!above || e->nb < above->nb))
            above = e;
    }
    const struct hs_perf_regression *r = hs_perf_regression_for(pm, kernel, arch, nb);
    if (r) /* StarPU's regression, in µs of the bytes the task touches */
        return (r->a * pow(r->bytes_per_nb2 * nb * nb, r->b) + r->c) * 1e-6;
    if ((!below && !above) || !(flops > 0))
        return NAN;
    double rate;
    if (below && above) {
        double f = (double)(nb - below->nb) / (above->nb - below->nb);
        rate = (1 - f) * entry_rate(below, nb, flops) + f * entry_rate(above, nb, flops);
    } else {
        rate = entry_rate(below ? below : above, nb, flops);
    }
    return flops / rate + overhead;
}

double hs_perf_estimate(const struct hs_perfmodel *pm, const char *kernel, const char *arch, int nb,
                        double flops)
{
    for (int i = 0; i < pm->ncalibrated; i++) {
        const struct hs_perf_entry *e = &pm->calibrated[i];
        if (e->nb == nb && strcmp(e->kernel, kernel) == 0 && strcmp(e->arch, arch) == 0)
            return e->seconds > 0 ? e->seconds : flops / (e->gflops * 1e9);
    }
    return hs_perf_time(pm, kernel, arch, nb, flops);
}

/* The entries of one curve: (kernel, arch, nb, copies), the nearest busy
 * counts below and above (or equal to) busy. */
static bool corun_bracket(const struct hs_perfmodel *pm, const char *kernel, const char *arch, int nb, int busy,
                          int copies, const struct hs_perf_entry **below, const struct hs_perf_entry **above)
{
    *below = *above = NULL;
    for (int i = 0; i < pm->ncorun; i++) {
        const struct hs_perf_entry *e = &pm->corun[i];
        if (e->nb != nb || e->copies != copies || strcmp(e->kernel, kernel) != 0 || strcmp(e->arch, arch) != 0)
            continue;
        if (e->busy <= busy && (!*below || e->busy > (*below)->busy))
            *below = e;
        if (e->busy >= busy && (!*above || e->busy < (*above)->busy))
            *above = e;
    }
    return *below || *above;
}

double hs_perf_corun_time(const struct hs_perfmodel *pm, const char *kernel, const char *arch, int nb,
                          int busy, int copies)
{
    const struct hs_perf_entry *below, *above;
    if (!pm || !pm->ncorun)
        return NAN;
    if (!corun_bracket(pm, kernel, arch, nb, busy, copies != 0, &below, &above) &&
        (!copies || !corun_bracket(pm, kernel, arch, nb, busy, 0, &below, &above)))
        return NAN;
    if (!below || !above)
        return (below ? below : above)->seconds;
    if (below->busy == above->busy)
        return below->seconds;
    double f = (double)(busy - below->busy) / (above->busy - below->busy);
    return (1 - f) * below->seconds + f * above->seconds;
}
