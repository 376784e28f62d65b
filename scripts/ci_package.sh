#!/usr/bin/env bash
# CI: checks the Debian packages as a Debian maintainer would, without
# installing them on this machine (scripts/ci_install.sh installs and uses
# them):
#   - lintian: no error and no warning (the overrides each package ships say
#     why each one left is there)
#   - the control fields: a real Maintainer; gsort depends on no Open MPI,
#     suggests no -dev package, names no essential package unversioned
#   - the split: gsort the programs, man pages and completions; libgsort0
#     the shared library; libgsort-dev the headers, libgsort.a, the
#     libgsort.so link, CMake and pkg-config files; gsort-mpi the program
#     with the distributed driver
#   - libgsort0: the SONAME libgsort.so.0, its shlibs, libgsort-dev's
#     Depends on it; a hello-world compiled with pkg-config against the two
#     packages' files links libgsort.so.0, is small, and runs
#   - each package has its copyright (DEP-5) and changelog.Debian.gz
#   - gsort installs and runs where Open MPI is not installed: dpkg -i into
#     a scratch root whose package database is this machine's less Open MPI,
#     where the same dpkg refuses gsort-mpi; no libmpi in its ldd
# The packages are build-install/package/*.deb (`scripts/install.sh --deb`,
# which ci_install.sh ran, made them), made here when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
fail() { echo "FAIL: $*" >&2; exit 1; }
build=${INSTALL_BUILD_DIR:-build-install}

