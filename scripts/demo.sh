#!/bin/sh
# The default study behind `make demo`: the FMA microbenchmark of
# validation/h200 on the calibrated H200 at eight CTAs per SM (1056), one
# CTA more (1057) and two full waves (2112), under the GigaThread and
# round-robin dispatchers, three warp policies, uniform (as measured) or
# skewed silicon, and a power-capped what-if where the power manager acts
# within the kernel (configs/sweeps/demo.yaml says why).  The study is a
# sweep, run on every CPU (docs/sweeps.md); a second `make demo` finds every
# point done and prints the same table.
#
# Every sentence after the table is computed here from DIR/sweep.csv and
# the points' summary.json: change the spec or the model and the
# conclusions follow (or say that they no longer hold); none is fixed text.
# Then it draws a figure and writes the HTML reports into DIR.
set -e
BIN=${1:-build/skewsim}
OUT=${DEMO_OUT:-demo-out}
JOBS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
printf 'fma_kernel (256 threads, 4096 iterations) on configs/h200.yaml;'
printf ' case = dispatch/warps/silicon\n\n'
"$BIN" sweep configs/sweeps/demo.yaml -o "$OUT" -j "$JOBS"

# Each point's DVFS clock changes (summary.json chip.clock_changes), by dir.
CH="$OUT/.clock_changes.txt"
: > "$CH"
for d in "$OUT"/points/*/; do
    n=$(tr -d ' \t\n\r' < "$d/summary.json" 2>/dev/null | sed -n 's/.*"clock_changes":\([0-9]*\).*/\1/p')
    echo "points/$(basename "$d") ${n:-?}" >> "$CH"
done

# The measured kernel times of the same grids: the median over repetitions.
MEAS="$OUT/.measured.txt"
gzip -dc validation/h200/e1_kernels.csv.gz | awk -F, 'NR > 1 { print $1, $3 }' | sort -k1,1n -k2,2n |
    awk '{ v[$1] = v[$1] " " $2; n[$1]++ }
         END { for (g in v) { split(substr(v[g], 2), x, " "); m = n[g];
               printf "%s %.3f\n", g, (m % 2) ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2 } }' > "$MEAS"

