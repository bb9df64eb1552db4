/* scenario/ledger_pool.c — the ledger's runs, of every study at once, in one pool
 * of -j processes (analysis/sweep_pool.h), so that no core waits for a study's
 * last runs while another study has runs to give.
 *
 * Each study runs in rounds (ledger_need.c): a round is planned and its
 * study's results.csv opened as a sweep does (hs_sweep_prepare: resumed, the
 * rows already there not run again); its runs go to the pool in the studies'
 * order, the first studies first, and the next studies' runs fill the
 * processes while a study waits for its round to end. When a round's last run
 * is in, its file is closed and read to settle its points, and the study's
 * next round, if any, is queued. Every finished row is appended to its study's
 * results.csv at once (hs_sweep_write_row), as a sweep appends it.
 *
 * A run that several studies hold is computed once. Its key (analysis/
 * sweep.h) hashes everything the run's process reads: the canonical
 * platform, workload and policy, the worker selection, the model's options,
 * the costs, the repetition and the base seed, from the resolved scenario;
 * its inputs column, the content of the files it reads (platform file, host
 * map, timing table, DAG file). A run is shared where both agree.
 * The first study to reach a key runs it; a study that reaches it while it
 * runs waits for it (its other runs go on), and once it is ok its row is
 * copied with the study's own first columns (its sweep, its parameter
 * columns as it writes them) and the run's own (status, metrics and
 * wall-clock columns). A run that failed is not copied: the next study runs it
 * itself. The keys are kept in a tree (POSIX tsearch).
 *
 * Runs are shared across invocations too: before any run, the ok rows that
 * earlier invocations wrote in the folders given (DIR/STUDY/results.csv, of
 * any study, the studies' names in order; the first row of a key wins) enter
 * the tree as computed runs, so that a resumed ledger, or `--only` subsets
 * run one after another into one folder, copy a run another study already
 * holds instead of running it again. A file whose columns from status on are
 * not this hetsim's (another version), or with no inputs column, lends none;
 * a row whose run's input files have changed since (its inputs differ from
 * the run's now) lends nothing, and its own study removes it and runs it
 * again (hs_sweep_prepare), which the ledger says in one line at the end. */
#define _GNU_SOURCE /* tdestroy */
#include "scenario/scenario.h"
#include "analysis/csv.h"
#include "analysis/sweep_exec.h"
#include "analysis/sweep_pool.h"
#include "base/buf.h"
#include "base/util.h"

#include <dirent.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A run started by a study: its row's own columns once it is ok (NULL while
 * it runs); earlier: read from an earlier invocation's file. */
struct shared_run {
    uint64_t key, inputs; /* the run, and the fingerprint of its input files' content */
    char *tail;
    bool earlier;
};

static int by_run_key(const void *a, const void *b)
{
    const struct shared_run *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->inputs < y->inputs ? -1 : x->inputs > y->inputs;
}

static void shared_free(void *p)
{
    struct shared_run *r = p;
    free(r->tail);
    free(r);
}

/* One study: its sweep, its rounds, the round under way. */
struct study {
    const struct hs_ledger_study *ls;
    char *file;
    struct hs_sweep_def def;
    struct hs_sweep_ops ops;
    struct hs_ledger_need need;
    struct hs_sweep_opts opts;
    struct hs_sweep_out out;
    long *pending, npending, next; /* the round's runs to start, the next one */
    struct hs_sweep_job held;      /* waiting for the same run in another study */
    bool holding, open, done, begun;
    int running;                   /* its runs in the pool */
};

struct ledger {
    struct study **studies; /* each allocated once: the pool's jobs point at them */
    int n;
    struct hs_pool pool;
    void *runs; /* tree of struct shared_run */
    const struct hs_sweep_opts *so;
    long copied, earlier; /* rows copied; of them, from earlier invocations' files */
    long stale; /* rows removed: their run's input files had changed since */
    int code; /* 0, or 1 once a round had failed runs */
};

