/* policies/timeline.h — a worker's planned busy intervals, for the list
 * schedulers' insertion policy (HEFT, CPOP, PEFT, HEFT-NC): the earliest
 * start at or after a ready time where a task of a given length fits, and
 * placing a task there. */
#ifndef HS_TIMELINE_H
#define HS_TIMELINE_H

struct hs_interval {
    double start, end;
    int task;
};

struct hs_timeline {
    struct hs_interval *iv; /* sorted by start, disjoint */
    int n, cap;
    /* per block of HS_TIMELINE_BLOCK intervals, the largest gap before one of
     * them (iv[i].start - iv[i - 1].end): lets a search skip blocks where
     * nothing fits */
    double *blockgap;
    /* per superblock of HS_TIMELINE_SUPER intervals (HS_TIMELINE_BLOCK
     * blocks), the largest of its blocks' gaps */
    double *supergap;
};

#define HS_TIMELINE_BLOCK 64
#define HS_TIMELINE_SUPER (HS_TIMELINE_BLOCK * HS_TIMELINE_BLOCK)

/* Earliest t >= ready with [t, t + dur) free on the timeline. */
double hs_timeline_first_fit(const struct hs_timeline *tl, double ready, double dur);

/* The end of the last interval, or 0 when there is none. */
double hs_timeline_end(const struct hs_timeline *tl);

/* Adds [start, start + dur) for task (dur > 0; the caller keeps it disjoint). */
void hs_timeline_insert(struct hs_timeline *tl, double start, double dur, int task);

void hs_timeline_free(struct hs_timeline *tl);

#endif
