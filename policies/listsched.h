/* policies/listsched.h — what the static list schedulers (HEFT, CPOP, PEFT,
 * HEFT-NC) share: the cost model they plan with, upward and downward ranks,
 * per-worker timelines with insertion into idle gaps, and the execution of
 * the finished plan by the runtime.
 *
 * Costs (Topcuoglu et al. 2002, over the selected workers):
 *   w(t,p)    the runtime's estimate of t on worker p (INFINITY: cannot run)
 *   w̄(t)      mean of w(t,p) over the workers that can run t
 *   c(e,p,q)  time to move the edge's bytes from p's memory node to q's
 *             (0 on the same node, 0 for an edge without data)
 *   c̄(e)      mean of c(e,p,q) over ordered pairs of distinct workers
 * A task's data-ready time on p is the latest arrival of its predecessors'
 * data (AFT + c); a zero-duration task is placed at its ready time without
 * occupying the timeline.
 *
 * Execution: each worker takes its planned tasks in planned start order, as
 * soon as the next one is ready (policies set in_order so kernels keep that
 * order), and a finished task's data is prefetched to the workers of its
 * planned successors at once, so that transfers start when the plan says. On
 * a contention-free platform the simulated makespan then equals the plan's. */
#ifndef HS_LISTSCHED_H
#define HS_LISTSCHED_H

#include "sim/policy.h"
#include "policies/timeline.h"

#include <stdbool.h>

struct hs_listsched {
    struct hs_runtime *s;
    const struct hs_dag *dag;
    int ntasks, nworkers;
    double *w;         /* [t * nworkers + p]; NULL with classes (hs_ls_new_classes) */
    /* Classes of identical workers (hs_ls_new_classes, sim/sched.h): the
     * costs per class, O(tasks x classes), and per class a tree over its
     * members (by id) of their timelines' ends and latest idle windows, so
     * that HEFT's choice of a worker costs O(classes x log P + predecessors). */
    int ncls;          /* 0: no classes (w per worker) */
    int *cls;          /* per worker: its class */
    double *wc;        /* [t * ncls + class] */
    struct hs_ls_classes *classes;
    double *wmean;     /* [t] */
    double comm_lat;   /* mean latency term of c̄ over distinct worker pairs */
    double comm_byte;  /* mean seconds per byte of c̄ */
    const int *worker_order; /* HEFT's ties go to the first worker in it; NULL: lowest id */
    struct hs_timeline *tl;
    int *proc;         /* planned worker, -1 until placed */
    double *ast, *aft;
    /* execution */
    const int *tiebreak; /* tasks planned to start and end at the same times go by this
                            rank (a linear extension of what they wait for); NULL: the first
                            topological order in task ids (hs_ls_commit) */
    int **order;       /* per worker: its tasks by planned start */
    int *norder, *next;
    bool *ready;
    bool offers; /* hs_ls_offer_mode: the runtime asks only a worker whose next task is ready */
};

/* Fill the costs for the runtime's DAG and workers. */
struct hs_listsched *hs_ls_new(struct hs_runtime *s);
/* The same with the costs per class of identical workers (O(tasks x classes)
 * memory, not tasks x workers) and HEFT's choice through the classes
 * (hs_heft_best_worker): the same plan as hs_ls_new's, ties included. For
 * a policy that reads costs through hs_ls_cost only and sets no worker_order. */
struct hs_listsched *hs_ls_new_classes(struct hs_runtime *s);
/* w(t,p), whichever way the costs are kept. */
double hs_ls_cost(const struct hs_listsched *ls, int t, int p);
/* The same for another DAG over the runtime's workers (a graph of clusters),
 * with its costs w[t * nworkers + p] (INFINITY: cannot run), copied. */
struct hs_listsched *hs_ls_new_costs(struct hs_runtime *s, const struct hs_dag *dag, const double *w);
void hs_ls_free(struct hs_listsched *ls);

