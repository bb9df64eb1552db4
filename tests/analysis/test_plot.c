/* tests/analysis/test_plot.c — plots people can read (analysis/plot.c): a
 * white background (SVG and PNG), bytes and times in units (GiB, ms) rather
 * than 2e+10, curves told apart by marker and dash, a study's published
 * values drawn beside the curve they belong to, gains against one curve (a
 * comparison plot), categorical tics without their shared text, curve names,
 * units and bars apart. */
#include "analysis/csv.h"
#include "analysis/plot.h"
#include "analysis/stats.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Two policies over gpus = 1, 2; bytes in the tens of GiB. */
static const char *sweep_csv =
    "key,instance,rep,seed,policy,gpus,noise,status,bytes_total,makespan\n"
    "1,1,0,1,a,1,0,ok,21474836480,0.004\n"
    "2,2,0,1,a,2,0,ok,32212254720,0.003\n"
    "3,1,0,1,b,1,0,ok,10737418240,0.005\n"
    "4,2,0,1,b,2,0,ok,16106127360,0.002\n";

/* The gnuplot script of a plot of `table` with these options (output and
 * script set here). */
static char *script_of(const char *table, struct hs_plot_opts o, const char *ext, char **image)
{
    char *csvfile = hs_test_tmp(".csv"), *script = hs_test_tmp(".gp");
    *image = hs_test_tmp(ext);
    hs_test_write_file(csvfile, table);
    struct hs_csv csv;
    CU_ASSERT_EQUAL_FATAL(hs_csv_read(csvfile, &csv), 0);
    o.output = *image, o.script = script;
    int rc = hs_plot_metric(&csv, csvfile, &o);
    if (rc)
        fprintf(stderr, "\nplot: %s\n", hs_last_error());
    CU_ASSERT_EQUAL(rc, 0);
    hs_csv_free(&csv);
    char *text = hs_test_read_file(script);
    unlink(csvfile), unlink(script);
    free(csvfile), free(script);
    return text;
}

static char *plot_script(const char *y, const char *ext, const struct hs_study_ref *refs, int nrefs,
                         char **image)
{
    char *by[] = {"policy"};
    struct hs_plot_opts o = {.x = "gpus", .y = y, .by = by, .nby = 1, .published = refs, .npublished = nrefs};
    return script_of(sweep_csv, o, ext, image);
}

static void test_white_background(void)
{
    char *image, *script = plot_script("makespan", ".svg", NULL, 0, &image);
    char *svg = hs_test_read_file(image);
    /* gnuplot's background: a white rectangle over the whole picture */
    CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<rect x=\"0\" y=\"0\" width=\"900\" height=\"560\" fill=\"#ffffff\"/>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "background rgb 'white'"));
    free(svg), free(script);
    unlink(image), free(image);
    script = plot_script("makespan", ".png", NULL, 0, &image);
    CU_ASSERT(strstr(script, "pngcairo") && strstr(script, "background rgb 'white'"));
    char *png = hs_test_read_file(image);
    CU_ASSERT_EQUAL(memcmp(png, "\x89PNG", 4), 0);
    free(png), free(script);
    unlink(image), free(image);
}

/* 10 to 30 GiB are drawn as 10 to 30 with "[GiB]" on the axis; 2 to 5 ms as
 * 2 to 5 with "[ms]". */
