#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS [TARGET...] — build the libFuzzer fuzz targets
# with clang (in build-fuzz/, -DHETSIM_FUZZ=ON: AddressSanitizer and
# UndefinedBehaviorSanitizer, leaks included) and run each for SECONDS, one
# after the other, from its seed corpus (tests/fuzz/corpus/TARGET) and its
# regression inputs (tests/fuzz/regress/TARGET). New inputs go to
# build-fuzz/corpus/TARGET, crashes to build-fuzz/crashes/TARGET/. Prints one
# line per target (seconds it ran, runs, executions per second, crash files);
# libFuzzer stops a target at its first crash, leak or timeout; exits 1 if
# any target crashed. Leaks inside third-party libraries are suppressed
# (tests/lsan.supp). Targets (all by default): json dot wfformat dax pegasus stg
# daggen_text taskrec perf csv inventory hostmap spec. BUILD_DIR, JOBS (build
# jobs, default 2) and FUZZ_FLAGS (extra libFuzzer flags) may be set.
set -uo pipefail
seconds=${1:?usage: tests/fuzz/run.sh SECONDS [TARGET...]}
shift
cd "$(dirname "$0")/../.."
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json dot wfformat dax pegasus stg daggen_text taskrec perf csv inventory hostmap spec)
build=${BUILD_DIR:-build-fuzz}

if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=clang CXX=clang++ cmake -S . -B "$build" -DHETSIM_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DHETSIM_CUDA=OFF -DHETSIM_MPI=OFF >/dev/null || exit 2
fi
cmake --build "$build" -j "${JOBS:-2}" --target $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null || exit 2

export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
failed=0
for t in "${targets[@]}"; do
    mkdir -p "$build/corpus/$t" "$build/crashes/$t"
    log="$build/crashes/$t/last.log"
    start=$(date +%s)
    "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$build/crashes/$t/" ${FUZZ_FLAGS:-} \
        "$build/corpus/$t" "tests/fuzz/corpus/$t" $( [ -d "tests/fuzz/regress/$t" ] && echo "tests/fuzz/regress/$t") \
        >"$log" 2>&1
    rc=$?
    elapsed=$(($(date +%s) - start))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    crashes=$(find "$build/crashes/$t" -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' | wc -l)
    echo "fuzz $t: ${elapsed} s (of ${seconds}), ${runs:-?} runs, ${rate:-?} exec/s, corpus $(ls "$build/corpus/$t" | wc -l), exit $rc, crash files $crashes"
    if [ "$rc" -ne 0 ]; then
        failed=1
        grep -m 3 -E 'ERROR|SUMMARY|runtime error' "$log" | sed 's/^/    /'
    fi
done
exit $failed
