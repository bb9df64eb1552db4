/* tests/cli/test_install.c — the installed hetsim: `cmake --install` into a
 * temporary prefix, the tree moved elsewhere, then run from another folder
 * (shipped platforms and studies found beside the executable, HETSIM_DATADIR
 * named when data is missing, --version); and a policy written out of tree,
 * built against the installed package (find_package(hetsim) and pkg-config)
 * and loaded as a plugin, whose decisions are checked on a DAG worked by hand,
 * and whose GFlop/s in writing-a-policy.md's sweep are the page's. */
#include "base/buf.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HETSIM_BUILD_DIR
#error "HETSIM_BUILD_DIR must be defined"
#endif

static char *work;   /* a folder of our own: the moved prefix, builds, runs */
static char prefix[1024], hetsim[1200];

/* Run a command in the work folder, asserting its exit code; its output (caller frees). */
static char *sh(int want, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *sh(int want, const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    char *out;
    int rc = hs_test_sh(work, cmd, &out);
    if (rc != want)
        fprintf(stderr, "\n`%s` -> %d (expected %d):\n%s\n", cmd, rc, want, out);
    CU_ASSERT_EQUAL(rc, want);
    return out;
}

/* Install into work/staged, then move the tree to work/moved: nothing may
 * still point at the first place. */
static void test_install_and_move(void)
{
    work = hs_test_tmp_dir("-install");
    snprintf(prefix, sizeof prefix, "%s/moved", work);
    snprintf(hetsim, sizeof hetsim, "%s/bin/hetsim", prefix);
    free(sh(0, "cmake --install '%s' --prefix staged >install.log", HETSIM_BUILD_DIR));
    free(sh(0, "mv staged moved && mkdir elsewhere"));
    char *out = sh(0, "cd elsewhere && '%s' --version", hetsim);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "hetsim 0.1.0"));
    free(out);
}

/* Only the public API is installed, and each of its headers compiles alone
 * (the runtime's internals, the GPU caches and the event heap stay inside). */
static void test_public_headers_only(void)
{
    char *out = sh(0, "cd moved/include/hetsim && find . -name '*.h' | sort");
    CU_ASSERT_STRING_EQUAL(out, "./base/params.h\n./base/util.h\n./sim/costs.h\n./sim/dag.h\n./sim/platform.h\n"
                                "./sim/policy.h\n./sim/routes.h\n./sim/sched.h\n./workloads/workload.h\n");
    free(out);
    free(sh(0, "cd moved/include/hetsim && for h in $(find . -name '*.h'); do printf '#include \"%%s\"\n' \"$h\" "
               ">one.c && cc -std=c17 -Wall -Werror -fsyntax-only -I. one.c || exit 1; done; rm -f one.c"));
}

/* The shipped platforms come from the moved tree, not from where it was installed. */
static void test_moved_tree_finds_its_data(void)
{
    char *out = sh(0, "cd elsewhere && '%s' platform idgraf", hetsim), want[1200];
    snprintf(want, sizeof want, "platform idgraf (%s/share/hetsim/platforms/idgraf.xml)", prefix);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
    free(out);
    out = sh(0, "cd elsewhere && '%s' run -p idgraf -w cholesky:n=2048,nb=512 -q -o r.json && cat r.json", hetsim);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"perf_model\":\t\"perf/idgraf.json\""));
    free(out);
}

/* reproduce --list reads the moved tree's studies: a study added there is listed. */
static void test_moved_tree_finds_its_studies(void)
{
    free(sh(0, "cp moved/share/hetsim/studies/dada-alpha.json moved/share/hetsim/studies/zz-copy.json"));
    char *out = sh(0, "cd elsewhere && '%s' reproduce --list", hetsim);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "cholesky-idgraf-gpus "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "zz-copy "));
    free(out);
}

