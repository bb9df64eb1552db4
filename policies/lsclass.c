/* policies/lsclass.c — HEFT's choice of a worker through the classes of
 * identical workers (listsched.h, hs_ls_new_classes; sim/sched.h).
 *
 * On a member p of a class whose memory holds none of t's predecessors, t
 * has the class's cost d and the class's data-ready time r (the same routes
 * from every other memory node), so its start is first_fit(p, r, d) with
 * insertion and max(end(p), r) without, and its finish that plus d. Per
 * class a tree over the members keeps the earliest timeline end (min end)
 * and the latest end of an idle window before a timeline's end (max window,
 * an upper bound: it never decreases); a task of length d fits a window
 * [a, b) at or after r only if b >= r + d, so over a subtree the start is at
 * least r when max window >= r + d and max(min end, r) otherwise. The member
 * of earliest finish (ties: lowest id) is found best first on these bounds
 * (base/evheap); the members holding a predecessor are weighed one by one.
 * The choice is the scan's over every worker. */
#include "policies/listsched.h"
#include "base/evheap.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>

struct hs_ls_classes {
    int *first, *count, *cap; /* per class: members[first .. first+count) */
    int *members, *slot;      /* by class then id; per worker its place */
    bool *one_node;           /* per class: its members have a memory node each */
    size_t *base;             /* per class: its tree's offset */
    double *minend, *maxwin;  /* per tree node */
    bool *excluded;
    int *exlist, nex;
    struct hs_evheap heap;
};

struct hs_ls_classes *hs_ls_classes_new(const struct hs_listsched *ls)
{
    struct hs_runtime *s = ls->s;
    int C = ls->ncls, P = ls->nworkers;
    struct hs_ls_classes *k = hs_xcalloc(1, sizeof *k);
    k->first = hs_xcalloc((size_t)C, sizeof(int));
    k->count = hs_xcalloc((size_t)C, sizeof(int));
    k->cap = hs_xcalloc((size_t)C, sizeof(int));
    k->one_node = hs_xcalloc((size_t)C, sizeof(bool));
    k->base = hs_xcalloc((size_t)C, sizeof(size_t));
    k->members = hs_xmalloc((size_t)P * sizeof(int));
    k->slot = hs_xmalloc((size_t)P * sizeof(int));
    size_t nodes = 0;
    for (int c = 0, at = 0; c < C; c++) {
        const int *m;
        int n = hs_sched_class_members(s, c, &m);
        k->first[c] = at;
        k->count[c] = n;
        for (int i = 0; i < n; i++) {
            k->members[at + i] = m[i];
            k->slot[m[i]] = i;
        }
        at += n;
        k->one_node[c] = n > 1 && hs_sched_worker(s, m[0])->node != hs_sched_worker(s, m[1])->node;
        k->cap[c] = 1;
        while (k->cap[c] < n)
            k->cap[c] *= 2;
        k->base[c] = nodes;
        nodes += 2 * (size_t)k->cap[c];
    }
    k->minend = hs_xmalloc(nodes * sizeof(double));
    k->maxwin = hs_xmalloc(nodes * sizeof(double));
    for (size_t i = 0; i < nodes; i++) {
        k->minend[i] = INFINITY; /* empty slots */
        k->maxwin[i] = -INFINITY;
    }
    for (int c = 0; c < C; c++) {
        size_t b = k->base[c], cap = (size_t)k->cap[c];
        for (int i = 0; i < k->count[c]; i++)
            k->minend[b + cap + (size_t)i] = 0; /* an empty timeline ends at 0 */
        for (size_t j = cap - 1; j >= 1; j--) {
            k->minend[b + j] = fmin(k->minend[b + 2 * j], k->minend[b + 2 * j + 1]);
            k->maxwin[b + j] = fmax(k->maxwin[b + 2 * j], k->maxwin[b + 2 * j + 1]);
        }
    }
    k->excluded = hs_xcalloc((size_t)P, sizeof(bool));
    k->exlist = hs_xmalloc((size_t)P * sizeof(int));
    return k;
}

void hs_ls_classes_free(struct hs_ls_classes *k)
{
    if (!k)
        return;
    free(k->first);
    free(k->count);
    free(k->cap);
    free(k->one_node);
    free(k->base);
    free(k->members);
    free(k->slot);
    free(k->minend);
    free(k->maxwin);
    free(k->excluded);
    free(k->exlist);
    hs_evheap_free(&k->heap);
    free(k);
}

