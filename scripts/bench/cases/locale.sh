# Lines in a user's locale (issue 54): 2 GB of log lines (whole lines, and
# -f), of CSV (-t, -k2,2 -k1,1n, a few names then a number; and -t, -k3,3,
# signed numbers compared as text, with LOCALE_TABLES=numbers) and of CSV
# whose third field is one of 50,000 words with accented letters, capitals,
# apostrophes and hyphens (scripts/bench/csv_shapes.py accents; -t, -k3,3),
# each sorted by GNU sort and gsort with LC_ALL=LOCALE (default
# en_US.UTF-8), outputs compared byte for byte, and by gsort with LC_ALL=C
# beside (the locale's cost).
# Every other case runs in the C locale (scripts/bench.sh exports LC_ALL=C).
# LOCALE_TABLES picks tables (default "logs logs-f csv accents"; also
# numbers): GNU sort
# takes most of a minute a run here, so one call may hold only some.
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case locale "2 GB of lines in LOCALE (default en_US.UTF-8): logs whole and -f, CSV -t, -k2,2 -k1,1n, accented words -t, -k3,3 (LOCALE_TABLES; numbers: CSV -t, -k3,3); GNU sort and gsort there, outputs identical, and gsort in C"

locale_wants() { [[ " ${LOCALE_TABLES:-logs logs-f csv accents} " == *" $1 "* ]]; }

# locale_table NAME TITLE IN ARGS...
locale_table() {
  local name=$1 title=$2 in=$3 loc=${LOCALE:-en_US.UTF-8} mem=${LINES_MEM:-50%}
  local out=$run_dir/out gnu=$run_dir/out.gnu
  shift 3
  locale_wants "${name#locale-}" || return 0
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
  local CHECK=${CHECK:-all} csv
  mkdir -p "$run_dir/tmp"
  if locale_wants logs || locale_wants logs-f; then
    records_of 2 159
    data_lines logs "$records"
    locale_table locale-logs "$(gb "$records" 159) GB of log lines, whole lines" "$data"
    locale_table locale-logs-f "$(gb "$records" 159) GB of log lines, -f" "$data" -f
  fi
  if locale_wants csv || locale_wants numbers; then
    records_of 2 31
    data_lines csv "$records"
    csv=$data
    locale_table locale-csv "$(gb "$records" 31) GB of CSV, -t, -k2,2 -k1,1n" "$csv" -t, -k2,2 -k1,1n
    locale_table locale-numbers "$(gb "$records" 31) GB of CSV, -t, -k3,3 (signed numbers as text)" "$csv" -t, -k3,3
  fi
  locale_wants accents || return 0
  data_shape accents "$(awk -v g="${SIZE_GB:-2}" 'BEGIN { printf "%d", g * 1e9 }')"
  locale_table locale-accents "${SIZE_GB:-2} GB of CSV with accented words, -t, -k3,3" "$data" -t, -k3,3
}
