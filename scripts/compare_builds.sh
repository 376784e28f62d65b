#!/usr/bin/env bash
# Compares two builds of gsort on the same inputs: are their outputs
# byte-identical, and how do their times compare? For a change that must not
# alter behaviour (a refactoring), run it with the build before and after.
# Runs alternate between the two builds (A, B, A, B, ...) so that drift in
# the machine's state falls on both; medians of RUNS runs.
#   scripts/compare_builds.sh DIR_A DIR_B [WORK_DIR] [CASES...]
# DIR_A and DIR_B each hold gsort (and DIR_A gsort-gen). Cases:
#   2g        2 GB gensort in the page cache, auto and --backend gpu
#   12g       12 GB gensort, --gpu-memory 2G (in memory) and -S 2G (spilled)
set -euo pipefail

a=${1:?usage: compare_builds.sh DIR_A DIR_B [WORK_DIR] [CASES...]}
b=${2:?usage: compare_builds.sh DIR_A DIR_B [WORK_DIR] [CASES...]}
work=${3:-/tmp/gsort-compare}
shift $(( $# >= 3 ? 3 : 2 ))
cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=(2g 12g)
runs=${RUNS:-3}
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
median() { sort -g | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'; }

# compare NAME INPUT ARGS...: runs both builds RUNS times each, alternating,
# checks that each build's output equals the other's, prints one row.
compare() {
  local name=$1 input=$2
  shift 2
  local ta=() tb=()
  for ((i = 0; i < runs; i++)); do
    for side in a b; do
      local dir=$a
      [[ $side == b ]] && dir=$b
      rm -f "$work/out.$side"
      sync
      local s e
      s=$(now)
      "$dir/gsort" "$@" "$input" -o "$work/out.$side" 2>"$work/err.$side" || { cat "$work/err.$side" >&2; exit 1; }
      e=$(now)
      local t
      t=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f", e - s }')
      if [[ $side == a ]]; then ta+=("$t"); else tb+=("$t"); fi
    done
    if ! cmp -s "$work/out.a" "$work/out.b"; then
      echo "$name: OUTPUTS DIFFER (run $i)" >&2
      exit 1
    fi
  done
  local ma mb
  ma=$(printf '%s\n' "${ta[@]}" | median)
  mb=$(printf '%s\n' "${tb[@]}" | median)
  awk -v n="$name" -v x="$ma" -v y="$mb" -v r="${ta[*]} | ${tb[*]}" \
    'BEGIN { printf "  %-30s A %8.3f s  B %8.3f s  B/A %5.3f  identical  (runs: %s)\n", n, x, y, y / x, r }'
}

gen() {  # records file
  [[ -f $2 ]] || "$a/gsort-gen" --format gensort --records "$1" --seed 7 -o "$2"
  cat "$2" >/dev/null
}

echo "A = $a, B = $b; medians of $runs runs, alternating; $(nproc) threads"
for c in "${cases[@]}"; do
  case $c in
    2g)
      gen 20000000 "$work/in2g"
      compare "2 GB auto" "$work/in2g" --format gensort
      compare "2 GB --backend gpu" "$work/in2g" --format gensort --backend gpu
      rm -f "$work/in2g"
      ;;
    12g)
      gen 120000000 "$work/in12g"
      compare "12 GB --gpu-memory 2G" "$work/in12g" --format gensort --gpu-memory 2G
      compare "12 GB -S 2G" "$work/in12g" --format gensort -S 2G -T "$work"
      rm -f "$work/in12g"
      ;;
    *) echo "unknown case $c" >&2; exit 2 ;;
  esac
done
