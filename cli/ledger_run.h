/* cli/ledger_run.h — `hetsim reproduce --ledger`: run every shipped
 * study that checks a published claim (full size, each into DIR/STUDY,
 * resumed like any sweep), then print one row per claim of the claims file
 * and the count of claims in each verdict (analysis/ledger.h).
 *
 * For evidence about a model, the same studies can run on another platform
 * model (--platform-map idgraf=idgraf-pcie: every platform setting, axis
 * value and published value's filter naming idgraf names the other one,
 * so the rows say what ran), with a parameter added to every use of a
 * policy (--policy-param ws:order=fifo, rewritten the same way) or with
 * settings added to every study's base (--set KEY=VALUE).
 *
 * The runs of every study go to one pool of -j processes, a run several
 * studies hold computed once (scenario/ledger_pool.c). Across machines: each
 * shard (--shard I/N, a Slurm array task) runs the points of its share into
 * its own folder, and --merge joins the folders into one and counts the
 * claims, as one process would have; under mpirun, each rank runs its share
 * and rank 0 merges them (MPI initialised once a process). A run another
 * study wrote into DIR in an earlier invocation is copied, not run again. */
#ifndef HS_LEDGER_RUN_H
#define HS_LEDGER_RUN_H

#include "analysis/study.h"
#include "analysis/sweep.h"

struct hs_ledger_opts {
    const char *dir;      /* root folder of the studies' results (default out/ledger) */
    const char *claims;   /* claims file (default: ledger/claims.json beside the studies) */
    const char *markdown; /* also write the table as Markdown there, or NULL */
    const char *map_from, *map_to; /* --platform-map, or NULL */
    const char *param_policy, *param; /* --policy-param NAME:KEY=VALUE, or NULL */
    struct hs_study_kv *set;       /* --set KEY=VALUE, nset of them */
    int nset;
    const char *only;     /* comma-separated study names to run (NULL: all) */
    int shard, nshards;   /* --shard I/N: only the points of shard I of N (nshards 0: all) */
    char **merge;         /* --merge: the folders of the shards to join into dir, nmerge of
                             them (nothing is run but the analyses) */
    int nmerge;
    const char *earlier;  /* another folder of earlier results whose rows are copied for their
                             keys (besides dir's own; the MPI ledger's DIR), or NULL */
};

/* Returns 0, 1 if some runs failed (their claims' values count as not
 * evaluated), or 2 for bad input (message printed). */
int hs_ledger_run(const struct hs_ledger_opts *o, struct hs_sweep_opts *so);

#endif
