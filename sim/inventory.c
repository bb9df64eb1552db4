/* sim/inventory.c — the hosts a platform file declares, told apart and
 * checked: the kind of each (its "kind" property, else its name), its speed
 * and properties (memsize, switch, copy_engines, socket / ioh / numa), each
 * refused with one line naming the host, the property and the value when it
 * is not what hetsim can use. Properties are read through a getter, so that
 * this holds no SimGrid (platform_simgrid.c gives SimGrid's; the inventory
 * fuzzer its own). */
#include "sim/platform.h"
#include "sim/util.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool prefix(const char *name, const char *p)
{
    return strncasecmp(name, p, strlen(p)) == 0;
}

static int kind_of(const char *name, const char *pfname, hs_prop_fn prop, const void *host,
                   enum hs_host_kind *kind)
{
    const char *k = prop(host, "kind");
    if (k) {
        static const char *names[] = {"cpu", "gpu", "ram", "proc"};
        for (int i = 0; i < 4; i++)
            if (strcmp(k, names[i]) == 0) {
                *kind = (enum hs_host_kind)i;
                return 0;
            }
        return hs_fail("platform %s: host %s: property kind='%s' is not cpu, gpu, ram or proc",
                       pfname, name, k);
    }
    if (prefix(name, "cpu") || prefix(name, "core"))
        *kind = HS_HOST_CPU;
    else if (prefix(name, "gpu") || prefix(name, "cuda"))
        *kind = HS_HOST_GPU;
    else if (prefix(name, "ram") || prefix(name, "mem") || strcasecmp(name, "main") == 0)
        *kind = HS_HOST_RAM;
    else if ((name[0] == 'P' || name[0] == 'p') && isdigit((unsigned char)name[1]))
        *kind = HS_HOST_PROC;
    else
        return hs_fail("platform %s: host %s: cannot tell whether it is a cpu, gpu, ram or proc "
                       "(add <prop id=\"kind\" value=\"...\"/>)",
                       pfname, name);
    return 0;
}

/* An integer property in [min, max] (dflt when absent); -1 with hs_fail
 * naming the host, the property and its value. */
static int int_prop(const struct hs_inv_host *h, const char *pfname, hs_prop_fn prop,
                    const void *host, const char *key, long min, long max, int dflt, int *out)
{
    const char *v = prop(host, key);
    long x;
    *out = dflt;
    if (!v)
        return 0;
    if (hs_parse_long(v, &x) || x < min || x > max)
        return hs_fail("platform %s: host %s: property %s='%s' is not an integer in [%ld, %ld]",
                       pfname, h->name, key, v, min, max);
    *out = (int)x;
    return 0;
}

/* The properties of one host: speed, memsize, switch, copy_engines, socket. */
static int host_props(struct hs_inv_host *h, const char *pfname, hs_prop_fn prop, const void *host)
{
    const char *name = h->name;
    if (h->kind != HS_HOST_RAM && !(h->speed > 0 && isfinite(h->speed)))
        return hs_fail("platform %s: host %s: speed %g flop/s (a %s must compute: speed > 0)",
                       pfname, name, h->speed, h->kind == HS_HOST_GPU ? "GPU" : "worker");
    const char *mem = prop(host, "memsize");
    h->memsize = 0;
    if (mem && (hs_parse_double(mem, &h->memsize) || !(h->memsize > 0) || !isfinite(h->memsize)))
        return hs_fail("platform %s: host %s: property memsize='%s' is not a number of bytes > 0",
                       pfname, name, mem);
    const char *socket_key = h->kind == HS_HOST_GPU ? "ioh" : h->kind == HS_HOST_RAM ? "numa" : "socket";
    if (int_prop(h, pfname, prop, host, "switch", 0, 1 << 20, -1, &h->sw) ||
        int_prop(h, pfname, prop, host, "copy_engines", 1, 2, 2, &h->copy_engines) ||
        int_prop(h, pfname, prop, host, socket_key, 0, 1 << 20, -1, &h->socket))
        return -1;
    return 0;
}

/* "GPU2" before "GPU10": compare the text, then the trailing numbers. */
static int natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            long x = strtol(a, (char **)&a, 10), y = strtol(b, (char **)&b, 10);
            if (x != y)
                return x < y ? -1 : 1;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a - (unsigned char)*b;
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

static int cmp_inv_host(const void *a, const void *b)
{
    const struct hs_inv_host *x = a, *y = b;
    if (x->kind != y->kind)
        return (int)x->kind - (int)y->kind;
    return natural_cmp(x->name, y->name);
}

int hs_inv_host_read(struct hs_inv_host *h, const char *pfname, const char *name, double speed,
                     hs_prop_fn prop, const void *host)
{
    memset(h, 0, sizeof *h);
    h->name = hs_xstrdup(name);
    h->speed = speed;
    return kind_of(name, pfname, prop, host, &h->kind) || host_props(h, pfname, prop, host) ? -1 : 0;
}

void hs_inventory_sort(struct hs_inventory *inv)
{
    if (inv->n > 1)
        qsort(inv->hosts, (size_t)inv->n, sizeof *inv->hosts, cmp_inv_host);
}
