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
#include <regex.h>
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

/* ---- figures a page marks with the command that gives them --------------
 *
 * A page marks a figure it quotes with an HTML comment on the line before
 * the paragraph (or fenced block) that quotes it, unseen on the rendered
 * page:
 *
 *   <!-- figure: COMMAND => REGEX -->
 *   <!-- figure: COMMAND => REGEX => REGEX_OF_THE_PAGE -->
 *   <!-- figure: COMMAND => REGEX within 5% -->
 *   <!-- ledger-count: FILE => REGEX -->
 *
 * COMMAND is a shell command as the page's sh blocks write them
 * (`./build/hetsim …`), run from a folder where ./build is the build under
 * test and the repository's files are where the page says. REGEX (POSIX
 * extended, with one group per figure) is matched against its output, and
 * REGEX_OF_THE_PAGE (REGEX when not given) against the quoting text: the
 * paragraph after the marker (up to a blank line), or the fenced block that
 * follows it; both with their runs of blanks and line breaks made one space.
 * Group i of the one must be group i of the other, to the byte, or with
 * "within P%" (measured figures) as numbers within P% of the command's.
 * ledger-count: the "output" is the count line that `hetsim reproduce
 * --ledger` would print for the ledger table committed in FILE (its verdict
 * column counted), since a whole ledger takes minutes: the page's count
 * line must be that table's. */

struct marker {
    char *cmd;          /* NULL for a ledger-count */
    char *ledger;       /* ledger-count: the page holding the table */
    char *out_re, *doc_re;
    double within;      /* relative tolerance; 0: to the byte */
};

static void marker_free(struct marker *m)
{
    free(m->cmd), free(m->ledger), free(m->out_re), free(m->doc_re);
}

/* Runs of blanks and line breaks made one space, none leading. */
static void squeeze(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        bool blank = *r == ' ' || *r == '\n' || *r == '\t';
        if (!blank || (w > s && w[-1] != ' '))
            *w++ = blank ? ' ' : *r;
    }
    *w = '\0';
}

/* The marker's text (between "<!-- " and " -->") read into m: 0, or -1 with why. */
static int marker_parse(const char *text, struct marker *m, char *why, size_t whylen)
{
    memset(m, 0, sizeof *m);
    bool ledger = strncmp(text, "ledger-count: ", 14) == 0;
    if (!ledger && strncmp(text, "figure: ", 8) != 0) {
        snprintf(why, whylen, "neither figure: nor ledger-count:");
        return -1;
    }
    char *copy = hs_xstrdup(text + (ledger ? 14 : 8)), *field[4];
    int n = 0;
    for (char *f = copy, *sep; f && n < 4; f = sep ? sep + 4 : NULL) {
        sep = strstr(f, " => ");
        if (sep)
            *sep = '\0';
        field[n++] = f;
    }
    char *last = n >= 2 ? field[n - 1] : NULL, *w = last ? strstr(last, " within ") : NULL;
    if (w && w[strlen(w) - 1] == '%') {
        m->within = atof(w + 8) / 100;
        *w = '\0';
    }
    int rc = 0;
    if (n < 2 || n > 3 || (w && m->within <= 0)) {
        snprintf(why, whylen, "expected COMMAND => REGEX [=> REGEX_OF_THE_PAGE] [within P%%]");
        rc = -1;
    } else {
        *(ledger ? &m->ledger : &m->cmd) = hs_xstrdup(field[0]);
        m->out_re = hs_xstrdup(field[1]);
        m->doc_re = hs_xstrdup(field[n - 1]);
    }
    free(copy);
    return rc;
}

