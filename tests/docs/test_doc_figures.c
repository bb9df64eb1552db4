/* tests/docs/test_doc_figures.c — the figures the documentation prints are
 * what this build gives. test_docs runs every command of the docs but reads
 * none of their output; here the cheap ones are read and compared with the
 * text that quotes them:
 *   - a transcript (a plain ``` block whose first line is "$ ./build/hetsim
 *     ARGS") is that command's output, to the byte;
 *   - a `./build/hetsim run` command of a sh block whose comment gives its
 *     makespan ("# 0.721 s", "# 2.752 ms, predicted 1.252") or the bytes it
 *     moves ("# 37.7 GiB") gives them, to the digits written;
 *   - figures quoted in sentences (task and edge counts, GFlop/s of two
 *     policies, an energy run's makespan, a summary's volume line) are computed by the command the page names and
 *     looked for, formatted as the page writes them, in the page's text
 *     (line breaks and runs of blanks read as one space).
 * Figures that are measurements of this machine (times, memory) cannot be
 * checked so; the pages date them and name the command that measured them. */
#include "base/util.h"
#include "tests/support/testing.h"

#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The README and every page of docs/ (test_transcripts checks that none is missing). */
static const char *const pages[] = {"README.md", "docs/getting-started.md", "docs/running.md",
                                    "docs/platforms.md", "docs/workloads.md", "docs/policies.md",
                                    "docs/formats.md", "docs/sweeps-and-studies.md", "docs/writing-a-policy.md",
                                    "docs/fidelity.md", "docs/real-engine.md", "docs/performance.md",
                                    "docs/robustness.md", "docs/layout.md", "docs/references.md"};
#define NPAGES (sizeof pages / sizeof *pages)

static double result(const char *args, const char *key)
{
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), key);
    double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    cJSON_Delete(r);
    return x;
}

/* Every transcript of docs/ and the README, run and compared. */
static void check_transcripts(const char *doc, int *count)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", HETSIM_SOURCE_DIR, doc);
    char *text = hs_test_read_file(path);
    for (char *p = strstr(text, "\n```\n$ ./build/hetsim "); p; p = strstr(p + 1, "\n```\n$ ./build/hetsim ")) {
        char *args = p + strlen("\n```\n$ ./build/hetsim "), *eol = strchr(args, '\n');
        char *end = eol ? strstr(eol, "\n```") : NULL;
        CU_ASSERT_PTR_NOT_NULL_FATAL(end);
        char *cmd = hs_xmalloc((size_t)(eol - args) + 1), *want = hs_xmalloc((size_t)(end - eol) + 1), *out = NULL;
        memcpy(cmd, args, (size_t)(eol - args));
        cmd[eol - args] = '\0';
        memcpy(want, eol + 1, (size_t)(end - eol)); /* its lines, each with its line break */
        want[end - eol] = '\0';
        CU_ASSERT_EQUAL(hs_test_cli(cmd, &out, NULL), 0);
        if (strcmp(out, want) != 0)
            fprintf(stderr, "\n%s: `hetsim %s` now prints:\n%s", doc, cmd, out);
        CU_ASSERT_STRING_EQUAL(out, want);
        (*count)++;
        free(out);
        free(cmd);
        free(want);
    }
    free(text);
}

static void test_transcripts(void)
{
    /* pages[] is the README and every page of docs/ */
    DIR *d = opendir(HETSIM_SOURCE_DIR "/docs");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name), i = 0;
        if (n < 4 || strcmp(e->d_name + n - 3, ".md") != 0)
            continue;
        while (i < NPAGES && strcmp(pages[i] + 5, e->d_name) != 0)
            i++;
        if (i == NPAGES)
            fprintf(stderr, "\ndocs/%s is not in test_doc_figures.c's pages[]\n", e->d_name);
        CU_ASSERT(i < NPAGES);
    }
    closedir(d);
    int count = 0;
    for (size_t i = 0; i < NPAGES; i++)
        check_transcripts(pages[i], &count);
    CU_ASSERT(count >= 1); /* policies.md's `hetsim beta outer` */
}

/* The number as written ("0.721") against x printed with as many decimals. */
static bool same_digits(const char *written, double x)
{
    size_t n = strspn(written, "0123456789.");
    const char *dot = memchr(written, '.', n);
    char got[64];
    snprintf(got, sizeof got, "%.*f", dot ? (int)(n - (size_t)(dot - written) - 1) : 0, x);
    return strlen(got) == n && strncmp(got, written, n) == 0;
}

/* One `./build/hetsim run ARGS   # FIGURES` line: run in a fresh folder (it
 * may write traces there), its record read. 1 if checked, 0 if its comment
 * holds no figure of the forms above or it reads a file an earlier command
 * of the page makes. */
