/* scenario/study_run.c — a study's sweep (or analysis) run into a folder. */
#include "scenario/scenario.h"
#include "policies/bm/bm_grid.h"
#include "base/buf.h"
#include "base/util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int hs_make_dirs(const char *path)
{
    char *p = hs_xstrdup(path);
    int rc = 0;
    for (char *s = p + 1; !rc; s++) {
        bool end = *s == '\0';
        if (*s == '/' || end) {
            *s = '\0';
            if (mkdir(p, 0755) && errno != EEXIST)
                rc = hs_fail("cannot make folder %s: %s", p, strerror(errno));
            if (end)
                break;
            *s = '/';
        }
    }
    free(p);
    return rc;
}

char *hs_path_join(const char *dir, const char *file)
{
    char *p = hs_xmalloc(strlen(dir) + strlen(file) + 2);
    sprintf(p, "%s/%s", dir, file);
    return p;
}

int hs_study_sweep_def(const struct hs_study *st, struct hs_sweep_def *def, const struct hs_study_kv *set,
                       int nset)
{
    char where[1100];
    snprintf(where, sizeof where, "%s: ", st->path);
    hs_sweep_def_init(def, where);
    hs_sweep_def_study(def, st);
    for (int i = 0; i < nset; i++)
        hs_sweep_def_set(def, set[i].key, set[i].value);
    return hs_sweep_def_resolve(def);
}

int hs_study_execute(const struct hs_study *st, const char *dir, struct hs_sweep_opts *so,
                     const struct hs_study_kv *set, int nset)
{
    if (hs_make_dirs(dir))
        return HS_EXIT_USAGE;
    char *csv = hs_path_join(dir, "results.csv");
    if (st->analysis) { /* computed whole each time: seconds, and deterministic */
        int rc = hs_bm_grid_write_csv(st->analysis_dim, st->analysis_draws, st->analysis_seed, csv);
        free(csv);
        return rc ? HS_EXIT_USAGE : HS_EXIT_OK;
    }
    so->csv = csv;
    if (!so->timeout)
        so->timeout = st->timeout;
    struct hs_sweep_def def;
    int rc = HS_EXIT_USAGE;
    if (!hs_study_sweep_def(st, &def, set, nset)) {
        struct hs_sweep_ops ops;
        hs_sweep_def_ops(&def, &ops);
        rc = hs_sweep_execute(so, &ops);
    }
    hs_sweep_def_free(&def);
    so->csv = NULL;
    free(csv);
    return rc;
}

char *hs_study_plot_title(const struct hs_study *st, const struct hs_study_plot *sp)
{
    if (!st->quick)
        return sp->title ? hs_xstrdup(sp->title) : NULL;
    struct hs_buf b = {0};
    hs_buf_printf(&b, "%s, quick version:", st->name);
    for (int i = 0, n = 0; i < st->nbase; i++)
        if (strcmp(st->base[i].key, "seed") != 0)
            hs_buf_printf(&b, "%s %s %s", n++ ? "," : "", st->base[i].key, st->base[i].value);
    return hs_buf_take(&b);
}
