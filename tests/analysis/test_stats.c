/* tests/analysis/test_stats.c — the statistics and the pieces of the sweep
 * engine that need no simulation: mean, standard deviation and Student-t
 * confidence intervals against values computed by hand, pairwise counts,
 * `hetsim summarize` end to end on a hand-written CSV, CSV reading (quotes,
 * an interrupted last line), FNV-1a against its published test vectors, the
 * order of the grid, value lists and ranges. */
#include "analysis/csv.h"
#include "analysis/published.h"
#include "analysis/stats.h"
#include "analysis/sweep.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Student t quantiles t(0.975, df) from printed tables: df 1: 12.706,
 * df 3: 3.182, df 4: 2.776. */
static void test_mean_sd_ci(void)
{
    struct hs_stat s;
    double a[] = {1, 2, 3, 4};
    hs_stat_compute(a, 4, &s);
    CU_ASSERT_EQUAL(s.n, 4);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 2.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.median, 2.5, 1e-12); /* even count: midway between 2 and 3 */
    /* deviations -1.5 -0.5 0.5 1.5: squares sum to 5, variance 5/3 */
    CU_ASSERT_DOUBLE_EQUAL(s.sd, sqrt(5.0 / 3.0), 1e-12);
    /* 3.182 * 1.29099 / 2 = 2.0540 (2.0543 with t to more digits) */
    HS_ASSERT_NEAR_REL(s.ci95, 3.182 * sqrt(5.0 / 3.0) / 2, 2e-4);

    double b[] = {10, 14};
    hs_stat_compute(b, 2, &s);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 12, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.sd, sqrt(8.0), 1e-12);
    HS_ASSERT_NEAR_REL(s.ci95, 12.706 * sqrt(8.0) / sqrt(2.0), 1e-4); /* 25.41 */

    double c[] = {2, 2, 5, 1, 7};
    hs_stat_compute(c, 5, &s); /* mean 17/5; squares 1.96 1.96 2.56 5.76 12.96 = 25.2; var 6.3 */
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 3.4, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.median, 2, 0); /* sorted 1 2 2 5 7 */
    CU_ASSERT_DOUBLE_EQUAL(s.sd, sqrt(6.3), 1e-12);
    HS_ASSERT_NEAR_REL(s.ci95, 2.776 * sqrt(6.3) / sqrt(5.0), 2e-4);

    double one[] = {7};
    hs_stat_compute(one, 1, &s);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 7, 0);
    CU_ASSERT(isnan(s.sd) && isnan(s.ci95));
    hs_stat_compute(one, 0, &s);
    CU_ASSERT(isnan(s.mean));
}

static void test_compare(void)
{
    CU_ASSERT_EQUAL(hs_compare_values(1, 2, true), -1);
    CU_ASSERT_EQUAL(hs_compare_values(1, 2, false), 1);
    CU_ASSERT_EQUAL(hs_compare_values(2, 2 * (1 + 1e-12), true), 0);
    CU_ASSERT_EQUAL(hs_compare_values(3, 2, true), 1);
}

/* Groups A and B ran instances i1..i4 (B's i5 failed); a makespan of
 * A: 1 2 3 4, B: 2 2 5 1. A against B: i1 better, i2 equal, i3 better,
 * i4 worse. B: mean 2.5, squares 0.25 0.25 6.25 2.25 -> variance 3. */
static const char *hand_csv =
    "key,instance,policy,status,error,makespan,gflops\n"
    "k1,01,A,ok,,1,10\n"
    "k2,02,A,ok,,2,20\n"
    "k3,03,A,ok,,3,30\n"
    "k4,04,A,ok,,4,40\n"
    "k5,01,B,ok,,2,15\n"
    "k6,02,B,ok,,2,20\n"
    "k7,03,B,ok,,5,35\n"
    "k8,04,B,ok,,1,\n"
    "k9,05,B,error,\"run failed: x, y\",,\n";

