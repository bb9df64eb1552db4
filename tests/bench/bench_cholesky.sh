#!/usr/bin/env bash
# tests/bench/bench_cholesky.sh — simulation speed and memory of `hetsim run`
# on tiled Cholesky (NB 1024) on Idgraf under dmda: simulated tasks per second
# of wall time (the simulation itself, from the record's timing section) and
# peak resident memory of the whole process (GNU time). Reported figures, not
# pass/fail thresholds. Usage: tests/bench/bench_cholesky.sh [path/to/hetsim]
set -euo pipefail
HETSIM=${1:-build/hetsim}
REPS=${REPS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }

# one run: prints "tasks wall_s tasks_per_s rss_MB" (best wall of REPS runs)
measure() {
    local tiles=$1 gpus=$2 cpus=$3 best="" rss=0
    for _ in $(seq "$REPS"); do
        /usr/bin/time -f "%M" -o "$TMP/rss" "$HETSIM" run -q --timing \
            -w "cholesky:n=$((tiles * 1024)),nb=1024" -s dmda --gpus "$gpus" --cpus "$cpus" \
            -o "$TMP/r.json"
        read -r tasks wall < <(python3 -c "import json;r=json.load(open('$TMP/r.json'));print(r['results']['tasks'],r['timing']['wall_seconds'])" 2>/dev/null ||
            sed -n 's/.*"tasks":[[:space:]]*\([0-9]*\),.*/\1/p;s/.*"wall_seconds":[[:space:]]*\([0-9.e-]*\).*/\1/p' "$TMP/r.json" | paste -sd' ')
        if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; fi
        r=$(cat "$TMP/rss"); [ "$r" -gt "$rss" ] && rss=$r
    done
    awk -v t="$tasks" -v w="$best" -v m="$rss" 'BEGIN{printf "%8d %9.3f %10.0f %8.1f\n", t, w, t / w, m / 1024}'
}

echo "# Cholesky 40x40 tiles (n=40960, nb=1024) on idgraf, dmda"
printf "%-16s %8s %9s %10s %8s\n" config tasks wall_s tasks/s rss_MB
for g in 1 4 8; do
    printf "%-16s " "$g GPU + 4 CPU"
    measure 40 "$g" 4
done
echo
echo "# growth with the number of tasks, 8 GPU + 4 CPU"
printf "%-16s %8s %9s %10s %8s\n" tiles tasks wall_s tasks/s rss_MB
for t in 5 10 20 30 40 50 60; do
    printf "%-16s " "${t}x${t}"
    measure "$t" 8 4
done
