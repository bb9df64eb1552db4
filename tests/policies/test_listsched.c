/* tests/policies/test_listsched.c — the static list schedulers (HEFT, CPOP, PEFT,
 * HEFT-NC) and online HEFT: Topcuoglu et al.'s 10-task, 3-processor example (ranks,
 * schedule, makespans 80 and 86, from the paper), the simulated makespan equal
 * to the plan's on a contention-free platform, schedule properties on
 * random DAGs (precedence with communication, no overlap, lower bounds), and
 * online HEFT's two finish-time formulas on a hand-made case; dmda's fitness
 * and prefetch; StarPU's and XKaapi 2.1's transfer factors (on Idgraf's two
 * GPUs); the timeline's
 * first fit (by hand, and against a plain walk on 5,000 intervals). */
#include "base/util.h"
#include "policies/listsched.h"
#include "policies/registry.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

static double field(const cJSON *r, const char *array, int i, const char *key)
{
    return cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(r, array), i), key)->valuedouble;
}

/* ---- ranks, through a wrapper policy that dumps HEFT's upward ranks -------- */

static char *rank_file;

static int dump_init(struct hs_runtime *s)
{
    int rc = hs_policy_heft.init(s);
    struct hs_listsched *ls = hs_sched_data(s);
    double rank[10];
    hs_ls_rank_up(ls, ls->wmean, rank);
    FILE *f = fopen(rank_file, "w");
    for (int t = 0; t < ls->ntasks && t < 10; t++)
        fprintf(f, "%.17g\n", rank[t]);
    fclose(f);
    return rc;
}

static void test_topcuoglu_ranks(void)
{
    struct hs_policy dump = hs_policy_heft;
    dump.init = dump_init;
    rank_file = hs_test_tmp(".txt");
    struct hs_dag *dag = hs_test_topcuoglu();
    struct hs_run_config cfg = hs_test_flat_config(3, NULL);
    cJSON_Delete(hs_test_simulate(&cfg, dag, &dump, "heft"));
    char *text = hs_test_read_file(rank_file);
    const double expect[10] = {108, 77, 80, 80, 69, 63.333333333333336, 42.666666666666664,
                               35.666666666666664, 44.333333333333336, 14.666666666666666};
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    for (int i = 0; i < 10; i++, line = strtok_r(NULL, "\n", &save)) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        CU_ASSERT_DOUBLE_EQUAL(atof(line), expect[i], 1e-9);
    }
    free(text);
    hs_dag_free(dag);
}

/* The schedule of Topcuoglu et al. 2002's Fig. 3(a): (processor, start, end). */
static void test_topcuoglu_heft(void)
{
    const double expect[10][3] = {{2, 0, 9},   {0, 27, 40}, {2, 9, 28},  {1, 18, 26}, {2, 28, 38},
                                  {1, 26, 42}, {2, 38, 49}, {0, 57, 62}, {1, 56, 68}, {1, 73, 80}};
    struct hs_dag *dag = hs_test_topcuoglu();
    struct hs_run_config cfg = hs_test_flat_config(3, NULL);
    cJSON *r = hs_test_simulate_named(&cfg, dag, "heft");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "predicted")->valuedouble, 80, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 80, 1e-9);
    for (int t = 0; t < 10; t++) {
        CU_ASSERT_EQUAL(field(r, "tasks", t, "worker"), expect[t][0]);
        CU_ASSERT_DOUBLE_EQUAL(field(r, "tasks", t, "start"), expect[t][1], 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(field(r, "tasks", t, "end"), expect[t][2], 1e-9);
    }
    cJSON_Delete(r);
    r = hs_test_simulate_named(&cfg, dag, "heft:insertion=0"); /* the append policy also gives 80 (by hand) */
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "predicted")->valuedouble, 80, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 80, 1e-9);
    cJSON_Delete(r);
    r = hs_test_simulate_named(&cfg, dag, "cpop"); /* Topcuoglu's Fig. 3(b): 86 */
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "predicted")->valuedouble, 86, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 86, 1e-9);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* ---- random DAGs with explicit costs --------------------------------------- */

