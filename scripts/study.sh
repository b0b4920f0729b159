#!/bin/sh
# scripts/study.sh -- rerun the studies of docs/experiments/ (README.md there).
#
#   sh scripts/study.sh BIN STUDY NAME...      full runs: maps, sweep into
#                                              build/studies/NAME, report into
#                                              docs/experiments/NAME, then the index
#   sh scripts/study.sh -q BIN STUDY NAME...   the cut-down spec-quick.yaml of each,
#                                              into a scratch copy of the docs
#                                              (make check): exits non-zero if any
#                                              step fails or leaves no table
#
# STUDY_JOBS (default 2) points run at once.  A long study can run on a
# cluster instead: docs/sweeps.md, "Clusters" (--shard K/N, then --collect),
# then `STUDY report NAME DIR`.
set -eu
QUICK=0
if [ "${1:-}" = -q ]; then QUICK=1; shift; fi
BIN=${1:?usage: study.sh [-q] BIN STUDY NAME...}
TOOL=${2:?usage: study.sh [-q] BIN STUDY NAME...}
shift 2
JOBS=${STUDY_JOBS:-2}
DOCS=docs/experiments
# The study tool (tools/study) is a one-shot report writer that leaves its
# tables to the process exit; under `make check SANITIZE=address` its
# LeakSanitizer report would fail the run for that alone.  Leak checking is
# off for the tool only (ASan's memory-error checks and UBSan stay on, and
# skewsim itself keeps full leak checking).  Freeing them is a known debt.
TOOL_ENV="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
if [ $QUICK = 1 ]; then
    SCRATCH=$(dirname "$BIN")/studies-quick
    rm -rf "$SCRATCH"
    mkdir -p "$SCRATCH/docs"
    cp "$DOCS/README.md" "$SCRATCH/docs/"
fi
for NAME in "$@"; do
    D=$DOCS/$NAME
    START=$(date +%s)
    if [ $QUICK = 1 ]; then
        env "$TOOL_ENV" "$TOOL" maps "$NAME" --quick
        OUT=$SCRATCH/run/$NAME
        mkdir -p "$SCRATCH/run"
        mkdir -p "$SCRATCH/docs/$NAME"
        cp "$D/README.md" "$SCRATCH/docs/$NAME/"
        "$BIN" sweep "$D/spec-quick.yaml" -o "$OUT" -j "$JOBS" >/dev/null 2>"$SCRATCH/sweep-$NAME.err" ||
            { cat "$SCRATCH/sweep-$NAME.err" >&2; exit 1; }
        env "$TOOL_ENV" "$TOOL" report "$NAME" "$OUT" -d "$SCRATCH/docs" >/dev/null
        for F in results.md figure.svg claims.tsv; do
            test -s "$SCRATCH/docs/$NAME/$F" || { echo "study $NAME: no $F" >&2; exit 1; }
        done
        if grep -Eqi 'nan|inf' "$SCRATCH/docs/$NAME/results.md"; then
            echo "study $NAME: a number that is not finite in results.md" >&2; exit 1
        fi
        grep -q '^| ' "$SCRATCH/docs/$NAME/results.md" || { echo "study $NAME: empty table" >&2; exit 1; }
        # the same run gives the same bytes
        cp "$SCRATCH/docs/$NAME/results.md" "$SCRATCH/results-1.md"
        cp "$SCRATCH/docs/$NAME/figure.svg" "$SCRATCH/figure-1.svg"
        env "$TOOL_ENV" "$TOOL" report "$NAME" "$OUT" -d "$SCRATCH/docs" >/dev/null
        cmp -s "$SCRATCH/results-1.md" "$SCRATCH/docs/$NAME/results.md" &&
            cmp -s "$SCRATCH/figure-1.svg" "$SCRATCH/docs/$NAME/figure.svg" ||
            { echo "study $NAME: a second report differs from the first" >&2; exit 1; }
        echo "study $NAME (quick): ok, $(( $(date +%s) - START )) s"
    else
        env "$TOOL_ENV" "$TOOL" maps "$NAME"
        mkdir -p build/studies
        "$BIN" sweep "$D/spec.yaml" -o "build/studies/$NAME" -j "$JOBS" >/dev/null
        env "$TOOL_ENV" "$TOOL" report "$NAME" "build/studies/$NAME"
        echo "study $NAME: $(( $(date +%s) - START )) s on $JOBS jobs"
    fi
done
if [ $QUICK = 1 ]; then
    env "$TOOL_ENV" "$TOOL" index -d "$SCRATCH/docs"
else
    env "$TOOL_ENV" "$TOOL" index
fi
