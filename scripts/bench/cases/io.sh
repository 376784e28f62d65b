# Input through a pipe; standard output into a file; compressed inputs and outputs.
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case pipe "2 GB gensort through a pipe: cat in | dd of=out bs=1M (baseline), the floor of a sort of a pipe (bench/pipe_floor_bench), cat in | gsort -o out, > out, < in; 2 GB of log lines: cat in | cat > out (baseline), the floor, cat in | gsort > out, -o out, gsort in -o out"
bench_case stdout-file "2 GB gensort, then 2 GB of log lines, into a regular file: gsort in -o out (baseline), > out (a mapping from the offset), >> out (O_APPEND: a write() stream, as sort writes it)"
bench_case compress-io "compressed inputs (1 GB gensort as .zst .gz .bz2 .xz) and outputs (OUT_SIZE_GB=0.2), against plain files and the tools alone"

case_pipe() {
  records_of 2 100
  data_gensort "$records"
  local in=$data out=$run_dir/out check
  check=$(check_sorted --format gensort "$out")
  table "$case_name" "$(gb "$records" 100) GB of gensort records through a pipe" "$((records * 100))"
  tbl_inputs=("$in")
  row "cat | dd of=out bs=1M" "$out" "$(q cat "$in") | $(q dd of="$out" bs=1M status=none)"
  floor_row "$in" "$out"
  gsort_row "cat | gsort -o out" "$out" "$(q cat "$in") | @GSORT@ --format gensort -o @OUT@" "$check"
  gsort_row "cat | gsort > out" "$out" "$(q cat "$in") | @GSORT@ --format gensort > @OUT@" "$check"
  gsort_row "gsort < in > out" "$out" "@GSORT@ --format gensort < $(q "$in") > @OUT@" "$check"
  run_table
  # Issue 38: the same for text lines, against cat | cat, each output
  # identical to gsort's own from the named file.
  records_of 2 159
  data_lines logs "$records"
  in=$data
  local ref=$run_dir/out.ref
  "$bin/gsort" "$in" -o "$ref"
  table "$case_name-lines" "$(gb "$records" 159) GB of log lines through a pipe" "$(stat -c %s "$in")"
  tbl_inputs=("$in")
  row "cat | cat > out" "$out" "$(q cat "$in") | cat > $(q "$out")"
  floor_row "$in" "$out"
  gsort_row "cat | gsort > out" "$out" "$(q cat "$in") | @GSORT@ > @OUT@" "$(q same_output "$ref" "$out")"
  gsort_row "cat | gsort -o out" "$out" "$(q cat "$in") | @GSORT@ -o @OUT@" "$(q same_output "$ref" "$out")"
  gsort_row "gsort in -o out" "$out" "@GSORT@ $(q "$in") -o @OUT@" "$(q same_output "$ref" "$out")"
  run_table
}

# Issue 52: standard output that is a regular file. `>` is filled through
# a mapping, as -o is; `>>` (O_APPEND) is written with write(), so that
# what other processes append meanwhile is never overwritten.
case_stdout_file() {
  records_of 2 100
  data_gensort "$records"
  local in=$data out=$run_dir/out ref=$run_dir/out.ref
  "$bin/gsort" --format gensort "$in" -o "$ref"
  table "$case_name" "$(gb "$records" 100) GB of gensort records into a regular file" "$((records * 100))"
  tbl_inputs=("$in")
  gsort_row "gsort in -o out" "$out" "@GSORT@ --format gensort $(q "$in") -o @OUT@" "$(q same_output "$ref" "$out")"
  gsort_row "gsort in > out" "$out" "@GSORT@ --format gensort $(q "$in") > @OUT@" "$(q same_output "$ref" "$out")"
  gsort_row "gsort in >> out" "$out" "@GSORT@ --format gensort $(q "$in") >> @OUT@" "$(q same_output "$ref" "$out")"
  run_table
  records_of 2 159
  data_lines logs "$records"
  in=$data
  "$bin/gsort" "$in" -o "$ref"
  table "$case_name-lines" "$(gb "$records" 159) GB of log lines into a regular file" "$(stat -c %s "$in")"
  tbl_inputs=("$in")
  gsort_row "gsort in -o out" "$out" "@GSORT@ $(q "$in") -o @OUT@" "$(q same_output "$ref" "$out")"
  gsort_row "gsort in > out" "$out" "@GSORT@ $(q "$in") > @OUT@" "$(q same_output "$ref" "$out")"
  gsort_row "gsort in >> out" "$out" "@GSORT@ $(q "$in") >> @OUT@" "$(q same_output "$ref" "$out")"
  run_table
}

