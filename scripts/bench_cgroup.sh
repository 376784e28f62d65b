#!/usr/bin/env bash
# Bigger than RAM (issue 12): gsort in a memory cgroup with caches emptied
# before every run, against the two-pass disk floor measured in the same
# run. Root only. Builds nothing: BIN_DIR holds gsort and gsort-gen.
#
#   scripts/bench_cgroup.sh BIN_DIR WORK_DIR [SIZE_GB=12] [LIMIT=3G]
#
# WORK_DIR (on the disk to measure) gets the inputs, the runs (-T) and the
# outputs: about 3 x SIZE_GB free. Each timed command runs in a fresh cgroup
# with memory.max LIMIT (cgroup v2: /sys/fs/cgroup/gsort-bench, the recipe
#   mkdir /sys/fs/cgroup/g; echo 3G > /sys/fs/cgroup/g/memory.max;
#   echo $$ > /sys/fs/cgroup/g/cgroup.procs
# of the issue; cgroup v1: a child of this shell's memory cgroup), after
# `sync; echo 3 > /proc/sys/vm/drop_caches` (UNCACHE=files evicts only this
# script's files instead, for a shared machine).
#
# The floor: an external sort reads and writes everything twice (input to
# runs, runs to output), so the floor is two direct copies of the input
# (dd iflag=direct oflag=direct bs=64M, serial reads and writes); the
# direct read alone is shown beside it.
#
# Cases (CASES, default "random gensort ascii"): random bytes (100-byte
# records, incompressible), binary gensort records (gsort-gen --format
# gensort; zstd -1 shrinks them ~3.4x) and gensort ASCII records (~3.5x),
# each sorted as --format gensort with gsort's default options (no -S: half
# the cgroup's limit) and with --compress-temp=off.
# Environment:
#   RUNS=3        rounds, the cases interleaved; medians are reported
#   MEM=          -S for gsort (default: none, gsort's default)
#   EXTRA=...     more gsort options for every gsort run
#   VARIANTS="default --compress-temp=off"   the gsort option sets compared
#   UNCACHE=all   or files
#   CSV=FILE      one row per timed run (default ./bench_cgroup.csv; CSV= for none)
#   STATS_DIR=dir the last round's --stats of each gsort run goes there (CASE.VARIANT.json)
set -euo pipefail

bin=${1:?usage: bench_cgroup.sh BIN_DIR WORK_DIR [SIZE_GB] [LIMIT]}
work_base=${2:?usage: bench_cgroup.sh BIN_DIR WORK_DIR [SIZE_GB] [LIMIT]}
size_gb=${3:-12}
limit=${4:-3G}
runs=${RUNS:-3}
read -r -a cases <<<"${CASES:-random gensort ascii}"
read -r -a extra <<<"${EXTRA:-}"
IFS=';' read -r -a variants <<<"${VARIANTS:-default;--compress-temp=off}"
mode=${UNCACHE:-all}
[[ $(id -u) == 0 ]] || { echo "bench_cgroup.sh: run as root (cgroups, drop_caches)" >&2; exit 2; }
records=$((size_gb * 10000000))
mkdir -p "$work_base"
[[ -z ${STATS_DIR:-} ]] || mkdir -p "$STATS_DIR"
work=$(mktemp -d "$work_base/gsort-cg.XXXXXX")
source "$(dirname "$0")/bench_csv.sh"
source "$(dirname "$0")/bench_cgroup_lib.sh"
trap 'cg_destroy; rm -rf "$work"' EXIT
csv=${CSV-bench_cgroup.csv}
[[ -z $csv ]] || bench_csv_open "$csv"

# A field of --stats' "temp" object.
temp_field() { grep -o '"temp": *{[^}]*}' "$1" | grep -o "\"$2\": *\("'"[^"]*"'"\|[^,}]*\)" | sed 's/^[^:]*: *//'; }

