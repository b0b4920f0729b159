#!/bin/sh
# The default study behind `make demo`: the FMA microbenchmark of
# validation/h200 on the calibrated H200 at one wave (132 CTAs), at eight
# CTAs per SM (1056) and one CTA more (1057: a second wave for one CTA),
# under the GigaThread and round-robin dispatchers, three warp policies, and
# uniform (as measured) or skewed silicon.  The study is a sweep spec,
# configs/sweeps/demo.yaml, run on every CPU (docs/sweeps.md); a second
# `make demo` finds every point done and prints the same table.
# Full results land in demo-out/points/<NNNN>-<trace>-<case>/.
set -e
BIN=${1:-build/skewsim}
OUT=${DEMO_OUT:-demo-out}
JOBS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
printf 'fma_kernel (256 threads, 4096 iterations) on configs/h200.yaml;'
printf ' case = dispatch/warps/silicon\n\n'
"$BIN" sweep configs/sweeps/demo.yaml -o "$OUT" -j "$JOBS"
cat <<'NOTE'

One CTA more than eight per SM (1057) costs a whole extra wave: wave
quantisation.  The warp policy decides how co-resident CTAs share issue
slots (GTO finishes them staggered, oldest first, as the real H200 does).
On skewed silicon (process variation, docs/silicon.md) the slowest SMs set
the kernel time.  With one clock per SM (skewed-per_sm) a few SMs run up to
7 % slower; the frequency-aware dispatcher (freq_aware) then wins almost
nothing, because greedy refill already feeds fast SMs more CTAs and a 7 %
deficit is less than one CTA's share of an SM (docs/design.md).
Measured on a real H200: 28.6, 165.0 and 184.6 us (validation/h200);
`make validate` compares all 27 measured grid sizes.
NOTE
echo "Per-point results: $OUT/points/<NNNN>-<trace>-<case>/; one row per point: $OUT/sweep.csv"
