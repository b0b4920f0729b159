#!/bin/sh
# The programs `make check` needs besides the libraries (scripts/deps.sh):
# rsvg-convert (Debian librsvg2-bin) renders every figure to PNG, and
# headless Chromium (Debian chromium) loads the HTML report, in
# tests/test_plot.c.  When one is missing: running as root with apt-get,
# install its Debian package; otherwise print the exact command and fail.
# A test that cannot find its program fails rather than skips.
PKGS=""
command -v rsvg-convert >/dev/null 2>&1 || PKGS="$PKGS librsvg2-bin"
command -v chromium >/dev/null 2>&1 || PKGS="$PKGS chromium"
[ -z "$PKGS" ] && exit 0
echo "skewsim: missing for the tests:$PKGS" >&2
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "skewsim: installing$PKGS with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -qq $PKGS >/dev/null 2>&1 ||
      { apt-get update -qq && apt-get install -y -qq $PKGS >/dev/null; }; } || {
        echo "skewsim: apt-get install failed; run: apt-get install$PKGS" >&2
        exit 1
    }
    exit 0
fi
echo "skewsim: install them with: sudo apt-get install$PKGS" >&2
exit 1
