# Sourced by scripts/bench.sh: tables of variants timed in interleaved rounds.
#
# A case (scripts/bench/cases/*.sh) builds one or more tables:
#   table NAME TITLE BYTES        start a table; BYTES (the input's) give MB/s
#   cp_table TITLE BYTES IN OUT   the same for one input, cp IN OUT its baseline
#   row LABEL OUTPUT COMMAND [CHECK]
#                                 a variant. COMMAND, a bash command line (pipes
#                                 allowed, pipefail on), writes OUTPUT (a file or
#                                 folder, removed before each of its runs; "" for
#                                 none). CHECK, a command line run after the timed
#                                 run, must succeed (CHECK=first: in round 1 only,
#                                 the default; all; none). @STATS@ and @TRACE@ in
#                                 COMMAND are --stats and --trace files, kept from
#                                 the last round. The first row is the baseline of
#                                 the ratios.
#   gsort_row LABEL OUTPUT TEMPLATE [CHECK]
#                                 a row of TEMPLATE with @GSORT@ made "$BIN/gsort
#                                 $GSORT_ARGS" and @OUT@ OUTPUT; where OLD names an
#                                 earlier build, the same with "$OLD/gsort" and
#                                 OUTPUT.old follows, checked identical to it (and
#                                 so for each NAME=DIR of BUILDS, labelled NAME);
#                                 TRACE=1 adds --trace @TRACE@ to all
#   run_table                     ROUNDS rounds, each row once a round (a row whose
#                                 label matches the pattern ONCE: round 1 only), then
#                                 the Markdown table on stdout and
#                                 RESULTS/CASE[.TABLE].{runs.csv,json,md}. The first
#                                 row leads every round; the others take turns after
#                                 it (round r starts at row r of them, ROTATE=0: in
#                                 order), so that no row always follows the same one:
#                                 a GPU row right after another met the context the
#                                 one before was still tearing down
# Set after `table` where a case needs it:
#   tbl_inputs=(FILE...)  read into the page cache before round 1, unless tbl_cold=1:
#                         then emptied before every run (UNCACHE=all: sync and
#                         drop_caches, root; UNCACHE=files: these files' pages only)
#   tbl_base=K tbl_factor=F tbl_base_name=NAME   ratios against F x row K's median
#   tbl_ratios=("NAME=A/B"...)  lines under the table: row A's median over row B's,
#                         and each round's (rows run in the same rounds)
#   tbl_before=FN  tbl_wrap=(PREFIX...)  tbl_after=FN
#                         FN K before each run (after the rm and sync); the command
#                         runs under PREFIX; FN K after it prints KEY=VALUE extras
# Helpers: q WORD... (shell-quoted), fill DIR ARGS TEMPLATE OUTPUT (gsort_row's
# command line for the build in DIR), same_output A B, check_sorted LAYOUT... FILE.
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

q() { local s; printf -v s '%q ' "$@"; printf '%s' "${s% }"; }
now() { if [[ -n ${EPOCHREALTIME:-} ]]; then echo "${EPOCHREALTIME/,/.}"; else date +%s.%N; fi; }
die() { echo "bench.sh: $*" >&2; exit 2; }

# same_output A B: A and B (files, or folders of parts taken in order) hold
# the same bytes. Exported: CHECK command lines run in a child bash.
flat() { if [[ -d $1 ]]; then cat "$1"/part-*; else cat "$1"; fi; }
same_output() { cmp -s <(flat "$1") <(flat "$2"); }
export -f flat same_output
check_sorted() { q "$bin/gsort" -c "$@"; }  # the command line, for a row's CHECK

uncache() {
  sync
  if [[ ${UNCACHE:-all} == all ]]; then
    echo 3 >/proc/sys/vm/drop_caches
  else
    local f
    for f in "$@"; do
      if [[ -f $f ]]; then dd if="$f" iflag=nocache count=0 status=none; fi
    done
  fi
}

table() {
  tbl_name=$1 tbl_title=$2 tbl_bytes=$3
  tbl_label=() tbl_out=() tbl_cmd=() tbl_check=() tbl_inputs=() tbl_wrap=()
  tbl_cold=0 tbl_base=0 tbl_factor=1 tbl_base_name='' tbl_before='' tbl_after='' tbl_ratios=()
}

# cp_table TITLE BYTES IN OUT: the case's table of one input, IN, whose
# baseline is cp IN OUT.
cp_table() {
  table "$case_name" "$1" "$2"
  tbl_inputs=("$3")
  row cp "$4" "$(q cp "$3" "$4")"
}

