#!/usr/bin/env bash
# Fails when a non-test source file has more than 400 lines, or a function
# more than 80, in src/, io/, kernels/ and include/. A function that is a
# table (an options list, a lookup) may go over when the line just before
# it says "// size-check: table". Needs universal-ctags (scripts/install_deps.sh).
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
max_file=400 max_function=80
dirs=(src io kernels include)
status=0
while read -r lines path; do
  echo "check_sizes: $path has $lines lines (at most $max_file)" >&2
  status=1
done < <(find "${dirs[@]}" -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) -print0 |
         xargs -0 wc -l | awk -v max=$max_file '$2 != "total" && $1 > max')
while read -r end start name path; do
  lines=$((end - start + 1))
  [ "$lines" -gt "$max_function" ] || continue
  if [ "$start" -gt 1 ] && sed -n "$((start - 1))p" "$path" | grep -q "size-check: table"; then continue; fi
  echo "check_sizes: $path:$start: $name has $lines lines (at most $max_function)" >&2
  status=1
done < <(ctags -x --_xformat='%{end} %n %N %F' --kinds-c++=f --fields=+ne --language-force=c++ -R "${dirs[@]}")
exit $status
