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
# The study tool frees what it allocates, so under `make check
# SANITIZE=address` it runs with LeakSanitizer on, like skewsim.
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
if [ $QUICK = 1 ]; then
    SCRATCH=$(dirname "$BIN")/studies-quick
    rm -rf "$SCRATCH"
    mkdir -p "$SCRATCH/docs"
    cp "$DOCS/README.md" "$SCRATCH/docs/"
    # `maps -d DIR` under a regular file: the one line and exit status 3
    # (README.md, "Exit status"), before anything is written
    : >"$SCRATCH/file"
    ST=0
    MSG=$("$TOOL" maps "$1" --quick -d "$SCRATCH/file/docs" 2>&1) || ST=$?
    WANT="study: $SCRATCH/file/docs/$1: cannot create directory: Not a directory"
    if [ "$ST" != 3 ] || [ "$MSG" != "$WANT" ]; then
        printf 'study maps -d under a file: status %s, said:\n%s\nexpected status 3 and:\n%s\n' \
            "$ST" "$MSG" "$WANT" >&2
        exit 1
    fi
fi
for NAME in "$@"; do
    D=$DOCS/$NAME
    START=$(date +%s)
    if [ $QUICK = 1 ]; then
        # The quick run reads the committed inputs; it regenerates them into
        # the scratch folder and fails if they differ (a model change makes
        # them stale), instead of rewriting the source tree.
        # (GEN does not exist yet: maps makes it, as `-d DIR` promises)
        GEN=$SCRATCH/gen
        "$TOOL" maps "$NAME" --quick -d "$GEN"
        for F in $(cd "$GEN/$NAME" && find . -type f | sort); do
            # (a generated spec names its maps under the folder it was written to)
            sed "s#$GEN/#$DOCS/#g" "$GEN/$NAME/$F" | cmp -s - "$D/$F" || {
                echo "study $NAME: $D/${F#./} is stale: the model now generates other inputs (run make study-$NAME and commit)" >&2
                exit 1
            }
        done
        OUT=$SCRATCH/run/$NAME
        mkdir -p "$SCRATCH/run"
        mkdir -p "$SCRATCH/docs/$NAME"
        cp "$D/README.md" "$SCRATCH/docs/$NAME/"
        "$BIN" sweep "$D/spec-quick.yaml" -o "$OUT" -j "$JOBS" >/dev/null 2>"$SCRATCH/sweep-$NAME.err" ||
            { cat "$SCRATCH/sweep-$NAME.err" >&2; exit 1; }
        "$TOOL" report "$NAME" "$OUT" -d "$SCRATCH/docs" >/dev/null
        for F in results.md figure.svg claims.tsv; do
            test -s "$SCRATCH/docs/$NAME/$F" || { echo "study $NAME: no $F" >&2; exit 1; }
        done
        # whole words only: "tenant" holds "nan"
        if grep -Eqiw '[-+]?(nan|inf|infinity)' "$SCRATCH/docs/$NAME/results.md"; then
            echo "study $NAME: a number that is not finite in results.md" >&2; exit 1
        fi
        grep -q '^| ' "$SCRATCH/docs/$NAME/results.md" || { echo "study $NAME: empty table" >&2; exit 1; }
        # every figure renders (rsvg-convert, as tests/test_plot.c renders
        # every figure) and every series in its legend has data (plot_lines()
        # marks an empty one "(no data)" and refuses a chart without any)
        for SVG in "$SCRATCH/docs/$NAME"/figure*.svg; do
            PNG=$SCRATCH/$NAME-$(basename "$SVG" .svg).png
            rsvg-convert -o "$PNG" "$SVG" || { echo "study $NAME: $SVG does not render" >&2; exit 1; }
            test -s "$PNG" || { echo "study $NAME: $SVG renders empty" >&2; exit 1; }
            if grep -q '(no data)' "$SVG"; then
                echo "study $NAME: a series of $SVG has no data" >&2; exit 1
            fi
        done
        # the same run gives the same bytes
        rm -rf "$SCRATCH/first" && cp -r "$SCRATCH/docs/$NAME" "$SCRATCH/first"
        "$TOOL" report "$NAME" "$OUT" -d "$SCRATCH/docs" >/dev/null
        diff -r "$SCRATCH/first" "$SCRATCH/docs/$NAME" >/dev/null ||
            { echo "study $NAME: a second report differs from the first" >&2; exit 1; }
        echo "study $NAME (quick): ok, $(( $(date +%s) - START )) s"
    else
        "$TOOL" maps "$NAME"
        mkdir -p build/studies
        "$BIN" sweep "$D/spec.yaml" -o "build/studies/$NAME" -j "$JOBS" >/dev/null
        "$TOOL" report "$NAME" "build/studies/$NAME"
        echo "study $NAME: $(( $(date +%s) - START )) s on $JOBS jobs"
    fi
done
if [ $QUICK = 1 ]; then
    "$TOOL" index -d "$SCRATCH/docs"
else
    "$TOOL" index
fi
