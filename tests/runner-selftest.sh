#!/bin/sh
# runner-selftest.sh CHECKBIN: the test runner's own check (tests/check_main.c).
# A suite that fails, or a worker that dies, must fail the whole run, in
# parallel and alone; a bad SKEWSIM_TEST_JOBS is a one-line error.
B=${1:?usage: runner-selftest.sh CHECKBIN}
out=$(mktemp); trap 'rm -f "$out"' EXIT
bad=0
expect() { # expect RC PATTERN ENV... : run with ENV, want exit RC and PATTERN in the output
  rc=$1 pat=$2; shift 2
  env "$@" "$B" >"$out" 2>&1; got=$?
  if [ "$got" != "$rc" ] || ! grep -q -- "$pat" "$out"; then
    echo "runner-selftest: $* gave exit $got (want $rc) without '$pat':" >&2; sed 's/^/  /' "$out" >&2; bad=1
  fi
}
expect 0 'All suites: Checks: 1, Failures: 0, 0 suite(s) missing (1 runner(s))' SKEWSIM_TEST_INJECT=pass SKEWSIM_TEST_JOBS=2
expect 1 'injected failure' SKEWSIM_TEST_INJECT=fail SKEWSIM_TEST_JOBS=2
expect 1 'All suites: Checks: 1, Failures: 1' SKEWSIM_TEST_INJECT=fail SKEWSIM_TEST_JOBS=2
expect 1 'injected failure' SKEWSIM_TEST_INJECT=fail SKEWSIM_TEST_JOBS=1
expect 1 'suite 0 (inject) did not report: its worker died' SKEWSIM_TEST_INJECT=die SKEWSIM_TEST_JOBS=2
expect 1 'suite 0 (inject) did not report: its worker died' SKEWSIM_TEST_INJECT=die SKEWSIM_TEST_JOBS=2 CK_FORK=no
expect 1 'injected failure' SKEWSIM_TEST_INJECT=fail SKEWSIM_TEST_JOBS=2 CK_FORK=no
# more runners than suites: as many as there are suites; a Check log file:
# one runner (the plain report, no 'All suites' line)
expect 0 '(1 runner(s))' SKEWSIM_TEST_INJECT=pass SKEWSIM_TEST_JOBS=1024
expect 0 '100%: Checks: 1, Failures: 0' SKEWSIM_TEST_INJECT=pass SKEWSIM_TEST_JOBS=2 CK_LOG_FILE_NAME=/dev/null
if grep -q 'All suites' "$out"; then
  echo "runner-selftest: with CK_LOG_FILE_NAME set the suites still ran in parallel:" >&2; sed 's/^/  /' "$out" >&2; bad=1
fi
expect 2 "SKEWSIM_TEST_JOBS: bad value '0': expected a whole number 1-1024" SKEWSIM_TEST_JOBS=0
expect 2 "SKEWSIM_TEST_JOBS: bad value '2x': expected a whole number 1-1024" SKEWSIM_TEST_JOBS=2x
expect 2 "SKEWSIM_TEST_JOBS: bad value '1025': expected a whole number 1-1024" SKEWSIM_TEST_JOBS=1025
expect 2 "SKEWSIM_TEST_INJECT: bad value 'x': expected fail, die or pass" SKEWSIM_TEST_INJECT=x
[ $bad = 0 ] && echo "runner-selftest: ok"
exit $bad
