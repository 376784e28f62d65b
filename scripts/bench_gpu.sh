#!/usr/bin/env bash
# End-to-end benchmark for a GPU machine. Builds nothing: it takes a copied
# build (BIN_DIR holding gsort and gsort-gen), generates gensort records in
# WORK_DIR, and prints one table per case with medians of RUNS runs:
#   2g       2 GB in the page cache: gsort (auto), cp, GNU sort --parallel=N,
#            gsort --backend cpu
#   12g-gpu  12 GB, --gpu-memory 2G (many GPU pieces merged in memory) vs cp
#   12g-disk 12 GB, -S 2G (spilled runs, k-way merge from disk) vs cp, and
#            the same with --backend cpu (the CPU's merge order)
# Each gsort row also prints its -v phase times (last run). auto picks the
# CPU backend for inputs the CPU sorts faster than the GPU starts (see
# src/chunk_sort/backend_factory.h), so --backend gpu has a row of its own.
#   scripts/bench_gpu.sh BIN_DIR [WORK_DIR] [CASES...]
# CSV=FILE: one row per timed run (default ./bench_gpu.csv; CSV= for none).
set -euo pipefail

bin=${1:?usage: bench_gpu.sh BIN_DIR [WORK_DIR] [CASES...]}
work=${2:-/tmp/gsort-gpu-bench}
shift $(( $# >= 2 ? 2 : 1 ))
cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=(2g 12g-gpu 12g-disk)
runs=${RUNS:-3}
threads=$(nproc)
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/bench_csv.sh"
csv=${CSV-bench_gpu.csv}
[[ -z $csv ]] || bench_csv_open "$csv"


# Median seconds over RUNS runs of "$@" (the command writes $work/out).
median() {
  local times=()
  for ((i = 0; i < runs; i++)); do
    rm -f "$work/out"
    sync
    local s e
    s=$(now)
    "$@" >/dev/null 2>"$work/last.err" || { cat "$work/last.err" >&2; exit 1; }
    e=$(now)
    times+=("$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f", e - s }')")
    bench_csv_row "$c" "$((i + 1))" "${times[-1]}" "$bytes" "$@"
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}

row() {  # name seconds bytes cp_seconds
  awk -v n="$1" -v t="$2" -v b="$3" -v cp="$4" \
    'BEGIN { printf "  %-28s %9.3f s %9.1f MB/s %8.2fx cp\n", n, t, b / 1e6 / t, t / cp }'
}

phases() {  # prints the phase lines of the last gsort run
  grep -E "phase|backend:|runs:|merge passes:|total:" "$work/last.err" | sed 's/^/      /'
}

check_sorted() {
  "$bin/gsort" -c --format gensort "$work/out" || { echo "OUTPUT NOT SORTED" >&2; exit 1; }
}

gen() {  # records file
  [[ -f $2 ]] || "$bin/gsort-gen" --format gensort --records "$1" --seed 7 -o "$2"
  cat "$2" >/dev/null
}

for c in "${cases[@]}"; do
  case $c in
    2g)
      in=$work/in2g
      gen 20000000 "$in"
      bytes=$(stat -c %s "$in")
      echo "== 2 GB gensort records in the page cache ($threads threads, $runs runs, median)"
      t_cp=$(median cp "$in" "$work/out")
      row "cp" "$t_cp" "$bytes" "$t_cp"
      t_auto=$(median "$bin/gsort" -v --format gensort "$in" -o "$work/out"); check_sorted
      row "gsort (auto)" "$t_auto" "$bytes" "$t_cp"; phases | grep -E "backend:"
      t=$(median "$bin/gsort" -v --backend gpu --format gensort "$in" -o "$work/out"); check_sorted
      row "gsort --backend gpu" "$t" "$bytes" "$t_cp"; phases
      for variant in "--backend gpu --algorithm radix" "--backend gpu --algorithm merge" "--backend hybrid"; do
        # shellcheck disable=SC2086  # the variant is two words
        tv=$(median "$bin/gsort" -v $variant --format gensort "$in" -o "$work/out"); check_sorted
        row "gsort $variant" "$tv" "$bytes" "$t_cp"; phases | grep -E "backend:|sort:"
      done
      t_cpu=$(median "$bin/gsort" -v --backend cpu --format gensort "$in" -o "$work/out"); check_sorted
      row "gsort --backend cpu" "$t_cpu" "$bytes" "$t_cp"; phases
      t_gnu=$(RUNS=1 median env LC_ALL=C sort --parallel="$threads" -S 16G "$in" -o "$work/out")
      row "LC_ALL=C sort (1 run)" "$t_gnu" "$bytes" "$t_cp"
      awk -v a="$t_auto" -v g="$t" -v s="$t_gnu" -v c="$t_cpu" \
        'BEGIN { printf "  gsort (auto) vs GNU sort %.1fx faster; --backend gpu vs GNU sort %.1fx, vs the CPU backend %.2fx\n", s / a, s / g, c / g }'
      ;;
    12g-gpu | 12g-disk)
      in=$work/in12g
      gen 120000000 "$in"
      bytes=$(stat -c %s "$in")
      t_cp=$(median cp "$in" "$work/out")
      if [[ $c == 12g-gpu ]]; then
        echo "== 12 GB, --gpu-memory 2G (GPU pieces merged in memory)"
        opts=(--gpu-memory 2G)
      else
        echo "== 12 GB, -S 2G (spilled runs, k-way merge from disk)"
        opts=(-S 2G -T "$work")
      fi
      row "cp" "$t_cp" "$bytes" "$t_cp"
      t=$(median "$bin/gsort" -v "${opts[@]}" --format gensort "$in" -o "$work/out"); check_sorted
      row "gsort ${opts[*]:0:2}" "$t" "$bytes" "$t_cp"; phases
      if [[ $c == 12g-disk ]]; then
        # The same with the CPU's merge order, against the GPU's.
        t=$(median "$bin/gsort" -v --backend cpu "${opts[@]}" --format gensort "$in" -o "$work/out"); check_sorted
        row "gsort --backend cpu ${opts[*]:0:2}" "$t" "$bytes" "$t_cp"; phases
      fi
      ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
  esac
done
