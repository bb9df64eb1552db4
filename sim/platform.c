/* sim/platform.c — from an inventory of hosts and a worker selection to the
 * runtime platform: memory nodes, workers and the routes for transfers and
 * estimates: those to and from host memory asked while building (every
 * transfer may take them), the others kept as they are first asked
 * (sim/routes.c). */
#include "sim/platform.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hs_inventory_free(struct hs_inventory *inv)
{
    for (int i = 0; i < inv->n; i++)
        free(inv->hosts[i].name);
    free(inv->hosts);
    inv->hosts = NULL;
    inv->n = 0;
}

void hs_select_defaults(struct hs_select *sel)
{
    sel->gpus = -1;
    sel->cpus = -1;
    sel->gpu_order = HS_GPU_FIRST;
    sel->window = 2;
    sel->cache_fraction = 0.8;
    sel->p2p = false;
}

static const char *const gpu_order_names[] = {"first", "spread", "script"};

const char *hs_gpu_order_name(enum hs_gpu_order order)
{
    return gpu_order_names[order];
}

int hs_gpu_order_parse(const char *text, enum hs_gpu_order *order)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(text, gpu_order_names[i]) == 0) {
            *order = (enum hs_gpu_order)i;
            return 0;
        }
    return hs_fail("'%s' is not first, spread or script", text);
}

const char *hs_node_kind_name(enum hs_node_kind kind)
{
    static const char *names[] = {"host", "gpu", "proc"};
    return names[kind];
}

static int count_kind(const struct hs_inventory *inv, enum hs_host_kind kind, int *idx)
{
    int n = 0;
    for (int i = 0; i < inv->n; i++)
        if (inv->hosts[i].kind == kind) {
            if (idx)
                idx[n] = i;
            n++;
        }
    return n;
}

int hs_inventory_endpoint(const struct hs_inventory *inv)
{
    int first = -1, cpu = -1;
    for (int i = 0; i < inv->n; i++)
        if (inv->hosts[i].kind == HS_HOST_RAM) {
            if (inv->hosts[i].socket == 0)
                return i;
            if (first < 0)
                first = i;
        } else if (inv->hosts[i].kind == HS_HOST_CPU && cpu < 0) {
            cpu = i;
        }
    return first >= 0 ? first : cpu;
}

static const struct hs_inventory *sort_inv; /* qsort has no context argument */

/* One GPU per switch first: order by (rank within its switch, switch). */
static int cmp_spread(const void *a, const void *b)
{
    const struct hs_inv_host *x = &sort_inv->hosts[((const int *)a)[1]];
    const struct hs_inv_host *y = &sort_inv->hosts[((const int *)b)[1]];
    int rx = ((const int *)a)[0], ry = ((const int *)b)[0];
    if (rx != ry)
        return rx - ry;
    return x->sw != y->sw ? x->sw - y->sw : ((const int *)a)[1] - ((const int *)b)[1];
}

/* KAAPI_GPUSET of the 2013 script (plasma-xkaapi.rb) for k = 1..8 GPUs, as
 * GPU indices: with switch pairs (0,1) (2,3) (4,5) (6,7), k = 5 shares two
 * switches, not one (the GPU sets of plasma-kaapi's timing script for
 * Idgraf, 2013, which the experiments of Bleuse et al. 2014 ran). */
static const int script_sets[9][8] = {
    {0}, {1}, {1, 4}, {1, 2, 4}, {1, 2, 4, 6}, {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5, 6},
    {0, 1, 2, 3, 4, 5, 7}, {0, 1, 2, 3, 4, 5, 6, 7},
};

static int script_order(const char *name, int *gpus, int ngpus, int selected)
{
    if (ngpus != 8)
        return hs_fail("platform %s has %d GPUs: --gpu-order script takes the 2013 Idgraf script's "
                       "sets of 8 GPUs",
                       name, ngpus);
    int all[8];
    memcpy(all, gpus, sizeof all);
    for (int i = 0; i < selected; i++)
        gpus[i] = all[script_sets[selected][i]];
    return 0;
}

static void order_gpus(const struct hs_inventory *inv, int *gpus, int ngpus, enum hs_gpu_order order)
{
    if (order != HS_GPU_SPREAD)
        return;
    int (*pairs)[2] = hs_xmalloc((size_t)ngpus * sizeof *pairs);
    for (int i = 0; i < ngpus; i++) {
        int rank = 0;
        const struct hs_inv_host *g = &inv->hosts[gpus[i]];
        for (int j = 0; j < i; j++)
            if (g->sw < 0 ? 0 : inv->hosts[gpus[j]].sw == g->sw)
                rank++;
        pairs[i][0] = rank;
        pairs[i][1] = gpus[i];
    }
    sort_inv = inv;
    qsort(pairs, (size_t)ngpus, sizeof *pairs, cmp_spread);
    for (int i = 0; i < ngpus; i++)
        gpus[i] = pairs[i][1];
    free(pairs);
}

