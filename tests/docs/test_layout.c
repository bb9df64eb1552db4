/* tests/docs/test_layout.c — the include arrows between folders: every
 * `#include "folder/..."` of a C, C++, header or CUDA file of the tree is allowed
 * by the table "Folders and the includes they may make" of docs/layout.md
 * (a folder may include itself and the entries of its row: a folder, or one
 * header). A file belongs to the longest folder of the table that holds it,
 * so sim/engines/simgrid/ is not sim/. The arrows the includes draw between
 * folders make no cycle. The page's table "private header" names the headers
 * only some folders (or files) may include, whatever the first table allows:
 * the runtime's internals are sim/'s own. And every unit test is named after
 * its module (the page's "Tests" section): tests/FOLDER/test_MODULE.c tests
 * FOLDER/MODULE.c (or .cu), but for the end-to-end tests of tests/cli/ and
 * tests/docs/ and the one file the page names otherwise. */
#include "base/util.h"
#include "tests/support/testing.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FOLDERS 16
#define MAX_ALLOWED 16

struct row {
    char folder[64]; /* "sim/engines/simgrid/" */
    char allowed[MAX_ALLOWED][64];
    int nallowed;
};

struct table {
    struct row rows[MAX_FOLDERS];
    int n;
    struct row priv[MAX_FOLDERS]; /* folder: a private header; allowed: who may include it */
    int npriv;
};

/* arrow[a][b]: a file of folder a includes a header of folder b (a != b) */
static bool arrow[MAX_FOLDERS][MAX_FOLDERS];

/* The backquoted items of a table cell, in order. */
static int cell_items(const char *cell, size_t len, char items[][64], int max)
{
    int n = 0;
    const char *end = cell + len;
    for (const char *p = memchr(cell, '`', len); p && p < end && n < max;) {
        const char *q = memchr(p + 1, '`', (size_t)(end - p - 1));
        if (!q)
            break;
        snprintf(items[n++], 64, "%.*s", (int)(q - p - 1), p + 1);
        p = q + 1 < end ? memchr(q + 1, '`', (size_t)(end - q - 1)) : NULL;
    }
    return n;
}

/* The rows of the table whose header line is `head`: its first column's item
 * and its last column's items. Returns how many. */
static int read_rows(const char *text, const char *head, struct row *rows)
{
    const char *p = strstr(text, head);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    p = strchr(p, '\n') + 1;
    p = strchr(p, '\n') + 1; /* the |---| line */
    int n = 0;
    while (*p == '|' && n < MAX_FOLDERS) {
        const char *eol = strchr(p, '\n');
        const char *c1 = p + 1, *c2 = strchr(c1, '|'), *end = eol, *last;
        while (*--end != '|') /* the line's last bar */
            ;
        for (last = end; *--last != '|';) /* the last cell starts after the one before */
            ;
        struct row *r = &rows[n++];
        char first[1][64];
        CU_ASSERT_EQUAL_FATAL(cell_items(c1, (size_t)(c2 - c1), first, 1), 1);
        snprintf(r->folder, sizeof r->folder, "%s", first[0]);
        r->nallowed = cell_items(last + 1, (size_t)(end - last - 1), r->allowed, MAX_ALLOWED);
        p = eol + 1;
    }
    return n;
}

static void read_table(const char *text, struct table *t)
{
    memset(t, 0, sizeof *t);
    t->n = read_rows(text, "| folder | holds | may include |", t->rows);
    t->npriv = read_rows(text, "| private header | only these may include it |", t->priv);
}

/* The row of the longest folder that is a prefix of path, or NULL. */
static const struct row *owner(const struct table *t, const char *path)
{
    const struct row *best = NULL;
    for (int i = 0; i < t->n; i++) {
        size_t n = strlen(t->rows[i].folder);
        if (strncmp(path, t->rows[i].folder, n) == 0 && (!best || n > strlen(best->folder)))
            best = &t->rows[i];
    }
    return best;
}

static bool listed(const struct row *r, const char *item)
{
    for (int i = 0; i < r->nallowed; i++)
        if (strcmp(r->allowed[i], item) == 0)
            return true;
    return false;
}

/* May file `rel` of folder `from` include `header`, if it is a private one? */
static bool private_ok(const struct table *t, const struct row *from, const char *rel,
                       const char *header)
{
    for (int i = 0; i < t->npriv; i++)
        if (strcmp(t->priv[i].folder, header) == 0)
            return listed(&t->priv[i], from->folder) || listed(&t->priv[i], rel);
    return true;
}

