/* tests/cli/test_bm_cli.c — Beaumont and Marchal's strategies through the
 * `hetsim` command: in their own model (flat:P,bw=inf) and through the
 * runtime on platforms with a finite bandwidth; one processor receives every
 * block once in both; speeds 3 and 1 under sorted-outer receive 6 blocks
 * (by hand, test_bm_strategy.c) in both; the runtime moves exactly what a
 * dynamic strategy sends (2 blocks per step: a worker alone gets its n
 * steps); the realised-share bound is never beaten; byte-identical records
 * for a seed; drawn speeds shared by the policies of one seed; `hetsim
 * beta` against the paper's numbers; the sweep columns; and one clear line
 * with exit code 2 for each kind of bad input. */
#include "analysis/csv.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *outer_policies[] = {"random-outer", "sorted-outer", "dynamic-outer",
                                       "dynamic-outer-2phases"};
static const char *matrix_policies[] = {"random-matrix", "sorted-matrix", "dynamic-matrix",
                                        "dynamic-matrix-2phases"};

static double num(const cJSON *rec, const char *a, const char *b)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(rec, a), b);
    return cJSON_IsNumber(o) ? o->valuedouble : NAN;
}

static double products(const cJSON *rec, const char *key)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(rec, "results"), "products");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *engine(const cJSON *rec)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(rec, "engine");
    return cJSON_IsString(e) ? e->valuestring : "";
}

/* One processor: every block once (2n, 3n²), in the model and the runtime. */
static void test_one_processor(void)
{
    static const char *platforms[] = {"flat:1,bw=inf", "flat:1,bw=1G"};
    char args[256];
    for (int pf = 0; pf < 2; pf++)
        for (int i = 0; i < 4; i++)
            for (int dim = 2; dim <= 3; dim++) {
                snprintf(args, sizeof args, "-p %s -w %s -s %s", platforms[pf],
                         dim == 2 ? "outer:n=7" : "matmul:n=4", dim == 2 ? outer_policies[i] : matrix_policies[i]);
                cJSON *rec = hs_test_run_record(args);
                CU_ASSERT_STRING_EQUAL(engine(rec), pf == 0 ? "model" : "simgrid");
                CU_ASSERT_DOUBLE_EQUAL(products(rec, "blocks"), dim == 2 ? 14 : 48, 1e-9);
                CU_ASSERT_DOUBLE_EQUAL(num(cJSON_GetObjectItem(rec, "results"), "transfers", "h2d"),
                                       dim == 2 ? 14 : 48, 1e-9);
                CU_ASSERT_DOUBLE_EQUAL(products(rec, "ratio"), 1, 1e-12); /* LB = 2n, 3n² */
                cJSON_Delete(rec);
            }
}

/* Speeds 3 and 1, n = 2, sorted-outer: 6 blocks whatever the order at time
 * 0 (hand count in test_bm_strategy.c); in the runtime with one task in
 * flight per processor (the paper's "ask when done") as well. */
static void test_sorted_two_speeds(void)
{
    for (int seed = 1; seed <= 4; seed++) {
        char args[256];
        snprintf(args, sizeof args, "-p flat:2,bw=inf,speeds=3G:1G -w outer:n=2 -s sorted-outer --seed %d", seed);
        cJSON *rec = hs_test_run_record(args);
        CU_ASSERT_DOUBLE_EQUAL(products(rec, "blocks"), 6, 0);
        cJSON_Delete(rec);
        snprintf(args, sizeof args, "-p flat:2,bw=100G,speeds=3G:1G -w outer:n=2 -s sorted-outer --window 1 --seed %d",
                 seed);
        rec = hs_test_run_record(args);
        CU_ASSERT_DOUBLE_EQUAL(products(rec, "blocks"), 6, 0);
        cJSON_Delete(rec);
    }
}

