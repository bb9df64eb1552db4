#!/usr/bin/env bash
# tools/gpu_session.sh — the one script a session with a GPU node runs there,
# within about 9 minutes: the node described (nvidia-smi, lscpu), the GPU
# kernels checked against their CPU versions and a DGEMM timed as a run
# issues it against back to back (test_cuda, its log written line by line
# so that a time-out keeps what ran), then tools/validate_cuda.sh with 1 GPU +
# 4 CPU workers: a calibration at nb 1024 (3 repetitions, the co-running
# curve and the copies points included; GPU kernels timed as a run issues
# them, the default --timing run, with the back-to-back time beside each in
# calibrate.log) and Cholesky, GEMM, LU and QR measured under dmda, heft,
# eager and ws, twice. Each step has its own time limit, so a slow one
# cannot eat the others' time; whatever finished is in OUTDIR. Back where
# SimGrid is:
#   tools/validate_compare.sh ./build/hetsim OUTDIR
# Prepare the bundle first, on a machine with the CUDA toolkit:
#   tools/deploy_cuda.sh build build-deploy
# and carry build-deploy to the node (it needs only the CUDA driver there).
# Usage: tools/gpu_session.sh DEPLOY_DIR OUTDIR   ($CASES narrows the cases)
set -uo pipefail
D=$1
OUT=$2
mkdir -p "$OUT"
{ nvidia-smi; lscpu; lscpu -e; } > "$OUT/node.txt" 2>&1
HETSIM_TEST_BIN="$D/hetsim-real" timeout 150 stdbuf -oL "$D/test_cuda" > "$OUT/test_cuda.log" 2>&1
echo "test_cuda: exit $? (log: $OUT/test_cuda.log)"
CASES=${CASES:-"cholesky:n=12288,nb=1024 gemm:n=12288,nb=1024 lu:n=8192,nb=1024 qr:n=8192,nb=1024"} \
    NB=1024 CAL_REPS=3 timeout 360 "$(dirname "$0")/validate_cuda.sh" "$D/hetsim-real" "$OUT" 4 2
echo "validate_cuda: exit $? (records: $OUT/records)"
