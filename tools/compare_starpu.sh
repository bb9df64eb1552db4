#!/usr/bin/env bash
# tools/compare_starpu.sh — StarPU's own runs on this machine's cores against
# what hetsim predicts from the files StarPU wrote while calibrating them:
# an outside check of the simulation (issue 57), nothing written by hand.
#
# Needs StarPU's examples (Debian: starpu-examples; StarPU 1.3.10 was used
# for docs/platforms.md) and a built hetsim. For each case (StarPU's tiled
# Cholesky, cholesky_implicit, and its LU without pivoting,
# lu_implicit_example_float, both single precision, N×N in NBLOCKS×NBLOCKS
# tiles) it
#   1. calibrates from an empty STARPU_HOME: CALIB runs with
#      STARPU_CALIBRATE=1 (StarPU samples the bus on the first, then each
#      run adds every task's duration to its codelet's history);
#   2. keeps a copy of sampling/ as calibrated (the runs of step 3 add
#      their samples to their homes' files) and has hetsim predict each
#      policy's run from it, the matching hetsim policy (dmda, eager):
#        hetsim run -p COPY/bus/HOST.platform.v4.xml --perf COPY/codelets/45 \
#                   -w cholesky:n=N,nb=N/NBLOCKS,precision=s -s POLICY
#      (lunopiv:… for the LU: StarPU's LU example does not pivot);
#   3. runs the example REPS times under each policy (STARPU_SCHED, the
#      policies taking turns, each in its own copy of the calibrated
#      STARPU_HOME, STARPU_CALIBRATE=1 still: at 0 StarPU 1.3.10 recorded
#      no sample of a calibrated codelet, under dmda or eager, and dmda
#      schedules a calibrated codelet on its mean either way) and prints one line per
#      run: case, policy, StarPU's time (what the example prints: from its
#      first task's submission to the end of its last), hetsim's makespan,
#      error = (hetsim - StarPU) / StarPU, and the 1-minute load average
#      when the run ended; then each case and policy's median run against
#      hetsim's, with the kernels' drift during its runs (the time StarPU
#      recorded for their tasks against the same tasks at the calibrated
#      means).
# Then the history's health (each codelet's samples kept against those the
# calibrating runs took, and StarPU's "Too big deviation ... flushing"
# messages counted over every run), the machine's drift (every case
# calibrated again after the table, from an empty STARPU_HOME, its kernels'
# means against those hetsim was given), and a summary of the errors, of
# the runs and of the medians.
#
# StarPU flushes a history line when as many of its samples strayed more
# than STARPU_HISTORY_MAX_ERROR from the mean as agreed (50% by default: on a
# loaded machine the files then keep a few samples of whatever stretch agreed
# last). MAXERR (default 10000%, a sample 101 times off its mean) keeps every
# sample in the mean. OpenBLAS (Debian's libblas.so.3 is its pthread build)
# would start its own threads inside each StarPU worker: 1 thread each
# (OPENBLAS_NUM_THREADS=1), as StarPU asks of a multithreaded BLAS.
#
# Usage: tools/compare_starpu.sh [OUTDIR]
#   OUTDIR (new or empty): keeps each case's StarPU homes and messages, the
#   calibrated copy and hetsim's records; without it a temporary folder,
#   removed at the end.
# Environment: CASES (default "cholesky:1920:6 cholesky:5760:18 lu:1920:6
# lu:4480:14": EXAMPLE:N:NBLOCKS, EXAMPLE cholesky or lu), POLICIES ("dmda
# eager"), CALIB (5), REPS (5), MAXERR (10000), DRIFT (1; 0: no calibration
# after the table), STARPU_NCPU (the cores, nproc), HETSIM (./build/hetsim),
# STARPU_EXAMPLES (Debian's folder).
# QUICK=1: the reduced run CI makes (tests/cli/test_compare_starpu.c):
# cholesky:960:3 and lu:960:3, CALIB=2, REPS=1, DRIFT=0.
set -euo pipefail
if [ -n "${QUICK:-}" ]; then
    CASES=${CASES:-"cholesky:960:3 lu:960:3"}
    CALIB=${CALIB:-2}
    REPS=${REPS:-1}
    DRIFT=${DRIFT:-0}
