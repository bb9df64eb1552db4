#!/usr/bin/env bash
# tests/bench/bench_sweep.sh — cost of `hetsim sweep` around the simulations:
#  1. overhead per run beyond the simulation: (wall time of a -j 1 sweep
#     - the sum of its runs' own times, run_seconds) / runs. run_seconds is
#     hs_scenario_run in the child (platform, DAG, timing table, simulation);
#     what is left is fork, pipes, the row, the CSV, waiting, planning, and
#     starting hetsim once;
#  2. with -j 2, how busy the two cores are: (user + system CPU time of the
#     sweep and its children) / (2 x wall time), and how many runs were in
#     flight on average (sum of run_seconds / wall time: 2 when a slot is never
#     idle; it does not depend on other load on the machine);
#  3. 1,000 small runs (tiled Cholesky 5x5 tiles, n=5120, nb=1024: 5 policies
#     x 1-8 GPUs x 25 repetitions) with -j 2: wall time.
# Reported figures, not pass/fail thresholds. Usage:
#   tests/bench/bench_sweep.sh [path/to/hetsim]
set -euo pipefail
HETSIM=${1:-build/hetsim}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }
W="-w cholesky:n=5120,nb=1024"

now() { date +%s.%N; }
# the wall-clock columns are the last three: sim_seconds, policy_seconds, run_seconds
lastcols() { awk -F, 'NR > 1 { sim += $(NF - 2); run += $NF; n++ } END { printf "%.6f %.6f %d\n", sim, run, n }' "$1"; }

echo "# 1. overhead per run beyond the simulation (-j 1, 200 runs of Cholesky 5x5 tiles)"
t0=$(now)
"$HETSIM" sweep -q $W --vary policy=eager,dmda,heft,peft --vary gpus=1..5 --reps 10 -j 1 -o "$TMP/a.csv"
t1=$(now)
read -r sim run n < <(lastcols "$TMP/a.csv")
awk -v t0="$t0" -v t1="$t1" -v sim="$sim" -v run="$run" -v n="$n" 'BEGIN {
    wall = t1 - t0
    printf "runs %d, wall %.3f s: per run %.2f ms = run in its process %.2f ms (simulation alone %.2f ms) + overhead %.2f ms\n",
           n, wall, 1000 * wall / n, 1000 * run / n, 1000 * sim / n, 1000 * (wall - run) / n }'

echo
echo "# 2. -j 2: CPU time of the sweep and its children over 2 x wall time (400 runs)"
/usr/bin/time -f "%e %U %S" -o "$TMP/time" \
    "$HETSIM" sweep -q $W --vary policy=eager,dmda,heft,peft --vary gpus=1..5 --reps 20 -j 2 -o "$TMP/b.csv"
read -r e u s < "$TMP/time"
read -r sim run n < <(lastcols "$TMP/b.csv")
awk -v e="$e" -v u="$u" -v s="$s" -v run="$run" 'BEGIN {
    printf "wall %.2f s, user %.2f s, system %.2f s: cores busy %.0f%%; runs in flight on average %.2f of 2\n",
           e, u, s, 100 * (u + s) / (2 * e), run / e }'

echo
echo "# 3. 1,000 runs of Cholesky 5x5 tiles with -j 2"
t0=$(now)
"$HETSIM" sweep -q $W --vary policy=eager,random,dmda,heft,peft --vary gpus=1..8 --reps 25 -j 2 -o "$TMP/c.csv"
t1=$(now)
rows=$(($(wc -l < "$TMP/c.csv") - 1))
ok=$(grep -c ',ok,' "$TMP/c.csv" || true)
awk -v t0="$t0" -v t1="$t1" -v rows="$rows" -v ok="$ok" 'BEGIN { printf "%d runs (%d ok) in %.2f s (%.0f runs/s)\n", rows, ok, t1 - t0, rows / (t1 - t0) }'