static double edge_bytes(const struct hs_dag *dag, int src, int dst)
{
    for (int e = 0; e < dag->nedges; e++)
        if (dag->edges[e].src == src && dag->edges[e].dst == dst)
            return dag->edges[e].bytes;
    return 0;
}

/* Precedence with communication, no overlap on a worker, lower bounds. */
static void check_schedule(const struct hs_dag *dag, const cJSON *r, int p)
{
    int bad_prec = 0, overlap = 0;
    for (int e = 0; e < dag->nedges; e++) {
        int s = dag->edges[e].src, d = dag->edges[e].dst;
        double comm = field(r, "tasks", s, "worker") == field(r, "tasks", d, "worker")
                          ? 0 : edge_bytes(dag, s, d);
        bad_prec += field(r, "tasks", d, "start") < field(r, "tasks", s, "end") + comm - 1e-9;
    }
    for (int a = 0; a < dag->ntasks; a++)
        for (int b = a + 1; b < dag->ntasks; b++)
            if (field(r, "tasks", a, "worker") == field(r, "tasks", b, "worker"))
                overlap += field(r, "tasks", a, "start") < field(r, "tasks", b, "end") - 1e-9 &&
                           field(r, "tasks", b, "start") < field(r, "tasks", a, "end") - 1e-9;
    CU_ASSERT_EQUAL(bad_prec, 0);
    CU_ASSERT_EQUAL(overlap, 0);
    /* lower bounds: the critical path with minimum costs, total minimum work / P */
    double *finish = hs_xcalloc((size_t)dag->ntasks, sizeof(double)), cp = 0, work = 0;
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[dag->topo[i]];
        double wmin = INFINITY, start = 0;
        for (int q = 0; q < p; q++)
            wmin = fmin(wmin, t->proc_cost[q]);
        for (int k = 0; k < t->npred; k++)
            start = fmax(start, finish[dag->edges[t->pred[k]].src]);
        finish[t->id] = start + wmin;
        cp = fmax(cp, finish[t->id]);
        work += wmin;
    }
    free(finish);
    double makespan = cJSON_GetObjectItem(r, "makespan")->valuedouble;
    CU_ASSERT(makespan >= cp - 1e-9);
    CU_ASSERT(makespan >= work / p - 1e-9);
}

static void test_random_dags(void)
{
    const char *policies[] = {"heft", "heft:insertion=0", "heft:rank=composite", "cpop", "peft",
                              "heft:online=1", "dmda", "heftnc",
                              "heftnc:insertion=0,abstract=semantic",
                              "heftnc:nce_weight=literal,branches=as-printed"};
    for (unsigned long seed = 1; seed <= 6; seed++) {
        int p = 2 + (int)seed % 3;
        struct hs_dag *dag = hs_test_random_costs_dag(seed, 40, p);
        struct hs_run_config cfg = hs_test_flat_config(p, NULL);
        for (size_t i = 0; i < sizeof policies / sizeof *policies; i++) {
            cJSON *r = hs_test_simulate_named(&cfg, dag, policies[i]);
            check_schedule(dag, r, p);
            double pred = cJSON_GetObjectItem(r, "predicted")->valuedouble;
            if (pred >= 0) /* static plans: simulated = predicted without contention */
                HS_ASSERT_NEAR_REL(cJSON_GetObjectItem(r, "makespan")->valuedouble, pred, 1e-9);
            cJSON_Delete(r);
        }
        hs_dag_free(dag);
    }
}

/* ---- each processor's order respects precedence ----------------------------
 * A worker that runs its tasks in a fixed order stalls when a task comes
 * before one it waits for (directly or through other workers). The orders
 * respect precedence when the DAG's edges plus each worker's chain of
 * consecutive tasks make no cycle (Kahn's walk reaches every task). Checked
 * on the offline plans (listsched.h's per-worker orders, after init) and on
 * the order in which every offline policy, DADA included, hands each worker
 * its tasks (pop), on DAGs numbered against their edges with cost-free
 * tasks, where ties in planned start are many (the DOT file of issue 54:
 * b -> a, both without cost; Snakemake's and DVC's --dag files). */