/* The groups of re's first match in text (ngroups of them, malloc'd), or -1. */
static int groups_of(const char *re, const char *text, char ***groups, char *why, size_t whylen)
{
    regex_t rx;
    int rc = regcomp(&rx, re, REG_EXTENDED);
    if (rc) {
        char msg[256];
        regerror(rc, &rx, msg, sizeof msg);
        snprintf(why, whylen, "regex '%s': %s", re, msg);
        return -1;
    }
    int n = (int)rx.re_nsub;
    regmatch_t *pm = hs_xcalloc((size_t)n + 1, sizeof *pm);
    if (n == 0 || regexec(&rx, text, (size_t)n + 1, pm, 0) != 0) {
        snprintf(why, whylen, n ? "'%s' matches nothing in: %.400s" : "'%s' has no group", re, text);
        n = -1;
    } else {
        *groups = hs_xcalloc((size_t)n, sizeof **groups);
        for (int i = 0; i < n; i++) {
            size_t len = pm[i + 1].rm_so < 0 ? 0 : (size_t)(pm[i + 1].rm_eo - pm[i + 1].rm_so);
            (*groups)[i] = hs_xmalloc(len + 1);
            memcpy((*groups)[i], text + (pm[i + 1].rm_so < 0 ? 0 : pm[i + 1].rm_so), len);
            (*groups)[i][len] = '\0';
        }
    }
    free(pm);
    regfree(&rx);
    return n;
}

/* The count line `hetsim reproduce --ledger` prints (analysis/ledger.c's
 * count_line) for the markdown ledger table of page: its verdict column. */
static char *ledger_count_line(const char *page)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", HETSIM_SOURCE_DIR, page);
    char *text = hs_test_read_file(path);
    static const char *const verdicts[] = {"holds", "partly", "fails", "not reproducible", "calibration",
                                           "not run", "not runnable"};
    int count[7] = {0}, assumed = 0, claims = 0, col = -1;
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (strncmp(line, "| ", 2) != 0) {
            col = -1; /* the table ended */
            continue;
        }
        char *cell[16];
        int n = 0;
        for (char *c = line + 1, *bar = c; n < 16 && (bar = strchr(bar, '|')); c = ++bar) {
            if (bar[-1] == '\\') /* a | in a cell, as the ledger's markdown escapes it */
                continue;
            *bar = '\0';
            cell[n] = c + strspn(c, " ");
            for (size_t len = strlen(cell[n]); len && cell[n][len - 1] == ' ';)
                cell[n][--len] = '\0';
            n++;
        }
        if (col < 0) { /* a header: the ledger's has a verdict column */
            for (int i = 0; i < n && col < 0; i++)
                col = strcmp(cell[i], "verdict") == 0 ? i : -1;
            if (col >= 0 && next && strncmp(next, "|---", 4) == 0) { /* the line under the header */
                next = strchr(next, '\n');
                next = next ? next + 1 : NULL;
            }
            continue;
        }
        if (col >= n)
            continue;
        int v = -1;
        for (int i = 0; i < 7; i++)
            if (strcmp(cell[col], verdicts[i]) == 0)
                v = i;
        if (strncmp(cell[col], "holds (assumed:", 15) == 0)
            v = 0, assumed++;
        CU_ASSERT(v >= 0);
        if (v < 0)
            fprintf(stderr, "\n%s: verdict '%s' of the ledger table is not one hetsim writes\n", page, cell[col]);
        claims++;
        count[v < 0 ? 0 : v]++;
    }
    free(text);
    char *out = hs_xmalloc(512);
    snprintf(out, 512, "%d claims: %d hold (%d of them on an assumption), %d partly, %d fail, %d not reproducible, "
             "%d calibration, %d not run, %d not runnable", claims, count[0], assumed, count[1], count[2], count[3],
             count[4], count[5], count[6]);
    return out;
}

/* Run the marker's command where build is the build under test (a folder
 * of links to the repository's files, made once). */
