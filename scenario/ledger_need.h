/* scenario/ledger_need.h — the runs of a study the ledger needs: the points its
 * counted values read, and at each point only the repetitions their
 * statistics need (sequential stopping; docs/performance.md).
 *
 * The study runs in rounds: first `floor` repetitions of every point read
 * (5, or the study's repetitions if fewer), then 10, 20, ... up to the
 * study's. After each round a point is settled when, for every metric a
 * counted value reads there, the 95% confidence interval's half-width of
 * its mean is at most a quarter of the tolerance of the narrowest value
 * reading it (5% for a bound without one: the ledger's margin), relative
 * to the mean; a point whose runs all agree is settled at once. A settled
 * point runs no more repetitions. */
#ifndef HS_LEDGER_NEED_H
#define HS_LEDGER_NEED_H

#include "analysis/ledger.h"
#include "analysis/study.h"

#include <stdbool.h>
#include <stddef.h>

struct hs_ledger_need {
    const struct hs_study *st;
    const struct hs_ledger *l;
    int cap; /* this round's repetitions */
    struct hs_ledger_settled {
        char *key; /* a point (its parameter values, joined) settled ... */
        int at;    /* ... with this many repetitions */
    } *settled;
    int nsettled;
    size_t cap_settled;
};

void hs_ledger_need_init(struct hs_ledger_need *need, const struct hs_study *st, const struct hs_ledger *l);
void hs_ledger_need_free(struct hs_ledger_need *need);

/* hs_sweep_opts.keep (ctx: the need): a point a counted value reads, in a
 * repetition below its cap. */
bool hs_ledger_need_keep(void *ctx, const char *const *names, char *const *values, int n, int rep);

/* After a round, from the study's results.csv (csv, from file): settle the
 * points whose statistics are known well enough, and say whether another
 * round is needed (next cap in need->cap). 0, or -1 with hs_fail. */
int hs_ledger_need_next(struct hs_ledger_need *need, const char *file, bool *more);

#endif
