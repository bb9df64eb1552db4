/* policies/listsched.c — costs, ranks, timelines and plan execution shared by
 * the static list schedulers (see listsched.h). */
#include "policies/listsched.h"
#include "base/util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int node_of(const struct hs_listsched *ls, int p)
{
    return hs_sched_worker(ls->s, p)->node;
}

/* The mean of w(t, .) over the workers that can run t, summed in worker order. */
static double mean_cost(const struct hs_listsched *ls, int t)
{
    double sum = 0;
    int n = 0;
    for (int p = 0; p < ls->nworkers; p++) {
        double c = hs_ls_cost(ls, t, p);
        if (isfinite(c)) {
            sum += c;
            n++;
        }
    }
    return n ? sum / n : INFINITY;
}

/* With classes, w̄(t) depends only on t's costs per class: tasks with the
 * same costs (the same kernel and size) share one sum, made in worker order
 * as without classes, found in a hash table of the cost vectors seen. */
static void class_means(struct hs_listsched *ls)
{
    int V = ls->ntasks, C = ls->ncls;
    size_t cap = 64, used = 0;
    int *slot = hs_xmalloc(cap * sizeof(int)); /* a task with those costs, -1 */
    for (size_t i = 0; i < cap; i++)
        slot[i] = -1;
    for (int t = 0; t < V; t++) {
        const double *v = &ls->wc[(size_t)t * C];
        uint64_t hash = 1469598103934665603u;
        const unsigned char *b = (const unsigned char *)v;
        for (size_t k = 0; k < (size_t)C * sizeof(double); k++)
            hash = (hash ^ b[k]) * 1099511628211u;
        size_t i = hash & (cap - 1);
        while (slot[i] >= 0 && memcmp(&ls->wc[(size_t)slot[i] * C], v, (size_t)C * sizeof(double)) != 0)
            i = (i + 1) & (cap - 1);
        if (slot[i] >= 0) {
            ls->wmean[t] = ls->wmean[slot[i]];
            continue;
        }
        ls->wmean[t] = mean_cost(ls, t);
        slot[i] = t;
        if (2 * ++used > cap) { /* grow: every vector seen placed again */
            size_t ncap = 2 * cap;
            int *ns = hs_xmalloc(ncap * sizeof(int));
            for (size_t k = 0; k < ncap; k++)
                ns[k] = -1;
            for (size_t k = 0; k < cap; k++) {
                if (slot[k] < 0)
                    continue;
                const unsigned char *bb = (const unsigned char *)&ls->wc[(size_t)slot[k] * C];
                uint64_t h2 = 1469598103934665603u;
                for (size_t j = 0; j < (size_t)C * sizeof(double); j++)
                    h2 = (h2 ^ bb[j]) * 1099511628211u;
                size_t at = h2 & (ncap - 1);
                while (ns[at] >= 0)
                    at = (at + 1) & (ncap - 1);
                ns[at] = slot[k];
            }
            free(slot);
            slot = ns;
            cap = ncap;
        }
    }
    free(slot);
}

/* A list scheduler that takes ownership of the costs: w[t * P + p], or
 * per class wc[t * ncls + class] (then w is NULL). */
static struct hs_listsched *ls_new(struct hs_runtime *s, const struct hs_dag *dag, double *w, double *wc,
                                   int ncls)
{
    struct hs_listsched *ls = hs_xcalloc(1, sizeof *ls);
    ls->s = s;
    ls->dag = dag;
    ls->ntasks = dag->ntasks;
    ls->nworkers = hs_sched_nworkers(s);
    int V = ls->ntasks, P = ls->nworkers;
    ls->w = w;
    ls->wc = wc;
    ls->ncls = ncls;
    ls->wmean = hs_xmalloc((size_t)V * sizeof(double));
    if (ncls) {
        ls->cls = hs_xmalloc((size_t)P * sizeof(int));
        for (int p = 0; p < P; p++)
            ls->cls[p] = hs_sched_class_of(s, p);
        class_means(ls);
    } else {
        for (int t = 0; t < V; t++)
            ls->wmean[t] = mean_cost(ls, t);
    }
    hs_sched_mean_comm(s, &ls->comm_lat, &ls->comm_byte);
    ls->tl = hs_xcalloc((size_t)P, sizeof *ls->tl);
    ls->proc = hs_xmalloc((size_t)V * sizeof(int));
    for (int t = 0; t < V; t++)
        ls->proc[t] = -1;
    ls->ast = hs_xcalloc((size_t)V, sizeof(double));
    ls->aft = hs_xcalloc((size_t)V, sizeof(double));
    if (ncls)
        ls->classes = hs_ls_classes_new(ls);
    return ls;
}

