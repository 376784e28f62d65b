#!/usr/bin/env bash
# Benchmarks gsort on the CPU against cp and GNU sort.
#
#   scripts/bench_cpu.sh [BUILD_DIR [WORK_DIR]]
#       1 GB of gensort ASCII records (10,000,000 lines): cp, GNU sort and
#       gsort, each RUNS times from a warm page cache; prints the medians.
#   scripts/bench_cpu.sh --out-of-core [BUILD_DIR [WORK_DIR]]
#       8 GB of binary gensort records sorted once with -S 256M, printing
#       gsort's -v report (its runs and merge passes).
#
# BUILD_DIR defaults to ./build, WORK_DIR to ${TMPDIR:-/tmp}/gsort-bench.
# Environment:
#   RUNS=5          timed runs per command (the median is reported)
#   MEM=4G          memory for both sorts (-S), 1 GB mode
#   RECORDS=...     records to generate (default 10000000; 80000000 out of core)
#   BACKEND=cpu     gsort --backend
#   KEEP=1          keep the generated and sorted files (removed by default)
#   CSV=FILE        one row per timed run (default ./bench_cpu.csv; CSV= for none)
set -euo pipefail
shopt -s inherit_errexit  # so that a failure inside $(...) stops the script

usage() { sed -n '2,19s/^# \{0,1\}//p' "$0"; }

out_of_core=0
args=()
for a in "$@"; do
  case "$a" in
    --out-of-core) out_of_core=1 ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "bench_cpu.sh: unknown option $a" >&2; exit 2 ;;
    *) args+=("$a") ;;
  esac
done
build_dir=${args[0]:-./build}
work_dir=${args[1]:-${TMPDIR:-/tmp}/gsort-bench}
runs=${RUNS:-5}
mem=${MEM:-4G}
backend=${BACKEND:-cpu}

gsort=$build_dir/gsort
gen=$build_dir/gsort-gen
for bin in "$gsort" "$gen"; do
  [[ -x $bin ]] || { echo "bench_cpu.sh: $bin not found; build first (ninja -C $build_dir)" >&2; exit 2; }
done

mkdir -p "$work_dir"
tmp_dir=$(mktemp -d "$work_dir/tmp.XXXXXX")  # -T for both sorts
made_files=(input.txt input.dat cp.out sort.out gsort.out last.err)
# Removes only what this script made: WORK_DIR may be a directory in use.
cleanup() {
  [[ ${KEEP:-0} == 1 ]] && return
  rm -rf "$tmp_dir"
  for f in "${made_files[@]}"; do rm -f "$work_dir/$f"; done
  rmdir "$work_dir" 2>/dev/null || true
}
trap cleanup EXIT

source "$(dirname "$0")/bench_csv.sh"
csv=${CSV-bench_cpu.csv}
[[ -z $csv ]] || bench_csv_open "$csv"

now() { date +%s.%N; }
elapsed() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.6f\n", e - s }'; }

# Seconds one run of "$@" takes; its stdout and stderr are discarded.
time_once() {
  local start end
  start=$(now)
  "$@" >/dev/null 2>"$work_dir/last.err" || {
    echo "bench_cpu.sh: failed: $*" >&2
    cat "$work_dir/last.err" >&2
    exit 1
  }
  end=$(now)
  elapsed "$start" "$end"
}

