#!/usr/bin/env bash
# tools/validate_cuda.sh — the measured half of the validation (run it on the
# GPU node): calibrate the node, then run Cholesky and GEMM at a few sizes on
# 1 GPU + CPUS cores under dmda, heft and eager with the CUDA engine, keeping
# each run record (with events). The simulated half and the comparison are
# tools/validate_compare.sh, run where SimGrid is.
# Usage: tools/validate_cuda.sh HETSIM_CUDA OUTDIR [CPUS]
set -euo pipefail
BIN=$1
OUT=$2
CPUS=${3:-4}
mkdir -p "$OUT/records"
"$BIN" calibrate --engine cuda -o node --dir "$OUT" --nb 512,1024,2048 --reps 7 -v > "$OUT/calibrate.log"
for w in cholesky:n=8192,nb=1024 cholesky:n=16384,nb=1024 cholesky:n=16384,nb=2048 \
         gemm:n=8192,nb=1024 gemm:n=16384,nb=2048; do
    for s in dmda heft eager; do
        name=$(echo "$w-$s" | tr ':=,' '___')
        "$BIN" run -q --engine cuda -p "$OUT/node.xml" --perf "$OUT/perf/node.json" \
            -w "$w" -s "$s" --gpus 1 --cpus "$CPUS" --events -o "$OUT/records/$name.json" \
            2>> "$OUT/errors.log" || echo "FAILED $w $s" >> "$OUT/errors.log"
        echo "$w $s $(grep -m1 '"makespan"' "$OUT/records/$name.json" 2>/dev/null)"
    done
done
