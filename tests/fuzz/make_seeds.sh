#!/usr/bin/env bash
# tests/fuzz/make_seeds.sh HETSIM — write the seed corpora of the fuzz
# targets (tests/fuzz/corpus/TARGET/) with hetsim itself: DAGs it writes as
# JSON and DOT, timing tables it ships and one calibrate-sim writes, sweep
# results, the inventories `hetsim platform` lists, the canonical
# specifications its records hold, the tasks.rec files its runs write.
# Formats hetsim does not write (WfFormat, SimGrid's JSON and DOT DAGs, DAX,
# STG, DAGGEN's text, host maps, StarPU's platforms and perfmodels) take their seeds from the
# files of tests/data. Run from anywhere; rerun after a format changes.
set -euo pipefail
hetsim=$(realpath "${1:?usage: make_seeds.sh path/to/hetsim}")
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out="$here/corpus"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$out"
mkdir -p "$out"/{json,dot,wfformat,dax,pegasus,stg,daggen_text,taskrec,perf,csv,inventory,hostmap,spec}

workloads=(cholesky:n=2048,nb=512 xkcholesky:n=1536,nb=512 lu:n=1536,nb=512 qr:n=1024,nb=512
           gemm:n=2048,nb=1024 lunopiv:n=1536,nb=512,moves=1 outer:n=3 matmul:n=2
           random:v=12,p=3 random:v=10,int_costs=1,gen=G2 daggen:n=12,seed=3
           cholesky:n=2048,nb=1024,setarch=1 "$src/tests/data/daggen-5.dot")
i=0
for w in "${workloads[@]}"; do
    "$hetsim" dag "$w" --format json -o "$out/json/$i.json"
    "$hetsim" dag "$w" --format dot -o "$out/dot/$i.dot"
    i=$((i + 1))
done

cp "$src"/tests/data/*wf1*.json "$src"/tests/data/simgrid-dag.json "$out/wfformat/"
cp "$src"/tests/data/simgrid-dag*.dot "$src"/tests/data/daggen-6.dot "$out/dot/"
cp "$src"/tests/data/*.dax "$src"/tests/data/simgrid-*dax*.xml "$src"/tests/data/simgrid-Montage_25.xml "$out/dax/"
cp "$src"/tests/data/pegasus5/*.yml "$out/pegasus/"
cp "$src"/tests/data/*.stg "$out/stg/"
cp "$src"/tests/data/daggen-*.txt "$out/daggen_text/"
cp "$src"/tests/data/*.rec "$out/taskrec/"
"$hetsim" run -q -p flat:3 -w daggen:n=12,seed=3 -s dmda --tasks-rec "$out/taskrec/daggen.rec"
"$hetsim" run -q -p idgraf --gpus 2 -w cholesky:n=2048,nb=512 -s heft --tasks-rec "$out/taskrec/cholesky.rec"
cp "$src"/tests/data/*.hosts "$out/hostmap/"
printf '# StarPU names\nCPU* cpu\nCUDA[0-3] gpu\nOpenCL? ignore\nRAM ram\n* proc\n' > "$out/hostmap/starpu.hosts"

cp "$src"/platforms/perf/idgraf.json "$src"/platforms/perf/mapuche-cal1.json "$src"/platforms/perf/h100.json "$out/perf/"
cp "$src"/tests/data/starpu-sampling/codelets/45/chol_model_22.attila "$src"/tests/data/starpu-sampling/debian-run/codelets/45/chol_model_22.vm "$out/perf/"
"$hetsim" calibrate-sim -p mapuche --gpus 1 -w cholesky:n=400,nb=100,precision=s -o "$out/perf/calibrate-sim.json" >/dev/null

"$hetsim" sweep -q -p flat:2 -w random:v=6 --vary policy=heft,dmda --reps 2 -o "$out/csv/sweep.csv"
"$hetsim" summarize "$out/csv/sweep.csv" --by policy -q --csv "$out/csv/summary.csv" --pairwise-csv "$out/csv/pairs.csv"

# `hetsim platform` lists the hosts; the inventory target reads them as
# "NAME SPEED key=value ..." under a selection line. StarPU's file is given
# without kinds (its host names tell them, its ignored hosts included).
for p in idgraf mapuche idgraf-dada h100 flat:3 "$src/tests/data/starpu-sirocco.platform.v4.xml"; do
    named=0
    case "$p" in *.xml) named=1 ;; esac
    for sel in "-1 -1 first 2 0.8 0" "2 1 spread 1 0.5 1"; do
        {
            echo "$sel"
            "$hetsim" platform "$p" | awk -v named=$named '/^hosts:/ {on=1; next} /^workers/ {on=0}
                on && /^note: host / { if (named) print $3 " 1e9"; next }
                on { line = $1 " " $3 (named ? "" : " kind=" $2)
                     for (i = 5; i < NF; i++) {
                         if ($i == "memory") line = line " memsize=" $(i+1)
                         if ($i == "switch" || $i == "ioh" || $i == "socket" || $i == "numa") line = line " " $i "=" $(i+1)
                     }
                     print line }'
        } > "$out/inventory/$(basename "${p/:/-}" .platform.v4.xml)-${sel%% *}.txt"
    done
done

# a workload, a policy and a flat platform, as run records name them
i=0
for run in "-p flat:2 -w random:v=4 -s heft" "-p flat:3,speeds=1G:2G:3G,bw=2G,lat=1e-5 -w daggen:n=5 -s dmda:beta=0.5" \
           "-p flat:2,spread=0.5G -w cholesky:n=1024,nb=512 -s cluster:max=4" \
           "-p flat:2,scenario=u10-100,bw=inf -w outer:n=4 -s dynamic-outer" "-p flat:2 -w gemm:n=1024,nb=512 -s ws"; do
    "$hetsim" run $run -o "$tmp/r.json" -q
    for key in workload policy platform; do
        sed -n "s/^\t\t\"$key\":\t\"\(.*\)\",*$/\1/p" "$tmp/r.json" | head -1
    done > "$out/spec/$i.txt"
    i=$((i + 1))
done
echo "seeds: $(find "$out" -type f | wc -l) files in $out"
