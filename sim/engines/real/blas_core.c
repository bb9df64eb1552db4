/* sim/engines/real/blas_core.c — which OpenBLAS the kernels run on (see
 * blas_core.h).
 *
 * Found on the 2-core development machine (2026-11-27): its processor
 * (Intel, AVX-512 with FP16) is newer than OpenBLAS 0.3.21, which fell back
 * to its Prescott (SSE3) kernels. A 256×256 DGEMM took 2.2 to 4.9 ms there,
 * against 0.89 to 1.0 ms with OPENBLAS_CORETYPE=Haswell and 0.52 to 0.85 ms
 * with SkylakeX, and its time moved by a factor of two from one second to
 * the next: a table timed with one choice says nothing of a run made with
 * another. */
#include "sim/engines/real/blas_core.h"
#include "base/util.h"

#include <cblas.h>
#include <stdio.h>
#include <string.h>

const char *hs_blas_config(void)
{
    return openblas_get_config();
}

int hs_blas_check_same(const char *recorded, const char *file)
{
    const char *here = hs_blas_config();
    if (!recorded || !*recorded || strcmp(recorded, here) == 0)
        return 0;
    return hs_fail("machine file %s: blas is \"%s\", but this process runs \"%s\" (the kernels were "
                   "timed with other code: set OPENBLAS_CORETYPE as when calibrating, or calibrate "
                   "again: hetsim calibrate)", file, recorded, here);
}

bool hs_blas_generic_note(char *buf, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
    const char *core = openblas_get_corename();
    __builtin_cpu_init();
    if (!core || strcmp(core, "Prescott") != 0 || !__builtin_cpu_supports("avx2"))
        return false;
    snprintf(buf, len, "note: OpenBLAS (%s) does not recognise this processor and runs its generic "
             "Prescott kernels, though the processor has AVX2%s: set OPENBLAS_CORETYPE=Haswell%s "
             "for calibrate and for every measured run", hs_blas_config(),
             __builtin_cpu_supports("avx512f") ? " and AVX-512" : "",
             __builtin_cpu_supports("avx512f") ? " (or SkylakeX)" : "");
    return true;
#else
    (void)buf;
    (void)len;
    return false;
#endif
}