static void test_groups_and_pairs(void)
{
    struct hs_csv csv;
    CU_ASSERT_EQUAL_FATAL(hs_csv_parse(hand_csv, strlen(hand_csv), "hand.csv", &csv), 0);
    char *by[] = {"policy"};
    struct hs_groups gs;
    char *twice[] = {"policy", "status", "policy"}; /* a column twice: refused */
    CU_ASSERT_EQUAL(hs_groups_make(&csv, "hand.csv", twice, 3, &gs), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "column 'policy' is named twice"));
    CU_ASSERT_EQUAL_FATAL(hs_groups_make(&csv, "hand.csv", by, 1, &gs), 0);
    CU_ASSERT_EQUAL_FATAL(gs.n, 2);
    CU_ASSERT_STRING_EQUAL(gs.g[0].values[0], "A");
    CU_ASSERT_EQUAL(gs.g[1].nrows, 4);
    CU_ASSERT_EQUAL(gs.g[1].failed, 1);
    double v[16];
    CU_ASSERT_EQUAL(hs_group_values(&csv, "hand.csv", &gs.g[1], 6, v), 3); /* one gflops empty */
    struct hs_pair *pairs;
    int n;
    CU_ASSERT_EQUAL_FATAL(hs_pairwise(&csv, "hand.csv", &gs, 5, true, &pairs, &n), 0);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(pairs[0].common, 4);
    CU_ASSERT_EQUAL(pairs[0].better, 2);
    CU_ASSERT_EQUAL(pairs[0].equal, 1);
    CU_ASSERT_EQUAL(pairs[0].worse, 1);
    free(pairs);
    /* gflops, higher is better, 3 common: i1 10<15 worse, i2 equal, i3 30<35 worse */
    CU_ASSERT_EQUAL_FATAL(hs_pairwise(&csv, "hand.csv", &gs, 6, false, &pairs, &n), 0);
    CU_ASSERT_EQUAL(pairs[0].common, 3);
    CU_ASSERT_EQUAL(pairs[0].worse, 2);
    CU_ASSERT_EQUAL(pairs[0].equal, 1);
    free(pairs);
    hs_groups_free(&gs);
    hs_csv_free(&csv);
}

static double field(const struct hs_csv *csv, long row, const char *col)
{
    return atof(csv->rows[row][hs_csv_col(csv, col)]);
}