static bool orders_respect_precedence(const struct hs_dag *dag, int nworkers, int *const *order,
                                      const int *norder)
{
    int n = dag->ntasks, *indeg = hs_xcalloc((size_t)n, sizeof(int)), *next = hs_xmalloc((size_t)n * sizeof(int));
    int *stack = hs_xmalloc((size_t)n * sizeof(int)), top = 0, seen = 0;
    for (int t = 0; t < n; t++) {
        indeg[t] = dag->tasks[t].npred;
        next[t] = -1;
    }
    for (int w = 0; w < nworkers; w++)
        for (int i = 1; i < norder[w]; i++) {
            next[order[w][i - 1]] = order[w][i];
            indeg[order[w][i]]++;
        }
    for (int t = 0; t < n; t++)
        if (indeg[t] == 0)
            stack[top++] = t;
    while (top > 0) {
        int t = stack[--top];
        seen++;
        const struct hs_task *task = &dag->tasks[t];
        for (int k = 0; k < task->nsucc; k++) {
            int d = dag->edges[task->succ[k]].dst;
            if (--indeg[d] == 0)
                stack[top++] = d;
        }
        if (next[t] >= 0 && --indeg[next[t]] == 0)
            stack[top++] = next[t];
    }
    free(indeg);
    free(next);
    free(stack);
    return seen == n;
}

static const struct hs_policy *order_inner;
static char *order_file;
static int **popped, *npopped;

static void order_note(const char *line)
{
    FILE *f = fopen(order_file, "a");
    fprintf(f, "%s\n", line);
    fclose(f);
}

static int order_init(struct hs_runtime *s)
{
    int rc = order_inner->init(s), P = hs_sched_nworkers(s), V = hs_sched_dag(s)->ntasks;
    popped = hs_xcalloc((size_t)P, sizeof *popped);
    npopped = hs_xcalloc((size_t)P, sizeof *npopped);
    for (int w = 0; w < P; w++)
        popped[w] = hs_xmalloc((size_t)V * sizeof(int));
    const char *name = order_inner->name;
    if (rc == 0 && strcmp(name, "dada") != 0) {
        /* heft, cpop, peft, heftnc keep the plan as their data; cluster as the first field of
         * its own (policies/cluster.c's struct cluster_run) */
        struct hs_listsched *ls = strcmp(name, "cluster") == 0 ? *(struct hs_listsched **)hs_sched_data(s)
                                                               : hs_sched_data(s);
        order_note(orders_respect_precedence(ls->dag, ls->nworkers, ls->order, ls->norder) ? "plan ok" : "plan bad");
    }
    return rc;
}

static struct hs_task *order_pop(struct hs_runtime *s, int w)
{
    struct hs_task *t = order_inner->pop(s, w);
    if (t)
        popped[w][npopped[w]++] = t->id;
    return t;
}

static void order_fini(struct hs_runtime *s)
{
    int P = hs_sched_nworkers(s), total = 0;
    for (int w = 0; w < P; w++)
        total += npopped[w];
    order_note(total == hs_sched_dag(s)->ntasks &&
                       orders_respect_precedence(hs_sched_dag(s), P, popped, npopped)
                   ? "pop ok" : "pop bad");
    for (int w = 0; w < P; w++)
        free(popped[w]);
    free(popped);
    free(npopped);
    if (order_inner->fini)
        order_inner->fini(s);
}

/* v tasks numbered against their edges (an edge from i to j < i), every
 * third one without cost, edges of 0 or a few bytes. */
static struct hs_dag *reversed_dag(unsigned long seed, int v, int p)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    struct hs_dag *dag = hs_dag_new("reversed");
    double costs[8];
    for (int i = 0; i < v; i++) {
        for (int q = 0; q < p; q++)
            costs[q] = i % 3 == 0 ? 0 : 1 + 9 * gsl_rng_uniform(r);
        hs_dag_set_proc_costs(dag, hs_dag_add_task(dag, "k", NULL, 0, 0), costs, p);
    }
    for (int i = 0; i < v; i++)
        for (int j = 0; j < i; j++)
            if (gsl_rng_uniform(r) < 4.0 / v)
                hs_dag_add_edge(dag, i, j, gsl_rng_uniform(r) < 0.5 ? 0 : 10 * gsl_rng_uniform(r));
    gsl_rng_free(r);
    hs_dag_finalize(dag);
    return dag;
}

