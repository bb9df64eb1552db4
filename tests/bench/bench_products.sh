#!/usr/bin/env bash
# tests/bench/bench_products.sh — Beaumont and Marchal's strategies at the
# paper's largest sizes, outer product n = 1000 and matrix product n = 100
# (10^6 tasks each), p = 100 processors with speeds U[10,100]:
#   - in their model (flat:100,bw=inf): whole `hetsim run` process, wall
#     seconds and peak RSS (GNU time), and the model's own seconds (the
#     record's timing.wall_seconds), best of REPS;
#   - memory against p and n (the holdings are bitsets: p·d·n^{d-1} bits;
#     the task pool is 8 bytes per task);
#   - the same sizes through the runtime on a free network (bw=1e30: the
#     same SimGrid platform as bw=inf, but not the model), once, to show
#     what the model saves.
# Reported figures, not pass/fail thresholds.
# Usage: tests/bench/bench_products.sh [path/to/hetsim]
set -euo pipefail
HETSIM=${1:-build/hetsim}
REPS=${REPS:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

num() { sed -n "s/.*\"$2\":[[:space:]]*\([0-9.e+-]*\).*/\1/p" "$1" | head -1; }

# best wall, its peak RSS (MB) and the model's seconds over REPS runs of `hetsim run ARGS`
measure() {
    local best="" rss="" sim="" reps=$1
    shift
    for _ in $(seq "$reps"); do
        /usr/bin/time -f "%e %M" -o "$TMP/t" "$HETSIM" run -q --timing "$@" -o "$TMP/r.json"
        read -r w m < "$TMP/t"
        if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then
            best=$w rss=$((m / 1024)) sim=$(num "$TMP/r.json" wall_seconds)
        fi
    done
    echo "$best $rss $sim"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "the paper's model, p = 100, speeds U[10,100] (best of $REPS)"
printf "%-24s %-14s %8s %8s %9s\n" policy workload wall_s rss_MB model_s
for p in random-outer sorted-outer dynamic-outer dynamic-outer-2phases; do
    read -r w m s <<< "$(measure "$REPS" -p flat:100,bw=inf,scenario=u10-100 -w outer:n=1000 -s $p)"
    printf "%-24s %-14s %8.2f %8d %9.3f\n" "$p" outer:n=1000 "$w" "$m" "$s"
done
for p in random-matrix sorted-matrix dynamic-matrix dynamic-matrix-2phases; do
    read -r w m s <<< "$(measure "$REPS" -p flat:100,bw=inf,scenario=u10-100 -w matmul:n=100 -s $p)"
    printf "%-24s %-14s %8.2f %8d %9.3f\n" "$p" matmul:n=100 "$w" "$m" "$s"
done

echo
echo "memory against p and n (dynamic-*-2phases, best of 1; bitsets p*d*n^(d-1) bits)"
printf "%-30s %8s %8s\n" case wall_s rss_MB
for c in "1000 100" "1000 1000" "2000 100" "2000 1000"; do
    read -r n p <<< "$c"
    read -r w m s <<< "$(measure 1 -p flat:$p,bw=inf,scenario=u10-100 -w outer:n=$n -s dynamic-outer-2phases)"
    printf "%-30s %8.2f %8d\n" "outer n=$n p=$p" "$w" "$m"
done
for c in "100 100" "100 1000" "150 100"; do
    read -r n p <<< "$c"
    read -r w m s <<< "$(measure 1 -p flat:$p,bw=inf,scenario=u10-100 -w matmul:n=$n -s dynamic-matrix-2phases)"
    printf "%-30s %8.2f %8d\n" "matmul n=$n p=$p" "$w" "$m"
done

echo
echo "the same through the runtime on a free network (bw=1e30), once"
printf "%-24s %-14s %8s %8s %9s\n" policy workload wall_s rss_MB sim_s
read -r w m s <<< "$(measure 1 -p flat:100,bw=1e30,scenario=u10-100 -w outer:n=1000 -s dynamic-outer-2phases)"
printf "%-24s %-14s %8.2f %8d %9.3f\n" dynamic-outer-2phases outer:n=1000 "$w" "$m" "$s"
read -r w m s <<< "$(measure 1 -p flat:100,bw=1e30,scenario=u10-100 -w matmul:n=100 -s dynamic-matrix-2phases)"
printf "%-24s %-14s %8.2f %8d %9.3f\n" dynamic-matrix-2phases matmul:n=100 "$w" "$m" "$s"
