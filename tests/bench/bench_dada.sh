#!/usr/bin/env bash
# tests/bench/bench_dada.sh — the cost of DADA's binary search: whole-run wall
# time of `hetsim run` (the record's timing.wall_seconds, best of REPS) for
# tiled Cholesky on Idgraf with 8 GPUs + 4 CPU workers under dmda, online
# HEFT, DADA's variants and DDA, the policy's own share (policy_seconds), the
# number of activation batches (distinct ready times in the task trace: the
# tasks one completion makes ready share one) and the policy's time per
# batch, and the wall time relative to dmda's. Reported figures, not
# pass/fail thresholds.
# Usage: tests/bench/bench_dada.sh [path/to/hetsim] [workload ...]
set -euo pipefail
HETSIM=${1:-build/hetsim}
shift || true
WORKLOADS=("$@")
[ ${#WORKLOADS[@]} -gt 0 ] || WORKLOADS=(cholesky:n=8192,nb=512 cholesky:n=40960,nb=1024)
POLICIES=(dmda heft:online=1 dada0 dada dada-cp dda)
REPS=${REPS:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

num() { sed -n "s/.*\"$2\":[[:space:]]*\([0-9.e+-]*\).*/\1/p" "$1" | head -1; }

printf "%-26s %-14s %9s %9s %8s %10s %9s\n" workload policy wall_s policy_s batches us/batch vs_dmda
for wl in "${WORKLOADS[@]}"; do
    dmda=""
    for p in "${POLICIES[@]}"; do
        best="" pol=""
        for _ in $(seq "$REPS"); do
            "$HETSIM" run -q --timing -p idgraf -w "$wl" -s "$p" --gpus 8 --gpu-order spread \
                -o "$TMP/r.json" --trace "$TMP/t.csv"
            w=$(num "$TMP/r.json" wall_seconds)
            if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then
                best=$w pol=$(num "$TMP/r.json" policy_seconds)
            fi
        done
        batches=$(awk -F, '$1 == "task" { print $(NF-3) }' "$TMP/t.csv" | sort -u | wc -l)
        [ -n "$dmda" ] || dmda=$best
        printf "%-26s %-14s %9.4f %9.4f %8d %10.2f %9.2f\n" "$wl" "$p" "$best" "$pol" "$batches" \
            "$(awk "BEGIN{print 1e6 * $pol / $batches}")" "$(awk "BEGIN{print $best / $dmda}")"
    done
done