static void test_order_precedence(void)
{
    const char *specs[] = {"heft", "heft:insertion=0", "cpop", "peft", "heftnc", "cluster", "cluster:max=0", "dada"};
    order_file = hs_test_tmp(".txt");
    struct hs_dag *rev = hs_dag_new("g"); /* digraph g { b; a; b -> a; } */
    const double none[2] = {0, 0}; /* no cost, as the DOT reader gives them */
    hs_dag_set_proc_costs(rev, hs_dag_add_task(rev, "k", "b", 0, 0), none, 2);
    hs_dag_set_proc_costs(rev, hs_dag_add_task(rev, "k", "a", 0, 0), none, 2);
    hs_dag_add_edge(rev, 0, 1, 0);
    hs_dag_finalize(rev);
    struct hs_dag *dags[] = {rev, reversed_dag(1, 30, 2), reversed_dag(2, 40, 3), reversed_dag(3, 25, 4)};
    const int procs[] = {2, 2, 3, 4};
    for (size_t d = 0; d < sizeof dags / sizeof *dags; d++) {
        struct hs_run_config cfg = hs_test_flat_config(procs[d], NULL);
        for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
            char name[32];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(specs[i], ":"), specs[i]);
            order_inner = hs_policy_find(name);
            CU_ASSERT_PTR_NOT_NULL_FATAL(order_inner);
            struct hs_policy wrap = *order_inner;
            wrap.init = order_init;
            wrap.pop = order_pop;
            wrap.fini = order_fini;
            FILE *f = fopen(order_file, "w");
            fclose(f);
            cJSON *r = hs_test_simulate(&cfg, dags[d], &wrap, specs[i]);
            const cJSON *err = cJSON_GetObjectItem(r, "error");
            if (err)
                fprintf(stderr, "\n%s on DAG %zu: %s\n", specs[i], d, err->valuestring);
            CU_ASSERT_PTR_NULL(err);
            char *notes = hs_test_read_file(order_file);
            bool plan = strcmp(name, "dada") != 0;
            CU_ASSERT_PTR_NOT_NULL(strstr(notes, "pop ok"));
            CU_ASSERT(!plan || strstr(notes, "plan ok"));
            if (!strstr(notes, "pop ok") || (plan && !strstr(notes, "plan ok")))
                fprintf(stderr, "\n%s on DAG %zu: %s", specs[i], d, notes);
            free(notes);
            cJSON_Delete(r);
        }
    }
    for (size_t d = 0; d < sizeof dags / sizeof *dags; d++)
        hs_dag_free(dags[d]);
}

/* A chain on processors of speeds 1, 2, 4: every list scheduler keeps it on
 * the fastest one, without communication: 10 tasks of 8 flops take 20. */
static void test_chain_on_fastest(void)
{
    struct hs_dag *dag = hs_dag_new("chain");
    for (int i = 0; i < 10; i++)
        hs_dag_add_task(dag, "k", NULL, 8, 0);
    for (int i = 0; i + 1 < 10; i++)
        hs_dag_add_edge(dag, i, i + 1, 5);
    hs_dag_finalize(dag);
    const double speeds[] = {1, 2, 4};
    struct hs_run_config cfg = hs_test_flat_config(3, speeds);
    const char *policies[] = {"heft", "cpop", "peft", "heft:online=1", "dmda", "heftnc"};
    for (size_t i = 0; i < sizeof policies / sizeof *policies; i++) {
        cJSON *r = hs_test_simulate_named(&cfg, dag, policies[i]);
        CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 20, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "bytes"), 2)->valuedouble, 0, 0);
        cJSON_Delete(r);
    }
    hs_dag_free(dag);
}

/* The record's SLR definitions on Topcuoglu's example, by hand: CP_min takes
 * each task's minimum cost without communication, 9 + 13 + 12 + 7 = 41 along
 * n1 n2 n9 n10; CPIC is the longest path with mean costs and mean
 * communication, the upward rank of n1 (108, Topcuoglu's Table). Through the
 * command, from a DAG file, on flat:3 with 1 B/s links. */