static void test_summarize_command(void)
{
    char *in = hs_test_tmp(".csv"), *out = hs_test_tmp(".csv"), *pairs = hs_test_tmp(".csv");
    hs_test_write_file(in, hand_csv);
    char args[1024], *text;
    snprintf(args, sizeof args, "summarize %s --by policy --metrics makespan,gflops --csv %s --pairwise-csv %s",
             in, out, pairs);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, &text, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "policy  metric"));
    free(text);
    struct hs_csv s;
    CU_ASSERT_EQUAL_FATAL(hs_csv_read(out, &s), 0);
    CU_ASSERT_EQUAL_FATAL(s.nrows, 4); /* A, B x makespan, gflops */
    /* row 2: B makespan */
    CU_ASSERT_STRING_EQUAL(s.rows[2][0], "B");
    CU_ASSERT_STRING_EQUAL(s.rows[2][1], "makespan");
    CU_ASSERT_DOUBLE_EQUAL(field(&s, 2, "n"), 4, 0);
    CU_ASSERT_DOUBLE_EQUAL(field(&s, 2, "failed"), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(field(&s, 2, "mean"), 2.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(field(&s, 2, "sd"), sqrt(3.0), 1e-9);
    HS_ASSERT_NEAR_REL(field(&s, 2, "ci95"), 3.182 * sqrt(3.0) / 2, 2e-4);
    /* row 3: B gflops 15 20 35: mean 70/3, squares 69.44 11.11 136.11 -> variance 108.33 */
    CU_ASSERT_DOUBLE_EQUAL(field(&s, 3, "n"), 3, 0);
    CU_ASSERT_DOUBLE_EQUAL(field(&s, 3, "mean"), 70.0 / 3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(field(&s, 3, "sd"), sqrt(325.0 / 3), 1e-9);
    hs_csv_free(&s);
    CU_ASSERT_EQUAL_FATAL(hs_csv_read(pairs, &s), 0);
    CU_ASSERT_EQUAL_FATAL(s.nrows, 1);
    CU_ASSERT_STRING_EQUAL(s.rows[0][1], "policy=A");
    CU_ASSERT_DOUBLE_EQUAL(field(&s, 0, "better"), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(field(&s, 0, "equal"), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(field(&s, 0, "worse"), 1, 0);
    hs_csv_free(&s);
    free(in), free(out), free(pairs);
}

/* The printed table shows bytes and seconds in units chosen from the data,
 * as the plots do (2 GiB and 3 GiB: mean 2.5 GiB; 2 ms and 4 ms: 3 ms); the
 * CSV files keep raw bytes and seconds. */
static void test_summarize_units(void)
{
    char *in = hs_test_tmp(".csv"), *out = hs_test_tmp(".csv"), args[1024], *text;
    hs_test_write_file(in, "key,instance,policy,status,error,makespan,bytes_total\n"
                           "k1,01,A,ok,,0.002,2147483648\n"
                           "k2,02,A,ok,,0.004,3221225472\n");
    snprintf(args, sizeof args, "summarize %s --by policy --metrics bytes_total,makespan --csv %s", in, out);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, &text, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "bytes_total (GiB)  2       0   2.5     2.5"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "makespan (ms)      2       0     3       3"));
    free(text);
    struct hs_csv s;
    CU_ASSERT_EQUAL_FATAL(hs_csv_read(out, &s), 0);
    CU_ASSERT_STRING_EQUAL(s.rows[0][1], "bytes_total");
    CU_ASSERT_DOUBLE_EQUAL(field(&s, 0, "mean"), 2684354560.0, 1e-3);
    CU_ASSERT_STRING_EQUAL(s.rows[1][1], "makespan");
    CU_ASSERT_DOUBLE_EQUAL(field(&s, 1, "mean"), 0.003, 1e-15);
    hs_csv_free(&s);
    free(in), free(out);
}

static void test_csv(void)
{
    const char *text = "a,b,c\n1,\"x, \"\"y\"\"\",3\n\n4,5,6\n7,8";
    struct hs_csv csv;
    CU_ASSERT_EQUAL_FATAL(hs_csv_parse(text, strlen(text), "t.csv", &csv), 0);
    CU_ASSERT_EQUAL(csv.ncols, 3);
    CU_ASSERT_EQUAL_FATAL(csv.nrows, 2);
    CU_ASSERT_STRING_EQUAL(csv.rows[0][1], "x, \"y\"");
    CU_ASSERT_STRING_EQUAL(csv.rows[1][2], "6");
    CU_ASSERT(csv.partial);
    CU_ASSERT_EQUAL(csv.complete, strlen(text) - 3); /* "7,8" dropped */
    hs_csv_free(&csv);
    const char *bad = "a,b\n1,2,3\n";
    CU_ASSERT_EQUAL(hs_csv_parse(bad, strlen(bad), "bad.csv", &csv), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "bad.csv:2: 3 fields, the header has 2"));
    struct hs_buf b = {0};
    char *fields[] = {"plain", "with,comma", "with\"quote"};
    hs_csv_line(&b, fields, 3);
    CU_ASSERT_STRING_EQUAL(hs_buf_str(&b), "plain,\"with,comma\",\"with\"\"quote\"\n");
    hs_buf_free(&b);
}

/* Published FNV-1a 64 test vectors (Fowler, Noll, Vo). */
static void test_fnv(void)
{
    CU_ASSERT_EQUAL(hs_fnv1a64("", 0, HS_FNV_OFFSET), 0xcbf29ce484222325ULL);
    CU_ASSERT_EQUAL(hs_fnv1a64("a", 1, HS_FNV_OFFSET), 0xaf63dc4c8601ec8cULL);
    CU_ASSERT_EQUAL(hs_fnv1a64("foobar", 6, HS_FNV_OFFSET), 0x85944171f73967e8ULL);
    struct hs_sweep_id x, y, z;
    hs_sweep_ident("p=1\npolicy=a\n", "p=1\n", 0, 1, &x);
    hs_sweep_ident("p=1\npolicy=b\n", "p=1\n", 0, 1, &y);
    hs_sweep_ident("p=1\npolicy=a\n", "p=1\n", 1, 1, &z);
    CU_ASSERT(x.key != y.key);
    CU_ASSERT_EQUAL(x.instance, y.instance); /* only the policy differs: same seed */
    CU_ASSERT_EQUAL(x.seed, y.seed);
    CU_ASSERT(x.seed != z.seed); /* another repetition */
    CU_ASSERT(x.seed >= 1 && x.seed <= 4294967295UL);
}

static void test_grid_and_values(void)
{
    char **v;
    int n = hs_sweep_split_values("1..3", &v);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_STRING_EQUAL(v[2], "3");
    struct hs_sweep_axis axes[2] = {{"a", n, v}, {"b", 0, NULL}};
    axes[1].n = hs_sweep_split_values("dmda:beta=0,gamma=1; heft", &axes[1].values);
    CU_ASSERT_EQUAL_FATAL(axes[1].n, 2);
    CU_ASSERT_STRING_EQUAL(axes[1].values[0], "dmda:beta=0,gamma=1");
    CU_ASSERT_STRING_EQUAL(axes[1].values[1], "heft");
    struct hs_grid g = {2, axes, 2};
    CU_ASSERT_EQUAL(hs_grid_size(&g), 12);
    int choice[2], rep;
    hs_grid_point(&g, 7, choice, &rep); /* 7 = ((1 * 2) + 1) * 2 + 1 */
    CU_ASSERT_EQUAL(choice[0], 1);
    CU_ASSERT_EQUAL(choice[1], 1);
    CU_ASSERT_EQUAL(rep, 1);
    CU_ASSERT_EQUAL(hs_sweep_split_values("1,,2", &v), -1);
    CU_ASSERT_EQUAL(hs_sweep_split_values("5..2", &v), -1);
    /* a value's own parameters split off at its commas: refused, not run as values */
    CU_ASSERT_EQUAL(hs_sweep_split_values("cholesky:n=2048,nb=512", &v), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "'nb=512' reads as a parameter of 'cholesky:n=2048'"));
    CU_ASSERT_EQUAL(hs_sweep_split_values("flat:4,bw=1G", &v), -1);
    axes[0].name = NULL; /* not allocated */
    for (int a = 0; a < 2; a++) {
        for (int i = 0; i < axes[a].n; i++)
            free(axes[a].values[i]);
        free(axes[a].values);
    }
}

