#!/bin/sh
# platforms/tools/calibrate_beniamine.sh — regenerate the calibrated timing
# tables of the Beniamine studies (analysis/studies/beniamine-*.json):
# perf/idgraf-calK.json (K = 1, 2, 4, 8 GPUs) and perf/mapuche-cal1.json. Each
# tile size nb the studies use (N/10 and N/20 for N = 400..2000) is calibrated
# by `hetsim calibrate-sim` on the single-precision tiled Cholesky with move
# tasks of 10×10 tiles (n = 10·nb), on K GPUs and no CPU worker, under the
# thesis' online HEFT (Beniamine 2013, §3.2.3).
#
# usage: platforms/tools/calibrate_beniamine.sh path/to/hetsim [outdir]
set -eu
hetsim=${1:?usage: $0 path/to/hetsim [outdir]}
out=${2:-$(dirname "$0")/../perf}
sizes="30 35 40 45 50 55 60 65 70 75 80 85 90 95 100 110 120 130 140 150 160 170 180 190 200"

calibrate() { # platform gpus table
    rm -f "$3"
    for nb in $sizes; do
        "$hetsim" calibrate-sim -p "$1" --gpus "$2" -o "$3" \
            -w "xkcholesky:n=$((10 * nb)),nb=$nb,precision=s" >/dev/null
    done
    echo "$3"
}

for k in 1 2 4 8; do
    calibrate idgraf "$k" "$out/idgraf-cal$k.json"
done
calibrate mapuche 1 "$out/mapuche-cal1.json"
