#!/usr/bin/env bash
# tests/bench/bench_workers.sh — hetsim's cost per task against the number of
# workers (issue 55's target: at 1,024 and 65,536 workers within 2x of the
# cost at 8). Tiled Cholesky, NB 1024, on flat:8, flat:64, flat:1024 and
# flat:65536 (P processors, each with its own memory, built through
# SimGrid's API), under eager, dmda, online and offline HEFT and ws. The
# figure is the CPU time of the whole hetsim process (user + system, from
# wait4: tests/bench/cputime.c), marginal: the run with T2 tiles less the run
# with T1 tiles, over the difference in tasks, in microseconds per task, so
# that loading the platform and the other fixed costs cancel. CPU time is
# steadier than wall time on a shared machine, but not immune to it: name
# the load the script prints. A run past LIMIT seconds is cut and shown as
# ">LIMIT s". Each run is made REPEAT times and its least CPU time kept
# (the load only adds to it). Then each policy's cost at P workers over its
# cost at 8 (the first size). Reported figures, not pass/fail.
# Usage: [POLICIES="eager dmda"] [SIZES="8 64 1024 65536"] [T1=10] [T2=20] [LIMIT=240] [REPEAT=1] \
#        tests/bench/bench_workers.sh [BUILD_DIR]   (default build-rel or build)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-}
if [ -z "$BUILD" ]; then
    for b in build-rel build; do [ -x "$b/hetsim" ] && { BUILD=$b; break; }; done
fi
HETSIM=$BUILD/hetsim CPUTIME=$BUILD/tests/hetsim_cputime
for f in "$HETSIM" "$CPUTIME"; do
    [ -x "$f" ] || { echo "bench_workers: $f is not built (cmake --build $BUILD)" >&2; exit 2; }
done
POLICIES=${POLICIES:-eager dmda heft:online=1 heft ws}
SIZES=${SIZES:-8 64 1024 65536}
T1=${T1:-10} T2=${T2:-20} LIMIT=${LIMIT:-240} REPEAT=${REPEAT:-1}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# sim PLATFORM POLICY TILES: the least CPU seconds of REPEAT runs, or "cut" past LIMIT
sim() {
    local best= t i
    for ((i = 0; i < REPEAT; i++)); do
        t=$(sim1 "$@")
        if [ "$t" = cut ]; then echo cut; return; fi
        if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
    done
    echo "$best"
}

# sim1 PLATFORM POLICY TILES: the CPU seconds of one run, or "cut" past LIMIT
sim1() {
    local rc=0
    timeout "$LIMIT" "$CPUTIME" "$HETSIM" run -q --seed 1 -o "$TMP/r.json" -p "$1" -s "$2" \
        -w "cholesky:n=$(($3 * 1024)),nb=1024" 2>"$TMP/err" >/dev/null || rc=$?
    if [ "$rc" = 124 ]; then echo cut; return; fi
    [ "$rc" = 0 ] || { echo "bench_workers: hetsim -p $1 -s $2 failed: $(grep -v '^[0-9]' "$TMP/err" | head -1)" >&2; exit 1; }
    tail -1 "$TMP/err" | cut -d' ' -f1
}

tasks() { echo $(($1 * ($1 + 1) * ($1 + 2) / 6)); }
N1=$(tasks "$T1") N2=$(tasks "$T2")

echo "# $("$HETSIM" --version 2>/dev/null | head -1), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# Cholesky NB 1024 on flat:P, $T1 and $T2 tiles ($N1 and $N2 tasks): us of CPU per task, marginal (ratio to ${SIZES%% *} workers)"
printf "%-16s" policy
for p in $SIZES; do printf " %18s" "$p"; done
echo
for policy in $POLICIES; do
    printf "%-16s" "$policy"
    base=
    for p in $SIZES; do
        a=$(sim "flat:$p" "$policy" "$T1")
        b=cut
        [ "$a" = cut ] || b=$(sim "flat:$p" "$policy" "$T2")
        if [ "$b" = cut ]; then
            printf " %18s" ">${LIMIT} s"
            continue
        fi
        us=$(awk -v a="$a" -v b="$b" -v n1="$N1" -v n2="$N2" 'BEGIN { printf "%.1f", (b - a) / (n2 - n1) * 1e6 }')
        [ -n "$base" ] || base=$us
        printf " %18s" "$us ($(awk -v u="$us" -v b="$base" 'BEGIN { printf "%.1f", (b > 0) ? u / b : 0 }'))"
    done
    echo
done
