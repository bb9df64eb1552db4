/* cli/cmd_ledger.c — the ledger of published claims: every study that
 * checks a claim is run (full size; their runs in one pool, scenario/ledger_pool.c,
 * or, with --merge, joined from the folders of the ledger's shards) and its
 * published values are counted towards their claims' verdicts.
 *
 * Under mpirun (hetsim-mpi), MPI is initialised once in each process
 * (hs_mpi_group, analysis/sweep_mpi.c); rank R of N runs share R of N into
 * DIR/mpi-R-of-N, exactly as --shard R/N would, copying the runs DIR already
 * holds; once every rank is done, rank 0 joins the shares into DIR as --merge
 * does and prints the one table. */
#include "analysis/csv.h"
#include "analysis/ledger.h"
#include "analysis/published.h"
#include "base/util.h"
#include "cli/cli.h"
#include "analysis/sweep_exec.h"
#include "scenario/scenario.h"
#include "cli/ledger_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- platform substitution ------------------------------------------------ */

/* Does a platform or policy text name `name` ("idgraf", "idgraf:bw_scale=0.5")? */
static bool names(const char *value, const char *name)
{
    size_t n = strlen(name);
    return strncmp(value, name, n) == 0 && (value[n] == '\0' || value[n] == ':');
}

/* A rewrite of the values of one key: a platform's name replaced, or a
 * parameter added to a policy's. */
struct rewrite {
    const char *key, *name, *to, *param;
};

static void rewrite_value(char **value, const struct rewrite *rw)
{
    if (!names(*value, rw->name))
        return;
    const char *rest = *value + strlen(rw->name);
    char *v = hs_xmalloc(strlen(*value) + strlen(rw->to ? rw->to : "") + strlen(rw->param ? rw->param : "") + 2);
    if (rw->to)
        sprintf(v, "%s%s", rw->to, rest);
    else
        sprintf(v, "%s%c%s", *value, *rest ? ',' : ':', rw->param);
    free(*value);
    *value = v;
}

static bool rewrite_kv(struct hs_study_kv *kv, int n, const struct rewrite *rw)
{
    bool found = false;
    for (int i = 0; i < n; i++)
        if (strcmp(kv[i].key, rw->key) == 0) {
            rewrite_value(&kv[i].value, rw);
            found = true;
        }
    return found;
}

/* Every value of the key the study gives (its base, its axes, its published
 * values' filters) is rewritten; a study that sets no platform runs on the
 * default one, which it then names. */
static void rewrite_study(struct hs_study *st, const struct rewrite *rw)
{
    bool named = rewrite_kv(st->base, st->nbase, rw);
    for (int a = 0; a < st->naxes; a++)
        if (strcmp(st->axes[a].name, rw->key) == 0) {
            named = true;
            for (int i = 0; i < st->axes[a].n; i++)
                rewrite_value(&st->axes[a].values[i], rw);
        }
    for (int r = 0; r < st->nrefs; r++) {
        rewrite_kv(st->refs[r].where, st->refs[r].nwhere, rw);
        rewrite_kv(st->refs[r].versus, st->refs[r].nversus, rw);
    }
    if (!named && rw->to && strcmp(rw->name, HS_DEFAULT_PLATFORM) == 0) {
        HS_GROW_IMPLIED(st->base, st->nbase, st->nbase + 1); /* as the study loader grows it */
        st->base[st->nbase].key = hs_xstrdup("platform");
        st->base[st->nbase++].value = hs_xstrdup(rw->to);
    }
}

/* ---- one study ------------------------------------------------------------ */

