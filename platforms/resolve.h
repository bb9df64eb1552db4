/* platforms/resolve.h — a platform named on the command line or in a
 * study (a shipped name, flat:P or the path of a SimGrid file) resolved to the
 * files a run loads (resolve.c), and the parameters such names take. */
#ifndef HS_RESOLVE_H
#define HS_RESOLVE_H

#include "platforms/machine_params.h"

#include <stdbool.h>

struct hs_param;
struct hs_flat; /* platforms/flat.h */

/* A platform named on the command line, resolved to files. */
struct hs_platform_ref {
    char *name;    /* as given */
    char *file;    /* SimGrid XML to load; NULL for flat:P */
    struct hs_flat *flat; /* flat:P, built through SimGrid's API (no file), or NULL */
    char *perf;    /* timing table, or NULL */
    char *perf_label; /* how the record names it: "perf/idgraf.json" (shipped) or the path */
    /* the parameters of a shipped name or a file (NAME:key=value), each with
       its source; at their defaults for flat:P */
    struct hs_machine_params machine;
};

/* "idgraf" (shipped), "flat:8,bw=inf" (built, no file) or a path to an XML file;
 * a shipped name or a file may take bw_scale= and gpu_speed= ("idgraf:bw_scale=0.5",
 * "my.xml:gpu_speed=2"), gpu_kernels= to scale only some kernels
 * ("idgraf:gpu_speed=0.8,gpu_kernels=dgessm:dssssm"; cpu_speed= and
 * cpu_kernels= the same on the cores), lat_scale= and
 * copy_engines= ("mapuche:copy_engines=2,lat_scale=0"). perf_override (--perf) wins over the shipped timing
 * table. Returns 0, or -1 with hs_fail. */
int hs_resolve_platform(const char *text, const char *perf_override, struct hs_platform_ref *ref);
/* The same for a run with this seed: speeds of flat:P drawn per run
 * (spread=, choices=, scenario=) come from it (hs_resolve_platform: seed 1). */
int hs_resolve_platform_seeded(const char *text, const char *perf_override, unsigned long seed,
                               struct hs_platform_ref *ref);
void hs_platform_ref_free(struct hs_platform_ref *ref);
/* Is text flat:P ("flat" or "flat:...")? */
bool hs_platform_is_flat(const char *text);

/* Print the parameters of flat:P (for help texts). */
void hs_print_flat_params(const char *indent);
/* The parameters of flat:P; those of a platform text (flat:P's, or those of
 * shipped names and files), for sweeps over them. */
const struct hs_param *hs_flat_params(void);
const struct hs_param *hs_platform_params(const char *text);
/* Print the parameters of shipped names and files (for help texts):
 * platforms/machine_params.def's. */
void hs_print_file_platform_params(const char *indent);

#endif