# Each point's placement: how many CTAs every SM ran (summary.json sms[]),
# as one word, so that two dispatchers can be compared SM by SM, and how
# many ran on its slower half of SMs (mean clock below the median).  The
# JSON is read with its blanks removed, so its layout does not matter.
RES="$OUT/.placement.txt"
: > "$RES"
for d in "$OUT"/points/*/; do
    sms=$(tr -d ' \t\n\r' < "$d/summary.json" 2>/dev/null | sed -n 's/.*"sms":\[//p' |
        awk -v RS='}' 'match($0, /"ctas":[0-9]+/) { c = substr($0, RSTART + 7, RLENGTH - 7)
                                                    m = match($0, /"mean_mhz":[0-9.]+/) ? substr($0, RSTART + 11, RLENGTH - 11) : 0
                                                    print m, c }')
    p=$(printf '%s\n' "$sms" | awk 'NF == 2 { printf "%s.", $2 }')
    slow=$(printf '%s\n' "$sms" | awk 'NF == 2' | sort -n |
        awk '{ c[NR] = $2 } END { for (i = 1; i <= int(NR / 2); i++) s += c[i]; print s + 0 }')
    echo "points/$(basename "$d") ${p:-?} ${slow:-?}" >> "$RES"
done

echo
echo "What the table says (computed from $OUT/sweep.csv):"
awk -F, -v chfile="$CH" -v measfile="$MEAS" -v resfile="$RES" '
function pct(a, b) { return 100 * (a - b) / b }
function t(tr, c) { return T[tr SUBSEP c] }
function have(tr, c) { return (tr SUBSEP c) in T }
# "+3.1 %" / "-0.4 %" / "0.0 %" (never "-0.0 %")
function sp(x) { return (x < 0.05 && x > -0.05) ? "0.0 %" : sprintf("%+.1f %%", x) }
function longer(x) { return (x < 0) ? sprintf("%.1f %% less time", -x) : sprintf("%.1f %% longer", x) }
function say(s) { print "- " s }
BEGIN {
    while ((getline line < chfile) > 0) { split(line, fld, " "); CHG[fld[1]] = fld[2] }
    while ((getline line < measfile) > 0) { split(line, fld, " "); MEAS[fld[1]] = fld[2] }
    while ((getline line < resfile) > 0) { split(line, fld, " "); PLACED[fld[1]] = fld[2]; SLOWHALF[fld[1]] = fld[3] }
}
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$col["status"] == "ok" {
    k = $col["trace"] SUBSEP $col["case"]
    T[k] = $col["time_ns"]; MIN[k] = $col["min_mhz"]; MEAN[k] = $col["mean_mhz"]
    P[k] = $col["mean_power_w"]; DIR[k] = $col["dir"]
    if ($col["trace"] == "fma_1056") n1056 = 1
}
END {
    base = "gigathread/gto/uniform"
    if (!have("fma_1056", base) || !have("fma_1057", base)) {
        say("the baseline points did not finish: no conclusions"); exit
    }
    a = t("fma_1056", base); b = t("fma_1057", base)
    say(sprintf("Wave quantisation: 1057 CTAs take %s than 1056 (%.1f against %.1f us) for %.2f %% more work.",
        longer(pct(b, a)), b / 1000, a / 1000, 100 / 1056))
    if (pct(b, a) > 2 * 100 / 1056)
        say("  The 1057th CTA finds every SM full and waits for a free slot: a second wave, nearly empty.")
    if (have("fma_2112", base))
        say(sprintf("  Two full waves (2112) take %.2f times one (1056)%s.", t("fma_2112", base) / a,
            t("fma_2112", base) < 2 * a ? ": less than twice, as the launch overhead is paid once" : ""))
    # Against the real chip: the median of the measured repetitions.
    nm = split("1056 1057 2112", grids, " ")
    for (i = 1; i <= nm; i++) {
        g = grids[i]
        if (!(g in MEAS) || !have("fma_" g, base)) continue
        ms = ms sprintf("%s%s CTAs %.1f us simulated, %.1f measured (%s)", ms == "" ? "" : "; ", g,
            t("fma_" g, base) / 1000, MEAS[g], sp(pct(t("fma_" g, base) / 1000, MEAS[g])))
    }
    if (ms != "")
        say("Against the measured H200 (validation/h200/e1_kernels.csv.gz, median of repetitions): " ms ".")

    rr = "round_robin/gto/uniform"
    if (have("fma_1056", rr)) {
        d0 = pct(t("fma_1056", rr), a); d1 = pct(t("fma_1057", rr), b)
        d2 = have("fma_2112", rr) ? sp(pct(t("fma_2112", rr), t("fma_2112", base))) : "n/a"
        say(sprintf("Dispatch: round-robin placement against GigaThread: %s at 1056 CTAs, %s at 1057, %s at 2112.",
            sp(d0), sp(d1), d2))
    }

    np = split("gto lrr oldest", pol, " "); best = ""; worst = ""
    for (i = 1; i <= np; i++) {
        c = "gigathread/" pol[i] "/uniform"
        if (!have("fma_1056", c)) continue
        v = t("fma_1056", c); line2 = line2 sprintf("%s %.1f us, ", pol[i], v / 1000)
        if (best == "" || v < bv) { best = pol[i]; bv = v }
        if (worst == "" || v > wv) { worst = pol[i]; wv = v }
    }
    if (best != "")
        say(sprintf("Warp policy at 1056 CTAs: %s; %s is fastest, %s slowest (%s).", substr(line2, 1, length(line2) - 2),
            best, worst, sp(pct(wv, bv))))

    sk = "gigathread/gto/skewed"
    if (have("fma_1056", sk)) {
        s = t("fma_1056", sk)
        say(sprintf("Skewed silicon (process variation) at 1056 CTAs: %s; the slowest SM ran at %d MHz, the mean SM at %.0f MHz.",
            sp(pct(s, a)), MIN["fma_1056" SUBSEP sk], MEAN["fma_1056" SUBSEP sk]))
        ch = CHG[DIR["fma_1056" SUBSEP sk]]
        if (ch == 0)
            say(sprintf("  The power manager took no decision in that kernel (0 clock changes): its 100 ms epoch is %.0f times the kernel, so a per-SM power policy would give the same row. Hence the capped what-if below.", 1e8 / s))
        else
            say(sprintf("  The power manager changed clocks %s times in that kernel.", ch))
    }
    cp = "gigathread/gto/skewed-capped"; ps = "gigathread/gto/skewed-capped-per_sm"; fa = "freq_aware/gto/skewed-capped-per_sm"
    if (have("fma_1056", cp) && have("fma_1056", ps)) {
        c1 = t("fma_1056", cp); c2 = t("fma_1056", ps)
        say(sprintf("Power-capped what-if (300 W, 10 us epochs) at 1056 CTAs: one chip-wide clock %s against uncapped skewed silicon, mean power %.0f W, %s clock changes.",
            sp(pct(c1, s)), P["fma_1056" SUBSEP cp], CHG[DIR["fma_1056" SUBSEP cp]]))
        say(sprintf("  Per-SM power budgets (per_sm) instead: %s against the chip-wide clock; mean power %.0f W of the 300 W cap, slowest SM at %d MHz.",
            sp(pct(c2, c1)), P["fma_1056" SUBSEP ps], MIN["fma_1056" SUBSEP ps]))
        if (c2 > c1 && P["fma_1056" SUBSEP ps] < P["fma_1056" SUBSEP cp])
            say("  Each SM must stay inside its own 1/132 of the budget: a leaky SM clocks down while the budget that others leave unused cannot move to it, so the chip draws less and runs slower.")
    }
    # Closed-loop dispatch: freq_aware against GigaThread on the per-SM clocks, per grid.
    nm = split("1056 1057 2112", grids, " ")
    for (i = 1; i <= nm; i++) {
        tr = "fma_" grids[i]
        if (!have(tr, fa) || !have(tr, ps)) continue
        g = pct(t(tr, fa), t(tr, ps))
        verdict = (g < -0.5) ? "wins" : (g > 0.5) ? "loses" : "changes nothing (within 0.5 %)"
        say(sprintf("Closed-loop dispatch on those per-SM clocks, %s CTAs: the frequency-aware dispatcher %s (%s, %.1f against %.1f us).",
            grids[i], verdict, sp(g), t(tr, fa) / 1000, t(tr, ps) / 1000))
        if (g > -0.5 && g < 0.5 && PLACED[DIR[tr SUBSEP ps]] != "?" && PLACED[DIR[tr SUBSEP ps]] == PLACED[DIR[tr SUBSEP fa]])
            say("  Both placed the same number of CTAs on every SM.")
        else
            say(sprintf("  CTAs on the slower half of the SMs (mean clock below the median): %s with GigaThread, %s with freq_aware.",
                SLOWHALF[DIR[tr SUBSEP ps]], SLOWHALF[DIR[tr SUBSEP fa]]))
    }
}' "$OUT/sweep.csv"

# A figure and the reports: the per-SM clocks of the per-SM-capped point,
# the sweep's kernel times, and one HTML page for the sweep and that point.
PT=$(awk -F, 'NR > 1 && $2 == "fma_1056" && $3 == "gigathread/gto/skewed-capped-per_sm" { print $(NF - 1) }' "$OUT/sweep.csv")
if [ -n "$PT" ] && [ -f "$OUT/$PT/summary.json" ]; then
    # -c is the sweep's config: plot and report apply the point's own
    # overrides and seed from its point.json.
    "$BIN" plot die-mhz "$OUT/$PT" -c configs/h200.yaml -o "$OUT/die-mhz.svg"
    "$BIN" report "$OUT/$PT" -c configs/h200.yaml -o "$OUT/$PT/report.html" >/dev/null
fi
"$BIN" plot kernel-times "$OUT" -o "$OUT/kernel-times.svg"
"$BIN" report "$OUT" -c configs/h200.yaml -o "$OUT/report.html" >/dev/null
echo
echo "Figures: $OUT/die-mhz.svg (per-SM clocks, per-SM power budgets), $OUT/kernel-times.svg"
echo "Reports: $OUT/report.html (the sweep), $OUT/$PT/report.html (that point)"
echo "Per-point results: $OUT/points/<NNNN>-<trace>-<case>/; one row per point: $OUT/sweep.csv"
