/* tests/analysis/test_ledger.c — the ledger of published claims: the verdict of
 * a claim from hand-made counts of its published values, the value its row
 * shows, the claims file's checks, and `hetsim reproduce --ledger` end to
 * end on a small study of its own (five claims: one holds, one in part, one
 * fails, one without a study, one hetsim cannot run), with --markdown, --platform-map and
 * --policy-param; a study computed by an analysis (Beaumont and Marchal's
 * §3.6 grid) instead of a sweep, checked with the min and max statistics;
 * a run two studies hold computed once; the ledger in two shards joined by
 * --merge gives the table of one process; a run another study wrote into the
 * same folder in an earlier invocation is copied, not run again.
 * The shipped studies' claim tags all name claims of the shipped claims file. */
#include "analysis/ledger.h"
#include "analysis/study.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <stdlib.h>
#include <string.h>

static void test_verdicts(void)
{
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 0, 0, 0), HS_NOT_RUN); /* no value checks it */
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 3, 0, 0), HS_NOT_RUN); /* no run evaluated any */
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 3, 3, 3), HS_HOLDS);
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 1, 1, 1), HS_HOLDS);
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 3, 3, 0), HS_FAILS);
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 3, 3, 1), HS_FAILS);  /* fewer than half met */
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 3, 3, 2), HS_PARTLY); /* at least half */
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 2, 2, 1), HS_PARTLY); /* half */
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 18, 18, 8), HS_FAILS);
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 3, 2, 2), HS_PARTLY); /* one not evaluated is not met */
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 4, 1, 1), HS_FAILS);  /* three not evaluated: 1 of 4 */
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 3, 1, 0), HS_FAILS);
    CU_ASSERT_STRING_EQUAL(hs_verdict_name(HS_PARTLY), "partly");
    CU_ASSERT_STRING_EQUAL(hs_verdict_name(HS_NOT_RUN), "not run");
    /* a claim hetsim cannot run: whatever its counts */
    CU_ASSERT_EQUAL(hs_claim_verdict(true, 0, 0, 0), HS_NOT_RUNNABLE);
    CU_ASSERT_EQUAL(hs_claim_verdict(true, 3, 3, 3), HS_NOT_RUNNABLE);
    CU_ASSERT_EQUAL(hs_claim_verdict(false, 0, 0, 0), HS_NOT_RUN);
    CU_ASSERT_STRING_EQUAL(hs_verdict_name(HS_NOT_RUNNABLE), "not runnable");
    CU_ASSERT_STRING_EQUAL(hs_verdict_name(HS_NOT_REPRODUCIBLE), "not reproducible");
    CU_ASSERT_STRING_EQUAL(hs_verdict_name(HS_CALIBRATION), "calibration");
    /* a loaded claim: the file's marking, whatever its counts */
    struct hs_claim c = {.nrefs = 2, .nevaluated = 2, .nmet = 2};
    CU_ASSERT_EQUAL(hs_claim_verdict_of(&c), HS_HOLDS);
    CU_ASSERT_FALSE(hs_claim_on_assumption(&c));
    c.assumed = "a cost", c.flipped_by = "costs=off: fails";
    CU_ASSERT_EQUAL(hs_claim_verdict_of(&c), HS_HOLDS);
    CU_ASSERT_TRUE(hs_claim_on_assumption(&c));
    c.nmet = 0; /* an assumption marks only a hold */
    CU_ASSERT_EQUAL(hs_claim_verdict_of(&c), HS_FAILS);
    CU_ASSERT_FALSE(hs_claim_on_assumption(&c));
    c.assumed = c.flipped_by = NULL, c.nmet = 2;
    c.calibration = "the per-task cost";
    CU_ASSERT_EQUAL(hs_claim_verdict_of(&c), HS_CALIBRATION);
    c.calibration = NULL, c.not_reproducible = "why (not_reproducible: t_x)";
    CU_ASSERT_EQUAL(hs_claim_verdict_of(&c), HS_NOT_REPRODUCIBLE);
    c.nmet = 0;
    CU_ASSERT_EQUAL(hs_claim_verdict_of(&c), HS_NOT_REPRODUCIBLE);
    c.not_runnable = "no model";
    CU_ASSERT_EQUAL(hs_claim_verdict_of(&c), HS_NOT_RUNNABLE);
    char name[64];
    hs_claim_test_name("shetti:T5.3-slr", name, sizeof name);
    CU_ASSERT_STRING_EQUAL(name, "shetti_T5_3_slr");
    hs_claim_test_name("beniamine:R4", name, 8);
    CU_ASSERT_STRING_EQUAL(name, "beniami");
}

/* A row shows the claim's first missed value, or its first if none missed. */
static void test_shown_value(void)
{
    struct hs_claim c = {0};
    hs_claim_add(&c, true, true, "1790", "1802", "7%");
    CU_ASSERT_STRING_EQUAL(c.published, "1790");
    hs_claim_add(&c, true, false, "<= 1", "1.4", "");
    hs_claim_add(&c, false, false, "968", "x", "30%");
    CU_ASSERT_STRING_EQUAL(c.published, "<= 1");
    CU_ASSERT_STRING_EQUAL(c.ours, "1.4");
    CU_ASSERT_EQUAL(c.nrefs, 3);
    CU_ASSERT_EQUAL(c.nevaluated, 2);
    CU_ASSERT_EQUAL(c.nmet, 1);
    free(c.published), free(c.ours), free(c.tolerance);
    struct hs_claim d = {0};
    hs_claim_add(&d, false, false, "968", "x", "30%");
    CU_ASSERT_STRING_EQUAL(d.ours, "no run");
    free(d.published), free(d.ours), free(d.tolerance);
}