/* Plan the study's next round and open its file. 0, or -1 with hs_fail. */
static int open_round(struct study *s, const struct hs_sweep_opts *so)
{
    s->opts = *so;
    s->opts.csv = s->file;
    s->opts.timeout = so->timeout ? so->timeout : s->ls->st->timeout;
    s->opts.keep = hs_ledger_need_keep, s->opts.keep_ctx = &s->need;
    if (hs_sweep_prepare(&s->opts, &s->ops, &s->pending, &s->npending, &s->out)) {
        if (s->out.fd >= 0)
            close(s->out.fd), s->out.fd = -1;
        return -1;
    }
    hs_progress_start(&s->out.prog, s->npending, false); /* several at once: the account at the end */
    s->out.tell_stale = false; /* said once for every study, at the end */
    s->next = 0;
    s->open = true;
    return 0;
}

/* The round is over: close its file (the account: its sweep line), settle
 * its points, and say whether another round follows. 0, or -1 with hs_fail. */
static int close_round(struct ledger *lg, struct study *s)
{
    lg->stale += s->out.stale;
    int code = hs_sweep_close(&s->out, lg->so->quiet);
    lg->code |= code;
    free(s->pending);
    s->pending = NULL;
    s->open = false;
    bool more = false;
    if (hs_ledger_need_next(&s->need, s->file, &more))
        return -1;
    s->done = !more;
    return 0;
}

/* The run's own columns, from its row (status on): the row less what
 * hs_sweep_row_head writes. */
static char *row_tail(const struct hs_sweep_ops *ops, const struct hs_sweep_job *job, const char *row)
{
    char *head = hs_sweep_row_head(ops, job);
    size_t n = strlen(head);
    char *tail = strncmp(row, head, n) == 0 ? hs_xstrdup(row + n) : NULL;
    free(head);
    return tail;
}

/* hs_pool_done_fn: the row to its study's file; an ok run's columns kept for
 * the studies that hold it too. */
static void run_done(void *ctx, const struct hs_sweep_job *job, enum hs_run_status status, const char *row)
{
    struct ledger *lg = ctx;
    struct study *s = job->owner;
    hs_sweep_write_row(&s->out, job, status, row);
    s->running--;
    struct shared_run probe = {.key = job->id.key, .inputs = job->inputs};
    void *node = tfind(&probe, &lg->runs, by_run_key);
    if (!node)
        return;
    struct shared_run *r = *(struct shared_run **)node;
    if (status == HS_RUN_OK && (r->tail = row_tail(&s->ops, job, row)) != NULL)
        return;
    tdelete(&probe, &lg->runs, by_run_key); /* not copied: whoever needs it runs it */
    shared_free(r);
}

/* Start the job in the pool, copy its row if another study computed it, or
 * hold it while another study computes it (*held). 0, or -1 with hs_fail. */
static int give(struct ledger *lg, struct study *s, struct hs_sweep_job *job, bool *held)
{
    struct shared_run probe = {.key = job->id.key, .inputs = job->inputs};
    void *node = tfind(&probe, &lg->runs, by_run_key);
    const struct shared_run *r = node ? *(struct shared_run **)node : NULL;
    *held = r && !r->tail;
    if (*held) {
        s->held = *job;
        return 0;
    }
    if (r) {
        char *head = hs_sweep_row_head(&s->ops, job), *row = hs_xmalloc(strlen(head) + strlen(r->tail) + 1);
        sprintf(row, "%s%s", head, r->tail);
        hs_sweep_write_row(&s->out, job, HS_RUN_OK, row);
        lg->copied++, s->out.copied++;
        lg->earlier += r->earlier;
        free(head), free(row);
        hs_sweep_job_free(job, s->ops.nparams);
        return 0;
    }
    struct shared_run *run = hs_xcalloc(1, sizeof *run);
    run->key = job->id.key;
    run->inputs = job->inputs;
    tsearch(run, &lg->runs, by_run_key);
    job->owner = s;
    if (hs_pool_start_of(&lg->pool, job, &s->ops, s->opts.timeout)) {
        hs_sweep_job_free(job, s->ops.nparams);
        return -1;
    }
    s->running++;
    return 0;
}