/* Published figures: mean, median and sd over matching ok rows, and the
 * pairwise percentages of heftnc against heft instance by instance. By hand:
 * ccr=5 rows: heftnc slr 1, 2, 4 (instances a, b, c) and heft 2, 2, 3; the
 * error row (instance d) is left out. heftnc better on a, equal on b, worse
 * on c: 33.3% each; mean 7/3, median 2, sd sqrt(7/3). */
static void test_published_values(void)
{
    static const char text[] = "instance,policy,ccr,status,slr\n"
                               "a,heftnc,5,ok,1\nb,heftnc,5,ok,2\nc,heftnc,5,ok,4\nd,heftnc,5,error,\n"
                               "a,heft,5,ok,2\nb,heft,5,ok,2\nc,heft,5,ok,3\nd,heft,5,ok,9\n"
                               "a,heftnc,10,ok,50\na,heft,10,ok,60\n";
    struct hs_csv csv;
    CU_ASSERT_EQUAL_FATAL(hs_csv_parse(text, sizeof text - 1, "hand.csv", &csv), 0);
    struct hs_study_kv where[] = {{"policy", "heftnc"}, {"ccr", "5"}}, versus[] = {{"policy", "heft"}};
    struct hs_study_ref r = {.where = where, .nwhere = 2, .metric = "slr", .scale = 1};
    struct hs_stat s;
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "hand.csv", &r, &s), 0);
    CU_ASSERT_EQUAL(s.n, 3);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 7.0 / 3, 1e-12);
    r.stat = "median";
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "hand.csv", &r, &s), 0);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 2, 1e-12);
    r.stat = "sd"; /* deviations -4/3 -1/3 5/3: squares 42/9, over 2 */
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "hand.csv", &r, &s), 0);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, sqrt(7.0 / 3), 1e-12);
    r.versus = versus, r.nversus = 1;
    const char *pct[] = {"better_pct", "equal_pct", "worse_pct"};
    for (int i = 0; i < 3; i++) {
        r.stat = (char *)pct[i];
        CU_ASSERT_EQUAL(hs_published_ours(&csv, "hand.csv", &r, &s), 0);
        CU_ASSERT_EQUAL(s.n, 3);
        CU_ASSERT_DOUBLE_EQUAL(s.mean, 100.0 / 3, 1e-9);
    }
    r.stat = "gain_pct"; /* heft's mean over ccr=5 is (2 + 2 + 3 + 9) / 4 = 4: (4 - 7/3) / 4 */
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "hand.csv", &r, &s), 0);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 100 * (4 - 7.0 / 3) / 4, 1e-9);
    r.stat = "ratio"; /* heft's mean over heftnc's: 4 / (7/3) */
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "hand.csv", &r, &s), 0);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 12.0 / 7, 1e-12);
    r.value = 1.5, r.tolerance = NAN; /* 12/7 = 1.714...: a figure with no tolerance is met only exactly */
    CU_ASSERT_FALSE(hs_published_met(&r, s.mean));
    r.tolerance = 0.15; /* |1.714 - 1.5| / 1.5 = 14.3% */
    CU_ASSERT_TRUE(hs_published_met(&r, s.mean));
    r.tolerance = 0.14;
    CU_ASSERT_FALSE(hs_published_met(&r, s.mean));
    r.bound = "lower", r.tolerance = NAN; /* at least 1.5 */
    CU_ASSERT_TRUE(hs_published_met(&r, s.mean));
    r.bound = "upper"; /* at most 1.5; with 15% slack, at most 1.725 */
    CU_ASSERT_FALSE(hs_published_met(&r, s.mean));
    r.tolerance = 0.15;
    CU_ASSERT_TRUE(hs_published_met(&r, s.mean));
    /* strict: a difference the paper claims; a tie is none, nor is one within the tolerance */
    r.value = 12.0 / 7, r.tolerance = NAN, r.bound = "lower";
    CU_ASSERT_TRUE(hs_published_met(&r, s.mean));
    r.strict = true;
    CU_ASSERT_FALSE(hs_published_met(&r, s.mean));
    r.value = 1.6, r.tolerance = 0.05; /* above 1.68: 1.714 is */
    CU_ASSERT_TRUE(hs_published_met(&r, s.mean));
    r.tolerance = 0.075; /* above 1.72: 1.714 is not */
    CU_ASSERT_FALSE(hs_published_met(&r, s.mean));
    r.bound = "upper", r.value = 1.9, r.tolerance = 0.05; /* below 1.805 */
    CU_ASSERT_TRUE(hs_published_met(&r, s.mean));
    r.value = 1.8; /* below 1.71 */
    CU_ASSERT_FALSE(hs_published_met(&r, s.mean));
    r.strict = false;
    r.bound = NULL;
    where[1].value = "10"; /* heftnc 50 against heft 60: better */
    r.stat = "better_pct";
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "hand.csv", &r, &s), 0);
    CU_ASSERT_EQUAL(s.n, 1);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 100, 1e-9);
    hs_csv_free(&csv);
}