static const char *const claims_ok =
    "{\"papers\": {\"p\": {\"short\": \"Paper 2014\", \"cite\": \"A. Author, A paper, 2014\"}},\n"
    " \"claims\": [\n"
    "  {\"id\": \"t:holds\", \"paper\": \"p\", \"where\": \"Fig. 1\", \"claim\": \"it runs\"},\n"
    "  {\"id\": \"t:partly\", \"paper\": \"p\", \"where\": \"Fig. 2\", \"claim\": \"runs in no time\",\n"
    "   \"why\": \"time passes\", \"experiment\": \"ledger-toy\"},\n"
    "  {\"id\": \"t:fails\", \"paper\": \"p\", \"where\": \"Fig. 3\", \"claim\": \"never ends\", \"why\": \"it ends\"},\n"
    "  {\"id\": \"t:notrun\", \"paper\": \"p\", \"where\": \"Table 1\", \"claim\": \"nobody ran it\"},\n"
    "  {\"id\": \"t:norun\", \"paper\": \"p\", \"where\": \"Chapter 7\", \"claim\": \"on a Xeon Phi\",\n"
    "   \"not_runnable\": \"no model of a Xeon Phi\"}]}\n";

static void expect_load_error(const char *text, const char *needle)
{
    char *path = hs_test_tmp(".json");
    hs_test_write_file(path, text);
    struct hs_ledger l;
    CU_ASSERT_NOT_EQUAL(hs_ledger_load(path, &l), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), needle));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), path));
    free(path);
}

static void test_claims_file(void)
{
    char *path = hs_test_tmp(".json");
    hs_test_write_file(path, claims_ok);
    struct hs_ledger l;
    CU_ASSERT_EQUAL_FATAL(hs_ledger_load(path, &l), 0);
    CU_ASSERT_EQUAL(l.nclaims, 5);
    CU_ASSERT_STRING_EQUAL(hs_ledger_find(&l, "t:norun")->not_runnable, "no model of a Xeon Phi");
    CU_ASSERT_PTR_NULL(hs_ledger_find(&l, "t:notrun")->not_runnable);
    CU_ASSERT_PTR_NOT_NULL(hs_ledger_find(&l, "t:fails"));
    CU_ASSERT_PTR_NULL(hs_ledger_find(&l, "t:nope"));
    CU_ASSERT_STRING_EQUAL(hs_ledger_paper(&l, "p")->short_name, "Paper 2014");
    hs_ledger_free(&l);
    free(path);
    expect_load_error("{\"papers\": {}, \"claims\": [{\"id\": \"a\", \"paper\": \"q\", \"where\": \"w\", "
                      "\"claim\": \"c\"}]}",
                      "unknown paper 'q'");
    expect_load_error("{\"papers\": {\"p\": {\"short\": \"s\", \"cite\": \"c\"}}, \"claims\": ["
                      "{\"id\": \"a\", \"paper\": \"p\", \"where\": \"w\", \"claim\": \"c\"},"
                      "{\"id\": \"a\", \"paper\": \"p\", \"where\": \"w\", \"claim\": \"c\"}]}",
                      "claims[1].id: 'a' already used");
    expect_load_error("{\"papers\": {}, \"claims\": [{\"id\": \"a\", \"paper\": \"p\", \"wher\": \"w\"}]}",
                      "claims[0].wher: unknown key");
    expect_load_error("{\"papers\": {}, \"claims\": [{\"id\": \"a\"}]}", "claims[0].paper: missing");
    expect_load_error("{\"claims\": []", "malformed JSON");
    expect_load_error("{\"papers\": {\"p\": {\"short\": \"s\", \"cite\": \"c\"}}, \"claims\": ["
                      "{\"id\": \"a\", \"paper\": \"p\", \"where\": \"w\", \"claim\": \"c\", \"not_runnable\": \"\"}]}",
                      "claims[0].not_runnable: expected a non-empty string");
#define CLAIM "{\"papers\": {\"p\": {\"short\": \"s\", \"cite\": \"c\"}}, \"claims\": [" \
              "{\"id\": \"a:b-1.2\", \"paper\": \"p\", \"where\": \"w\", \"claim\": \"c\", "
    expect_load_error(CLAIM "\"not_reproducible\": \"no reading reaches it\"}]}",
                      "claims[0].not_reproducible: name the test that shows it ('not_reproducible: a_b_1_2')");
    expect_load_error(CLAIM "\"calibration\": \"x\", \"not_reproducible\": \"(not_reproducible: a_b_1_2)\"}]}",
                      "claims[0]: a claim is at most one of not_runnable, not_reproducible, calibration and assumed");
    expect_load_error(CLAIM "\"assumed\": \"a cost\"}]}", "claims[0]: assumed needs flipped_by");
    expect_load_error(CLAIM "\"flipped_by\": \"costs=off\"}]}", "claims[0]: flipped_by goes with assumed");
    expect_load_error(CLAIM "\"calibration\": \"\"}]}", "claims[0].calibration: expected a non-empty string");
#undef CLAIM
}

/* A study of its own: makespan >= 0 holds, makespan <= 0 fails. */
static const char *const toy_study =
    "{\"title\": \"toy\", \"sweep\": {\"base\": {\"platform\": \"flat:2\", \"workload\": "
    "\"random:v=8,seed=3,p=2\"}, \"vary\": {\"policy\": [\"eager\", \"heft\", \"dmda\"]}},\n"
    " \"published\": [\n"
    "  {\"where\": {\"policy\": \"heft\"}, \"metric\": \"makespan\", \"value\": 0, \"bound\": \"lower\", "
    "\"claim\": \"t:holds\"},\n"
    "  {\"where\": {\"policy\": \"eager\"}, \"metric\": \"makespan\", \"value\": 0, \"bound\": \"lower\", "
    "\"claim\": \"t:partly\"},\n"
    "  {\"where\": {\"policy\": \"eager\"}, \"metric\": \"makespan\", \"value\": 0, \"bound\": \"upper\", "
    "\"claim\": \"t:partly\"},\n"
    "  {\"where\": {\"policy\": \"heft\"}, \"metric\": \"makespan\", \"value\": 0, \"bound\": \"upper\", "
    "\"claim\": \"t:fails\"},\n"
    "  {\"where\": {\"policy\": \"heft\"}, \"metric\": \"makespan\", \"value\": 1e-9, \"tolerance\": 0.5, "
    "\"claim\": \"t:fails\"},\n"
    "  {\"where\": {\"policy\": \"heft\"}, \"metric\": \"makespan\", \"value\": 1e-9, \"tolerance\": 0.5, "
    "\"claim\": \"t:holds\", \"circular\": \"a parameter taken from the same sentence\"}]}\n";