/* Per worker: tasks, and the realised-share bound Σ 2√T_k (Σ 3 T_k^{2/3}). */
static double realised_bound(const cJSON *rec, int dim)
{
    double bound = 0;
    const cJSON *w;
    cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(rec, "workers"))
    {
        double t = cJSON_GetObjectItemCaseSensitive(w, "tasks")->valuedouble;
        bound += dim * pow(t, (dim - 1.0) / dim);
    }
    return bound;
}

/* Both settings: every task runs once, the bound is never beaten, random and
 * sorted send no block twice; on a real platform the volume stays in the
 * model's range (the decisions are the same, the timing is not). */
static void test_bounds_both_settings(void)
{
    static const char *platforms[] = {"flat:6,bw=inf,scenario=u10-100", "flat:6,bw=2G,scenario=u10-100",
                                      "idgraf --gpus 4 --cpus 2"};
    char args[256];
    for (int pf = 0; pf < 3; pf++)
        for (int i = 0; i < 4; i++)
            for (int dim = 2; dim <= 3; dim++) {
                snprintf(args, sizeof args, "-p %s -w %s -s %s --seed 5", platforms[pf],
                         dim == 2 ? "outer:n=20" : "matmul:n=6", dim == 2 ? outer_policies[i] : matrix_policies[i]);
                cJSON *rec = hs_test_run_record(args);
                double blocks = products(rec, "blocks"), tasks = num(rec, "results", "tasks");
                CU_ASSERT_DOUBLE_EQUAL(tasks, dim == 2 ? 400 : 216, 0);
                if (pf < 2) /* on Idgraf the cores compute in host memory: nothing to send them */
                    CU_ASSERT_TRUE(blocks >= realised_bound(rec, dim) - 1e-9);
                if (i < 2)
                    CU_ASSERT_TRUE(blocks <= (dim == 2 ? 2 * 20 * 6 : 3 * 36 * 6));
                CU_ASSERT_TRUE(products(rec, "ratio") > (pf == 2 ? 0.3 : 1));
                cJSON_Delete(rec);
            }
}

/* The runtime moves what the strategy sends: a lone dynamic worker takes n
 * steps of 2 blocks (3(2y+1)) each, i.e. 2n (3n²) transfers; with 3 workers
 * dynamic-outer sends 2 blocks per step, an even count. */
static void test_runtime_sends_strategy_blocks(void)
{
    cJSON *rec = hs_test_run_record("-p flat:3,bw=1G -w outer:n=40 -s dynamic-outer");
    double h2d = num(cJSON_GetObjectItem(rec, "results"), "transfers", "h2d");
    CU_ASSERT_EQUAL(fmod(h2d, 2), 0);
    CU_ASSERT_DOUBLE_EQUAL(products(rec, "blocks"), h2d, 0);
    cJSON_Delete(rec);
}

/* Same inputs and seed: byte-identical records (model and runtime); the
 * policies of one seed meet the same drawn speeds, another seed others. */
static void test_determinism_and_draws(void)
{
    static const char *runs[] = {"-p flat:5,bw=inf,scenario=set.5 -w outer:n=40 -s dynamic-outer-2phases",
                                 "-p flat:5,bw=1G,spread=0.5G -w matmul:n=6 -s dynamic-matrix"};
    for (int r = 0; r < 2; r++) {
        char *a = hs_test_tmp(".json"), *b = hs_test_tmp(".json"), cmd[512];
        snprintf(cmd, sizeof cmd, "run -q %s --seed 3 -o %s", runs[r], a);
        CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, NULL), 0);
        snprintf(cmd, sizeof cmd, "run -q %s --seed 3 -o %s", runs[r], b);
        CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, NULL), 0);
        char *ta = hs_test_read_file(a), *tb = hs_test_read_file(b);
        CU_ASSERT(strlen(ta) > 100);
        CU_ASSERT_STRING_EQUAL(ta, tb);
        free(ta), free(tb), remove(a), remove(b), free(a), free(b);
    }
    cJSON *x = hs_test_run_record("-p flat:4,bw=inf,scenario=unif.2 -w outer:n=10 -s random-outer --seed 8");
    cJSON *y = hs_test_run_record("-p flat:4,bw=inf,scenario=unif.2 -w outer:n=10 -s dynamic-outer --seed 8");
    cJSON *z = hs_test_run_record("-p flat:4,bw=inf,scenario=unif.2 -w outer:n=10 -s dynamic-outer --seed 9");
    CU_ASSERT_DOUBLE_EQUAL(products(x, "lower_bound"), products(y, "lower_bound"), 0);
    CU_ASSERT_TRUE(products(y, "lower_bound") != products(z, "lower_bound"));
    const cJSON *w;
    cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(z, "workers"))
    {
        double s = cJSON_GetObjectItemCaseSensitive(w, "speed")->valuedouble;
        CU_ASSERT_TRUE(s >= 50e9 && s <= 150e9); /* unif.2: U[50, 150] Gflop/s */
    }
    cJSON_Delete(x), cJSON_Delete(y), cJSON_Delete(z);
}