static void test_slr_definitions(void)
{
    struct hs_dag *dag = hs_test_topcuoglu();
    char *file = hs_test_tmp(".json"), *out = hs_test_tmp(".json"), args[1024];
    FILE *f = fopen(file, "w");
    CU_ASSERT_EQUAL_FATAL(hs_dag_write_json(dag, f), 0);
    fclose(f);
    snprintf(args, sizeof args, "run -q -p flat:3,bw=1,lat=0 -w %s -s heft -o %s", file, out);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
    char *text = hs_test_read_file(out);
    cJSON *rec = cJSON_Parse(text), *res = cJSON_GetObjectItem(rec, "results");
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(res, "makespan")->valuedouble, 80, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(res, "cp_min")->valuedouble, 41, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(res, "slr")->valuedouble, 80.0 / 41, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(res, "cpic")->valuedouble, 108, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(res, "slr_cpic")->valuedouble, 80.0 / 108, 1e-9);
    cJSON_Delete(rec);
    free(text), free(file), free(out);
    hs_dag_free(dag);
}

/* Online HEFT's finish time, by hand on flat:2 (1 B/s, no latency, no final
 * flush). A (P1 only, 1 s) writes the 3-byte datum h; X0 keeps P0 busy until
 * 10, X1 keeps P1 busy from 1 to 11.5; B (1 s anywhere) reads h and becomes
 * ready at 1. Additive (XKaapi's, the default): P0 10 + 3 + 1 = 14 against
 * P1 11.5 + 1 = 12.5: P1, makespan 12.5. Topcuoglu: P0 max(10, 1 + 3) + 1 =
 * 11 against 12.5: P0, makespan 11.5 (X1's end). */
static void test_online_eft_forms(void)
{
    struct hs_dag *dag = hs_dag_new("eft");
    int h = hs_dag_add_handle(dag, "h", 3);
    int a = hs_test_task(dag, "A", (const double[]){-1, 1}, 2);
    hs_dag_access(dag, a, h, HS_MODE_W);
    hs_test_task(dag, "X0", (const double[]){10, -1}, 2);
    hs_test_task(dag, "X1", (const double[]){-1, 10.5}, 2);
    int b = hs_test_task(dag, "B", (const double[]){1, 1}, 2);
    hs_dag_access(dag, b, h, HS_MODE_R);
    hs_dag_finalize(dag);
    struct hs_run_config cfg = hs_test_flat_config(2, NULL);
    cfg.opts.flush = false;
    const char *policies[] = {"heft:online=1", "heft:online=1,eft=topcuoglu", "heft:online=1,eft=additive"};
    const int worker[] = {1, 0, 1};
    const double makespan[] = {12.5, 11.5, 12.5};
    for (int i = 0; i < 3; i++) {
        cJSON *r = hs_test_simulate_named(&cfg, dag, policies[i]);
        CU_ASSERT_EQUAL(field(r, "tasks", b, "worker"), worker[i]);
        CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, makespan[i], 1e-9);
        cJSON_Delete(r);
    }
    hs_dag_free(dag);
}

/* dmda's fitness and prefetch, by hand on flat:2 (1 B/s, no latency, no
 * final flush). A (P1 only, 1 s) writes the 10-byte datum h; X0 keeps P0 busy
 * until 5, X1 keeps P1 busy from 1 to 11.5; B (P0 only) and C (1 s anywhere)
 * read h and are pushed at 1, B first. B goes to P0 and, with prefetch (the
 * default), h is requested there at 1. C on P0: exp_end 5 + 1 (B) + 1 = 7 and
 * no penalty (h requested), against 11.5 + 1 = 12.5 on P1: P0; h lands at
 * 11, B runs 11-12, C 12-13: makespan 13. With prefetch=0, C on P0 costs
 * 7 + 10 = 17: P1, which ends at 12.5; B, taken by P0 at once (flat workers
 * hold two tasks), fetches h from 1 to 11 and ends at 12: makespan 12.5.
 * eft=overlap with prefetch=0: P0 max(7, 1 + 10) = 11 against 12.5: P0. */
