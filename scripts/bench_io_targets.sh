#!/usr/bin/env bash
# Issue 12's targets on one machine: gsort against cp (or `cat | dd`) of the
# same data, each ratio from the same round, the commands interleaved so that
# drift in the page cache falls on all of them; medians of RUNS rounds.
# With BASE_DIR (an earlier build), that build runs beside, for before/after.
#
#   scripts/bench_io_targets.sh BIN_DIR WORK_DIR [CASES...]      (BASE_DIR=dir optional)
#
# Cases (default: all):
#   2g      2 GB gensort in the page cache: gsort (auto) and --backend gpu    target <= 1.15x cp
#   8g16    8 GB, 500M 16-byte records, u64 key at 0, auto                    target <= 1.1x cp
#   12g     12 GB gensort, in memory, auto                                   target <= 1.05x cp
#   pipe    cat 2 GB | gsort > out, against cat | dd of=out bs=1M            target <= 1.15x
#   spill   12 GB gensort -S 2G (runs on WORK_DIR's disk)                    target <= 1.5x cp
# Environment: CPU_ROWS=1 (8g16 and 12g also with --backend cpu), SCALE (1: divides every size, for a quick try), RUNS (3), CSV (file, one row per timed run), TRACE_DIR (a
# --trace and --stats of the last round of each gsort command go there).
set -euo pipefail

bin=${1:?usage: bench_io_targets.sh BIN_DIR WORK_DIR [CASES...]}
work=${2:?usage: bench_io_targets.sh BIN_DIR WORK_DIR [CASES...]}
shift 2
cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=(2g 8g16 12g pipe spill)
runs=${RUNS:-3}
scale=${SCALE:-1}
n2g=$((20000000 / scale)) n8g=$((500000000 / scale)) n12g=$((120000000 / scale))
base=${BASE_DIR:-}
mkdir -p "$work"
trap 'rm -f "$work"/in.* "$work"/out' EXIT
source "$(dirname "$0")/bench_csv.sh"
[[ -z ${CSV:-} ]] || bench_csv_open "$CSV"


# timed NAME ROUND BYTES CMD...: one run, output removed and dirty pages
# written back first; seconds in $took.
timed() {
  local name=$1 round=$2 bytes=$3
  shift 3
  rm -f "$work/out"
  sync
  local s e
  s=$(now)
  "$@"
  e=$(now)
  took=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }')
  bench_csv_row "$name" "$round" "$took" "$bytes" "$@"
}

# A case: rows of (label, command) run RUNS rounds interleaved; the first
# row is the baseline the others are divided by.
declare -a labels=() commands=()
row() { labels+=("$1"); commands+=("$2"); }
run_case() {
  local title=$1 bytes=$2
  local -A t=()
  local i k
  for ((i = 1; i <= runs; i++)); do
    for k in "${!labels[@]}"; do
      local cmd=${commands[$k]}
      if [[ $i == "$runs" && -n ${TRACE_DIR:-} && $cmd == *gsort\ * && $cmd != *'|'* ]]; then
        cmd="$cmd --trace $TRACE_DIR/$title.$k.trace.json --stats $TRACE_DIR/$title.$k.stats.json"
      fi
      timed "$title: ${labels[$k]}" "$i" "$bytes" bash -c "$cmd"
      t[$k]+="$took "
    done
  done
  echo "== $title ($runs rounds, medians; $(nproc) threads)"
  local m0
  # shellcheck disable=SC2086
  m0=$(median ${t[0]})
  for k in "${!labels[@]}"; do
    local m
    # shellcheck disable=SC2086
    m=$(median ${t[$k]})
    printf '  %-44s %8.3f s  %5.2fx  (%s)\n' "${labels[$k]}" "$m" "$(awk -v a="$m" -v b="$m0" 'BEGIN { print a / b }')" "${t[$k]% }"
  done
  labels=()
  commands=()
}

gsort_rows() {  # LABEL ARGS (the input and -o out follow)
  row "gsort $1" "$bin/gsort $2"
  [[ -z $base ]] || row "gsort $1 (base build)" "$base/gsort $2"
}

for c in "${cases[@]}"; do
  case $c in
    2g)
      "$bin/gsort-gen" --format gensort --records $n2g --seed 7 -o "$work/in.2g"
      cat "$work/in.2g" >/dev/null
      row cp "cp $work/in.2g $work/out"
      gsort_rows "auto" "--format gensort $work/in.2g -o $work/out"
      gsort_rows "--backend gpu" "--format gensort --backend gpu $work/in.2g -o $work/out"
      run_case 2g $((n2g * 100))
      ;;
    8g16)
      "$bin/gsort-gen" --record-size 16 --key 0:u64 --records $n8g --seed 7 -o "$work/in.8g16"
      cat "$work/in.8g16" >/dev/null
      row cp "cp $work/in.8g16 $work/out"
      gsort_rows "auto" "--record-size 16 --key 0:u64 $work/in.8g16 -o $work/out"
      [[ -z ${CPU_ROWS:-} ]] || gsort_rows "--backend cpu" "--record-size 16 --key 0:u64 --backend cpu $work/in.8g16 -o $work/out"
      run_case 8g16 $((n8g * 16))
      rm -f "$work/in.8g16"
      ;;
    12g|spill)
      [[ -f $work/in.12g ]] || "$bin/gsort-gen" --format gensort --records $n12g --seed 7 -o "$work/in.12g"
      cat "$work/in.12g" >/dev/null
      row cp "cp $work/in.12g $work/out"
      if [[ $c == 12g ]]; then
        gsort_rows "auto" "--format gensort $work/in.12g -o $work/out"
        [[ -z ${CPU_ROWS:-} ]] || gsort_rows "--backend cpu" "--format gensort --backend cpu $work/in.12g -o $work/out"
      else
        gsort_rows "-S 2G" "--format gensort -S 2G -T $work $work/in.12g -o $work/out"
        row "gsort -S 2G --spill-streams 1" "$bin/gsort --format gensort -S 2G --spill-streams 1 -T $work $work/in.12g -o $work/out"
      fi
      run_case "$c" $((n12g * 100))
      ;;
    pipe)
      [[ -f $work/in.2g ]] || "$bin/gsort-gen" --format gensort --records $n2g --seed 7 -o "$work/in.2g"
      cat "$work/in.2g" >/dev/null
      row "cat | dd of=out bs=1M" "cat $work/in.2g | dd of=$work/out bs=1M status=none"
      row "cat | gsort > out" "cat $work/in.2g | $bin/gsort --format gensort > $work/out"
      [[ -z $base ]] || row "cat | gsort > out (base build)" "cat $work/in.2g | $base/gsort --format gensort > $work/out"
      row "gsort < in > out" "$bin/gsort --format gensort < $work/in.2g > $work/out"
      run_case pipe $((n2g * 100))
      ;;
    *) echo "bench_io_targets.sh: unknown case $c" >&2; exit 2 ;;
  esac
done
