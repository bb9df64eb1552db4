/* policies/timeline.c — a worker's planned busy intervals (timeline.h).
 *
 * The insertion policy asks, for every task and worker, for the first gap at
 * or after the task's ready time that holds it. On large DAGs a worker holds
 * hundreds of thousands of intervals separated by gaps too small for most
 * tasks, and walking them one by one made HEFT quadratic (issue 19: half the
 * CPU of a 300,000-task run, an exponent of 1.7 at a million tasks). Each
 * block of HS_TIMELINE_BLOCK intervals keeps its largest gap, so the search
 * skips whole blocks where the task cannot fit, and each superblock of
 * HS_TIMELINE_BLOCK blocks the largest of theirs, so that it skips whole
 * superblocks: with blocks alone a million-task HEFT still spent 23% of its
 * CPU here, walking 3,900 blocks per query (an exponent of 1.23 from 300,000
 * to a million tasks). The blocks only prune: inside a block that may hold a
 * fit the test is the exact one of the plain walk, so the answers are the
 * same bit for bit. */
#include "policies/timeline.h"
#include "base/util.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The gap before interval i (none before the first). */
static double gap_before(const struct hs_timeline *tl, int i)
{
    return i > 0 ? tl->iv[i].start - tl->iv[i - 1].end : -INFINITY;
}

static void update_blocks_from(struct hs_timeline *tl, int from)
{
    int nblocks = (tl->n + HS_TIMELINE_BLOCK - 1) / HS_TIMELINE_BLOCK;
    for (int b = from / HS_TIMELINE_BLOCK; b < nblocks; b++) {
        int lo = b * HS_TIMELINE_BLOCK, hi = lo + HS_TIMELINE_BLOCK;
        double g = -INFINITY;
        for (int i = lo; i < hi && i < tl->n; i++)
            g = fmax(g, gap_before(tl, i));
        tl->blockgap[b] = g;
    }
    for (int s = from / HS_TIMELINE_SUPER; s * HS_TIMELINE_BLOCK < nblocks; s++) {
        int lo = s * HS_TIMELINE_BLOCK, hi = lo + HS_TIMELINE_BLOCK;
        double g = -INFINITY;
        for (int b = lo; b < hi && b < nblocks; b++)
            g = fmax(g, tl->blockgap[b]);
        tl->supergap[s] = g;
    }
}

/* Whether no interval of the span of `size` intervals numbered k, whose
 * largest gap is gap, can have dur fit before it. The gaps were computed
 * as start - end, the exact test is start >= end + dur: they differ by
 * rounding, a few ulps of the times, so a span is skipped only with a
 * margin far above that. */
static bool span_too_small(const struct hs_timeline *tl, int k, int size, double gap, double dur)
{
    int last = (k + 1) * size - 1;
    if (last >= tl->n)
        last = tl->n - 1;
    double margin = 1e-12 * (fabs(tl->iv[last].end) + dur);
    return gap + margin < dur;
}

double hs_timeline_first_fit(const struct hs_timeline *tl, double ready, double dur)
{
    /* intervals are disjoint and sorted, so their ends are sorted too: skip
     * those that end by `ready` by bisection */
    int lo = 0, hi = tl->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (tl->iv[mid].end <= ready)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == tl->n || tl->iv[lo].start >= ready + dur)
        return ready;
    /* from here the candidate start is the end of the previous interval */
    for (int i = lo + 1; i < tl->n; i++) {
        if (i % HS_TIMELINE_SUPER == 0 &&
            span_too_small(tl, i / HS_TIMELINE_SUPER, HS_TIMELINE_SUPER, tl->supergap[i / HS_TIMELINE_SUPER], dur)) {
            i += HS_TIMELINE_SUPER - 1;
            continue;
        }
        if (i % HS_TIMELINE_BLOCK == 0 &&
            span_too_small(tl, i / HS_TIMELINE_BLOCK, HS_TIMELINE_BLOCK, tl->blockgap[i / HS_TIMELINE_BLOCK], dur)) {
            i += HS_TIMELINE_BLOCK - 1;
            continue;
        }
        if (tl->iv[i].start >= tl->iv[i - 1].end + dur)
            return tl->iv[i - 1].end;
    }
    return tl->iv[tl->n - 1].end;
}

double hs_timeline_end(const struct hs_timeline *tl)
{
    return tl->n ? tl->iv[tl->n - 1].end : 0;
}

void hs_timeline_insert(struct hs_timeline *tl, double start, double dur, int task)
{
    if (tl->n == tl->cap) {
        tl->cap = tl->cap ? 2 * tl->cap : 64;
        tl->iv = hs_xrealloc(tl->iv, (size_t)tl->cap * sizeof *tl->iv);
        tl->blockgap = hs_xrealloc(tl->blockgap,
                                   (size_t)(tl->cap / HS_TIMELINE_BLOCK + 1) * sizeof *tl->blockgap);
        tl->supergap = hs_xrealloc(tl->supergap,
                                   (size_t)(tl->cap / HS_TIMELINE_SUPER + 1) * sizeof *tl->supergap);
    }
    int pos = tl->n;
    while (pos > 0 && tl->iv[pos - 1].start > start)
        pos--;
    memmove(&tl->iv[pos + 1], &tl->iv[pos], (size_t)(tl->n - pos) * sizeof *tl->iv);
    tl->iv[pos] = (struct hs_interval){start, start + dur, task};
    tl->n++;
    update_blocks_from(tl, pos);
}

void hs_timeline_free(struct hs_timeline *tl)
{
    free(tl->iv);
    free(tl->blockgap);
    free(tl->supergap);
    memset(tl, 0, sizeof *tl);
}