/* Give the pool the study's runs while it has room (or until one is held). */
static int feed(struct ledger *lg, struct study *s)
{
    while (lg->pool.busy < lg->pool.nslots) {
        struct hs_sweep_job job;
        if (s->holding)
            job = s->held;
        else if (s->next < s->npending) {
            if (hs_sweep_make_job(&s->ops, s->pending[s->next++], &job))
                return -1;
        } else
            return 0;
        s->holding = false;
        if (give(lg, s, &job, &s->holding))
            return -1;
        if (s->holding)
            return 0;
    }
    return 0;
}

/* Open, feed and close the studies' rounds, the first studies first; a
 * study is begun only when the pool has room for its runs. 0, or -1. */
static int fill(struct ledger *lg)
{
    for (int i = 0; i < lg->n; i++) {
        struct study *s = lg->studies[i];
        while (!s->done) {
            if (!s->open) {
                if (lg->pool.busy >= lg->pool.nslots)
                    break;
                if (!s->begun && !lg->so->quiet)
                    fprintf(stderr, "ledger: %s\n", s->ls->st->name);
                s->begun = true;
                if (open_round(s, lg->so))
                    return -1;
            }
            if (feed(lg, s))
                return -1;
            if (s->holding || s->next < s->npending || s->running)
                break;
            if (close_round(lg, s))
                return -1;
        }
    }
    return 0;
}

static bool all_done(const struct ledger *lg)
{
    for (int i = 0; i < lg->n; i++)
        if (!lg->studies[i]->done)
            return false;
    return true;
}

/* ---- runs of earlier invocations -------------------------------------------- */

/* The columns of this hetsim's rows from status on, as a CSV of no rows. */
static int own_tail(const struct hs_sweep_ops *ops, struct hs_csv *header, int *status)
{
    char *text = hs_sweep_header(ops);
    int rc = hs_csv_parse(text, strlen(text), "the sweep header", header);
    free(text);
    if (rc)
        return -1;
    *status = hs_csv_col(header, "status");
    return 0;
}

/* The ok rows of file whose key the tree does not hold yet, into it; a row
 * whose figures are not as a run writes them (hs_sweep_row_check) is refused
 * rather than copied: -1 with hs_fail naming the file and row. */
static int lend_rows(struct ledger *lg, const char *file, const struct hs_csv *own, int own_status)
{
    struct hs_csv csv;
    if (hs_csv_read(file, &csv)) /* not a sweep's rows: its own study says so when it runs */
        return 0;
    int status = hs_csv_col(&csv, "status"), n = csv.ncols - status, rc = 0, in = hs_csv_col(&csv, "inputs");
    bool same = hs_csv_col(&csv, "key") == 0 && in > 0 && status > in && n == own->ncols - own_status;
    for (int c = 0; same && c < n; c++)
        same = strcmp(csv.header[status + c], own->header[own_status + c]) == 0;
    for (long r = 0; same && !rc && r < csv.nrows; r++) {
        char *const *row = csv.rows[r], *end, *end_in;
        uint64_t key = strtoull(row[0], &end, 16), inputs = strtoull(row[in], &end_in, 16);
        struct shared_run probe = {.key = key, .inputs = inputs};
        if (strlen(row[0]) != 16 || *end || strlen(row[in]) != 16 || *end_in || strcmp(row[status], "ok") ||
            tfind(&probe, &lg->runs, by_run_key))
            continue;
        if ((rc = hs_sweep_row_check(&csv, r, file)) != 0)
            break;
        struct hs_buf tail = {0};
        for (int c = status; c < csv.ncols; c++)
            hs_csv_field(&tail, row[c], false);
        hs_buf_add(&tail, "\n");
        struct shared_run *run = hs_xcalloc(1, sizeof *run);
        *run = (struct shared_run){key, inputs, hs_buf_take(&tail), true};
        tsearch(run, &lg->runs, by_run_key);
    }
    hs_csv_free(&csv);
    return rc;
}

