#!/usr/bin/env bash
# tests/bench/bench_random.sh — time to generate and write random DAGs:
# `hetsim dag random:v=N,… -o file.json` (the target: under 1 s for 100,000
# tasks), the same with --stats instead of the file (generation alone), and
# DAGGEN-style DAGs of the same size. Best wall time of REPS runs and peak
# resident memory (GNU time). Reported figures, not pass/fail thresholds.
# Usage: tests/bench/bench_random.sh [path/to/hetsim]
set -euo pipefail
HETSIM=${1:-build/hetsim}
REPS=${REPS:-7}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }

# one measurement: prints "wall_s rss_MB file_MB" (best wall of REPS runs)
measure() {
    local best="" rss=0 size=0
    for _ in $(seq "$REPS"); do
        rm -f "$TMP/d.json"
        /usr/bin/time -f "%e %M" -o "$TMP/t" "$HETSIM" dag "$@" >/dev/null
        read -r wall r < "$TMP/t"
        if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; fi
        [ "$r" -gt "$rss" ] && rss=$r
    done
    [ -f "$TMP/d.json" ] && size=$(stat -c %s "$TMP/d.json")
    awk -v w="$best" -v m="$rss" -v s="$size" 'BEGIN{printf "%8.2f %8.1f %8.1f\n", w, m / 1024, s / 1e6}'
}

printf "%-52s %8s %8s %8s\n" "hetsim dag …" wall_s rss_MB file_MB
for v in 1000 10000 100000; do
    printf "%-52s " "random:v=$v -o d.json"
    measure "random:v=$v" -o "$TMP/d.json"
done
printf "%-52s " "random:v=100000,alpha=10,p=8 -o d.json"
measure "random:v=100000,alpha=10,p=8" -o "$TMP/d.json"
printf "%-52s " "random:v=100000 --stats (no file)"
measure "random:v=100000" --stats
printf "%-52s " "daggen:n=100000,fat=0.3,density=0.2 -o d.json"
measure "daggen:n=100000,fat=0.3,density=0.2" -o "$TMP/d.json"
