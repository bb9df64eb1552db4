/* analysis/sweep_mpi.c — a sweep spread over MPI ranks (built with
 * HETSIM_MPI into hetsim_sweep_mpi, linked by hetsim-mpi alone): rank 0 plans, resumes and writes the CSV, and hands out run
 * indices on request; every rank (rank 0 too) runs its runs in its own pool
 * of child processes (-j each, default 1: one rank per core is the MPI way)
 * and sends each row back. Runs are described from their index on the rank
 * that runs them, so only indices and rows travel.
 *
 * Messages: worker -> 0: REQ (a slot is free), ROW (status byte + row text),
 * DONE (leaving); 0 -> worker: RUN (an index) or STOP (no more work). Waits
 * poll with 1 ms sleeps: Open MPI's blocking calls would spin a core.
 *
 * Also MPI for the ledger (hs_sweep_mpi_ranks, analysis/sweep_exec.h): each
 * rank runs its share of every study with MPI initialised once, and the
 * ranks meet at the end to agree on the exit code and add up their counts. */
#include "analysis/sweep_exec.h"
#include "analysis/sweep_pool.h"
#include "base/util.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { TAG_REQ = 1, TAG_ROW, TAG_RUN, TAG_STOP, TAG_DONE };

static void nap(void)
{
    struct timespec t = {0, 1000000};
    nanosleep(&t, NULL);
}

/* ---- rank 0 ---------------------------------------------------------------- */

struct master {
    struct hs_sweep_out *out;
    const long *pending;
    long npending, next;
    int active; /* workers that have not said DONE */
};

static long rows_done(const struct hs_sweep_out *out)
{
    return out->counts[0] + out->counts[1] + out->counts[2] + out->counts[3];
}