/* `hetsim ARGS` succeeds and prints every one of the NULL-terminated lines. */
static void prints(const char *args, const char *const *expect)
{
    char *out;
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    for (; *expect; expect++) {
        if (!strstr(out, *expect))
            fprintf(stderr, "\n`hetsim %s` does not print '%s'\n", args, *expect);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, *expect));
    }
    free(out);
}

/* The model's record of a two-phase run: β* of the run's speeds, the share
 * of Phase 1, the analysis; beta=estimate is the paper's 4.1705 (in the
 * summary too); phase2= sets the threshold directly; a fixed beta is kept. */
static void test_twophase_record(void)
{
    cJSON *rec = hs_test_run_record("-p flat:20,bw=inf -w outer:n=100 -s dynamic-outer-2phases:beta=estimate");
    CU_ASSERT_DOUBLE_EQUAL(products(rec, "beta"), 4.170547, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(products(rec, "analysis"), 2.123366, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(products(rec, "phase1_share"), 1 - exp(-4.170547), 1e-6);
    CU_ASSERT_TRUE(fabs(products(rec, "ratio") / products(rec, "analysis") - 1) < 0.05);
    cJSON_Delete(rec);
    rec = hs_test_run_record("-p flat:20,bw=inf -w outer:n=100 -s dynamic-outer-2phases:phase2=0.05");
    CU_ASSERT_DOUBLE_EQUAL(products(rec, "beta"), -log(0.05), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(products(rec, "phase1_share"), 0.95, 1e-12);
    cJSON_Delete(rec);
    prints("run -p flat:20,bw=inf -w outer:n=100 -s dynamic-outer-2phases:beta=estimate",
           (const char *const[]){"lower bound 894.4, ratio ", "beta 4.1705 (closed form), predicted ratio 2.1234",
                                 NULL});
    rec = hs_test_run_record("-p flat:20,bw=1G -w outer:n=50 -s dynamic-outer-2phases:beta=3.5");
    CU_ASSERT_STRING_EQUAL(engine(rec), "simgrid");
    CU_ASSERT_TRUE(products(rec, "ratio") > 1);
    cJSON_Delete(rec);
}

/* `hetsim beta`: the paper's 4.1705 and 2.92, the ODE check, a draw, the
 * spread over draws, and the grid's summary beside the paper. */
static void test_beta_command(void)
{
    prints("beta outer --p 20 --n 100",
           (const char *const[]){"beta*                4.170547", "predicted ratio      2.123366",
                                 "lower bound          894.43 blocks", "ODE check", "4.366498", NULL});
    prints("beta matmul --p 100 --n 40", (const char *const[]){"beta*                2.915811", NULL});
    prints("beta matmul --p 10 --n 40", (const char *const[]){"none: F(beta) has no interior minimum",
                                                              "beta=auto uses       3.882995", NULL});
    prints("beta outer --p 3 --n 50 --speeds 10:20:70 --beta 2", (const char *const[]){"at beta = 2: F =", NULL});
    prints("beta outer --p 20 --n 100 --speeds u10-100 --draws 30",
           (const char *const[]){"beta* over draws     mean 4.16", NULL});
    prints("beta outer --grid --draws 5",
           (const char *const[]){"paper: from 1 to 6.2", "paper: always below 5%", NULL});
}

/* The sweep columns of these runs, and the policies listed. */
static void test_sweep_and_listing(void)
{
    char *csv = hs_test_tmp(".csv"), cmd[512];
    snprintf(cmd, sizeof cmd,
             "sweep -q -j 1 -p flat:4,bw=inf -w outer:n=20 --vary policy=sorted-outer,dynamic-outer-2phases -o %s",
             csv);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, NULL), 0);
    char *text = hs_test_read_file(csv);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, ",blocks,lower_bound,comm_ratio,analysis_ratio,beta_used,phase1_share,"));
    free(text), remove(csv), free(csv);
    prints("policies", (const char *const[]){"dynamic-matrix-2phases", "beta=auto", NULL});
}

