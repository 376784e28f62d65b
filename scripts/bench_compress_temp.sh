#!/usr/bin/env bash
# What --compress-temp gains or costs on this machine's temp disk. Builds
# nothing: BIN_DIR holds gsort and gsort-gen. For gensort ASCII records
# (compressible, ~3.5x) and random bytes (incompressible), sorts RECORDS
# records with -S MEM (spilled runs, merged from TEMP_DIR), alternating runs
# without and with --compress-temp, and prints medians of RUNS, the temp
# bytes written and the write-runs and final-merge phases of the last run.
#   scripts/bench_compress_temp.sh BIN_DIR [TEMP_DIR=/tmp] [RECORDS=40000000] [MEM=256M]
# CSV=FILE: one row per timed run (default ./bench_compress_temp.csv; CSV= for none).
set -euo pipefail

bin=${1:?usage: bench_compress_temp.sh BIN_DIR [TEMP_DIR] [RECORDS] [MEM]}
temp=${2:-/tmp}
records=${3:-40000000}
mem=${4:-256M}
runs=${RUNS:-3}
work=$(mktemp -d "$temp/gsort-ct.XXXXXX")
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/bench_csv.sh"
csv=${CSV-bench_compress_temp.csv}
[[ -z $csv ]] || bench_csv_open "$csv"


echo "== --compress-temp: $records records of 100 bytes, -S $mem, temp in $temp ($(df -T "$temp" | awk 'NR == 2 { print $2 }'), $(nproc) threads, $runs runs, median)"
"$bin/gsort-gen" --format gensort --ascii --records "$records" --seed 3 -o "$work/ascii"
head -c "$((records * 100))" /dev/urandom >"$work/random"
for data in ascii random; do
  declare -A times=()
  for ((i = 0; i < runs; i++)); do
    for mode in plain zstd; do
      extra=()
      [[ $mode == zstd ]] && extra=(--compress-temp)
      rm -f "$work/out"
      sync
      s=$(now)
      "$bin/gsort" --format gensort -S "$mem" -T "$work" "${extra[@]}" --stats "$work/st.$mode.json" \
        "$work/$data" -o "$work/out"
      e=$(now)
      t=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f", e - s }')
      times[$mode]+="$t "
      bench_csv_row "$data" "$((i + 1))" "$t" "$((records * 100))" "$bin/gsort" --format gensort -S "$mem" \
        "${extra[@]}" "$data"
    done
  done
  for mode in plain zstd; do
    # shellcheck disable=SC2086  # a list of times
    med=$(printf '%s\n' ${times[$mode]} | sort -g | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }')
    st=$work/st.$mode.json
    printf '  %-7s %-6s %8.3f s  temp bytes %14s  write runs %6.2f s  final merge %6.2f s  (%s)\n' \
      "$data" "$mode" "$med" "$(json_field "$st" bytes_written)" "$(json_field "$st" "write runs")" \
      "$(json_field "$st" "final merge")" "${times[$mode]}"
  done
  unset times
done
