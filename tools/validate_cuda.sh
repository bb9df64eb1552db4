#!/usr/bin/env bash
# tools/validate_cuda.sh — the measured half of the GPU validation (run it on
# the GPU node): calibrate the node (kernels of Cholesky/GEMM, LU and QR; links),
# then run each case on 1 GPU + CPUS cores under dmda, heft, eager and ws
# with the real engine, REPS times, keeping each run record (with events):
# OUTDIR/records/<case>-<policy>-r<k>.json. The calibration times the CPU
# kernels with CPUS cores busy and with 1 (the co-running curve), and beside
# GPU 0's copies, and the GPU kernels as a run issues them (its default
# --timing run; calibrate.log gives each one's back-to-back time beside it).
# The simulated half and the comparison are
# tools/validate_compare.sh, run where SimGrid is. An OUTDIR that was
# calibrated already is reused; $CASES overrides the workloads, $POLICIES the
# policies, $NB the calibrated tile sizes (default 512,1024,2048) and
# $CAL_REPS the calibration's repetitions (default 5).
# Without a GPU, tools/validate_real.sh validates the cores alone.
# Usage: tools/validate_cuda.sh HETSIM_REAL OUTDIR [CPUS] [REPS]
set -euo pipefail
BIN=$1
OUT=$2
CPUS=${3:-4}
REPS=${4:-3}
mkdir -p "$OUT/records"
[ -f "$OUT/node.xml" ] ||
    "$BIN" calibrate -o node --dir "$OUT" --nb "${NB:-512,1024,2048}" --reps "${CAL_REPS:-5}" \
        --cpu-threads "$CPUS" -v > "$OUT/calibrate.log"
CASES=${CASES:-"cholesky:n=8192,nb=1024 cholesky:n=16384,nb=1024 cholesky:n=16384,nb=2048
       gemm:n=8192,nb=1024 gemm:n=16384,nb=2048 lu:n=8192,nb=1024 qr:n=8192,nb=1024"}
for w in $CASES; do
    for s in ${POLICIES:-dmda heft eager ws}; do
        for r in $(seq 1 "$REPS"); do
            name=$(echo "$w-$s-r$r" | tr ':=,' '___')
            "$BIN" run -q --engine real -p "$OUT/node.xml" --perf "$OUT/perf/node.json" \
                -w "$w" -s "$s" --gpus 1 --cpus "$CPUS" --events -o "$OUT/records/$name.json" \
                2>> "$OUT/errors.log" || echo "FAILED $w $s $r" >> "$OUT/errors.log"
            echo "$w $s $r $(grep -m1 '"makespan"' "$OUT/records/$name.json" 2>/dev/null)"
        done
    done
done
