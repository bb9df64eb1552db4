/* analysis/sweep_exec.h — what the local and the MPI sweep share: planning
 * the runs (describing all of them, refusing duplicates), resuming the CSV
 * (the keys already there are skipped), writing rows as they come, progress,
 * interruption by a signal, and the final account. */
#ifndef HS_SWEEP_EXEC_H
#define HS_SWEEP_EXEC_H

#include "analysis/progress.h"
#include "analysis/sweep.h"

#include <signal.h>

struct hs_sweep_out {
    const char *path;
    int fd;
    struct hs_progress prog;
    long counts[4];      /* by enum hs_run_status */
    long skipped;        /* already in the file */
    long skipped_failed; /* of which rows not ok, not run again (--retry-failed runs them) */
    long unread;         /* not kept by opts->keep: not run */
    long copied;         /* of the rows written, copied from another sweep's run of their key */
    long stale;          /* rows of the file removed: their run's input files have changed since */
    bool tell_stale;     /* hs_sweep_close says so (the ledger says it once, for every study) */
    int write_errno;     /* first error writing the CSV */
    double t0;
};

/* Plan the runs of this shard and open the CSV (resuming it): *pending holds
 * the grid indices still to run. Returns 0, or -1 with hs_fail. */
int hs_sweep_prepare(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *ops,
                     long **pending, long *npending, struct hs_sweep_out *out);
/* Describe run `index` into a job (params and identity); -1 with hs_fail. */
int hs_sweep_make_job(const struct hs_sweep_ops *ops, long index, struct hs_sweep_job *job);
/* hs_pool_done_fn writing the row to the CSV (ctx: struct hs_sweep_out). */
void hs_sweep_write_row(void *ctx, const struct hs_sweep_job *job, enum hs_run_status status,
                        const char *row);
/* Close the CSV, print the account; returns the exit code (0, 1): 1 when a
 * run failed, or when the file already held failed rows of this sweep that
 * were not run again (a resumed sweep is done only when every row is ok). */
int hs_sweep_close(struct hs_sweep_out *out, bool quiet);

/* In a run's child, forked from a process writing sweep CSVs: close the
 * child's copies of the locked outputs, so that their locks go when the
 * parent closes them. */
void hs_sweep_child_release(void);

/* The signal that interrupted the sweep (SIGINT, SIGTERM, SIGHUP), or 0. */
extern volatile sig_atomic_t hs_sweep_interrupted;
void hs_sweep_catch_signals(bool on);

/* Default number of processes at once: the cores of this machine. */
int hs_sweep_default_jobs(void);

/* Launched by mpirun (or srun) with more than one rank? */
bool hs_sweep_mpi_launched(void);
/* A sweep spread over MPI ranks (sweep_mpi.c, library hetsim_sweep_mpi).
 * Only `hetsim-mpi` links MPI, so that no other run loads Open MPI: its main
 * sets hs_sweep_distributed to it, and hs_sweep_execute takes it when
 * launched by mpirun. NULL in `hetsim`, which hands MPI launches over to
 * `hetsim-mpi` (cli/main.c). */
int hs_sweep_mpi_execute(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *ops);
extern int (*hs_sweep_distributed)(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *ops);

/* MPI for a command that runs many sweeps in each rank (the ledger,
 * cli/cmd_ledger.c), initialised once in the process: begin (MPI_Init) gives
 * this rank and the number of ranks; end gives every rank the largest of the
 * ranks' codes and the sums of their counts (nsums of them), then finalises
 * MPI. Its waits sleep between polls, as the MPI sweep's do, so that a rank
 * done with its share leaves its core to the others. hs_sweep_mpi_ranks is in
 * sweep_mpi.c; hetsim-mpi's main sets hs_mpi_group to it (NULL in hetsim). */
struct hs_mpi_group {
    void (*begin)(int *rank, int *size);
    void (*end)(int *code, long *sums, int nsums);
};
extern const struct hs_mpi_group hs_sweep_mpi_ranks;
extern const struct hs_mpi_group *hs_mpi_group;

#endif
