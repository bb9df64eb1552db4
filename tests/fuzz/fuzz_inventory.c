/* tests/fuzz/fuzz_inventory.c — a platform's inventory (sim/inventory.c)
 * and the runtime platform built from it (sim/platform.c): telling hosts
 * apart, checking their properties, selecting workers, ordering GPUs, the
 * route table. SimGrid itself is not fuzzed here (one platform per process);
 * the input is a text the harness reads as the inventory:
 *
 *   line 1   --gpus --cpus order window cache_fraction p2p   e.g. "-1 -1 spread 2 0.8 0"
 *   then     NAME SPEED [KEY=VALUE ...]                      one host per line
 *
 * Routes exist between hosts whose names' first bytes have the same parity,
 * and between host memory and everything, unless the name holds '!'. */
#include "sim/platform.h"
#include "base/util.h"
#include "tests/fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct props {
    char *kv[16][2];
    int n;
};

static const char *prop(const void *host, const char *key)
{
    const struct props *p = host;
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->kv[i][0], key) == 0)
            return p->kv[i][1];
    return NULL;
}

static bool route(void *ctx, const char *src, const char *dst, double *lat, double *bw)
{
    (void)ctx;
    if (strchr(src, '!') || strchr(dst, '!'))
        return false;
    *lat = (double)(unsigned char)src[0] * 1e-6;
    *bw = 1e9 + (unsigned char)dst[0];
    return true;
}

/* One host line: name, speed, then properties split at '='. */
static int read_host(char *line, const struct hs_inv_ctx *ctx, struct hs_inventory *inv)
{
    char *save = NULL, *name = strtok_r(line, " \t", &save), *speed = strtok_r(NULL, " \t", &save);
    double s = 0;
    if (!name || !speed || hs_parse_double(speed, &s))
        return -1;
    struct props p = {.n = 0};
    for (char *kv; p.n < 16 && (kv = strtok_r(NULL, " \t", &save));) {
        char *eq = strchr(kv, '=');
        if (!eq)
            return -1;
        *eq = '\0';
        p.kv[p.n][0] = kv;
        p.kv[p.n++][1] = eq + 1;
    }
    int rc = hs_inv_host_read(&inv->hosts[inv->n], ctx, name, s, &p);
    inv->n++; /* its name is set either way */
    return rc;
}

static int read_select(const char *line, struct hs_select *sel)
{
    char order[16];
    int p2p = 0;
    hs_select_defaults(sel);
    if (sscanf(line, "%d %d %15s %d %lf %d", &sel->gpus, &sel->cpus, order, &sel->window,
               &sel->cache_fraction, &p2p) != 6 || hs_gpu_order_parse(order, &sel->gpu_order))
        return -1;
    sel->p2p = p2p != 0;
    /* the command line's ranges (hs_scenario_set) */
    if (sel->gpus < -1 || sel->gpus > 1 << 20 || sel->cpus < -1 || sel->cpus > 1 << 20 ||
        sel->window < 1 || sel->window > 1 << 20 || !(sel->cache_fraction > 0 && sel->cache_fraction <= 1))
        return -1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_setup();
    char *text = hs_fuzz_text(data, size), *save = NULL;
    char *first = strtok_r(text, "\n", &save);
    struct hs_select sel;
    if (!first || read_select(first, &sel)) {
        free(text);
        return 0;
    }
    /* every host's name first: StarPU's conventions look at all of them */
    size_t nlines = 0;
    char **lines = hs_xcalloc(size + 1, sizeof *lines);
    for (char *line; (line = strtok_r(NULL, "\n", &save));)
        lines[nlines++] = line;
    struct hs_inv_ctx ctx = {.pfname = "fuzz", .prop = prop, .map = NULL};
    for (size_t i = 0; i < nlines; i++) {
        char name[256];
        if (sscanf(lines[i], " %255s", name) == 1)
            hs_inv_ctx_note(&ctx, name);
    }
    struct hs_inventory inv = {.n = 0, .hosts = hs_xcalloc(nlines + 1, sizeof *inv.hosts)};
    int rc = 0;
    for (size_t i = 0; !rc && i < nlines; i++)
        rc = read_host(lines[i], &ctx, &inv);
    free(lines);
    if (!rc) {
        hs_inventory_sort(&inv);
        struct hs_platform pf;
        if (hs_platform_build(&pf, "fuzz", &inv, &sel, route, NULL) == 0)
            for (int s = 0; s < pf.nnodes; s++)
                for (int d = 0; d < pf.nnodes; d++)
                    hs_platform_link_time(&pf, s, d, 1e6);
        hs_platform_free(&pf);
    }
    hs_inventory_free(&inv);
    free(text);
    return 0;
}
