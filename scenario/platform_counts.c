/* scenario/platform_counts.c — how many cores, GPUs and flat processors a
 * platform has, without loading it in this process (SimGrid allows one
 * platform per process, and a sweep's parent runs none): flat:P from its
 * specification, a shipped name or a file through the child that checks it.
 * A sweep uses it to refuse, before running anything, a worker selection that
 * a platform of the sweep cannot give (--vary gpus=99). */
#include "scenario/scenario.h"
#include "base/params.h"
#include "sim/platform.h"
#include "sim/run.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

struct counted {
    char *text;
    int cores, gpus, procs;
};

static struct counted *cache;
static size_t ncache, capcache;

static int count(const char *text, struct counted *c)
{
    c->cores = c->gpus = c->procs = 0;
    if (hs_platform_is_flat(text)) {
        struct hs_spec spec;
        if (hs_spec_parse(text, &spec))
            return -1;
        int rc = hs_spec_check(&spec, hs_flat_params(), "platform flat");
        if (!rc)
            c->procs = (int)hs_spec_int(&spec, "p");
        hs_spec_free(&spec);
        return rc;
    }
    struct hs_platform_ref ref;
    if (hs_resolve_platform(text, NULL, &ref))
        return -1;
    int rc = hs_platform_count(ref.file, ref.machine.hosts, &c->cores, &c->gpus, &c->procs);
    hs_platform_ref_free(&ref);
    return rc;
}

int hs_platform_select_check(const char *text, const struct hs_select *sel)
{
    struct counted *c = NULL;
    for (size_t i = 0; i < ncache && !c; i++)
        if (strcmp(cache[i].text, text) == 0)
            c = &cache[i];
    if (!c) {
        struct counted fresh;
        if (count(text, &fresh))
            return -1;
        HS_GROW(cache, capcache, ncache + 1);
        c = &cache[ncache++];
        *c = fresh;
        c->text = hs_xstrdup(text);
    }
    if (c->cores < 0) /* its hosts could not be told apart: the run will say so */
        return 0;
    int gpus, cpus;
    return hs_select_check(text, sel, c->cores, c->gpus, c->procs, &gpus, &cpus);
}