/* May a file of folder `from` include `header`? */
static bool allowed(const struct table *t, const struct row *from, const char *header)
{
    const struct row *to = owner(t, header);
    if (!to || to == from)
        return true; /* not one of the tree's folders, or its own */
    for (int i = 0; i < from->nallowed; i++)
        if (strcmp(from->allowed[i], to->folder) == 0 || strcmp(from->allowed[i], header) == 0)
            return true;
    return false;
}

static bool source_file(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (strcmp(dot, ".c") == 0 || strcmp(dot, ".h") == 0 || strcmp(dot, ".cu") == 0 ||
                   strcmp(dot, ".cpp") == 0);
}

/* Check every include of file rel (relative to the tree); count violations. */
static int check_file(const struct table *t, const char *rel, long *includes)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", HETSIM_SOURCE_DIR, rel);
    char *text = hs_test_read_file(path);
    const struct row *from = owner(t, rel);
    int bad = 0;
    for (const char *p = text; from && (p = strstr(p, "#include \"")); p++) {
        const char *h = p + 10, *q = strchr(h, '"');
        if (!q)
            break;
        char header[256];
        snprintf(header, sizeof header, "%.*s", (int)(q - h), h);
        ++*includes;
        const struct row *to = owner(t, header);
        if (to && to != from)
            arrow[from - t->rows][to - t->rows] = true;
        if (!allowed(t, from, header)) {
            fprintf(stderr, "\n%s includes %s: not allowed for %s (docs/layout.md)", rel, header,
                    from->folder);
            bad++;
        } else if (!private_ok(t, from, rel, header)) {
            fprintf(stderr, "\n%s includes %s: a private header of another folder (docs/layout.md)",
                    rel, header);
            bad++;
        }
    }
    free(text);
    return bad;
}

/* Visit every file below folder rel of the tree (relative, ending in '/';
 * "" for the top) but the folders skip says to skip (NULL: none), in
 * readdir's order; returns the sum of what visit returns. */
static int each_file(const char *rel, bool (*skip)(const char *dir), int (*visit)(const char *file, void *ctx),
                     void *ctx)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", HETSIM_SOURCE_DIR, rel);
    DIR *d = opendir(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int sum = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char sub[1024], full[4096];
        if (snprintf(sub, sizeof sub - 1, "%s%s", rel, e->d_name) >= (int)sizeof sub - 1)
            continue; /* no path of the tree is that long */
        snprintf(full, sizeof full, "%s/%s", HETSIM_SOURCE_DIR, sub);
        struct stat st;
        if (stat(full, &st))
            continue;
        if (S_ISDIR(st.st_mode)) {
            strcat(sub, "/");
            if (!skip || !skip(sub))
                sum += each_file(sub, skip, visit, ctx);
        } else {
            sum += visit(sub, ctx);
        }
    }
    closedir(d);
    return sum;
}

struct include_walk {
    const struct table *t;
    long files, includes;
};

static int check_source(const char *file, void *ctx)
{
    struct include_walk *w = ctx;
    if (!source_file(file))
        return 0;
    w->files++;
    return check_file(w->t, file, &w->includes);
}

/* Check the includes of every source file below folder rel; count violations. */
static int walk(const struct table *t, const char *rel, long *files, long *includes)
{
    struct include_walk w = {t, 0, 0};
    int bad = each_file(rel, NULL, check_source, &w);
    *files += w.files;
    *includes += w.includes;
    return bad;
}

static void load(struct table *t)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/layout.md", HETSIM_SOURCE_DIR);
    char *text = hs_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    read_table(text, t);
    free(text);
}

