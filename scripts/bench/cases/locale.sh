# Lines in a user's locale (issue 54): 2 GB of log lines (whole lines, and
# -f), of CSV (-t, -k2,2 -k1,1n) and of the CSV with accented letters,
# apostrophes and hyphens among its words (-t, -k3,3), each sorted by GNU
# sort and gsort with LC_ALL=LOCALE (default en_US.UTF-8), outputs compared
# byte for byte, and by gsort with LC_ALL=C beside (the locale's cost).
# Every other case runs in the C locale (scripts/bench.sh exports LC_ALL=C).
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case locale "2 GB of lines in LOCALE (default en_US.UTF-8): logs whole and -f, CSV -t, -k2,2 -k1,1n, accented words -t, -k3,3; GNU sort and gsort there, outputs identical, and gsort in C"

# locale_table NAME TITLE IN ARGS...
locale_table() {
  local name=$1 title=$2 in=$3 loc=${LOCALE:-en_US.UTF-8} mem=${LINES_MEM:-50%}
  local out=$run_dir/out gnu=$run_dir/out.gnu
  shift 3
  table "$name" "$title, LC_ALL=$loc" "$(stat -c %s "$in")"
  tbl_inputs=("$in")
  row cp "$out" "$(q cp "$in" "$out")"
  row "GNU sort" "$gnu" "$(q env LC_ALL="$loc" sort --parallel="$(nproc)" -S "$mem" -T "$run_dir/tmp" "$@" -o "$gnu" "$in")"
  gsort_row "gsort" "$out" "env LC_ALL=$(q "$loc") @GSORT@ $(q -S "$mem" -T "$run_dir/tmp" "$@" "$in") --stats @STATS@ -o @OUT@" \
    "$(q same_output "$gnu" "$out")"
  gsort_row "gsort, LC_ALL=C" "$out.c" "env LC_ALL=C @GSORT@ $(q -S "$mem" -T "$run_dir/tmp" "$@" "$in") -o @OUT@"
  run_table
}

case_locale() {
  local CHECK=${CHECK:-all} csv accented
  mkdir -p "$run_dir/tmp"
  records_of 2 159
  data_lines logs "$records"
  locale_table locale-logs "$(gb "$records" 159) GB of log lines, whole lines" "$data"
  locale_table locale-logs-f "$(gb "$records" 159) GB of log lines, -f" "$data" -f
  records_of 2 31
  data_lines csv "$records"
  csv=$data
  locale_table locale-csv "$(gb "$records" 31) GB of CSV, -t, -k2,2 -k1,1n" "$csv" -t, -k2,2 -k1,1n
  accented=$work/data/accented-$(basename "$csv")
  made "$accented" bash -c "sed -e 's/ea/\\xc3\\xa9a/g; s/o/\\xc3\\xb6/2; s/an/\\xc3\\xa5n/g; s/ie/i-e/g; s/ou/o'\"'\"'u/g' \"\$1\" >\"\$2\"" \
    _ "$csv" "$accented.part"
  locale_table locale-accents "$(gb "$records" 31) GB of CSV with accented words, -t, -k3,3" "$accented" -t, -k3,3
}
