/* workloads/archhints.c — cpu-only / gpu-only SetArch hints per kernel, for
 * every workload (generated or read from a file). They apply after the
 * workload's own hints (setarch=1 of the tiled factorizations). */
#include "workloads/archhints.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const keys[HS_NARCH] = {[HS_ARCH_CPU] = "cpu-only", [HS_ARCH_GPU] = "gpu-only"};

/* The architecture a hint key restricts to, or -1 for any other key. */
static int key_arch(const char *key)
{
    for (int a = 0; a < HS_NARCH; a++)
        if (strcmp(key, keys[a]) == 0)
            return a;
    return -1;
}

int hs_archhints_take(struct hs_spec *spec, struct hs_archhints *hints)
{
    memset(hints, 0, sizeof *hints);
    int seen[HS_NARCH] = {0};
    for (int i = 0; i < spec->n; i++) { /* check first: on error spec stays whole */
        int a = key_arch(spec->kv[i].key);
        if (a < 0)
            continue;
        if (seen[a]++)
            return hs_fail("workload %s: %s given twice", spec->name, keys[a]);
        if (!spec->kv[i].value[0])
            return hs_fail("workload %s: %s names no kernel", spec->name, keys[a]);
    }
    int kept = 0;
    for (int i = 0; i < spec->n; i++) {
        int a = key_arch(spec->kv[i].key);
        if (a < 0) {
            spec->kv[kept++] = spec->kv[i];
            continue;
        }
        hints->only[a] = spec->kv[i].value;
        free(spec->kv[i].key);
    }
    spec->n = kept;
    return 0;
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

/* The architecture each kernel is restricted to (-1: none), from both lists. */
static int collect(const struct hs_archhints *hints, const struct hs_dag *dag, const char *workload, int *arch)
{
    for (int k = 0; k < dag->nkernels; k++)
        arch[k] = -1;
    for (int a = 0; a < HS_NARCH; a++) {
        if (!hints->only[a])
            continue;
        char *copy = hs_xstrdup(hints->only[a]), *save = NULL;
        int rc = 0;
        for (char *name = strtok_r(copy, "/", &save); name && !rc; name = strtok_r(NULL, "/", &save)) {
            int k = hs_dag_find_kernel(dag, name);
            if (k < 0)
                rc = unknown_kernel(dag, workload, keys[a], name);
            else if (arch[k] >= 0 && arch[k] != a)
                rc = hs_fail("workload %s: kernel '%s' is both cpu-only and gpu-only", workload, name);
            else
                arch[k] = a;
        }
        free(copy);
        if (rc)
            return rc;
    }
    return 0;
}

int hs_archhints_apply(const struct hs_archhints *hints, struct hs_dag *dag, const char *workload)
{
    if (!hints->only[HS_ARCH_CPU] && !hints->only[HS_ARCH_GPU])
        return 0;
    int *arch = hs_xmalloc((size_t)(dag->nkernels > 0 ? dag->nkernels : 1) * sizeof *arch);
    int rc = collect(hints, dag, workload, arch);
    for (int t = 0; !rc && t < dag->ntasks; t++) {
        int a = arch[dag->tasks[t].kernel];
        if (a >= 0)
            dag->tasks[t].arch_mask = HS_ARCH_BIT(a);
    }
    free(arch);
    return rc;
}

char *hs_archhints_append(const struct hs_archhints *hints, char *spec_text)
{
    size_t n = strlen(spec_text) + 1;
    for (int a = 0; a < HS_NARCH; a++)
        n += hints->only[a] ? strlen(keys[a]) + strlen(hints->only[a]) + 2 : 0;
    char *s = hs_xrealloc(spec_text, n);
    for (int a = 0; a < HS_NARCH; a++)
        if (hints->only[a]) /* a spec with no key of its own has no ':' yet */
            sprintf(s + strlen(s), "%c%s=%s", strchr(s, ':') ? ',' : ':', keys[a], hints->only[a]);
    return s;
}

void hs_archhints_free(struct hs_archhints *hints)
{
    for (int a = 0; a < HS_NARCH; a++)
        free(hints->only[a]);
    memset(hints, 0, sizeof *hints);
}
