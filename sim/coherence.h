/* sim/coherence.h — MSI state of every data handle on every memory node.
 * A copy is I (invalid or absent), S (valid, other valid copies may exist) or
 * M (the only valid copy). Reads replicate, writes invalidate every other
 * copy, eviction drops a copy (the caller writes a sole copy back first).
 * Each write bumps the handle's version, so an in-flight copy of an older
 * version can be recognised as stale when it lands. */
#ifndef HS_COHERENCE_H
#define HS_COHERENCE_H

#include <stdbool.h>
#include <stdint.h>

enum hs_msi { HS_MSI_I = 0, HS_MSI_S = 1, HS_MSI_M = 2 };

struct hs_coherence {
    int nhandles, nnodes;
    uint8_t *valid;    /* [h * nnodes + node] */
    int *nvalid;       /* valid copies per handle */
    uint32_t *version; /* bumped by every write */
};

/* Every handle starts valid (S with one copy: M) on `home`. */
void hs_coh_init(struct hs_coherence *c, int nhandles, int nnodes, int home);
void hs_coh_free(struct hs_coherence *c);

enum hs_msi hs_coh_state(const struct hs_coherence *c, int h, int node);
bool hs_coh_valid(const struct hs_coherence *c, int h, int node);
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