/* Data that cannot be found: the one line names HETSIM_DATADIR. */
static void test_missing_data_names_the_variable(void)
{
    char *out = sh(2, "cd elsewhere && '%s' run --perf nosuch", hetsim);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "set HETSIM_DATADIR to the folder that holds them"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "/moved/share/hetsim/platforms"));
    free(out);
    out = sh(2, "cd elsewhere && HETSIM_STUDYDIR=/nonexistent '%s' reproduce nosuch", hetsim);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "unknown study 'nosuch'"));
    free(out);
}

/* Three independent tasks of 1, 3 and 2 s on one processor (flat:1): largest
 * cost first runs them 3, 2, 1 — starts 0, 3, 5, makespan 6 — where eager's
 * FIFO starts them at 0, 1, 4. */
static const char *three_tasks =
    "{\"name\":\"three\",\"handles\":[],\"tasks\":["
    "{\"label\":\"a\",\"kernel\":\"k\",\"accesses\":[],\"costs\":[1]},"
    "{\"label\":\"b\",\"kernel\":\"k\",\"accesses\":[],\"costs\":[3]},"
    "{\"label\":\"c\",\"kernel\":\"k\",\"accesses\":[],\"costs\":[2]}]}";

static void check_starts(const char *record, const double *want)
{
    char *text = hs_test_read_file(record);
    cJSON *r = cJSON_Parse(text), *t;
    free(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    HS_ASSERT_NEAR_REL(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "makespan")->valuedouble, 6, 1e-9);
    int i = 0;
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(cJSON_GetObjectItem(r, "events"), "tasks"))
    {
        const char *label = cJSON_GetObjectItem(t, "label")->valuestring;
        int k = label[0] - 'a';
        CU_ASSERT(k >= 0 && k < 3);
        if (k >= 0 && k < 3)
            CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(t, "start")->valuedouble, want[k], 1e-9);
        i++;
    }
    CU_ASSERT_EQUAL(i, 3);
    cJSON_Delete(r);
}

/* examples/policy-lcf built with find_package(hetsim), loaded with -s PATH:KEY=VALUE. */
static void test_plugin_built_with_the_cmake_package(void)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/three.json", work);
    hs_test_write_file(path, three_tasks);
    free(sh(0, "cmake -S '%s/examples/policy-lcf' -B lcf -DCMAKE_PREFIX_PATH='%s' >lcf.log && "
               "cmake --build lcf >>lcf.log", HETSIM_SOURCE_DIR, prefix));
    free(sh(0, "cd elsewhere && '%s' run -p flat:1 -w ../three.json -s ../lcf/liblcf.so:cost=here "
               "--events -q -o lcf.json", hetsim));
    snprintf(path, sizeof path, "%s/elsewhere/lcf.json", work);
    check_starts(path, (const double[]){5, 0, 3});
    /* the run is named by its policy's name, the plugin's path beside it */
    char *rec = hs_test_read_file(path);
    cJSON *r = cJSON_Parse(rec), *in = cJSON_GetObjectItem(r, "inputs");
    const char *policy = cJSON_GetStringValue(cJSON_GetObjectItem(in, "policy"));
    CU_ASSERT(policy && strncmp(policy, "lcf:", 4) == 0 && strstr(policy, "cost=here"));
    CU_ASSERT_STRING_EQUAL(cJSON_GetStringValue(cJSON_GetObjectItem(in, "policy_plugin")), "../lcf/liblcf.so");
    cJSON_Delete(r);
    free(rec);
    /* a sweep's rows name it so too (its policy column, which tables and plots
       label by), and the runs read back from that column run the plugin */
    char *out = sh(0, "cd elsewhere && '%s' sweep -p flat:1 -w ../three.json --vary "
                      "'policy=../lcf/liblcf.so:cost=here;eager' -o lcf.csv -q && '%s' summarize lcf.csv "
                      "--by policy --metrics makespan", hetsim, hetsim);
    snprintf(path, sizeof path, "%s/elsewhere/lcf.csv", work);
    struct hs_csv csv = hs_test_load_csv(path);
    int pc = hs_csv_col(&csv, "policy"), mc = hs_csv_col(&csv, "makespan");
    CU_ASSERT_EQUAL_FATAL(csv.nrows, 2);
    CU_ASSERT_FATAL(pc >= 0 && mc >= 0);
    /* the sweep runs its two runs at once (-j defaults to the cores), so the rows come in
       the order they finish: find each by its name */
    int lcf = strcmp(csv.rows[0][pc], "eager") == 0 ? 1 : 0;
    CU_ASSERT_STRING_EQUAL(csv.rows[lcf][pc], "lcf:cost=here");
    CU_ASSERT_STRING_EQUAL(csv.rows[1 - lcf][pc], "eager");
    CU_ASSERT_DOUBLE_EQUAL(atof(csv.rows[lcf][mc]), 6, 1e-9);
    hs_csv_free(&csv);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nlcf:cost=here "));
    CU_ASSERT_PTR_NULL(strstr(out, "liblcf.so"));
    free(out);
    /* eager's FIFO, for contrast: the check tells the two apart */
    free(sh(0, "cd elsewhere && '%s' run -p flat:1 -w ../three.json -s eager --events -q -o eager.json",
            hetsim));
    snprintf(path, sizeof path, "%s/elsewhere/eager.json", work);
    check_starts(path, (const double[]){0, 1, 4});
}

