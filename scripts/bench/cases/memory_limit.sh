# Sorts in a memory cgroup (root only), issue 12's set-up: bigger than RAM,
# and what a spilling sort leaves of other programs' page cache.
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case cgroup "bigger than RAM (root): 12 GB per DATA set (random gensort ascii; lines: the ascii records sorted as text lines) in memory.max LIMIT (3G), caches emptied, against the two-pass floor (2 x dd direct copy)"
bench_case page-cache "root: a VICTIM_GB (1) file read VICTIM_READS (2) times, then gsort -S MEM (512M) of 4 GB in memory.max LIMIT (3G), by --page-cache (PAGE_CACHE: keep drop)"

need_root() { [[ $(id -u) == 0 ]] || die "$case_name: run as root (cgroups, drop_caches)"; }

# Each timed command of these cases runs in a fresh cgroup.
cg_before() { rm -f "$run_dir/copy"; cg_create "${LIMIT:-3G}"; }
cg_after() { echo "peak_mib=$(($(cg_peak) >> 20))"; cg_destroy; }

# VARIANTS (;-separated gsort option sets, "default" for none; default
# "default;--compress-temp=off"), MEM (-S; default none: half the limit),
# UNCACHE=all (drop_caches) or files (only the inputs' pages, on a shared machine).
case_cgroup() {
  need_root
  local sets variants set v first
  read -r -a sets <<<"${DATA:-random gensort ascii}"
  IFS=';' read -r -a variants <<<"${VARIANTS:-default;--compress-temp=off}"
  records_of 12 100
  local -a inputs=()
  for set in "${sets[@]}"; do
    case $set in
      random) data_random "$records" ;;
      gensort) data_gensort "$records" ;;
      ascii | lines) data_gensort "$records" ascii ;;
      *) die "cgroup: DATA is random, gensort, ascii or lines" ;;
    esac
    inputs+=("$data")
  done
  table "$case_name" "bigger than RAM: $(gb "$records" 100) GB per data set, memory.max ${LIMIT:-3G}, caches emptied (${UNCACHE:-all})" \
    "$((records * 100))"
  tbl_cold=1 tbl_inputs=("${inputs[@]}") tbl_before=cg_before tbl_wrap=(cg_run) tbl_after=cg_after
  tbl_base=1 tbl_factor=2 tbl_base_name="floor (2 x dd copy)"
  first=${inputs[0]}
  row "dd direct read" "" "$(q dd if="$first" of=/dev/null bs=64M iflag=direct status=none)"
  row "dd direct copy" "$run_dir/copy" "$(q dd if="$first" of="$run_dir/copy" bs=64M iflag=direct oflag=direct status=none)"
  local i out=$run_dir/out
  for i in "${!sets[@]}"; do
    # lines: the same bytes as ascii's records, sorted as text lines (issue 31).
    local -a layout=(--format gensort)
    [[ ${sets[i]} != lines ]] || layout=()
    # Issue 37 compares lines with GNU sort in the same cgroup, at the -S gsort takes there.
    local gnu_row=
    if [[ ${sets[i]} == lines && ${GNU_SORT:-1} == 1 ]]; then
      gnu_row=${#tbl_label[@]}
      local gnu_mem=${MEM:-$(($(numfmt --from=iec "${LIMIT:-3G}") / 2 >> 20))M}
      row "GNU sort, lines" "$out" "$(q env LC_ALL=C sort --parallel="$(nproc)" -S "$gnu_mem" -T "$run_dir/tmp" \
        -o "$out" "${inputs[i]}")" "$(check_sorted "$out")"
    fi
    for v in "${variants[@]}"; do
      local opts=${MEM:+ -S $MEM}
      [[ $v == default ]] || opts+=" $v"
      [[ -z $gnu_row ]] || tbl_ratios+=("GNU sort over gsort $v=$gnu_row/${#tbl_label[@]}")
      gsort_row "gsort $v, ${sets[i]}" "$out" "@GSORT@ ${layout[*]} -T $(q "$run_dir/tmp")$opts --stats @STATS@ \
$(q "${inputs[i]}") -o @OUT@" "$(check_sorted "${layout[@]}" "$out")"
    done
  done
  run_table
}

# The bytes of FILE in the page cache, in MiB: fincore (util-linux), else
# bench/cached_bytes.cpp's program in BIN (packed) or BIN/bench (a build
# folder); the GPU hosts lack fincore.
cached_mib() {
  if command -v fincore >/dev/null; then
    fincore --bytes --noheadings --output RES "$1" | awk '{ printf "%d", $1 / 1048576 }'
  else
    "$cached_bytes" "$1" | awk '{ printf "%d", $1 / 1048576 }'
  fi
}

pc_before() {
  cg_create "${LIMIT:-3G}"
  local r
  for ((r = 0; r < ${VICTIM_READS:-2}; r++)); do cg_run cat "$victim" >/dev/null; done
}
pc_after() {
  echo "victim_mib=$(cached_mib "$victim")"
  echo "input_mib=$(cached_mib "${tbl_inputs[1]}")"
  echo "cgroup_cache_mib=$(awk '$1 == "file" || $1 == "cache" { printf "%d", $2 / 1048576; exit }' "$cg_dir/memory.stat")"
  cg_destroy
}

case_page_cache() {
  need_root
  declare -g cached_bytes=$bin/cached_bytes
  [[ -x $cached_bytes ]] || cached_bytes=$bin/bench/cached_bytes
  command -v fincore >/dev/null || [[ -x $cached_bytes ]] ||
    die "page-cache: needs fincore (util-linux) or BIN/cached_bytes (bench/cached_bytes.cpp)"
  local UNCACHE=${UNCACHE:-files} mem=${MEM:-512M} settings s
  read -r -a settings <<<"${PAGE_CACHE:-keep drop}"
  data_random "$(awk -v g="${VICTIM_GB:-1}" 'BEGIN { printf "%d", g * 1e7 }')"
  declare -g victim=$data
  records_of 4 100
  data_gensort "$records"
  local in=$data out=$run_dir/out
  table "$case_name" "a victim of ${VICTIM_GB:-1} GB read ${VICTIM_READS:-2} times, then gsort -S $mem of $(gb "$records" 100) GB, memory.max ${LIMIT:-3G}" \
    "$((records * 100))"
  tbl_cold=1 tbl_inputs=("$victim" "$in") tbl_before=pc_before tbl_wrap=(cg_run) tbl_after=pc_after
  for s in "${settings[@]}"; do
    gsort_row "gsort --page-cache $s" "$out" \
      "@GSORT@ $(q --format gensort -S "$mem" -T "$run_dir/tmp" --page-cache "$s" "$in") -o @OUT@"
  done
  run_table
}
