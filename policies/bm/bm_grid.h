/* policies/bm/bm_grid.h — the grid of Beaumont and Marchal's study of the
 * runtime estimation of β (Beaumont and Marchal 2014, §3.6): for p in
 * {10, 20, 50, 100, 200, 500, 1000} and n in {10, 20, 32, 50, 100, 200, 500,
 * 1000} with n >= max(10, √p), β* of speed draws from U[10, 100] against β*
 * for equal speeds (hs_bm_estimate). `hetsim beta --grid` prints it; a study
 * with "analysis": {"kind": "beta-grid"} writes it as its results.csv so that
 * the ledger checks the paper's figures on it. */
#ifndef HS_BM_GRID_H
#define HS_BM_GRID_H

#include "policies/bm/bm_analysis.h"

struct hs_bm_grid_point {
    int p, n;
    struct hs_bm_estimate e; /* e.draws = 0: no draw has an interior minimum */
};

/* Every point of the grid in order (p, then n), `draws` speed draws each
 * (0: the paper's 100, and 20 at p = 1000 to keep it to seconds), all from
 * one GSL mt19937 stream seeded with seed. */
void hs_bm_grid(int dim, int draws, unsigned long seed,
                void (*point)(void *ctx, const struct hs_bm_grid_point *pt), void *ctx);

/* The grid as CSV (one row per point: problem, p, n, beta_hom, beta_mean,
 * beta_sd, beta_min, beta_max, rel_diff_pct, volume_error_pct, draws,
 * status; status "ok", or "no minimum" with the statistics left empty).
 * -1 with hs_fail if path cannot be written. */
int hs_bm_grid_write_csv(int dim, int draws, unsigned long seed, const char *path);

#endif