/* A plot of the sweep with the analysis overlaid: its own dashed data block
 * holds the two-phase policy's analysis_ratio only, sd error bars. */
static void test_plot_overlay(void)
{
    char *csv = hs_test_tmp(".csv"), *png = hs_test_tmp(".png"), *gp = hs_test_tmp(".gp"), cmd[1024];
    snprintf(cmd, sizeof cmd,
             "sweep -q -j 2 -p flat:4,bw=inf -w outer:n=20 --vary policy=sorted-outer,dynamic-outer-2phases "
             "--reps 3 -o %s", csv);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, NULL), 0);
    snprintf(cmd, sizeof cmd, "plot %s -x policy -y comm_ratio --overlay analysis_ratio --sd -o %s --script %s",
             csv, png, gp);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, NULL), 0);
    char *script = hs_test_read_file(gp);
    /* categories in order: dynamic-outer-2phases (0), sorted-outer (1); one
     * curve, whose overlay block has the one point of the two-phase policy */
    const char *block = strstr(script, "$o0 << EOD\n0 ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(block);
    const char *first = strchr(block, '\n') + 1, *second = strchr(first, '\n') + 1;
    CU_ASSERT_EQUAL(strncmp(second, "EOD\n", 4), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "dt 2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "comm_ratio (mean, sd)"));
    free(script);
    remove(csv), remove(png), remove(gp), free(csv), free(png), free(gp);
}

/* Every shipped study of the paper is a valid sweep (its runs listed), and
 * three of them (one per kind) run in their --quick version: every row ok,
 * their plots drawn, and the beta study prints the paper's numbers. */
static void test_studies_quick(void)
{
    static const char *all[] = {"beaumont-outer-n100", "beaumont-outer-n1000", "beaumont-outer-threshold",
                                "beaumont-outer-beta", "beaumont-outer-heterogeneity", "beaumont-outer-scenarios",
                                "beaumont-matrix-n40", "beaumont-matrix-n100", "beaumont-matrix-beta",
                                "beaumont-real-outer", "beaumont-real-matrix"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "sweep --study %s --dry-run", all[i]);
        CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, NULL), 0);
    }
    static const char *studies[] = {"beaumont-outer-beta", "beaumont-matrix-n40", "beaumont-real-outer"};
    for (size_t i = 0; i < sizeof studies / sizeof studies[0]; i++) {
        long n;
        char *out = hs_test_quick_study(studies[i], &n);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "plot: "));
        if (strstr(studies[i], "-beta")) {
            CU_ASSERT_PTR_NOT_NULL(strstr(out, "published values beside ours"));
            CU_ASSERT_PTR_NOT_NULL(strstr(out, strstr(studies[i], "outer") ? "4.1705" : "2.92"));
        }
        CU_ASSERT(n > 0);
        free(out);
    }
}


