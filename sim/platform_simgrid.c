/* sim/platform_simgrid.c — SimGrid platform files: checking, loading, listing. */
#include "sim/platform_simgrid.h"
#include "sim/hostmap.h"
#include "sim/util.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/zone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xbt/config.h>
#include <xbt/dynar.h>

/* Keep the useful part of SimGrid's complaint ("Parse error at f.xml:12: …",
 * "Uncaught exception std::invalid_argument: Link not found: x"). */
static void extract_message(const char *log, char *out, size_t size)
{
    static const char *markers[] = {"Parse error at ", "Uncaught exception ", "[xbt_cfg/",
                                    "Exception: ", NULL};
    snprintf(out, size, "SimGrid could not load it");
    for (int i = 0; markers[i]; i++) {
        const char *p = strstr(log, markers[i]);
        if (!p)
            continue;
        p += strlen(markers[i]);
        if (i == 1 || i == 2) { /* skip the exception type / category */
            const char *colon = strstr(p, ": ");
            if (colon)
                p = colon + 2;
        }
        size_t len = strcspn(p, "\n");
        snprintf(out, size, "%.*s", (int)len, p);
        return;
    }
}

/* StarPU still ships version-3 files (power=) beside the .v4.xml ones. */
static const char *old_version_hint(const char *path)
{
    char head[1024] = "";
    FILE *f = fopen(path, "r");
    if (f) {
        head[fread(head, 1, sizeof head - 1, f)] = '\0';
        fclose(f);
    }
    return strstr(head, "version=\"3\"") || strstr(head, "version='3'")
               ? " (a version-3 platform: SimGrid 3.32 reads version 4; StarPU ships a .v4.xml "
                 "beside its version-3 files)"
               : "";
}

int hs_sg_check_platform(const char *path)
{
    if (access(path, R_OK) != 0)
        return hs_fail("platform file %s: %s", path, strerror(errno));
    int fds[2];
    if (pipe(fds) != 0)
        return hs_fail("platform file %s: cannot create a pipe", path);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return hs_fail("platform file %s: cannot fork to check it", path);
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0)
            dup2(fd, STDOUT_FILENO);
        int argc = 3;
        char *argv[] = {"hetsim", "--log=root.thres:critical", "--log=xbt_exception.thres:error",
                        NULL};
        simgrid_init(&argc, argv);
        simgrid_load_platform(path);
        _exit(0);
    }
    close(fds[1]);
    char log[8192];
    size_t len = 0;
    ssize_t r;
    while ((r = read(fds[0], log + len, sizeof log - 1 - len)) > 0)
        len += (size_t)r;
    log[len] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    char msg[512];
    extract_message(log, msg, sizeof msg);
    return hs_fail("platform file %s: %s%s", path, msg, old_version_hint(path));
}

void hs_sg_init(bool verbose, const char *paje_file)
{
    static char *argv[16];
    int argc = 0;
    argv[argc++] = "hetsim";
    if (!verbose)
        argv[argc++] = "--log=root.thres:critical";
#ifdef HETSIM_SANITIZE
    /* AddressSanitizer follows threads, not SimGrid's hand-made stacks */
    argv[argc++] = "--cfg=contexts/factory:thread";
#endif
    static char trace_file[4096];
    if (paje_file) {
        snprintf(trace_file, sizeof trace_file, "--cfg=tracing/filename:%s", paje_file);
        argv[argc++] = "--cfg=tracing:yes";
        argv[argc++] = trace_file;
        argv[argc++] = "--cfg=tracing/uncategorized:yes";
    }
    argv[argc] = NULL;
    simgrid_init(&argc, argv);
}

void hs_sg_load(const char *path)
{
    simgrid_load_platform(path);
}

void hs_sg_scale_bandwidths(double factor)
{
    size_t n = sg_link_count();
    sg_link_t *links = sg_link_list();
    for (size_t i = 0; i < n; i++)
        sg_link_set_bandwidth(links[i], sg_link_get_bandwidth(links[i]) * factor);
    free(links);
}

static bool prefix(const char *name, const char *p)
{
    return strncasecmp(name, p, strlen(p)) == 0;
}

/* What the names of a platform's hosts say about StarPU's conventions. */
struct naming {
    bool has_ram;  /* a host RAM*: StarPU's MAIN is then its main thread, not memory */
    bool has_cuda; /* hosts CUDA* or GPU*: OpenCL* hosts are the same devices again */
};

static const char *const why_opencl = "StarPU's OpenCL view of devices also listed as CUDA";
static const char *const why_disk = "disks are not modelled";
static const char *const why_main = "StarPU's host of the main thread (no worker, no memory)";

const char *hs_sg_ignored_why(const char *name)
{
    return prefix(name, "opencl") ? why_opencl
           : prefix(name, "disk") ? why_disk
           : strcasecmp(name, "main") == 0 ? why_main
                                           : "the host map or its kind property says so";
}

/* Kind from the host's name; false if the name does not tell. */
static bool kind_by_name(const char *name, const struct naming *nm, enum hs_host_kind *kind)
{
    if (prefix(name, "cpu") || prefix(name, "core"))
        *kind = HS_HOST_CPU;
    else if (prefix(name, "gpu") || prefix(name, "cuda"))
        *kind = HS_HOST_GPU;
    else if (prefix(name, "opencl") && !nm->has_cuda)
        *kind = HS_HOST_GPU;
    else if (prefix(name, "opencl"))
        *kind = HS_HOST_IGNORED;
    else if (prefix(name, "disk"))
        *kind = HS_HOST_IGNORED;
    else if (strcasecmp(name, "main") == 0 && nm->has_ram)
        *kind = HS_HOST_IGNORED;
    else if (prefix(name, "ram") || prefix(name, "mem") || strcasecmp(name, "main") == 0)
        *kind = HS_HOST_RAM;
    else if ((name[0] == 'P' || name[0] == 'p') && isdigit((unsigned char)name[1]))
        *kind = HS_HOST_PROC;
    else
        return false;
    return true;
}

