/* analysis/sweep_exec.c — running a sweep on this machine: plan, resume,
 * keep -j processes busy, write each row as its run ends. */
#include "analysis/sweep_exec.h"
#include "analysis/csv.h"
#include "analysis/sweep_pool.h"
#include "base/util.h"
#include "sim/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t hs_sweep_interrupted;

static void on_signal(int sig)
{
    hs_sweep_interrupted = sig;
}

void hs_sweep_catch_signals(bool on)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on ? on_signal : SIG_DFL; /* no SA_RESTART: poll returns */
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, NULL);
    hs_sweep_interrupted = 0;
}

int hs_sweep_launcher_rank(void)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK"};
    for (int i = 0; i < 2; i++)
        if (getenv(vars[i]))
            return atoi(getenv(vars[i]));
    return 0;
}

int hs_sweep_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int hs_sweep_make_job(const struct hs_sweep_ops *ops, long index, struct hs_sweep_job *job)
{
    memset(job, 0, sizeof *job);
    job->index = index;
    char *canon = NULL, *inst = NULL;
    int rc = ops->describe(ops->ctx, index, job, &canon, &inst);
    if (rc == 0)
        hs_sweep_ident(canon, inst, job->rep, ops->base_seed, &job->id);
    else
        hs_sweep_job_free(job, ops->nparams);
    free(canon);
    free(inst);
    return rc;
}

struct planned {
    long index;
    uint64_t key, inputs;
    bool keep; /* opts->keep accepts it */
};

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const struct planned *)a)->key, y = ((const struct planned *)b)->key;
    return x < y ? -1 : x > y;
}

/* Describe every run of the grid (bad input shows now, whatever the shard)
 * and refuse two runs with one key: every run of the grid (with whether
 * opts, when given, keeps it), or NULL. */
static struct planned *describe_all(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *ops)
{
    struct planned *all = hs_xmalloc((size_t)(ops->nruns ? ops->nruns : 1) * sizeof *all);
    for (long i = 0; i < ops->nruns; i++) {
        struct hs_sweep_job job;
        if (hs_sweep_make_job(ops, i, &job)) {
            free(all);
            return NULL;
        }
        bool keep = !opts || !opts->keep ||
                    opts->keep(opts->keep_ctx, ops->param_names, job.params, ops->nparams, job.rep);
        all[i] = (struct planned){i, job.id.key, job.inputs, keep};
        hs_sweep_job_free(&job, ops->nparams);
    }
    struct planned *sorted = hs_xmalloc((size_t)(ops->nruns ? ops->nruns : 1) * sizeof *sorted);
    memcpy(sorted, all, (size_t)ops->nruns * sizeof *all);
    qsort(sorted, (size_t)ops->nruns, sizeof *sorted, by_key);
    for (long i = 1; i < ops->nruns; i++)
        if (sorted[i].key == sorted[i - 1].key) {
            long a = sorted[i - 1].index, b = sorted[i].index;
            hs_fail("runs %ld and %ld of the sweep are the same run (is a value repeated?)",
                    a < b ? a : b, a < b ? b : a);
            free(sorted), free(all);
            return NULL;
        }
    free(sorted);
    return all;
}

int hs_sweep_check(const struct hs_sweep_ops *ops)
{
    struct planned *all = describe_all(NULL, ops);
    int rc = all ? 0 : -1;
    free(all);
    return rc;
}

/* Every run of the grid checked, sorted by key (*grid, ops->nruns of them);
 * this shard's, those opts->keep keeps (returned, *n of them; *unread: this
 * shard's others). */