double hs_ls_cost(const struct hs_listsched *ls, int t, int p)
{
    return ls->w ? ls->w[(size_t)t * ls->nworkers + p] : ls->wc[(size_t)t * ls->ncls + ls->cls[p]];
}

struct hs_listsched *hs_ls_new_costs(struct hs_runtime *s, const struct hs_dag *dag, const double *w)
{
    size_t size = (size_t)dag->ntasks * (size_t)hs_sched_nworkers(s) * sizeof(double);
    double *copy = hs_xmalloc(size);
    memcpy(copy, w, size);
    return ls_new(s, dag, copy, NULL, 0);
}

/* The costs are filled in place: a copy would double the tasks x workers
 * table at the peak of the plan. */
struct hs_listsched *hs_ls_new(struct hs_runtime *s)
{
    const struct hs_dag *dag = hs_sched_dag(s);
    int V = dag->ntasks, P = hs_sched_nworkers(s);
    double *w = hs_xmalloc((size_t)V * P * sizeof(double));
    for (int t = 0; t < V; t++)
        for (int p = 0; p < P; p++)
            w[(size_t)t * P + p] = hs_sched_exec_estimate(s, &dag->tasks[t], p);
    return ls_new(s, dag, w, NULL, 0);
}

struct hs_listsched *hs_ls_new_classes(struct hs_runtime *s)
{
    const struct hs_dag *dag = hs_sched_dag(s);
    int V = dag->ntasks, C = hs_sched_nclasses(s);
    double *wc = hs_xmalloc((size_t)V * C * sizeof(double));
    for (int c = 0; c < C; c++) {
        const int *m;
        hs_sched_class_members(s, c, &m);
        for (int t = 0; t < V; t++)
            wc[(size_t)t * C + c] = hs_sched_exec_estimate(s, &dag->tasks[t], m[0]);
    }
    return ls_new(s, dag, NULL, wc, C);
}

/* What only the planning uses: costs, timelines, planned times (wmean is
 * kept: ranks can still be computed from it). */
static void free_plan_state(struct hs_listsched *ls)
{
    for (int p = 0; ls->tl && p < ls->nworkers; p++)
        hs_timeline_free(&ls->tl[p]);
    free(ls->tl);
    free(ls->w);
    free(ls->wc);
    free(ls->ast);
    free(ls->aft);
    hs_ls_classes_free(ls->classes);
    ls->classes = NULL;
    ls->tl = NULL;
    ls->w = ls->wc = ls->ast = ls->aft = NULL;
}

void hs_ls_free(struct hs_listsched *ls)
{
    if (!ls)
        return;
    free_plan_state(ls);
    free(ls->wmean);
    for (int p = 0; ls->order && p < ls->nworkers; p++)
        free(ls->order[p]);
    free(ls->order);
    free(ls->norder);
    free(ls->next);
    free(ls->ready);
    free(ls->proc);
    free(ls->cls);
    free(ls);
}

double hs_ls_comm(const struct hs_listsched *ls, int edge, int p, int q)
{
    double bytes = ls->dag->edges[edge].bytes;
    int np = node_of(ls, p), nq = node_of(ls, q);
    if (bytes <= 0 || np == nq)
        return 0;
    return hs_sched_move_time(ls->s, np, nq, bytes);
}

double hs_ls_comm_mean(const struct hs_listsched *ls, int edge)
{
    double bytes = ls->dag->edges[edge].bytes;
    return bytes > 0 ? ls->comm_lat + ls->comm_byte * bytes : 0;
}

void hs_ls_rank_up(const struct hs_listsched *ls, const double *weight, double *rank)
{
    const struct hs_dag *dag = ls->dag;
    for (int i = dag->ntasks - 1; i >= 0; i--) {
        const struct hs_task *t = &dag->tasks[dag->topo[i]];
        double best = 0;
        for (int k = 0; k < t->nsucc; k++) {
            int e = t->succ[k];
            double v = hs_ls_comm_mean(ls, e) + rank[dag->edges[e].dst];
            if (v > best)
                best = v;
        }
        rank[t->id] = weight[t->id] + best;
    }
}

void hs_ls_rank_down(const struct hs_listsched *ls, const double *weight, double *rank)
{
    const struct hs_dag *dag = ls->dag;
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[dag->topo[i]];
        double best = 0;
        for (int k = 0; k < t->npred; k++) {
            int e = t->pred[k], m = dag->edges[e].src;
            double v = rank[m] + weight[m] + hs_ls_comm_mean(ls, e);
            if (v > best)
                best = v;
        }
        rank[t->id] = best;
    }
}

