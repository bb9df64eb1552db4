/* analysis/ledger.h — the ledger of the papers' headline claims.
 *
 * The claims file (ledger/claims.json beside the studies) lists every
 * headline claim of the papers hetsim reproduces:
 *
 *   { "papers": { "lima2014": { "short": "Lima 2014",
 *                               "cite": "J. V. F. Lima, A Runtime System for ..., PhD thesis, 2014" } },
 *     "claims": [ { "id": "lima:E6", "paper": "lima2014", "where": "§5.6.5.2, Fig. 5.11",
 *                   "claim": "H2 peaks at 1.79 TFlop/s on 8 GPUs; ...",
 *                   "why": "why ours differs, for a claim that does not hold (one line)",
 *                   "experiment": "the study whose runs show why",
 *                   "not_runnable": "why hetsim cannot run it (no model of the machine, ...)",
 *                   "not_reproducible": "why no faithful reading of the paper reaches its number; names
 *                                        its evidence, the test not_reproducible: lima_E6",
 *                   "calibration": "the model parameter it calibrates",
 *                   "assumed": "decision cost", "flipped_by": "the variant run that turns it" } ] }
 *
 * Studies tag the published values they check with a claim id ("claim":
 * "lima:E6"). A claim's verdict comes from its tagged values that carry a
 * tolerance or a bound: it holds when ours meets every one, holds in part
 * when it meets at least half, fails otherwise, and is not run when no
 * study evaluated any of them; a claim hetsim cannot run (no model of its
 * machine or library) says why in not_runnable and is "not runnable".
 *
 * Three markings are data of the claims file, never computed by a run
 * (docs/fidelity.md): a claim whose number no faithful reading of the
 * paper's own description reaches is "not reproducible" (not_reproducible
 * names its evidence: a test of the suite not_reproducible named after the
 * claim, hs_claim_test_name); a claim a model parameter was calibrated on is
 * "calibration" (calibration names the parameter); neither is counted among
 * the verdicts, both still show their values. A claim that holds only on an
 * assumed parameter (its verdict turns in a documented variant run with the
 * parameter at 0 or doubled, or a rate scaled) says which (assumed) and
 * which run turns it (flipped_by): it is shown "holds (assumed: ...)" and
 * counted apart among the holds. */
#ifndef HS_LEDGER_H
#define HS_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum hs_verdict {
    HS_HOLDS,
    HS_PARTLY,
    HS_FAILS,
    HS_NOT_REPRODUCIBLE,
    HS_CALIBRATION,
    HS_NOT_RUN,
    HS_NOT_RUNNABLE
};

struct hs_paper {
    char *key, *short_name, *cite;
};

struct hs_claim {
    char *id, *paper, *where, *text, *why, *experiment;
    char *not_runnable;     /* why hetsim cannot run it, or NULL */
    char *not_reproducible; /* why no faithful reading reaches its number (its evidence), or NULL */
    char *calibration;      /* the model parameter calibrated on it, or NULL */
    char *assumed;          /* the assumed parameter its hold rests on, or NULL */
    char *flipped_by;       /* ... and the variant run that turns it (with assumed) */
    /* gathered from the studies */
    int nrefs;      /* checked published values tagged with it */
    int nevaluated; /* ... that a run evaluated */
    int nmet;       /* ... that ours meets */
    int ncircular;  /* values taken from the sentence a model parameter came from: not evidence */
    /* the value shown in its row: its first missed value, else its first */
    char *published, *ours, *tolerance;
    bool shown_missed;
};

struct hs_ledger {
    char *path;
    struct hs_paper *papers;
    int npapers;
    struct hs_claim *claims;
    int nclaims;
};

/* Load a claims file; -1 with hs_fail naming the file and the key. */
int hs_ledger_load(const char *path, struct hs_ledger *l);
void hs_ledger_free(struct hs_ledger *l);
struct hs_claim *hs_ledger_find(const struct hs_ledger *l, const char *id);
const struct hs_paper *hs_ledger_paper(const struct hs_ledger *l, const char *key);

/* Count one checked published value of claim c: evaluated (a run gave our
 * value) and met (ours meets it), with the texts its row would show. */
void hs_claim_add(struct hs_claim *c, bool evaluated, bool met, const char *published, const char *ours,
                  const char *tolerance);

/* A value of claim c that a model parameter was taken from: shown beside
 * the claim's count, never counted. */
void hs_claim_add_circular(struct hs_claim *c);

/* The verdict of a claim with nrefs checked values, nevaluated of them
 * evaluated, nmet of them met; not runnable whatever the counts when
 * not_runnable (the claim says hetsim cannot run it). */
enum hs_verdict hs_claim_verdict(bool not_runnable, int nrefs, int nevaluated, int nmet);
const char *hs_verdict_name(enum hs_verdict v);

/* The verdict of a loaded claim: not runnable, not reproducible or
 * calibration when the claims file says so, else from its counts. */
enum hs_verdict hs_claim_verdict_of(const struct hs_claim *c);
/* Does it hold only on an assumption (holds, and the file marks it)? */
bool hs_claim_on_assumption(const struct hs_claim *c);

/* The name of the test of the suite not_reproducible that shows a claim's
 * evidence: its id with ':', '-' and '.' as '_' ("shetti:T5.3-slr":
 * "shetti_T5_3_slr"), at most size bytes. */
void hs_claim_test_name(const char *id, char *out, size_t size);

/* One row per claim, then exactly "N claims: H hold (A of them on an
 * assumption), P partly, F fail, R not reproducible, C calibration, X not
 * run, Y not runnable". */
void hs_ledger_print(const struct hs_ledger *l, FILE *out);
/* The same as a Markdown table with each claim's text and, where it does
 * not hold, its reason (why it cannot run, for a claim not runnable); -1
 * with hs_fail if path cannot be written. */
int hs_ledger_write_markdown(const struct hs_ledger *l, const char *path);

#endif