static struct planned *plan(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *ops, long *n,
                            long *unread, struct planned **grid)
{
    struct planned *all = describe_all(opts, ops);
    if (!all)
        return NULL;
    struct planned *mine = hs_xmalloc((size_t)(ops->nruns ? ops->nruns : 1) * sizeof *mine);
    *n = *unread = 0;
    for (long i = 0; i < ops->nruns; i++)
        if (opts->nshards <= 1 || i % opts->nshards == opts->shard) {
            if (all[i].keep)
                mine[(*n)++] = all[i];
            else
                (*unread)++;
        }
    qsort(all, (size_t)ops->nruns, sizeof *all, by_key);
    *grid = all;
    return mine;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Rewrite the file without the rows drop marks. */
static int drop_rows(const char *path, const struct hs_csv *csv, const bool *drop)
{
    struct hs_buf b = {0};
    hs_csv_line(&b, csv->header, csv->ncols);
    for (long r = 0; r < csv->nrows; r++)
        if (!drop[r])
            hs_csv_line(&b, csv->rows[r], csv->ncols);
    int rc = hs_outfile_write(path, hs_buf_str(&b), b.len); /* whole or not at all */
    hs_buf_free(&b);
    return rc;
}

static int check_header(const struct hs_csv *csv, const char *path, const char *header)
{
    struct hs_buf line = {0};
    hs_csv_line(&line, csv->header, csv->ncols);
    int same = strcmp(hs_buf_str(&line), header) == 0;
    hs_buf_free(&line);
    if (!same && hs_csv_col(csv, "sweep") >= 0 && hs_csv_col(csv, "inputs") < 0)
        return hs_fail("%s holds the results of an earlier hetsim, whose rows do not record a fingerprint of "
                       "their input files (an inputs column), so that none can be told current: write to "
                       "another file, or remove this one to run its runs again", path);
    if (!same)
        return hs_fail("%s holds the results of another sweep (its columns differ); write to another file", path);
    return 0;
}

/* The grid's run of this key (grid sorted by key), or NULL. */
static const struct planned *run_of(const struct planned *grid, long ngrid, uint64_t key)
{
    struct planned probe = {.key = key};
    return ngrid ? bsearch(&probe, grid, (size_t)ngrid, sizeof *grid, by_key) : NULL;
}

/* Keys already in the file (sorted), after dropping an incomplete last line,
 * and those of them whose row is not ok (*failed, sorted). A row of a run of
 * the grid whose inputs column is not the run's fingerprint (*stale counts
 * them), and with --retry-failed a row that is not ok, is removed from the
 * file (*rewritten: a new file is in its place). */
static int resume(const struct hs_sweep_opts *opts, const char *header, const struct planned *grid, long ngrid,
                  uint64_t **keys, long *nkeys, uint64_t **failed, long *nfailed, long *stale, bool *rewritten)
{
    struct hs_csv csv;
    *keys = *failed = NULL;
    *nkeys = *nfailed = 0;
    *rewritten = false;
    if (hs_csv_read(opts->csv, &csv))
        return -1;
    int rc = check_header(&csv, opts->csv, header);
    if (!rc && csv.partial) {
        fprintf(stderr, "hetsim: %s: dropped an incomplete last line (an interrupted write)\n", opts->csv);
        rc = truncate(opts->csv, (off_t)csv.complete) ? hs_fail("%s: cannot truncate: %s", opts->csv,
                                                                 strerror(errno)) : 0;
    }
    int st = hs_csv_col(&csv, "status"), in = hs_csv_col(&csv, "inputs");
    bool *drop = hs_xcalloc((size_t)csv.nrows + 1, sizeof *drop), any = false;
    for (long r = 0; !rc && r < csv.nrows; r++) {
        const struct planned *p = run_of(grid, ngrid, strtoull(csv.rows[r][0], NULL, 16));
        char *end;
        uint64_t inputs = strtoull(csv.rows[r][in], &end, 16);
        bool changed = p && (p->inputs != inputs || *end || strlen(csv.rows[r][in]) != 16);
        *stale += changed;
        drop[r] = changed || (opts->retry_failed && strcmp(csv.rows[r][st], "ok") != 0);
        any |= drop[r];
    }
    for (long r = 0; !rc && r < csv.nrows; r++) /* rows that are reused, not run again */
        if (!drop[r])
            rc = hs_sweep_row_check(&csv, r, opts->csv);
    if (!rc && any) {
        rc = drop_rows(opts->csv, &csv, drop);
        *rewritten = rc == 0;
    }
    *keys = hs_xmalloc((size_t)(csv.nrows + 1) * sizeof **keys);
    *failed = hs_xmalloc((size_t)(csv.nrows + 1) * sizeof **failed);
    for (long r = 0; !rc && r < csv.nrows; r++) {
        if (drop[r])
            continue;
        (*keys)[(*nkeys)++] = strtoull(csv.rows[r][0], NULL, 16);
        if (strcmp(csv.rows[r][st], "ok") != 0)
            (*failed)[(*nfailed)++] = strtoull(csv.rows[r][0], NULL, 16);
    }
    qsort(*keys, (size_t)*nkeys, sizeof **keys, cmp_u64);
    qsort(*failed, (size_t)*nfailed, sizeof **failed, cmp_u64);
    free(drop);
    hs_csv_free(&csv);
    return rc;
}

/* The outputs this process holds locked: a run's child (forked, not
 * exec'd: sweep_pool.c) closes its copies at once (hs_sweep_child_release),
 * or the lock, which goes with the open file, would outlive the parent's
 * close while the child runs, and refuse the parent's next round of the same
 * file. Each is kept with its inode, so that a number reused by another file
 * is left alone. */
static struct locked {
    int fd;
    dev_t dev;
    ino_t ino;
} *held;
static size_t nheld, capheld;

void hs_sweep_child_release(void)
{
    for (size_t i = 0; i < nheld; i++) {
        struct stat st;
        if (fstat(held[i].fd, &st) == 0 && st.st_dev == held[i].dev && st.st_ino == held[i].ino)
            close(held[i].fd);
    }
    nheld = 0;
}

static void hold(int fd, const struct stat *st)
{
    for (size_t i = 0; i < nheld; i++)
        if (held[i].fd == fd) {
            held[i] = (struct locked){fd, st->st_dev, st->st_ino};
            return;
        }
    HS_GROW(held, capheld, nheld + 1);
    held[nheld++] = (struct locked){fd, st->st_dev, st->st_ino};
}

/* flock(fd) exclusively, waiting up to 5 s for it: a run's child forked
 * while this process held the file (a ledger's earlier round, another study's
 * run) holds a copy of the lock until its first statement closes it
 * (hs_sweep_child_release), which a loaded machine can delay past the
 * parent's next round; another sweep writing the file holds it far longer.
 * Whether it is locked (errno set when not). */
static bool lock_soon(int fd)
{
    for (int i = 0; i < 500; i++) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return true;
        if (errno != EWOULDBLOCK)
            return false;
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    errno = EWOULDBLOCK;
    return false;
}

/* Open path to append (non-blocking until checked, for a FIFO put there) and,
 * if it is a regular file, lock it (flock, released when the file is
 * closed): a second sweep, study or ledger writing the same file at once is
 * refused (it would run every run again and write its rows twice). -1 with
 * hs_fail (the fd closed). */
static int open_locked(const char *path)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd < 0)
        return hs_fail("%s: cannot write: %s", path, strerror(errno));
    struct stat st;
    int rc = hs_outfile_check_fd(fd, path) || fcntl(fd, F_SETFL, O_APPEND) != 0 ? -1 : 0;
    bool regular = !rc && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    if (regular && !lock_soon(fd))
        rc = errno == EWOULDBLOCK ? hs_fail("%s: another hetsim process (a sweep, study or ledger) is writing "
                                            "it now: wait until it ends (then run this again to resume it), or "
                                            "write to another file", path)
                                  : hs_fail("%s: cannot lock: %s", path, strerror(errno));
    if (rc) {
        close(fd);
        return -1;
    }
    if (regular)
        hold(fd, &st);
    return fd;
}