static int check_comment(const char *doc, const char *line)
{
    const char *hash = strstr(line, "   # ");
    if (!hash || !strchr("0123456789", hash[5]))
        return 0;
    const char *fig = hash + 5, *unit = fig + strspn(fig, "0123456789.");
    double scale;
    if (strncmp(unit, " ms", 3) == 0)
        scale = 1e3;
    else if (strncmp(unit, " s", 2) == 0 && (unit[2] == '\0' || unit[2] == ',' || unit[2] == ' '))
        scale = 1;
    else if (strncmp(unit, " GiB", 4) == 0)
        scale = 0; /* bytes moved */
    else
        return 0;
    char args[2048];
    snprintf(args, sizeof args, "%.*s", (int)(hash - line - strlen("./build/hetsim run ")), line + strlen("./build/hetsim run "));
    for (char *w = strstr(args, ".json"); w; w = strstr(w + 1, ".json"))
        if (w[5] == ' ' || w[5] == '\0')
            return 0; /* a file of the page's own making (calibrate-sim's) */
    char *dir = hs_test_tmp_dir("-fig"), cmd[4096], *out = NULL;
    const char *bin = getenv("HETSIM_TEST_BIN") ? getenv("HETSIM_TEST_BIN") : HETSIM_BIN;
    snprintf(cmd, sizeof cmd, "'%s' run %s -q -o rec.json && cat rec.json", bin, args);
    int rc = hs_test_sh(dir, cmd, &out);
    if (rc)
        fprintf(stderr, "\n%s: `%s` exited %d: %s\n", doc, cmd, rc, out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    cJSON *r = cJSON_Parse(out), *res = cJSON_GetObjectItem(r, "results");
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    double got;
    if (scale > 0)
        got = cJSON_GetObjectItem(res, "makespan")->valuedouble * scale;
    else {
        const cJSON *b = cJSON_GetObjectItem(res, "bytes");
        got = (cJSON_GetObjectItem(b, "h2d")->valuedouble + cJSON_GetObjectItem(b, "d2h")->valuedouble +
               cJSON_GetObjectItem(b, "p2p")->valuedouble) / (1024.0 * 1024 * 1024);
    }
    bool ok = same_digits(fig, got);
    const char *pred = strstr(fig, ", predicted ");
    const cJSON *pm = cJSON_GetObjectItem(res, "predicted_makespan");
    if (pred && scale > 0)
        ok = ok && cJSON_IsNumber(pm) && same_digits(pred + 12, pm->valuedouble * scale);
    if (!ok)
        fprintf(stderr, "\n%s: `hetsim run %s` gives %.6g (predicted %.6g) in the comment's unit, not \"%s\"\n",
                doc, args, got, cJSON_IsNumber(pm) ? pm->valuedouble * scale : NAN, fig);
    CU_ASSERT(ok);
    cJSON_Delete(r);
    free(out);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    hs_test_sh(NULL, cmd, NULL);
    free(dir);
    return 1;
}

static void test_commented_figures(void)
{
    int checked = 0;
    for (size_t i = 0; i < NPAGES; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", HETSIM_SOURCE_DIR, pages[i]);
        char *text = hs_test_read_file(path);
        bool in_sh = false;
        for (char *line = text, *next; line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            if (strncmp(line, "```", 3) == 0)
                in_sh = !in_sh && strcmp(line, "```sh") == 0;
            else if (in_sh && strncmp(line, "./build/hetsim run ", 19) == 0 && !strstr(line, "# (long") &&
                     !strstr(line, "# (needs"))
                checked += check_comment(pages[i], line);
        }
        free(text);
    }
    CU_ASSERT(checked >= 13); /* fidelity.md has 13 today */
}

/* getting-started.md: the default Cholesky's task count, and by hand: 16
 * tiles a side, 16 POTRF + 120 TRSM + 120 SYRK + 560 GEMM = 816. */
static void test_getting_started(void)
{
    char *out = NULL, phrase[128];
    CU_ASSERT_EQUAL_FATAL(hs_test_cli("dag cholesky:n=8192,nb=512 --stats", &out, NULL), 0);
    const char *t = strstr(out, "tasks: ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int tasks = atoi(t + 7);
    CU_ASSERT_EQUAL(tasks, 16 + 120 + 120 + 560);
    snprintf(phrase, sizeof phrase, "in 512 × 512 tiles (%d tasks)", tasks);
    hs_test_doc_quotes("docs/getting-started.md", phrase);
    free(out);
}

/* A `hetsim` command's stdout line that holds key, its blanks made one
 * space, without the leading ones (caller frees). */
static char *output_line(const char *args, const char *key)
{
    char *out = NULL;
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, &out, NULL), 0);
    char *l = strstr(out, key);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    while (l > out && l[-1] != '\n')
        l--;
    char *line = hs_xmalloc(strlen(l) + 1), *w = line;
    for (const char *r = l + strspn(l, " "); *r && *r != '\n'; r++)
        if (*r != ' ' || w[-1] != ' ')
            *w++ = *r;
    *w = '\0';
    free(out);
    return line;
}