static bool listed(const char *only, const char *name)
{
    if (!only)
        return true;
    size_t n = strlen(name);
    for (const char *p = only; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return true;
    return false;
}

/* Does the study check a claim of the ledger? Tags naming no claim of the
 * ledger are reported (a typo would silently drop a value). */
static bool carries_claims(const struct hs_study *st, const struct hs_ledger *l, bool warn)
{
    bool any = false;
    for (int r = 0; r < st->nrefs; r++) {
        const char *id = st->refs[r].claim;
        if (!id)
            continue;
        if (hs_ledger_find(l, id))
            any = true;
        else if (warn)
            fprintf(stderr, "hetsim: %s: published[%d].claim: '%s' is not a claim of %s\n", st->path, r, id,
                    l->path);
    }
    return any;
}

/* A value tagged with a claim the claims file calls not runnable: one of
 * the two is wrong, -1 with hs_fail naming both. */
static int tags_runnable(const struct hs_study *st, const struct hs_ledger *l)
{
    for (int r = 0; r < st->nrefs; r++) {
        const struct hs_claim *c = st->refs[r].claim ? hs_ledger_find(l, st->refs[r].claim) : NULL;
        if (c && c->not_runnable)
            return hs_fail("%s: published[%d].claim: '%s' is not runnable in %s (remove the tag or the claim's "
                           "not_runnable)",
                           st->path, r, c->id, l->path);
    }
    return 0;
}

/* Count the study's checked values towards their claims, from its rows. */
static int tally(const struct hs_study *st, struct hs_ledger *l, const char *dir)
{
    char *file = hs_path_join(dir, "results.csv");
    struct hs_csv csv;
    int rc = hs_csv_read(file, &csv);
    for (int r = 0; !rc && r < st->nrefs; r++) {
        const struct hs_study_ref *ref = &st->refs[r];
        struct hs_claim *c = ref->claim ? hs_ledger_find(l, ref->claim) : NULL;
        if (!c || !hs_published_checked(ref))
            continue;
        if (ref->circular) { /* the model took it: not evidence (docs/fidelity.md) */
            hs_claim_add_circular(c);
            continue;
        }
        struct hs_stat s;
        if ((rc = hs_published_ours(&csv, file, ref, &s)) != 0)
            break;
        char published[64], ours[64], tolerance[64];
        hs_published_texts(ref, &s, sizeof published, published, ours, tolerance);
        hs_claim_add(c, s.n > 0, s.n > 0 && hs_published_met(ref, s.mean), published, ours, tolerance);
    }
    if (!rc)
        hs_csv_free(&csv);
    free(file);
    return rc;
}

/* The study's runs that its counted values read, round by round until
 * their statistics are known (scenario/ledger_need.c), in a sweep of their own
 * (an analysis is computed whole): the last round's exit code,
 * HS_EXIT_USAGE for bad input; *some_failed when a round's runs failed. */
static int run_needed(const struct hs_study *st, const struct hs_ledger *l, const char *dir,
                      const struct hs_ledger_opts *o, const struct hs_sweep_opts *so, bool *some_failed)
{
    struct hs_ledger_need need;
    hs_ledger_need_init(&need, st, l);
    need.shard = o->shard, need.nshards = o->nshards;
    char *file = hs_path_join(dir, "results.csv");
    int sweep;
    bool more = false;
    do {
        struct hs_sweep_opts run = *so;
        run.keep = hs_ledger_need_keep, run.keep_ctx = &need;
        sweep = hs_study_execute(st, dir, &run, o->set, o->nset);
        *some_failed |= sweep == HS_EXIT_FAIL;
        if (sweep < HS_EXIT_USAGE && !st->analysis && hs_ledger_need_next(&need, file, &more))
            sweep = HS_EXIT_USAGE;
    } while (more && sweep < HS_EXIT_USAGE);
    free(file);
    hs_ledger_need_free(&need);
    return sweep;
}

/* The study at path, if the ledger runs it (listed, checking a claim), with
 * the options' rewrites: 1 (into *st), 0 (not run), -1 with hs_fail. */
static int select_study(const char *path, const struct hs_ledger_opts *o, const struct hs_ledger *l,
                        struct hs_study *st)
{
    if (hs_study_load(path, false, st))
        return -1;
    if (!listed(o->only, st->name) || !carries_claims(st, l, !o->claims)) {
        hs_study_free(st);
        return 0;
    }
    if (tags_runnable(st, l)) {
        hs_study_free(st);
        return -1;
    }
    if (o->map_from)
        rewrite_study(st, &(struct rewrite){.key = "platform", .name = o->map_from, .to = o->map_to});
    if (o->param_policy)
        rewrite_study(st, &(struct rewrite){.key = "policy", .name = o->param_policy, .param = o->param});
    return 1;
}

/* --merge: the study's rows in the shards' folders joined into dir. */
static int merge_parts(const struct hs_study *st, const char *dir, const struct hs_ledger_opts *o)
{
    char **files = hs_xcalloc((size_t)o->nmerge + 1, sizeof *files);
    int n = 0, rc = 0;
    for (int i = 0; i < o->nmerge; i++) {
        char *sub = hs_path_join(o->merge[i], st->name);
        files[n] = hs_path_join(sub, "results.csv");
        free(sub);
        if (access(files[n], F_OK) == 0)
            n++;
        else
            free(files[n]);
    }
    if (!n)
        rc = hs_fail("reproduce --ledger --merge: no folder given holds %s/results.csv (give the folders the "
                     "shards wrote with -o)",
                     st->name);
    else if (hs_make_dirs(dir))
        rc = -1;
    else {
        char *out = hs_path_join(dir, "results.csv");
        long rows = 0, dups = 0;
        rc = hs_merge_files(files, n, false, out, &rows, &dups) ? -1 : 0;
        free(out);
    }
    for (int i = 0; i < n; i++)
        free(files[i]);
    free(files);
    return rc;
}

/* One pass of the ledger: what it says and what it counted. */
struct pass {
    bool report; /* errors on stderr (rank 0 only, under MPI) */
    bool final;  /* the table on stdout, the line of copied runs on stderr (not a rank's share) */
    bool some_failed;
    long copied[2]; /* runs copied from another study's; of them, from an earlier invocation's files */
};

static void print_copied(const long copied[2], const char *dir)
{
    fprintf(stderr, "ledger: %ld run%s that another study had computed, copied", copied[0],
            copied[0] == 1 ? "" : "s");
    if (copied[1])
        fprintf(stderr, " (%ld of them from the results an earlier run wrote in %s)", copied[1], dir);
    fprintf(stderr, "\n");
}

/* Run (or with --merge, join) the chosen studies: the analyses one after
 * the other, the others' runs in one pool. 0, or -1 with hs_fail. */
static int run_studies(const struct hs_study *sts, char *const *dirs, int n, const struct hs_ledger_opts *o,
                       const struct hs_ledger *l, struct hs_sweep_opts *so, struct pass *p)
{
    struct hs_ledger_study *pooled = hs_xcalloc((size_t)n + 1, sizeof *pooled);
    int np = 0, rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        if (!dirs[i])
            continue;
        if (o->nmerge && !sts[i].analysis) {
            rc = merge_parts(&sts[i], dirs[i], o);
        } else if (sts[i].analysis) {
            if (!so->quiet)
                fprintf(stderr, "ledger: %s\n", sts[i].name);
            int sweep = run_needed(&sts[i], l, dirs[i], o, so, &p->some_failed);
            rc = sweep >= HS_EXIT_USAGE ? -1 : 0;
            if (sweep > HS_EXIT_USAGE)
                hs_fail("ledger: interrupted during %s (finished runs are kept)", sts[i].name);
        } else {
            pooled[np++] = (struct hs_ledger_study){&sts[i], dirs[i]};
        }
    }
    if (!rc && np) {
        const char *earlier[] = {o->dir, o->earlier};
        struct hs_ledger_pool_opts po = {.set = o->set, .nset = o->nset, .shard = o->shard, .nshards = o->nshards,
                                         .earlier = earlier, .nearlier = o->earlier ? 2 : 1};
        int code = hs_ledger_pool_run(pooled, np, l, &po, so, &p->copied[0], &p->copied[1]);
        p->some_failed |= code == HS_EXIT_FAIL;
        if (code > HS_EXIT_USAGE)
            rc = hs_fail("ledger: interrupted by signal %d (finished runs are kept: run it again to finish it)",
                         code - 128);
        else if (code == HS_EXIT_USAGE)
            rc = -1;
        else if (!so->quiet && p->final)
            print_copied(p->copied, o->dir);
    }
    free(pooled);
    return rc;
}

