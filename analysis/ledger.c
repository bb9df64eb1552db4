/* analysis/ledger.c — the claims file (cJSON), the verdict of a claim from
 * its published values, and the ledger's table (text and Markdown). */
#include "analysis/ledger.h"
#include "base/buf.h"
#include "base/inputfile.h"
#include "analysis/table.h"
#include "sim/outfile.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* One rule for every claim (docs/fidelity.md): holds when every value is
 * met, partly when at least half are, fails otherwise. A value not
 * evaluated counts as not met. A claim hetsim cannot run is neither. */
enum hs_verdict hs_claim_verdict(bool not_runnable, int nrefs, int nevaluated, int nmet)
{
    if (not_runnable)
        return HS_NOT_RUNNABLE;
    if (nrefs <= 0 || nevaluated <= 0)
        return HS_NOT_RUN;
    if (nmet >= nrefs)
        return HS_HOLDS;
    return 2 * nmet >= nrefs ? HS_PARTLY : HS_FAILS;
}

const char *hs_verdict_name(enum hs_verdict v)
{
    static const char *const names[] = {"holds",       "partly",  "fails",       "not reproducible",
                                        "calibration", "not run", "not runnable"};
    return names[v];
}

enum hs_verdict hs_claim_verdict_of(const struct hs_claim *c)
{
    if (c->not_runnable)
        return HS_NOT_RUNNABLE;
    if (c->not_reproducible)
        return HS_NOT_REPRODUCIBLE;
    if (c->calibration)
        return HS_CALIBRATION;
    return hs_claim_verdict(false, c->nrefs, c->nevaluated, c->nmet);
}

bool hs_claim_on_assumption(const struct hs_claim *c)
{
    return c->assumed && hs_claim_verdict_of(c) == HS_HOLDS;
}

void hs_claim_test_name(const char *id, char *out, size_t size)
{
    size_t n = 0;
    for (; size && id[n] && n + 1 < size; n++)
        out[n] = id[n] == ':' || id[n] == '-' || id[n] == '.' ? '_' : id[n];
    if (size)
        out[n] = '\0';
}

void hs_claim_add(struct hs_claim *c, bool evaluated, bool met, const char *published, const char *ours,
                  const char *tolerance)
{
    c->nrefs++;
    c->nevaluated += evaluated;
    c->nmet += evaluated && met;
    bool missed = !(evaluated && met);
    if (c->published && (c->shown_missed || !missed))
        return; /* keep the first missed value, else the first */
    free(c->published), free(c->ours), free(c->tolerance);
    c->published = hs_xstrdup(published);
    c->ours = hs_xstrdup(evaluated ? ours : "no run");
    c->tolerance = hs_xstrdup(tolerance);
    c->shown_missed = missed;
}

void hs_claim_add_circular(struct hs_claim *c)
{
    c->ncircular++;
}

/* "met/values", and the circular values left out */
static void met_text(const struct hs_claim *c, char *out, size_t size)
{
    int n = snprintf(out, size, "%d/%d", c->nmet, c->nrefs);
    if (c->ncircular && n > 0 && (size_t)n < size)
        snprintf(out + n, size - (size_t)n, " (+%d circular)", c->ncircular);
}

/* ---- loading ------------------------------------------------------------- */

static int bad(const char *path, const char *where, const char *what)
{
    return hs_fail("%s: %s: %s", path, where, what);
}

/* A string member (required or not) of o, duplicated into *out. */
static int member(const char *path, const char *where, const cJSON *o, const char *key, bool required,
                  char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    char at[300];
    snprintf(at, sizeof at, "%.200s.%.60s", where, key);
    *out = NULL;
    if (!v)
        return required ? bad(path, at, "missing") : 0;
    if (!cJSON_IsString(v) || !*v->valuestring)
        return bad(path, at, "expected a non-empty string");
    *out = hs_xstrdup(v->valuestring);
    return 0;
}

