/* policies/victims.h — the workers that have work, per architecture, and the
 * choice of a work-stealing thief's victims among them (issue 55 item 3).
 * A worker is a member for architecture a while one of its queues holds a
 * task that a may run; the policy says so as its queues fill and empty.
 *
 * hs_victims_steal draws the victims of XKaapi's thief as policies/ws.c
 * describes (Lima 2014, §4.3): `attempts` draws uniform among all workers,
 * those that hit the thief itself or a worker without work failing, then a
 * visit of every worker in turn from the thief's right. It draws the same
 * law without making the failed draws one by one: the number of failed
 * draws before the first hit is geometric, and the hit is uniform among the
 * members; it calls try_steal only on members, each at most once. */
#ifndef HS_VICTIMS_H
#define HS_VICTIMS_H

#include "sim/sched.h" /* enum hs_arch, as a policy sees it */

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stdint.h>

struct hs_victims {
    int nworkers;
    int n[HS_NARCH];       /* members for each architecture */
    int *member[HS_NARCH]; /* the members, in no particular order */
    int *pos[HS_NARCH];    /* each worker's index in member[a], -1 if not a member */
    uint64_t *bits[HS_NARCH]; /* the members as a bit set, for the visit in turn */
};

void hs_victims_init(struct hs_victims *v, int nworkers);
void hs_victims_free(struct hs_victims *v);
/* Worker w has (work) or no longer has (!work) a task that arch may run. */
void hs_victims_set(struct hs_victims *v, enum hs_arch arch, int w, bool work);
bool hs_victims_has(const struct hs_victims *v, enum hs_arch arch, int w);
/* Members for arch other than self. */
int hs_victims_others(const struct hs_victims *v, enum hs_arch arch, int self);

/* try_steal(victim, missed, ctx): an attempt on a member, after `missed`
 * failed draws or visits of workers without work since the previous call
 * (the caller charges their time); true if it took a task, and only then
 * may it change the set. */
typedef bool (*hs_victim_try)(int victim, long missed, void *ctx);
/* The steal of thief `self` of architecture arch: at most `attempts` random
 * draws among the nworkers workers, then the visit in turn. Returns the
 * victim that try_steal accepted, or -1 (no member other than self: no draw
 * and no call). */
int hs_victims_steal(struct hs_victims *v, enum hs_arch arch, int self, long attempts, gsl_rng *rng,
                     hs_victim_try try_steal, void *ctx);

#endif
