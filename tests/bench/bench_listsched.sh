#!/usr/bin/env bash
# tests/bench/bench_listsched.sh — planning time of the static list schedulers
# (heft, peft, cpop, heftnc) on random DAGs (workload random, P = 8 processors
# of flat:8): the policy's own time (the record's timing.policy_seconds, the
# whole plan is made in init) and the whole run's wall time, over 1,000 to
# 100,000 tasks. Reported figures, not pass/fail thresholds.
# Usage: tests/bench/bench_listsched.sh [path/to/hetsim]   (REPS=3, SIZES="1000 10000 100000")
set -euo pipefail
HETSIM=${1:-build/hetsim}
REPS=${REPS:-3}
SIZES=${SIZES:-"1000 3000 10000 30000 100000"}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

field() { # field FILE KEY: a number from the record's timing section
    sed -n "s/.*\"$2\":[[:space:]]*\([0-9.e+-]*\).*/\1/p" "$1" | head -1
}

printf "%-8s %8s %12s %10s\n" policy tasks plan_s run_s
for policy in heft peft cpop heftnc; do
    for v in $SIZES; do
        best_plan="" best_run=""
        for _ in $(seq "$REPS"); do
            "$HETSIM" run -q --timing -p flat:8 -w "random:v=$v,p=8" -s "$policy" -o "$TMP/r.json"
            plan=$(field "$TMP/r.json" policy_seconds) run=$(field "$TMP/r.json" wall_seconds)
            if [ -z "$best_plan" ] || awk "BEGIN{exit !($plan < $best_plan)}"; then best_plan=$plan; fi
            if [ -z "$best_run" ] || awk "BEGIN{exit !($run < $best_run)}"; then best_run=$run; fi
        done
        printf "%-8s %8d %12.4f %10.3f\n" "$policy" "$v" "$best_plan" "$best_run"
    done
done