static void test_cli_ledger(void)
{
    char *dir = hs_test_tmp_dir("-studies"), *claims = hs_test_tmp(".json"), *out_dir = hs_test_tmp("-out");
    char *md = hs_test_tmp(".md"), path[1024], args[4096];
    snprintf(path, sizeof path, "%s/ledger-toy.json", dir);
    hs_test_write_file(path, toy_study);
    hs_test_write_file(claims, claims_ok);
    setenv("HETSIM_STUDYDIR", dir, 1);
    snprintf(args, sizeof args, "reproduce --ledger -q -j 1 --claims %s -o %s --markdown %s", claims, out_dir, md);
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "5 claims: 1 hold (0 of them on an assumption), 1 partly, 1 fail, 0 not reproducible, 0 calibration, "
                                       "1 not run, 1 not runnable\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "t:partly"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "1/1 (+1 circular)")); /* t:holds: missed, but not evidence */
    char *table = hs_test_read_file(md);
    CU_ASSERT(table && strstr(table, "| time passes (`ledger-toy`) |"));
    CU_ASSERT(table && strstr(table, "| runs in no time |"));
    CU_ASSERT(table && strstr(table, "| on a Xeon Phi |  |  | 0/0 | not runnable | no model of a Xeon Phi |"));
    free(table), free(out), free(err);
    /* no claim reads dmda's runs: the ledger does not run them (reproduce ledger-toy would) */
    snprintf(path, sizeof path, "%s/ledger-toy/results.csv", out_dir);
    char *rows = hs_test_read_file(path);
    CU_ASSERT(rows && strstr(rows, ",heft,") && strstr(rows, ",eager,") && !strstr(rows, "dmda"));
    free(rows);
    /* the same studies on another platform: the rows name it */
    snprintf(args, sizeof args, "reproduce --ledger -q -j 1 --claims %s -o %s-map --platform-map flat:2=flat:2,lat=1e-6",
             claims, out_dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    free(out), free(err);
    snprintf(path, sizeof path, "%s-map/ledger-toy/results.csv", out_dir);
    char *csv = hs_test_read_file(path);
    CU_ASSERT(csv && strstr(csv, "\"flat:2,lat=1e-6\""));
    free(csv);
    /* a parameter added to every use of a policy: the rows name it */
    snprintf(args, sizeof args, "reproduce --ledger -q -j 1 --claims %s -o %s-param --policy-param heft:insertion=1",
             claims, out_dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "5 claims: 1 hold (0 of them on an assumption), 1 partly, 1 fail, 0 not reproducible, 0 calibration, "
                                       "1 not run, 1 not runnable\n"));
    free(out), free(err);
    snprintf(path, sizeof path, "%s-param/ledger-toy/results.csv", out_dir);
    csv = hs_test_read_file(path);
    CU_ASSERT(csv && strstr(csv, "heft:insertion=1"));
    free(csv);
    /* a value tagged with a claim hetsim cannot run: one of the two is wrong */
    snprintf(path, sizeof path, "%s/ledger-toy.json", dir);
    char *study = hs_xstrdup(toy_study), *tag = strstr(study, "\"t:partly\"");
    memcpy(tag, "\"t:norun\" ", 10); /* the first t:partly value now checks t:norun */
    hs_test_write_file(path, study);
    free(study);
    snprintf(args, sizeof args, "reproduce --ledger -q -j 1 --claims %s -o %s-bad", claims, out_dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "published[1].claim: 't:norun' is not runnable in"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "ledger-toy.json"));
    free(out), free(err);
    hs_test_write_file(path, toy_study);
    /* bad input: one line, exit 2 */
    CU_ASSERT_EQUAL(hs_test_cli("reproduce --ledger --policy-param ws", &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "NAME:KEY=VALUE"));
    free(out), free(err);
    CU_ASSERT_EQUAL(hs_test_cli("reproduce --ledger --platform-map idgraf", &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "FROM=TO"));
    free(out), free(err);
    CU_ASSERT_EQUAL(hs_test_cli("reproduce --ledger --markdown /nonexistent/dir/l.md", &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/dir/l.md"));
    free(out), free(err);
    CU_ASSERT_EQUAL(hs_test_cli("reproduce cholesky-idgraf-gpus --set window=1", &out, &err), 2);
    free(out), free(err);
    unsetenv("HETSIM_STUDYDIR");
    free(dir), free(claims), free(out_dir), free(md);
}

/* The claims file's markings on the toy study's claims: a hold resting on
 * an assumption (counted apart), a calibration and a claim not
 * reproducible (shown with their values, not counted). */
static const char *const claims_marked =
    "{\"papers\": {\"p\": {\"short\": \"Paper 2014\", \"cite\": \"A. Author, A paper, 2014\"}},\n"
    " \"claims\": [\n"
    "  {\"id\": \"t:holds\", \"paper\": \"p\", \"where\": \"Fig. 1\", \"claim\": \"it runs\",\n"
    "   \"assumed\": \"a cost\", \"flipped_by\": \"--set costs=off: fails\"},\n"
    "  {\"id\": \"t:partly\", \"paper\": \"p\", \"where\": \"Fig. 2\", \"claim\": \"runs in no time\",\n"
    "   \"calibration\": \"the per-task cost\"},\n"
    "  {\"id\": \"t:fails\", \"paper\": \"p\", \"where\": \"Fig. 3\", \"claim\": \"never ends\",\n"
    "   \"not_reproducible\": \"no reading reaches it (not_reproducible: t_fails)\"},\n"
    "  {\"id\": \"t:notrun\", \"paper\": \"p\", \"where\": \"Table 1\", \"claim\": \"nobody ran it\"},\n"
    "  {\"id\": \"t:norun\", \"paper\": \"p\", \"where\": \"Chapter 7\", \"claim\": \"on a Xeon Phi\",\n"
    "   \"not_runnable\": \"no model of a Xeon Phi\"}]}\n";

static void test_cli_markings(void)
{
    char *dir = hs_test_tmp_dir("-mstudies"), *claims = hs_test_tmp(".json"), *out_dir = hs_test_tmp("-mout");
    char *md = hs_test_tmp(".md"), path[1024], args[4096];
    snprintf(path, sizeof path, "%s/ledger-toy.json", dir);
    hs_test_write_file(path, toy_study);
    hs_test_write_file(claims, claims_marked);
    setenv("HETSIM_STUDYDIR", dir, 1);
    snprintf(args, sizeof args, "reproduce --ledger -q -j 1 --claims %s -o %s --markdown %s", claims, out_dir, md);
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "5 claims: 1 hold (1 of them on an assumption), 0 partly, 0 fail, 1 not "
                                       "reproducible, 1 calibration, 1 not run, 1 not runnable\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "holds (assumed: a cost)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "not reproducible"));
    char *table = hs_test_read_file(md);
    /* each still shows its values: t:partly's and t:fails' missed bounds */
    CU_ASSERT(table && strstr(table, "| 1/2 | calibration | calibrates the per-task cost |"));
    CU_ASSERT(table && strstr(table, "| 0/2 | not reproducible | not reproducible: no reading reaches it "
                                     "(not_reproducible: t_fails) |"));
    CU_ASSERT(table && strstr(table, "| holds (assumed: a cost) | holds on an assumption (a cost): --set "
                                     "costs=off: fails |"));
    CU_ASSERT(table && strstr(table, "| <= 0 |")); /* a missed value, shown */
    free(table), free(out), free(err);
    unsetenv("HETSIM_STUDYDIR");
    free(dir), free(claims), free(out_dir), free(md);
}

