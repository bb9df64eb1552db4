#!/usr/bin/env bash
# tools/validate_real.sh — the real engine's validation on this machine's
# cores, the CPU counterpart of tools/validate_cuda.sh and
# tools/validate_compare.sh (both halves here: no GPU, no second machine).
#
# It calibrates the cores once (hetsim calibrate --gpus 0), the kernels
# timed with the largest W busy and again with each other W busy (--corun:
# the timing table's co-running curve), then for each number of CPU workers
# W (1, and every core: nproc, the runtime sharing a core with a worker) and
# each case (Cholesky, LU, QR and GEMM at two sizes: 2048, and one whose
# measured makespan exceeds 1 s at W = 2 on a 2-core machine, where the 5%
# target applies) and policy (eager,
# dmda, heft, ws) simulates once and measures REPS times (records with
# --events), and prints one table row per case: simulated makespan, the
# median and range of the measured ones, error = (simulated - median) /
# median against the target (10%; 5% when the median is over 1 s), the
# kernels' wall-time and core-time drift (measured over simulated task
# time, summed over the tasks: a task's core time is the CPU time its thread
# had, so wall drift without core drift is a core taken by other
# processes), the 1-minute load average when the case was measured, and the
# residual. For every case off target the `hetsim compare` table of the
# simulation and the median measured run follows (per-kernel and per-worker
# lines). Load averages before and after are printed too, and the machine's
# own drift: the kernels calibrated again after the table, against the
# calibration the table used. Set OPENBLAS_CORETYPE (for both) when calibrate
# notes that OpenBLAS runs its generic kernels.
#
# Usage: tools/validate_real.sh HETSIM OUTDIR [REPS]
#   HETSIM: the hetsim command (hetsim-real beside it); OUTDIR: where the
#   calibration, records and compare tables go (a calibrated OUTDIR is
#   reused); REPS: measured runs per case (default 3). $CASES overrides the
#   workloads (tile size: $NB, default 256; calibrated with ib = min(128, NB)),
#   $POLICIES the policies, $WORKERS the worker counts.
set -euo pipefail
BIN=$1
OUT=$2
REPS=${3:-3}
NB=${NB:-256}
CORES=$(nproc)
WORKERS=${WORKERS:-$( (echo 1; echo "$CORES") | sort -nu | tr '\n' ' ')}
MAXW=$(echo $WORKERS | tr ' ' '\n' | sort -n | tail -1)
OTHERS=$(echo $WORKERS | tr ' ' '\n' | sort -nu | { grep -vx "$MAXW" || true; } | paste -sd, -)
POLICIES=${POLICIES:-"eager dmda heft ws"}
# the larger sizes: at W = 1 on the 2-core development machine (2026-11-27,
# docs/real-engine.md) Cholesky 4096 took 0.59 s, LU 4096 about 2.5 s, QR and
# GEMM 3072 over 1 s, and at W = 2 none reached 1 s (the largest 0.83 s): each
# is scaled by its flops (n^3) to about twice that at W = 2
CASES=${CASES:-"cholesky:n=2048,nb=$NB cholesky:n=7168,nb=$NB lu:n=2048,nb=$NB lu:n=5120,nb=$NB
    qr:n=2048,nb=$NB qr:n=4096,nb=$NB gemm:n=2048,nb=$NB gemm:n=4096,nb=$NB"}
mkdir -p "$OUT/records" "$OUT/compare"
: > "$OUT/cases.txt" # this invocation's cases, for the table
echo "load before: $(cat /proc/loadavg)" | tee "$OUT/load.txt"
node="node-w$MAXW"
[ -f "$OUT/$node.xml" ] ||
    "$BIN" calibrate -o "$node" --dir "$OUT" --gpus 0 --cores "$MAXW" --cpu-threads "$MAXW" \
        --corun "${OTHERS:-none}" --nb "$NB" --reps 9 -v > "$OUT/$node.log"
for w in $WORKERS; do
    for c in $CASES; do
        for s in $POLICIES; do
            name=$(echo "$c-w$w-$s" | tr ':=,' '___')
            echo "$name" >> "$OUT/cases.txt"
            args=(-p "$OUT/$node.xml" --perf "$OUT/perf/$node.json" -w "$c" -s "$s" --cpus "$w" --events)
            "$BIN" run -q "${args[@]}" -o "$OUT/records/$name-sim.json"
            cut -d' ' -f1 /proc/loadavg > "$OUT/records/$name-load.txt"
            for r in $(seq 1 "$REPS"); do
                "$BIN" run -q --engine real "${args[@]}" -o "$OUT/records/$name-r$r.json"
            done
        done
    done
done
echo "load after: $(cat /proc/loadavg)" | tee -a "$OUT/load.txt"
# the same calibration again, after the table: how far the machine itself
# moved while the cases ran (a table's errors within that say nothing of
# the model)
rm -rf "$OUT/recheck"
"$BIN" calibrate -o "$node" --dir "$OUT/recheck" --gpus 0 --cores "$MAXW" --cpu-threads "$MAXW" \
    --corun none --nb "$NB" --reps 9 > "$OUT/recheck.log"
python3 - "$BIN" "$OUT" "$REPS" "$node" <<'PY'
import json, os, statistics, subprocess, sys
bin, out, reps, node = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def kernels(path):
    return {(e["kernel"], e["arch"], e["nb"]): e["seconds"] for e in json.load(open(path))["kernels"]}

def tasks(rec):
    return rec["events"]["tasks"]

def drift(sim, reals, core):
    """sum of the measured task times (core or wall) over the simulated ones, less 1"""
    want = sum(t["end"] - t["start"] for t in tasks(sim))
    got = statistics.mean(sum(t.get("core_time", t["end"] - t["start"]) if core else t["end"] - t["start"]
                              for t in tasks(r)) for r in reals)
    return got / want - 1

rows, misses = [], []
for name in open(os.path.join(out, "cases.txt")).read().split():
    base = os.path.join(out, "records", name)
    simf = base + "-sim.json"
    sim = json.load(open(simf))
    reals = [json.load(open("%s-r%d.json" % (base, r))) for r in range(1, reps + 1)]
    inp = sim["inputs"]
    ms = sim["results"]["makespan"]
    mr = sorted(r["results"]["makespan"] for r in reals)
    med = statistics.median(mr)
    err = (ms - med) / med
    target = 0.05 if med > 1 else 0.10
    ok = abs(err) <= target
    res = max(r["results"].get("residual", float("nan")) for r in reals)
    load = open(base + "-load.txt").read().strip()
    wl = inp["workload"].split(",precision")[0].split(",m=")[0]
    rows.append("| %-24s | %d | %-6s | %8.4f | %8.4f | %8.4f - %-8.4f | %+6.1f%% | %3.0f%% | %-4s | %+6.1f%% | %+6.1f%% | %5s | %7.1e |" % (
        wl, inp["cpus"], inp["policy"].split(":")[0], ms, med, mr[0], mr[-1], 100 * err, 100 * target,
        "ok" if ok else "MISS", 100 * drift(sim, reals, False), 100 * drift(sim, reals, True), load, res))
    if not ok:
        median_run = min(range(reps), key=lambda i: abs(reals[i]["results"]["makespan"] - med)) + 1
        cmp = subprocess.run([bin, "compare", simf, "%s-r%d.json" % (base, median_run)], capture_output=True,
                             text=True).stdout
        open(os.path.join(out, "compare", os.path.basename(base) + ".txt"), "w").write(cmp)
        misses.append((os.path.basename(base), cmp))
print("| %-24s | W | %-6s | %8s | %8s | %-19s | %7s | %4s | %-4s | %7s | %7s | %5s | %7s |" % (
    "workload", "policy", "sim (s)", "real (s)", "real range (s)", "error", "goal", "", "wall", "core",
    "load", "resid."))
print("|%s|---|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|" % ("-" * 26, "-" * 8, "-" * 10, "-" * 10, "-" * 21, "-" * 9,
                                                   "-" * 6, "-" * 6, "-" * 9, "-" * 9, "-" * 7, "-" * 9))
print("\n".join(rows))
print("\n%d of %d cases within their target" % (len(rows) - len(misses), len(rows)))
first = kernels(os.path.join(out, "perf", node + ".json"))
again = kernels(os.path.join(out, "recheck", "perf", node + ".json"))
moves = sorted(((again[k] - first[k]) / first[k], k) for k in first if k in again)
if moves:
    print("the machine while the table ran: the kernels calibrated again after it, against before it: "
          + ", ".join("%s %+.1f%%" % (k[0], 100 * m) for m, k in moves)
          + " (most: %+.1f%%)" % (100 * max((abs(m) for m, _ in moves))))
for name, cmp in misses:
    print("\n%s: hetsim compare SIM MEASURED (the median run)\n%s" % (name, cmp), end="")
PY
