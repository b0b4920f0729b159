#!/bin/sh
# The fuzzing toolchain: clang-14 with its libFuzzer runtime (Debian
# packages clang-14 and libclang-rt-14-dev).  Like scripts/deps.sh: when it
# is missing and we are root with apt-get, install it; otherwise print the
# command to run and fail.
CC=${1:-clang-14}
PKGS="clang-14 libclang-rt-14-dev"
probe() {
    command -v "$CC" >/dev/null 2>&1 || return 1
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' |
        "$CC" -x c -fsanitize=fuzzer,address,undefined - -o /dev/null >/dev/null 2>&1
}
probe && exit 0
echo "skewsim: $CC with libFuzzer (-fsanitize=fuzzer) is missing" >&2
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "skewsim: installing $PKGS with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update -qq && apt-get install -y -qq $PKGS >/dev/null && probe; then
        exit 0
    fi
    echo "skewsim: apt-get install failed; run: apt-get install $PKGS" >&2
    exit 1
fi
echo "skewsim: install it with: sudo apt-get install $PKGS" >&2
exit 1