/* Repetitions stop when their statistics are known: a deterministic point
 * stops at the first round's 5 of its 12; a noisy one whose value is
 * checked within 1% runs 5, then 10, then all 12; an unread one none. */
static int rows_holding(const char *csv, const char *text)
{
    int n = 0;
    for (const char *p = csv; p && (p = strstr(p, text)) != NULL; p++)
        n++;
    return n;
}

static const char *const reps_study =
    "{\"title\": \"reps\", \"sweep\": {\"base\": {\"platform\": \"flat:2\", \"workload\": "
    "\"random:v=8,seed=3,p=2\"}, \"vary\": {\"policy\": [\"eager\", \"heft\", \"dmda\"], "
    "\"noise\": [0, 0.2]}, \"reps\": 12},\n"
    " \"published\": [\n"
    "  {\"where\": {\"policy\": \"heft\", \"noise\": 0}, \"metric\": \"makespan\", \"value\": 0, "
    "\"bound\": \"lower\", \"claim\": \"t:holds\"},\n"
    "  {\"where\": {\"policy\": \"eager\", \"noise\": 0.2}, \"metric\": \"makespan\", \"value\": 1e-9, "
    "\"tolerance\": 0.01, \"claim\": \"t:fails\"}]}\n";

static void test_repetitions(void)
{
    char *dir = hs_test_tmp_dir("-rstudies"), *claims = hs_test_tmp(".json"), *out_dir = hs_test_tmp("-rout");
    char path[1024], args[4096];
    snprintf(path, sizeof path, "%s/ledger-reps.json", dir);
    hs_test_write_file(path, reps_study);
    hs_test_write_file(claims, claims_ok);
    setenv("HETSIM_STUDYDIR", dir, 1);
    snprintf(args, sizeof args, "reproduce --ledger -q -j 2 --claims %s -o %s", claims, out_dir);
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    free(out), free(err);
    snprintf(path, sizeof path, "%s/ledger-reps/results.csv", out_dir);
    char *csv = hs_test_read_file(path);
    CU_ASSERT_EQUAL(rows_holding(csv, ",heft,"), 5);
    CU_ASSERT_EQUAL(rows_holding(csv, ",eager,"), 12);
    CU_ASSERT_EQUAL(rows_holding(csv, ",dmda,"), 0);
    free(csv);
    unsetenv("HETSIM_STUDYDIR");
    free(dir), free(claims), free(out_dir);
}

/* A run two studies hold (the same key: ledger-toy2's heft run is
 * ledger-toy's) is computed once: the second study's row is the first's from
 * its status on, wall-clock columns included, with its own sweep column. */
static const char *const toy2_study =
    "{\"title\": \"toy 2\", \"sweep\": {\"base\": {\"platform\": \"flat:2\", \"workload\": "
    "\"random:v=8,seed=3,p=2\"}, \"vary\": {\"policy\": [\"heft\", \"dmda\"]}},\n"
    " \"published\": [{\"where\": {\"policy\": \"heft\"}, \"metric\": \"makespan\", \"value\": 0, "
    "\"bound\": \"lower\", \"claim\": \"t:holds\"}]}\n";

