/* cli/ledger_pool.h — the runs the ledger needs, of every study at once, in
 * one pool of -j processes (cli/ledger_pool.c). */
#ifndef HS_LEDGER_POOL_H
#define HS_LEDGER_POOL_H

#include "analysis/ledger.h"
#include "analysis/study.h"
#include "analysis/sweep.h"

/* One study of the ledger (a sweep, not an analysis) and its folder. */
struct hs_ledger_study {
    const struct hs_study *st;
    const char *dir;
};

struct hs_ledger_pool_opts {
    const struct hs_study_kv *set; /* --set KEY=VALUE, nset of them */
    int nset;
    int shard, nshards;            /* --shard I/N (nshards 0: every point) */
};

/* Run the studies' rounds (cli/ledger_need.h) into DIR/results.csv of each,
 * so->jobs processes fed with the runs of every study; a run that several
 * studies hold is computed once (*copied: the rows copied). Returns 0, 1
 * when some runs failed, 2 for bad input (hs_fail), 128+signal when
 * interrupted (finished rows are kept). */
int hs_ledger_pool_run(const struct hs_ledger_study *studies, int n, const struct hs_ledger *l,
                       const struct hs_ledger_pool_opts *o, const struct hs_sweep_opts *so, long *copied);

#endif