echo "== bigger than RAM: $size_gb GB per case, cgroup memory limit $limit, caches: $mode," \
  "$(nproc) threads, $runs rounds, work in $work ($(df -T "$work" | awk 'NR == 2 { print $2 }'))"
for c in "${cases[@]}"; do
  case $c in
    random) head -c "$((records * 100))" /dev/urandom >"$work/$c" ;;
    gensort) "$bin/gsort-gen" --format gensort --records "$records" --seed 9 -o "$work/$c" ;;
    ascii) "$bin/gsort-gen" --format gensort --ascii --records "$records" --seed 9 -o "$work/$c" ;;
    *) echo "bench_cgroup.sh: unknown case $c" >&2; exit 2 ;;
  esac
done

# One timed command in a fresh cgroup after emptying the caches: its
# seconds go to $took, the cgroup's peak memory to $peak.
timed() {
  local name=$1 round=$2
  shift 2
  rm -f "$work/out" "$work/copy"
  uncache "$mode" "$work"/*
  cg_create "$limit" 2>/dev/null
  local s e
  s=$(now)
  cg_run "$@"
  e=$(now)
  peak=$(cg_peak)
  cg_destroy
  took=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }')
  bench_csv_row "$name" "$round" "$took" "$((records * 100))" "$@"
}

declare -A times=() peaks=() notes=()
first=${cases[0]}
cg_create "$limit" && cg_destroy  # says where, once
for ((i = 1; i <= runs; i++)); do
  timed read "$i" dd if="$work/$first" of=/dev/null bs=64M iflag=direct status=none
  times[read]+="$took "
  timed copy "$i" dd if="$work/$first" of="$work/copy" bs=64M iflag=direct oflag=direct status=none
  times[copy]+="$took "
  for c in "${cases[@]}"; do
    for v in "${variants[@]}"; do
      opts=()
      [[ $v == default ]] || read -r -a opts <<<"$v"
      [[ -z ${MEM:-} ]] || opts+=(-S "$MEM")
      key="$c|$v"
      st=$work/st.json
      timed "$c $v" "$i" "$bin/gsort" --format gensort -T "$work" "${opts[@]}" "${extra[@]}" --stats "$st" \
        "$work/$c" -o "$work/out"
      times[$key]+="$took "
      peaks[$key]=$peak
      [[ -z ${STATS_DIR:-} ]] || cp "$st" "$STATS_DIR/$c.${v//[^a-z0-9=-]/_}.json"
      notes[$key]="runs $(json_field "$st" runs), temp bytes $(temp_field "$st" bytes_written), compressed $(temp_field "$st" compressed): $(temp_field "$st" compress_reason)
      phases (last round): $(grep -o '"phases_s": *{[^}]*}' "$st" | sed 's/"phases_s": *//')"
    done
  done
done

# shellcheck disable=SC2086  # lists of times
read_t=$(median ${times[read]})
# shellcheck disable=SC2086
copy_t=$(median ${times[copy]})
floor=$(awk -v c="$copy_t" 'BEGIN { printf "%.3f", 2 * c }')
printf '  %-34s %9s %8s  %s\n' case median "/ floor" "(each round)"
printf '  %-34s %9.3f %8s  (%s)\n' "dd direct read" "$read_t" - "${times[read]}"
printf '  %-34s %9.3f %8s  (%s)\n' "dd direct copy" "$copy_t" - "${times[copy]}"
printf '  %-34s %9.3f %8.2f\n' "two-pass floor (2 x copy)" "$floor" 1.00
for c in "${cases[@]}"; do
  for v in "${variants[@]}"; do
    key="$c|$v"
    # shellcheck disable=SC2086
    m=$(median ${times[$key]})
    printf '  %-34s %9.3f %8.2f  (%s) peak %d MiB\n' "gsort $c $v" "$m" "$(awk -v a="$m" -v b="$floor" 'BEGIN { print a / b }')" \
      "${times[$key]}" "$((peaks[$key] >> 20))"
    echo "      ${notes[$key]}"
  done
done
