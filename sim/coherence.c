/* sim/coherence.c — valid bits per (handle, memory node), and per handle the
 * list of the nodes holding a valid copy. */
#include "sim/coherence.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

void hs_coh_init(struct hs_coherence *c, int nhandles, int nnodes, int home)
{
    c->nhandles = nhandles;
    c->nnodes = nnodes;
    c->valid = hs_xcalloc((size_t)nhandles * nnodes, 1);
    c->nvalid = hs_xcalloc((size_t)nhandles, sizeof(int));
    c->holders = hs_xcalloc((size_t)nhandles, sizeof(int *));
    c->holders_cap = hs_xcalloc((size_t)nhandles, sizeof(int));
    c->version = hs_xcalloc((size_t)nhandles, sizeof(uint32_t));
    for (int h = 0; h < nhandles; h++) {
        c->valid[(size_t)h * nnodes + home] = 1;
        c->holders_cap[h] = 2;
        c->holders[h] = hs_xmalloc(2 * sizeof(int));
        c->holders[h][0] = home;
        c->nvalid[h] = 1;
    }
}

void hs_coh_free(struct hs_coherence *c)
{
    for (int h = 0; h < c->nhandles; h++)
        free(c->holders[h]);
    free(c->holders);
    free(c->holders_cap);
    free(c->valid);
    free(c->nvalid);
    free(c->version);
    memset(c, 0, sizeof *c);
}

bool hs_coh_valid(const struct hs_coherence *c, int h, int node)
{
    return c->valid[(size_t)h * c->nnodes + node] != 0;
}

int hs_coh_holders(const struct hs_coherence *c, int h, const int **nodes)
{
    *nodes = c->holders[h];
    return c->nvalid[h];
}

enum hs_msi hs_coh_state(const struct hs_coherence *c, int h, int node)
{
    if (!hs_coh_valid(c, h, node))
        return HS_MSI_I;
    return c->nvalid[h] == 1 ? HS_MSI_M : HS_MSI_S;
}

void hs_coh_add_copy(struct hs_coherence *c, int h, int node)
{
    uint8_t *v = &c->valid[(size_t)h * c->nnodes + node];
    if (*v)
        return;
    *v = 1;
    if (c->nvalid[h] == c->holders_cap[h]) {
        c->holders_cap[h] *= 2;
        c->holders[h] = hs_xrealloc(c->holders[h], (size_t)c->holders_cap[h] * sizeof(int));
    }
    c->holders[h][c->nvalid[h]++] = node;
}

void hs_coh_write(struct hs_coherence *c, int h, int node)
{
    uint8_t *row = &c->valid[(size_t)h * c->nnodes];
    for (int i = 0; i < c->nvalid[h]; i++)
        row[c->holders[h][i]] = 0;
    row[node] = 1;
    c->holders[h][0] = node; /* the list always has room for one */
    c->nvalid[h] = 1;
    c->version[h]++;
}

bool hs_coh_drop(struct hs_coherence *c, int h, int node)
{
    if (!hs_coh_valid(c, h, node) || c->nvalid[h] == 1)
        return false;
    hs_coh_drop_in_transit(c, h, node);
    return true;
}

void hs_coh_drop_in_transit(struct hs_coherence *c, int h, int node)
{
    uint8_t *v = &c->valid[(size_t)h * c->nnodes + node];
    if (!*v)
        return;
    *v = 0;
    int *list = c->holders[h];
    for (int i = 0; i < c->nvalid[h]; i++)
        if (list[i] == node) {
            list[i] = list[--c->nvalid[h]];
            return;
        }
}

int hs_coh_source(const struct hs_coherence *c, int h, int except)
{
    int best = -1;
    for (int i = 0; i < c->nvalid[h]; i++) {
        int n = c->holders[h][i];
        if (n != except && (best < 0 || n < best))
            best = n;
    }
    return best;
}
