# In-memory sorts, the input in the page cache (issue 30's targets), and the
# backends against each other.
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case gensort-2g "2 GB of gensort records (DATA=ascii: gensort -a's lines): cp (baseline), GNU sort, sortbin, gsort auto, cpu, gpu"
bench_case gensort-12g "12 GB of gensort records in memory: the same, and gsort --gpu-memory 2G"
bench_case u64-8g "8 GB of 16-byte records, u64 key at 0: cp (baseline), sortbin, gsort auto, cpu, gpu"
bench_case backends "2 GB gensort (DATA=u64: 16-byte records): --backend cpu (baseline), auto, gpu, its algorithms, hybrid; outputs identical"

case_gensort_2g() { gensort_in_memory 2; }
case_gensort_12g() { gensort_in_memory 12; }

# The rows every in-memory case has: gsort auto, and each backend where
# there is a choice (LAYOUT... FILE OUT).
backend_rows() {
  local out=${*: -1} in=${*: -2:1}
  local layout=("${@:1:$#-2}")
  local check
  check=$(check_sorted "${layout[@]}" "$out")
  gsort_row "gsort" "$out" "@GSORT@ $(q "${layout[@]}" "$in") -o @OUT@" "$check"
  ((gpus)) || return 0
  gsort_row "gsort --backend cpu" "$out" "@GSORT@ --backend cpu $(q "${layout[@]}" "$in") -o @OUT@" "$check"
  gsort_row "gsort --backend gpu" "$out" "@GSORT@ --backend gpu $(q "${layout[@]}" "$in") -o @OUT@" "$check"
}

gensort_in_memory() {
  records_of "$1" 100
  data_gensort "$records" "${DATA:-}"
  local in=$data out=$run_dir/out
  cp_table "$(gb "$records" 100) GB of gensort${DATA:+ $DATA} records in the page cache" "$((records * 100))" "$in" "$out"
  gnu_sort_row "$out" "$in"
  sortbin_row "$out" "$in" 100
  backend_rows --format gensort "$in" "$out"
  if ((gpus)) && [[ $1 == 12 ]]; then
    gsort_row "gsort --gpu-memory 2G" "$out" "@GSORT@ --gpu-memory 2G --format gensort $(q "$in") -o @OUT@" \
      "$(check_sorted --format gensort "$out")"
  fi
  run_table
}

case_u64_8g() {
  records_of 8 16
  data_u64 "$records"
  local in=$data out=$run_dir/out
  cp_table "$(gb "$records" 16) GB of 16-byte records, u64 key at offset 0, in the page cache" "$((records * 16))" \
    "$in" "$out"
  sortbin_row "$out" "$in" 16  # whole records, byte by byte: another order, the same work
  backend_rows --record-size 16 --key 0:u64 "$in" "$out"
  run_table
}

case_backends() {
  local layout=(--format gensort) size=100
  if [[ ${DATA:-gensort} == u64 ]]; then layout=(--record-size 16 --key 0:u64) size=16; fi
  records_of 2 "$size"
  if ((size == 16)); then data_u64 "$records"; else data_gensort "$records"; fi
  local in=$data ref=$run_dir/out.cpu out=$run_dir/out
  local args
  args=$(q "${layout[@]}" "$in")
  table "$case_name" "the backends on $(gb "$records" "$size") GB of ${DATA:-gensort} records in the page cache" "$((records * size))"
  tbl_inputs=("$in")
  gsort_row "gsort --backend cpu" "$ref" "@GSORT@ --backend cpu $args -o @OUT@" "$(check_sorted "${layout[@]}" "$ref")"
  gsort_row "gsort (auto)" "$out" "@GSORT@ $args -o @OUT@" "$(q same_output "$ref" "$out")"
  if ((gpus)); then
    local v
    for v in "--backend gpu" "--backend gpu --algorithm radix" "--backend gpu --algorithm merge" "--backend hybrid"; do
      gsort_row "gsort $v" "$out" "@GSORT@ $v $args -o @OUT@" "$(q same_output "$ref" "$out")"
    done
  fi
  run_table
}
