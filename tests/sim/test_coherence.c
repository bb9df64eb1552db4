/* tests/sim/test_coherence.c — MSI transitions of the coherence table and
 * the LRU double-list eviction order of the GPU cache. */
#include "sim/coherence.h"
#include "sim/gpucache.h"
#include "tests/support/testing.h"

#include <gsl/gsl_rng.h>

static void test_msi_transitions(void)
{
    struct hs_coherence c;
    hs_coh_init(&c, 2, 3, 0); /* nodes: 0 host, 1 and 2 GPUs */
    CU_ASSERT_EQUAL(hs_coh_state(&c, 0, 0), HS_MSI_M); /* only copy, on host */
    CU_ASSERT_EQUAL(hs_coh_state(&c, 0, 1), HS_MSI_I);
    hs_coh_add_copy(&c, 0, 1); /* read on GPU 1: replicated */
    CU_ASSERT_EQUAL(hs_coh_state(&c, 0, 0), HS_MSI_S);
    CU_ASSERT_EQUAL(hs_coh_state(&c, 0, 1), HS_MSI_S);
    hs_coh_add_copy(&c, 0, 2);
    CU_ASSERT_EQUAL(c.nvalid[0], 3);
    CU_ASSERT_EQUAL(c.version[0], 0u);
    hs_coh_write(&c, 0, 2); /* write on GPU 2: the others are invalidated */
    CU_ASSERT_EQUAL(hs_coh_state(&c, 0, 2), HS_MSI_M);
    CU_ASSERT_EQUAL(hs_coh_state(&c, 0, 0), HS_MSI_I);
    CU_ASSERT_EQUAL(hs_coh_state(&c, 0, 1), HS_MSI_I);
    CU_ASSERT_EQUAL(c.version[0], 1u);
    CU_ASSERT_EQUAL(hs_coh_source(&c, 0, 1), 2);
    CU_ASSERT_FALSE(hs_coh_drop(&c, 0, 2)); /* the sole copy cannot simply be dropped */
    CU_ASSERT_EQUAL(hs_coh_state(&c, 0, 2), HS_MSI_M);
    hs_coh_add_copy(&c, 0, 0); /* written back to host */
    CU_ASSERT_EQUAL(hs_coh_state(&c, 0, 0), HS_MSI_S);
    CU_ASSERT_TRUE(hs_coh_drop(&c, 0, 2)); /* now it can: host keeps it */
    CU_ASSERT_EQUAL(hs_coh_state(&c, 0, 0), HS_MSI_M);
    CU_ASSERT_EQUAL(hs_coh_source(&c, 0, -1), 0);
    hs_coh_drop_in_transit(&c, 0, 0);
    CU_ASSERT_EQUAL(c.nvalid[0], 0);
    CU_ASSERT_EQUAL(hs_coh_source(&c, 0, -1), -1);
    CU_ASSERT_EQUAL(hs_coh_state(&c, 1, 0), HS_MSI_M); /* other handle untouched */
    hs_coh_free(&c);
}

static void test_source_prefers_host(void)
{
    struct hs_coherence c;
    hs_coh_init(&c, 1, 4, 0);
    hs_coh_add_copy(&c, 0, 3);
    hs_coh_add_copy(&c, 0, 2);
    CU_ASSERT_EQUAL(hs_coh_source(&c, 0, 1), 0);
    CU_ASSERT_TRUE(hs_coh_drop(&c, 0, 0));
    CU_ASSERT_EQUAL(hs_coh_source(&c, 0, 1), 2); /* then the lowest-index GPU */
    hs_coh_free(&c);
}

/* The holders of handle h are exactly the nodes with a valid copy, each once. */
static bool holders_match(const struct hs_coherence *c, int h)
{
    const int *nodes;
    int n = hs_coh_holders(c, h, &nodes), seen[64] = {0};
    for (int i = 0; i < n; i++)
        if (nodes[i] < 0 || nodes[i] >= c->nnodes || !hs_coh_valid(c, h, nodes[i]) || seen[nodes[i]]++)
            return false;
    int valid = 0;
    for (int node = 0; node < c->nnodes; node++)
        valid += hs_coh_valid(c, h, node);
    return valid == n && n == c->nvalid[h];
}

/* The lowest-index valid node other than except, by the valid bits. */
static int source_by_bits(const struct hs_coherence *c, int h, int except)
{
    for (int node = 0; node < c->nnodes; node++)
        if (node != except && hs_coh_valid(c, h, node))
            return node;
    return -1;
}

/* 20,000 seeded operations (copies, writes, drops) on 3 handles and 40
 * nodes: after each, the list of holders is the set of valid bits, and the
 * source found through it is the lowest-index one the bits give. */
