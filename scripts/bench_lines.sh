#!/usr/bin/env bash
# Issue 31's text-line benchmarks: gsort beside `LC_ALL=C sort --parallel=$(nproc)`
# with the same -S, each case timed 3 times (medians), outputs compared byte for
# byte, and cp of the same file as the floor.
#
#   scripts/bench_lines.sh [--gsort PATH] [--size MB] [--dir DIR] [--memory SIZE] [--csv FILE] [-- GSORT_ARGS...]
#
# Data (generated once into DIR, by awk, the same bytes from the same seed):
#   logs.txt   log-like lines: a timestamp, a level, a few fields, 20 to 300 bytes
#   data.csv   CSV lines: id, a word of few values, a number, a decimal
#   gensort.txt  gensort's ASCII records (gsort-gen --ascii), sorted as lines
# Cases: logs whole lines; data.csv -t, -k3,3n; data.csv -t, -k2,2 -k1,1n;
# gensort.txt whole lines.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench_csv.sh
gsort=build/gsort size_mb=2000 dir=${TMPDIR:-/tmp}/gsort-bench-lines memory=50% csv=""
extra=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --gsort) gsort=$2; shift 2 ;;
    --size) size_mb=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -n $csv ]] && bench_csv_open "$csv"
mkdir -p "$dir"
bytes=$((size_mb * 1000000))

make_logs() {
  awk -v bytes="$bytes" 'BEGIN { srand(31); split("INFO WARN ERROR DEBUG", lv, " ");
    while (n < bytes) {
      line = sprintf("2024-03-%02d %02d:%02d:%02d.%03d %s user=%d took=%dms ", 1 + int(rand() * 28), int(rand() * 24),
                     int(rand() * 60), int(rand() * 60), int(rand() * 1000), lv[1 + int(rand() * 4)],
                     int(rand() * 5000), int(rand() * 100000));
      pad = int(rand() * 240); s = ""; for (i = 0; i < pad; i += 10) s = s "abcdefghij"; line = line substr(s, 1, pad);
      print line; n += length(line) + 1 } }' >"$dir/logs.txt"
}

make_csv() {
  awk -v bytes="$bytes" 'BEGIN { srand(32); split("alpha beta gamma delta epsilon zeta eta theta", w, " ");
    while (n < bytes) {
      line = sprintf("%d,%s,%d,%.3f", int(rand() * 1e9), w[1 + int(rand() * 8)], int(rand() * 2e6) - 1e6, rand() * 1000);
      print line; n += length(line) + 1 } }' >"$dir/data.csv"
}

[[ -s $dir/logs.txt ]] || make_logs
[[ -s $dir/data.csv ]] || make_csv
if [[ ! -s $dir/gensort.txt ]]; then
  "$(dirname "$gsort")/gsort-gen" --format gensort --ascii --records $((bytes / 100)) -o "$dir/gensort.txt"
fi

run_case() {
  local name=$1 file=$2; shift 2
  local t0 t1 g=() s=() c=() i
  for i in 1 2 3; do
    t0=$(now); cp "$file" "$dir/cp.out"; t1=$(now); c+=("$(echo "$t1 - $t0" | bc)")
    t0=$(now); LC_ALL=C sort --parallel="$(nproc)" -S "$memory" -T "$dir" "$@" "$file" -o "$dir/gnu.out"; t1=$(now)
    s+=("$(echo "$t1 - $t0" | bc)"); bench_csv_row "$name" "$i" "${s[-1]}" "$(stat -c %s "$file")" sort "$@"
    t0=$(now); "$gsort" -S "$memory" -T "$dir" "${extra[@]}" "$@" "$file" -o "$dir/gsort.out"; t1=$(now)
    g+=("$(echo "$t1 - $t0" | bc)"); bench_csv_row "$name" "$i" "${g[-1]}" "$(stat -c %s "$file")" "$gsort" "${extra[@]}" "$@"
    cmp -s "$dir/gnu.out" "$dir/gsort.out" || { echo "$name: outputs differ" >&2; exit 1; }
  done
  local gm sm cm
  gm=$(median "${g[@]}"); sm=$(median "${s[@]}"); cm=$(median "${c[@]}")
  printf '%-28s gsort %7.2f s  sort %7.2f s  (%5.1fx)  cp %6.2f s  (gsort/cp %4.1fx)\n' "$name" "$gm" "$sm" \
    "$(echo "$sm / $gm" | bc -l)" "$cm" "$(echo "$gm / $cm" | bc -l)"
}

echo "gsort: $("$gsort" --version | head -1); $(nproc) threads; -S $memory; ${size_mb} MB each"
run_case "logs, whole lines" "$dir/logs.txt"
run_case "csv -t, -k3,3n" "$dir/data.csv" -t, -k3,3n
run_case "csv -t, -k2,2 -k1,1n" "$dir/data.csv" -t, -k2,2 -k1,1n
run_case "gensort ASCII as lines" "$dir/gensort.txt"
rm -f "$dir/cp.out" "$dir/gnu.out" "$dir/gsort.out"
