/* tests/docs/test_docs.c — the documentation works as written: every command
 * of a fenced sh block of README.md and every page of docs/ runs, from a copy of the
 * repository root where ./build is the build under test, and exits 0. A
 * command whose trailing comment starts with "(long" (a full study, the quick
 * start's package install) or "(needs" (a GPU) is not run; they must stay
 * few. Also: the README stays short, its quick start installs the packages
 * CI installs, and nothing cites the implementation specs the repository
 * does not hold ("specs/…", "spec §…") instead of the papers. */
#define _DEFAULT_SOURCE /* DT_DIR */
#include "base/util.h"
#include "tests/support/testing.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef HETSIM_BUILD_DIR
#error "HETSIM_BUILD_DIR must be defined"
#endif

static int skipped;

/* A fresh copy of the repository root (not its builds, outputs or git data),
 * with build -> the build under test. */
static char *work_copy(void)
{
    char *dir = hs_test_tmp("-docs"), cmd[4096];
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s' && cd '%s' && for f in $(ls -A); do case \"$f\" in build*|out|.git|prefix) ;; "
             "*) cp -r \"$f\" '%s'/ ;; esac; done && ln -s '%s' '%s/build'",
             dir, HETSIM_SOURCE_DIR, dir, HETSIM_BUILD_DIR, dir);
    char *out;
    int rc = hs_test_sh(NULL, cmd, &out);
    if (rc)
        fprintf(stderr, "\n%s: %s\n", cmd, out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(out);
    return dir;
}

static bool marked_long(const char *command)
{
    return strstr(command, "# (long") || strstr(command, "# (needs");
}

/* Run one command of doc (line: where it starts), failing with its output. */
static void run_command(const char *dir, const char *doc, int line, const char *command)
{
    if (marked_long(command)) {
        skipped++;
        return;
    }
    /* through the environment: no quoting to get wrong; ten minutes at most */
    setenv("HS_DOC_COMMAND", command, 1);
#ifdef HETSIM_SANITIZE
    /* Open MPI's own allocations are never freed: LeakSanitizer would fail
     * every rank (as in test_sweep_mpi); the ranks inherit mpirun's environment */
    static const char *given;
    static bool saved;
    if (!saved)
        given = getenv("ASAN_OPTIONS") ? hs_xstrdup(getenv("ASAN_OPTIONS")) : NULL, saved = true;
    if (strstr(command, "mpirun"))
        setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
    else if (given)
        setenv("ASAN_OPTIONS", given, 1);
    else
        unsetenv("ASAN_OPTIONS");
#endif
    char *out;
    int rc = hs_test_sh(dir, "timeout 600 sh -c \"$HS_DOC_COMMAND\"", &out);
    if (rc) {
        size_t n = strlen(out);
        fprintf(stderr, "\n%s:%d: `%s` exited %d:\n%s\n", doc, line, command, rc, n > 3000 ? out + n - 3000 : out);
    }
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
}

/* What a page's commands leave at the root of the copy (names the source
 * root does not hold) is ignored by the repository's .gitignore: a reader
 * who follows the docs in a clone sees a clean `git status`. Skipped where
 * the source is not a git checkout. */
static void check_left(const char *dir, const char *doc)
{
    char cmd[4096], *out;
    snprintf(cmd, sizeof cmd,
             "git -C '%s' rev-parse --git-dir >/dev/null 2>&1 || exit 0; cd '%s' && for f in $(ls -A); do "
             "p=\"$f\"; [ -d \"$f\" ] && p=\"$f/\"; "
             "[ -e '%s'/\"$f\" ] || git -C '%s' check-ignore -q --no-index -- \"$p\" || echo \"$f\"; done",
             HETSIM_SOURCE_DIR, dir, HETSIM_SOURCE_DIR, HETSIM_SOURCE_DIR);
    CU_ASSERT_EQUAL(hs_test_sh(NULL, cmd, &out), 0);
    if (*out)
        fprintf(stderr, "\n%s leaves at the repository root what .gitignore does not ignore:\n%s", doc, out);
    CU_ASSERT_STRING_EQUAL(out, "");
    free(out);
}

/* Every command of the fenced sh blocks of one file: lines joined where they
 * end with a backslash, comment-only lines left out. Returns how many ran or
 * were skipped. */
