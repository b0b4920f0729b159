#!/bin/sh
# Find skewsim's five libraries with pkg-config.  When some are missing:
# running as root with apt-get, install the Debian packages; otherwise print
# the exact command to run and fail.
PKGS="libyaml-dev libgsl-dev check zlib1g-dev libjansson-dev pkg-config"
missing=""
if ! command -v "${PKG_CONFIG:-pkg-config}" >/dev/null 2>&1; then
    missing="pkg-config"
else
    for m in yaml-0.1 gsl zlib jansson check; do
        "${PKG_CONFIG:-pkg-config}" --exists "$m" || missing="$missing $m"
    done
fi
[ -z "$missing" ] && exit 0
echo "skewsim: missing:$missing" >&2
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "skewsim: installing $PKGS with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq $PKGS >/dev/null || {
        echo "skewsim: apt-get install failed; run: apt-get install $PKGS" >&2
        exit 1
    }
    exit 0
fi
echo "skewsim: install them with: sudo apt-get install $PKGS" >&2
exit 1
