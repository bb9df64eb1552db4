#!/usr/bin/env bash
# tests/bench/bench_dagfiles.sh — writing and reading back a ~100,000-task DAG
# as hetsim JSON and as DOT: wall seconds and CPU seconds (user + system),
# each the best of REPS runs, and peak resident memory of the whole `hetsim`
# process (GNU time). On a shared machine the CPU time is the steadier figure.
# Reported figures, not pass/fail thresholds.
# Usage: tests/bench/bench_dagfiles.sh [path/to/hetsim]
#
#   write     hetsim dag W --format F -o FILE      generate, finalize, write
#   read      hetsim run -p flat:1 -w FILE -s none read and finalize the DAG; the
#             policy is looked up after the workload, so the command stops
#             there (exit 2, checked) before any simulation
#   read+json hetsim dag FILE -o /dev/null          read, finalize, write JSON
#
# DAGs: cholesky with 84x84 tiles (84*85*86/6 = 102,340 tasks, 296,310
# dependencies: about 3 per task) and gemm with 47x47x47 tiles (103,823 tasks,
# 101,614 dependencies: chains of 47 per C tile).
set -euo pipefail
HETSIM=${1:-build/hetsim}
REPS=${REPS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }

# best wall and CPU time of REPS runs and the largest peak RSS: "wall cpu MB"
measure() {
    local expect=$1 best="" cpu="" rss=0 rc
    shift
    for _ in $(seq "$REPS"); do
        rc=0
        /usr/bin/time -f "%e %U %S %M" -o "$TMP/time" "$@" >/dev/null 2>"$TMP/err" || rc=$?
        if [ "$rc" -ne "$expect" ]; then
            echo "\`$*\` exited $rc: $(cat "$TMP/err")" >&2
            exit 1
        fi
        read -r wall user sys r < <(tail -n 1 "$TMP/time")
        c=$(awk -v u="$user" -v s="$sys" 'BEGIN{print u + s}')
        if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; fi
        if [ -z "$cpu" ] || awk "BEGIN{exit !($c < $cpu)}"; then cpu=$c; fi
        [ "$r" -gt "$rss" ] && rss=$r
    done
    awk -v w="$best" -v c="$cpu" -v m="$rss" 'BEGIN{printf "%5.2f %5.2f %6.1f", w, c, m / 1024}'
}

echo "# seconds wall and CPU (best of $REPS), peak RSS in MB"
printf "%-24s %-4s %7s %7s | %-18s | %-18s | %-18s\n" workload fmt tasks file_MB \
    "write: wall cpu MB" "read: wall cpu MB" "read+json: wall cpu"
for w in "cholesky:n=86016,nb=1024" "gemm:n=47,nb=1"; do
    for f in json dot; do
        file="$TMP/dag.$f"
        write=$(measure 0 "$HETSIM" dag "$w" --format "$f" -o "$file")
        read=$(measure 2 "$HETSIM" run -p flat:1 -w "$file" -s none)
        grep -q "unknown policy 'none'" "$TMP/err" || { echo "read: $(cat "$TMP/err")" >&2; exit 1; }
        both=$(measure 0 "$HETSIM" dag "$file" -o /dev/null)
        tasks=$("$HETSIM" dag "$file" | grep -c '"label"')
        size=$(awk -v b="$(wc -c <"$file")" 'BEGIN{printf "%.1f", b / 1048576}')
        printf "%-24s %-4s %7d %7s | %s | %s | %s\n" "$w" "$f" "$tasks" "$size" "$write" "$read" "$both"
    done
done
