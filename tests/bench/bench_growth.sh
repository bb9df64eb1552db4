#!/usr/bin/env bash
# tests/bench/bench_growth.sh — how hetsim's CPU time and memory grow with the
# number of tasks, from 10,000 to 1,000,000 (issue 19's target: an exponent of
# CPU time over tasks of at most 1.1, and at most 1 KiB of memory per task),
# the random series on to 10,000,000 when MAX_TASKS allows (issue 55's target:
# an exponent of at most 1.05 over 10^5..10^7; a 10^7-task run takes several
# GiB of memory).
# Random DAGs (random:v=N,p=4 on flat:4) and tiled Cholesky (NB 1024 on
# idgraf, 8 GPUs + 4 CPUs; T tiles give T(T+1)(T+2)/6 tasks) under dmda,
# eager and heft. Per run: CPU seconds (user + system) and peak memory, from
# wait4 (tests/bench/cputime.c); then the exponent log(cpu2/cpu1)/log(n2/n1)
# between consecutive sizes and over the whole range, and the memory per task
# between the smallest and the largest run. Reported figures, not pass/fail.
# Usage: [POLICIES="heft"] [SERIES="random"] tests/bench/bench_growth.sh [BUILD_DIR] [MAX_TASKS]
# (default build-rel or build, 1000000; SERIES: random, cholesky or both, the default)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-}
MAX=${2:-1000000}
if [ -z "$BUILD" ]; then
    for b in build-rel build; do [ -x "$b/hetsim" ] && { BUILD=$b; break; }; done
fi
HETSIM=$BUILD/hetsim CPUTIME=$BUILD/tests/hetsim_cputime
for f in "$HETSIM" "$CPUTIME"; do
    [ -x "$f" ] || { echo "bench_growth: $f is not built (cmake --build $BUILD)" >&2; exit 2; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run TASKS ARGS...: prints "tasks cpu_s rss_mib" for one hetsim run
run() {
    local n=$1; shift
    "$CPUTIME" "$HETSIM" run -q --seed 1 -o "$TMP/r.json" "$@" 2>"$TMP/err" >/dev/null ||
        { echo "bench_growth: hetsim $* failed: $(grep -v '^[0-9]' "$TMP/err" | head -1)" >&2; exit 1; }
    echo "$n $(tail -1 "$TMP/err")"
}

# series NAME: reads "tasks cpu rss" lines, prints them with the exponents
series() {
    awk -v name="$1" '
        { n[NR] = $1; c[NR] = $2; m[NR] = $3 }
        END {
            for (i = 1; i <= NR; i++) {
                e = i > 1 ? sprintf("%.2f", log(c[i] / c[i-1]) / log(n[i] / n[i-1])) : "-"
                printf "%-24s %9d %9.3f %9.1f %8.2f %6s\n", name, n[i], c[i], m[i], c[i] / n[i] * 1e6, e
            }
            if (NR > 1)
                printf "%-24s %9s exponent %.2f over %d..%d tasks, %.2f KiB per task\n", name, "", \
                    log(c[NR] / c[1]) / log(n[NR] / n[1]), n[1], n[NR], (m[NR] - m[1]) * 1024 / (n[NR] - n[1])
        }'
}

echo "# hetsim $(git rev-parse --short HEAD 2>/dev/null || echo '?'), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-24s %9s %9s %9s %8s %6s\n" series tasks cpu_s rss_MiB us/task exp
SERIES=${SERIES:-random cholesky}
for policy in ${POLICIES:-dmda eager heft}; do
    case " $SERIES " in *" random "*) ;; *) continue ;; esac
    for v in 10000 30000 100000 300000 1000000 3000000 10000000; do
        [ "$v" -le "$MAX" ] || continue
        run "$v" -p flat:4 -w "random:v=$v,p=4" -s "$policy"
    done | series "random $policy"
done
for policy in ${POLICIES:-dmda eager heft}; do
    case " $SERIES " in *" cholesky "*) ;; *) continue ;; esac
    for t in 38 55 83 120 180; do # 9,880 .. 988,260 tasks
        n=$((t * (t + 1) * (t + 2) / 6))
        [ "$n" -le "$MAX" ] || continue
        run "$n" -p idgraf --gpus 8 --cpus 4 -w "cholesky:n=$((t * 1024)),nb=1024" -s "$policy"
    done | series "cholesky $policy"
done