/* workloads.md: lunopiv's move tasks on 3 × 3 tiles, the thesis' Fig. 3.3
 * (Beniamine 2013): 23 nodes, 30 edges. */
static void test_workloads(void)
{
    char *tasks = output_line("dag lunopiv:n=3,nb=1,moves=1 --stats", "tasks: ");
    char *edges = output_line("dag lunopiv:n=3,nb=1,moves=1 --stats", "edges: ");
    CU_ASSERT_STRING_EQUAL(tasks, "tasks: 23");
    CU_ASSERT_STRING_EQUAL(edges, "edges: 30");
    char phrase[128];
    snprintf(phrase, sizeof phrase, "(%s tasks, %s dependencies for 3×3 tiles", tasks + 7, edges + 7);
    hs_test_doc_quotes("docs/workloads.md", phrase);
    free(tasks);
    free(edges);
    /* LU's regions=1 shortens the longest path */
    char *plain = output_line("dag lu:n=4,nb=1,ib=1 --stats", "depth: ");
    char *regions = output_line("dag lu:n=4,nb=1,ib=1,regions=1 --stats", "depth: ");
    snprintf(phrase, sizeof phrase, "on 4×4 tiles the longest path goes from %s tasks to %s:", plain + 7, regions + 7);
    hs_test_doc_quotes("docs/workloads.md", phrase);
    free(plain);
    free(regions);
}

/* policies.md: the summary's volume line of a two-phase outer product. */
static void test_policies_volume(void)
{
    char *line = output_line("run -p flat:20,bw=inf -w outer:n=100 -s dynamic-outer-2phases", "volume ");
    char phrase[512];
    snprintf(phrase, sizeof phrase, "prints `%s`", line);
    hs_test_doc_quotes("docs/policies.md", phrase);
    free(line);
}

/* writing-a-policy.md: eager and dmda at 8 GPUs (the default scenario, the
 * sweep's gpus=8 column). */
static void test_writing_a_policy(void)
{
    char phrase[256];
    snprintf(phrase, sizeof phrase, "against %.0f GFlop/s at 8 GPUs, where `dmda` reaches %.0f",
             result("-s eager", "gflops"), result("-s dmda", "gflops"));
    hs_test_doc_quotes("docs/writing-a-policy.md", phrase);
    /* "`policies/dmda.c` is a complete example in under 200 lines" */
    char *src = hs_test_read_file(HETSIM_SOURCE_DIR "/policies/dmda.c");
    int lines = 0;
    for (const char *p = src; *p; p++)
        lines += *p == '\n';
    CU_ASSERT(lines > 0 && lines < 200);
    hs_test_doc_quotes("docs/writing-a-policy.md", "`policies/dmda.c` is a complete example in under 200 lines");
    free(src);
}

/* platforms.md: online HEFT on µs tasks, with and without --energy (the
 * run that --energy used to change: 2.715 against 2.619 ms). */
static void test_energy_makespan(void)
{
    const char *run = "-p idgraf --gpus 8 --perf idgraf-cal8 -w xkcholesky:n=800,nb=80,precision=s "
                      "-s heft:online=1,order=fifo --seed 3992483394";
    char with[512], phrase[256];
    snprintf(with, sizeof with, "%s --energy", run);
    double a = result(run, "makespan"), b = result(with, "makespan");
    CU_ASSERT_EQUAL(a, b);
    snprintf(phrase, sizeof phrase, "this build gives %.3f ms both ways", a * 1e3);
    hs_test_doc_quotes("docs/platforms.md", phrase);
}

int main(void)
{
    static CU_TestInfo tests[] = {
        {"transcripts in the docs are the commands' output", test_transcripts},
        {"figures in the comments of `hetsim run` commands", test_commented_figures},
        {"getting-started.md: the default Cholesky's task count", test_getting_started},
        {"writing-a-policy.md: eager's and dmda's GFlop/s", test_writing_a_policy},
        {"workloads.md: lunopiv's move tasks, LU's longest path with regions", test_workloads},
        {"policies.md: the volume line of a two-phase outer product", test_policies_volume},
        {"platforms.md: the makespans with and without --energy", test_energy_makespan},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("doc_figures", tests);
}
