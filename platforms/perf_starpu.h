/* platforms/perf_starpu.h — StarPU's history-based perfmodels read as a
 * timing table (platforms/perf_starpu.c). */
#ifndef HS_PERF_STARPU_H
#define HS_PERF_STARPU_H

#include "platforms/perfmodel.h"

#include <stdbool.h>
#include <stddef.h>

/* Is path a folder, or a file that opens as StarPU writes a perfmodel (a
 * '#' comment)? Then hs_perf_load_starpu reads it. */
bool hs_perf_is_starpu(const char *path);

/* Read a StarPU codelet file (SYMBOL.HOST) or a folder of them into pm
 * (zeroed by the caller): one "kernels" entry in seconds per history line
 * of a CPU core or a CUDA device, regressions where StarPU's are valid, and
 * notes on what was left out. A folder of several hosts' files gives the
 * host of platform_file's name (HOST.platform.v4.xml). Returns 0, or -1
 * with one line naming the file and line in err. */
int hs_perf_load_starpu(const char *path, const char *platform_file, struct hs_perfmodel *pm, char *err,
                        size_t errlen);

#endif
