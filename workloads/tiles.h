/* workloads/tiles.h — what the PLASMA LU and QR workloads share: the tile
 * handles of A, QUARK's regions of the diagonal tile, and where each kernel
 * may run.
 *
 * Regions (PLASMA's QUARK task flags; an option of ours, off by default).
 * PLASMA tags the read of A(k,k) by GESSM/ORMQR as REGION_L and its
 * update by TSTRF/TSQRT as REGION_D|U; XKaapi ignored the tags (whole-tile
 * dependencies, the default). With regions, each diagonal tile is two data:
 * its strict lower part (nb(nb−1)/2 elements) and its upper part with the
 * diagonal (nb(nb+1)/2). A whole-tile access takes both, so a whole tile
 * moves exactly its bytes (no extra transfer), and a region access takes one.
 *
 * Architectures: the period code (plasma-kaapi, April
 * 2013) registers the panel kernels (GETRF, TSTRF, GEQRT, TSQRT) CPU_ONLY and
 * the updates for both; gpu_tstrf=1 makes TSTRF an update (an earlier XKaapi
 * registered it for both); setarch=1 keeps the updates on GPUs only
 * (QUARK_ARCH_GPU_ONLY=1). The timing table still gives the durations: an
 * update with no GPU time there runs on cores (or nowhere with setarch=1). */
#ifndef HS_TILES_H
#define HS_TILES_H

#include "sim/dag.h"
#include "base/params.h"

#include <stdbool.h>

/* The parameters LU and QR share, in their order: n, nb, ib, precision;
 * each workload's table goes on with its own. */
#define HS_TILES_PARAMS                                                                            \
    {.name = "n", .type = HS_P_INT, .defval = "8192", .range = "[1,inf)", .help = "matrix order"},  \
        {.name = "nb", .type = HS_P_INT, .defval = "512", .range = "[1,inf)",                      \
         .help = "tile size (must divide n)"},                                                     \
        {.name = "ib", .type = HS_P_INT, .defval = "128", .range = "[1,inf)",                      \
         .help = "inner blocking (at most nb)"},                                                   \
        {.name = "precision", .type = HS_P_CHOICE, .defval = "d", .choices = "d|s",                \
         .help = "double or single precision"}

struct hs_tiles {
    struct hs_dag *dag;
    int nt;
    int *tile;   /* nt×nt handles A(i,j), row-major; the diagonal's upper part with regions */
    int *lower;  /* per k: the strict lower part of A(k,k) with regions, else -1 */
    bool regions, setarch;
};

/* An nt×nt matrix of tiles, without handles yet. */
void hs_tiles_init(struct hs_tiles *m, struct hs_dag *dag, int nt, bool regions, bool setarch);
/* Add A(i,j)'s handle, a b×b tile of elem-byte elements (two handles for a
 * diagonal tile with regions). */
void hs_tiles_add(struct hs_tiles *m, int i, int j, double b, int elem);
void hs_tiles_free(struct hs_tiles *m);

/* Access tile A(i,j) as a whole (both regions of a diagonal tile). */
void hs_tiles_access(const struct hs_tiles *m, int task, int i, int j, enum hs_mode mode);
/* Access A(k,k)'s REGION_L, or its REGION_D|U (the whole tile without regions). */
void hs_tiles_access_lower(const struct hs_tiles *m, int task, int k, enum hs_mode mode);
void hs_tiles_access_upper(const struct hs_tiles *m, int task, int k, enum hs_mode mode);

/* Add a task: a panel kernel runs on cores only; an update anywhere, or on
 * GPUs only with setarch. */
int hs_tiles_task(const struct hs_tiles *m, const char *kernel, const char *label, double flops, int nb,
                  bool update);

#endif