void hs_ls_classes_placed(struct hs_listsched *ls, int p, double window)
{
    struct hs_ls_classes *k = ls->classes;
    int c = ls->cls[p];
    size_t b = k->base[c], i = (size_t)k->cap[c] + (size_t)k->slot[p];
    k->minend[b + i] = hs_timeline_end(&ls->tl[p]);
    k->maxwin[b + i] = fmax(k->maxwin[b + i], window);
    for (i /= 2; i >= 1; i /= 2) {
        k->minend[b + i] = fmin(k->minend[b + 2 * i], k->minend[b + 2 * i + 1]);
        k->maxwin[b + i] = fmax(k->maxwin[b + 2 * i], k->maxwin[b + 2 * i + 1]);
    }
}

static double start_of(const struct hs_listsched *ls, int p, double ready, double dur, bool insertion)
{
    const struct hs_timeline *tl = &ls->tl[p];
    return insertion ? hs_timeline_first_fit(tl, ready, dur) : fmax(hs_timeline_end(tl), ready);
}

/* The earliest start a member of subtree j of class c may have. */
static double bound(const struct hs_ls_classes *k, size_t j, double ready, double dur, bool insertion)
{
    if (insertion && k->maxwin[j] >= ready + dur)
        return ready;
    return fmax(k->minend[j], ready);
}

/* The member of class c, not excluded, of earliest finish (ties: lowest id);
 * -1 if none. */
static int class_best(struct hs_listsched *ls, int c, double ready, double dur, bool insertion,
                      double *eft, double *start)
{
    struct hs_ls_classes *k = ls->classes;
    size_t b = k->base[c], cap = (size_t)k->cap[c];
    const int *members = k->members + k->first[c];
    struct hs_evheap *h = &k->heap;
    h->n = 0;
    hs_evheap_push(h, (struct hs_event){.time = bound(k, b + 1, ready, dur, insertion) + dur, .tag = 0, .id = 1});
    while (h->n) {
        struct hs_event e = hs_evheap_pop(h);
        if (e.id < 0) {
            int p = members[e.tag];
            *start = start_of(ls, p, ready, dur, insertion);
            *eft = e.time;
            return p;
        }
        size_t j = (size_t)e.id;
        if (j >= cap) {
            int p = members[j - cap];
            if (!k->excluded[p])
                hs_evheap_push(h, (struct hs_event){.time = start_of(ls, p, ready, dur, insertion) + dur,
                                                    .tag = e.tag, .id = -1});
            continue;
        }
        for (size_t child = 2 * j; child <= 2 * j + 1; child++) {
            size_t first = child;
            while (first < cap)
                first *= 2;
            if (first - cap >= (size_t)k->count[c])
                continue;
            hs_evheap_push(h, (struct hs_event){.time = bound(k, b + child, ready, dur, insertion) + dur,
                                                .tag = first - cap, .id = (long)child});
        }
    }
    return -1;
}

static void exclude(struct hs_ls_classes *k, const struct hs_listsched *ls, int p)
{
    if (p >= 0 && !k->excluded[p] && k->one_node[ls->cls[p]]) {
        k->excluded[p] = true;
        k->exlist[k->nex++] = p;
    }
}

int hs_ls_classes_best(struct hs_listsched *ls, int t, bool insertion, double *start)
{
    struct hs_ls_classes *k = ls->classes;
    const struct hs_task *task = &ls->dag->tasks[t];
    k->nex = 0; /* the workers holding a predecessor: their data-ready time differs */
    for (int i = 0; i < task->npred; i++)
        exclude(k, ls, ls->proc[ls->dag->edges[task->pred[i]].src]);
    int best = -1;
    double best_eft = INFINITY;
    for (int c = 0; c < ls->ncls; c++) {
        const int *m = k->members + k->first[c];
        int rep = -1;
        for (int i = 0; i < k->count[c] && rep < 0; i++)
            if (!k->excluded[m[i]])
                rep = m[i];
        double dur = ls->wc[(size_t)t * ls->ncls + c];
        if (rep < 0 || !isfinite(dur))
            continue;
        double eft, st;
        int p = class_best(ls, c, hs_ls_ready_time(ls, t, rep), dur, insertion, &eft, &st);
        if (p >= 0 && (eft < best_eft || (eft == best_eft && isfinite(eft) && p < best))) {
            best_eft = eft;
            best = p;
            *start = st;
        }
    }
    for (int i = 0; i < k->nex; i++) {
        int p = k->exlist[i];
        k->excluded[p] = false;
        double est = hs_ls_est(ls, t, p, insertion), eft = est + hs_ls_cost(ls, t, p);
        if (eft < best_eft || (eft == best_eft && isfinite(eft) && p < best)) {
            best_eft = eft;
            best = p;
            *start = est;
        }
    }
    k->nex = 0;
    return best;
}