/* The line of csv holding text (a copy, caller frees), or NULL. */
static char *line_with(const char *csv, const char *text)
{
    const char *p = csv ? strstr(csv, text) : NULL;
    if (!p)
        return NULL;
    while (p > csv && p[-1] != '\n')
        p--;
    size_t n = strcspn(p, "\n");
    char *line = hs_xmalloc(n + 1);
    memcpy(line, p, n);
    line[n] = '\0';
    return line;
}

/* A folder of studies (ledger-toy and the study of that name, as
 * HETSIM_STUDYDIR), the claims file: the folder (caller frees). */
static char *two_studies(const char *name, const char *study, const char *claims)
{
    char *dir = hs_test_tmp_dir("-2studies"), path[1024];
    snprintf(path, sizeof path, "%s/ledger-toy.json", dir);
    hs_test_write_file(path, toy_study);
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    hs_test_write_file(path, study);
    hs_test_write_file(claims, claims_ok);
    setenv("HETSIM_STUDYDIR", dir, 1);
    return dir;
}

static void test_shared_runs(void)
{
    char *claims = hs_test_tmp(".json"), *out_dir = hs_test_tmp("-sout");
    char *dir = two_studies("ledger-toy2", toy2_study, claims), path[1024], args[4096];
    snprintf(args, sizeof args, "reproduce --ledger -j 2 --claims %s -o %s", claims, out_dir);
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "ledger: 1 run that another study had computed, copied\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 of them copied from another study's run"));
    free(out), free(err);
    snprintf(path, sizeof path, "%s/ledger-toy/results.csv", out_dir);
    char *csv1 = hs_test_read_file(path);
    snprintf(path, sizeof path, "%s/ledger-toy2/results.csv", out_dir);
    char *csv2 = hs_test_read_file(path), *a = line_with(csv1, ",heft,"), *b = line_with(csv2, ",heft,");
    CU_ASSERT(a && b && strstr(a, ",ok,") && strstr(b, ",ok,"));
    if (a && b && strstr(a, ",ok,") && strstr(b, ",ok,")) {
        CU_ASSERT_STRING_EQUAL(strstr(a, ",ok,"), strstr(b, ",ok,"));
        CU_ASSERT_NSTRING_EQUAL(a, b, 16); /* the same key */
        CU_ASSERT_STRING_NOT_EQUAL(a, b);  /* another sweep */
    }
    CU_ASSERT_EQUAL(rows_holding(csv2, "\n"), 2); /* the header and heft's row: dmda is not read */
    free(a), free(b), free(csv1), free(csv2);
    unsetenv("HETSIM_STUDYDIR");
    free(dir), free(claims), free(out_dir);
}

/* The ledger in two shards (--shard 0/2, 1/2, each into its folder), joined
 * by --merge: the table of one process, every run in one shard only. */
static long data_rows(const char *dir, const char *study)
{
    char *path = hs_xmalloc(strlen(dir) + strlen(study) + 16);
    sprintf(path, "%s/%s/results.csv", dir, study);
    char *csv = hs_test_read_file(path);
    long n = csv ? rows_holding(csv, "\n") - 1 : -1;
    free(csv), free(path);
    return n;
}

static void test_shards(void)
{
    char *claims = hs_test_tmp(".json"), *out_dir = hs_test_tmp("-hout");
    char *dir = two_studies("ledger-reps", reps_study, claims), path[1024], args[4096];
    char *one = NULL, *merged = NULL, *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "reproduce --ledger -q -j 2 --claims %s -o %s/one", claims, out_dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &one, &err), 0);
    free(err);
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "reproduce --ledger -q -j 2 --claims %s --shard %d/2 -o %s/part-%d", claims, i,
                 out_dir, i);
        CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
        free(out), free(err);
    }
    snprintf(args, sizeof args, "reproduce --ledger -q --claims %s -o %s/merged --merge %s/part-0 %s/part-1", claims,
             out_dir, out_dir, out_dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &merged, &err), 0);
    free(err);
    CU_ASSERT(one && merged && strstr(one, "5 claims: 1 hold (0 of them on an assumption), 1 partly, 1 fail, 0 not reproducible, 0 calibration, "
                                       "1 not run, 1 not runnable\n"));
    if (one && merged)
        CU_ASSERT_STRING_EQUAL(merged, one);
    snprintf(path, sizeof path, "%s/one", out_dir);
    char parts[2][1024], merged_dir[1024];
    snprintf(parts[0], sizeof parts[0], "%s/part-0", out_dir);
    snprintf(parts[1], sizeof parts[1], "%s/part-1", out_dir);
    snprintf(merged_dir, sizeof merged_dir, "%s/merged", out_dir);
    static const char *const studies[] = {"ledger-toy", "ledger-reps"};
    for (int s = 0; s < 2; s++) {
        long a = data_rows(parts[0], studies[s]), b = data_rows(parts[1], studies[s]);
        CU_ASSERT_EQUAL(a + b, data_rows(path, studies[s])); /* no run in both shards */
        CU_ASSERT_EQUAL(data_rows(merged_dir, studies[s]), data_rows(path, studies[s]));
    }
    /* both shards ran some of ledger-reps' 17 runs (5 of heft's point, 12 of eager's) */
    CU_ASSERT_EQUAL(data_rows(path, "ledger-reps"), 17);
    CU_ASSERT(data_rows(parts[0], "ledger-reps") > 0 && data_rows(parts[1], "ledger-reps") > 0);
    free(one), free(merged);
    unsetenv("HETSIM_STUDYDIR");
    free(dir), free(claims), free(out_dir);
}

/* Runs shared across invocations: convex-idgraf, then convex-idgraf-maxsize
 * into the same folder (two shipped studies that share runs: in a full
 * ledger, 6 of the second's keys are the first's). The second invocation
 * copies every run whose key the first study's file holds instead of running
 * it (the count in its summary line is the number of keys of a fresh run of
 * the second study found in the first's file, counted here; their rows are the
 * first's from status on, wall-clock columns included: not run again), and its
 * rows are those of a fresh run, but for the wall-clock columns (the last 3). */