/* The line of writing-a-policy.md's sh blocks that starts with start, the
 * docs' paths made the test's: ./build/hetsim this hetsim, ./build-lcf/ the
 * plugin built above (caller frees). */
static char *doc_command(const char *start)
{
    char *text = hs_test_read_file(HETSIM_SOURCE_DIR "/docs/writing-a-policy.md");
    const char *l = strstr(text, start);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    struct hs_buf b = {0};
    hs_buf_printf(&b, "'%s'", hetsim);
    for (const char *r = l + strlen("./build/hetsim"); *r && *r != '\n';)
        if (strncmp(r, "./build-lcf/", 12) == 0) {
            hs_buf_add(&b, "../lcf/");
            r += 12;
        } else
            hs_buf_addn(&b, r++, 1);
    free(text);
    return hs_buf_take(&b);
}

/* The mean of metric for policy at gpus in a summary's table ("lcf  8
 * gflops  1  0  189.159 ..."); NAN when no row has it. */
static double summary_mean(const char *summary, const char *policy, int gpus, const char *metric)
{
    for (const char *l = summary; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        char p[64], m[64];
        int g, n, failed;
        double mean;
        if (sscanf(l, "%63s %d %63s %d %d %lf", p, &g, m, &n, &failed, &mean) == 6 && strcmp(p, policy) == 0 &&
            g == gpus && strcmp(m, metric) == 0)
            return mean;
    }
    return NAN;
}

/* writing-a-policy.md's sweep and summary, run as the page writes them with
 * the plugin built by find_package(hetsim): the GFlop/s of lcf, eager and
 * dmda at 8 GPUs that the summary prints are the ones the page quotes, so a
 * change of the model or of lcf that moves them fails here (test
 * doc_figures checks eager and dmda without the plugin). */
static void test_plugin_figures_in_the_docs(void)
{
    char *sweep = doc_command("./build/hetsim sweep --plugin ./build-lcf/liblcf.so ");
    char *summarize = doc_command("./build/hetsim summarize lcf.csv ");
    free(sh(0, "mkdir -p sweep-doc"));
    char *out = sh(0, "cd sweep-doc && %s && %s", sweep, summarize), phrase[256];
    double lcf = summary_mean(out, "lcf", 8, "gflops"), eager = summary_mean(out, "eager", 8, "gflops"),
           dmda = summary_mean(out, "dmda", 8, "gflops");
    CU_ASSERT(lcf > 0 && eager > 0 && dmda > 0);
    snprintf(phrase, sizeof phrase, "the summary above gave %.0f against %.0f GFlop/s at 8 GPUs, where `dmda` "
             "reaches %.0f", lcf, eager, dmda);
    hs_test_doc_quotes("docs/writing-a-policy.md", phrase);
    free(out);
    free(sweep);
    free(summarize);
}