static int run_doc(const char *doc)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", HETSIM_SOURCE_DIR, doc);
    char *text = hs_test_read_file(path);
    CU_ASSERT_FATAL(*text != '\0');
    char *dir = work_copy();
    bool in_sh = false;
    int lineno = 0, start = 0, commands = 0;
    struct hs_buf_lite {
        char *s;
        size_t len;
    } cmd = {hs_xcalloc(1, 1), 0};
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        const char *t = line + strspn(line, " ");
        if (strncmp(t, "```", 3) == 0) {
            in_sh = !in_sh && strcmp(t, "```sh") == 0;
            continue;
        }
        if (!in_sh || (!cmd.len && (*t == '#' || !*t)))
            continue;
        if (!cmd.len)
            start = lineno;
        cmd.s = hs_xrealloc(cmd.s, cmd.len + strlen(line) + 2);
        strcpy(cmd.s + cmd.len, line);
        cmd.len += strlen(line);
        if (cmd.len && cmd.s[cmd.len - 1] == '\\') {
            cmd.s[--cmd.len] = ' ';
            cmd.len++;
            continue;
        }
        run_command(dir, doc, start, cmd.s);
        commands++;
        cmd.len = 0;
        cmd.s[0] = '\0';
    }
    free(cmd.s);
    free(text);
    check_left(dir, doc);
    char rm[2048];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    hs_test_sh(NULL, rm, NULL);
    free(dir);
    return commands;
}

static void test_readme(void)
{
    CU_ASSERT(run_doc("README.md") >= 10);
}

static void test_getting_started(void)
{
    CU_ASSERT(run_doc("docs/getting-started.md") >= 10);
}

static void test_writing_a_policy(void)
{
    CU_ASSERT(run_doc("docs/writing-a-policy.md") >= 8);
}

/* The other pages of docs/. */
static void test_other_docs(void)
{
    DIR *d = opendir(HETSIM_SOURCE_DIR "/docs");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".md") != 0 || strcmp(e->d_name, "getting-started.md") == 0 ||
            strcmp(e->d_name, "writing-a-policy.md") == 0)
            continue;
        char doc[512];
        snprintf(doc, sizeof doc, "docs/%s", e->d_name);
        run_doc(doc);
    }
    closedir(d);
    /* the commands not run are few (a full study, the package install, the GPU engine, StarPU's runs) */
    CU_ASSERT(skipped <= 11);
}

static void test_readme_is_short(void)
{
    char *text = hs_test_read_file(HETSIM_SOURCE_DIR "/README.md");
    int lines = 0;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    CU_ASSERT(lines <= 250);
    free(text);
}

/* The Debian packages that the first "apt-get install" after `from` names
 * (options, redirections and line continuations left out), separated by spaces. */