/* Every DIR/NAME/results.csv of the folders, in the order of their names. */
static int lend_earlier(struct ledger *lg, const char *const *dirs, int ndirs)
{
    struct hs_csv own;
    int own_status;
    if (!lg->n || !ndirs)
        return 0;
    if (own_tail(&lg->studies[0]->ops, &own, &own_status))
        return -1;
    int rc = 0;
    for (int d = 0; d < ndirs; d++) {
        struct dirent **names;
        int k = scandir(dirs[d], &names, NULL, alphasort);
        for (int i = 0; i < k; i++) {
            char *sub = hs_path_join(dirs[d], names[i]->d_name), *file = hs_path_join(sub, "results.csv");
            if (!rc && names[i]->d_name[0] != '.' && access(file, R_OK) == 0)
                rc = lend_rows(lg, file, &own, own_status);
            free(sub), free(file), free(names[i]);
        }
        if (k >= 0)
            free(names);
    }
    hs_csv_free(&own);
    return rc;
}

static int init_study(struct study *s, const struct hs_ledger_study *ls, const struct hs_ledger *l,
                      const struct hs_ledger_pool_opts *o)
{
    memset(s, 0, sizeof *s);
    s->ls = ls;
    s->out.fd = -1;
    hs_ledger_need_init(&s->need, ls->st, l);
    s->need.shard = o->shard, s->need.nshards = o->nshards;
    if (hs_make_dirs(ls->dir))
        return -1;
    s->file = hs_path_join(ls->dir, "results.csv");
    if (hs_study_sweep_def(ls->st, &s->def, o->set, o->nset))
        return -1;
    hs_sweep_def_ops(&s->def, &s->ops);
    return 0;
}

static void free_study(struct study *s)
{
    if (s->open)
        hs_sweep_close(&s->out, true);
    if (s->holding)
        hs_sweep_job_free(&s->held, s->ops.nparams);
    free(s->pending);
    free(s->file);
    hs_sweep_def_free(&s->def);
    hs_ledger_need_free(&s->need);
    free(s);
}

int hs_ledger_pool_run(const struct hs_ledger_study *studies, int n, const struct hs_ledger *l,
                       const struct hs_ledger_pool_opts *o, const struct hs_sweep_opts *so, long *copied,
                       long *earlier)
{
    struct ledger lg = {.n = n, .so = so};
    lg.studies = hs_xcalloc((size_t)n + 1, sizeof *lg.studies);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        lg.studies[i] = hs_xmalloc(sizeof **lg.studies);
        rc = init_study(lg.studies[i], &studies[i], l, o);
    }
    if (!rc)
        rc = lend_earlier(&lg, o->earlier, o->nearlier);
    hs_pool_init(&lg.pool, so->jobs > 0 ? so->jobs : hs_sweep_default_jobs(), NULL, 0);
    hs_sweep_catch_signals(true);
    while (!rc && !hs_sweep_interrupted && !(rc = fill(&lg)) && !all_done(&lg)) {
        if (!lg.pool.busy) /* nothing runs and nothing can start: cannot happen */
            rc = hs_fail("ledger: no run to wait for while studies are not done");
        else
            hs_pool_wait(&lg.pool, -1, run_done, &lg);
    }
    int sig = hs_sweep_interrupted;
    hs_sweep_catch_signals(false);
    hs_pool_free(&lg.pool); /* kills what still runs: its rows are run again next time */
    for (int i = 0; i < n; i++)
        if (lg.studies[i]) {
            lg.stale += lg.studies[i]->open ? lg.studies[i]->out.stale : 0; /* an interrupted round's */
            free_study(lg.studies[i]);
        }
    free(lg.studies);
    tdestroy(lg.runs, shared_free);
    *copied = lg.copied, *earlier = lg.earlier;
    if (lg.stale)
        fprintf(stderr, "hetsim: %ld finished run%s had been made from input files whose content has changed "
                "since (platform file, host map, timing table or DAG file): %s\n", lg.stale,
                lg.stale == 1 ? "" : "s", lg.stale == 1 ? "its row removed, run again" : "their rows removed, run again");
    if (sig) {
        fprintf(stderr, "hetsim: ledger interrupted by signal %d; run it again to finish it\n", sig);
        return 128 + sig;
    }
    return rc ? HS_EXIT_USAGE : lg.code ? HS_EXIT_FAIL : HS_EXIT_OK;
}