/* loglog_slope: the exponent of a power law fitted to the rows. By hand:
 * tasks 1, e, e^2 with seconds 1, e^2, e^3 are the points (0, 0), (1, 2),
 * (2, 3) in logarithms: mean x 1, mean y 5/3; sum dx dy = 5/3 + 4/3 = 3,
 * sum dx^2 = 2: slope 1.5. The row of another policy, the error row and the
 * row with no time are left out; seconds = 3 tasks^2 on 1, 2, 4, 8 tasks
 * give exactly 2. */
static void test_loglog_slope(void)
{
    static const char text[] = "policy,status,tasks,policy_seconds\n"
                               "a,ok,1,1\na,ok,2.718281828459045,7.38905609893065\n"
                               "a,ok,7.38905609893065,20.085536923187668\na,error,100,\na,ok,50,\n"
                               "b,ok,1,3\nb,ok,2,12\nb,ok,4,48\nb,ok,8,192\n";
    struct hs_csv csv;
    CU_ASSERT_EQUAL_FATAL(hs_csv_parse(text, sizeof text - 1, "hand.csv", &csv), 0);
    struct hs_study_kv where[] = {{"policy", "a"}};
    struct hs_study_ref r = {.where = where, .nwhere = 1, .metric = "policy_seconds", .scale = 1,
                             .stat = "loglog_slope", .over = "tasks"};
    struct hs_stat s;
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "hand.csv", &r, &s), 0);
    CU_ASSERT_EQUAL(s.n, 3);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 1.5, 1e-12);
    where[0].value = "b";
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "hand.csv", &r, &s), 0);
    CU_ASSERT_EQUAL(s.n, 4);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 2, 1e-12);
    where[0].value = "none"; /* no rows: no slope */
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "hand.csv", &r, &s), 0);
    CU_ASSERT(isnan(s.mean));
    r.over = "vertices"; /* a column the CSV lacks */
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "hand.csv", &r, &s), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "vertices"));
    hs_csv_free(&csv);
}

