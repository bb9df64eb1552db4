/* sim/coherence.h — MSI state of every data handle on every memory node.
 * A copy is I (invalid or absent), S (valid, other valid copies may exist) or
 * M (the only valid copy). Reads replicate, writes invalidate every other
 * copy, eviction drops a copy (the caller writes a sole copy back first).
 * Each write bumps the handle's version, so an in-flight copy of an older
 * version can be recognised as stale when it lands. Besides the valid bit of
 * every (handle, node), each handle keeps the list of the nodes holding a
 * valid copy, so that whoever looks for a copy (a source, an estimate) pays
 * for the copies there are, not for the memory nodes of the platform. */
#ifndef HS_COHERENCE_H
#define HS_COHERENCE_H

#include <stdbool.h>
#include <stdint.h>

enum hs_msi { HS_MSI_I = 0, HS_MSI_S = 1, HS_MSI_M = 2 };

struct hs_coherence {
    int nhandles, nnodes;
    uint8_t *valid;    /* [h * nnodes + node] */
    int *nvalid;       /* valid copies per handle: the length of holders[h] */
    int **holders;     /* per handle: the nodes holding a valid copy, in no order */
    int *holders_cap;  /* per handle: room of holders[h] */
    uint32_t *version; /* bumped by every write */
};

/* Every handle starts valid (S with one copy: M) on `home`. */
void hs_coh_init(struct hs_coherence *c, int nhandles, int nnodes, int home);
void hs_coh_free(struct hs_coherence *c);

enum hs_msi hs_coh_state(const struct hs_coherence *c, int h, int node);
bool hs_coh_valid(const struct hs_coherence *c, int h, int node);
/* The nodes holding a valid copy of h (*nodes, in no order); returns how many.
 * The array changes with the next add, write or drop of h: read it at once. */
int hs_coh_holders(const struct hs_coherence *c, int h, const int **nodes);
/* A copy of the current version landed on node: it becomes valid. */
void hs_coh_add_copy(struct hs_coherence *c, int h, int node);
/* A task wrote h on node: node holds the only valid copy. */
void hs_coh_write(struct hs_coherence *c, int h, int node);
/* Drop node's copy. Returns false (and does nothing) if it is the only one. */
bool hs_coh_drop(struct hs_coherence *c, int h, int node);
/* Drop node's copy even if it is the last (its data is in flight to another node). */
void hs_coh_drop_in_transit(struct hs_coherence *c, int h, int node);
/* Lowest-index node holding a valid copy, other than `except`; -1 if none. */
int hs_coh_source(const struct hs_coherence *c, int h, int except);

#endif
