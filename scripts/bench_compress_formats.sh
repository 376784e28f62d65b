#!/usr/bin/env bash
# What each compressed format costs gsort, reading it and writing it. Builds
# nothing: BIN_DIR holds gsort and gsort-gen; the zstd, gzip, bzip2 and xz
# tools make the inputs.
#   in:  RECORDS binary gensort records, compressed by the tools at their
#        default levels (zstd -3, gzip -6, bzip2 -9, xz -6 -T0), sorted by
#        `gsort --format gensort IN -o out` (and the plain file, for scale);
#   out: OUT_RECORDS records sorted to `-o out.zst/.gz/.bz2/.xz` at the
#        default level and at level 1 (gzip, xz), with --parallel 1 and 2;
#   and each tool alone on the same bytes (decompressing the inputs to
#   /dev/null; compressing, with one thread, the sorted records gsort
#   writes), for scale.
# Cases alternate within each round; prints the median of RUNS rounds (all
# times in brackets), the median CPU time (user + system: on a machine
# shared with other work, CPU / wall shows how many threads really ran),
# the compressed size and the MB/s of the records.
#   scripts/bench_compress_formats.sh BIN_DIR [WORK_DIR=/tmp] [RECORDS=10000000] [OUT_RECORDS=2000000]
# PARTS="in out" (default both) picks the halves; CSV=FILE: one row per
# timed run (default ./bench_compress_formats.csv; CSV= for none).
set -euo pipefail

bin=${1:?usage: bench_compress_formats.sh BIN_DIR [WORK_DIR] [RECORDS] [OUT_RECORDS]}
base=${2:-/tmp}
records=${3:-10000000}
out_records=${4:-2000000}
runs=${RUNS:-3}
parts=${PARTS:-in out}
work=$(mktemp -d "$base/gsort-cf.XXXXXX")
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/bench_csv.sh"
csv=${CSV-bench_compress_formats.csv}
[[ -z $csv ]] || bench_csv_open "$csv"


# time_case NAME BYTES COMMAND...: one timed run, its seconds appended to
# times[NAME], its CPU seconds (children's user + system) to cpus[NAME].
declare -A times=() cpus=()
time_case() {
  local name=$1 bytes=$2
  shift 2
  rm -f "$work"/out*
  sync
  local s e t c0 c1
  child_cpu
  c0=$cpu_now
  s=$(now)
  "$@"
  e=$(now)
  child_cpu
  c1=$cpu_now
  t=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }')
  times[$name]+="$t "
  cpus[$name]+="$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.2f", b - a }') "
  bench_csv_row "$name" "$round" "$t" "$bytes" "$@"
}
# cpu_now: the CPU seconds of this shell's finished children (line 2 of
# bash's `times`, run in this shell: a $(...) would ask a subshell).
child_cpu() {
  times >"$work/times"
  cpu_now=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$work/times")
}

report() {  # report NAME BYTES STORED_BYTES
  # shellcheck disable=SC2086  # lists of times
  local med cpu
  med=$(median ${times[$1]})
  cpu=$(median ${cpus[$1]})
  printf '  %-22s %8.2f s  cpu %7.2f s  %7.1f MB/s  stored %11s  (%s)\n' "$1" "$med" "$cpu" \
    "$(awk -v b="$2" -v t="$med" 'BEGIN { printf "%.1f", b / 1e6 / t }')" "$3" "${times[$1]% }"
}

echo "== compressed formats: $(nproc) threads, $runs rounds, median; work in $work"
in_bytes=$((records * 100))
small_bytes=$((out_records * 100))

if [[ " $parts " == *" in "* ]]; then
"$bin/gsort-gen" --format gensort --records "$records" --seed 5 -o "$work/in"
zstd -q -3 -c "$work/in" >"$work/in.zst"
gzip -6 -c "$work/in" >"$work/in.gz"
bzip2 -9 -c "$work/in" >"$work/in.bz2"
xz -6 -T0 -c "$work/in" >"$work/in.xz"

echo "-- in: $records records ($in_bytes bytes), gsort --format gensort IN -o out"
decoders=("zstd -dc" "gzip -dc" "bzip2 -dc" "xz -dc")
for ((round = 1; round <= runs; round++)); do
  for f in in in.zst in.gz in.bz2 in.xz; do
    time_case "read $f" "$in_bytes" "$bin/gsort" --format gensort "$work/$f" -o "$work/out"
  done
  for d in "${decoders[@]}"; do
    f=in.$( case $d in zstd*) echo zst ;; gzip*) echo gz ;; bzip2*) echo bz2 ;; xz*) echo xz ;; esac )
    time_case "tool $d" "$in_bytes" bash -c "$d '$work/$f' >/dev/null"
  done
done
for f in in in.zst in.gz in.bz2 in.xz; do report "read $f" "$in_bytes" "$(stat -c %s "$work/$f")"; done
for d in "${decoders[@]}"; do report "tool $d" "$in_bytes" "-"; done
fi

if [[ " $parts " == *" out "* ]]; then
"$bin/gsort-gen" --format gensort --records "$out_records" --seed 6 -o "$work/small"
"$bin/gsort" --format gensort "$work/small" -o "$work/sorted"  # what the tools compress

echo "-- out: $out_records records ($small_bytes bytes), gsort --format gensort small -o out.FMT [--compress-output=1] --parallel T"
outs=(out out.zst out.gz out.gz:1 out.bz2 out.xz out.xz:1)
declare -A stored=()
for ((round = 1; round <= runs; round++)); do
  for o in "${outs[@]}"; do
    for t in 1 2; do
      name=${o%%:*}
      level=()
      [[ $o == *:* ]] && level=(--compress-output="${o##*:}")
      time_case "write $o T$t" "$small_bytes" "$bin/gsort" --format gensort --parallel "$t" "${level[@]}" \
        "$work/small" -o "$work/$name"
      stored[$o]=$(stat -c %s "$work/$name")
    done
  done
  for c in "zstd -3 -T1" "gzip -6" "gzip -1" "bzip2 -9" "xz -6 -T1" "xz -1 -T1"; do
    time_case "tool $c" "$small_bytes" bash -c "$c -c '$work/sorted' >'$work/out.tool'"
    stored[$c]=$(stat -c %s "$work/out.tool")
  done
done
for o in "${outs[@]}"; do
  for t in 1 2; do report "write $o T$t" "$small_bytes" "${stored[$o]}"; done
done
for c in "zstd -3 -T1" "gzip -6" "gzip -1" "bzip2 -9" "xz -6 -T1" "xz -1 -T1"; do
  report "tool $c" "$small_bytes" "${stored[$c]}"
done
fi
