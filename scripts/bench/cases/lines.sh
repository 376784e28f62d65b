# Text lines (issue 31): gsort against GNU sort (LC_ALL=C sort
# --parallel=$(nproc), the same -S), outputs compared byte for byte, with cp
# of the input as the baseline. Inputs from gsort-gen (--format logs, csv,
# gensort --ascii), so the GPU machine needs nothing else.
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case lines "text lines against GNU sort, outputs identical: 2 GB of log lines sorted whole; 2 GB of CSV by -t, -k3,3n and by -t, -k2,2 -k1,1n (csv), and by -t, -k4,4 -k3,3nr -s (csv-stable); 2 GB of gensort ASCII records as lines; 12 GB of log lines with -S 2G (LINES_MEM, default 50%, is -S for the others; LINES_SETS picks of logs csv csv-stable ascii big; LINES_BIG=0 leaves the 12 GB table out)"

# lines_table NAME TITLE IN MEM ARGS...: cp IN, GNU sort ARGS -S MEM, gsort
# ARGS -S MEM (auto: the CPU; with a GPU, also --backend gpu unless LINES_GPU=0),
# gsort's output checked identical to GNU sort's.
lines_table() {
  local name=$1 title=$2 in=$3 mem=$4 out=$run_dir/out gnu=$run_dir/out.gnu
  shift 4
  table "$name" "$title" "$(stat -c %s "$in")"
  tbl_inputs=("$in")
  row cp "$out" "$(q cp "$in" "$out")"
  row "GNU sort" "$gnu" "$(q env LC_ALL=C sort --parallel="$(nproc)" -S "$mem" -T "$run_dir/tmp" "$@" -o "$gnu" "$in")"
  gsort_row "gsort" "$out" "@GSORT@ $(q -S "$mem" -T "$run_dir/tmp" "$@" "$in") --stats @STATS@ -o @OUT@" \
    "$(q same_output "$gnu" "$out")"
  if ((gpus)) && [[ ${LINES_GPU:-1} == 1 ]]; then
    gsort_row "gsort --backend gpu" "$out" \
      "@GSORT@ $(q --backend gpu -S "$mem" -T "$run_dir/tmp" "$@" "$in") --stats @STATS@ -o @OUT@" \
      "$(q same_output "$gnu" "$out")"
  fi
  run_table
}

# LINES_SETS: which data sets (default all: logs csv csv-stable ascii big).
case_lines() {
  local mem=${LINES_MEM:-50%} CHECK=${CHECK:-all} sets=" ${LINES_SETS:-logs csv csv-stable ascii big} "
  [[ ${LINES_BIG:-1} == 1 ]] || sets=${sets/ big / }
  mkdir -p "$run_dir/tmp"
  if [[ $sets == *" logs "* ]]; then
    records_of 2 159
    data_lines logs "$records"
    lines_table logs "$(gb "$records" 159) GB of log lines (20-300 bytes), whole lines" "$data" "$mem"
  fi
  if [[ $sets == *" csv "* ]]; then
    records_of 2 31
    data_lines csv "$records"
    lines_table csv-k3n "$(gb "$records" 31) GB of CSV, -t, -k3,3n" "$data" "$mem" -t, -k3,3n
    lines_table csv-k2-k1n "$(gb "$records" 31) GB of CSV, -t, -k2,2 -k1,1n" "$data" "$mem" -t, -k2,2 -k1,1n
  fi
  if [[ $sets == *" csv-stable "* ]]; then
    records_of 2 31
    data_lines csv "$records"
    lines_table csv-k4-k3nr-s "$(gb "$records" 31) GB of CSV, -t, -k4,4 -k3,3nr -s" "$data" "$mem" -t, -k4,4 -k3,3nr -s
  fi
  if [[ $sets == *" ascii "* ]]; then
    records_of 2 100
    data_gensort "$records" ascii
    lines_table gensort-ascii "$(gb "$records" 100) GB of gensort ASCII records as lines" "$data" "$mem"
  fi
  if [[ $sets == *" big "* ]]; then
    records_of 12 159
    data_lines logs "$records"
    lines_table logs-12g "$(gb "$records" 159) GB of log lines, -S 2G (runs spilled to WORK)" "$data" 2G
  fi
}