static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The data lines of a results file without their last 3 fields, sorted, as
 * one text (caller frees). */
static char *rows_sans_wallclock(const char *dir, const char *study)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/results.csv", dir, study);
    char *csv = hs_test_read_file(path), **lines = hs_xcalloc((size_t)rows_holding(csv, "\n") + 1, sizeof *lines);
    size_t n = 0, len = 1;
    for (char *line = csv ? strchr(csv, '\n') : NULL; line && line[1]; n++) {
        *line++ = '\0';
        char *end = strchr(line, '\n');
        *end = '\0';
        for (int k = 0; k < 3 && strrchr(line, ','); k++)
            *strrchr(line, ',') = '\0';
        lines[n] = line, len += strlen(line) + 1;
        line = end;
        *line = '\n';
    }
    qsort(lines, n, sizeof *lines, by_text);
    char *all = hs_xcalloc(1, len);
    for (size_t i = 0; i < n; i++)
        strcat(strcat(all, lines[i]), "\n");
    free(lines), free(csv);
    return all;
}

static void test_earlier_runs(void)
{
    char *out_dir = hs_test_tmp("-eout"), args[4096], *out = NULL, *err = NULL;
    static const char *const a = "convex-idgraf", *const b = "convex-idgraf-maxsize";
    snprintf(args, sizeof args, "reproduce --ledger -q -j 2 --only %s -o %s/fresh", b, out_dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    free(out), free(err);
    snprintf(args, sizeof args, "reproduce --ledger -q -j 2 --only %s -o %s/both", a, out_dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    free(out), free(err);
    /* the keys of the fresh second study that the first's file holds */
    char path[1024];
    snprintf(path, sizeof path, "%s/both/%s/results.csv", out_dir, a);
    char *first = hs_test_read_file(path);
    snprintf(path, sizeof path, "%s/fresh/%s/results.csv", out_dir, b);
    char *fresh = hs_test_read_file(path), key[18];
    int shared = 0;
    for (const char *p = fresh ? strchr(fresh, '\n') : NULL; p && p[1]; p = strchr(p + 1, '\n')) {
        snprintf(key, sizeof key, "\n%.16s", p + 1);
        shared += strstr(first, key) != NULL;
    }
    CU_ASSERT(shared > 0);
    snprintf(args, sizeof args, "reproduce --ledger -j 2 --only %s -o %s/both", b, out_dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    char line[512];
    snprintf(line, sizeof line, "ledger: %d runs that another study had computed, copied (%d of them from the "
             "results an earlier run wrote in %s/both)\n", shared, shared, out_dir);
    if (!strstr(err, line))
        fprintf(stderr, "\nexpected: %s%s", line, err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, line));
    free(out), free(err);
    /* the copied rows are the first study's, wall-clock columns included */
    snprintf(path, sizeof path, "%s/both/%s/results.csv", out_dir, b);
    char *second = hs_test_read_file(path);
    int same = 0;
    for (const char *p = second ? strchr(second, '\n') : NULL; p && p[1]; p = strchr(p + 1, '\n')) {
        snprintf(key, sizeof key, "\n%.16s", p + 1);
        char *x = line_with(first, key + 1), *y = line_with(second, key + 1);
        same += x && y && strstr(x, ",ok,") && strcmp(strstr(x, ",ok,"), strstr(y, ",ok,")) == 0;
        free(x), free(y);
    }
    CU_ASSERT_EQUAL(same, shared);
    /* the rows of a fresh run */
    char *both_dir = hs_xmalloc(strlen(out_dir) + 8), *fresh_dir = hs_xmalloc(strlen(out_dir) + 8);
    sprintf(both_dir, "%s/both", out_dir), sprintf(fresh_dir, "%s/fresh", out_dir);
    char *x = rows_sans_wallclock(both_dir, b), *y = rows_sans_wallclock(fresh_dir, b);
    CU_ASSERT(*y != '\0');
    CU_ASSERT_STRING_EQUAL(x, y);
    free(x), free(y), free(both_dir), free(fresh_dir), free(first), free(fresh), free(second), free(out_dir);
}

/* An analysis in place of a sweep: the grid has 51 points (p = 10 ... 100
 * take n = 10 ... 1000, 8 each; p = 200 starts at n = 20, p = 500 and 1000
 * at n = 32); β for equal speeds at p = 20, n = 100 is the paper's 4.1705
 * (Beaumont and Marchal 2014, §3.6); max of draws is the draws asked for
 * (each has an interior minimum there). */
static const char *const grid_study =
    "{\"title\": \"grid\", \"analysis\": {\"kind\": \"beta-grid\", \"problem\": \"outer\", \"draws\": 3},\n"
    " \"published\": [\n"
    "  {\"where\": {\"p\": 20, \"n\": 100}, \"metric\": \"beta_hom\", \"stat\": \"max\", \"value\": 4.1705, "
    "\"tolerance\": 1e-4, \"claim\": \"t:holds\"},\n"
    "  {\"where\": {\"p\": 20, \"n\": 100}, \"metric\": \"draws\", \"stat\": \"min\", \"value\": 3, "
    "\"tolerance\": 0, \"claim\": \"t:holds\"},\n"
    "  {\"metric\": \"beta_min\", \"stat\": \"min\", \"value\": 0, \"bound\": \"lower\", \"claim\": \"t:holds\"}]}\n";

static void test_analysis_study(void)
{
    char *dir = hs_test_tmp_dir("-astudies"), *claims = hs_test_tmp(".json"), *out_dir = hs_test_tmp("-aout");
    char path[1024], args[4096];
    snprintf(path, sizeof path, "%s/grid.json", dir);
    hs_test_write_file(path, grid_study);
    hs_test_write_file(claims, claims_ok);
    setenv("HETSIM_STUDYDIR", dir, 1);
    snprintf(args, sizeof args, "reproduce --ledger -q --claims %s -o %s", claims, out_dir);
    char *out = NULL, *err = NULL;
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "5 claims: 1 hold (0 of them on an assumption), 0 partly, 0 fail, 0 not reproducible, 0 "
                                       "calibration, 3 not run, 1 not runnable\n"));
    free(out), free(err);
    snprintf(path, sizeof path, "%s/grid/results.csv", out_dir);
    char *csv = hs_test_read_file(path);
    int lines = 0;
    for (const char *c = csv; c && *c; c++)
        lines += *c == '\n';
    CU_ASSERT_EQUAL(lines, 1 + 51);
    free(csv);
    /* a bad analysis: one line naming the key */
    snprintf(path, sizeof path, "%s/grid.json", dir);
    hs_test_write_file(path, "{\"analysis\": {\"kind\": \"beta-grid\", \"problem\": \"inner\"}}");
    CU_ASSERT_EQUAL(hs_test_cli("reproduce grid -o /dev/null", &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "analysis.problem: expected outer or matmul"));
    free(out), free(err);
    hs_test_write_file(path, "{\"analysis\": {\"kind\": \"beta-grid\", \"problem\": \"outer\", \"seed\": 1.5}}");
    CU_ASSERT_EQUAL(hs_test_cli("reproduce grid -o /dev/null", &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "analysis.seed: expected a whole number"));
    free(out), free(err);
    hs_test_write_file(path, "{\"analysis\": {\"kind\": \"beta-grid\", \"problem\": \"outer\"}, "
                             "\"sweep\": {}}");
    CU_ASSERT_EQUAL(hs_test_cli("reproduce grid -o /dev/null", &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "no sweep"));
    free(out), free(err);
    unsetenv("HETSIM_STUDYDIR");
    free(dir), free(claims), free(out_dir);
}