static void add_node(struct hs_platform *pf, const char *name, enum hs_node_kind kind,
                     const char *host, double capacity, int copy_engines)
{
    struct hs_memnode *n = &pf->nodes[pf->nnodes];
    n->id = pf->nnodes++;
    n->name = hs_xstrdup(name);
    n->kind = kind;
    n->host = hs_xstrdup(host);
    n->capacity = capacity;
    n->copy_engines = copy_engines;
}

/* A CPU host of core="N" (N > 1) gives N workers, HOST#0 to HOST#N-1, whose
 * kernels all run on that host; a host of one core is one worker of its name. */
static char *core_name(const struct hs_inv_host *h, int core)
{
    if (h->cores <= 1)
        return hs_xstrdup(h->name);
    size_t size = strlen(h->name) + 16;
    char *name = hs_xmalloc(size);
    snprintf(name, size, "%s#%d", h->name, core);
    return name;
}

static void add_worker(struct hs_platform *pf, const struct hs_inv_host *h, int core, enum hs_arch arch,
                       int node, const char *driver, int window)
{
    struct hs_worker *w = &pf->workers[pf->nworkers];
    w->id = pf->nworkers++;
    w->name = core_name(h, core);
    w->arch = arch;
    w->node = node;
    w->host = hs_xstrdup(h->name);
    w->driver = (char *)driver; /* already a copy */
    w->speed = h->speed;
    w->window = window;
    w->sw = arch == HS_ARCH_GPU ? h->sw : -1;
}

/* The CPU cores of the inventory, in its order: a host of core="N" gives N,
 * each named by its host's index in *host and its rank in *core. */
static int list_cores(const struct hs_inventory *inv, int **host, int **core)
{
    int n = 0;
    for (int i = 0; i < inv->n; i++)
        if (inv->hosts[i].kind == HS_HOST_CPU)
            n += inv->hosts[i].cores > 1 ? inv->hosts[i].cores : 1;
    *host = hs_xmalloc((size_t)(n + 1) * sizeof **host);
    *core = hs_xmalloc((size_t)(n + 1) * sizeof **core);
    n = 0;
    for (int i = 0; i < inv->n; i++)
        for (int k = 0; inv->hosts[i].kind == HS_HOST_CPU && (k == 0 || k < inv->hosts[i].cores); k++) {
            (*host)[n] = i;
            (*core)[n++] = k;
        }
    return n;
}

/* Driving core of a GPU: the highest free core on its socket, else any. */
static int pick_driver(const struct hs_inventory *inv, const int *cores, int ncores, bool *used,
                       int socket)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = ncores - 1; i >= 0; i--)
            if (!used[i] && (pass == 1 || inv->hosts[cores[i]].socket == socket)) {
                used[i] = true;
                return i;
            }
    return -1;
}

int hs_select_check(const char *name, const struct hs_select *sel, int ncores, int ngpus,
                    int nprocs, int *gpus, int *cpus)
{
    if (nprocs > 0) {
        if (sel->gpus > 0)
            return hs_fail("platform %s has no GPU (it has %d processors); remove --gpus", name,
                           nprocs);
        *gpus = 0;
        *cpus = sel->cpus < 0 ? nprocs : sel->cpus;
        if (*cpus > nprocs)
            return hs_fail("platform %s has %d processors; --cpus %d asks for more", name, nprocs,
                           *cpus);
    } else {
        *gpus = sel->gpus < 0 ? ngpus : sel->gpus;
        if (*gpus > ngpus)
            return hs_fail("platform %s has %d GPUs; --gpus %d asks for more", name, ngpus, *gpus);
        if (*gpus > ncores)
            return hs_fail("platform %s has %d cores; each of the %d GPUs needs one to drive it",
                           name, ncores, *gpus);
        *cpus = sel->cpus < 0 ? ncores - *gpus : sel->cpus;
        if (*cpus + *gpus > ncores)
            return hs_fail("platform %s has %d cores: %d CPU workers and %d GPU workers (each "
                           "driven by a core) do not fit",
                           name, ncores, *cpus, *gpus);
    }
    if (*cpus + *gpus == 0)
        return hs_fail("platform %s: no worker selected", name);
    return 0;
}

/* The routes to and from host memory (node 0): every transfer may need them. */
static int host_routes(struct hs_platform *pf, hs_route_fn route, void *ctx)
{
    pf->routes = hs_xcalloc(1, sizeof *pf->routes);
    pf->routes->ask = route;
    pf->routes->ctx = ctx;
    for (int way = 0; way < 2; way++) /* from host memory to each node, then back */
        for (int n = 1; n < pf->nnodes; n++) {
            int s = way ? n : 0, d = way ? 0 : n;
            if (!hs_platform_has_route(pf, s, d))
                return hs_fail("platform %s: no route from %s to %s", pf->name, pf->nodes[s].host,
                               pf->nodes[d].host);
        }
    return 0;
}