static void test_dmda_fitness_and_prefetch(void)
{
    struct hs_dag *dag = hs_dag_new("dmda");
    int h = hs_dag_add_handle(dag, "h", 10);
    int a = hs_test_task(dag, "A", (const double[]){-1, 1}, 2);
    hs_dag_access(dag, a, h, HS_MODE_W);
    hs_test_task(dag, "X0", (const double[]){5, -1}, 2);
    hs_test_task(dag, "X1", (const double[]){-1, 10.5}, 2);
    int b = hs_test_task(dag, "B", (const double[]){1, -1}, 2);
    hs_dag_access(dag, b, h, HS_MODE_R);
    int c = hs_test_task(dag, "C", (const double[]){1, 1}, 2);
    hs_dag_access(dag, c, h, HS_MODE_R);
    hs_dag_finalize(dag);
    struct hs_run_config cfg = hs_test_flat_config(2, NULL);
    cfg.opts.flush = false;
    hs_test_no_costs(&cfg);
    const char *policies[] = {"dmda", "dmda:prefetch=0", "dmda:eft=overlap,prefetch=0"};
    const int worker[] = {0, 1, 0};
    for (int i = 0; i < 3; i++) {
        cJSON *r = hs_test_simulate_named(&cfg, dag, policies[i]);
        CU_ASSERT_EQUAL(field(r, "tasks", b, "worker"), 0);
        CU_ASSERT_EQUAL(field(r, "tasks", c, "worker"), worker[i]);
        if (i == 0)
            CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 13, 1e-9);
        if (i == 1)
            CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 12.5, 1e-9);
        cJSON_Delete(r);
    }
    hs_dag_free(dag);
}

/* The transfer factors of StarPU (2 x the GPUs in use, dmda's bus=gpus) and of
 * XKaapi 2.1 (the GPUs in use, online HEFT's comm=naccel), by hand on Idgraf's
 * GPU0 and GPU1 (no cores, no runtime costs). A (GPU0 only, 1 s) writes h
 * (100 MB); X0 (GPU0 only, 0.05 s) follows it there; C (1 s on either GPU)
 * reads h and is placed at 1, when GPU0 is busy until 1.05. On GPU0 C ends at
 * 1.05 + 1 = 2.05, no transfer. On GPU1 it ends at 1 + 1 + the estimate of h
 * staged through host memory: GPU0 -> RAM0 11.927 us + 1e8 / 6518853316 B/s
 * (gpu0_d2h, sw0_up), RAM0 -> GPU1 10.962 us + 1e8 / 5982867814 B/s (sw0_down,
 * gpu1_h2d): 0.0320748 s without a factor, so 2.0321 < 2.05: GPU1. With the
 * bytes' part doubled (naccel) 0.0641 s and 2.0641; times 4 (bus=gpus)
 * 0.1282 s and 2.1282: both > 2.05, so GPU0, makespan 2.05, nothing moved. */
static void test_transfer_factors(void)
{
    struct hs_dag *dag = hs_dag_new("factors");
    int h = hs_dag_add_handle(dag, "h", 1e8);
    int a = hs_test_task(dag, "A", (const double[]){1, -1}, 2);
    hs_dag_access(dag, a, h, HS_MODE_W);
    hs_test_task(dag, "X0", (const double[]){0.05, -1}, 2);
    int c = hs_test_task(dag, "C", (const double[]){1, 1}, 2);
    hs_dag_access(dag, c, h, HS_MODE_R);
    hs_dag_finalize(dag);
    struct hs_run_config cfg = hs_test_idgraf_config(2, 0);
    cfg.opts.flush = false;
    hs_test_no_costs(&cfg);
    const char *policies[] = {"dmda:bus=plain", "dmda", "heft:online=1",
                              "heft:online=1,comm=naccel"};
    const int worker[] = {1, 0, 1, 0};
    for (int i = 0; i < 4; i++) {
        cJSON *r = hs_test_simulate_named(&cfg, dag, policies[i]);
        CU_ASSERT_EQUAL(field(r, "tasks", c, "worker"), worker[i]);
        if (worker[i] == 0)
            CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 2.05, 1e-9);
        cJSON_Delete(r);
    }
    hs_dag_free(dag);
}