static void test_holders_follow_the_bits(void)
{
    struct hs_coherence c;
    hs_coh_init(&c, 3, 40, 0);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 55);
    bool ok = true;
    for (int i = 0; i < 20000 && ok; i++) {
        int h = (int)gsl_rng_uniform_int(r, 3), node = (int)gsl_rng_uniform_int(r, 40);
        switch (gsl_rng_uniform_int(r, 8)) {
        case 0: hs_coh_write(&c, h, node); break;
        case 1: hs_coh_drop_in_transit(&c, h, node); break;
        case 2: case 3: hs_coh_drop(&c, h, node); break;
        default: hs_coh_add_copy(&c, h, node); break;
        }
        int except = (int)gsl_rng_uniform_int(r, 41) - 1;
        ok = holders_match(&c, h) && hs_coh_source(&c, h, except) == source_by_bits(&c, h, except);
    }
    CU_ASSERT(ok);
    gsl_rng_free(r);
    hs_coh_free(&c);
}

/* Blocks a..e of 1 byte, capacity 5. Used in order a(R) b(W) c(R) d(W) e(R):
 * RO list a, c, e and RW list b, d, least recently used first. */
static void fill(struct hs_cache *c)
{
    hs_cache_init(c, 5, 8);
    bool written[] = {false, true, false, true, false};
    for (int h = 0; h < 5; h++)
        hs_cache_touch(c, h, 1, written[h]);
}

static void test_lru_read_only_first(void)
{
    struct hs_cache c;
    int v[8];
    fill(&c);
    CU_ASSERT_EQUAL(c.used, 5);
    CU_ASSERT_EQUAL(hs_cache_victims(&c, 0, v, 8), 0);
    CU_ASSERT_EQUAL_FATAL(hs_cache_victims(&c, 2, v, 8), 2);
    CU_ASSERT_EQUAL(v[0], 0);
    CU_ASSERT_EQUAL(v[1], 2);
    CU_ASSERT_EQUAL_FATAL(hs_cache_victims(&c, 4, v, 8), 4);
    CU_ASSERT_EQUAL(v[0], 0); /* all read-only blocks before any written one */
    CU_ASSERT_EQUAL(v[1], 2);
    CU_ASSERT_EQUAL(v[2], 4);
    CU_ASSERT_EQUAL(v[3], 1);
    hs_cache_free(&c);
}

static void test_lru_pinned_never(void)
{
    struct hs_cache c;
    int v[8];
    fill(&c);
    hs_cache_pin(&c, 0);
    hs_cache_pin(&c, 3);
    CU_ASSERT_EQUAL_FATAL(hs_cache_victims(&c, 3, v, 8), 3);
    CU_ASSERT_EQUAL(v[0], 2);
    CU_ASSERT_EQUAL(v[1], 4);
    CU_ASSERT_EQUAL(v[2], 1);
    CU_ASSERT_EQUAL(hs_cache_victims(&c, 4, v, 8), -1); /* only 3 unpinned bytes */
    hs_cache_unpin(&c, 3);
    CU_ASSERT_EQUAL(hs_cache_victims(&c, 4, v, 8), 4);
    CU_ASSERT_EQUAL(v[3], 3);
    hs_cache_free(&c);
}

static void test_lru_touch_moves(void)
{
    struct hs_cache c;
    int v[8];
    fill(&c);
    hs_cache_touch(&c, 0, 1, false); /* a becomes the most recent read-only block */
    CU_ASSERT_EQUAL_FATAL(hs_cache_victims(&c, 1, v, 8), 1);
    CU_ASSERT_EQUAL(v[0], 2);
    hs_cache_touch(&c, 2, 1, true);  /* c written: moves to the RW list */
    hs_cache_touch(&c, 4, 1, true);
    hs_cache_touch(&c, 0, 1, true);
    CU_ASSERT_EQUAL_FATAL(hs_cache_victims(&c, 5, v, 8), 5);
    int expect[] = {1, 3, 2, 4, 0};
    for (int i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(v[i], expect[i]);
    hs_cache_remove(&c, 3);
    CU_ASSERT_EQUAL(c.used, 4);
    CU_ASSERT_FALSE(hs_cache_has(&c, 3));
    CU_ASSERT_EQUAL(hs_cache_victims(&c, 1, v, 8), 0);
    hs_cache_free(&c);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"MSI transitions", test_msi_transitions},
        {"copy source: host first, then lowest index", test_source_prefers_host},
        {"holders: the nodes with a valid copy, each once, through 20,000 operations", test_holders_follow_the_bits},
        {"LRU eviction: read-only list before written list", test_lru_read_only_first},
        {"LRU eviction: pinned blocks never", test_lru_pinned_never},
        {"LRU touch moves blocks between and within lists", test_lru_touch_moves},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("coherence", tests);
}