row() {
  local k=${#tbl_label[@]}
  tbl_label+=("$1")
  tbl_out+=("$2")
  local cmd=${3//@STATS@/$(q "$run_dir/stats.$k.json")}
  tbl_cmd+=("${cmd//@TRACE@/$(q "$run_dir/trace.$k.json")}")
  tbl_check+=("${4:-}")
}

# fill DIR ARGS TEMPLATE OUTPUT: TEMPLATE with @GSORT@ made DIR/gsort ARGS
# (words), @GSORT_MPI@ DIR/gsort-mpi ARGS (the program for mpirun), and
# @OUT@ OUTPUT, quoted.
fill() {
  local -a extra=()
  read -r -a extra <<<"$2"
  [[ ${TRACE:-0} == 0 ]] || extra+=(--trace @TRACE@)
  local cmd=${3//@GSORT@/$(q "$1/gsort" "${extra[@]}")}
  cmd=${cmd//@GSORT_MPI@/$(q "$1/gsort-mpi" "${extra[@]}")}
  printf '%s' "${cmd//@OUT@/$(q "$4")}"
}

gsort_row() {
  row "$1" "$2" "$(fill "$bin" "${GSORT_ARGS:-}" "$3" "$2")" "${4:-}"
  # The builds share one output (each row removes it before its run): a
  # 12 GB table of five builds would hold six outputs at once otherwise.
  local build
  for build in "${builds[@]}"; do
    row "$1 (${build%%=*})" "$2.build" "$(fill "${build#*=}" "${GSORT_ARGS:-}" "$3" "$2.build")" \
      "$(q same_output "$2" "$2.build")"
  done
  [[ -n ${OLD:-} ]] || return 0
  row "$1 (old build)" "$2.old" "$(fill "$OLD" "${OLD_GSORT_ARGS-${GSORT_ARGS:-}}" "$3" "$2.old")" \
    "$(q same_output "$2" "$2.old")"
}

# One timed run of row K in round R: its seconds in $took, "ok" or why not in $status.
run_row() {
  local k=$1 r=$2 rc=0 s e
  [[ -z ${tbl_out[k]} ]] || rm -rf "${tbl_out[k]}"
  rm -f "$run_dir/stats.$k.json" "$run_dir/trace.$k.json"
  sync
  if ((tbl_cold)); then uncache "${tbl_inputs[@]}"; fi
  [[ -z $tbl_before ]] || "$tbl_before" "$k"
  s=$(now)
  "${tbl_wrap[@]}" bash -o pipefail -c "${tbl_cmd[k]}" >/dev/null 2>"$run_dir/err" || rc=$?
  e=$(now)
  took=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f", e - s }')
  status=ok
  if ((rc != 0)); then
    status="failed (exit $rc)"
  elif [[ -n ${tbl_check[k]} && ${CHECK:-first} != none ]] && [[ ${CHECK:-first} == all || $r == 1 ]]; then
    bash -o pipefail -c "${tbl_check[k]}" >>"$run_dir/err" 2>&1 || status="check failed"
  fi
  if [[ $status != ok ]]; then
    echo "  ${tbl_label[k]}, round $r: $status: ${tbl_cmd[k]}" >&2
    tail -5 "$run_dir/err" | sed 's/^/    /' >&2
    bench_status=1
  fi
  local kept
  for kept in stats trace; do
    if [[ -f $run_dir/$kept.$k.json ]]; then cp "$run_dir/$kept.$k.json" "$tbl_file.$k.$kept.json"; fi
  done
}

# The command as the tables show it: the work and build folders named.
shown() {
  local c=${1//$work/\$WORK} build
  for build in "${builds[@]}"; do c=${c//${build#*=}/\$${build%%=*}}; done  # before BIN, which may hold them
  c=${c//$bin/\$BIN}
  [[ -z ${OLD:-} ]] || c=${c//$OLD/\$OLD}
  printf '%s' "$c"
}

# The row that runs I-th (from 0) in round R of N rows.
round_row() {
  local i=$1 r=$2 n=$3
  if ((i == 0 || n <= 2)) || [[ ${ROTATE:-1} == 0 ]]; then echo "$i"; else echo $((1 + (i - 1 + r - 1) % (n - 1))); fi
}

run_table() {
  tbl_file=$results/$case_name
  [[ $tbl_name == "$case_name" ]] || tbl_file+=.$tbl_name
  local csv=$tbl_file.runs.csv k r extra
  echo "date,host,script,case,tool,run,seconds,bytes,row,label,status,extra" >"$csv"
  if ((!tbl_cold)) && ((${#tbl_inputs[@]})); then cat "${tbl_inputs[@]}" >/dev/null; fi
  echo "== $case_name: $tbl_title (${#tbl_label[@]} variants, $rounds rounds)" >&2
  local n=${#tbl_label[@]} i
  for ((r = 1; r <= rounds; r++)); do
    for ((i = 0; i < n; i++)); do
      k=$(round_row "$i" "$r" "$n")
      # shellcheck disable=SC2053  # ONCE is a pattern
      if ((r > 1)) && [[ -n ${ONCE:-} && ${tbl_label[k]} == $ONCE ]]; then continue; fi
      run_row "$k" "$r"
      extra=''
      [[ -z $tbl_after ]] || extra=$("$tbl_after" "$k" | paste -sd';') || true
      printf '%s,%s,bench.sh,%s,"%s",%s,%s,%s,%s,"%s",%s,%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(hostname)" \
        "$tbl_name" "$(sed -E 's#[^ ]*/##g; s/"/""/g' <<<"${tbl_cmd[k]}")" "$r" "$took" "$tbl_bytes" "$k" \
        "${tbl_label[k]//\"/\"\"}" "$status" "$extra" >>"$csv"
      printf '  round %d  %-40s %9.3f s  %s\n' "$r" "${tbl_label[k]}" "$took" "$status" >&2
    done
  done
  for k in "${!tbl_cmd[@]}"; do shown "${tbl_cmd[k]}"; echo; done >"$run_dir/commands"
  python3 "$bench_dir/stats.py" --runs "$csv" --commands "$run_dir/commands" --title "$case_name: $tbl_title" \
    --base "$tbl_base" --factor "$tbl_factor" --base-name "$tbl_base_name" --stats-prefix "$tbl_file." \
    --bin "$bin" --work "$work" ${OLD:+--old "$OLD"} "${builds[@]/#/--build=}" "${tbl_ratios[@]/#/--ratio=}" \
    --json "$tbl_file.json" --md "$tbl_file.md"
  cat "$tbl_file.md"
  echo
}
