#!/usr/bin/env bash
# tests/bench/bench_floor.sh — hetsim's CPU time against the bare-SimGrid
# floor (tests/bench/floor.c) on the same platform file, run in interleaved
# pairs (hetsim, floor, hetsim, floor, ...) so that both see the same load;
# prints per case the median CPU seconds of each and the median of the
# pair-by-pair ratios hetsim / floor, and the peak memory. Reported figures,
# not pass/fail thresholds (issue 19's target: ratio <= 1.3).
# Usage: tests/bench/bench_floor.sh [PAIRS] [BUILD_DIR]   (default 7, build-rel
# or build). Cases: Cholesky 40x40 tiles (NB 1024) on Idgraf with 8 GPUs and
# 4 CPUs under dmda, eager and ws; the same at 1 GPU; a 1-task run (start-up).
# Then the same Cholesky cases on the floor's model: the floor keeps every
# tile a GPU has received (no memory limit, no eviction, no write-back) and
# copies a tile held only by a GPU straight to the GPU that needs it, so
# hetsim runs them on a copy of idgraf.xml whose GPUs have 64 GiB, with
# --p2p and --no-flush: both programs then simulate about as many transfers
# over the same routes (the columns xfers_hs and xfers_fl say how many).
set -euo pipefail
cd "$(dirname "$0")/../.."
PAIRS=${1:-7}
BUILD=${2:-}
if [ -z "$BUILD" ]; then
    for b in build-rel build; do [ -x "$b/hetsim" ] && { BUILD=$b; break; }; done
fi
HETSIM=$BUILD/hetsim FLOOR=$BUILD/tests/hetsim_floor CPUTIME=$BUILD/tests/hetsim_cputime
for f in "$HETSIM" "$FLOOR" "$CPUTIME"; do
    [ -x "$f" ] || { echo "bench_floor: $f is not built (cmake --build $BUILD)" >&2; exit 2; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PLATFORM=platforms/idgraf.xml
W8="GPU0 GPU1 GPU2 GPU3 GPU4 GPU5 GPU6 GPU7 CPU0 CPU1 CPU6 CPU7" # hetsim's workers at --gpus 8 --cpus 4
W1="GPU0 CPU0 CPU1 CPU6 CPU7"

# one measurement of a command: appends "cpu_s rss_mib" to file $1
measure() {
    local out=$1; shift
    "$CPUTIME" "$@" 2>>"$out" >/dev/null
}

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# Extra options of hetsim's runs and the platform file both programs load;
# same_model (below) switches them to the floor's model.
HS_MODEL=(-p idgraf)
same_model() {
    sed 's/"memsize" value="[0-9]*"/"memsize" value="68719476736"/' platforms/idgraf.xml >"$TMP/idgraf-floor.xml"
    PLATFORM=$TMP/idgraf-floor.xml
    HS_MODEL=(-p "$PLATFORM" --perf idgraf --p2p --no-flush)
}

# hetsim_transfers ARGS / floor_transfers ARGS: how many transfers the run
# made (the warm-up runs count them), from the record's "transfers" object
# or the floor's last line
hetsim_transfers() {
    "$HETSIM" "$@" -o - 2>/dev/null |
        awk -F'[:,]' '/"transfers":/ {on = 1; next} on && /}/ {on = 0} on {n += $2} END {print n + 0}'
}
floor_transfers() { "$FLOOR" "$@" 2>/dev/null | sed -n 's/.* \([0-9]*\) transfers$/\1/p'; }

# pair NAME TILES GPUS POLICY WORKERS: the case's line
pair() {
    local name=$1 tiles=$2 gpus=$3 policy=$4 workers=$5
    local h=(run -q "${HS_MODEL[@]}" -w "cholesky:n=$((tiles * 1024)),nb=1024" -s "$policy" --gpus "$gpus" --cpus 4 --seed 1)
    # shellcheck disable=SC2086
    local f=("$PLATFORM" "$tiles" 1024 $workers)
    : >"$TMP/a"; : >"$TMP/b"
    local xa xb # the warm-up runs count the transfers
    xa=$(hetsim_transfers "${h[@]}"); xb=$(floor_transfers "${f[@]}")
    h+=(-o /dev/null)
    for _ in $(seq "$PAIRS"); do
        measure "$TMP/a" "$HETSIM" "${h[@]}"
        measure "$TMP/b" "$FLOOR" "${f[@]}"
    done
    grep -v '^\[' "$TMP/a" >"$TMP/a2" || true
    grep -v '^\[' "$TMP/b" >"$TMP/b2" || true
    local ca cb r ma mb
    ca=$(cut -d' ' -f1 "$TMP/a2" | median)
    cb=$(cut -d' ' -f1 "$TMP/b2" | median)
    r=$(paste -d' ' "$TMP/a2" "$TMP/b2" | awk '{print $1 / $3}' | median)
    ma=$(cut -d' ' -f2 "$TMP/a2" | median)
    mb=$(cut -d' ' -f2 "$TMP/b2" | median)
    printf "%-34s %9.4f %9.4f %7.2f %8.1f %8.1f %8s %8s\n" "$name" "$ca" "$cb" "$r" "$ma" "$mb" "$xa" "$xb"
}

echo "# hetsim $(git rev-parse --short HEAD 2>/dev/null || echo '?') against the floor, $PAIRS interleaved pairs, load $(cut -d' ' -f1-3 /proc/loadavg)"
header() { printf "%-34s %9s %9s %7s %8s %8s %8s %8s\n" "$1" hetsim_s floor_s ratio hs_MiB fl_MiB xfers_hs xfers_fl; }
cholesky_cases() {
    pair "cholesky 40x40, 8 GPU+4 CPU, dmda" 40 8 dmda "$W8"
    pair "cholesky 40x40, 8 GPU+4 CPU, eager" 40 8 eager "$W8"
    pair "cholesky 40x40, 8 GPU+4 CPU, ws" 40 8 ws "$W8"
    pair "cholesky 40x40, 1 GPU+4 CPU, dmda" 40 1 dmda "$W1"
}
header "case (hetsim's model of idgraf)"
cholesky_cases
pair "1 task (start-up), dmda" 1 8 dmda "$W8"
same_model
header "case (the floor's model)"
cholesky_cases
echo "(CPU seconds and peak MiB: medians; ratio: median of the pairs' hetsim / floor)"