double hs_ls_ready_time(const struct hs_listsched *ls, int t, int p)
{
    const struct hs_task *task = &ls->dag->tasks[t];
    double ready = 0;
    for (int k = 0; k < task->npred; k++) {
        int e = task->pred[k], m = ls->dag->edges[e].src;
        double v = ls->aft[m] + hs_ls_comm(ls, e, ls->proc[m], p);
        if (v > ready)
            ready = v;
    }
    return ready;
}

double hs_ls_est(const struct hs_listsched *ls, int t, int p, bool insertion)
{
    double dur = hs_ls_cost(ls, t, p);
    if (!isfinite(dur))
        return INFINITY;
    double ready = hs_ls_ready_time(ls, t, p);
    const struct hs_timeline *tl = &ls->tl[p];
    if (!insertion)
        return fmax(hs_timeline_end(tl), ready); /* ready >= 0, the end of an empty timeline */
    return hs_timeline_first_fit(tl, ready, dur);
}

void hs_ls_place(struct hs_listsched *ls, int t, int p, double start)
{
    double dur = hs_ls_cost(ls, t, p);
    ls->proc[t] = p;
    ls->ast[t] = start;
    ls->aft[t] = start + dur;
    if (dur <= 0)
        return; /* takes no room on the timeline */
    double end = hs_timeline_end(&ls->tl[p]);
    bool empty = ls->tl[p].n == 0;
    hs_timeline_insert(&ls->tl[p], start, dur, t);
    if (ls->classes)
        hs_ls_classes_placed(ls, p, empty || start > end ? start : -INFINITY);
}

/* ---- ready list: a binary max-heap on (priority, -id) ----------------------
 * (GSL has no priority queue and igraph's heaps carry no tie-breaking id.) */

struct hs_ready {
    const struct hs_listsched *ls;
    const double *prio;
    int *heap, n;
    int *left; /* predecessors not yet taken */
};

static bool before(const struct hs_ready *r, int a, int b)
{
    if (r->prio[a] != r->prio[b])
        return r->prio[a] > r->prio[b];
    return a < b;
}

static void heap_push(struct hs_ready *r, int t)
{
    int i = r->n++;
    while (i > 0 && before(r, t, r->heap[(i - 1) / 2])) {
        r->heap[i] = r->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    r->heap[i] = t;
}

static int heap_pop(struct hs_ready *r)
{
    int top = r->heap[0], last = r->heap[--r->n], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= r->n)
            break;
        if (c + 1 < r->n && before(r, r->heap[c + 1], r->heap[c]))
            c++;
        if (!before(r, r->heap[c], last))
            break;
        r->heap[i] = r->heap[c];
        i = c;
    }
    if (r->n > 0)
        r->heap[i] = last;
    return top;
}

struct hs_ready *hs_ls_ready_new(const struct hs_listsched *ls, const double *priority)
{
    struct hs_ready *r = hs_xcalloc(1, sizeof *r);
    r->ls = ls;
    r->prio = priority;
    r->heap = hs_xmalloc((size_t)ls->ntasks * sizeof(int));
    r->left = hs_xmalloc((size_t)ls->ntasks * sizeof(int));
    for (int t = 0; t < ls->ntasks; t++) {
        r->left[t] = ls->dag->tasks[t].npred;
        if (r->left[t] == 0)
            heap_push(r, t);
    }
    return r;
}

int hs_ls_ready_take(struct hs_ready *r)
{
    if (r->n == 0)
        return -1;
    int t = heap_pop(r);
    const struct hs_task *task = &r->ls->dag->tasks[t];
    for (int k = 0; k < task->nsucc; k++) {
        int d = r->ls->dag->edges[task->succ[k]].dst;
        if (--r->left[d] == 0)
            heap_push(r, d);
    }
    return t;
}

void hs_ls_ready_free(struct hs_ready *r)
{
    free(r->heap);
    free(r->left);
    free(r);
}

/* ---- executing the plan ---------------------------------------------------- */

static const struct hs_listsched *sort_ls; /* qsort has no context argument */

/* planned start, then zero-duration tasks first, then tiebreak (a linear extension) */
static int cmp_start(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    const struct hs_listsched *ls = sort_ls;
    if (ls->ast[x] != ls->ast[y])
        return ls->ast[x] < ls->ast[y] ? -1 : 1;
    if (ls->aft[x] != ls->aft[y])
        return ls->aft[x] < ls->aft[y] ? -1 : 1;
    return ls->tiebreak ? ls->tiebreak[x] - ls->tiebreak[y] : x - y;
}