static void master_message(struct master *m, const MPI_Status *st)
{
    int len;
    MPI_Get_count(st, MPI_CHAR, &len);
    char *buf = hs_xmalloc((size_t)len + 1);
    MPI_Recv(buf, len, MPI_CHAR, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    buf[len] = '\0';
    if (st->MPI_TAG == TAG_REQ) {
        if (m->next < m->npending && !hs_sweep_interrupted)
            MPI_Send(&m->pending[m->next++], 1, MPI_LONG, st->MPI_SOURCE, TAG_RUN, MPI_COMM_WORLD);
        else
            MPI_Send(NULL, 0, MPI_LONG, st->MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
    } else if (st->MPI_TAG == TAG_ROW && len > 1) {
        hs_sweep_write_row(m->out, NULL, (enum hs_run_status)(buf[0] - '0'), buf + 1);
    } else if (st->MPI_TAG == TAG_DONE) {
        m->active--;
    }
    free(buf);
}

static void master_loop(struct master *m, const struct hs_sweep_opts *opts,
                        const struct hs_sweep_ops *ops)
{
    struct hs_pool pool;
    hs_pool_init(&pool, opts->jobs > 0 ? opts->jobs : 1, ops, opts->timeout);
    while ((rows_done(m->out) < m->npending || m->active > 0) && !hs_sweep_interrupted) {
        while (pool.busy < pool.nslots && m->next < m->npending) {
            struct hs_sweep_job job;
            if (hs_sweep_make_job(ops, m->pending[m->next++], &job) || hs_pool_start(&pool, &job))
                MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (pool.busy)
            hs_pool_wait(&pool, 1, hs_sweep_write_row, m->out);
        int flag;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag && !pool.busy)
            nap();
        for (; flag; MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st))
            master_message(m, &st);
        hs_progress_tick(&m->out->prog);
    }
    hs_pool_free(&pool);
}

static int master(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *ops, int size)
{
    long *pending = NULL, npending = 0;
    struct hs_sweep_out out;
    int bad = hs_sweep_prepare(opts, ops, &pending, &npending, &out);
    char error[1024];
    snprintf(error, sizeof error, "%s", hs_last_error());
    struct master m = {&out, pending, bad ? 0 : npending, 0, size - 1};
    hs_progress_start(&out.prog, m.npending, !opts->quiet && !bad);
    hs_sweep_catch_signals(true);
    master_loop(&m, opts, ops);
    int sig = hs_sweep_interrupted;
    hs_sweep_catch_signals(false);
    free(pending);
    if (bad) {
        if (out.fd >= 0)
            close(out.fd);
        hs_fail("%s", error);
        return 2;
    }
    int code = hs_sweep_close(&out, opts->quiet);
    if (sig) {
        fprintf(stderr, "hetsim: sweep interrupted by signal %d; run it again to finish it\n", sig);
        MPI_Abort(MPI_COMM_WORLD, 128 + sig);
    }
    return code;
}

/* ---- other ranks ----------------------------------------------------------- */

static void send_row(void *ctx, const struct hs_sweep_job *job, enum hs_run_status status,
                     const char *row)
{
    (void)ctx, (void)job;
    size_t len = strlen(row);
    char *buf = hs_xmalloc(len + 2);
    buf[0] = (char)('0' + status);
    memcpy(buf + 1, row, len + 1);
    MPI_Send(buf, (int)len + 1, MPI_CHAR, 0, TAG_ROW, MPI_COMM_WORLD);
    free(buf);
}

static void worker_message(struct hs_pool *pool, const struct hs_sweep_ops *ops, const MPI_Status *st,
                           bool *stop)
{
    long index = -1;
    MPI_Recv(&index, 1, MPI_LONG, 0, st->MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (st->MPI_TAG == TAG_STOP) {
        *stop = true;
        return;
    }
    struct hs_sweep_job job;
    if (hs_sweep_make_job(ops, index, &job) || hs_pool_start(pool, &job)) {
        fprintf(stderr, "hetsim: rank cannot run %ld: %s\n", index, hs_last_error());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static int worker(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *ops)
{
    struct hs_pool pool;
    hs_pool_init(&pool, opts->jobs > 0 ? opts->jobs : 1, ops, opts->timeout);
    int requested = 0;
    bool stop = false;
    while (!stop || requested || pool.busy) {
        for (; !stop && pool.busy + requested < pool.nslots; requested++)
            MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_REQ, MPI_COMM_WORLD);
        if (pool.busy)
            hs_pool_wait(&pool, 1, send_row, NULL);
        int flag;
        MPI_Status st;
        MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag && !pool.busy)
            nap();
        for (; flag; MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st)) {
            worker_message(&pool, ops, &st, &stop);
            requested--;
        }
    }
    MPI_Send(NULL, 0, MPI_CHAR, 0, TAG_DONE, MPI_COMM_WORLD);
    hs_pool_free(&pool);
    return 0;
}

/* ---- the ledger's ranks ---------------------------------------------------- */

static void group_begin(int *rank, int *size)
{
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
}

/* Non-blocking reductions, polled with naps: a rank that waits for the
 * others' shares does not spin its core. */
static void group_end(int *code, long *sums, int nsums)
{
    int mine = *code;
    long *own = hs_xcalloc((size_t)nsums + 1, sizeof *own);
    memcpy(own, sums, (size_t)nsums * sizeof *own);
    MPI_Request req[2];
    MPI_Iallreduce(&mine, code, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req[0]);
    MPI_Iallreduce(own, sums, nsums, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &req[1]);
    for (int done = 0; MPI_Testall(2, req, &done, MPI_STATUSES_IGNORE), !done;)
        nap();
    free(own);
    MPI_Finalize();
}

const struct hs_mpi_group hs_sweep_mpi_ranks = {group_begin, group_end};

int hs_sweep_mpi_execute(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *ops)
{
    MPI_Init(NULL, NULL);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = rank == 0 ? master(opts, ops, size) : worker(opts, ops);
    MPI_Finalize();
    return rc;
}
