#!/bin/sh
# platforms/tools/fit_task_cost.sh — the fit of XKaapi's per-task cost on
# Mapuche (runtime/task_cpu = runtime/task_gpu in platforms/mapuche.xml) on
# one measurement: Beniamine 2013, Sec. 3.2.2, Fig. 3.6 (R4), its point
# N = 800: two empty synchronisation tasks per task (every task its own
# cluster, MaxClusterSize 1) make the Cholesky of N = 800 (NB = 80, single
# precision, Mapuche's calibrated table) 1.48 times as long as offline HEFT
# without them (MaxClusterSize 0), as analysis/studies/convex-sync-overhead.json
# runs it. One cost c for every task (`--costs task=c`: the figure cannot
# tell a core's task from a GPU's), every other cost the platform's; the
# runs are deterministic (no noise; M = 1 and M = 0 draw nothing), so one
# seed. The schedule's discrete choices make the ratio jump by a few percent
# between neighbouring costs (1.449 at 10.30 us, 1.505 at 10.31), so no
# bisection: the ratio is computed on a grid, c = 2 to 20 us in steps of
# 0.25 us, a line fitted to it by least squares (each empty task adds about c
# to the run), and c is where the line reaches the target. The runs take
# their kernels' times from Mapuche's calibrated table (perf/mapuche-cal1.json),
# whose GPU times hold the runtime's cost of a GPU task, so the fit is
# iterated: the table calibrated at c (as platforms/tools/calibrate_beniamine.sh
# does, with --costs task=c), the line fitted on it, until c moves by under
# 0.05 us (from the platform's costs). Prints each round's line and c, then
# the grid of the last. Why N = 800 alone: docs/fidelity.md ("Idgraf's host
# side: prediction", the per-task cost).
#
# usage: platforms/tools/fit_task_cost.sh path/to/hetsim [target]
set -eu
hetsim=${1:?usage: $0 path/to/hetsim [target]}
target=${2:-1.48}
w="xkcholesky:n=800,nb=80,precision=s"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

calibrate() { # costs table: mapuche-cal1 as calibrate_beniamine.sh writes it
    for nb in 30 35 40 45 50 55 60 65 70 75 80 85 90 95 100 110 120 130 140 150 160 170 180 190 200; do
        "$hetsim" calibrate-sim -p mapuche --gpus 1 --costs "$1" -o "$2" \
            -w "xkcholesky:n=$((10 * nb)),nb=$nb,precision=s" >/dev/null
    done
}

makespan() { # table policy cost_us
    "$hetsim" run -p mapuche --perf "$1" -w "$w" -s "$2" --costs "task=$3us" |
        awk '$1 == "makespan" { print $2 }'
}

fit() { # table: prints the grid, the line and, last, c
    for i in $(seq 0 72); do
        c=$(awk -v i="$i" 'BEGIN { printf "%.2f", 2 + 0.25 * i }')
        echo "$c $(makespan "$1" cluster:max=1 "$c") $(makespan "$1" cluster:max=0 "$c")"
    done | awk -v t="$target" '
        { c = $1; r = $2 / $3; printf "c = %5.2f us: M=1 %s s, M=0 %s s, ratio %.4f\n", c, $2, $3, r
          n++; sx += c; sy += r; sxx += c * c; sxy += c * r }
        END { b = (n * sxy - sx * sy) / (n * sxx - sx * sx); a = (sy - b * sx) / n
              printf "line: ratio = %.5f + %.6f c (c in us, %d points)\n", a, b, n
              printf "%.2f\n", (t - a) / b }'
}

costs=platform prev=-1 round=0
while :; do
    round=$((round + 1))
    rm -f "$dir/cal.json"
    calibrate "$costs" "$dir/cal.json"
    fit "$dir/cal.json" >"$dir/fit.txt"
    c=$(tail -n 1 "$dir/fit.txt")
    echo "round $round: table calibrated with costs $costs; $(tail -n 2 "$dir/fit.txt" | head -n 1); c = $c us"
    if awk -v a="$c" -v b="$prev" 'BEGIN { exit !((a - b < 0.05) && (b - a < 0.05)) }' || [ $round -ge 6 ]; then
        break
    fi
    prev=$c costs="task=${c}us"
done
sed '$d' "$dir/fit.txt" | sed '$d'
echo "fitted: task = $c us (the line at $target, on the table calibrated with costs $costs)"
