# Sourced by the benchmark scripts: one CSV row per timed run, beside the
# tables they print, for scripts/plot_benchmarks.py; and the clock and the
# median they share.
#   now                          seconds since the epoch, to the nanosecond
#   median SECONDS...            the median (the lower middle of an even count)
#   json_field FILE KEY          the first value of KEY in a --stats file (a number,
#                                true/false, or a quoted string, as written)
#   bench_csv_open FILE          write the header (a new file) and remember FILE
#   bench_csv_row CASE RUN SECONDS BYTES COMMAND...
# Columns: date, host, script, case, tool, run, seconds, bytes. tool is the
# command with each path reduced to its file name ("gsort --backend gpu
# --format gensort in2g -o out"): which program, with which options.

bench_csv_open() {
  bench_csv_file=$1
  echo "date,host,script,case,tool,run,seconds,bytes" >"$bench_csv_file"
  echo "CSV: $bench_csv_file" >&2
}

bench_csv_row() {
  [[ -n ${bench_csv_file:-} ]] || return 0
  local case_name=$1 run=$2 seconds=$3 bytes=$4
  shift 4
  local words=() w
  for w in "$@"; do words+=("${w##*/}"); done
  printf '%s,%s,%s,%s,"%s",%s,%s,%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(hostname)" \
    "$(basename "$0")" "$case_name" "${words[*]}" "$run" "$seconds" "$bytes" >>"$bench_csv_file"
}

now() { date +%s.%N; }
median() { printf '%s\n' "$@" | sort -g | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'; }
json_field() { grep -o "\"$2\": *[^,}]*" "$1" | head -1 | sed 's/^[^:]*: *//'; }