fi
CASES=${CASES:-"cholesky:1920:6 cholesky:5760:18 lu:1920:6 lu:4480:14"}
POLICIES=${POLICIES:-"dmda eager"}
CALIB=${CALIB:-5}
REPS=${REPS:-5}
DRIFT=${DRIFT:-1}
MAXERR=${MAXERR:-10000}
HETSIM=${HETSIM:-./build/hetsim}
EX=${STARPU_EXAMPLES:-/usr/lib/x86_64-linux-gnu/starpu/examples}
me=compare_starpu.sh

die() { echo "$me: $*" >&2; exit 2; }
whole() { [[ "$2" =~ ^[0-9]{1,9}$ ]] && [ "$2" -ge "$3" ] || die "$1 '$2' is not a whole number >= $3 (9 digits at most)"; }
whole CALIB "$CALIB" 1
whole REPS "$REPS" 1
whole MAXERR "$MAXERR" 0
case $DRIFT in 0 | 1) ;; *) die "DRIFT '$DRIFT' is 0 or 1" ;; esac
[ -x "$HETSIM" ] || die "$HETSIM not found: build hetsim or set HETSIM"
for p in $POLICIES; do
    case $p in dmda | eager) ;; *) die "policy '$p': StarPU's and hetsim's dmda and eager are compared" ;; esac
done
# example:N:NBLOCKS -> the StarPU program and hetsim's workload
declare -A PROG WL
for c in $CASES; do
    IFS=: read -r ex n nblocks rest <<< "$c"
    [ -z "$rest" ] && [[ "$n" =~ ^[1-9][0-9]{0,5}$ ]] && [[ "$nblocks" =~ ^[1-9][0-9]{0,3}$ ]] ||
        die "case '$c': EXAMPLE:N:NBLOCKS (cholesky:1920:6; N below 10^6, NBLOCKS below 10^4) expected"
    [ $((n % nblocks)) -eq 0 ] || die "case '$c': $n is not a multiple of $nblocks (the tiles would differ)"
    case $ex in
    cholesky) PROG[$c]=$EX/cholesky_implicit WL[$c]="cholesky:n=$n,nb=$((n / nblocks)),precision=s" ;;
    lu) PROG[$c]=$EX/lu_implicit_example_float WL[$c]="lunopiv:n=$n,nb=$((n / nblocks)),precision=s" ;;
    *) die "case '$c': example '$ex' is cholesky or lu" ;;
    esac
    [ -x "${PROG[$c]}" ] ||
        die "${PROG[$c]} not found: install StarPU's examples (Debian: starpu-examples) or set STARPU_EXAMPLES"
