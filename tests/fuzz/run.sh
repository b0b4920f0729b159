#!/bin/sh
# run.sh BUILD SECONDS TARGET... -- run each libFuzzer target for SECONDS,
# all at once (one process per target), on its seed corpus and its kept
# crashes.  New inputs go to BUILD/corpus/TARGET (not the source tree); a
# crash leaves BUILD/crash-TARGET-* and fails the run: fix the bug, then
# copy the input to tests/fuzz/regressions/TARGET/ so `make check` replays
# it for ever.  Each target's log is BUILD/fuzz-TARGET.log.
set -u
build=$1 secs=$2
shift 2
dir=$(dirname "$0")
pids=""
for t in "$@"; do
    mkdir -p "$build/corpus/$t" "$dir/corpus/$t" "$dir/regressions/$t"
    dict=""
    [ -f "$dir/$t.dict" ] && dict="-dict=$dir/$t.dict"
    "$build/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$build/crash-$t-" $dict \
        "$build/corpus/$t" "$dir/corpus/$t" "$dir/regressions/$t" >"$build/fuzz-$t.log" 2>&1 &
    pids="$pids $!"
done
status=0
for p in $pids; do
    t=$1
    shift
    if wait "$p"; then
        verdict=ok
    else
        verdict="FAILED (see $build/fuzz-$t.log and $build/crash-$t-*)"
        status=1
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/fuzz-$t.log")
    cov=$(grep -o 'cov: [0-9]*' "$build/fuzz-$t.log" | tail -1)
    units=$(ls "$build/corpus/$t" | wc -l)
    echo "fuzz_$t: ${execs:-?} executions in ${secs}s, $cov, $units corpus inputs: $verdict"
done
exit $status
