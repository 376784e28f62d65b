#!/usr/bin/env bash
# How many spill streams pay on this machine's temp disk and page cache.
# Builds nothing: BIN_DIR holds gsort and gsort-gen. Sorts RECORDS records
# of 100 bytes with -S MEM (spilled runs, merged from TEMP_DIR) once per
# stream count in STREAMS (--spill-streams N), the counts interleaved, RUNS
# rounds; prints for each count the median wall time, the median of the
# phases "write runs" (summed over runs, on the spill thread), "sort" and
# "final merge", and the same input's cp time for scale. Each timed run
# starts after rm of the output and sync, with the input in the page cache.
#   scripts/bench_spill_streams.sh BIN_DIR [TEMP_DIR=/tmp] [RECORDS=40000000] [MEM=256M]
# Environment:
#   STREAMS="1 2 4 8"   stream counts to compare
#   RUNS=3              rounds (the median is reported)
#   DATA=gensort        gensort (binary), ascii (gensort -a) or random (urandom bytes)
#   EXTRA=...           more gsort options, e.g. "--backend gpu" or "--compress-temp=off"
#   BASE_BIN=DIR        also time DIR/gsort (another build, without --spill-streams) as "base",
#                       with BASE_EXTRA (default none) instead of EXTRA
#   CSV=FILE            one row per timed run (default ./bench_spill_streams.csv; CSV= for none)
set -euo pipefail

bin=${1:?usage: bench_spill_streams.sh BIN_DIR [TEMP_DIR] [RECORDS] [MEM]}
temp=${2:-/tmp}
records=${3:-40000000}
mem=${4:-256M}
runs=${RUNS:-3}
streams=(${STREAMS:-1 2 4 8})
data=${DATA:-gensort}
read -r -a extra <<<"${EXTRA:-}"
read -r -a base_extra <<<"${BASE_EXTRA:-}"
work=$(mktemp -d "$temp/gsort-ss.XXXXXX")
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/bench_csv.sh"
csv=${CSV-bench_spill_streams.csv}
[[ -z $csv ]] || bench_csv_open "$csv"


case $data in
  gensort) "$bin/gsort-gen" --format gensort --records "$records" --seed 5 -o "$work/in" ;;
  ascii) "$bin/gsort-gen" --format gensort --ascii --records "$records" --seed 5 -o "$work/in" ;;
  random) head -c "$((records * 100))" /dev/urandom >"$work/in" ;;
  *) echo "bench_spill_streams.sh: DATA must be gensort, ascii or random" >&2; exit 2 ;;
esac
cat "$work/in" >/dev/null  # into the page cache
echo "== spill streams: $records $data records of 100 bytes, -S $mem ${extra[*]}, temp in $temp" \
  "($(df -T "$temp" | awk 'NR == 2 { print $2 }'), $(nproc) threads), $runs rounds, medians"

declare -A wall=() write=() sorting=() merge=()
cp_times=()
for ((i = 0; i < runs; i++)); do
  rm -f "$work/out"
  sync
  s=$(now)
  cp "$work/in" "$work/out"
  e=$(now)
  t=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f", e - s }')
  cp_times+=("$t")
  bench_csv_row cp "$((i + 1))" "$t" "$((records * 100))" cp in out
  if [[ -n ${BASE_BIN:-} ]]; then
    rm -f "$work/out"
    sync
    s=$(now)
    "$BASE_BIN/gsort" --format gensort -S "$mem" -T "$work" "${base_extra[@]}" --stats "$work/st.base.json" \
      "$work/in" -o "$work/out"
    e=$(now)
    t=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f", e - s }')
    wall[base]+="$t "
    write[base]+="$(json_field "$work/st.base.json" "write runs") "
    sorting[base]+="$(json_field "$work/st.base.json" sort) "
    merge[base]+="$(json_field "$work/st.base.json" "final merge") "
    bench_csv_row base "$((i + 1))" "$t" "$((records * 100))" "$BASE_BIN/gsort" --format gensort -S "$mem" \
      "${base_extra[@]}" in -o out
  fi
  for n in "${streams[@]}"; do
    rm -f "$work/out"
    sync
    st=$work/st.$n.json
    s=$(now)
    "$bin/gsort" --format gensort -S "$mem" -T "$work" --spill-streams "$n" "${extra[@]}" --stats "$st" \
      "$work/in" -o "$work/out"
    e=$(now)
    t=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f", e - s }')
    wall[$n]+="$t "
    write[$n]+="$(json_field "$st" "write runs") "
    sorting[$n]+="$(json_field "$st" sort) "
    merge[$n]+="$(json_field "$st" "final merge") "
    bench_csv_row "streams-$n" "$((i + 1))" "$t" "$((records * 100))" "$bin/gsort" --format gensort -S "$mem" \
      --spill-streams "$n" "${extra[@]}" in -o out
  done
done
cp_med=$(median "${cp_times[@]}")
printf '  %-8s %9s %8s %12s %8s %12s  %s\n' streams wall "/ cp" "write runs" sort "final merge" "(wall of each round)"
printf '  %-8s %9.3f %8s %12s %8s %12s  (%s)\n' cp "$cp_med" 1.00 - - - "${cp_times[*]}"
rows=("${streams[@]}")
[[ -z ${BASE_BIN:-} ]] || rows=(base "${rows[@]}")
for n in "${rows[@]}"; do
  # shellcheck disable=SC2086  # lists of times
  w=$(median ${wall[$n]})
  # shellcheck disable=SC2086
  printf '  %-8s %9.3f %8.2f %12.3f %8.3f %12.3f  (%s)\n' "$n" "$w" "$(awk -v a="$w" -v b="$cp_med" 'BEGIN { print a / b }')" \
    "$(median ${write[$n]})" "$(median ${sorting[$n]})" "$(median ${merge[$n]})" "${wall[$n]}"
done
echo "  runs: $(grep -o '"runs": *[0-9]*' "$work/st.${streams[0]}.json" | sed 's/.*: *//'), temp: $(grep -o '"compress_reason": *"[^"]*"' "$work/st.${streams[0]}.json" | sed 's/.*: *//')"