/* The plain walk the timeline's blocks must agree with: the first gap after
 * the last interval ending by `ready` that holds dur. */
static double first_fit_walk(const struct hs_timeline *tl, double ready, double dur)
{
    double t = ready;
    for (int i = 0; i < tl->n; i++) {
        if (tl->iv[i].end <= ready)
            continue;
        if (tl->iv[i].start >= t + dur)
            return t;
        if (tl->iv[i].end > t)
            t = tl->iv[i].end;
    }
    return t;
}

/* By hand on [0,2) [3,4) [10,12): 1 fits at 2, 2 at 4, 7 after 12; and on
 * 12,000 intervals (188 blocks of 64, 3 superblocks of 4,096) with random
 * gaps, where most queries cross blocks and superblocks too small to hold
 * them, the pruned search's answers equal the walk's bit for bit. */
static void test_timeline_first_fit(void)
{
    struct hs_timeline tl = {0};
    hs_timeline_insert(&tl, 10, 2, 2);
    hs_timeline_insert(&tl, 0, 2, 0);
    hs_timeline_insert(&tl, 3, 1, 1);
    CU_ASSERT_EQUAL(tl.n, 3);
    CU_ASSERT_EQUAL(tl.iv[1].task, 1);
    CU_ASSERT_DOUBLE_EQUAL(hs_timeline_first_fit(&tl, 0, 1), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_timeline_first_fit(&tl, 0, 2), 4, 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_timeline_first_fit(&tl, 0, 7), 12, 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_timeline_first_fit(&tl, 5, 5), 5, 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_timeline_first_fit(&tl, 13, 1), 13, 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_timeline_end(&tl), 12, 0);
    hs_timeline_free(&tl);

    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 19);
    double t = 0.1;
    for (int i = 0; i < 12000; i++) {
        double gap = gsl_rng_uniform(rng) < 0.01 ? 5 * gsl_rng_uniform(rng) : 0.01 * gsl_rng_uniform(rng);
        double dur = 0.1 + gsl_rng_uniform(rng);
        hs_timeline_insert(&tl, t + gap, dur, i);
        t += gap + dur;
    }
    int mismatches = 0;
    for (int q = 0; q < 12000; q++) {
        double ready = t * gsl_rng_uniform(rng), dur = 6 * gsl_rng_uniform(rng);
        if (hs_timeline_first_fit(&tl, ready, dur) != first_fit_walk(&tl, ready, dur))
            mismatches++;
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    /* an insertion into a gap keeps every block's largest gap right */
    double at = hs_timeline_first_fit(&tl, 0, 2);
    hs_timeline_insert(&tl, at, 2, -1);
    for (int q = 0; q < 2000; q++) {
        double ready = t * gsl_rng_uniform(rng), dur = 6 * gsl_rng_uniform(rng);
        if (hs_timeline_first_fit(&tl, ready, dur) != first_fit_walk(&tl, ready, dur))
            mismatches++;
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    hs_timeline_free(&tl);
    gsl_rng_free(rng);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"Topcuoglu example: upward ranks", test_topcuoglu_ranks},
        {"Topcuoglu example: HEFT schedule and makespan 80, CPOP 86", test_topcuoglu_heft},
        {"random DAGs: valid schedules, simulated = predicted", test_random_dags},
        {"a chain stays on the fastest processor", test_chain_on_fastest},
        {"each processor's order respects precedence (DAGs numbered against their edges)", test_order_precedence},
        {"SLR over CP_min and over CPIC (by hand)", test_slr_definitions},
        {"online HEFT: XKaapi's and Topcuoglu's finish times (by hand)", test_online_eft_forms},
        {"dmda: StarPU's fitness, prefetch and the overlap variant (by hand)", test_dmda_fitness_and_prefetch},
        {"StarPU's and XKaapi 2.1's transfer factors (by hand)", test_transfer_factors},
        {"timeline: first fit by hand, and the blocks agree with a plain walk", test_timeline_first_fit},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("listsched", tests);
}