/* The ledger's rule, checked when a study loads: a value with no check, a
 * tolerance wider than half the effect (|1.48 - 1| / 2 / 1.48 = 0.16216...,
 * shown rounded down), a figure of no effect without its margin, a strict
 * figure; and what does load. */
static void expect_study(const char *ref, const char *needle)
{
    char *path = hs_test_tmp(".json"), text[2048];
    snprintf(text, sizeof text,
             "{\"title\": \"t\", \"sweep\": {\"base\": {\"platform\": \"flat:2\", \"workload\": "
             "\"random:v=8,seed=3,p=2\"}, \"vary\": {\"policy\": [\"eager\", \"heft\"]}},\n"
             " \"published\": [%s]}\n", ref);
    hs_test_write_file(path, text);
    struct hs_study st;
    int rc = hs_study_load(path, false, &st);
    if (!needle) {
        CU_ASSERT_EQUAL(rc, 0);
        if (!rc)
            hs_study_free(&st);
    } else {
        CU_ASSERT_NOT_EQUAL(rc, 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), needle));
        CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), path));
        if (!strstr(hs_last_error(), needle))
            fprintf(stderr, "expected '%s' in: %s\n", needle, hs_last_error());
    }
    free(path);
}

static void test_rule(void)
{
#define VS "\"where\": {\"policy\": \"eager\"}, \"versus\": {\"policy\": \"heft\"}, \"metric\": \"makespan\", "
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1.48}", "published[0]: a published value needs a check");
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1.48, \"tolerance\": 0.3}",
                 "published[0].tolerance: 0.3 is wider than half the effect the value states (|1.48 - 1| / 2): "
                 "at most 0.1621");
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1.48, \"tolerance\": 0.1621}", NULL);
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1.48, \"tolerance\": 0.1622}", "at most 0.1621");
    /* a gain: null 0, so up to half of it; with null given, from there */
    expect_study("{" VS "\"stat\": \"gain_pct\", \"value\": 20, \"tolerance\": 0.5}", NULL);
    expect_study("{" VS "\"stat\": \"gain_pct\", \"value\": 20, \"tolerance\": 0.51}", "at most 0.5");
    expect_study("{" VS "\"stat\": \"gain_pct\", \"value\": 20, \"null\": 10, \"tolerance\": 0.3}",
                 "|20 - 10| / 2");
    /* no effect: a margin says where the tolerance comes from */
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1, \"tolerance\": 0.05}", "say in margin");
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1, \"tolerance\": 0.05, \"margin\": \"why 5%\"}", NULL);
    /* bounds need no tolerance; strict is a bound's */
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1, \"bound\": \"lower\", \"strict\": true}", NULL);
    /* a direction is checked as a direction: at its null, no margin */
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1, \"bound\": \"lower\", \"strict\": true, "
                 "\"tolerance\": 0.05}", "published[0]: a direction (strict) is checked as a direction: no tolerance");
    expect_study("{" VS "\"stat\": \"gain_pct\", \"value\": 5, \"bound\": \"lower\", \"strict\": true}",
                 "published[0]: a direction (strict) is checked at its null, 0, not 5");
    /* a claim of no gain ("does not scale"): one-sided, its margin said */
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1, \"bound\": \"upper\", \"tolerance\": 0.05}",
                 "a bound at its null with a tolerance is a claim of no gain: say in margin");
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1, \"bound\": \"upper\", \"tolerance\": 0.05, "
                 "\"margin\": \"no gain: 5%\"}", NULL);
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1.1, \"bound\": \"upper\"}", NULL); /* a stated number */
    /* the paper's own spread, where it shows one, in place of half the effect */
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1.02, \"tolerance\": 0.05}", "at most 0.0098");
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1.02, \"tolerance\": 0.05, \"spread\": 0.05, "
                 "\"margin\": \"the paper's spread over draws\"}", NULL);
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1.48, \"tolerance\": 0.1, \"spread\": 0.05, "
                 "\"margin\": \"the paper's spread over draws\"}",
                 "published[0].tolerance: 0.1 is wider than the paper's own spread: at most 0.05");
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1.02, \"tolerance\": 0.05, \"spread\": 0.05}",
                 "spread (the paper's own spread) needs margin");
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1.2, \"tolerance\": 0.05, \"strict\": true}",
                 "strict goes with a bound");
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1.2, \"tolerance\": 0.05, \"circular\": 3}",
                 "circular: expected a string");
    /* a gain over groups: by and of together, with gain_pct; argmax of one column */
    expect_study("{" VS "\"stat\": \"gain_pct\", \"value\": 20, \"tolerance\": 0.25, \"by\": [\"seed\"], "
                 "\"of\": \"max\"}", NULL);
    expect_study("{" VS "\"stat\": \"gain_pct\", \"value\": 20, \"tolerance\": 0.25, \"by\": [\"seed\"]}",
                 "by needs of");
    expect_study("{" VS "\"stat\": \"gain_pct\", \"value\": 20, \"tolerance\": 0.25, \"of\": \"max\"}",
                 "of goes with by");
    expect_study("{" VS "\"stat\": \"ratio\", \"value\": 1.2, \"tolerance\": 0.05, \"by\": [\"seed\"], "
                 "\"of\": \"max\"}", "by and of go with a gain_pct statistic");
    expect_study("{" VS "\"stat\": \"gain_pct\", \"value\": 20, \"tolerance\": 0.25, \"by\": [\"seed\"], "
                 "\"of\": \"median\"}", "published[0].of: expected mean, min, max or argmax");
    expect_study("{" VS "\"stat\": \"gain_pct\", \"value\": 10, \"tolerance\": 0, \"by\": [\"seed\", \"rep\"], "
                 "\"of\": \"argmax\"}", "argmax names the value of one by column");