/* The same source built with pkg-config's flags; --plugin makes its policy
 * known by name, to `hetsim policies` and to sweeps beside shipped policies. */
static void test_plugin_built_with_pkg_config(void)
{
    free(sh(0, "PKG_CONFIG_PATH='%s/lib/pkgconfig' && export PKG_CONFIG_PATH && "
               "cc -std=c17 -Wall -Wextra -Werror -shared -fPIC $(pkg-config --cflags hetsim) "
               "'%s/examples/policy-lcf/lcf.c' -o liblcf-pc.so", prefix, HETSIM_SOURCE_DIR));
    char *out = sh(0, "'%s' policies --plugin ./liblcf-pc.so", hetsim);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nlcf\n  largest cost first"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "cost=mean"));
    free(out);
    out = sh(0, "'%s' sweep --plugin ./liblcf-pc.so -p flat:1 -w three.json --vary policy=lcf,eager "
                "-o sweep.csv -q && cat sweep.csv", hetsim);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, ",lcf,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, ",eager,"));
    free(out);
}

/* A library that is not a policy, or a file that is not there: one line, exit 2. */
static void test_bad_plugins(void)
{
    char *out = sh(2, "'%s' run -s ./nosuch.so", hetsim);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "policy plugin ./nosuch.so:"));
    free(out);
    free(sh(0, "printf 'int x;\\n' >notapolicy.c && cc -shared -fPIC notapolicy.c -o libnot.so"));
    out = sh(2, "'%s' run -s ./libnot.so", hetsim);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "policy plugin ./libnot.so: exports no hs_policy_plugin"));
    free(out);
    free(sh(0, "sed 's/= HS_POLICY_ABI;/= HS_POLICY_ABI + 1;/' '%s/examples/policy-lcf/lcf.c' >old.c && "
               "cc -shared -fPIC -I'%s/include/hetsim' old.c -o libold.so", HETSIM_SOURCE_DIR, prefix));
    out = sh(2, "'%s' run -s ./libold.so", hetsim);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "built for another version of hetsim"));
    free(out);
}

/* A program linked with the installed libraries (pkg-config --libs). */
static void test_program_linked_with_the_libraries(void)
{
    char src[1200];
    snprintf(src, sizeof src, "%s/count.c", work);
    hs_test_write_file(src, "#include \"workloads/workload.h\"\n#include \"sim/dag.h\"\n#include <stdio.h>\n"
                            "int main(void) { struct hs_dag *d = hs_workload_build(\"cholesky:n=2048,nb=512\");\n"
                            "  printf(\"%d tasks\\n\", d ? d->ntasks : -1); hs_dag_free(d); return 0; }\n");
#ifdef HETSIM_SANITIZE
    const char *san = "-fsanitize=address,undefined";
#else
    const char *san = "";
#endif
    char *out = sh(0, "PKG_CONFIG_PATH='%s/lib/pkgconfig' && export PKG_CONFIG_PATH && "
                      "cc -std=c17 %s count.c $(pkg-config --cflags --libs hetsim) -o count && ./count",
                   prefix, san);
    /* 4x4 tiles: 4 POTRF, 6 TRSM, 6 SYRK, 4 GEMM */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "20 tasks"));
    free(out);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"install, then move the tree", test_install_and_move},
        {"only the public headers, each compiling alone", test_public_headers_only},
        {"the moved tree finds its platforms", test_moved_tree_finds_its_data},
        {"the moved tree finds its studies", test_moved_tree_finds_its_studies},
        {"missing data names HETSIM_DATADIR", test_missing_data_names_the_variable},
        {"a plugin built with find_package(hetsim)", test_plugin_built_with_the_cmake_package},
        {"writing-a-policy.md's GFlop/s of lcf, from its sweep", test_plugin_figures_in_the_docs},
        {"a plugin built with pkg-config, by name in a sweep", test_plugin_built_with_pkg_config},
        {"bad plugins: one line, exit 2", test_bad_plugins},
        {"a program linked with the installed libraries", test_program_linked_with_the_libraries},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("install", tests);
}
