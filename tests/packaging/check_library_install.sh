#!/usr/bin/env bash
# check_library_install.sh PREFIX_OR_BUILD CMAKE [--installed]: builds the
# examples/ programs against an installed gsort, with CMake's
# find_package(gsort) and with pkg-config, and runs them on sample data;
# then the example in the comments of each installed header (its indented
# lines, in a main()), built with pkg-config and run.
# Given a (test) build folder, `cmake --install`s it into an empty prefix
# first; with --installed, PREFIX_OR_BUILD is the prefix (/usr after dpkg -i).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cmake=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "${3:-}" = --installed ]; then
  prefix=$1
else
  prefix=$work/prefix
  GSORT_INSTALL_TEST_BUILD=1 "$cmake" --install "$1" --prefix "$prefix" >/dev/null
fi
# The library is in lib/, or lib/<multiarch> (the installed build, the .deb).
libdir=$prefix/lib
for archive in "$prefix"/lib/*/libgsort.a; do
  if [ -f "$archive" ]; then libdir=$(dirname "$archive"); fi
done
for f in include/gsort/gsort.h include/gsort/errors.h "${libdir#"$prefix"/}"/libgsort.a \
         "${libdir#"$prefix"/}"/cmake/gsort/gsortConfig.cmake "${libdir#"$prefix"/}"/pkgconfig/gsort.pc; do
  [ -s "$prefix/$f" ] || { echo "FAIL: $prefix/$f is missing" >&2; exit 1; }
done
# Nothing internal leaks into the installed headers: they include only the
# standard library and each other.
if grep -hE '^[[:space:]]*#[[:space:]]*include' "$prefix"/include/gsort/*.h | grep -vE '<(cstdint|cstddef|string|vector|stdexcept)>|"gsort/'; then
  echo "FAIL: an installed header includes something beyond the standard library" >&2; exit 1
fi

echo "== find_package(gsort)"
"$cmake" -S "$root/examples" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
"$cmake" --build "$work/build" >/dev/null
head -c 1600000 /dev/urandom > "$work/in.bin"  # 100000 records of 16 bytes
"$work/build/sort_file" "$work/in.bin" "$work/out.bin"
gsort=$prefix/bin/gsort
[ -x "$gsort" ] || gsort=$(command -v gsort)
"$gsort" -c --record-size 16 --key 0:u64 "$work/out.bin"
cmp <("$gsort" --record-size 16 --key 0:u64 "$work/in.bin") "$work/out.bin"
"$work/build/sort_in_memory"

echo "== pkg-config gsort"
if command -v pkg-config >/dev/null; then
  flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs gsort)
  c++ -std=c++17 -O1 "$root/examples/sort_file.cpp" -o "$work/sort_file_pc" $flags
  "$work/sort_file_pc" "$work/in.bin" "$work/out2.bin"
  cmp "$work/out.bin" "$work/out2.bin"

  # A header's example is its comment lines indented by three spaces
  # ("//   code"), run in that order in main(), in a directory with in.bin.
  for header in "$prefix"/include/gsort/*.h; do
    name=$(basename "$header" .h)
    sed -n 's|^//   ||p' "$header" > "$work/$name.example"
    [ -s "$work/$name.example" ] || continue
    {
      grep '^#include' "$work/$name.example"
      echo 'int main() {'
      grep -v '^#include' "$work/$name.example"
      echo '  return 0;'
      echo '}'
    } > "$work/$name-example.cpp"
    c++ -std=c++17 -O1 -Wall -Werror -Wno-unused-variable "$work/$name-example.cpp" -o "$work/$name-example" $flags \
      || { cat -n "$work/$name-example.cpp" >&2; echo "FAIL: the example of $header does not build" >&2; exit 1; }
    (cd "$work" && "./$name-example" && cmp <("$gsort" --record-size 16 --key 0:u64 in.bin) out.bin) \
      || { echo "FAIL: the example of $header did not sort in.bin into out.bin" >&2; exit 1; }
    echo "the example of include/gsort/$name.h builds and runs"
  done
else
  echo "pkg-config not installed: skipped"
fi
echo "check_library_install: the examples built and ran against $prefix"
