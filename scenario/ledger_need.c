/* scenario/ledger_need.c — the runs of a study the ledger needs (see
 * ledger_need.h): the points a counted value reads, and the repetitions
 * their statistics need. */
#include "scenario/scenario.h"
#include "analysis/csv.h"
#include "analysis/published.h"
#include "analysis/stats.h"
#include "base/buf.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { FLOOR = 5 }; /* repetitions of the first round */

void hs_ledger_need_init(struct hs_ledger_need *need, const struct hs_study *st, const struct hs_ledger *l)
{
    memset(need, 0, sizeof *need);
    need->st = st, need->l = l;
    need->cap = st->reps < FLOOR ? st->reps : FLOOR;
}

void hs_ledger_need_free(struct hs_ledger_need *need)
{
    for (int i = 0; i < need->nsettled; i++)
        free(need->settled[i].key);
    free(need->settled);
    memset(need, 0, sizeof *need);
}

/* A value of the study that the ledger counts. */
static bool counted(const struct hs_ledger_need *need, const struct hs_study_ref *ref)
{
    return ref->claim && !ref->circular && hs_published_checked(ref) && hs_ledger_find(need->l, ref->claim);
}

/* Does a counted value read the run of these parameter values? */
static bool read_by_a_claim(const struct hs_ledger_need *need, const char *const *names, char *const *values,
                            int n)
{
    for (int r = 0; r < need->st->nrefs; r++)
        if (counted(need, &need->st->refs[r]) && hs_published_reads(&need->st->refs[r], names, values, n))
            return true;
    return false;
}

/* The point's identity: its parameter values, joined (caller frees). */
static char *point_key(char *const *values, int n)
{
    struct hs_buf b = {0};
    for (int i = 0; i < n; i++) {
        hs_buf_add(&b, values[i] ? values[i] : "");
        hs_buf_add(&b, "\x1f");
    }
    return hs_buf_take(&b);
}

static int settled_at(const struct hs_ledger_need *need, const char *key)
{
    for (int i = 0; i < need->nsettled; i++)
        if (strcmp(need->settled[i].key, key) == 0)
            return need->settled[i].at;
    return -1;
}

bool hs_ledger_need_keep(void *ctx, const char *const *names, char *const *values, int n, int rep)
{
    const struct hs_ledger_need *need = ctx;
    if (!read_by_a_claim(need, names, values, n))
        return false;
    char *key = point_key(values, n);
    int at = settled_at(need, key);
    bool mine = need->nshards <= 1 ||
                hs_fnv1a64(key, strlen(key), HS_FNV_OFFSET) % (uint64_t)need->nshards == (uint64_t)need->shard;
    free(key);
    return mine && rep < (at >= 0 ? at : need->cap);
}

/* ---- after a round ---------------------------------------------------------- */

struct keyed {
    char *key;
    long row;
};

static int by_key(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* Is the mean of column col over these rows known within target (relative
 * half-width of its 95% interval)? Runs that all agree are. */
static bool known(const struct hs_csv *csv, int col, const struct keyed *rows, long n, double target)
{
    double *x = hs_xmalloc((size_t)(n + 1) * sizeof *x);
    long m = 0;
    for (long i = 0; i < n; i++)
        if (hs_is_number(csv->rows[rows[i].row][col], &x[m]))
            m++;
    struct hs_stat s;
    hs_stat_compute(x, m, &s);
    free(x);
    if (m >= 1 && s.min == s.max)
        return true;
    return m >= 2 && s.mean != 0 && s.ci95 <= target * fabs(s.mean);
}

/* Is every metric a counted value reads at this point known well enough? */
static bool point_known(const struct hs_ledger_need *need, const struct hs_csv *csv, const char *const *names,
                        int first, int nparams, const struct keyed *rows, long n)
{
    char *const *values = csv->rows[rows[0].row] + first;
    for (int r = 0; r < need->st->nrefs; r++) {
        const struct hs_study_ref *ref = &need->st->refs[r];
        if (!counted(need, ref) || !hs_published_reads(ref, names, values, nparams))
            continue;
        double tol = isnan(ref->tolerance) || ref->tolerance <= 0 ? 0.05 : ref->tolerance;
        const char *cols[2] = {ref->metric, ref->over};
        for (int c = 0; c < 2; c++) {
            int col = cols[c] ? hs_csv_col(csv, cols[c]) : -1;
            if (col >= 0 && !known(csv, col, rows, n, tol / 4))
                return false;
        }
    }
    return true;
}

int hs_ledger_need_next(struct hs_ledger_need *need, const char *file, bool *more)
{
    *more = false;
    if (need->cap >= need->st->reps)
        return 0;
    struct hs_csv csv;
    if (hs_csv_read(file, &csv))
        return -1;
    int sweep = hs_csv_col(&csv, "sweep"), status = hs_csv_col(&csv, "status"), repcol = hs_csv_col(&csv, "rep");
    int inputs = hs_csv_col(&csv, "inputs");
    int first = inputs >= 0 ? inputs + 1 : sweep >= 0 ? sweep + 1 : hs_csv_col(&csv, "seed") + 1;
    int nparams = status - first;
    if (first <= 0 || status < 0 || repcol < 0 || nparams <= 0) {
        hs_csv_free(&csv);
        return hs_fail("%s: not the results of a sweep (no rep, seed, sweep or status column)", file);
    }
    const char *const *names = (const char *const *)csv.header + first;
    struct keyed *rows = hs_xmalloc((size_t)(csv.nrows + 1) * sizeof *rows);
    long n = 0, rep;
    /* only the repetitions of the rounds so far: a resumed ledger's file can
       hold some of a later round's (a run killed during it), which would
       settle a point on more repetitions than a fresh ledger reads, yet fewer
       than its next round (9 of 10) */
    for (long r = 0; r < csv.nrows; r++)
        if (strcmp(csv.rows[r][status], "ok") == 0 && hs_parse_long(csv.rows[r][repcol], &rep) == 0 &&
            rep < need->cap)
            rows[n++] = (struct keyed){point_key(csv.rows[r] + first, nparams), r};
    qsort(rows, (size_t)n, sizeof *rows, by_key);
    for (long a = 0, b; a < n; a = b) {
        for (b = a + 1; b < n && strcmp(rows[b].key, rows[a].key) == 0; b++)
            ;
        if (settled_at(need, rows[a].key) >= 0)
            continue;
        if (!read_by_a_claim(need, names, csv.rows[rows[a].row] + first, nparams))
            continue;
        if (point_known(need, &csv, names, first, nparams, rows + a, b - a)) {
            HS_GROW(need->settled, need->cap_settled, (size_t)need->nsettled + 1);
            need->settled[need->nsettled++] = (struct hs_ledger_settled){hs_xstrdup(rows[a].key), need->cap};
        } else
            *more = true;
    }
    for (long i = 0; i < n; i++)
        free(rows[i].key);
    free(rows);
    hs_csv_free(&csv);
    if (*more)
        need->cap = 2 * need->cap < need->st->reps ? 2 * need->cap : need->st->reps;
    return 0;
}