static int open_output(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *ops,
                       const struct planned *grid, uint64_t **keys, long *nkeys, uint64_t **failed,
                       long *nfailed, struct hs_sweep_out *out)
{
    char *header = hs_sweep_header(ops);
    struct stat st;
    int rc = 0;
    bool rewritten = false;
    /* appended to in place, row by row (a rename would lose the rows of an
       interrupted sweep); locked before it is read */
    out->fd = open_locked(opts->csv);
    if (out->fd < 0)
        rc = -1;
    bool exists = !rc && fstat(out->fd, &st) == 0 && st.st_size > 0;
    if (exists)
        rc = resume(opts, header, grid, ops->nruns, keys, nkeys, failed, nfailed, &out->stale, &rewritten);
    if (!rc && rewritten) { /* drop_rows put a new file there: lock that one */
        int fd = open_locked(opts->csv);
        rc = fd < 0 ? -1 : 0;
        close(out->fd);
        out->fd = fd;
    }
    if (!rc && !exists && write(out->fd, header, strlen(header)) != (ssize_t)strlen(header))
        rc = hs_fail("%s: cannot write: %s", opts->csv, strerror(errno));
    if (rc && out->fd >= 0)
        close(out->fd), out->fd = -1;
    free(header);
    return rc;
}

int hs_sweep_prepare(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *ops,
                     long **pending, long *npending, struct hs_sweep_out *out)
{
    memset(out, 0, sizeof *out);
    out->path = opts->csv;
    out->fd = -1;
    out->t0 = hs_now();
    out->tell_stale = true;
    long n;
    struct planned *grid = NULL, *runs = plan(opts, ops, &n, &out->unread, &grid);
    if (!runs)
        return -1;
    uint64_t *keys = NULL, *failed = NULL;
    long nkeys = 0, nfailed = 0;
    if (open_output(opts, ops, grid, &keys, &nkeys, &failed, &nfailed, out)) {
        free(runs);
        free(grid);
        free(keys);
        free(failed);
        return -1;
    }
    *pending = hs_xmalloc((size_t)(n ? n : 1) * sizeof **pending);
    *npending = 0;
    for (long i = 0; i < n; i++)
        if (nkeys && bsearch(&runs[i].key, keys, (size_t)nkeys, sizeof *keys, cmp_u64)) {
            out->skipped++;
            out->skipped_failed += nfailed && bsearch(&runs[i].key, failed, (size_t)nfailed, sizeof *failed, cmp_u64);
        } else {
            (*pending)[(*npending)++] = runs[i].index;
        }
    free(runs);
    free(grid);
    free(keys);
    free(failed);
    return 0;
}