static char *marker_output(const char *cmd, int *rc)
{
    static char *dir;
    if (!dir) {
        dir = hs_test_tmp_dir("-marks");
        char ln[4096];
        snprintf(ln, sizeof ln,
                 "cd '%s' && for f in $(ls -A '%s'); do case \"$f\" in build*|out|.git|prefix) ;; *) ln -s '%s'/\"$f\" "
                 "\"$f\" ;; esac; done && ln -s '%s' build", dir, HETSIM_SOURCE_DIR, HETSIM_SOURCE_DIR, HETSIM_BUILD_DIR);
        CU_ASSERT_EQUAL_FATAL(hs_test_sh(NULL, ln, NULL), 0);
    }
    setenv("HS_MARK_COMMAND", cmd, 1);
    char *out = NULL;
    *rc = hs_test_sh(dir, "timeout 300 sh -c \"$HS_MARK_COMMAND\"", &out);
    return out;
}

/* One marker against its quoting text (squeezed): true when every figure
 * agrees; else false with why. */
static bool marker_holds(const struct marker *m, const char *quoted, char *why, size_t whylen)
{
    int rc = 0;
    char *out = m->cmd ? marker_output(m->cmd, &rc) : ledger_count_line(m->ledger);
    if (rc) {
        snprintf(why, whylen, "`%s` exited %d: %.400s", m->cmd, rc, out);
        free(out);
        return false;
    }
    squeeze(out);
    char **got = NULL, **said = NULL;
    int ngot = groups_of(m->out_re, out, &got, why, whylen), nsaid = -1;
    if (ngot >= 0)
        nsaid = groups_of(m->doc_re, quoted, &said, why, whylen);
    bool ok = ngot >= 0 && nsaid >= 0;
    if (ok && ngot != nsaid) {
        snprintf(why, whylen, "the regexes have %d and %d groups", ngot, nsaid);
        ok = false;
    }
    for (int i = 0; ok && i < ngot; i++) {
        double a, b;
        char *ea, *eb;
        a = strtod(got[i], &ea), b = strtod(said[i], &eb);
        bool same = m->within > 0 ? *got[i] && *said[i] && !*ea && !*eb && fabs(b - a) <= m->within * fabs(a)
                                  : strcmp(got[i], said[i]) == 0;
        if (!same) {
            snprintf(why, whylen, "figure %d: the command gives '%s', the page says '%s'%s", i + 1, got[i], said[i],
                     m->within > 0 ? " (beyond the tolerance)" : "");
            ok = false;
        }
    }
    for (int i = 0; i < ngot; i++)
        free(got[i]);
    for (int i = 0; i < nsaid; i++)
        free(said[i]);
    free(got), free(said), free(out);
    return ok;
}

/* The text a marker ending at `after` quotes: the fenced block that follows,
 * or the paragraph (squeezed; caller frees). */
static char *quoted_after(const char *after)
{
    const char *start = after + strspn(after, "\n");
    while (strncmp(start + strspn(start, " "), "<!-- ", 5) == 0 && strstr(start, " -->")) { /* stacked markers */
        start = strstr(start, " -->") + 4;
        start += strspn(start, "\n");
    }
    const char *end;
    if (strncmp(start, "```", 3) == 0) {
        const char *body = strchr(start, '\n');
        end = body ? strstr(body, "\n```") : NULL;
        start = body ? body + 1 : start;
        end = end ? end : start + strlen(start);
    } else {
        end = strstr(start, "\n\n");
        end = end ? end : start + strlen(start);
    }
    char *q = hs_xmalloc((size_t)(end - start) + 1);
    memcpy(q, start, (size_t)(end - start));
    q[end - start] = '\0';
    squeeze(q);
    return q;
}

/* Every marker of page checked (a line of its own outside fenced blocks,
 * which may show markers as examples); how many. */