# Median seconds of RUNS runs of "$@", which writes the file $out. The
# output is removed and dirty pages flushed before each run, so that one
# run's write-back does not slow the next.
median_time() {
  local out=$1
  shift
  local times=() t
  for ((i = 0; i < runs; i++)); do
    rm -f "$out"
    sync
    t=$(time_once "$@") || exit 1  # inside $(...): stop the caller too
    times+=("$t")
    bench_csv_row "$bench_case" "$((i + 1))" "$t" "$bytes" "$@"
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{ t[NR] = $1 } END {
    print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}

warm_cache() { cat "$1" >/dev/null; }

file_bytes() { stat -c %s "$1"; }

one_gb_mode() {
  local records=${RECORDS:-10000000}
  local input=$work_dir/input.txt
  echo "generating $records gensort ASCII records in $input"
  "$gen" --format gensort --ascii --records "$records" -o "$input"
  local bytes
  bytes=$(file_bytes "$input")
  warm_cache "$input"

  local threads bench_case=gensort-ascii
  threads=$(nproc)
  echo "timing $runs runs each (threads $threads, memory $mem, gsort backend $backend)"
  local t_cp t_sort t_gsort
  t_cp=$(median_time "$work_dir/cp.out" cp "$input" "$work_dir/cp.out")
  t_sort=$(median_time "$work_dir/sort.out" env LC_ALL=C sort --parallel="$threads" -S "$mem" \
    -T "$tmp_dir" -o "$work_dir/sort.out" "$input")
  t_gsort=$(median_time "$work_dir/gsort.out" "$gsort" --format gensort --backend "$backend" \
    -S "$mem" -T "$tmp_dir" "$input" -o "$work_dir/gsort.out")

  verify_gsort_output "$work_dir/gsort.out" "$work_dir/sort.out"

  echo
  printf '%-8s %10s %10s %10s\n' command median_s MB/s "time/cp"
  print_row cp "$t_cp" "$bytes" "$t_cp"
  print_row sort "$t_sort" "$bytes" "$t_cp"
  print_row gsort "$t_gsort" "$bytes" "$t_cp"
  awk -v s="$t_sort" -v g="$t_gsort" 'BEGIN { printf "gsort/sort time ratio %.3f (gsort %.2fx as fast)\n", g / s, s / g }'
}

# name, median seconds, bytes, cp's median seconds
print_row() {
  awk -v name="$1" -v t="$2" -v b="$3" -v cp="$4" \
    'BEGIN { printf "%-8s %10.3f %10.1f %10.2f\n", name, t, b / 1e6 / t, t / cp }'
}

# gsort's output must be in order, and hold the same lines as GNU sort's
# (compared after sorting both whole lines: gensort keys can collide, and
# then whole-line order and stable key order differ).
verify_gsort_output() {
  local got=$1 reference=$2
  "$gsort" -c --format gensort "$got" || { echo "bench_cpu.sh: gsort -c: output out of order" >&2; exit 1; }
  local a b
  a=$(LC_ALL=C sort -S "$mem" -T "$tmp_dir" "$got" | md5sum)
  b=$(md5sum <"$reference")
  [[ $a == "$b" ]] || { echo "bench_cpu.sh: gsort's output is not a permutation of the input" >&2; exit 1; }
  if cmp -s "$got" "$reference"; then
    echo "verified: gsort's output is in order and identical to GNU sort's"
  else
    echo "verified: gsort's output is in order and holds the same lines as GNU sort's (key ties differ)"
  fi
}

out_of_core_mode() {
  local records=${RECORDS:-80000000}
  local input=$work_dir/input.dat
  echo "generating $records binary gensort records in $input"
  "$gen" --format gensort --records "$records" -o "$input"
  local bytes
  bytes=$(file_bytes "$input")
  rm -f "$work_dir/gsort.out"
  sync
  echo "gsort -v -S 256M --format gensort (backend $backend):"
  local start end
  start=$(now)
  "$gsort" -v -S 256M --format gensort --backend "$backend" -T "$tmp_dir" \
    "$input" -o "$work_dir/gsort.out"
  end=$(now)
  bench_csv_row out-of-core-S256M 1 "$(elapsed "$start" "$end")" "$bytes" "$gsort" -v -S 256M \
    --format gensort --backend "$backend" -T "$tmp_dir" "$input" -o "$work_dir/gsort.out"
  awk -v t="$(elapsed "$start" "$end")" -v b="$bytes" \
    'BEGIN { printf "\ngsort: %.3f s, %.1f MB/s for %.2f GB\n", t, b / 1e6 / t, b / 1e9 }'
  [[ $(file_bytes "$work_dir/gsort.out") == "$bytes" ]] ||
    { echo "bench_cpu.sh: gsort's output size differs from the input's" >&2; exit 1; }
  "$gsort" -c --format gensort "$work_dir/gsort.out" ||
    { echo "bench_cpu.sh: gsort -c: output out of order" >&2; exit 1; }
  echo "verified: output is in order and as large as the input"
}

if ((out_of_core)); then
  out_of_core_mode
else
  one_gb_mode
fi