/* ---- the ledger ----------------------------------------------------------- */

/* Run (or join) the studies and count their claims. The exit code. */
static int ledger_pass(const struct hs_ledger_opts *o, struct hs_sweep_opts *so, struct pass *p)
{
    char *claims = o->claims ? hs_xstrdup(o->claims) : hs_study_find_file("ledger/claims.json");
    struct hs_ledger l;
    if (!claims) {
        if (p->report)
            fprintf(stderr, "hetsim: reproduce --ledger: no ledger/claims.json in %s\n", hs_study_dirs());
        return HS_EXIT_USAGE;
    }
    if (hs_ledger_load(claims, &l)) {
        if (p->report)
            fprintf(stderr, "hetsim: %s\n", hs_last_error());
        free(claims);
        return HS_EXIT_USAGE;
    }
    free(claims);
    char **paths;
    int n = hs_study_paths(&paths), rc = 0;
    struct hs_study *sts = hs_xcalloc((size_t)n + 1, sizeof *sts);
    char **dirs = hs_xcalloc((size_t)n + 1, sizeof *dirs); /* NULL: not run */
    for (int i = 0; i < n && !rc; i++) {
        int chosen = select_study(paths[i], o, &l, &sts[i]);
        rc = chosen < 0 ? -1 : 0;
        if (chosen > 0)
            dirs[i] = hs_path_join(o->dir, sts[i].name);
    }
    hs_study_paths_free(paths, n);
    if (!rc)
        rc = run_studies(sts, dirs, n, o, &l, so, p);
    for (int i = 0; i < n && !rc; i++) /* in the studies' order, as the table lists their values */
        if (dirs[i])
            rc = tally(&sts[i], &l, dirs[i]);
    for (int i = 0; i < n; i++)
        if (dirs[i]) {
            hs_study_free(&sts[i]);
            free(dirs[i]);
        }
    free(sts), free(dirs);
    if (!rc && p->final) {
        hs_ledger_print(&l, stdout);
        rc = o->markdown ? hs_ledger_write_markdown(&l, o->markdown) : 0;
    }
    if (rc && p->report)
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
    hs_ledger_free(&l);
    return rc ? HS_EXIT_USAGE : p->some_failed ? HS_EXIT_FAIL : HS_EXIT_OK;
}