static int kind_of(sg_host_t host, const char *pfname, const struct hs_hostmap *map,
                   const struct naming *nm, enum hs_host_kind *kind)
{
    const char *name = sg_host_get_name(host);
    const char *k = sg_host_get_property_value(host, "kind");
    if (map && hs_hostmap_kind(map, name, kind))
        return 0;
    if (k) {
        static const char *names[] = {"cpu", "gpu", "ram", "proc", "ignore"};
        for (int i = 0; i < 5; i++)
            if (strcmp(k, names[i]) == 0) {
                *kind = (enum hs_host_kind)i;
                return 0;
            }
        return hs_fail("platform %s: host %s: property kind='%s' is not cpu, gpu, ram, proc or "
                       "ignore", pfname, name, k);
    }
    if (!kind_by_name(name, nm, kind))
        return hs_fail("platform %s: host %s: cannot tell whether it is a cpu, gpu, ram or proc "
                       "(add <prop id=\"kind\" value=\"...\"/>, or a host map: hosts=FILE)",
                       pfname, name);
    return 0;
}

static int int_prop(sg_host_t host, const char *key, int dflt)
{
    const char *v = sg_host_get_property_value(host, key);
    return v ? atoi(v) : dflt;
}

static int cmp_inv_host(const void *a, const void *b)
{
    const struct hs_inv_host *x = a, *y = b;
    if (x->kind != y->kind)
        return (int)x->kind - (int)y->kind;
    return hs_natural_cmp(x->name, y->name); /* "GPU2" before "GPU10" */
}

int hs_sg_inventory(const char *platform_name, struct hs_inventory *inv)
{
    return hs_sg_inventory_map(platform_name, NULL, inv);
}

int hs_sg_inventory_map(const char *platform_name, const char *map_file, struct hs_inventory *inv)
{
    memset(inv, 0, sizeof *inv);
    struct hs_hostmap map;
    if (map_file && hs_hostmap_read(map_file, &map))
        return -1;
    size_t n = sg_host_count();
    sg_host_t *hosts = sg_host_list();
    struct naming nm = {false, false};
    for (size_t i = 0; i < n; i++) {
        const char *name = sg_host_get_name(hosts[i]);
        nm.has_ram |= prefix(name, "ram");
        nm.has_cuda |= prefix(name, "cuda") || prefix(name, "gpu");
    }
    inv->hosts = hs_xcalloc(n, sizeof *inv->hosts);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        struct hs_inv_host *h = &inv->hosts[inv->n];
        if ((rc = kind_of(hosts[i], platform_name, map_file ? &map : NULL, &nm, &h->kind)))
            break;
        h->name = hs_xstrdup(sg_host_get_name(hosts[i]));
        h->speed = sg_host_get_speed(hosts[i]);
        const char *mem = sg_host_get_property_value(hosts[i], "memsize");
        h->memsize = mem ? atof(mem) : 0;
        h->sw = int_prop(hosts[i], "switch", -1);
        h->copy_engines = int_prop(hosts[i], "copy_engines", 2);
        h->socket = int_prop(hosts[i], h->kind == HS_HOST_GPU   ? "ioh"
                                       : h->kind == HS_HOST_RAM ? "numa"
                                                                : "socket",
                             -1);
        inv->n++;
    }
    free(hosts);
    if (map_file)
        hs_hostmap_free(&map);
    if (rc) {
        hs_inventory_free(inv);
        return -1;
    }
    qsort(inv->hosts, (size_t)inv->n, sizeof *inv->hosts, cmp_inv_host);
    return 0;
}

int hs_sg_costs(const char *platform_name, struct hs_costs *c)
{
    sg_netzone_t zone = sg_zone_get_root();
    for (int i = 0; hs_costs_props[i]; i++) {
        if (!isnan(hs_costs_get(c, i)))
            continue; /* set by the run */
        const char *v = zone ? sg_zone_get_property_value(zone, hs_costs_props[i]) : NULL;
        double seconds = 0;
        if (v && hs_costs_parse_time(v, &seconds))
            return hs_fail("platform %s: zone property %s='%s' is not a duration (e.g. 5us, 2e-6)",
                           platform_name, hs_costs_props[i], v);
        hs_costs_set(c, i, seconds);
    }
    return 0;
}

bool hs_sg_route(void *ctx, const char *src, const char *dst, double *lat, double *bw)
{
    (void)ctx;
    sg_host_t s = sg_host_by_name(src), d = sg_host_by_name(dst);
    if (!s || !d)
        return false;
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sg_host_get_route(s, d, links);
    bool found = xbt_dynar_length(links) > 0;
    xbt_dynar_free(&links);
    if (!found)
        return false;
    *lat = sg_host_get_route_latency(s, d);
    *bw = sg_host_get_route_bandwidth(s, d);
    return *bw > 0;
}

void hs_sg_route_links(const char *src, const char *dst, char *buf, int size)
{
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sg_host_get_route(sg_host_by_name(src), sg_host_by_name(dst), links);
    int len = 0;
    buf[0] = '\0';
    for (unsigned long i = 0; i < xbt_dynar_length(links) && len < size; i++) {
        sg_link_t l = xbt_dynar_get_as(links, i, sg_link_t);
        len += snprintf(buf + len, (size_t)(size - len), "%s%s", i ? "," : "", sg_link_get_name(l));
    }
    xbt_dynar_free(&links);
}