void hs_ls_commit(struct hs_listsched *ls)
{
    int P = ls->nworkers;
    ls->order = hs_xcalloc((size_t)P, sizeof(int *));
    ls->norder = hs_xcalloc((size_t)P, sizeof(int));
    ls->next = hs_xcalloc((size_t)P, sizeof(int));
    ls->ready = hs_xcalloc((size_t)ls->ntasks, sizeof(bool));
    double makespan = 0;
    for (int t = 0; t < ls->ntasks; t++) {
        ls->norder[ls->proc[t]]++;
        if (ls->aft[t] > makespan)
            makespan = ls->aft[t];
    }
    for (int p = 0; p < P; p++) {
        ls->order[p] = hs_xmalloc((size_t)(ls->norder[p] ? ls->norder[p] : 1) * sizeof(int));
        ls->norder[p] = 0;
    }
    for (int t = 0; t < ls->ntasks; t++)
        ls->order[ls->proc[t]][ls->norder[ls->proc[t]]++] = t;
    /* Without a policy's tiebreak, ties go by the first topological order
     * in task ids (the ids themselves when they are one): never by id alone,
     * which puts a successor numbered below its predecessor first when both
     * are planned at the same times (cost-free tasks), and the worker stalls. */
    int *linear = NULL;
    if (!ls->tiebreak) {
        double *zero = hs_xcalloc((size_t)ls->ntasks, sizeof(double));
        linear = hs_xmalloc((size_t)ls->ntasks * sizeof(int));
        struct hs_ready *r = hs_ls_ready_new(ls, zero);
        for (int i = 0, t; (t = hs_ls_ready_take(r)) >= 0; i++)
            linear[t] = i;
        hs_ls_ready_free(r);
        free(zero);
        ls->tiebreak = linear;
    }
    sort_ls = ls;
    for (int p = 0; p < P; p++)
        qsort(ls->order[p], (size_t)ls->norder[p], sizeof(int), cmp_start);
    if (linear) {
        ls->tiebreak = NULL;
        free(linear);
    }
    /* the run needs only the order and the placement (proc): the costs
     * (tasks x workers) and the timelines would stay resident to the end */
    free_plan_state(ls);
    hs_sched_set_predicted_makespan(ls->s, makespan);
    hs_sched_set_in_order(ls->s, true);
    hs_sched_set_data(ls->s, ls);
}

void hs_ls_offer_mode(struct hs_listsched *ls)
{
    ls->offers = true;
    hs_sched_offer_mode(ls->s);
}

void hs_ls_push(struct hs_runtime *s, struct hs_task *t)
{
    struct hs_listsched *ls = hs_sched_data(s);
    ls->ready[t->id] = true;
    int w = ls->proc[t->id];
    if (ls->offers && hs_ls_next_ready(ls, w) == t->id) /* the next task of w */
        hs_sched_offer(s, w, true);
}

int hs_ls_next_ready(const struct hs_listsched *ls, int w)
{
    if (ls->next[w] >= ls->norder[w])
        return -1;
    int t = ls->order[w][ls->next[w]];
    return ls->ready[t] ? t : -1;
}

struct hs_task *hs_ls_pop(struct hs_runtime *s, int w)
{
    struct hs_listsched *ls = hs_sched_data(s);
    int t = hs_ls_next_ready(ls, w);
    if (t < 0)
        return NULL;
    ls->next[w]++;
    if (ls->offers)
        hs_sched_offer(s, w, hs_ls_next_ready(ls, w) >= 0);
    return (struct hs_task *)&ls->dag->tasks[t];
}

static bool reads(const struct hs_task *t, int h)
{
    for (int i = 0; i < t->naccess; i++)
        if (t->access[i].handle == h && HS_MODE_READS(t->access[i].mode))
            return true;
    return false;
}

void hs_ls_send_outputs(struct hs_listsched *ls, const struct hs_task *t, int w)
{
    struct hs_runtime *s = ls->s;
    for (int k = 0; k < t->nsucc; k++) {
        const struct hs_edge *e = &ls->dag->edges[t->succ[k]];
        int q = ls->proc[e->dst];
        if (e->bytes <= 0 || node_of(ls, q) == node_of(ls, w))
            continue;
        const struct hs_task *succ = &ls->dag->tasks[e->dst];
        for (int i = 0; i < t->naccess; i++)
            if (HS_MODE_WRITES(t->access[i].mode) && reads(succ, t->access[i].handle))
                hs_sched_prefetch(s, t->access[i].handle, node_of(ls, q));
    }
}

void hs_ls_done(struct hs_runtime *s, struct hs_task *t, int w)
{
    hs_ls_send_outputs(hs_sched_data(s), t, w);
}

void hs_ls_fini(struct hs_runtime *s)
{
    hs_ls_free(hs_sched_data(s));
}
