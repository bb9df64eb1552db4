/* workloads/archhints.c — cpu-only / gpu-only SetArch hints per kernel, for
 * every workload (generated or read from a file). They apply after the
 * workload's own hints (setarch=1 of the tiled factorizations). */
#include "workloads/archhints.h"
#include "sim/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const keys[2] = {"cpu-only", "gpu-only"};

static char **slot(struct hs_archhints *h, int which)
{
    return which == 0 ? &h->cpu_only : &h->gpu_only;
}

static int key_index(const char *key)
{
    return strcmp(key, keys[0]) == 0 ? 0 : strcmp(key, keys[1]) == 0 ? 1 : -1;
}

int hs_archhints_take(struct hs_spec *spec, struct hs_archhints *hints)
{
    memset(hints, 0, sizeof *hints);
    int seen[2] = {0, 0};
    for (int i = 0; i < spec->n; i++) { /* check first: on error spec stays whole */
        int which = key_index(spec->kv[i].key);
        if (which < 0)
            continue;
        if (seen[which]++)
            return hs_fail("workload %s: %s given twice", spec->name, keys[which]);
        if (!spec->kv[i].value[0])
            return hs_fail("workload %s: %s names no kernel", spec->name, keys[which]);
    }
    int kept = 0;
    for (int i = 0; i < spec->n; i++) {
        int which = key_index(spec->kv[i].key);
        if (which < 0) {
            spec->kv[kept++] = spec->kv[i];
            continue;
        }
        *slot(hints, which) = spec->kv[i].value;
        free(spec->kv[i].key);
    }
    spec->n = kept;
    return 0;
}

static int kernel_index(const struct hs_dag *dag, const char *name)
{
    for (int k = 0; k < dag->nkernels; k++)
        if (strcmp(dag->kernels[k], name) == 0)
            return k;
    return -1;
}

static int unknown_kernel(const struct hs_dag *dag, const char *workload, const char *key, const char *name)
{
    char known[512];
    int len = 0;
    known[0] = '\0';
    for (int k = 0; k < dag->nkernels && len < (int)sizeof known; k++)
        len += snprintf(known + len, sizeof known - (size_t)len, "%s%s", k ? ", " : "", dag->kernels[k]);
    return hs_fail("workload %s: %s names kernel '%s', which no task has (kernels: %s)", workload, key, name,
                   known);
}

/* The arch each kernel is restricted to (-1: none), from both lists. */
static int collect(const struct hs_archhints *hints, const struct hs_dag *dag, const char *workload, int *arch)
{
    for (int k = 0; k < dag->nkernels; k++)
        arch[k] = -1;
    for (int which = 0; which < 2; which++) {
        const char *list = which == 0 ? hints->cpu_only : hints->gpu_only;
        if (!list)
            continue;
        char *copy = hs_xstrdup(list), *save = NULL;
        int rc = 0;
        for (char *name = strtok_r(copy, "/", &save); name && !rc; name = strtok_r(NULL, "/", &save)) {
            int k = kernel_index(dag, name);
            if (k < 0)
                rc = unknown_kernel(dag, workload, keys[which], name);
            else if (arch[k] >= 0 && arch[k] != which)
                rc = hs_fail("workload %s: kernel '%s' is both cpu-only and gpu-only", workload, name);
            else
                arch[k] = which;
        }
        free(copy);
        if (rc)
            return rc;
    }
    return 0;
}

int hs_archhints_apply(const struct hs_archhints *hints, struct hs_dag *dag, const char *workload)
{
    if (!hints->cpu_only && !hints->gpu_only)
        return 0;
    int *arch = hs_xmalloc((size_t)(dag->nkernels > 0 ? dag->nkernels : 1) * sizeof *arch);
    int rc = collect(hints, dag, workload, arch);
    for (int t = 0; !rc && t < dag->ntasks; t++) {
        int a = arch[dag->tasks[t].kernel];
        if (a >= 0)
            dag->tasks[t].arch_mask = HS_ARCH_BIT(a == 0 ? HS_ARCH_CPU : HS_ARCH_GPU);
    }
    free(arch);
    return rc;
}

char *hs_archhints_append(const struct hs_archhints *hints, char *spec_text)
{
    size_t n = strlen(spec_text) + 1;
    for (int which = 0; which < 2; which++) {
        const char *list = which == 0 ? hints->cpu_only : hints->gpu_only;
        n += list ? strlen(keys[which]) + strlen(list) + 2 : 0;
    }
    char *s = hs_xrealloc(spec_text, n);
    for (int which = 0; which < 2; which++) {
        const char *list = which == 0 ? hints->cpu_only : hints->gpu_only;
        if (list) /* a spec with no key of its own has no ':' yet */
            sprintf(s + strlen(s), "%c%s=%s", strchr(s, ':') ? ',' : ':', keys[which], list);
    }
    return s;
}

void hs_archhints_free(struct hs_archhints *hints)
{
    free(hints->cpu_only);
    free(hints->gpu_only);
    memset(hints, 0, sizeof *hints);
}