static char *packages(const char *text, const char *from)
{
    const char *p = strstr(text, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    p = strstr(p, "apt-get install");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    p += strlen("apt-get install");
    /* the command ends at "&&", at a comment or at a line break not escaped by a backslash */
    const char *end = p;
    while (*end && strncmp(end, "&&", 2) != 0 && strncmp(end, " #", 2) != 0 && !(*end == '\n' && end[-1] != '\\'))
        end++;
    char *cmd = hs_xmalloc((size_t)(end - p) + 1), *list = hs_xcalloc(1, (size_t)(end - p) + 2);
    memcpy(cmd, p, (size_t)(end - p));
    cmd[end - p] = '\0';
    for (char *w = strtok(cmd, " \t\n\\"); w; w = strtok(NULL, " \t\n\\"))
        if (w[0] != '-' && w[0] != '>')
            strcat(strcat(list, w), " ");
    free(cmd);
    return list;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *sorted_words(char *list)
{
    char *words[64];
    int n = 0;
    size_t size = strlen(list) + 2; /* before strtok cuts it */
    for (char *w = strtok(list, " "); w && n < 64; w = strtok(NULL, " "))
        words[n++] = w;
    qsort(words, (size_t)n, sizeof *words, by_text);
    char *out = hs_xcalloc(1, size);
    for (int i = 0; i < n; i++)
        strcat(strcat(out, words[i]), " ");
    return out;
}

static void test_quick_start_matches_ci(void)
{
    char *readme = hs_test_read_file(HETSIM_SOURCE_DIR "/README.md");
    char *ci = hs_test_read_file(HETSIM_SOURCE_DIR "/.ci/run");
    char *a = packages(readme, "## Quick start"), *b = packages(ci, "apt-get update");
    char *sa = sorted_words(a), *sb = sorted_words(b);
    CU_ASSERT_STRING_EQUAL(sa, sb);
    if (strcmp(sa, sb) != 0)
        fprintf(stderr, "\nREADME: %s\n.ci/run: %s\n", sa, sb);
    /* the same steps: packages, then `hetsim run`, then the tests */
    CU_ASSERT_PTR_NOT_NULL(strstr(readme, "$(command -v sudo) apt-get update"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ci, "$(command -v sudo) apt-get update"));
    CU_ASSERT_PTR_NOT_NULL(strstr(readme, "&& ./build/hetsim run "));
    CU_ASSERT_PTR_NOT_NULL(strstr(ci, "\n./build/hetsim run "));
    CU_ASSERT_PTR_NOT_NULL(strstr(readme, "ctest --test-dir build -j\"$(nproc)\" --output-on-failure"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ci, "ctest --test-dir build -j\"$(nproc)\" --output-on-failure"));
    free(a), free(b), free(sa), free(sb), free(readme), free(ci);
}

/* Papers are cited, not the implementation specs the repository does not hold. */
static void test_no_spec_citations(void)
{
    char cmd[2048], *out;
    snprintf(cmd, sizeof cmd,
             "cd '%s' && grep -rIni -e 'specs/' -e 'spec §' -e 'spec \\\\u00a7' -e 'the spec\\b' -e \"spec's\" -e 'spec section' -e '§[0-9.]* item' "
             "--exclude-dir='build*' --exclude-dir=.git --exclude-dir=out --exclude=test_docs.c . | head -20",
             HETSIM_SOURCE_DIR);
    CU_ASSERT_EQUAL(hs_test_sh(NULL, cmd, &out), 0);
    if (*out)
        fprintf(stderr, "\nspec citations left:\n%s\n", out);
    CU_ASSERT_STRING_EQUAL(out, "");
    free(out);
}

/* The H100 validation table of docs/real-engine.md is the one measured
 * (tests/data/validation-h100/table.md, as tools/validate_compare.sh printed
 * it), and the per-task overhead it quotes is the calibration's
 * (calibrate.log beside it): every row of the file stands in the page. */
static void test_validation_table(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/real-engine.md", HETSIM_SOURCE_DIR);
    char *doc = hs_test_read_file(path);
    snprintf(path, sizeof path, "%s/tests/data/validation-h100/table.md", HETSIM_SOURCE_DIR);
    char *table = hs_test_read_file(path);
    snprintf(path, sizeof path, "%s/tests/data/validation-h100/calibrate.log", HETSIM_SOURCE_DIR);
    char *log = hs_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    int rows = 0;
    for (char *line = table, *eol; *line; line = eol + 1) {
        eol = strchr(line, '\n');
        if (!eol)
            break;
        *eol = '\0';
        rows++;
        if (!strstr(doc, line)) {
            fprintf(stderr, "\ndocs/real-engine.md lacks the measured row: %s", line);
            CU_FAIL("a row of the validation table differs from the measured one");
        }
    }
    CU_ASSERT_EQUAL(rows, 17); /* header, rule, 5 workloads x 3 policies */
    CU_ASSERT_PTR_NOT_NULL(strstr(log, "overhead per GPU task: 10.517 us"));
    CU_ASSERT_PTR_NOT_NULL(strstr(doc, "10.5 µs on the node below"));
    free(doc), free(table), free(log);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"README.md's commands run as written", test_readme},
        {"the tutorial's commands run as written", test_getting_started},
        {"writing-a-policy's commands run as written", test_writing_a_policy},
        {"the other docs' commands run as written", test_other_docs},
        {"README.md is at most 250 lines", test_readme_is_short},
        {"the quick start installs what CI installs", test_quick_start_matches_ci},
        {"papers cited, not specs", test_no_spec_citations},
        {"the H100 validation table is the measured one", test_validation_table},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("docs", tests);
}