double hs_ls_comm(const struct hs_listsched *ls, int edge, int p, int q);
double hs_ls_comm_mean(const struct hs_listsched *ls, int edge);

/* rank[t] = weight[t] + max over successors (c̄ + rank[succ]); exits: weight. */
void hs_ls_rank_up(const struct hs_listsched *ls, const double *weight, double *rank);
/* rank[t] = max over predecessors (rank[pred] + weight[pred] + c̄); entries: 0. */
void hs_ls_rank_down(const struct hs_listsched *ls, const double *weight, double *rank);

/* Data-ready time of t on p from its placed predecessors. */
double hs_ls_ready_time(const struct hs_listsched *ls, int t, int p);
/* Earliest start of t on p: in the first idle gap at or after its ready time
 * that holds w(t,p) (insertion) or after p's last task (append). */
double hs_ls_est(const struct hs_listsched *ls, int t, int p, bool insertion);
void hs_ls_place(struct hs_listsched *ls, int t, int p, double start);

/* Ready list ordered by a priority (highest first, ties to the lowest id):
 * call hs_ls_ready_init once, then hs_ls_ready_take until it returns -1; it
 * releases successors as their predecessors are taken. */
struct hs_ready;
struct hs_ready *hs_ls_ready_new(const struct hs_listsched *ls, const double *priority);
int hs_ls_ready_take(struct hs_ready *r);
void hs_ls_ready_free(struct hs_ready *r);

/* The classes' trees (policies/lsclass.c): made by hs_ls_new_classes, told
 * of each task placed on p (window: the end of the idle window its start
 * leaves before it, -INFINITY if none), and HEFT's choice through them. */
struct hs_ls_classes *hs_ls_classes_new(const struct hs_listsched *ls);
void hs_ls_classes_free(struct hs_ls_classes *k);
void hs_ls_classes_placed(struct hs_listsched *ls, int p, double window);
int hs_ls_classes_best(struct hs_listsched *ls, int t, bool insertion, double *start);

/* HEFT's pieces, reused by the other list schedulers: task weights of the
 * rank variants ("mean", "speedup", "absdiff", "composite"), and the worker
 * with the earliest finish time for t (ties: lowest id, or the first in
 * ls->worker_order) with its start. */
void hs_heft_weights(const struct hs_listsched *ls, const char *variant, double *weight);
int hs_heft_best_worker(struct hs_listsched *ls, int t, bool insertion, double *start);
/* HEFT's whole placement: rank by the variant's weights, then every task on
 * its best worker in rank order. Returns -1 with hs_fail if a task can run on
 * no worker. */
int hs_heft_place_all(struct hs_listsched *ls, const char *variant, bool insertion);

/* Finish planning: per-worker orders and the predicted makespan, given to
 * the runtime. The policy's data becomes ls. The planning state (w, tl,
 * ast, aft) is freed and set to NULL: proc, wmean and the orders remain. */
void hs_ls_commit(struct hs_listsched *ls);

/* Executing a committed plan: w's next planned task if it is ready (else
 * -1), and the prefetch of t's outputs to its planned consumers (which
 * hs_ls_done does). */
int hs_ls_next_ready(const struct hs_listsched *ls, int w);
void hs_ls_send_outputs(struct hs_listsched *ls, const struct hs_task *t, int w);

/* Called from init after hs_ls_commit by a policy whose callbacks are those
 * below: the runtime then offers work only to a worker whose next planned
 * task is ready (hs_sched_offer_mode), the run unchanged. */
void hs_ls_offer_mode(struct hs_listsched *ls);

/* Callbacks that execute a committed plan. */
void hs_ls_push(struct hs_runtime *s, struct hs_task *t);
struct hs_task *hs_ls_pop(struct hs_runtime *s, int w);
void hs_ls_done(struct hs_runtime *s, struct hs_task *t, int w);
void hs_ls_fini(struct hs_runtime *s);

#endif
