/* policies/victims.c — the workers with work, per architecture: an array of
 * members with each worker's index in it (joining, leaving and a uniform
 * draw in O(1)) and a bit set of them (the next member in turn in
 * O(workers / 64)). */
#include "policies/victims.h"
#include "base/util.h"

#include <gsl/gsl_randist.h>
#include <stdlib.h>

void hs_victims_init(struct hs_victims *v, int nworkers)
{
    size_t n = (size_t)(nworkers > 0 ? nworkers : 1), words = n / 64 + 1;
    v->nworkers = nworkers;
    for (int a = 0; a < HS_NARCH; a++) {
        v->n[a] = 0;
        v->member[a] = hs_xmalloc(n * sizeof(int));
        v->pos[a] = hs_xmalloc(n * sizeof(int));
        v->bits[a] = hs_xcalloc(words, sizeof(uint64_t));
        for (int w = 0; w < nworkers; w++)
            v->pos[a][w] = -1;
    }
}

void hs_victims_free(struct hs_victims *v)
{
    for (int a = 0; a < HS_NARCH; a++) {
        free(v->member[a]);
        free(v->pos[a]);
        free(v->bits[a]);
    }
}

/* Exchange the members at indices i and j of arch a's array. */
static void swap(struct hs_victims *v, int a, int i, int j)
{
    int wi = v->member[a][i], wj = v->member[a][j];
    v->member[a][i] = wj;
    v->member[a][j] = wi;
    v->pos[a][wj] = i;
    v->pos[a][wi] = j;
}

void hs_victims_set(struct hs_victims *v, enum hs_arch arch, int w, bool work)
{
    int a = (int)arch, i = v->pos[a][w];
    if (work && i < 0) {
        v->member[a][v->n[a]] = w;
        v->pos[a][w] = v->n[a]++;
        v->bits[a][w / 64] |= UINT64_C(1) << (w % 64);
    } else if (!work && i >= 0) {
        swap(v, a, i, v->n[a] - 1);
        v->pos[a][w] = -1;
        v->n[a]--;
        v->bits[a][w / 64] &= ~(UINT64_C(1) << (w % 64));
    }
}

bool hs_victims_has(const struct hs_victims *v, enum hs_arch arch, int w)
{
    return v->pos[arch][w] >= 0;
}

int hs_victims_others(const struct hs_victims *v, enum hs_arch arch, int self)
{
    return v->n[arch] - (self >= 0 && self < v->nworkers && v->pos[arch][self] >= 0);
}

/* The first member of a at or after worker `from`, up to `to` excluded; -1 if none. */
static int next_member(const struct hs_victims *v, int a, int from, int to)
{
    for (int i = from / 64; from < to && i <= (to - 1) / 64; i++) {
        uint64_t word = v->bits[a][i];
        if (i == from / 64)
            word &= ~UINT64_C(0) << (from % 64);
        if (word) {
            int w = i * 64 + __builtin_ctzll(word);
            return w < to ? w : -1;
        }
    }
    return -1;
}

/* The visit in turn from self's right, after `missed` failed draws: the
 * members not yet tried (index below k in member[a]) in cyclic order, the
 * other workers passed on the way counted as missed. */
static int visit_in_turn(struct hs_victims *v, int a, int self, int k, long missed, hs_victim_try try_steal,
                         void *ctx)
{
    int P = v->nworkers;
    for (int d = 1; d < P;) { /* d: how far right of self the next worker is */
        int from = (self + d) % P, end = from > self ? P : self; /* no wrap inside */
        int m = next_member(v, a, from, end);
        if (m < 0) {
            missed += end - from;
            d += end - from;
            continue;
        }
        missed += m - from;
        d += m - from + 1;
        if (v->pos[a][m] >= k) { /* tried already: fails again */
            missed++;
            continue;
        }
        if (try_steal(m, missed, ctx))
            return m;
        missed = 0;
    }
    return -1;
}

/* Random draws, then the visit in turn. k: members not yet tried, kept in
 * member[0..k) (a partial Fisher–Yates shuffle: each draw moves its pick to
 * member[k-1] and shortens the range; self is moved out first). Among
 * `left` draws uniform over P workers, the failures before the first that
 * hits one of k members are G - 1, G geometric with p = k/P: drawn at once,
 * and the hit uniform among the k. A member refused by try_steal fails like
 * a worker without work from then on. */
int hs_victims_steal(struct hs_victims *v, enum hs_arch arch, int self, long attempts, gsl_rng *rng,
                     hs_victim_try try_steal, void *ctx)
{
    int a = (int)arch, k = v->n[a], P = v->nworkers;
    if (self >= 0 && self < P && v->pos[a][self] >= 0)
        swap(v, a, v->pos[a][self], --k);
    if (k == 0)
        return -1;
    long left = attempts;
    while (k > 0) {
        long failed = (long)gsl_ran_geometric(rng, (double)k / P) - 1;
        if (failed >= left)
            return visit_in_turn(v, a, self, k, left, try_steal, ctx);
        left -= failed + 1;
        int i = (int)gsl_rng_uniform_int(rng, (unsigned long)k);
        int victim = v->member[a][i];
        swap(v, a, i, --k);
        if (try_steal(victim, failed, ctx))
            return victim;
    }
    return -1;
}
