# Two builds of gsort on the same inputs, alternated: outputs cmp-identical
# in every round, and their times (issue 28: a refactoring changes neither).
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case compare "OLD=DIR (the build before) against BIN, alternated: 2 GB gensort auto (and --backend gpu), 12 GB auto, --gpu-memory 2G (GPU) and -S 2G; outputs identical every round"

# A table of one gsort command line: the old build (baseline), then the new.
compare_pair() {
  local name=$1 template=$2 out=$run_dir/out
  table "$name" "$3" "$4"
  tbl_inputs=("$5")
  row "old build" "$out.old" "$(fill "$old" "${OLD_GSORT_ARGS-${GSORT_ARGS:-}}" "$template" "$out.old")"
  row "new build" "$out" "$(fill "$bin" "${GSORT_ARGS:-}" "$template" "$out")" "$(q same_output "$out.old" "$out")"
  run_table
}

case_compare() {
  [[ -n ${OLD:-} ]] || die "compare: OLD=DIR names the build to compare with (BIN is the new one)"
  local old=$OLD CHECK=${CHECK:-all}
  records_of 2 100
  data_gensort "$records"
  local in=$data bytes=$((records * 100)) size
  size=$(gb "$records" 100)
  compare_pair small-auto "@GSORT@ --format gensort $(q "$in") -o @OUT@" "$size GB gensort, auto" "$bytes" "$in"
  if ((gpus)); then
    compare_pair small-gpu "@GSORT@ --backend gpu --format gensort $(q "$in") -o @OUT@" "$size GB gensort, --backend gpu" \
      "$bytes" "$in"
  fi
  records_of 12 100
  data_gensort "$records"
  in=$data bytes=$((records * 100))
  size=$(gb "$records" 100)
  compare_pair large-auto "@GSORT@ --format gensort $(q "$in") -o @OUT@" "$size GB gensort, auto" "$bytes" "$in"
  if ((gpus)); then
    compare_pair large-gpu-memory "@GSORT@ --gpu-memory 2G --format gensort $(q "$in") -o @OUT@" \
      "$size GB gensort, --gpu-memory 2G" "$bytes" "$in"
  fi
  compare_pair large-spill "@GSORT@ --format gensort -S 2G -T $(q "$run_dir/tmp") $(q "$in") -o @OUT@" \
    "$size GB gensort, -S 2G" "$bytes" "$in"
}
