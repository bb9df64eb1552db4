/* sim/gpucache.c — LRU double-list GPU data cache. */
#include "sim/gpucache.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

void hs_cache_init(struct hs_cache *c, double capacity, int nhandles)
{
    c->capacity = capacity;
    c->used = 0;
    c->nhandles = nhandles;
    c->blk = hs_xcalloc((size_t)nhandles, sizeof *c->blk);
    for (int i = 0; i < 2; i++)
        c->lru[i] = c->mru[i] = -1;
}

void hs_cache_free(struct hs_cache *c)
{
    free(c->blk);
    memset(c, 0, sizeof *c);
}

bool hs_cache_has(const struct hs_cache *c, int h)
{
    return c->blk[h].present;
}

static void unlink_block(struct hs_cache *c, int h)
{
    struct hs_cache_block *b = &c->blk[h];
    if (b->prev >= 0)
        c->blk[b->prev].next = b->next;
    else
        c->lru[b->list] = b->next;
    if (b->next >= 0)
        c->blk[b->next].prev = b->prev;
    else
        c->mru[b->list] = b->prev;
    b->prev = b->next = -1;
}

static void append_mru(struct hs_cache *c, int h, int list)
{
    struct hs_cache_block *b = &c->blk[h];
    b->list = (unsigned char)list;
    b->next = -1;
    b->prev = c->mru[list];
    if (c->mru[list] >= 0)
        c->blk[c->mru[list]].next = h;
    else
        c->lru[list] = h;
    c->mru[list] = h;
}

void hs_cache_touch(struct hs_cache *c, int h, double bytes, bool written)
{
    struct hs_cache_block *b = &c->blk[h];
    if (b->present) {
        unlink_block(c, h);
    } else {
        b->present = true;
        b->bytes = bytes;
        b->pins = 0;
        c->used += bytes;
    }
    append_mru(c, h, written ? HS_CACHE_RW : HS_CACHE_RO);
}

void hs_cache_pin(struct hs_cache *c, int h)
{
    c->blk[h].pins++;
}

void hs_cache_unpin(struct hs_cache *c, int h)
{
    if (c->blk[h].pins > 0)
        c->blk[h].pins--;
}

void hs_cache_remove(struct hs_cache *c, int h)
{
    struct hs_cache_block *b = &c->blk[h];
    if (!b->present)
        return;
    unlink_block(c, h);
    c->used -= b->bytes;
    b->present = false;
    b->pins = 0;
}

int hs_cache_victims(const struct hs_cache *c, double need, int *out, int max)
{
    double excess = c->used + need - c->capacity;
    if (excess <= 0)
        return 0;
    int n = 0;
    for (int list = HS_CACHE_RO; list <= HS_CACHE_RW && excess > 0; list++)
        for (int h = c->lru[list]; h >= 0 && excess > 0; h = c->blk[h].next) {
            if (c->blk[h].pins > 0)
                continue;
            if (n == max)
                return -1;
            out[n++] = h;
            excess -= c->blk[h].bytes;
        }
    return excess > 0 ? -1 : n;
}
