#!/usr/bin/env bash
# tools/deploy_cuda.sh — build hetsim-real, with its GPUs, for a GPU node that
# has the CUDA driver and libraries but none of hetsim's other dependencies
# (no SimGrid, GSL, igraph, OpenBLAS, libxml2): GSL, igraph, OpenBLAS
# (its pthreads build: the sequential one is not safe for several CPU
# workers at once, sim/engines/real/blas_threads.c), LAPACKE, gfortran and libxml2 (with its ICU, lzma and zlib, whose
# static archives Debian's libxml2-dev brings) are linked statically (only
# the objects used come in), the CUDA runtime statically, cuBLAS/cuSOLVER
# dynamically from the node; cJSON and cgraph, which Debian ships without
# static archives, go in DEST/lib beside the binary (found through an
# $ORIGIN rpath).
# The real engine's GPU test is linked the same way as DEST/test_cuda (run it
# there with HETSIM_TEST_BIN=DEST/hetsim-real: its GPU tests call the command).
# hwloc, librec, libyaml (and librec's libgcrypt, libgpg-error and
# libuuid) are static too; hwloc's libudev goes in DEST/lib. Every archive
# comes from a package of the README's line (or one it pulls in): a missing
# one is named with its package before anything links (.ci/run builds this
# bundle wherever nvcc is, so that the GPU path cannot break unnoticed). The binaries are
# stripped (static OpenBLAS and ICU data make each about 60 MiB unstripped),
# and DEST.tar.xz packs DEST for a node that takes few MiB at a time (unpack
# it there with `tar xJf DEST.tar.xz`).
# Usage: tools/deploy_cuda.sh [BUILD_DIR] [DEST]   (BUILD_DIR: a configured CMake
# build of the real engine with CUDA, default build; DEST default build-deploy;
# DEPLOY_TAR=0 skips DEST.tar.xz)
set -euo pipefail
BUILD=${1:-build}
DEST=${2:-build-deploy}
ML=/usr/lib/x86_64-linux-gnu
GCCLIB=$(dirname "$(gcc -print-libgcc-file-name)")
# the CUDA runtime's folder: the one the build's CMake found (its cache's
# CUDA_cudart_static_LIBRARY), so that the bundle links the toolkit the objects
# were compiled with, wherever nvcc sits on the PATH (a wrapper script in
# /usr/local/bin, say); CUDA_HOME/lib64 where CUDA_HOME is set
if [ -n "${CUDA_HOME:-}" ]; then
    CUDALIB=$CUDA_HOME/lib64
else
    CUDALIB=$(sed -n 's/^CUDA_cudart_static_LIBRARY:FILEPATH=//p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
    CUDALIB=$(dirname "${CUDALIB:-/usr/local/cuda/lib64/libcudart_static.a}")
fi
# each library the link takes, and the Debian package that ships it
while read -r lib pkg; do
    [ -e "$lib" ] || { echo "deploy_cuda.sh: $lib is missing: install $pkg" >&2; exit 2; }
done <<EOF
$ML/libigraph.a libigraph-dev
$ML/libgsl.a libgsl-dev
$ML/liblapacke.a liblapacke-dev
$ML/openblas-pthread/libopenblas.a libopenblas-pthread-dev
$GCCLIB/libgfortran.a gfortran
$GCCLIB/libquadmath.a gfortran
$ML/libcunit.a libcunit1-dev
$ML/libxml2.a libxml2-dev
$ML/libicuuc.a libicu-dev
$ML/libicudata.a libicu-dev
$ML/liblzma.a liblzma-dev
$ML/libz.a zlib1g-dev
$ML/libhwloc.a libhwloc-dev
$ML/librec.a librec-dev
$ML/libyaml.a libyaml-dev
$ML/libgcrypt.a libgcrypt20-dev
$ML/libgpg-error.a libgpg-error-dev
$ML/libuuid.a uuid-dev
$ML/libcjson.so.1 libcjson-dev
$ML/libcgraph.so.6 libgraphviz-dev
$ML/libcdt.so.5 libgraphviz-dev
$ML/libudev.so.1 libudev1
$CUDALIB/libcudart_static.a the CUDA toolkit (set CUDA_HOME)
EOF
cmake --build "$BUILD" --target hetsim-real test_cuda -j2 >/dev/null
mkdir -p "$DEST/lib"
cp -L $ML/libcjson.so.1 $ML/libcgraph.so.6 $ML/libcdt.so.5 $ML/libudev.so.1 "$DEST/lib/"
link() { # OUTPUT OBJECTS...: the hetsim libraries and the static dependencies
    local out=$1
    shift
    gcc -o "$out" "$@" \
        "$BUILD/cli/libhetsim_cli_real.a" "$BUILD/scenario/libhetsim_scenario_real.a" \
        "$BUILD/scenario/libhetsim_scenario.a" "$BUILD/sim/libhetsim_real.a" \
        "$BUILD/sim/libhetsim_model_run.a" "$BUILD/sim/libhetsim_model.a" \
        "$BUILD/analysis/libhetsim_analysis.a" "$BUILD/workloads/libhetsim_workloads.a" \
        "$BUILD/policies/libhetsim_policies.a" "$BUILD/policies/bm/libhetsim_bm.a" "$BUILD/sim/libhetsim_sim.a" \
        "$BUILD/platforms/libhetsim_platforms.a" "$BUILD/base/libhetsim_base.a" \
        $ML/libigraph.a $ML/libgsl.a $ML/liblapacke.a $ML/openblas-pthread/libopenblas.a \
        "$GCCLIB/libgfortran.a" "$GCCLIB/libquadmath.a" $ML/libcunit.a \
        $ML/libxml2.a $ML/libicuuc.a $ML/libicudata.a $ML/liblzma.a $ML/libz.a \
        $ML/libhwloc.a $ML/librec.a $ML/libyaml.a $ML/libgcrypt.a $ML/libgpg-error.a $ML/libuuid.a \
        -L"$CUDALIB" -lcudart_static -lcublas -lcusolver \
        -L"$DEST/lib" -l:libcjson.so.1 -l:libcgraph.so.6 -l:libcdt.so.5 -l:libudev.so.1 \
        -Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/lib' -lstdc++ -lpthread -ldl -lrt -lm
}
link "$DEST/hetsim-real" "$BUILD/cli/CMakeFiles/hetsim-real.dir/main.c.o"
link "$DEST/test_cuda" "$BUILD/tests/CMakeFiles/test_cuda.dir/sim/engines/real/test_cuda.c.o" \
    "$BUILD/tests/CMakeFiles/hetsim_testing.dir/support/testing.c.o"
strip "$DEST/hetsim-real" "$DEST/test_cuda"
if [ "${DEPLOY_TAR:-1}" = 0 ]; then
    echo "$DEST/hetsim-real: $(du -sh "$DEST" | cut -f1) with its lib/"
else
    tar cJf "$DEST.tar.xz" -C "$(dirname "$DEST")" "$(basename "$DEST")"
    echo "$DEST/hetsim-real: $(du -sh "$DEST" | cut -f1) with its lib/; $DEST.tar.xz: $(du -sh "$DEST.tar.xz" | cut -f1)"
fi
