/* sim/inventory.c — the hosts a platform file declares, told apart and
 * checked: the kind of each (the host map, else its "kind" property, else
 * its name, with StarPU's conventions: CPUn, CUDAn, RAM; DISKn, MAIN beside
 * RAM and OpenCLn beside CUDAn ignored; else, as SimGrid's and WRENCH's own
 * files are written, a CPU host), its speed
 * and properties (memsize, switch, copy_engines, socket / ioh / numa), each
 * refused with one line naming the host, the property and the value when it
 * is not what hetsim can use. Properties are read through a getter, so that
 * this holds no SimGrid (platform_simgrid.c gives SimGrid's; the inventory
 * fuzzer its own). */
#include "sim/platform.h"
#include "base/inputfile.h"
#include "base/util.h"
#include "sim/hostmap.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool prefix(const char *name, const char *p)
{
    return strncasecmp(name, p, strlen(p)) == 0;
}

void hs_inv_ctx_note(struct hs_inv_ctx *c, const char *name)
{
    c->has_ram |= prefix(name, "ram");
    c->has_cuda |= prefix(name, "cuda") || prefix(name, "gpu");
}

static const char *const why_opencl = "StarPU's OpenCL view of devices also listed as CUDA";
static const char *const why_disk = "disks are not modelled";
static const char *const why_main = "StarPU's host of the main thread (no worker, no memory)";

const char *hs_inv_ignored_why(const char *name)
{
    return prefix(name, "opencl") ? why_opencl
           : prefix(name, "disk") ? why_disk
           : strcasecmp(name, "main") == 0 ? why_main
                                           : "the host map or its kind property says so";
}

/* Kind from the host's name; false if the name does not tell. */
static bool kind_by_name(const char *name, const struct hs_inv_ctx *c, enum hs_host_kind *kind)
{
    if (prefix(name, "cpu") || prefix(name, "core"))
        *kind = HS_HOST_CPU;
    else if (prefix(name, "gpu") || prefix(name, "cuda"))
        *kind = HS_HOST_GPU;
    else if (prefix(name, "opencl") && !c->has_cuda)
        *kind = HS_HOST_GPU;
    else if (prefix(name, "opencl"))
        *kind = HS_HOST_IGNORED;
    else if (prefix(name, "disk"))
        *kind = HS_HOST_IGNORED;
    else if (strcasecmp(name, "main") == 0 && c->has_ram)
        *kind = HS_HOST_IGNORED;
    else if (prefix(name, "ram") || prefix(name, "mem") || strcasecmp(name, "main") == 0)
        *kind = HS_HOST_RAM;
    else if ((name[0] == 'P' || name[0] == 'p') && isdigit((unsigned char)name[1]))
        *kind = HS_HOST_PROC;
    else
        return false;
    return true;
}

/* The host map decides first, then the "kind" property, then the name;
 * a host none of them tells is a CPU host (*by_default set). */
static int kind_of(const char *name, const struct hs_inv_ctx *c, const void *host,
                   enum hs_host_kind *kind, bool *by_default)
{
    if (c->map && hs_hostmap_kind(c->map, name, kind))
        return 0;
    const char *k = c->prop(host, "kind");
    if (k) {
        static const char *names[] = {"cpu", "gpu", "ram", "proc", "ignore"};
        for (int i = 0; i < 5; i++)
            if (strcmp(k, names[i]) == 0) {
                *kind = (enum hs_host_kind)i;
                return 0;
            }
        return hs_fail("platform %s: host %s: property kind='%s' is not cpu, gpu, ram, proc or "
                       "ignore", c->pfname, name, k);
    }
    if (!kind_by_name(name, c, kind)) { /* SimGrid's and WRENCH's files as written */
        *kind = HS_HOST_CPU;
        *by_default = true;
    }
    return 0;
}

/* An integer property in [min, max] (dflt when absent); -1 with hs_fail
 * naming the host, the property and its value. */
static int int_prop(const struct hs_inv_host *h, const struct hs_inv_ctx *c, const void *host,
                    const char *key, long min, long max, int dflt, int *out)
{
    const char *v = c->prop(host, key);
    long x;
    *out = dflt;
    if (!v)
        return 0;
    if (hs_parse_long(v, &x) || x < min || x > max)
        return hs_fail("platform %s: host %s: property %s='%s' is not an integer in [%ld, %ld]",
                       c->pfname, h->name, key, v, min, max);
    *out = (int)x;
    return 0;
}

/* The properties of one host: speed, memsize, switch, copy_engines, socket.
 * An ignored host is listed only: nothing of it is used, nothing checked. */
static int host_props(struct hs_inv_host *h, const struct hs_inv_ctx *c, const void *host)
{
    const char *name = h->name;
    h->sw = h->socket = -1;
    h->copy_engines = 2;
    if (h->kind == HS_HOST_IGNORED)
        return 0;
    if (h->kind != HS_HOST_RAM && !(h->speed > 0 && isfinite(h->speed)))
        return hs_fail("platform %s: host %s: speed %g flop/s (a %s must compute: speed > 0)",
                       c->pfname, name, h->speed, h->kind == HS_HOST_GPU ? "GPU" : "worker");
    const char *mem = c->prop(host, "memsize");
    h->memsize = 0;
    if (mem && (hs_parse_double(mem, &h->memsize) || !(h->memsize > 0) || !isfinite(h->memsize)))
        return hs_fail("platform %s: host %s: property memsize='%s' is not a number of bytes > 0",
                       c->pfname, name, mem);
    if (mem && (h->memsize < 1 || h->memsize != floor(h->memsize) || h->memsize > 9007199254740992.0))
        return hs_fail("platform %s: host %s: property memsize='%s' is not a whole number of bytes from 1 to "
                       "2^53 (8 PiB)", c->pfname, name, mem); /* 0.5 was 0 B of memory, 1e300 a 300-digit size */
    const char *socket_key = h->kind == HS_HOST_GPU ? "ioh" : h->kind == HS_HOST_RAM ? "numa" : "socket";
    if (int_prop(h, c, host, "switch", 0, 1 << 20, -1, &h->sw) ||
        int_prop(h, c, host, "copy_engines", 1, 2, 2, &h->copy_engines) ||
        int_prop(h, c, host, socket_key, 0, 1 << 20, -1, &h->socket))
        return -1;
    return 0;
}

static int cmp_inv_host(const void *a, const void *b)
{
    const struct hs_inv_host *x = a, *y = b;
    if (x->kind != y->kind)
        return (int)x->kind - (int)y->kind;
    return hs_natural_cmp(x->name, y->name); /* "GPU2" before "GPU10" */
}

int hs_inv_host_read(struct hs_inv_host *h, const struct hs_inv_ctx *c, const char *name,
                     double speed, const void *host)
{
    memset(h, 0, sizeof *h);
    h->name = hs_xstrdup(name);
    h->speed = speed;
    size_t too_long = hs_name_too_long(name); /* the bound of every name read from a file */
    if (too_long)
        return hs_fail("platform %s: a host name of %zu bytes, more than the %d bytes hetsim reads in a "
                       "name", c->pfname, too_long, HS_NAME_MAX);
    h->cores = 1;
    return kind_of(name, c, host, &h->kind, &h->by_default) || host_props(h, c, host) ? -1 : 0;
}

void hs_inventory_sort(struct hs_inventory *inv)
{
    if (inv->n > 1)
        qsort(inv->hosts, (size_t)inv->n, sizeof *inv->hosts, cmp_inv_host);
}