/* A gain over groups (by, of): by hand, heftnc's makespan against heft's in
 * four groups of (v, ccr): (10, 1) 90 against 100: +10%; (10, 5) 220 against
 * 200: -10%; (50, 1) 70 against 100: +30%; (50, 5) 30 against 40: +25% (the
 * error row left out). By v and ccr: mean 13.75, min -10, max 30. By ccr:
 * ccr 1, 80 against 100: +20%; ccr 5, 125 against 120: -4.17%: argmax 1.
 * Pooled (no by): 102.5 against 110. */
static void test_published_groups(void)
{
    static const char text[] = "instance,policy,v,ccr,status,makespan\n"
                               "a,heft,10,1,ok,100\na,heftnc,10,1,ok,90\n"
                               "b,heft,10,5,ok,200\nb,heftnc,10,5,ok,220\n"
                               "c,heft,50,1,ok,100\nc,heftnc,50,1,ok,70\n"
                               "d,heft,50,5,ok,40\nd,heftnc,50,5,ok,30\ne,heftnc,50,5,error,\n";
    struct hs_csv csv;
    CU_ASSERT_EQUAL_FATAL(hs_csv_parse(text, sizeof text - 1, "groups.csv", &csv), 0);
    struct hs_study_kv where[] = {{"policy", "heftnc"}, {"ccr", "5"}}, versus[] = {{"policy", "heft"}};
    char *vccr[] = {"v", "ccr"}, *ccr[] = {"ccr"}, *v[] = {"v"}, *nocol[] = {"alpha"};
    struct hs_study_ref r = {.where = where, .nwhere = 1, .versus = versus, .nversus = 1, .metric = "makespan",
                             .scale = 1, .stat = "gain_pct"};
    struct hs_stat s;
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "groups.csv", &r, &s), 0);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 100 * (110 - 102.5) / 110, 1e-9);
    r.by = vccr, r.nby = 2;
    const char *of[] = {"mean", "min", "max"};
    const double want[] = {13.75, -10, 30};
    for (int i = 0; i < 3; i++) {
        r.of = (char *)of[i];
        CU_ASSERT_EQUAL(hs_published_ours(&csv, "groups.csv", &r, &s), 0);
        CU_ASSERT_EQUAL(s.n, 4);
        CU_ASSERT_DOUBLE_EQUAL(s.mean, want[i], 1e-9);
    }
    r.by = ccr, r.nby = 1, r.of = "argmax";
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "groups.csv", &r, &s), 0);
    CU_ASSERT_EQUAL(s.n, 2);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 1, 0);
    r.of = "min";
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "groups.csv", &r, &s), 0);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, -100 * (125 - 120) / 120.0, 1e-9);
    r.nwhere = 2, r.by = v, r.of = "argmax"; /* ccr 5 only: v 10 -10%, v 50 +25% */
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "groups.csv", &r, &s), 0);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 50, 0);
    r.by = nocol;
    CU_ASSERT_EQUAL(hs_published_ours(&csv, "groups.csv", &r, &s), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "alpha"));
    hs_csv_free(&csv);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"mean, sd and 95% CI by hand", test_mean_sd_ci},
        {"better, equal, worse", test_compare},
        {"groups and pairwise counts", test_groups_and_pairs},
        {"hetsim summarize on a hand-written CSV", test_summarize_command},
        {"hetsim summarize prints bytes and seconds in units, writes them raw", test_summarize_units},
        {"CSV quoting and an interrupted last line", test_csv},
        {"FNV-1a test vectors; keys, instances and seeds", test_fnv},
        {"grid order, value lists and ranges", test_grid_and_values},
        {"published figures: mean, median, sd, pairwise percentages, ratio, bounds", test_published_values},
        {"published figures: a power law's exponent (loglog_slope) by hand", test_loglog_slope},
        {"published figures: a gain over groups (mean, min, max, argmax)", test_published_groups},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("stats", tests);
}