/* ---- over MPI ranks ---------------------------------------------------------- */

/* Every rank runs its share into DIR/mpi-R-of-N (its sweeps in this
 * process: MPI is initialised once); rank 0 then joins the shares. */
static int ledger_mpi(const struct hs_ledger_opts *o, struct hs_sweep_opts *so)
{
    int rank = hs_sweep_launcher_rank(), size = 0;
    if (!hs_mpi_group || o->nshards || o->nmerge) {
        if (rank == 0)
            fprintf(stderr, "hetsim: reproduce --ledger: %s\n",
                    !hs_mpi_group ? "launched by mpirun, but this hetsim has no MPI (hetsim-mpi runs it)"
                                  : "--shard and --merge are not for mpirun (each rank runs its share, rank 0 "
                                    "merges them): give neither, or run without mpirun");
        return HS_EXIT_USAGE;
    }
    hs_mpi_group->begin(&rank, &size);
    char **shares = hs_xcalloc((size_t)size + 1, sizeof *shares), name[64];
    for (int r = 0; r < size; r++) {
        snprintf(name, sizeof name, "mpi-%d-of-%d", r, size);
        shares[r] = hs_path_join(o->dir, name);
    }
    struct hs_ledger_opts mine = *o;
    mine.dir = shares[rank], mine.shard = rank, mine.nshards = size, mine.earlier = o->dir;
    struct hs_sweep_opts share = *so;
    share.quiet = so->quiet || rank != 0;    /* rank 0 tells its share's progress */
    share.jobs = so->jobs > 0 ? so->jobs : 1; /* one rank per core, the MPI way */
    int (*distributed)(const struct hs_sweep_opts *, const struct hs_sweep_ops *) = hs_sweep_distributed;
    hs_sweep_distributed = NULL; /* a study's sweep runs in its rank */
    struct pass p = {.report = rank == 0};
    int mine_code = ledger_pass(&mine, &share, &p), code = mine_code;
    hs_sweep_distributed = distributed;
    hs_mpi_group->end(&code, p.copied, 2);
    if (rank == 0 && code >= HS_EXIT_USAGE && mine_code < HS_EXIT_USAGE)
        fprintf(stderr, "hetsim: reproduce --ledger: another rank stopped (exit %d; its finished runs are kept in "
                        "%s/mpi-R-of-%d): run it again to finish it\n", code, o->dir, size);
    if (rank == 0 && code < HS_EXIT_USAGE) {
        if (!so->quiet)
            print_copied(p.copied, o->dir);
        mine = *o;
        mine.merge = shares, mine.nmerge = size;
        p = (struct pass){.report = true, .final = true};
        int merged = ledger_pass(&mine, so, &p);
        code = merged ? merged : code;
    }
    for (int r = 0; r < size; r++)
        free(shares[r]);
    free(shares);
    return code;
}

int hs_ledger_run(const struct hs_ledger_opts *o, struct hs_sweep_opts *so)
{
    if (hs_sweep_mpi_launched())
        return ledger_mpi(o, so);
    struct pass p = {.report = true, .final = true};
    return ledger_pass(o, so, &p);
}
