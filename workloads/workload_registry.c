/* workloads/workload_registry.c — every workload, by name, and their common checks;
 * a DAG file given by its path is read by its extension. */
#include "workloads/workload.h"
#include "workloads/archhints.h"
#include "base/util.h"
#include "base/nearest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct hs_workload *const all_workloads[] = {
    &hs_workload_cholesky,
    &hs_workload_gemm,
    &hs_workload_lu,
    &hs_workload_qr,
    &hs_workload_outer,
    &hs_workload_matmul,
    &hs_workload_json,
    &hs_workload_dot,
    &hs_workload_wfformat,
    &hs_workload_dax,
    &hs_workload_pegasus,
    &hs_workload_stg,
    &hs_workload_daggen_text,
    &hs_workload_taskrec,
    &hs_workload_random,
    &hs_workload_daggen,
    &hs_workload_xkcholesky,
    &hs_workload_lunopiv,
    &hs_workload_multistep,
    NULL,
};

const struct hs_workload *const *hs_workloads(void)
{
    return all_workloads;
}

static const struct hs_workload *find(const char *name)
{
    for (int i = 0; all_workloads[i]; i++)
        if (strcmp(all_workloads[i]->name, name) == 0)
            return all_workloads[i];
    return NULL;
}

/* The workload that reads a DAG file, by its extension (a WfFormat instance
 * in a .json file is recognised by the json reader), else NULL. */
static const char *file_kind(const char *text)
{
    const char *dot = strrchr(text, '.');
    if (!dot || strchr(dot, '/') || (strchr(text, ':') && access(text, F_OK) != 0))
        return NULL;
    static const char *const kinds[][2] = {{".json", "json"}, {".dot", "dot"}, {".gv", "dot"},
                                           {".dax", "dax"},   {".xml", "dax"}, {".stg", "stg"},
                                           {".rec", "taskrec"}, {".yml", "pegasus"}, {".yaml", "pegasus"}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(dot, kinds[i][0]) == 0)
            return kinds[i][1];
    return NULL;
}

int hs_workload_spec_parse(const char *text, struct hs_spec *spec)
{
    const char *kind = file_kind(text);
    if (!kind)
        return hs_spec_parse(text, spec);
    memset(spec, 0, sizeof *spec);
    spec->name = hs_xstrdup(kind);
    spec->n = 1;
    spec->kv = hs_xmalloc(sizeof *spec->kv);
    spec->kv[0].key = hs_xstrdup("file");
    spec->kv[0].value = hs_xstrdup(text);
    return 0;
}

struct hs_dag *hs_workload_build(const char *text)
{
    struct hs_spec spec;
    if (hs_workload_spec_parse(text, &spec))
        return NULL;
    const struct hs_workload *wl = find(spec.name);
    if (!wl) {
        char names[256];
        int len = 0;
        for (int i = 0; all_workloads[i]; i++)
            len += snprintf(names + len, sizeof names - (size_t)len, "%s%s", i ? ", " : "",
                            all_workloads[i]->name);
        hs_fail("unknown workload '%s' (valid: %s; or the path of a .json, .dot, .gv, .dax, .xml, .yml, .yaml, .stg or "
                ".rec DAG file)%s", spec.name, names, hs_did_you_mean(spec.name, names));
        hs_spec_free(&spec);
        return NULL;
    }
    char what[96];
    snprintf(what, sizeof what, "workload %s", wl->name);
    struct hs_archhints hints;
    if (hs_archhints_take(&spec, &hints) || hs_spec_check(&spec, wl->params, what)) {
        hs_archhints_free(&hints);
        hs_spec_free(&spec);
        return NULL;
    }
    char *canonical = hs_spec_text(&spec);
    if (hs_workload_check_size(wl->name, &spec, canonical)) {
        free(canonical);
        hs_archhints_free(&hints);
        hs_spec_free(&spec);
        return NULL;
    }
    struct hs_dag *dag = hs_dag_new(canonical);
    free(canonical);
    int rc = wl->build(&spec, dag);
    if (!rc && !(rc = hs_archhints_apply(&hints, dag, wl->name)))
        dag->name = hs_archhints_append(&hints, dag->name); /* after a file's own name */
    hs_archhints_free(&hints);
    hs_spec_free(&spec);
    if (rc || hs_dag_finalize(dag)) {
        hs_dag_free(dag);
        return NULL;
    }
    return dag;
}

int hs_tiles(const char *workload, const struct hs_spec *spec, const char *nkey)
{
    long n = hs_spec_int(spec, nkey), nb = hs_spec_int(spec, "nb");
    if (n <= 0 || nb <= 0)
        return hs_fail("workload %s: %s=%ld and nb=%ld must be positive", workload, nkey, n, nb);
    if (n % nb)
        return hs_fail("workload %s: nb=%ld does not divide %s=%ld", workload, nb, nkey, n);
    return (int)(n / nb);
}

int hs_element_bytes(const struct hs_spec *spec)
{
    const char *p = hs_spec_get(spec, "precision");
    return p && p[0] == 's' ? 4 : 8;
}
