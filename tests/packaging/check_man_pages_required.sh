#!/usr/bin/env bash
# check_man_pages_required.sh SOURCE_DIR CMAKE: where help2man cannot be
# found, configuring fails and says what to install (issue 32: the build
# went on without the man pages the README promises, and scripts/build.sh
# hid CMake's one line about it); -DGSORT_MAN_PAGES=OFF is the one way to
# build without them. cmake/man_pages.cmake is included by a project of its
# own, whose find_program sees no system path.
set -euo pipefail
source=$1 cmake=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.22)
project(man_pages_required NONE)
set(PROJECT_SOURCE_DIR "$source")
include("$source/cmake/man_pages.cmake")
CMAKE
no_system_paths=(-DCMAKE_FIND_USE_CMAKE_SYSTEM_PATH=OFF -DCMAKE_FIND_USE_SYSTEM_ENVIRONMENT_PATH=OFF)
# The generator's program is named, as it cannot be found either.
if command -v ninja > /dev/null; then
  no_system_paths+=(-G Ninja "-DCMAKE_MAKE_PROGRAM=$(command -v ninja)")
else
  no_system_paths+=(-G "Unix Makefiles" "-DCMAKE_MAKE_PROGRAM=$(command -v make)")
fi
if out=$("$cmake" -S "$work" -B "$work/build" "${no_system_paths[@]}" 2>&1); then
  echo "FAIL: configuring without help2man succeeded:" >&2; echo "$out" >&2; exit 1
fi
grep -q 'help2man not found' <<< "$out" && grep -q 'scripts/install_deps.sh' <<< "$out" \
  || { echo "FAIL: configuring without help2man failed without saying what to install:" >&2; echo "$out" >&2; exit 1; }
rm -rf "$work/build"
"$cmake" -S "$work" -B "$work/build" "${no_system_paths[@]}" -DGSORT_MAN_PAGES=OFF > /dev/null
echo "without help2man: the configuration fails and names help2man; -DGSORT_MAN_PAGES=OFF builds without man pages"