static void test_units(void)
{
    char *image, *script = plot_script("bytes_total", ".svg", NULL, 0, &image);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "set ylabel 'bytes moved [GiB]'")); /* one run a point: no interval */
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "\n1 20 0\n2 30 0\n"));  /* policy a: 20 and 30 GiB */
    char *svg = hs_test_read_file(image);
    CU_ASSERT_PTR_NULL(strstr(svg, "e+")); /* no 2e+10 on the axis */
    free(svg), free(script);
    unlink(image), free(image);
    script = plot_script("makespan", ".svg", NULL, 0, &image);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "[ms]'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "\n1 4 0\n2 3 0\n"));
    free(script);
    unlink(image), free(image);
    struct hs_unit u = hs_unit_for("bytes_h2d", 5 * 1048576.0);
    CU_ASSERT_STRING_EQUAL(u.name, "MiB");
    u = hs_unit_for("makespan", 2.5e-5);
    CU_ASSERT_STRING_EQUAL(u.name, "µs");
    CU_ASSERT_PTR_NULL(hs_unit_for("gflops", 3e3).name);
    struct hs_buf b = {0};
    hs_unit_label(&b, "makespan (s)", hs_unit_for("makespan", 0.002));
    CU_ASSERT_STRING_EQUAL(hs_buf_str(&b), "makespan [ms]");
    hs_buf_free(&b);
}

/* Two curves differ by colour (lt), marker (pt) and dash (dt). */
static void test_curves_told_apart(void)
{
    char *image, *script = plot_script("makespan", ".svg", NULL, 0, &image);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "$c0 using 1:2:3 with yerrorlines lt 1 dt 1 pt 7"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "$c1 using 1:2:3 with yerrorlines lt 2 dt 4 pt 5"));
    for (int k = 0; k < 12; k++)
        for (int j = 0; j < k; j++)
            CU_ASSERT(hs_plot_point_type(k) != hs_plot_point_type(j));
    for (int k = 0; k < 8; k++)
        CU_ASSERT(hs_plot_dash_type(k) != hs_plot_dash_type(k + 1) && hs_plot_dash_type(k) != 2);
    free(script);
    unlink(image), free(image);
}

/* Published values: 12 GiB for policy b at 2 GPUs lands on curve 1 at x = 2,
 * y = 12 (value 12, scale 2^30, drawn in GiB); a pairwise figure, a value at
 * a noise the sweep did not run and another metric's value are not drawn. */