static int only_keys(const char *path, const char *where, const cJSON *o, const char *const *keys)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, o)
    {
        int i = 0;
        while (keys[i] && strcmp(keys[i], item->string) != 0)
            i++;
        if (!keys[i]) {
            char at[300];
            snprintf(at, sizeof at, "%.200s.%.60s", where, item->string);
            return bad(path, at, "unknown key");
        }
    }
    return 0;
}

static int load_papers(struct hs_ledger *l, const cJSON *papers)
{
    static const char *const keys[] = {"short", "cite", NULL};
    if (!cJSON_IsObject(papers))
        return bad(l->path, "papers", "expected an object");
    const cJSON *p;
    cJSON_ArrayForEach(p, papers)
    {
        char at[300];
        snprintf(at, sizeof at, "papers.%.200s", p->string);
        HS_GROW_IMPLIED(l->papers, l->npapers, l->npapers + 1); /* doubling, not one per realloc */
        struct hs_paper *pp = &l->papers[l->npapers++];
        memset(pp, 0, sizeof *pp);
        pp->key = hs_xstrdup(p->string);
        if (!cJSON_IsObject(p))
            return bad(l->path, at, "expected an object");
        if (only_keys(l->path, at, p, keys) || member(l->path, at, p, "short", true, &pp->short_name) ||
            member(l->path, at, p, "cite", true, &pp->cite))
            return -1;
    }
    return 0;
}

/* A claim is at most one of not runnable, not reproducible, calibration
 * and holding on an assumption; an assumption names the run that turns it;
 * a claim not reproducible names the test that shows why. */
static int markings(const char *path, const char *at, const struct hs_claim *c)
{
    int n = !!c->not_runnable + !!c->not_reproducible + !!c->calibration + !!c->assumed;
    if (n > 1)
        return bad(path, at, "a claim is at most one of not_runnable, not_reproducible, calibration and assumed");
    if (!c->assumed != !c->flipped_by)
        return bad(path, at, c->assumed ? "assumed needs flipped_by (the variant run that turns its verdict)"
                                        : "flipped_by goes with assumed (the assumption the hold rests on)");
    char test[160], need[200];
    hs_claim_test_name(c->id, test, sizeof test);
    snprintf(need, sizeof need, "not_reproducible: %s", test);
    if (c->not_reproducible && !strstr(c->not_reproducible, need)) {
        char what[300], where[300];
        snprintf(where, sizeof where, "%.200s.not_reproducible", at);
        snprintf(what, sizeof what, "name the test that shows it ('%s')", need);
        return bad(path, where, what);
    }
    return 0;
}

static int load_claim(struct hs_ledger *l, const cJSON *o, int index)
{
    static const char *const keys[] = {"id",          "paper",   "where",      "claim",        "why",
                                       "experiment",  "not_runnable", "not_reproducible", "calibration",
                                       "assumed",     "flipped_by",   NULL};
    char at[64];
    snprintf(at, sizeof at, "claims[%d]", index);
    HS_GROW_IMPLIED(l->claims, l->nclaims, l->nclaims + 1); /* doubling, not one per realloc */
    struct hs_claim *c = &l->claims[l->nclaims++];
    memset(c, 0, sizeof *c);
    if (!cJSON_IsObject(o))
        return bad(l->path, at, "expected an object");
    if (only_keys(l->path, at, o, keys) || member(l->path, at, o, "id", true, &c->id) ||
        member(l->path, at, o, "paper", true, &c->paper) || member(l->path, at, o, "where", true, &c->where) ||
        member(l->path, at, o, "claim", true, &c->text) || member(l->path, at, o, "why", false, &c->why) ||
        member(l->path, at, o, "experiment", false, &c->experiment) ||
        member(l->path, at, o, "not_runnable", false, &c->not_runnable) ||
        member(l->path, at, o, "not_reproducible", false, &c->not_reproducible) ||
        member(l->path, at, o, "calibration", false, &c->calibration) ||
        member(l->path, at, o, "assumed", false, &c->assumed) ||
        member(l->path, at, o, "flipped_by", false, &c->flipped_by) || markings(l->path, at, c))
        return -1;
    if (!hs_ledger_paper(l, c->paper))
        return hs_fail("%s: %s.paper: unknown paper '%s' (not in papers)", l->path, at, c->paper);
    for (int i = 0; i < l->nclaims - 1; i++)
        if (strcmp(l->claims[i].id, c->id) == 0)
            return hs_fail("%s: %s.id: '%s' already used by claims[%d]", l->path, at, c->id, i);
    return 0;
}