void hs_sweep_write_row(void *ctx, const struct hs_sweep_job *job, enum hs_run_status status,
                        const char *row)
{
    (void)job;
    struct hs_sweep_out *out = ctx;
    size_t len = strlen(row), off = 0;
    while (off < len && !out->write_errno) { /* one write per row: a row is never split */
        ssize_t w = write(out->fd, row + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            out->write_errno = w < 0 ? errno : EIO;
        else
            off += (size_t)w;
    }
    out->counts[status]++;
    hs_progress_step(&out->prog, status != HS_RUN_OK);
}

int hs_sweep_close(struct hs_sweep_out *out, bool quiet)
{
    hs_progress_end(&out->prog);
    if (out->fd >= 0 && close(out->fd) && !out->write_errno)
        out->write_errno = errno;
    out->fd = -1;
    long ran = out->counts[0] + out->counts[1] + out->counts[2] + out->counts[3];
    double el = hs_now() - out->t0;
    if (!quiet) {
        fprintf(stderr, "sweep: %ld runs in %.1f s", ran, el);
        if (ran && el > 0)
            fprintf(stderr, " (%.1f runs/s)", (double)ran / el);
        fprintf(stderr, ": %ld ok, %ld error, %ld crash, %ld timeout; %ld already in %s", out->counts[0],
                out->counts[1], out->counts[2], out->counts[3], out->skipped, out->path);
        if (out->copied)
            fprintf(stderr, "; %ld of them copied from another study's run", out->copied);
        if (out->unread)
            fprintf(stderr, "; %ld not needed (no claim reads them, or their statistics are known)", out->unread);
        fprintf(stderr, "\n");
    }
    if (out->write_errno) {
        fprintf(stderr, "hetsim: %s: cannot write: %s\n", out->path, strerror(out->write_errno));
        return 1;
    }
    /* said even with -q: the exit code is 1 for them */
    long failed = ran - out->counts[0];
    if (quiet && failed > 0)
        fprintf(stderr, "hetsim: %ld of %ld run%s failed (%ld error, %ld crash, %ld timeout): their rows in %s say "
                "why; --retry-failed runs them again\n", failed, ran, ran == 1 ? "" : "s", out->counts[1],
                out->counts[2], out->counts[3], out->path);
    if (out->stale && out->tell_stale)
        fprintf(stderr, "hetsim: %s: %ld finished run%s had been made from input files whose content has "
                "changed since (platform file, host map, timing table or DAG file): %s, run again\n", out->path,
                out->stale, out->stale == 1 ? "" : "s", out->stale == 1 ? "its row removed" : "their rows removed");
    if (out->skipped_failed)
        fprintf(stderr, "hetsim: %ld run%s already in %s failed (error, crash or timeout) and %s not run "
                "again: --retry-failed runs %s\n", out->skipped_failed, out->skipped_failed == 1 ? "" : "s",
                out->path, out->skipped_failed == 1 ? "was" : "were", out->skipped_failed == 1 ? "it" : "them");
    return failed > 0 || out->skipped_failed ? 1 : 0;
}

static int run_local(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *ops,
                     const long *pending, long npending, struct hs_sweep_out *out)
{
    struct hs_pool pool;
    hs_pool_init(&pool, opts->jobs > 0 ? opts->jobs : hs_sweep_default_jobs(), ops, opts->timeout);
    long next = 0;
    int rc = 0;
    while ((next < npending || pool.busy) && !hs_sweep_interrupted && !out->write_errno) {
        while (pool.busy < pool.nslots && next < npending && !rc) {
            struct hs_sweep_job job;
            rc = hs_sweep_make_job(ops, pending[next++], &job) || hs_pool_start(&pool, &job);
        }
        if (rc)
            break;
        hs_pool_wait(&pool, out->prog.tty ? 500 : -1, hs_sweep_write_row, out);
        hs_progress_tick(&out->prog);
    }
    hs_pool_free(&pool);
    return rc ? -1 : 0;
}

int (*hs_sweep_distributed)(const struct hs_sweep_opts *, const struct hs_sweep_ops *);
const struct hs_mpi_group *hs_mpi_group;

bool hs_sweep_mpi_launched(void)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MPI_LOCALNRANKS"};
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 1)
            return true;
    }
    return false;
}

int hs_sweep_execute(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *whole)
{
    struct hs_sweep_ops shard = *whole, *ops = &shard; /* a shard's rows name it */
    shard.shard = opts->nshards > 1 ? opts->shard : 0;
    shard.nshards = opts->nshards > 1 ? opts->nshards : 0;
    if (hs_sweep_distributed && hs_sweep_mpi_launched())
        return hs_sweep_distributed(opts, ops);
    long *pending, npending;
    struct hs_sweep_out out;
    if (hs_sweep_prepare(opts, ops, &pending, &npending, &out)) {
        if (out.fd >= 0)
            close(out.fd);
        return 2;
    }
    hs_progress_start(&out.prog, npending, !opts->quiet);
    hs_sweep_catch_signals(true);
    int rc = run_local(opts, ops, pending, npending, &out);
    int sig = hs_sweep_interrupted;
    hs_sweep_catch_signals(false);
    free(pending);
    int code = hs_sweep_close(&out, opts->quiet);
    if (rc)
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
    if (sig) {
        fprintf(stderr, "hetsim: sweep interrupted by signal %d; run it again to finish it\n", sig);
        return 128 + sig;
    }
    return rc ? 1 : code;
}
