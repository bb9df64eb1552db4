/* cli/cmd_platform.c — `hetsim platform`: what a platform offers and
 * what a run would use: hosts, selected workers, memory nodes and the routes
 * between host memory and every other memory node (those of the first
 * LISTED_NODES nodes, the others summed up), and how many direct routes there
 * are between devices or processors where that takes at most LISTED_PAIRS
 * route queries; a larger platform says how many of its routes were asked
 * instead of asking for every pair (a run asks for the others on first use). */
#include "cli/cli.h"
#include "base/util.h"
#include "platforms/prop_source.h"
#include "sim/run.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: hetsim platform PLATFORM [--gpus K] [--cpus C] [--gpu-order first|spread|script] [--p2p]\n"
                 "       hetsim platform --write-checked DIR\n"
                 "List the workers, memory nodes and routes (bandwidth, latency, links) of\n"
                 "PLATFORM: a shipped name (idgraf, idgraf-dada, idgraf-starpu, mapuche, h100),\n"
                 "flat:P[,key=value] or the path of a SimGrid platform file. Parameters of flat:\n");
    hs_print_flat_params("  ");
    fprintf(out, "Parameters of a shipped name or a file (NAME:key=value,...):\n");
    hs_print_file_platform_params("  ");
    fprintf(out, "--write-checked DIR checks every *.xml platform file of DIR (SimGrid loads it in a child\n"
                 "process) and writes DIR/checked.json: runs of those files, unchanged, skip that check.\n");
}

enum { LISTED_NODES = 64, LISTED_PAIRS = 4096 };

static void print_route(const struct hs_platform *pf, int s, int d)
{
    char links[1024];
    struct hs_route r = hs_platform_route(pf, s, d);
    if (r.bw <= 0)
        return;
    hs_platform_route_links(pf->nodes[s].host, pf->nodes[d].host, links, sizeof links);
    printf("  %-8s -> %-8s %10.2f MB/s %9.3f us  [%s]\n", pf->nodes[s].name, pf->nodes[d].name,
           r.bw / 1e6, r.lat * 1e6, links);
}

/* The direct routes between devices or processors: counted where there are
 * few pairs, else how many routes were asked to build the platform. */
static void print_direct(const struct hs_platform *pf)
{
    long pairs = (long)(pf->nnodes - 1) * (pf->nnodes - 2);
    if (pairs > LISTED_PAIRS) {
        printf("  %ld routes asked (to and from host memory); the %ld between the %d %s are asked by a "
               "run when it first needs one\n", hs_platform_routes_asked(pf), pairs, pf->nnodes - 1,
               pf->ngpus ? "GPUs" : "processors");
        return;
    }
    int direct = 0;
    for (int s = 1; s < pf->nnodes; s++)
        for (int d = 1; d < pf->nnodes; d++)
            direct += s != d && hs_platform_has_route(pf, s, d);
    printf("  %d direct routes between devices or processors%s\n", direct,
           direct && pf->ngpus ? (pf->p2p ? " (used: --p2p)" : " (unused without --p2p)") : "");
}

static void print_platform(const struct hs_platform *pf, const struct hs_inventory *inv,
                           const char *file)
{
    printf("platform %s (%s)\n", pf->name, file);
    printf("  offers %d cores, %d GPUs, %d flat processors\n", pf->ncores, pf->ngpus, pf->nprocs);
    printf("hosts:\n");
    static const char *kinds[] = {"cpu", "gpu", "ram", "proc"};
    for (int i = 0; i < inv->n; i++) {
        const struct hs_inv_host *h = &inv->hosts[i];
        if (h->kind == HS_HOST_IGNORED)
            continue;
        printf("  %-8s %-4s %12.4g flop/s", h->name, kinds[h->kind], h->speed);
        if (h->memsize > 0)
            printf("  memory %.0f B", h->memsize);
        if (h->sw >= 0)
            printf("  switch %d", h->sw);
        if (h->socket >= 0)
            printf("  %s %d", h->kind == HS_HOST_GPU ? "ioh" : h->kind == HS_HOST_RAM ? "numa" : "socket",
                   h->socket);
        if (h->kind == HS_HOST_CPU && h->cores > 1)
            printf("  %d cores (%d workers)", h->cores, h->cores);
        if (h->by_default)
            printf("  (cpu by default)");
        printf("\n");
    }
    for (int i = 0; i < inv->n; i++)
        if (inv->hosts[i].kind == HS_HOST_IGNORED)
            printf("note: host %s is ignored: %s\n", inv->hosts[i].name,
                   hs_inv_ignored_why(inv->hosts[i].name));
    printf("workers (selected):\n");
    for (int w = 0; w < pf->nworkers; w++) {
        const struct hs_worker *wk = &pf->workers[w];
        printf("  %-3d %-8s %-4s memory %-8s window %d", w, wk->name, hs_arch_name(wk->arch),
               pf->nodes[wk->node].name, wk->window);
        if (wk->driver)
            printf("  driven by %s", wk->driver);
        printf("\n");
    }
    printf("memory nodes:\n");
    for (int n = 0; n < pf->nnodes; n++) {
        const struct hs_memnode *m = &pf->nodes[n];
        printf("  %-3d %-8s %-4s endpoint %-8s", n, m->name, hs_node_kind_name(m->kind), m->host);
        if (isfinite(m->capacity))
            printf(" cache %.0f B", m->capacity);
        printf("%s\n", m->copy_engines == 2   ? " (one copy engine each way)"
                       : m->copy_engines == 1 ? " (one copy engine for both ways)"
                                              : "");
    }
    printf("routes (bottleneck bandwidth, total latency, links):\n");
    for (int n = 1; n < pf->nnodes && n <= LISTED_NODES; n++) {
        print_route(pf, 0, n);
        print_route(pf, n, 0);
    }
    if (pf->nnodes - 1 > LISTED_NODES)
        printf("  ... and those of the %d other nodes (each to and from host memory: all checked)\n",
               pf->nnodes - 1 - LISTED_NODES);
    print_direct(pf);
}