static int load_root(struct hs_ledger *l, const cJSON *root)
{
    static const char *const keys[] = {"papers", "claims", NULL};
    if (!cJSON_IsObject(root))
        return bad(l->path, "(top)", "expected an object");
    const cJSON *papers = cJSON_GetObjectItemCaseSensitive(root, "papers");
    const cJSON *claims = cJSON_GetObjectItemCaseSensitive(root, "claims");
    if (only_keys(l->path, "(top)", root, keys))
        return -1;
    if (!papers || !claims)
        return bad(l->path, "(top)", "a claims file needs papers and claims");
    if (load_papers(l, papers))
        return -1;
    if (!cJSON_IsArray(claims))
        return bad(l->path, "claims", "expected a list");
    int i = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, claims)
    {
        if (load_claim(l, c, i++))
            return -1;
    }
    return 0;
}

int hs_ledger_load(const char *path, struct hs_ledger *l)
{
    memset(l, 0, sizeof *l);
    l->path = hs_xstrdup(path);
    struct hs_buf b = {0};
    if (hs_buf_read_file(&b, path)) {
        hs_buf_free(&b);
        hs_ledger_free(l);
        return -1;
    }
    char err[1024];
    cJSON *root = hs_json_parse_strict(path, hs_buf_str(&b), b.len, err, sizeof err);
    int rc = root ? load_root(l, root) : hs_fail("%s", err);
    cJSON_Delete(root);
    hs_buf_free(&b);
    if (rc)
        hs_ledger_free(l);
    return rc;
}

void hs_ledger_free(struct hs_ledger *l)
{
    for (int i = 0; i < l->npapers; i++)
        free(l->papers[i].key), free(l->papers[i].short_name), free(l->papers[i].cite);
    for (int i = 0; i < l->nclaims; i++) {
        struct hs_claim *c = &l->claims[i];
        free(c->id), free(c->paper), free(c->where), free(c->text), free(c->why), free(c->experiment);
        free(c->not_runnable), free(c->not_reproducible), free(c->calibration);
        free(c->assumed), free(c->flipped_by);
        free(c->published), free(c->ours), free(c->tolerance);
    }
    free(l->papers);
    free(l->claims);
    free(l->path);
    memset(l, 0, sizeof *l);
}

struct hs_claim *hs_ledger_find(const struct hs_ledger *l, const char *id)
{
    for (int i = 0; i < l->nclaims; i++)
        if (strcmp(l->claims[i].id, id) == 0)
            return &l->claims[i];
    return NULL;
}

const struct hs_paper *hs_ledger_paper(const struct hs_ledger *l, const char *key)
{
    for (int i = 0; i < l->npapers; i++)
        if (strcmp(l->papers[i].key, key) == 0)
            return &l->papers[i];
    return NULL;
}

/* ---- the table ----------------------------------------------------------- */

/* The verdict its row shows: "holds (assumed: decision cost)" for a hold
 * resting on an assumption. */
static void verdict_text(const struct hs_claim *c, char *out, size_t size)
{
    if (hs_claim_on_assumption(c))
        snprintf(out, size, "holds (assumed: %s)", c->assumed);
    else
        snprintf(out, size, "%s", hs_verdict_name(hs_claim_verdict_of(c)));
}

