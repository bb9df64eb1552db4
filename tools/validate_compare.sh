#!/usr/bin/env bash
# tools/validate_compare.sh — the simulated half of the validation: simulate,
# on the platform and timing table that tools/validate_cuda.sh calibrated,
# every scenario it measured, and print simulated versus measured makespans
# (error = (simulated - measured) / measured). `hetsim compare` gives the
# details of one pair. Usage: tools/validate_compare.sh HETSIM VALIDATION_DIR
set -euo pipefail
BIN=$1
DIR=$2
mkdir -p "$DIR/sim"
printf "| %-26s | %-6s | %12s | %12s | %8s | %9s |\n" workload policy "simulated s" "measured s" error residual
printf "|%s|%s|%s|%s|%s|%s|\n" "----------------------------" "--------" "--------------" "--------------" "----------" "-----------"
for rec in "$DIR"/records/*.json; do
    base=$(basename "$rec")
    read -r w s gpus cpus < <(python3 -c "import json;i=json.load(open('$rec'))['inputs'];print(i['workload'],i['policy'],i['gpus'],i['cpus'])")
    "$BIN" run -q -p "$DIR/node.xml" --perf "$DIR/perf/node.json" -w "$w" -s "$s" \
        --gpus "$gpus" --cpus "$cpus" --events -o "$DIR/sim/$base"
    python3 - "$DIR/sim/$base" "$rec" <<'PY'
import json, sys
sim, real = (json.load(open(p)) for p in sys.argv[1:3])
ms, mr = sim["results"]["makespan"], real["results"]["makespan"]
w = real["inputs"]["workload"].replace(",precision=d", "")
print("| %-26s | %-6s | %12.4f | %12.4f | %+7.1f%% | %9.1e |" % (w, real["inputs"]["policy"].split(":")[0],
      ms, mr, 100 * (ms - mr) / mr, real["results"].get("residual", float("nan"))))
PY
done
