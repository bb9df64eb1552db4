/* sim/coherence.c — valid bits per (handle, memory node). */
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
    c->version = hs_xcalloc((size_t)nhandles, sizeof(uint32_t));
    for (int h = 0; h < nhandles; h++) {
        c->valid[(size_t)h * nnodes + home] = 1;
        c->nvalid[h] = 1;
    }
}

void hs_coh_free(struct hs_coherence *c)
{
    free(c->valid);
    free(c->nvalid);
    free(c->version);
    memset(c, 0, sizeof *c);
}

bool hs_coh_valid(const struct hs_coherence *c, int h, int node)
{
    return c->valid[(size_t)h * c->nnodes + node] != 0;
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
    if (!*v) {
        *v = 1;
        c->nvalid[h]++;
    }
}

void hs_coh_write(struct hs_coherence *c, int h, int node)
{
    memset(&c->valid[(size_t)h * c->nnodes], 0, (size_t)c->nnodes);
    c->valid[(size_t)h * c->nnodes + node] = 1;
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
    if (*v) {
        *v = 0;
        c->nvalid[h]--;
    }
}

int hs_coh_source(const struct hs_coherence *c, int h, int except)
{
    for (int n = 0; n < c->nnodes; n++)
        if (n != except && c->valid[(size_t)h * c->nnodes + n])
            return n;
    return -1;
}
