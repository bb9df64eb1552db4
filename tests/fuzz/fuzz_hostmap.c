/* tests/fuzz/fuzz_hostmap.c — the host map side file of SimGrid platforms
 * (sim/hostmap.c: "PATTERN KIND" lines), then the kinds it and the inventory
 * (sim/inventory.c) give the hosts of SimGrid's and StarPU's platform files. */
#include "sim/hostmap.h"
#include "base/util.h"
#include "sim/platform.h"
#include "tests/fuzz/fuzz.h"

#include <stddef.h>

static const char *no_prop(const void *host, const char *key)
{
    (void)host, (void)key;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_setup();
    static const char *const hosts[] = {"Tremblay", "Jupiter", "Fafard", "Ginette", "Bourassa",
                                        "CPU0",     "CUDA1",   "OpenCL0", "RAM",    "MAIN",
                                        "DISK0",    "P3",      ""};
    struct hs_hostmap map;
    if (hs_hostmap_read(hs_fuzz_file(data, size, ".hosts"), &map))
        return 0;
    struct hs_inv_ctx ctx = {.pfname = "fuzz", .prop = no_prop, .map = &map};
    size_t n = sizeof hosts / sizeof hosts[0];
    for (size_t i = 0; i < n; i++)
        hs_inv_ctx_note(&ctx, hosts[i]);
    struct hs_inventory inv = {.n = 0, .hosts = hs_xcalloc(n, sizeof *inv.hosts)};
    for (size_t i = 0; i < n; i++)
        hs_inv_host_read(&inv.hosts[inv.n++], &ctx, hosts[i], 1e9, NULL);
    hs_inventory_sort(&inv);
    hs_inventory_free(&inv);
    hs_hostmap_free(&map);
    return 0;
}
