#!/usr/bin/env bash
# tools/validate_compare.sh — the simulated half of the validation: simulate,
# on the platform and timing table that tools/validate_cuda.sh calibrated,
# every scenario it measured, and print simulated versus measured makespans
# (error = (simulated - measured) / measured, the measured figure being the
# median of the repetitions; their range beside it), and how far the CPU
# kernels of the measured runs were from their calibrated times (the mean
# over the CPU tasks of measured / simulated duration: a policy that leaves
# work to the cores inherits this drift in full). `hetsim compare` gives the
# details of one pair. Usage: tools/validate_compare.sh HETSIM VALIDATION_DIR
set -euo pipefail
BIN=$1
DIR=$2
mkdir -p "$DIR/sim"
python3 - "$BIN" "$DIR" <<'PY'
import glob, json, os, re, statistics, subprocess, sys
bin, d = sys.argv[1], sys.argv[2]
cases = {}
for path in sorted(glob.glob(os.path.join(d, "records", "*.json"))):
    rec = json.load(open(path))
    i = rec["inputs"]
    key = (i["workload"], i["policy"].split(":")[0], i["gpus"], i["cpus"])
    cases.setdefault(key, []).append(rec)

def cpu_times(rec):
    arch = {w["name"]: w["arch"] for w in rec["workers"]}
    return {t["id"]: t["end"] - t["start"] for t in rec["events"]["tasks"] if arch[t["worker"]] == "cpu"}

print("| %-24s | %-6s | %10s | %10s | %-17s | %7s | %9s | %8s |" % (
    "workload", "policy", "simulated", "measured", "measured range", "error", "cpu drift", "residual"))
print("|%s|%s|%s|%s|%s|%s|%s|%s|" % ("-" * 26, "-" * 8, "-" * 12, "-" * 12, "-" * 19, "-" * 9, "-" * 11, "-" * 10))
for (w, s, g, c), recs in sorted(cases.items()):
    name = re.sub(r"[:=,]", "_", "%s-%s" % (w, s))
    simf = os.path.join(d, "sim", name + ".json")
    subprocess.run([bin, "run", "-q", "-p", os.path.join(d, "node.xml"), "--perf",
                    os.path.join(d, "perf", "node.json"), "-w", w, "-s", s, "--gpus", str(g),
                    "--cpus", str(c), "--events", "-o", simf], check=True)
    sim = json.load(open(simf))
    ms = sim["results"]["makespan"]
    mr = [r["results"]["makespan"] for r in recs]
    med = statistics.median(mr)
    # the CPU kernels' drift: measured durations over the simulated (calibrated) ones of the same kernel
    sim_cpu = {}
    for t in sim["events"]["tasks"]:
        if t["worker"].startswith("CPU"):
            sim_cpu[t["kernel"]] = t["end"] - t["start"]
    ratios = []
    for r in recs:
        kern = {t["id"]: t["kernel"] for t in r["events"]["tasks"]}
        ratios += [dur / sim_cpu[kern[tid]] for tid, dur in cpu_times(r).items() if kern[tid] in sim_cpu]
    drift = "%+8.1f%%" % (100 * (statistics.mean(ratios) - 1)) if ratios else "        -"
    wl = w.replace(",precision=d", "").replace(",setarch=0,pardiag=0", "")
    resid = max(r["results"].get("residual", float("nan")) for r in recs)
    print("| %-24s | %-6s | %10.4f | %10.4f | %8.4f - %-6.4f | %+6.1f%% | %9s | %8.1e |" % (
        wl, s, ms, med, min(mr), max(mr), 100 * (ms - med) / med, drift, resid))
PY
