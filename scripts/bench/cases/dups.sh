# Duplicate-heavy text lines (issue 37, item 4): gsort against GNU sort
# (LC_ALL=C sort), both with --parallel=DUPS_THREADS, outputs compared byte
# for byte, on inputs of DUPS_LINES lines drawn from pools of 1%, 10% and
# 90% distinct lines (data_dups), under -u, -s, -f and key mixes. GNU sort
# is each table's baseline: gsort's ratio must stay at or under 1.
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case dups "duplicate-heavy lines (DUPS_LINES, default 200000; 1%, 10%, 90% distinct: DUPS_PERCENTS) under -u, -s, -f and key mixes (DUPS_MIXES picks by number), GNU sort against gsort at --parallel=DUPS_THREADS (default nproc)"

# The option mixes, one table each.
dups_mixes=(
  "-u"
  "-s -k2,2"
  "-f"
  "-k1,1 -k2,2"
  "-f -b -k4n,3 -k1r,1 -u"
  "-s --key=1.5n -u --field-separator=, -k1.2fb,2.3"
  "-r -k2b -k1r,1.0fr"
  "-t, -k2,2n -k1,1 -u"
)

case_dups() {
  local lines=${DUPS_LINES:-200000} threads=${DUPS_THREADS:-$(nproc)} CHECK=${CHECK:-all}
  local out=$run_dir/out gnu=$run_dir/out.gnu pct k in
  local -a args
  for pct in ${DUPS_PERCENTS:-1 10 90}; do
    data_dups "$lines" "$pct"
    in=$data
    for k in ${DUPS_MIXES:-${!dups_mixes[@]}}; do
      read -r -a args <<<"${dups_mixes[k]}"
      table "p$pct-m$k" "$lines lines, $pct% distinct: ${dups_mixes[k]}, --parallel=$threads" "$(stat -c %s "$in")"
      tbl_inputs=("$in")
      row "GNU sort" "$gnu" "$(q env LC_ALL=C sort --parallel="$threads" -T "$run_dir/tmp" "${args[@]}" -o "$gnu" "$in")"
      gsort_row "gsort" "$out" "@GSORT@ $(q --parallel "$threads" -T "$run_dir/tmp" "${args[@]}" "$in") -o @OUT@" \
        "$(q same_output "$gnu" "$out")"
      if ((gpus)); then
        gsort_row "gsort --backend gpu" "$out" \
          "@GSORT@ $(q --backend gpu --parallel "$threads" -T "$run_dir/tmp" "${args[@]}" "$in") -o @OUT@" \
          "$(q same_output "$gnu" "$out")"
      fi
      run_table
    done
  done
}