/* The table itself: every folder exists, and the rule catches what it must. */
static void test_table(void)
{
    struct table t;
    load(&t);
    CU_ASSERT_EQUAL(t.n, 13);
    for (int i = 0; i < t.n; i++) {
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", HETSIM_SOURCE_DIR, t.rows[i].folder);
        CU_ASSERT_TRUE(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
    }
    const struct row *sim = owner(&t, "sim/runtime.c"), *sg = owner(&t, "sim/engines/simgrid/paje.c");
    const struct row *pol = owner(&t, "policies/heft.c"), *an = owner(&t, "analysis/plot.c");
    CU_ASSERT_STRING_EQUAL(sim->folder, "sim/");
    CU_ASSERT_STRING_EQUAL(sg->folder, "sim/engines/simgrid/");
    CU_ASSERT_FALSE(allowed(&t, sim, "policies/heft.h")); /* the runtime sees sim/policy.h alone */
    CU_ASSERT_FALSE(allowed(&t, sim, "policies/registry.h"));
    CU_ASSERT_TRUE(allowed(&t, pol, "sim/policy.h"));
    CU_ASSERT_FALSE(allowed(&t, sim, "sim/engines/simgrid/engine_simgrid.h")); /* the runtime never sees an engine */
    CU_ASSERT_FALSE(allowed(&t, pol, "sim/engines/simgrid/engine_simgrid.h")); /* nor does a policy */
    CU_ASSERT_FALSE(allowed(&t, an, "cli/cli.h"));            /* the command is on top */
    const struct row *pf = owner(&t, "platforms/flat.c"), *base = owner(&t, "base/util.c");
    CU_ASSERT_FALSE(allowed(&t, pf, "sim/dag.h"));
    CU_ASSERT_TRUE(allowed(&t, pf, "base/util.h")); /* every folder uses base/ */
    CU_ASSERT_TRUE(allowed(&t, pol, "base/params.h"));
    CU_ASSERT_FALSE(allowed(&t, base, "platforms/flat.h")); /* base/ is the bottom layer */
    CU_ASSERT_FALSE(allowed(&t, base, "sim/dag.h"));
    CU_ASSERT_TRUE(allowed(&t, sg, "sim/engines/simgrid/paje.h"));
    /* a policy sees sim/policy.h and sim/sched.h, nothing else of sim/ */
    CU_ASSERT_TRUE(allowed(&t, pol, "sim/sched.h"));
    CU_ASSERT_FALSE(allowed(&t, pol, "sim/runtime.h"));
    CU_ASSERT_FALSE(allowed(&t, pol, "sim/run.h"));
    /* the runtime's internals are sim/'s own: not an engine's, not the command's */
    const struct row *model = owner(&t, "sim/engines/model/run_model.c");
    const struct row *sc = owner(&t, "scenario/scenario.c");
    CU_ASSERT_TRUE(t.npriv >= 1);
    CU_ASSERT_TRUE(private_ok(&t, sim, "sim/record.c", "sim/runtime_internal.h"));
    CU_ASSERT_FALSE(private_ok(&t, model, "sim/engines/model/run_model.c", "sim/runtime_internal.h"));
    CU_ASSERT_FALSE(private_ok(&t, sg, "sim/engines/simgrid/engine_simgrid.h", "sim/runtime_internal.h"));
    CU_ASSERT_FALSE(private_ok(&t, sc, "scenario/scenario.c", "sim/runtime_internal.h"));
    CU_ASSERT_TRUE(private_ok(&t, sc, "scenario/scenario.c", "sim/runtime.h"));
    /* Beaumont and Marchal's folder is its own, and no engine of sim/ reaches it */
    const struct row *bm = owner(&t, "policies/bm/bm_model.c");
    CU_ASSERT_STRING_EQUAL(bm->folder, "policies/bm/");
    CU_ASSERT_FALSE(allowed(&t, model, "policies/bm/bm_strategy.h"));
    CU_ASSERT_FALSE(allowed(&t, sim, "policies/bm/bm_engine.h"));
    CU_ASSERT_TRUE(allowed(&t, bm, "sim/run.h")); /* its engine kind */
    CU_ASSERT_TRUE(allowed(&t, sc, "policies/bm/bm_engine.h"));
    /* the command runs scenarios; the scenario layer never sees the command */
    const struct row *cli = owner(&t, "cli/cmd_run.c");
    CU_ASSERT_STRING_EQUAL(sc->folder, "scenario/");
    CU_ASSERT_TRUE(allowed(&t, cli, "scenario/scenario.h"));
    CU_ASSERT_FALSE(allowed(&t, cli, "scenario/bm_scenario.h")); /* its one public header */
    CU_ASSERT_FALSE(allowed(&t, sc, "cli/cli.h"));
    CU_ASSERT_FALSE(allowed(&t, pf, "scenario/scenario.h"));
    CU_ASSERT_FALSE(allowed(&t, an, "scenario/scenario.h"));
    /* the SimGrid engine's headers are its own: the layers above ask through sim/run.h (issue 58) */
    CU_ASSERT_FALSE(allowed(&t, sc, "sim/engines/simgrid/platform_simgrid.h"));
    CU_ASSERT_FALSE(allowed(&t, cli, "sim/engines/simgrid/platform_checked.h"));
    CU_ASSERT_TRUE(allowed(&t, sc, "sim/run.h"));
}

static void test_every_include(void)
{
    struct table t;
    load(&t);
    long files = 0, includes = 0;
    int bad = 0;
    for (int i = 0; i < t.n; i++)
        if (!strchr(t.rows[i].folder, '/') || strchr(t.rows[i].folder, '/')[1] == '\0')
            bad += walk(&t, t.rows[i].folder, &files, &includes); /* top-level folders hold the rest */
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_TRUE(files > 200 && includes > 500); /* the walk saw the tree */
}

/* Depth-first search from folder i; state 1: on the path, 2: done. Prints
 * the folders of a cycle found, from the innermost back out. */
static bool cycle_from(const struct table *t, int i, int *state)
{
    state[i] = 1;
    for (int j = 0; j < t->n; j++)
        if (arrow[i][j] && (state[j] == 1 || (state[j] == 0 && cycle_from(t, j, state)))) {
            fprintf(stderr, "\n%s includes %s (a cycle of folders)", t->rows[i].folder,
                    t->rows[j].folder);
            return true;
        }
    state[i] = 2;
    return false;
}

static void test_no_cycle(void)
{
    struct table t;
    load(&t);
    memset(arrow, 0, sizeof arrow);
    long files = 0, includes = 0;
    for (int i = 0; i < t.n; i++)
        if (!strchr(t.rows[i].folder, '/') || strchr(t.rows[i].folder, '/')[1] == '\0')
            walk(&t, t.rows[i].folder, &files, &includes);
    int state[MAX_FOLDERS] = {0}, cycles = 0;
    for (int i = 0; i < t.n; i++)
        if (state[i] == 0)
            cycles += cycle_from(&t, i, state);
    CU_ASSERT_EQUAL(cycles, 0);
    /* the arrows the rule forbids: base/ uses no folder, sim/ no policy */
    const struct row *base = owner(&t, "base/util.c"), *sim = owner(&t, "sim/runtime.c");
    const struct row *pol = owner(&t, "policies/heft.c"), *bm = owner(&t, "policies/bm/bm_model.c");
    for (int j = 0; j < t.n; j++)
        CU_ASSERT_FALSE(arrow[base - t.rows][j]);
    for (int i = 0; i < t.n; i++) /* sim/ and its engines use no policy */
        if (strncmp(t.rows[i].folder, "sim/", 4) == 0) {
            CU_ASSERT_FALSE(arrow[i][pol - t.rows]);
            CU_ASSERT_FALSE(arrow[i][bm - t.rows]);
        }
    CU_ASSERT_TRUE(arrow[pol - t.rows][sim - t.rows]); /* the walk saw the arrows */
}

/* tests/cli/ and tests/docs/ test the command end to end, not one module. */
static bool end_to_end(const char *dir)
{
    return strcmp(dir, "tests/cli/") == 0 || strcmp(dir, "tests/docs/") == 0;
}

struct test_walk {
    const char *except; /* the one test file docs/layout.md names otherwise */
    long checked;
};

/* 1 if file is a unit test tests/FOLDER/test_MODULE.c without FOLDER/MODULE.c
 * or FOLDER/MODULE.cu (said on stderr), else 0. */
static int misnamed(const char *file, void *ctx)
{
    struct test_walk *w = ctx;
    const char *name = strrchr(file, '/') + 1;
    size_t len = strlen(name);
    if (strncmp(name, "test_", 5) || len < 8 || strcmp(name + len - 2, ".c") || strcmp(file, w->except) == 0)
        return 0;
    w->checked++;
    char module[4096];
    struct stat st;
    int folder = (int)(name - file) - 6; /* without "tests/" */
    snprintf(module, sizeof module, "%s/%.*s%.*s.c", HETSIM_SOURCE_DIR, folder, file + 6, (int)(len - 7), name + 5);
    if (stat(module, &st) == 0)
        return 0;
    strcat(module, "u"); /* a CUDA module */
    if (stat(module, &st) == 0)
        return 0;
    module[strlen(module) - 1] = '\0';
    fprintf(stderr, "\n%s tests no module: there is no %s (docs/layout.md, Tests)", file,
            module + strlen(HETSIM_SOURCE_DIR) + 1);
    return 1;
}

/* Unit tests are found by their module's name; the exception is the one
 * docs/layout.md names. */
static void test_tests_named_after_modules(void)
{
    char path[1024], except[256] = "";
    snprintf(path, sizeof path, "%s/docs/layout.md", HETSIM_SOURCE_DIR);
    char *text = hs_test_read_file(path);
    const char *p = strstr(text, "The one file named otherwise is\n`");
    if (!p)
        p = strstr(text, "The one file named otherwise is `");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    p = strchr(p, '`') + 1;
    snprintf(except, sizeof except, "%.*s", (int)(strchr(p, '`') - p), p);
    free(text);
    struct test_walk w = {except, 0};
    CU_ASSERT_EQUAL(each_file("tests/", end_to_end, misnamed, &w), 0);
    CU_ASSERT_TRUE(w.checked > 50); /* the walk saw the unit tests */
}

int main(void)
{
    const CU_TestInfo tests[] = {
        {"the table of docs/layout.md", test_table},
        {"every include follows it", test_every_include},
        {"no cycle between folders", test_no_cycle},
        {"every unit test is named after its module", test_tests_named_after_modules},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("layout", tests);
}
