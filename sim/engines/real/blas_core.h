/* sim/engines/real/blas_core.h — which OpenBLAS the kernels run on: its
 * version, build and the processor whose kernels it chose. Debian's OpenBLAS
 * is built for every x86-64 core (DYNAMIC_ARCH) and picks its kernels when
 * it loads; a processor it does not know gets its generic ones, several
 * times slower, and OPENBLAS_CORETYPE overrides the choice. A timing table
 * holds for the kernels it was measured with only, so calibrate records the
 * choice in the machine file and a measured run checks it. */
#ifndef HS_REAL_BLAS_CORE_H
#define HS_REAL_BLAS_CORE_H

#include <stdbool.h>
#include <stddef.h>

/* OpenBLAS's description of itself (openblas_get_config), e.g.
 * "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64". */
const char *hs_blas_config(void);

/* 0 when `recorded` (a machine file's "blas"; NULL or "": not recorded) is
 * this process's hs_blas_config(); else -1 with hs_fail, one line naming
 * `file` and both. */
int hs_blas_check_same(const char *recorded, const char *file);

/* A one-line note into buf (and true) when OpenBLAS chose its generic
 * kernels on a processor with AVX2, which it then did not recognise. */
bool hs_blas_generic_note(char *buf, size_t len);

#endif