/* The count line (hs_ledger_print). */
static void count_line(const struct hs_ledger *l, FILE *out)
{
    int count[HS_NOT_RUNNABLE + 1] = {0}, assumed = 0;
    for (int i = 0; i < l->nclaims; i++) {
        count[hs_claim_verdict_of(&l->claims[i])]++;
        assumed += hs_claim_on_assumption(&l->claims[i]);
    }
    fprintf(out,
            "%d claims: %d hold (%d of them on an assumption), %d partly, %d fail, %d not reproducible, %d "
            "calibration, %d not run, %d not runnable\n",
            l->nclaims, count[HS_HOLDS], assumed, count[HS_PARTLY], count[HS_FAILS], count[HS_NOT_REPRODUCIBLE],
            count[HS_CALIBRATION], count[HS_NOT_RUN], count[HS_NOT_RUNNABLE]);
}

static const char *or_empty(const char *s)
{
    return s ? s : "";
}

void hs_ledger_print(const struct hs_ledger *l, FILE *out)
{
    struct hs_table t;
    hs_table_init(&t, 8);
    const char *h[] = {"paper", "claim", "where", "published", "ours", "tolerance", "met", "verdict"};
    for (int i = 0; i < 8; i++)
        hs_table_add(&t, h[i]);
    for (int i = 0; i < l->nclaims; i++) {
        const struct hs_claim *c = &l->claims[i];
        char verdict[300];
        verdict_text(c, verdict, sizeof verdict);
        hs_table_add(&t, hs_ledger_paper(l, c->paper)->short_name);
        hs_table_add(&t, c->id);
        hs_table_add(&t, c->where);
        hs_table_add(&t, or_empty(c->published));
        hs_table_add(&t, or_empty(c->ours));
        hs_table_add(&t, or_empty(c->tolerance));
        char met[48];
        met_text(c, met, sizeof met);
        hs_table_add(&t, met);
        hs_table_add(&t, verdict);
    }
    hs_table_print(&t, out, "");
    hs_table_free(&t);
    count_line(l, out);
}

/* Markdown cells: no line breaks, and a | would end the cell. */
static void md_cell(struct hs_buf *b, const char *s)
{
    hs_buf_add(b, " ");
    for (; s && *s; s++) {
        if (*s == '|')
            hs_buf_add(b, "\\|");
        else
            hs_buf_addn(b, *s == '\n' ? " " : s, 1);
    }
    hs_buf_add(b, " |");
}

int hs_ledger_write_markdown(const struct hs_ledger *l, const char *path)
{
    struct hs_buf b = {0};
    hs_buf_add(&b, "| paper | claim | where | what the paper says | published | ours | met | verdict | why "
                   "ours differs (experiment) |\n|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < l->nclaims; i++) {
        const struct hs_claim *c = &l->claims[i];
        enum hs_verdict v = hs_claim_verdict_of(c);
        char met[48], why[4096] = "", verdict[300];
        met_text(c, met, sizeof met);
        verdict_text(c, verdict, sizeof verdict);
        if (v == HS_NOT_RUNNABLE)
            snprintf(why, sizeof why, "%s", c->not_runnable);
        else if (v == HS_NOT_REPRODUCIBLE)
            snprintf(why, sizeof why, "not reproducible: %s", c->not_reproducible);
        else if (v == HS_CALIBRATION)
            snprintf(why, sizeof why, "calibrates %s", c->calibration);
        else if (hs_claim_on_assumption(c))
            snprintf(why, sizeof why, "holds on an assumption (%s): %s", c->assumed, c->flipped_by);
        else if (v != HS_HOLDS && c->why)
            snprintf(why, sizeof why, "%s%s%s%s", c->why, c->experiment ? " (`" : "",
                     c->experiment ? c->experiment : "", c->experiment ? "`)" : "");
        hs_buf_add(&b, "|");
        const char *cells[] = {hs_ledger_paper(l, c->paper)->short_name, c->id, c->where, c->text,
                               or_empty(c->published), or_empty(c->ours), met, verdict, why};
        for (int k = 0; k < 9; k++)
            md_cell(&b, cells[k]);
        hs_buf_add(&b, "\n");
    }
    int rc = hs_outfile_write(path, hs_buf_str(&b), b.len);
    hs_buf_free(&b);
    return rc;
}
