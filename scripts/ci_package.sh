#!/usr/bin/env bash
# CI: builds gsort's .deb, installs it into this machine with dpkg -i, uses
# what it installed (gsort on sample data from gsort-gen, checked with
# gsort -c, and on its .gz and .xz; the man page; bash completion of
# `gsort --ke`; the examples/ programs built against the installed
# library), and removes it.
# Needs root (or sudo). Reuses build/ when scripts/test.sh made it; otherwise
# builds only the programs (no tests, no benchmarks, no CUDA) in
# build-package/. PACKAGE_BUILD_DIR=... picks another folder.
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

scripts/install_deps.sh
# What packaging needs beyond the build: man page generation, the .deb's
# dependencies (dpkg-shlibdeps), and what the checks below use.
extra=()
for p in help2man dpkg-dev man-db bash-completion pkg-config; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || extra+=("$p")
done
if [ ${#extra[@]} -gt 0 ]; then
  echo "installing: ${extra[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${extra[@]}" >/dev/null
fi

build=${PACKAGE_BUILD_DIR:-}
if [ -z "$build" ]; then
  if [ -f build/CMakeCache.txt ]; then build=build; else build=build-package; fi
fi
# An existing folder is configured again, to find help2man and dpkg-shlibdeps
# if they were installed after it was made; scripts/build.sh configures a
# new one (with ccache where installed).
if [ -f "$build/CMakeCache.txt" ]; then cmake -S . -B "$build" >/dev/null; fi
BUILD_DIR=$build scripts/build.sh -DGSORT_ENABLE_CUDA=OFF -DGSORT_BUILD_TESTS=OFF -DGSORT_BUILD_BENCHMARKS=OFF
rm -rf "$build/package"
(cd "$build" && cpack -G DEB -B package >/dev/null)
deb=$(ls "$build"/package/gsort_*.deb)
echo "== built $deb"
dpkg-deb --field "$deb" Package Version Architecture Section Depends Maintainer

depends=$(dpkg-deb --field "$deb" Depends)
[[ $depends == *libc6* ]] || { echo "FAIL: Depends '$depends' does not name libc6" >&2; exit 1; }

if dpkg-query -W gsort >/dev/null 2>&1; then
  echo "FAIL: a gsort package is already installed; not replacing it" >&2
  exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gsort-package.XXXXXX")
# man-db's dpkg trigger rebuilds the whole man index on every install and
# removal (~40 s each here); `man -w` and `man` do not need the index, so
# the trigger is switched off while this script runs, and back on after.
man_db_flag=/var/lib/man-db/auto-update
man_db_paused=no
if [ -e "$man_db_flag" ]; then $sudo rm -f "$man_db_flag"; man_db_paused=yes; fi
cleanup() {
  rm -rf "$work"
  if dpkg-query -W gsort >/dev/null 2>&1; then $sudo dpkg -r gsort >/dev/null 2>&1; fi
  if [ "$man_db_paused" = yes ]; then $sudo touch "$man_db_flag"; fi
}
trap cleanup EXIT
# --path-include: install the man page even where the image's dpkg
# configuration leaves out /usr/share/man (Docker's slim images do).
$sudo dpkg -i --path-include='/usr/share/man/man1/gsort*' "$deb" 2>&1 | grep -v "^Not building database" || true
echo "== dpkg -L gsort"
dpkg -L gsort

echo "== the installed programs"
[ "$(command -v gsort)" = /usr/bin/gsort ] || { echo "FAIL: gsort is $(command -v gsort)" >&2; exit 1; }
/usr/bin/gsort --version
version=$(dpkg-query -W -f='${Version}' gsort)
/usr/bin/gsort --version | head -1 | grep -qx "gsort $version" \
  || { echo "FAIL: gsort --version does not say $version" >&2; exit 1; }
/usr/bin/gsort-gen --format gensort --ascii --records 200000 --seed 14 -o "$work/sample.bin"
/usr/bin/gsort --format gensort "$work/sample.bin" -o "$work/sorted.bin"
/usr/bin/gsort -c --format gensort "$work/sorted.bin"
# The same lines (ASCII records end in \r\n), in another order.
cmp <(LC_ALL=C sort "$work/sample.bin") <(LC_ALL=C sort "$work/sorted.bin") >/dev/null \
  || { echo "FAIL: sorted.bin does not hold the records of sample.bin" >&2; exit 1; }
echo "sorted 200000 gensort records (ASCII) with /usr/bin/gsort; gsort -c: sorted"
# Compressed data (issue 14): .gz and .xz inputs as the tools write them,
# recognised by their magic, and .xz and .gz outputs the tools read back.
gzip -c "$work/sample.bin" >"$work/sample.gz"
xz -T0 -c "$work/sample.bin" >"$work/sample.xz"
/usr/bin/gsort --format gensort "$work/sample.gz" -o "$work/sorted.xz"
/usr/bin/gsort --format gensort "$work/sample.xz" -o "$work/sorted.gz"
cmp <(xz -dc "$work/sorted.xz") "$work/sorted.bin" && cmp <(gzip -dc "$work/sorted.gz") "$work/sorted.bin" \
  || { echo "FAIL: sorting sample.gz and sample.xz did not give sorted.bin" >&2; exit 1; }
echo "sorted sample.gz into sorted.xz and sample.xz into sorted.gz; both decompress to sorted.bin"

echo "== man -w gsort"
man -w gsort | grep -qx /usr/share/man/man1/gsort.1 || { echo "FAIL: man -w gsort: $(man -w gsort 2>&1)" >&2; exit 1; }
man -w gsort
man gsort 2>/dev/null | grep -q -- '--record-size' || { echo "FAIL: man gsort shows no --record-size" >&2; exit 1; }

echo "== bash: gsort --ke<TAB>"
completed=$(bash tests/packaging/bash_complete.sh --installed "gsort --ke")
[ "$completed" = "--key" ] || { echo "FAIL: 'gsort --ke<TAB>' gave '$completed'" >&2; exit 1; }
echo "$completed"

echo "== the library: examples/ against /usr (find_package(gsort), pkg-config)"
bash tests/packaging/check_library_install.sh /usr cmake --installed

$sudo dpkg -r gsort >/dev/null 2>&1
[ ! -e /usr/bin/gsort ] || { echo "FAIL: /usr/bin/gsort is still there after dpkg -r" >&2; exit 1; }
echo "ci_package: built, installed, used and removed $(basename "$deb")"