static int check_markers(const char *page)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", HETSIM_SOURCE_DIR, page);
    char *text = hs_test_read_file(path);
    int count = 0, line = 0;
    bool fenced = false;
    for (char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        line++;
        if (strncmp(p, "```", 3) == 0)
            fenced = !fenced;
        char *eol = strchr(p, '\n'), *close = strstr(p, " -->"), *at = p + strspn(p, " ");
        /* (indented: inside a list item, so that the list goes on) */
        if (fenced || (strncmp(at, "<!-- figure: ", 13) != 0 && strncmp(at, "<!-- ledger-count: ", 19) != 0))
            continue;
        if (!close || (eol && close > eol)) {
            fprintf(stderr, "\n%s:%d: a marker ends on its own line, with ' -->'\n", page, line);
            CU_FAIL("marker not closed on its line");
            continue;
        }
        char *inner = hs_xmalloc((size_t)(close - at)), why[1024] = "";
        snprintf(inner, (size_t)(close - at - 4), "%s", at + 5);
        struct marker m;
        bool ok = marker_parse(inner, &m, why, sizeof why) == 0;
        if (ok) {
            char *quoted = quoted_after(close + 4);
            ok = marker_holds(&m, quoted, why, sizeof why);
            free(quoted);
        }
        if (!ok)
            fprintf(stderr, "\n%s:%d: %s\n", page, line, why);
        CU_ASSERT(ok);
        marker_free(&m);
        free(inner);
        count++;
    }
    free(text);
    return count;
}

static void test_marked_figures(void)
{
    int readme = 0, started = 0, fidelity = 0;
    for (size_t i = 0; i < NPAGES; i++) {
        int n = check_markers(pages[i]);
        readme += strcmp(pages[i], "README.md") == 0 ? n : 0;
        started += strcmp(pages[i], "docs/getting-started.md") == 0 ? n : 0;
        fidelity += strcmp(pages[i], "docs/fidelity.md") == 0 ? n : 0;
    }
    /* the pages whose figures the issue named carry their markers */
    CU_ASSERT(readme >= 3);
    CU_ASSERT(started >= 4);
    CU_ASSERT(fidelity >= 1);
}

/* The check can fail: a page quoting another figure than its command's, a
 * regex that finds nothing, a measured figure beyond its tolerance, a
 * ledger count line that is not its table's. */
static void test_markers_can_fail(void)
{
    struct {
        const char *marker, *quoted;
        bool holds;
    } cases[] = {
        {"figure: ./build/hetsim dag cholesky:n=2048,nb=512 --stats => tasks: ([0-9]+)", "tasks: 20", true},
        {"figure: ./build/hetsim dag cholesky:n=2048,nb=512 --stats => tasks: ([0-9]+)", "tasks: 21", false},
        {"figure: ./build/hetsim dag cholesky:n=2048,nb=512 --stats => tasks: ([0-9]+) => \\(([0-9]+) tasks\\)",
         "in 512 tiles (20 tasks) on", true},
        {"figure: ./build/hetsim dag cholesky:n=2048,nb=512 --stats => nosuch ([0-9]+)", "nosuch 20", false},
        {"figure: echo 100.0 => ([0-9.]+) within 5%", "104", true},
        {"figure: echo 100.0 => ([0-9.]+) within 5%", "106", false},
        {"figure: ./build/hetsim nosuchcommand => (x)", "x", false},
        {"ledger-count: docs/fidelity.md => ([0-9]+) claims", "80 claims", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct marker m;
        char why[1024] = "";
        CU_ASSERT_EQUAL_FATAL(marker_parse(cases[i].marker, &m, why, sizeof why), 0);
        bool got = marker_holds(&m, cases[i].quoted, why, sizeof why);
        if (got != cases[i].holds)
            fprintf(stderr, "\n`%s` on '%s': %s (%s)\n", cases[i].marker, cases[i].quoted, got ? "holds" : "fails", why);
        CU_ASSERT_EQUAL(got, cases[i].holds);
        marker_free(&m);
    }
    struct marker m;
    char why[256];
    CU_ASSERT_EQUAL(marker_parse("figure: only a command", &m, why, sizeof why), -1);
    marker_free(&m);
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
        {"figures marked with their command (<!-- figure: -->)", test_marked_figures},
        {"a marked figure that is not its command's fails", test_markers_can_fail},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("doc_figures", tests);
}
