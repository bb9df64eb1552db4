/* tests/fuzz/fuzz.h — what the fuzz targets share. Each target is one file
 * defining LLVMFuzzerTestOneInput for one reader of hetsim; built with clang's
 * libFuzzer (-DHETSIM_FUZZ=ON, tests/fuzz/run.sh) it is fuzzed, and built
 * with replay.c (every build) it runs the seed corpus and the inputs that
 * once crashed it (tests/fuzz/corpus/TARGET, tests/fuzz/regress/TARGET) as a
 * ctest, under the sanitizers in CI. */
#ifndef HS_FUZZ_H
#define HS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input written to a file of this process with that suffix (the readers
 * take paths); its path, valid until the next call with the same suffix. */
const char *hs_fuzz_file(const uint8_t *data, size_t size, const char *suffix);

/* What hetsim does with a DAG it read: write it as JSON and DOT, compute
 * its statistics; then free it. */
struct hs_dag;
void hs_fuzz_use_dag(struct hs_dag *dag);
/* The input as a DAG file (written with that suffix) read by the workload
 * reader ("json", "dot", "wfformat"), then used as above. */
void hs_fuzz_dag_file(const uint8_t *data, size_t size, const char *reader, const char *suffix);

/* The input as a NUL-terminated string (caller frees). */
char *hs_fuzz_text(const uint8_t *data, size_t size);

/* Once per process: a small memory limit (DAGs beyond it are refused before
 * being built, as --max-memory does), so that no input makes a target slow. */
void hs_fuzz_setup(void);

#endif