static void test_published_points(void)
{
    struct hs_study_kv b2[] = {{"policy", "b"}, {"gpus", "2"}}, noisy[] = {{"policy", "a"}, {"gpus", "1"},
                                                                           {"noise", "0.05"}};
    struct hs_study_kv vs[] = {{"policy", "a"}};
    struct hs_study_ref refs[] = {
        {.where = b2, .nwhere = 2, .metric = "bytes_total", .value = 12, .scale = 1073741824.0},
        {.where = noisy, .nwhere = 3, .metric = "bytes_total", .value = 7, .scale = 1073741824.0},
        {.where = b2, .nwhere = 2, .metric = "bytes_total", .value = 50, .scale = 1, .stat = "better_pct",
         .versus = vs, .nversus = 1},
        {.where = b2, .nwhere = 2, .metric = "makespan", .value = 9, .scale = 1},
    };
    char *image, *script = plot_script("bytes_total", ".png", refs, 4, &image);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "$p1 << EOD\n2 12\nEOD\n"));
    CU_ASSERT_PTR_NULL(strstr(script, "$p0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "title 'published (paper)'"));
    CU_ASSERT_PTR_NULL(strstr(script, "\n2 50\n"));
    CU_ASSERT_PTR_NULL(strstr(script, "\n2 9\n"));
    free(script);
    unlink(image), free(image);
    /* a published median beside a mean: its own symbol (pt 12, a diamond; the mean's a star, pt 3) */
    refs[1] = (struct hs_study_ref){.where = b2, .nwhere = 2, .metric = "bytes_total", .value = 10,
                                    .scale = 1073741824.0, .stat = "median"};
    script = plot_script("bytes_total", ".png", refs, 2, &image);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "$p1 << EOD\n2 12\nEOD\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "$q1 << EOD\n2 10\nEOD\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "$q1 using 1:2 with points lt 2 pt 12"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "pt 3 ps 2.2 lw 2 title 'published mean (paper)'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "pt 12 ps 2.2 lw 2 title 'published median (paper)'"));
    free(script);
    unlink(image), free(image);
}

/* The points (x y) of data block NAME of a script; their number. */
static int block_points(const char *script, const char *name, double *x, double *y, int max)
{
    char head[64];
    snprintf(head, sizeof head, "%s << EOD\n", name);
    const char *at = strstr(script, head);
    int n = 0;
    for (at = at ? at + strlen(head) : NULL; at && n < max && strncmp(at, "EOD", 3) != 0; n++) {
        if (sscanf(at, "%lf %lf", &x[n], &y[n]) != 2)
            break;
        at = strchr(at, '\n');
        at = at ? at + 1 : NULL;
    }
    return n;
}

/* A comparison plot (the thesis' gains of one policy over another): b's
 * makespan against a's, by hand 100 (0.004 - 0.005) / 0.004 = -25% at 1 GPU
 * and 100 (0.003 - 0.002) / 0.003 = 33.3333% at 2; a itself is not drawn; a
 * published gain against a lands beside b's curve, one against another
 * versus does not; the ratio is a's over b's (0.8 and 1.5); where keeps the
 * rows of 1 GPU only. Points are read back to 1e-9: the script holds them
 * to 17 digits. */
static void test_comparison_plot(void)
{
    char *by[] = {"policy"}, *image;
    struct hs_study_kv vs[] = {{"policy", "a"}}, other[] = {{"gpus", "1"}}, b2[] = {{"policy", "b"}, {"gpus", "2"}};
    struct hs_study_ref refs[] = {
        {.where = b2, .nwhere = 2, .metric = "makespan", .value = 30, .scale = 1, .stat = "gain_pct",
         .versus = vs, .nversus = 1},
        {.where = b2, .nwhere = 2, .metric = "makespan", .value = 70, .scale = 1, .stat = "gain_pct",
         .versus = other, .nversus = 1},
    };
    struct hs_plot_opts o = {.x = "gpus", .y = "makespan", .by = by, .nby = 1, .stat = "gain_pct",
                             .versus = vs, .nversus = 1, .published = refs, .npublished = 2, .ylabel = "gain (%)"};
    double x[4], y[4];
    char *script = script_of(sweep_csv, o, ".svg", &image);
    CU_ASSERT_EQUAL(block_points(script, "$c0", x, y, 4), 2);
    CU_ASSERT(x[0] == 1 && fabs(y[0] + 25) < 1e-9 && x[1] == 2 && fabs(y[1] - 100.0 / 3) < 1e-9);
    CU_ASSERT_PTR_NULL(strstr(script, "$c1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "$p0 << EOD\n2 30\nEOD\n"));
    CU_ASSERT_PTR_NULL(strstr(script, "\n2 70\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "set ylabel 'gain (%)'"));
    /* the title says what is drawn, not "makespan against gpus" */
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "set title 'gain in makespan over a (%) against GPUs'.\"\\n\".'1 run per point'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "first 0 to graph 1, first 0 nohead")); /* the line of no gain */
    free(script);
    unlink(image), free(image);

    /* without a label of the study's, the gain of -25% (b slower) is drawn as the ratio, 0.8 */
    o.ylabel = NULL;
    script = script_of(sweep_csv, o, ".svg", &image);
    CU_ASSERT_EQUAL(block_points(script, "$c0", x, y, 4), 2);
    CU_ASSERT(fabs(y[0] - 0.8) < 1e-12 && fabs(y[1] - 1.5) < 1e-12);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "set logscale y\n"));
    free(script);
    unlink(image), free(image);

    o.stat = "ratio", o.npublished = 0;
    script = script_of(sweep_csv, o, ".svg", &image);
    CU_ASSERT_EQUAL(block_points(script, "$c0", x, y, 4), 2);
    CU_ASSERT(fabs(y[0] - 0.8) < 1e-12 && fabs(y[1] - 1.5) < 1e-12);
    free(script);
    unlink(image), free(image);

    o.where = other, o.nwhere = 1;
    script = script_of(sweep_csv, o, ".svg", &image);
    CU_ASSERT_EQUAL(block_points(script, "$c0", x, y, 4), 1);
    CU_ASSERT(x[0] == 1 && fabs(y[0] - 0.8) < 1e-12);
    free(script);
    unlink(image), free(image);
}

/* Readable by someone who did not write the CSV: one --by column names the
 * curves by their values under a key titled by the column ('a', not
 * 'policy=a'); gflops reads GFlop/s; a numeric x axis spans 1 to 8 with a
 * tic at each value (not 0 to 9); with error bars the curves move apart
 * sideways, by hand 0.15 × the smallest gap (1) × (k / (curves - 1) - 0.5):
 * -0.075 and +0.075, so that their bars at one x do not hide each other. */
static void test_readable_plot(void)
{
    static const char *table = "key,instance,rep,seed,policy,gpus,status,gflops\n"
                               "1,1,0,1,a,1,ok,10\n1,1,1,2,a,1,ok,12\n2,2,0,1,a,2,ok,20\n2,2,1,2,a,2,ok,22\n"
                               "3,3,0,1,a,8,ok,40\n3,3,1,2,a,8,ok,44\n"
                               "4,1,0,1,b,1,ok,11\n4,1,1,2,b,1,ok,13\n5,2,0,1,b,2,ok,21\n5,2,1,2,b,2,ok,23\n"
                               "6,3,0,1,b,8,ok,41\n6,3,1,2,b,8,ok,45\n";
    char *by[] = {"policy"}, *image;
    struct hs_plot_opts o = {.x = "gpus", .y = "gflops", .by = by, .nby = 1};
    char *script = script_of(table, o, ".svg", &image);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "set key title 'policy'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "title 'a'"));
    CU_ASSERT_PTR_NULL(strstr(script, "policy=a"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "set ylabel 'GFlop/s (mean, 95% CI)'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "set autoscale xfix"));
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "set xtics (1, 2, 8)"));
    double x[4], y[4];
    CU_ASSERT_EQUAL(block_points(script, "$c0", x, y, 4), 3);
    CU_ASSERT(fabs(x[0] - 0.925) < 1e-12 && fabs(x[2] - 7.925) < 1e-12 && fabs(y[0] - 11) < 1e-12);
    CU_ASSERT_EQUAL(block_points(script, "$c1", x, y, 4), 3);
    CU_ASSERT(fabs(x[0] - 1.075) < 1e-12 && fabs(y[0] - 12) < 1e-12);
    free(script);
    unlink(image), free(image);
}

/* A categorical x loses the text its values share, cut between words so
 * that no number is split ("n=800" and "n=1000" keep their digits). */
static void test_categorical_tics(void)
{
    static const char *table = "key,instance,rep,seed,policy,workload,status,makespan\n"
                               "1,1,0,1,a,\"xk:n=800,nb=80,p=s\",ok,1\n"
                               "2,2,0,1,a,\"xk:n=1000,nb=100,p=s\",ok,2\n";
    char *by[] = {"policy"}, *image;
    struct hs_plot_opts o = {.x = "workload", .y = "makespan", .by = by, .nby = 1};
    char *script = script_of(table, o, ".svg", &image);
    CU_ASSERT_PTR_NOT_NULL(strstr(script, "set xtics ('800,nb=80' 0, '1000,nb=100' 1)"));
    free(script);
    unlink(image), free(image);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"plots on a white background", test_white_background},
        {"bytes in GiB, times in ms", test_units},
        {"curves differ by marker and dash", test_curves_told_apart},
        {"published values beside their curve", test_published_points},
        {"a comparison plot: gains against one curve", test_comparison_plot},
        {"categorical tics without their shared text", test_categorical_tics},
        {"readable: curve names, units, x axis, bars apart", test_readable_plot},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("plot", tests);
}