int hs_platform_build(struct hs_platform *pf, const char *name, const struct hs_inventory *inv,
                      const struct hs_select *sel, hs_route_fn route, void *ctx)
{
    memset(pf, 0, sizeof *pf);
    pf->name = hs_xstrdup(name);
    pf->p2p = sel->p2p;
    int *cores, *core_rank;
    int *gpus = hs_xmalloc((size_t)(inv->n + 1) * sizeof(int));
    int *procs = hs_xmalloc((size_t)(inv->n + 1) * sizeof(int));
    pf->ncores = list_cores(inv, &cores, &core_rank);
    bool *used = hs_xcalloc((size_t)pf->ncores + 1, sizeof(bool));
    pf->ngpus = count_kind(inv, HS_HOST_GPU, gpus);
    pf->nprocs = count_kind(inv, HS_HOST_PROC, procs);
    int ram = hs_inventory_endpoint(inv), ngpu_sel = 0, ncpu_sel = 0, rc = -1;
    if (ram < 0) {
        hs_fail("platform %s has no host-memory endpoint: no host of kind ram or cpu (give one host "
                "<prop id=\"kind\" value=\"ram\"/>)", name);
        goto out;
    }
    if (hs_select_check(name, sel, pf->ncores, pf->ngpus, pf->nprocs, &ngpu_sel, &ncpu_sel))
        goto out;
    order_gpus(inv, gpus, pf->ngpus, sel->gpu_order);
    if (sel->gpu_order == HS_GPU_SCRIPT && script_order(name, gpus, pf->ngpus, ngpu_sel))
        goto out;

    pf->nodes = hs_xcalloc((size_t)(ngpu_sel + ncpu_sel + 1), sizeof *pf->nodes);
    pf->workers = hs_xcalloc((size_t)(ngpu_sel + ncpu_sel), sizeof *pf->workers);
    add_node(pf, "host", HS_NODE_HOST, inv->hosts[ram].name, INFINITY, 0);
    for (int i = 0; i < ngpu_sel; i++) {
        const struct hs_inv_host *g = &inv->hosts[gpus[i]];
        int d = pick_driver(inv, cores, pf->ncores, used, g->socket);
        double cap = g->memsize > 0 ? g->memsize * sel->cache_fraction : INFINITY;
        add_node(pf, g->name, HS_NODE_GPU, g->name, cap, g->copy_engines == 1 ? 1 : 2);
        add_worker(pf, g, 0, HS_ARCH_GPU, pf->nnodes - 1, core_name(&inv->hosts[cores[d]], core_rank[d]),
                   sel->window);
    }
    if (pf->nprocs > 0) {
        for (int i = 0; i < ncpu_sel; i++) {
            const struct hs_inv_host *p = &inv->hosts[procs[i]];
            add_node(pf, p->name, HS_NODE_PROC, p->name, INFINITY, 0);
            add_worker(pf, p, 0, HS_ARCH_CPU, pf->nnodes - 1, NULL, sel->window);
        }
    } else {
        for (int i = 0, taken = 0; i < pf->ncores && taken < ncpu_sel; i++)
            if (!used[i]) {
                used[i] = true;
                add_worker(pf, &inv->hosts[cores[i]], core_rank[i], HS_ARCH_CPU, 0, NULL, 1);
                taken++;
            }
    }
    rc = host_routes(pf, route, ctx);
out:
    free(cores);
    free(core_rank);
    free(gpus);
    free(procs);
    free(used);
    return rc;
}

void hs_platform_free(struct hs_platform *pf)
{
    for (int i = 0; i < pf->nnodes; i++) {
        free(pf->nodes[i].name);
        free(pf->nodes[i].host);
    }
    for (int i = 0; i < pf->nworkers; i++) {
        free(pf->workers[i].name);
        free(pf->workers[i].host);
        free(pf->workers[i].driver);
    }
    free(pf->nodes);
    free(pf->workers);
    if (pf->routes)
        hs_routes_free(pf->routes);
    free(pf->routes);
    free(pf->name);
    memset(pf, 0, sizeof *pf);
}

struct hs_route hs_platform_route(const struct hs_platform *pf, int src, int dst)
{
    if (src == dst || !pf->routes)
        return (struct hs_route){0, 0};
    return hs_routes_get(pf->routes, pf->nnodes, src, dst, pf->nodes[src].host, pf->nodes[dst].host);
}

void hs_platform_routes_all(struct hs_platform *pf)
{
    for (int s = 0; s < pf->nnodes; s++)
        for (int d = 0; d < pf->nnodes; d++)
            hs_platform_route(pf, s, d);
    if (pf->routes) {
        pf->routes->ask = NULL;
        pf->routes->ctx = NULL;
    }
}

long hs_platform_routes_asked(const struct hs_platform *pf)
{
    return pf->routes ? pf->routes->asked : 0;
}

bool hs_platform_has_route(const struct hs_platform *pf, int src, int dst)
{
    return hs_platform_route(pf, src, dst).bw > 0;
}

double hs_platform_link_time(const struct hs_platform *pf, int src, int dst, double bytes)
{
    if (src == dst)
        return 0;
    struct hs_route r = hs_platform_route(pf, src, dst);
    if (r.bw <= 0)
        return INFINITY;
    return r.lat + bytes / r.bw;
}
