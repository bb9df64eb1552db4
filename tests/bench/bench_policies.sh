#!/usr/bin/env bash
# tests/bench/bench_policies.sh — whole-run wall time of `hetsim run` under
# each dynamic and static policy on tiled Cholesky 40x40 tiles (n=40960,
# nb=1024) on Idgraf with 8 GPUs + 4 CPU workers (the record's
# timing.wall_seconds, best of REPS), with the policy's own share and the
# GFlop/s reached. Reported figures, not pass/fail thresholds.
# Usage: tests/bench/bench_policies.sh [path/to/hetsim] [policy ...]
set -euo pipefail
HETSIM=${1:-build/hetsim}
shift || true
POLICIES=("$@")
[ ${#POLICIES[@]} -gt 0 ] || POLICIES=(dmda eager ws ws:push=locality ws:push=writer lws heft heft:online=1 peft)
REPS=${REPS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

num() { sed -n "s/.*\"$2\":[[:space:]]*\([0-9.e+-]*\).*/\1/p" "$1" | head -1; }

printf "%-18s %9s %9s %9s\n" policy wall_s policy_s GFlop/s
for p in "${POLICIES[@]}"; do
    best="" pol="" gf=""
    for _ in $(seq "$REPS"); do
        "$HETSIM" run -q --timing -w cholesky:n=40960,nb=1024 -s "$p" -o "$TMP/r.json"
        w=$(num "$TMP/r.json" wall_seconds)
        if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then
            best=$w pol=$(num "$TMP/r.json" policy_seconds) gf=$(num "$TMP/r.json" gflops)
        fi
    done
    printf "%-18s %9.3f %9.3f %9.1f\n" "$p" "$best" "$pol" "$gf"
done
