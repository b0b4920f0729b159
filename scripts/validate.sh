#!/bin/sh
# scripts/validate.sh -- `make validate`: the shipped config against the H200
# measurements, in parts that always all run (three in -q, six in full):
#
#   -d          validation/h200: E1 and E9 (FMA wave quantisation), E10
#               (latencies), E11/E18 (memory), the silicon model, E4
#   --measured  validation/h200/capture: every captured family that
#               src/cli/validate_measured.c simulates, judged at --max-mape
#   h100        validation/h100 against configs/h100.yaml (full runs only):
#               E11's l2map on two H100s (each SM's L2 hits), E23's one-warp
#               loads, E24's bandwidths and E25 on three H100s, a chip the
#               shipped parameters were never fitted to, E30's shared
#               memory, E31's warp order, E35's stream past the L1, E36's hit
#               rates counted by ncu and E39's written lines
#   h100_cluster  validation/h100/cluster against configs/h100.yaml (full
#               runs only): E26, thread block cluster launches on an H100,
#               judged at --max-mape
#   h100_power  validation/h100/power against configs/h100.yaml (full runs
#               only): E16's mixes and E28, the FFMA's data, on two H100s,
#               judged at --max-mape
#   h100_sdata  validation/h100/sdata against configs/h100.yaml (full runs
#               only): E32, the SGEMM on zeros and on random inputs, where
#               power.fp32_random_fj is fitted, judged at --max-mape
#
#   sh scripts/validate.sh BIN                 the six parts, in full
#   sh scripts/validate.sh -q BIN              the quick subset .ci/run runs:
#                                              E1 at the grids whose placement
#                                              and staggering are checked, and
#                                              the measured families QUICK_A
#                                              and QUICK_B, side by side
#
# Each part's output goes to the terminal and to $(dirname BIN)/validate/
# PART.txt.  At the end one line per part says how many criteria (the
# PASS/FAIL lines; info lines are not judged) failed of how many, its exit
# status and its wall time, and the script exits 1 if any part did not
# exit 0.  A criterion count that disagrees with the part's own count of
# failures is reported as a mismatch (and fails), so the summary cannot
# silently drift from what validate judged; so does a part that judged no
# criterion at all (its captures gone, say).
#
# VALIDATE_CONFIG (default configs/h200.yaml), VALIDATE_H100_CONFIG (default
# configs/h100.yaml), VALIDATE_MAX_MAPE (25).
set -u
QUICK=0
if [ "${1:-}" = -q ]; then QUICK=1; shift; fi
BIN=${1:?usage: validate.sh [-q] BIN}
CFG=${VALIDATE_CONFIG:-configs/h200.yaml}
H100_CFG=${VALIDATE_H100_CONFIG:-configs/h100.yaml}
MAPE=${VALIDATE_MAX_MAPE:-25}
# The quick measured families: launch pipelining, grid barriers, first
# launches, concurrent streams, heterogeneous CTAs, in two halves that run
# side by side (61 and 52 s on the two-core development host, 2026-12-06:
# e13_coop 45, e14_twostream 31, e15_hetero 21, e12_launch 14, e13_first 2).
QUICK_A=${QUICK_A:-e13_coop,e13_first,e12_launch}
QUICK_B=${QUICK_B:-e14_twostream,e15_hetero}
OUT=$(dirname "$BIN")/validate
mkdir -p "$OUT"

# part NAME CONFIG ARGS...: run one part, keep its output, its status and
# its time.
part() {
    name=$1
    cfg=$2
    shift 2
    start=$(date +%s)
    { "$BIN" validate -c "$cfg" "$@"; echo $? > "$OUT/$name.rc"; } | tee "$OUT/$name.txt"
    echo $(( $(date +%s) - start )) > "$OUT/$name.s"
}
# part_quiet: the same, its output only in its file (for parts run side by
# side, printed whole once they are done)
part_quiet() {
    part "$@" > /dev/null
}

if [ $QUICK = 1 ]; then
    PARTS="d measured_a measured_b"
    part d "$CFG" -d validation/h200 --grids 132,264,1056
    rm -f "$OUT/measured_a.rc" "$OUT/measured_b.rc"
    part_quiet measured_a "$CFG" --measured validation/h200/capture --only "$QUICK_A" --max-mape "$MAPE" &
    part_quiet measured_b "$CFG" --measured validation/h200/capture --only "$QUICK_B" --max-mape "$MAPE"
    wait
    cat "$OUT/measured_a.txt" "$OUT/measured_b.txt"
else
    PARTS="d measured h100 h100_cluster h100_power h100_sdata"
    part d "$CFG" -d validation/h200
    part measured "$CFG" --measured validation/h200/capture --max-mape "$MAPE"
    part h100 "$H100_CFG" -d validation/h100 --only l2map,e23,e24,e25,e30,e31,e35,e36,e39
    part h100_cluster "$H100_CFG" --measured validation/h100/cluster --max-mape "$MAPE"
    part h100_power "$H100_CFG" --measured validation/h100/power --max-mape "$MAPE"
    part h100_sdata "$H100_CFG" --measured validation/h100/sdata --max-mape "$MAPE"
fi

bad=0
echo
for name in $PARTS; do
    rc=$(cat "$OUT/$name.rc" 2>/dev/null || echo '?')
    total=$(grep -Ec '^(PASS|FAIL) ' "$OUT/$name.txt")
    failed=$(grep -c '^FAIL ' "$OUT/$name.txt")
    own=$(sed -n 's/^\(FAILED\|ok\): \([0-9]*\) criterion(s) failed$/\2/p' "$OUT/$name.txt" | tail -n 1)
    case $name in
        d) what="validate -d validation/h200" ;;
        h100) what="validate -c $H100_CFG -d validation/h100" ;;
        h100_cluster) what="validate -c $H100_CFG --measured validation/h100/cluster" ;;
        h100_power) what="validate -c $H100_CFG --measured validation/h100/power" ;;
        h100_sdata) what="validate -c $H100_CFG --measured validation/h100/sdata" ;;
        measured_a) what="validate --measured validation/h200/capture --only $QUICK_A" ;;
        measured_b) what="validate --measured validation/h200/capture --only $QUICK_B" ;;
        *) what="validate --measured validation/h200/capture" ;;
    esac
    note=
    if [ -z "$own" ]; then
        note="; no result line: validate stopped with an error (exit $rc)"
    elif [ "$total" = 0 ]; then
        note="; no criterion judged"
        bad=1
    elif [ "$own" != "$failed" ]; then
        note="; mismatch: validate counted $own failed"
        bad=1
    fi
    echo "$what: $failed of $total criteria failed (exit $rc, $(cat "$OUT/$name.s") s)$note"
    [ "$rc" = 0 ] || bad=1
done
exit $bad