#undef VS
    /* a power law's exponent is fitted against a column: over names it */
    expect_study("{\"where\": {\"policy\": \"heft\"}, \"metric\": \"policy_seconds\", \"stat\": "
                 "\"loglog_slope\", \"value\": 2.5, \"tolerance\": 0.1}",
                 "published[0]: a column_ratio or loglog_slope statistic needs over");
    expect_study("{\"where\": {\"policy\": \"heft\"}, \"metric\": \"policy_seconds\", \"stat\": "
                 "\"loglog_slope\", \"over\": \"tasks\", \"value\": 2.5, \"tolerance\": 0.1}", NULL);
}

/* Every claim a shipped study checks is a claim of the shipped ledger that
 * hetsim can run, a claim no study checks says why, and every experiment a
 * claim names is a shipped study. */
static void test_shipped_tags(void)
{
    char *claims = hs_study_find_file("ledger/claims.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(claims);
    struct hs_ledger l;
    CU_ASSERT_EQUAL_FATAL(hs_ledger_load(claims, &l), 0);
    char **paths;
    int n = hs_study_paths(&paths), tagged = 0;
    for (int i = 0; i < n; i++) {
        struct hs_study st;
        CU_ASSERT_EQUAL_FATAL(hs_study_load(paths[i], false, &st), 0);
        for (int r = 0; r < st.nrefs; r++) {
            if (!st.refs[r].claim)
                continue;
            tagged++;
            if (!hs_ledger_find(&l, st.refs[r].claim))
                fprintf(stderr, "%s: published[%d]: unknown claim %s\n", paths[i], r, st.refs[r].claim);
            struct hs_claim *c = hs_ledger_find(&l, st.refs[r].claim);
            CU_ASSERT_PTR_NOT_NULL(c);
            if (c && c->not_runnable)
                fprintf(stderr, "%s: published[%d]: claim %s is not runnable\n", paths[i], r, c->id);
            CU_ASSERT(!c || !c->not_runnable);
            if (c)
                c->nrefs++; /* counted here only to find the claims no study checks */
        }
        hs_study_free(&st);
    }
    CU_ASSERT(tagged > 0);
    /* a claim no study checks says why: hetsim cannot run it, or which study it needs */
    for (int c = 0; c < l.nclaims; c++) {
        const struct hs_claim *cl = &l.claims[c];
        if (cl->nrefs == 0 && !cl->not_runnable && !cl->why)
            fprintf(stderr, "%s: no study checks it and no why says which one would\n", cl->id);
        CU_ASSERT(cl->nrefs > 0 || cl->not_runnable || cl->why);
    }
    /* a reason's experiment is a shipped study */
    for (int c = 0; c < l.nclaims; c++) {
        struct hs_study st;
        if (!l.claims[c].experiment)
            continue;
        int rc = hs_study_load(l.claims[c].experiment, false, &st);
        if (rc)
            fprintf(stderr, "%s: experiment %s: %s\n", l.claims[c].id, l.claims[c].experiment, hs_last_error());
        CU_ASSERT_EQUAL(rc, 0);
        if (!rc)
            hs_study_free(&st);
    }
    hs_study_paths_free(paths, n);
    hs_ledger_free(&l);
    free(claims);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"verdicts", test_verdicts},
        {"the value a row shows", test_shown_value},
        {"claims file", test_claims_file},
        {"reproduce --ledger", test_cli_ledger},
        {"not reproducible, calibration, holds on an assumption", test_cli_markings},
        {"a study computed by an analysis", test_analysis_study},
        {"shipped claim tags", test_shipped_tags},
        {"the rule every value follows", test_rule},
        {"repetitions stop when their statistics are known", test_repetitions},
        {"a run two studies hold runs once", test_shared_runs},
        {"the ledger in shards, merged", test_shards},
        {"runs another study wrote in an earlier invocation are copied", test_earlier_runs},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("ledger", tests);
}
