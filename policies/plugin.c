/* policies/plugin.c — policies written out of tree: a shared library that
 * exports `const struct hs_policy hs_policy_plugin` (as StarPU loads a
 * scheduling policy from a library), loaded with dlopen. The library takes
 * the runtime's functions (sim/sched.h, base/util.h, policies/taskq.h, …) from
 * the hetsim executable, which exports them. */
#include "policies/registry.h"
#include "base/util.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct loaded {
    char *path;
    const struct hs_policy *policy;
    bool named; /* known by its name too (--plugin) */
};
static struct loaded *loaded;
static int nloaded;
static size_t cap_loaded;

static const struct hs_policy *open_plugin(const char *path)
{
    /* a bare file name would be searched on the library path: dlopen the
     * file the user means ("libmine.so" in this folder) */
    char *file = strchr(path, '/') ? hs_xstrdup(path) : hs_xmalloc(strlen(path) + 3);
    if (!strchr(path, '/'))
        strcat(strcpy(file, "./"), path);
    void *lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    free(file);
    if (!lib) {
        hs_fail("policy plugin %s: %s", path, dlerror());
        return NULL;
    }
    const struct hs_policy *p = dlsym(lib, "hs_policy_plugin");
    const int *abi = dlsym(lib, "hs_policy_abi");
    const char *why = !p                             ? "exports no hs_policy_plugin (a const struct hs_policy)"
                      : abi && *abi != HS_POLICY_ABI ? "was built for another version of hetsim (hs_policy_abi)"
                      : !p->name || !*p->name        ? "its hs_policy_plugin has no name"
                      : !p->pop                      ? "its hs_policy_plugin has no pop callback"
                                                     : NULL;
    if (why) {
        hs_fail("policy plugin %s: %s", path, why);
        dlclose(lib);
        return NULL;
    }
    return p; /* the library stays loaded until the process ends */
}

const struct hs_policy *hs_policy_load_plugin(const char *path, bool by_name)
{
    int i = 0;
    while (i < nloaded && strcmp(loaded[i].path, path) != 0)
        i++;
    if (i == nloaded) {
        const struct hs_policy *p = open_plugin(path);
        if (!p)
            return NULL;
        HS_GROW(loaded, cap_loaded, (size_t)nloaded + 1); /* doubling, as every growing array */
        loaded[nloaded++] = (struct loaded){hs_xstrdup(path), p, false};
    }
    if (by_name && !loaded[i].named) {
        if (hs_policy_register(loaded[i].policy)) {
            hs_fail("policy plugin %s: its policy's name, %s, is taken by another policy", path,
                    loaded[i].policy->name);
            return NULL;
        }
        loaded[i].named = true;
    }
    return loaded[i].policy;
}
