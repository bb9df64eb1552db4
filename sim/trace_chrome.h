/* sim/trace_chrome.h — a finished run as a Chrome trace-event JSON file (the
 * "Trace Event Format" that chrome://tracing and Perfetto open): a track per
 * worker (its tasks) and, per memory node, tracks for what leaves it and for
 * what enters it (its copy streams, one track per copy in flight at once);
 * each transfer is a slice on both and a flow arrow from the first to the
 * second. Times in microseconds; the slices of a track never overlap. */
#ifndef HS_TRACE_CHROME_H
#define HS_TRACE_CHROME_H

#include "sim/runtime.h"

#include <stdio.h>

/* 0, or -1 with hs_fail if the file cannot be written. */
int hs_trace_write_chrome(const struct hs_runtime *rt, FILE *out);

#endif