static void test_bad_input(void)
{
    hs_test_bad_cli("run -p flat:2,bw=inf -w matmul:n=3 -s dynamic-outer", "policy dynamic-outer needs the outer workload");
    hs_test_bad_cli("run -p flat:2,bw=1G -w cholesky:n=1024,nb=512 -s dynamic-outer",
        "policy dynamic-outer: DAG 'cholesky:n=1024,nb=512,precision=d,setarch=0,pardiag=0' is not an outer "
        "product of 2 blocks");
    hs_test_bad_cli("run -p flat:2,bw=inf -w outer:n=3 -s dynamic-outer-2phases:beta=soon",
        "parameter beta: 'soon' is not a number or one of auto|estimate");
    hs_test_bad_cli("run -p flat:2,bw=inf -w outer:n=3 -s dynamic-outer-2phases:phase2=2", "phase2: 2 is outside the allowed range");
    hs_test_bad_cli("run -p flat:2,bw=inf -w outer:n=3 -s sorted-outer:order=ik", "'ik' is not one of ij|ji");
    hs_test_bad_cli("run -p flat:2,bw=1G,drift=0.05 -w outer:n=3 -s dynamic-outer", "drift (speeds that change");
    hs_test_bad_cli("run -p flat:2,bw=inf,speed=1G,spread=2G -w outer:n=3 -s random-outer", "spread 2e+09 exceeds speed");
    hs_test_bad_cli("run -p flat:2,bw=inf,scenario=dyn.5,spread=1 -w outer:n=3 -s random-outer", "scenario=dyn.5 sets the speeds");
    hs_test_bad_cli("run -p flat:2,bw=inf,scenario=fast -w outer:n=3 -s random-outer", "'fast' is not one of none|u10-100");
    hs_test_bad_cli("run -p flat:2,bw=inf,choices=1G:x -w outer:n=3 -s random-outer", "choices: 'x' is not a positive speed");
    hs_test_bad_cli("run -p flat:2,bw=inf,choices=:: -w outer:n=3 -s random-outer", "choices: '::' lists no speed");
    hs_test_bad_cli("run -p flat:2,bw=inf -w outer:n=3 -s random-outer --noise 0.1", "has no noise");
    hs_test_bad_cli("run -p flat:2,bw=inf -w outer:n=3 -s random-outer --trace t.csv", "keeps no per-task trace");
    /* the other traces too, which the model used to leave unwritten with exit 0 */
    hs_test_bad_cli("run -p flat:2,bw=inf -w outer:n=3 -s random-outer --chrome-trace t.json",
                    "--chrome-trace: Beaumont and Marchal's model (flat with bw=inf) keeps no per-task trace");
    hs_test_bad_cli("run -p flat:2,bw=inf -w outer:n=3 -s random-outer --tasks-rec t.rec",
                    "--tasks-rec: Beaumont and Marchal's model (flat with bw=inf) keeps no per-task trace");
    hs_test_bad_cli("beta outer --n 10", "--p and --n are required");
    hs_test_bad_cli("beta cube --p 2 --n 10", "give the problem, outer or matmul");
    hs_test_bad_cli("beta outer --p 2 --n 10 --speeds 1:2:3", "speeds lists 3 values but p=2");
    hs_test_bad_cli("beta outer --p 2 --n 10 --speeds bogus", "'bogus' is not one of none|u10-100");
    hs_test_bad_cli("beta outer --p 2 --n 10 --draws 5", "--draws needs drawn speeds");
    hs_test_bad_cli("beta outer --p 2 --n 10 --speeds 1:2 --draws 5", "--draws needs drawn speeds");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"one processor: every block once, model and runtime", test_one_processor},
        {"sorted-outer, speeds 3 and 1: 6 blocks, model and runtime", test_sorted_two_speeds},
        {"both settings: every task once, bounds", test_bounds_both_settings},
        {"the runtime moves the strategy's blocks", test_runtime_sends_strategy_blocks},
        {"determinism and speed draws", test_determinism_and_draws},
        {"two-phase record: beta, analysis, phase2", test_twophase_record},
        {"hetsim beta", test_beta_command},
        {"sweep columns and policy listing", test_sweep_and_listing},
        {"plot: the analysis overlaid, sd error bars", test_plot_overlay},
        {"the paper's studies, quick versions", test_studies_quick},
        {"bad input: one line, exit 2", test_bad_input},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("bm_cli", tests);
}
