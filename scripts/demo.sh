#!/bin/sh
# The default study behind `make demo`: the FMA microbenchmark of
# validation/h200 on the calibrated H200 at one wave (132 CTAs), at eight
# CTAs per SM (1056) and one CTA more (1057, a second wave), with the
# GigaThread dispatcher and with plain round-robin placement.
set -e
BIN=${1:-build/skewsim}
OUT=${DEMO_OUT:-demo-out}
mkdir -p "$OUT"
for grid in 132 1056 1057; do
    "$BIN" gen fma --iters 4096 --block 256 --grid $grid -o "$OUT/fma_$grid.trace"
done
for policy in gigathread round_robin; do
    for grid in 132 1056 1057; do
        echo "== fma_kernel, $grid CTAs of 256 threads, dispatch.policy=$policy"
        "$BIN" run -c configs/h200.yaml -t "$OUT/fma_$grid.trace" -o "$OUT/${policy}_$grid" \
            --set dispatch.policy=$policy
    done
done
echo
echo "Results: $OUT/<policy>_<grid>/summary.json and ctas.csv"
echo "Compare with the real H200: make validate"