/* flat:P's parameters, each with its value and whether it was given or is
 * its default (the defaults are flat:P's definition: docs/platforms.md). */
static void print_flat_params(const char *text)
{
    struct hs_spec spec;
    if (hs_spec_parse(text, &spec))
        return;
    int given = spec.n; /* hs_spec_check adds the defaults after what was given */
    if (hs_spec_check(&spec, hs_flat_params(), "platform flat") == 0) {
        printf("parameters (flat:key=value):\n");
        for (const struct hs_param *p = hs_flat_params(); p->name; p++) {
            int i = 0;
            while (i < spec.n && strcmp(spec.kv[i].key, p->name))
                i++;
            const char *v = i < spec.n ? spec.kv[i].value : "";
            printf("  %-13s %-12s %s\n", p->name, *v ? v : "-",
                   i < given ? "given in the platform's name" : "default of flat:P");
        }
    }
    hs_spec_free(&spec);
}

/* The runtime's costs the platform declares (sim/costs.h). */
static int print_costs(const char *name, const char *file)
{
    struct hs_costs c = {0}; /* scale 0: the platform's costs as they are */
    for (int i = 0; hs_costs_props[i]; i++)
        hs_costs_set(&c, i, NAN);
    if (hs_platform_costs(name, &c)) {
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
        return HS_EXIT_USAGE;
    }
    if (!hs_costs_any(&c)) {
        printf("runtime costs: none (the platform sets no runtime/* property)\n");
        return 0;
    }
    printf("runtime costs (seconds; the zone's runtime/* properties of %s):", file ? file : name);
    for (int i = 0; hs_costs_props[i]; i++)
        printf(" %s %g", strchr(hs_costs_props[i], '/') + 1, hs_costs_get(&c, i));
    printf("\n");
    char *last = NULL; /* each one's source, as the file writes it; one comment for several once */
    const char *last_name = NULL;
    for (int i = 0; file && hs_costs_props[i]; i++) {
        char *source = hs_prop_source(file, hs_costs_props[i]);
        const char *name = strchr(hs_costs_props[i], '/') + 1;
        if (source && last && strcmp(source, last) == 0)
            printf("  %s: the same comment as %s\n", name, last_name);
        else
            printf("  %s: %s\n", name, source ? source : "no source written beside it (a comment just before "
                                                        "its <prop>)");
        if (source && !(last && strcmp(source, last) == 0)) {
            free(last);
            last = source;
            last_name = name;
        } else {
            free(source);
        }
    }
    free(last);
    return 0;
}

int hs_cmd_platform(int argc, char **argv)
{
    static const struct option opts[] = {
        {"gpus", required_argument, 0, 'g'}, {"cpus", required_argument, 0, 'c'},
        {"gpu-order", required_argument, 0, 'o'}, {"p2p", no_argument, 0, 'P'},
        {"write-checked", required_argument, 0, 'W'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
    };
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    int c;
    optind = 1;
    while ((c = hs_getopt("platform", argc, argv, "h", opts)) != -1) {
        switch (c) {
        case 'g': cfg.select.gpus = (int)hs_opt_long("--gpus", optarg, 0, 1 << 20); break;
        case 'c': cfg.select.cpus = (int)hs_opt_long("--cpus", optarg, 0, 1 << 20); break;
        case 'o':
            if (hs_gpu_order_parse(optarg, &cfg.select.gpu_order))
                hs_die(HS_EXIT_USAGE, "option --gpu-order: %s", hs_last_error());
            break;
        case 'P': cfg.select.p2p = true; break;
        case 'W':
            if (hs_platform_checked_write(optarg))
                hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
            printf("wrote %s/%s\n", optarg, HS_PLATFORM_CHECKED_NAME);
            return HS_EXIT_OK;
        case 'h': usage(stdout); return HS_EXIT_OK;
        default: return HS_EXIT_USAGE;
        }
    }
    if (optind != argc - 1)
        hs_die(HS_EXIT_USAGE, "platform: give one platform (see `hetsim platform --help`)");
    struct hs_platform_ref ref;
    if (hs_resolve_platform(argv[optind], NULL, &ref))
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
    cfg.platform_file = ref.file;
    cfg.flat = ref.flat;
    cfg.platform_name = ref.name;
    cfg.opts.machine = ref.machine;
    struct hs_platform pf = {0};
    struct hs_inventory inv;
    cfg.notes = true;
    int rc = hs_platform_open(&cfg, &pf, &inv);
    if (rc) {
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
    } else {
        print_platform(&pf, &inv, ref.flat ? "generated" : ref.file);
        if (ref.perf)
            printf("timing table: %s\n", ref.perf);
        rc = print_costs(cfg.platform_name, ref.file);
        if (ref.flat) {
            print_flat_params(ref.name);
        } else {
            printf("parameters (NAME:key=value; value, unit, source):\n");
            hs_machine_params_print(&ref.machine, "  ", stdout);
        }
        hs_inventory_free(&inv);
    }
    if (pf.name)
        hs_platform_free(&pf);
    hs_platform_ref_free(&ref);
    return rc;
}
