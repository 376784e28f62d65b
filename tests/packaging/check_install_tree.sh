#!/usr/bin/env bash
# check_install_tree.sh BUILD_DIR CMAKE: `cmake --install` into an empty
# prefix puts every file where cmake/install.cmake says, bin/gsort names
# the program (gsort-mpi where MPI is built), and the installed gsort runs.
# BUILD_DIR is the test build: it must refuse a plain `cmake --install` and
# `cpack` (issue 32: the one-architecture test build was what got
# installed), and installs into the scratch prefix with
# GSORT_INSTALL_TEST_BUILD=1.
set -euo pipefail
build=$1 cmake=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

if out=$(cd "$prefix" && "$cmake" --install "$build" --prefix "$prefix/refused" 2>&1); then
  fail "cmake --install of the test build $build succeeded"
fi
# (CMake wraps its messages: the lines are joined first.)
tr -s '\n ' '  ' <<< "$out" | grep -q 'is not a build to install.*scripts/install.sh' || fail "cmake --install said: $out"
[ ! -e "$prefix/refused" ] || fail "the refused install wrote $(cd "$prefix/refused" && find . | head -3)"
if out=$(cd "$build" && cpack -G DEB -B "$prefix/cpack" 2>&1); then
  fail "cpack in the test build $build made a package"
fi
tr -s '\n ' '  ' <<< "$out" | grep -q 'makes no packages.*scripts/install.sh --package' || fail "cpack said: $out"
rm -rf "$prefix/cpack"
rmdir "$prefix/refused" 2>/dev/null || true

GSORT_INSTALL_TEST_BUILD=1 "$cmake" --install "$build" --prefix "$prefix" >/dev/null
expected=(bin/gsort libexec/gsort/gsort bin/gsort-gen
          share/bash-completion/completions/gsort share/zsh/vendor-completions/_gsort
          share/fish/vendor_completions.d/gsort.fish
          share/doc/gsort/README.md share/doc/gsort/LICENSE share/doc/gsort/CHANGELOG.md
          share/man/man1/gsort.1.gz share/man/man1/gsort-gen.1.gz)
program=gsort
if [ -x "$build/gsort-mpi" ]; then
  expected+=(libexec/gsort/gsort-mpi)
  program=gsort-mpi
fi
missing=0
for f in "${expected[@]}"; do
  [ -s "$prefix/$f" ] || { echo "missing after install: $f" >&2; missing=1; }
done
[ "$missing" -eq 0 ]
[ "$(readlink "$prefix/bin/gsort")" = "../libexec/gsort/$program" ] \
  || fail "bin/gsort -> $(readlink "$prefix/bin/gsort"), not ../libexec/gsort/$program"
# The packages' Debian files are cpack's alone.
[ ! -e "$prefix/share/doc/gsort/copyright" ] && [ ! -e "$prefix/share/lintian" ] \
  || fail "cmake --install put the packages' Debian files in place"
grep -q '^gsort [0-9]' <<<"$("$prefix/bin/gsort" --version)"
gzip -t "$prefix"/share/man/man1/*.gz
echo "installed: $(cd "$prefix" && find . \( -type f -o -type l \) | sort | tr '\n' ' ')"