# floor_row IN OUT: the floor of any sort of a pipe that writes after its
# last byte (bench/pipe_floor_bench: the pipe read into memory, then its
# bytes written unsorted into the mapped output), where the build has it.
floor_row() {
  local tool=$bin/pipe_floor_bench  # a packed build (scripts/device_pack.sh), or a build folder
  [[ -x $tool ]] || tool=$bin/bench/pipe_floor_bench
  [[ -x $tool ]] || return 0
  row "floor: read, then write unsorted" "$2" "$(q cat "$1") | $(q "$tool" "$2") >/dev/null"
}

declare -A decompressor=([zst]="zstd -dc" [gz]="gzip -dc" [bz2]="bzip2 -dc" [xz]="xz -dc")

# tbl_after of compress-io: the size of what row K stored or read.
stored_size() {
  [[ ! -e ${stored[$1]} ]] || echo "stored_mb=$(stat -c %s "${stored[$1]}" | awk '{ printf "%.1f", $1 / 1e6 }')"
}

case_compress_io() {
  local ext f
  declare -g -a stored=()
  records_of 1 100
  data_gensort "$records"
  local in=$data out=$run_dir/out
  for ext in zst gz bz2 xz; do data_compressed "$in" "$ext"; done
  table in "gsort --format gensort IN -o out, IN compressed ($(gb "$records" 100) GB of gensort records)" "$((records * 100))"
  tbl_inputs=("$in" "$in".{zst,gz,bz2,xz}) tbl_after=stored_size stored=()
  for f in "$in" "$in".{zst,gz,bz2,xz}; do
    stored+=("$f")
    gsort_row "gsort in${f#"$in"}" "$out" "@GSORT@ --format gensort $(q "$f") -o @OUT@" \
      "$(check_sorted --format gensort "$out")"
    [[ -z ${OLD:-} ]] || stored+=("$f")
  done
  for ext in zst gz bz2 xz; do
    stored+=("$in.$ext")
    row "${decompressor[$ext]}" "" "${decompressor[$ext]} $(q "$in.$ext") >/dev/null"
  done
  run_table

  SIZE_GB=${OUT_SIZE_GB:-${SIZE_GB:-}} records_of 0.2 100
  data_gensort "$records"
  in=$data
  made "$in.sorted" "$bin/gsort" --format gensort "$in" -o "$in.sorted.part"
  local sorted=$data o level
  table out "gsort --format gensort in -o OUT, OUT compressed ($(gb "$records" 100) GB of gensort records)" \
    "$((records * 100))"
  tbl_inputs=("$in" "$sorted") tbl_after=stored_size stored=()
  for o in out out.zst out.gz out.gz:1 out.bz2 out.xz out.xz:1; do
    f=$run_dir/${o%%:*} level=
    [[ $o != *:* ]] || level=" --compress-output=${o##*:}"
    stored+=("$f")
    local check
    check=$(q cmp "$f" "$sorted")
    [[ $f == "$run_dir/out" ]] || check="${decompressor[${f##*.}]} $(q "$f") | $(q cmp - "$sorted")"
    gsort_row "gsort -o $o" "$f" "@GSORT@ --format gensort$level $(q "$in") -o @OUT@" "$check"
    [[ -z ${OLD:-} ]] || stored+=("$f.old")
  done
  for o in "zstd -3 -T1" "gzip -6" "gzip -1" "bzip2 -9" "xz -6 -T1" "xz -1 -T1"; do
    stored+=("$run_dir/tool")
    row "$o" "$run_dir/tool" "$o -c $(q "$sorted") >$(q "$run_dir/tool")"
  done
  run_table
}
