#!/bin/sh
# tools/compare_starpu.sh — what StarPU measures on this machine against what
# hetsim predicts from the files StarPU wrote while measuring it.
#
# Needs StarPU's examples (Debian: starpu-examples; StarPU 1.3.10 was used for
# docs/platforms.md) and a built hetsim. Each round starts from an empty
# STARPU_HOME, lets StarPU's Cholesky example (cholesky_implicit, single
# precision) calibrate its perfmodels and sample the bus (STARPU_CALIBRATE=1,
# CALIB runs), keeps a copy of the files as calibrated, then runs it REPS
# times calibrated (STARPU_CALIBRATE=0, under dmda; StarPU 1.3 still adds
# those runs' samples to its files, hence the copy) and notes the time it
# reports. hetsim runs the same problem once per round on the platform file
# and the perfmodels of the copy, under its dmda, with nothing written by hand:
#
#   hetsim run -p HOME/.starpu/sampling/bus/HOST.platform.v4.xml \
#              --perf HOME/.starpu/sampling/codelets/45 \
#              -w cholesky:n=N,nb=N/NBLOCKS,precision=s -s dmda
#
# Prints one line per calibrated run: round, rep, StarPU's ms, hetsim's ms (the
# round's), hetsim / StarPU, and the machine's 1-minute load average when it
# ended.
# Environment: N (1920), NBLOCKS (6), ROUNDS (3), CALIB (3), REPS (3),
# STARPU_NCPU (2), HETSIM (./build/hetsim), STARPU_EXAMPLES (Debian's folder),
# KEEP (unset): a folder that keeps each round's files, to compare rounds:
# KEEP/roundR/sampling (the copy as calibrated: bus and codelets),
# KEEP/roundR/hetsim.json (hetsim's record, its perf_notes included),
# KEEP/roundR/hetsim.trace.json (its --chrome-trace: each task's duration)
# and KEEP/roundR/hetsim.stderr (its warnings, also shown).
set -eu
N=${N:-1920}
NBLOCKS=${NBLOCKS:-6}
ROUNDS=${ROUNDS:-3}
CALIB=${CALIB:-3}
REPS=${REPS:-3}
HETSIM=${HETSIM:-./build/hetsim}
EX=${STARPU_EXAMPLES:-/usr/lib/x86_64-linux-gnu/starpu/examples}
CHOL=$EX/cholesky_implicit
if [ ! -x "$CHOL" ]; then
    echo "compare_starpu.sh: $CHOL not found: install StarPU's examples (Debian: starpu-examples) or set STARPU_EXAMPLES" >&2
    exit 2
fi
if [ ! -x "$HETSIM" ]; then
    echo "compare_starpu.sh: $HETSIM not found: build hetsim or set HETSIM" >&2
    exit 2
fi
NB=$((N / NBLOCKS))
export STARPU_NCPU=${STARPU_NCPU:-2} STARPU_NCUDA=0 STARPU_NOPENCL=0 STARPU_SCHED=dmda STARPU_SILENT=1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

load() { cut -d' ' -f1 /proc/loadavg; }

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, StarPU cholesky_implicit -size $N -nblocks $NBLOCKS (nb = $NB, single precision), STARPU_NCPU=$STARPU_NCPU, dmda"
echo "# round rep starpu_ms hetsim_ms hetsim/starpu load1"
round=1
while [ "$round" -le "$ROUNDS" ]; do
    export STARPU_HOME=$TMP/home$round
    mkdir -p "$STARPU_HOME"
    i=0
    while [ "$i" -lt "$CALIB" ]; do
        STARPU_CALIBRATE=1 "$CHOL" -size "$N" -nblocks "$NBLOCKS" > /dev/null 2>&1
        i=$((i + 1))
    done
    S=$TMP/calibrated$round
    cp -r "$STARPU_HOME/.starpu/sampling" "$S"
    PF=$(ls "$S"/bus/*.platform.v4.xml)
    "$HETSIM" run -q -p "$PF" --perf "$S/codelets/45" -w "cholesky:n=$N,nb=$NB,precision=s" -s dmda \
        -o "$S.json" --chrome-trace "$S.trace.json" 2> "$S.stderr" || { cat "$S.stderr" >&2; exit 1; }
    cat "$S.stderr" >&2
    sim=$(awk -F'[:,]' '/"makespan":/ {gsub(/[ \t]/, "", $2); print $2 * 1000; exit}' "$S.json")
    if [ -n "${KEEP:-}" ]; then
        K=$KEEP/round$round
        rm -rf "$K"
        mkdir -p "$K"
        cp -r "$S" "$K/sampling"
        cp "$S.json" "$K/hetsim.json"
        cp "$S.trace.json" "$K/hetsim.trace.json"
        cp "$S.stderr" "$K/hetsim.stderr"
    fi
    rep=1
    while [ "$rep" -le "$REPS" ]; do
        # the example prints "# size ms GFlop/s", then "N MS GFLOPS"
        ms=$(STARPU_CALIBRATE=0 "$CHOL" -size "$N" -nblocks "$NBLOCKS" 2> /dev/null | awk '!/^#/ && NF == 3 {print $2}' | tail -1)
        echo "$round $rep $ms $sim $(awk -v a="$sim" -v b="$ms" 'BEGIN {printf "%.3f", a / b}') $(load)"
        rep=$((rep + 1))
    done
    round=$((round + 1))
done