done
if [ $# -ge 1 ]; then
    OUT=$1
    [ ! -e "$OUT" ] || { [ -d "$OUT" ] && [ -z "$(ls -A "$OUT")" ]; } ||
        die "$OUT exists and is not an empty folder: give a new one"
    mkdir -p "$OUT" || die "$OUT: cannot create it"
else
    OUT=$(mktemp -d)
    trap 'rm -rf "$OUT"' EXIT
    GONE=", removed: give an OUTDIR to keep them"
fi

CORES=$(nproc) # before OMP_NUM_THREADS, which nproc obeys
export STARPU_NCPU=${STARPU_NCPU:-$CORES} STARPU_NCUDA=0 STARPU_NOPENCL=0
export STARPU_HISTORY_MAX_ERROR=$MAXERR OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
unset STARPU_SILENT STARPU_CALIBRATE STARPU_SCHED STARPU_HOME
load() { cut -d' ' -f1 /proc/loadavg; }
dir_of() { echo "$OUT/$(echo "$1" | tr ':' '-')"; }

# one run of case $1 in STARPU_HOME $2 under scheduler $3, calibrating if $4
# is 1; prints the milliseconds the example printed ("# size ms GFlop/s",
# then "N MS GFLOPS"); StarPU's messages go to $2.log
starpu_run() {
    local c=$1 home=$2 ms n nblocks
    IFS=: read -r _ n nblocks <<< "$c"
    local rc=0
    ms=$(STARPU_HOME=$home STARPU_SCHED=$3 STARPU_CALIBRATE=$4 "${PROG[$c]}" -size "$n" -nblocks "$nblocks" \
        2>> "$home.log" | awk '!/^#/ && NF == 3 {print $2}' | tail -1) || rc=$?
    [ "$rc" = 0 ] && [ -n "$ms" ] || {
        tail -5 "$home.log" >&2
        echo "$me: ${PROG[$c]} -size $n -nblocks $nblocks failed (exit $rc) or printed no time (its messages: $home.log${GONE:-})" >&2
        exit 1
    }
    echo "$ms"
}

calibrate() { # case, home
    mkdir -p "$2"
    for _ in $(seq 1 "$CALIB"); do starpu_run "$1" "$2" dmda 1 > /dev/null; done
}

# the history lines of a sampling folder: "symbol mean_us n sum_us" each
means() {
    for f in "$1"/codelets/45/*; do
        awk -v s="$(basename "$f")" '/^[0-9a-f]+\t/ {split(s, a, "."); print a[1], $4, $NF, $6}' "$f"
    done
}

# the kernels' time in the runs a policy's home added to its history, over
# the same tasks at the calibrated means, less 1: how much slower the
# kernels ran during the table than when calibrated (the machine, not the
# model); "?" if the runs added no sample
kernel_drift() { # calibrated sampling, sampling after the runs
    join <(means "$1" | awk '{print $1, $2, $3, $4}' | sort) <(means "$2" | awk '{print $1, $3, $4}' | sort) |
        awk '{dn = $5 - $3; ran += $6 - $4; cal += dn * $2}
             END {if (cal > 0) printf "%+.1f%%", 100 * (ran / cal - 1); else printf "?"}'
}

# the tasks of one codelet in one run of the example in b×b tiles
tasks_of() { # symbol, b
    local b=$2
    case $1 in
    chol_model_11 | starpu_slu_lu_model_11) echo "$b" ;;
    chol_model_21 | starpu_slu_lu_model_12 | starpu_slu_lu_model_21) echo $((b * (b - 1) / 2)) ;;
    chol_model_22) echo $(((b - 1) * b * (b + 1) / 6)) ;;
    starpu_slu_lu_model_22) echo $(((b - 1) * b * (2 * b - 1) / 6)) ;;
    *) echo 0 ;;
    esac
}
kernel_of() {
    case $1 in
    chol_model_11) echo POTRF ;; chol_model_21) echo TRSM ;; chol_model_22) echo GEMM+SYRK ;;
    starpu_slu_lu_model_11) echo GETRF ;; starpu_slu_lu_model_12) echo TRSM12 ;;
    starpu_slu_lu_model_21) echo TRSM21 ;; starpu_slu_lu_model_22) echo GEMM ;; *) echo "$1" ;;
    esac
}

version=$(dpkg-query -W -f '${Version}' libstarpu-1.3-9 2> /dev/null || echo "?")
cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $CORES cores ($cpu), StarPU $version, STARPU_NCPU=$STARPU_NCPU, no GPU"
echo "# CALIB=$CALIB calibrating runs a case, REPS=$REPS runs a policy, STARPU_HISTORY_MAX_ERROR=$MAXERR%, OPENBLAS_NUM_THREADS=1; hetsim: $HETSIM"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '# %-18s %-6s %10s %10s %8s %6s\n' case policy starpu_ms hetsim_ms error load1

declare -A SIM
for c in $CASES; do
    d=$(dir_of "$c")
    mkdir -p "$d"
    calibrate "$c" "$d/home"
    cp -r "$d/home/.starpu/sampling" "$d/sampling"
    for p in $POLICIES; do cp -r "$d/home" "$d/home-$p"; done # each policy's runs add to their own history
    pf=$(ls "$d"/sampling/bus/*.platform.v4.xml 2> /dev/null | head -1)
    [ -n "$pf" ] || { echo "$me: StarPU wrote no bus/HOST.platform.v4.xml in $d/home" >&2; exit 1; }
    for p in $POLICIES; do
        "$HETSIM" run -q -p "$pf" --perf "$d/sampling/codelets/45" -w "${WL[$c]}" -s "$p" \
            -o "$d/hetsim-$p.json" 2> "$d/hetsim-$p.stderr" || { cat "$d/hetsim-$p.stderr" >&2; exit 1; }
        if [ -s "$d/hetsim-$p.stderr" ]; then cat "$d/hetsim-$p.stderr" >&2; fi
        SIM[$c $p]=$(awk -F'[:,]' '/"makespan":/ {gsub(/[ \t]/, "", $2); printf "%.1f", $2 * 1000; exit}' \
            "$d/hetsim-$p.json")
    done
    for _ in $(seq 1 "$REPS"); do
        for p in $POLICIES; do
            ms=$(starpu_run "$c" "$d/home-$p" "$p" 1)
            sim=${SIM[$c $p]}
            printf '  %-18s %-6s %10s %10s %+7.1f%% %6s\n' "$c" "$p" "$ms" "$sim" \
                "$(awk -v a="$sim" -v b="$ms" 'BEGIN {print 100 * (a - b) / b}')" "$(load)" | tee -a "$OUT/table.txt"
        done
    done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# each case and policy: the median of its runs (the mean of the middle two
# for an even count), and its kernels' drift (kernel_drift)
printf '# %-18s %-6s %10s %-15s %10s %8s %8s\n' case policy median_ms "range" hetsim_ms error kernels
for c in $CASES; do
    d=$(dir_of "$c")
    for p in $POLICIES; do
        kd=$(kernel_drift "$d/sampling" "$d/home-$p/.starpu/sampling")
        awk -v c="$c" -v p="$p" '$1 == c && $2 == p {print $3, $4}' "$OUT/table.txt" | sort -n |
            awk -v c="$c" -v p="$p" -v kd="$kd" '{v[NR] = $1; sim = $2}
                END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                     printf "  %-18s %-6s %10.1f %-15s %10.1f %+7.1f%% %8s\n", c, p, m, v[1] "-" v[NR], sim,
                            100 * (sim - m) / m, kd}'
    done
done | tee "$OUT/medians.txt"

# the history: samples kept of those the calibrating runs took, and StarPU's flushes
hist=""
for c in $CASES; do
    IFS=: read -r _ _ nblocks <<< "$c"
    d=$(dir_of "$c")
    kept=$(means "$d/sampling" | while read -r s _ n _; do
        echo "$(kernel_of "$s") $n/$((CALIB * $(tasks_of "$s" "$nblocks") - 1))"
    done | paste -sd, - | sed 's/,/, /g')
    hist="$hist${hist:+; }$c: $kept"
done
flushes=$(cat "$OUT"/*/home*.log | grep -c "Too big deviation" || true)
echo "history (samples kept / taken by the $CALIB calibrating runs, less the first, which StarPU drops): $hist"
echo "StarPU's flushes (\"Too big deviation\", every run of the table): $flushes"

if [ "$DRIFT" = 1 ]; then
    moves=""
    for c in $CASES; do
        d=$(dir_of "$c")
        calibrate "$c" "$d/recheck"
        m=$(join <(means "$d/sampling" | awk '{print $1, $2}' | sort) \
            <(means "$d/recheck/.starpu/sampling" | awk '{print $1, $2}' | sort) |
            while read -r s a b; do
                printf '%s %+.1f%%\n' "$(kernel_of "$s")" "$(awk -v a="$a" -v b="$b" 'BEGIN {print 100 * (b - a) / a}')"
            done | paste -sd, - | sed 's/,/, /g')
        moves="$moves${moves:+; }$c: $m"
    done
    most=$(echo "$moves" | grep -oE '[-+][0-9.]+%' | tr -d '%+-' | sort -g | tail -1)
    echo "the machine while the table ran: each case calibrated again after it, its kernels' means against those hetsim was given: $moves (most: ${most}%)"
    echo "# load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    flushes2=$(cat "$OUT"/*/recheck.log | grep -c "Too big deviation" || true)
    [ "$flushes2" = 0 ] || echo "StarPU's flushes in the calibration after the table: $flushes2"
fi

summary() { # what, the error's field, file
    awk -v what="$1" -v f="$2" '{e = $f + 0; n++; s += e; if (e < 0) neg++; if (e > 0) pos++; a = e < 0 ? -e : e
        if (a <= 10) ok++; if (n == 1 || e < lo) lo = e; if (n == 1 || e > hi) hi = e}
        END {printf "summary: %d %s, error mean %+.1f%%, from %+.1f%% to %+.1f%%, %d within 10%%; %d below StarPU, %d above (%s)\n",
             n, what, s / n, lo, hi, ok, neg, pos, neg && pos ? "both signs" : "one sign"}' "$3"
}
summary runs 5 "$OUT/table.txt"
summary "medians (case and policy)" 6 "$OUT/medians.txt"
