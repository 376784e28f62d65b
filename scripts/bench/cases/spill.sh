# Sorts bigger than -S: runs spilled to WORK's disk and merged.
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case spill "12 GB gensort, -S MEM (2G): cp (baseline), GNU sort and sortbin with the same memory, gsort (and with a GPU --backend cpu, --gpu-memory 8G), and gsort in memory in the same rounds (the ratio spilled / in memory)"
bench_case spill-streams "12 GB gensort, -S MEM (2G), --spill-streams N for N in STREAMS (1 2 4 8), against cp"
bench_case compress-temp "4 GB gensort ASCII and random records, -S MEM (256M): --compress-temp=off (baseline), on, auto"

case_spill() {
  local mem=${MEM:-2G}
  records_of 12 100
  data_gensort "$records"
  local in=$data out=$run_dir/out tmp=$run_dir/tmp check
  check=$(check_sorted --format gensort "$out")
  cp_table "$(gb "$records" 100) GB of gensort records, -S $mem (runs spilled to WORK)" "$((records * 100))" "$in" "$out"
  spill_floor_row "$in" "$out" "$tmp"
  gnu_sort_row "$out" "$in" "$mem"
  sortbin_row "$out" "$in" 100 "$mem"
  # The spilled sort's cost over the in-memory one, in the same rounds: a
  # slower merge shows here whatever the machine's drift.
  local in_memory=${#tbl_label[@]} spilled
  gsort_row "gsort in memory" "$out" "@GSORT@ $(q --format gensort "$in") --stats @STATS@ -o @OUT@" "$check"
  spilled=${#tbl_label[@]}
  gsort_row "gsort -S $mem" "$out" "@GSORT@ $(q --format gensort -S "$mem" -T "$tmp" "$in") --stats @STATS@ -o @OUT@" \
    "$check"
  tbl_ratios+=("spilled over in memory=$spilled/$in_memory")
  if ((gpus)); then
    # With a GPU, gsort -S holds the input in device memory (one pass); these
    # rows are the host's runs, and runs as large as an 8 GB device budget holds.
    gsort_row "gsort --backend cpu -S $mem" "$out" \
      "@GSORT@ $(q --backend cpu --format gensort -S "$mem" -T "$tmp" "$in") --stats @STATS@ -o @OUT@" "$check"
    gsort_row "gsort -S $mem --gpu-memory 8G" "$out" \
      "@GSORT@ $(q --gpu-memory 8G --format gensort -S "$mem" -T "$tmp" "$in") --stats @STATS@ -o @OUT@" "$check"
  fi
  run_table
}

# spill_floor_row IN OUT TMP: the floor of a sort whose runs go through the
# page cache, sorting nothing (bench/spill_floor_bench: the input copied
# into 14 runs of 8 segment files in TMP, the runs into the mapped output,
# the runs freed), where the build has it.
spill_floor_row() {
  local tool=$bin/spill_floor_bench  # a packed build (scripts/device_pack.sh), or a build folder
  [[ -x $tool ]] || tool=$bin/bench/spill_floor_bench
  [[ -x $tool ]] || return 0
  row "floor: runs through the page cache, unsorted" "$2" "$(q "$tool" "$1" "$2" "$3") >/dev/null"
}

case_spill_streams() {
  local mem=${MEM:-2G} n streams
  read -r -a streams <<<"${STREAMS:-1 2 4 8}"
  records_of 12 100
  data_gensort "$records"
  local in=$data out=$run_dir/out
  cp_table "$(gb "$records" 100) GB of gensort records, -S $mem, by --spill-streams" "$((records * 100))" "$in" "$out"
  for n in "${streams[@]}"; do
    gsort_row "gsort --spill-streams $n" "$out" \
      "@GSORT@ $(q --format gensort -S "$mem" -T "$run_dir/tmp" --spill-streams "$n" "$in") --stats @STATS@ -o @OUT@" \
      "$(check_sorted --format gensort "$out")"
  done
  run_table
}

case_compress_temp() {
  local mem=${MEM:-256M} set sets when
  read -r -a sets <<<"${DATA:-ascii random}"
  records_of 4 100
  for set in "${sets[@]}"; do
    case $set in
      ascii) data_gensort "$records" ascii ;;
      random) data_random "$records" ;;
      gensort) data_gensort "$records" ;;
      *) die "compress-temp: DATA is ascii, random or gensort" ;;
    esac
    local in=$data out=$run_dir/out
    table "$set" "$(gb "$records" 100) GB of $set records, -S $mem, runs in WORK, by --compress-temp" \
      "$((records * 100))"
    tbl_inputs=("$in")
    for when in off on auto; do
      gsort_row "gsort --compress-temp=$when" "$out" \
        "@GSORT@ $(q --format gensort -S "$mem" -T "$run_dir/tmp" --compress-temp="$when" "$in") --stats @STATS@ -o @OUT@" \
        "$(check_sorted --format gensort "$out")"
    done
    run_table
  done
}