if ! command -v lintian >/dev/null; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq lintian >/dev/null
fi
if ! ls "$build"/package/gsort_*.deb >/dev/null 2>&1; then scripts/install.sh --package >/dev/null; fi
debs=("$build"/package/*.deb)
gsort_deb=$(ls "$build"/package/gsort_*.deb)
dev_deb=$(ls "$build"/package/libgsort-dev_*.deb)
lib_deb=$(ls "$build"/package/libgsort0_*.deb)
mpi_deb=$(ls "$build"/package/gsort-mpi_*.deb 2>/dev/null || true)

echo "== lintian"
# The tags: E error, W warning, I info; O an overridden one, after its
# reason (N). (--fail-on would count the overridden ones with --show-overrides.)
lintian --display-info --show-overrides "${debs[@]}" > "$build/package/lintian.log" 2>&1 \
  || fail "lintian failed: $(cat "$build/package/lintian.log")"
grep -v 'running with root privileges' "$build/package/lintian.log" || true
if grep -qE '^[EW]: ' "$build/package/lintian.log"; then fail "lintian found errors or warnings (E:, W: above)"; fi
echo "lintian: no errors, no warnings"

echo "== control fields"
for deb in "${debs[@]}"; do
  dpkg-deb --field "$deb" Package Version Architecture Section Depends Suggests Maintainer | sed 's/^/  /'
  maintainer=$(dpkg-deb --field "$deb" Maintainer)
  [ "$maintainer" = "gsort developers <gsort-dev@lists.gsort.dev>" ] || fail "$deb: Maintainer '$maintainer'"
done
depends=$(dpkg-deb --field "$gsort_deb" Depends)
[[ $depends == *libc6* ]] || fail "gsort's Depends '$depends' does not name libc6"
if grep -qiE 'mpi' <<< "$depends"; then fail "gsort depends on Open MPI: $depends"; fi
suggests=$(dpkg-deb --field "$gsort_deb" Suggests)
if grep -qE -- '-dev\b' <<< "$suggests"; then fail "gsort suggests -dev packages: $suggests"; fi
dev_depends=$(dpkg-deb --field "$dev_deb" Depends)
[[ $dev_depends == *"libgsort0 (= $(dpkg-deb --field "$lib_deb" Version))"* ]] \
  || fail "libgsort-dev's Depends '$dev_depends' lack libgsort0 (= its version)"
for lib in libboost-program-options-dev libboost-iostreams-dev libzstd-dev zlib1g-dev libbz2-dev liblzma-dev; do
  [[ $dev_depends == *"$lib"* ]] || fail "libgsort-dev does not depend on $lib (linking libgsort.a needs it)"
done
if [ -n "$mpi_deb" ]; then
  mpi_depends=$(dpkg-deb --field "$mpi_deb" Depends)
  [[ $mpi_depends == *"gsort (= $(dpkg-deb --field "$gsort_deb" Version))"* && $mpi_depends == *libopenmpi* ]] \
    || fail "gsort-mpi's Depends '$mpi_depends' lack gsort (= its version) or libopenmpi"
fi

echo "== contents"
contents() { dpkg-deb --contents "$1" | awk '{print $6}' | sed 's|^\./|/|'; }
expect_files() {  # DEB PATTERN...: every PATTERN (a grep -x regex) is a file of DEB
  local deb=$1 list
  shift
  list=$(contents "$deb")
  for pattern in "$@"; do grep -qx "$pattern" <<< "$list" || fail "$(basename "$deb") has no $pattern"; done
}
refuse_files() {  # DEB PATTERN: no file of DEB matches PATTERN (grep -E)
  if contents "$1" | grep -E "$2"; then fail "$(basename "$1") holds files that belong to another package"; fi
}
for deb in "${debs[@]}"; do
  package=$(dpkg-deb --field "$deb" Package)
  expect_files "$deb" "/usr/share/doc/$package/copyright" "/usr/share/doc/$package/changelog.Debian.gz"
  format=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/share/doc/$package/copyright" | sed -n 1p)
  [ "$format" = 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ] \
    || fail "$package's copyright is not DEP-5: $format"
done
expect_files "$gsort_deb" /usr/libexec/gsort/gsort /usr/bin/gsort-gen /usr/share/man/man1/gsort.1.gz \
  /usr/share/man/man1/gsort-gen.1.gz /usr/share/bash-completion/completions/gsort
refuse_files "$gsort_deb" '^/usr/(include|lib)/|gsort-mpi'
expect_files "$dev_deb" /usr/include/gsort/gsort.h '/usr/lib/[^/]*/libgsort.a' '/usr/lib/[^/]*/libgsort.so' \
  '/usr/lib/[^/]*/pkgconfig/gsort.pc' '/usr/lib/[^/]*/cmake/gsort/gsortConfig.cmake'
refuse_files "$dev_deb" '^/usr/(bin|libexec|share/man)/|libgsort\.so\.'
expect_files "$lib_deb" '/usr/lib/[^/]*/libgsort.so.0' '/usr/lib/[^/]*/libgsort.so.0.[0-9.]*'
refuse_files "$lib_deb" '^/usr/(bin|libexec|include|share/man)/|\.a$|libgsort\.so$'
if [ -n "$mpi_deb" ]; then
  expect_files "$mpi_deb" /usr/libexec/gsort/gsort-mpi
  refuse_files "$mpi_deb" '^/usr/(bin|include|lib)/|^/usr/libexec/gsort/gsort$'
fi
echo "each package holds its own files, its copyright and changelog.Debian.gz"

echo "== libgsort0, and a program linked with it"
root=$(mktemp -d "${TMPDIR:-/tmp}/gsort-package-root.XXXXXX")
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$lib_deb" "$root/tree"
dpkg-deb -x "$dev_deb" "$root/tree"
so=$(ls "$root"/tree/usr/lib/*/libgsort.so.0)
libdir=$(dirname "$so")
soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libgsort.so.0 ] || fail "libgsort.so.0's SONAME is '$soname'"
[ "$(readlink -f "$libdir/libgsort.so")" = "$(readlink -f "$so")" ] || fail "libgsort-dev's libgsort.so does not lead to libgsort.so.0"
shlibs=$(dpkg-deb --ctrl-tarfile "$lib_deb" | tar -xO ./shlibs)
[[ $shlibs == "libgsort 0 libgsort0 (>= "* ]] || fail "libgsort0's shlibs: '$shlibs'"
cat > "$root/hello.cpp" <<'CPP'
#include <gsort/gsort.h>
#include <cstdint>
#include <cstdio>
int main() {
  uint64_t keys[] = {3, 1, 2};
  gsort::Options o;
  o.record_size = 8;
  o.keys = {"0:u64"};
  gsort::sort_records(keys, 3, o);
  std::printf("%llu %llu %llu\n", (unsigned long long)keys[0], (unsigned long long)keys[1], (unsigned long long)keys[2]);
}
CPP
# The .pc names its prefix relative to itself: it serves the unpacked tree.
# shellcheck disable=SC2046
c++ -std=c++17 -O2 "$root/hello.cpp" -o "$root/hello" \
  $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs gsort) || fail "hello.cpp does not build against the packages"
readelf -d "$root/hello" | grep -q 'NEEDED.*\[libgsort\.so\.0\]' || fail "hello does not load libgsort.so.0"
size=$(stat -c %s "$root/hello")
[ "$size" -lt 1048576 ] || fail "hello is $size bytes: libgsort was linked into it"
[ "$(LD_LIBRARY_PATH=$libdir "$root/hello")" = "1 2 3" ] || fail "hello did not sort: $(LD_LIBRARY_PATH=$libdir "$root/hello" 2>&1)"
echo "libgsort.so.0 (SONAME $soname, shlibs '$shlibs'); hello links it, is $size bytes, and sorts"
rm -rf "$root"

echo "== dpkg -i gsort where Open MPI is not installed"
root=$(mktemp -d "${TMPDIR:-/tmp}/gsort-nompi-root.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/alternatives"
touch "$root/var/lib/dpkg/available"
# This machine's package database, less every Open MPI package.
awk 'BEGIN { RS = ""; ORS = "\n\n" } !/^Package: [^\n]*(openmpi|mpi-default)/' /var/lib/dpkg/status \
  > "$root/var/lib/dpkg/status"
# --force-script-chrootless: postinst's update-alternatives runs here with
# DPKG_ROOT set, so it acts inside the scratch root. (dpkg warns of every
# package without a file list there; those lines are left out.)
scratch_dpkg() { $sudo dpkg --root="$root" --force-script-chrootless "$@" 2>&1 | grep -v 'files list file for package'; }
scratch_dpkg -i "$gsort_deb" || fail "dpkg -i $(basename "$gsort_deb") failed without Open MPI"
[ "$(readlink "$root/usr/bin/gsort")" = /etc/alternatives/gsort ] && \
  [ "$(readlink "$root/etc/alternatives/gsort")" = /usr/libexec/gsort/gsort ] \
  || fail "postinst did not make /usr/bin/gsort the alternative /usr/libexec/gsort/gsort"
if ldd "$root/usr/libexec/gsort/gsort" | grep -i mpi; then fail "the installed gsort loads MPI"; fi
grep -qx 'MPI: no' <<<"$("$root/usr/libexec/gsort/gsort" --version)" || fail "the installed gsort does not say 'MPI: no'"
"$root/usr/bin/gsort-gen" --record-size 16 --key 0:u64 --records 10000 | "$root/usr/libexec/gsort/gsort" \
  --record-size 16 --key 0:u64 | "$root/usr/libexec/gsort/gsort" -c --record-size 16 --key 0:u64
echo "installed gsort without Open MPI; it sorts, and loads no libmpi"
if [ -n "$mpi_deb" ]; then
  if scratch_dpkg -i "$mpi_deb" > "$root/mpi.log"; then fail "dpkg -i gsort-mpi succeeded where Open MPI is missing"; fi
  grep -q 'depends on libopenmpi' "$root/mpi.log" || { cat "$root/mpi.log"; fail "gsort-mpi was refused, not for Open MPI"; }
  echo "(the same dpkg refuses gsort-mpi there: it depends on libopenmpi)"
fi
echo "ci_package: $(cd "$build/package" && echo *.deb) pass"
