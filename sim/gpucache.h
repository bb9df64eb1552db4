/* sim/gpucache.h — the software data cache of a GPU (XKaapi's LRU double FIFO):
 * blocks last used read-only sit in the RO list, blocks last used for writing
 * in the RW list, each ordered from least to most recently used. Blocks used
 * by unfinished tasks are pinned and never evicted. When a new allocation does
 * not fit, victims are taken from the LRU end of the RO list first, then of the
 * RW list, so that written data stays longer on the GPU. */
#ifndef HS_GPUCACHE_H
#define HS_GPUCACHE_H

#include <stdbool.h>

enum hs_cache_list { HS_CACHE_RO = 0, HS_CACHE_RW = 1 };

struct hs_cache_block {
    bool present;
    unsigned char list;
    int prev, next; /* neighbours in its list, -1 at the ends */
    int pins;
    double bytes;
};

struct hs_cache {
    double capacity, used;
    int nhandles;
    struct hs_cache_block *blk; /* indexed by handle */
    int lru[2], mru[2];         /* ends of the RO and RW lists */
};

void hs_cache_init(struct hs_cache *c, double capacity, int nhandles);
void hs_cache_free(struct hs_cache *c);

bool hs_cache_has(const struct hs_cache *c, int h);
/* Insert h (allocating bytes) if absent, and move it to the most recently
 * used end of the RW list if written, else of the RO list. */
void hs_cache_touch(struct hs_cache *c, int h, double bytes, bool written);
void hs_cache_pin(struct hs_cache *c, int h);
void hs_cache_unpin(struct hs_cache *c, int h);
void hs_cache_remove(struct hs_cache *c, int h);

/* Choose victims so that `need` more bytes fit: unpinned blocks from the LRU
 * end of RO, then of RW. Writes at most max handle ids to out, in eviction
 * order, and returns their number; -1 if even evicting every unpinned block
 * would not make room (nothing is written then). */
int hs_cache_victims(const struct hs_cache *c, double need, int *out, int max);

#endif
