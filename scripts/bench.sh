#!/usr/bin/env bash
# The benchmarks that docs/benchmarks.md reports, one driver for all of them
# (its "How to run" lists each case's command):
#   scripts/bench.sh CASE...      run the cases in turn (or a group: targets)
#   scripts/bench.sh list         the cases
# A case is one or more tables. Each table's variants (cp, dd, GNU sort,
# sortbin, gsort with its options, mpirun's ranks, an old build) run in
# interleaved rounds, every variant once a round, so that the machine's drift
# falls on all of them. Each timed run starts after rm of its output and sync,
# with the input in the page cache, or with caches emptied where the case says.
# Printed per table (Markdown) and written to RESULTS: the median of each
# variant, its MB/s and its ratio to the table's baseline (its first variant,
# run in the same rounds), every round's seconds; CASE[.TABLE].md, .json,
# .runs.csv (one row per timed run, the columns scripts/plot_benchmarks.py
# reads) and .K.stats.json (variant K's --stats, last round; .K.trace.json
# its --trace with TRACE=1).
#
# Environment:
#   BIN=DIR       gsort and gsort-gen (default: the repository's build/, else
#                 its .devcarry/, the packed build of scripts/device_pack.sh)
#   WORK=DIR      inputs (WORK/data, made once and reused while their kind,
#                 size and seed match), outputs and temp files; on the disk to
#                 measure (default ${TMPDIR:-/tmp}/gsort-bench)
#   RESULTS=DIR   the tables (default WORK/results)
#   ROUNDS=3      rounds; medians are reported
#   ROTATE=1      the rows after the first take turns leading each round
#                 (no row always follows the same one); 0: in order
#   ONCE=PATTERN  rows whose label matches it run in round 1 only (ONCE='GNU
#                 sort*': a slow reference timed once, its output still checked)
#   SIZE_GB=N     the input size of every case (each has its default; 0.05 for
#                 a quick try)
#   CHECK=first   check outputs (sorted, or identical to another variant's) in
#                 round 1; all: every round; none
#   GSORT_ARGS=.. more options for every gsort run;  TRACE=1: and --trace
#   OLD=DIR       an earlier build: every gsort variant also runs with
#                 DIR/gsort (OLD_GSORT_ARGS instead of GSORT_ARGS, if set), its
#                 output cmp-identical to the new one's
#   BUILDS="NAME=DIR ..."  more builds: every gsort variant also runs with
#                 each DIR/gsort, labelled NAME, its output cmp-identical
#                 (branches measured side by side in the same rounds)
#   GNU_SORT=0    leave GNU sort out (it is LC_ALL=C sort --parallel=$(nproc)
#                 -S GNU_SORT_MEM, default 50%, or the case's -S)
#   SORTBIN=FILE  also time sortbin (github.com/jorisvr/sortbin), with
#                 --memory SORTBIN_MEMORY (default half of RAM, or the case's -S)
#   SEED=7        gsort-gen's seed;  KEEP_DATA=0: remove a case's inputs after it
# Cases take more variables of their own: see `scripts/bench.sh list`.
#
# A new case: a file scripts/bench/cases/NAME.sh that registers it with
# `bench_case NAME "what it measures"` and defines case_NAME (dashes as
# underscores) building its tables with scripts/bench/lib.sh's table, row,
# gsort_row and run_table, and its inputs with scripts/bench/data.sh.
set -euo pipefail
# Both programs sort in the C locale, whatever the caller's, unless a case
# names another (locale).
export LC_ALL=C

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench_dir=$repo/scripts/bench
declare -A case_about=()
case_names=()
# shellcheck disable=SC2317  # called by the case files
bench_case() { case_names+=("$1"); case_about[$1]=$2; }
# shellcheck source=bench/lib.sh
source "$bench_dir/lib.sh"
# shellcheck source=bench/data.sh
source "$bench_dir/data.sh"
# shellcheck source=bench/cgroup.sh
source "$bench_dir/cgroup.sh"
for f in "$bench_dir"/cases/*.sh; do
  # shellcheck source=/dev/null
  source "$f"
done
declare -A groups=([targets]="gensort-2g gensort-12g u64-8g spill pipe")

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  echo "Cases:"
  for c in "${case_names[@]}"; do printf '  %-14s %s\n' "$c" "${case_about[$c]}"; done
  for g in "${!groups[@]}"; do printf '  %-14s the group: %s\n' "$g" "${groups[$g]}"; done
}

cases=()
for a in "$@"; do
  case $a in
    list | -h | --help) usage; exit 0 ;;
    *)
      if [[ -n ${groups[$a]:-} ]]; then read -r -a more <<<"${groups[$a]}"; cases+=("${more[@]}")
      elif [[ -n ${case_about[$a]:-} ]]; then cases+=("$a")
      else die "no case $a (scripts/bench.sh list)"; fi ;;
  esac
done
((${#cases[@]})) || { usage >&2; exit 2; }

bin=${BIN:-}
if [[ -z $bin ]]; then
  bin=$repo/build
  [[ -x $bin/gsort ]] || bin=$repo/.devcarry
fi
[[ -x $bin/gsort && -x $bin/gsort-gen ]] || die "no gsort and gsort-gen in $bin (BIN=DIR)"
bin=$(cd "$bin" && pwd)
[[ -z ${OLD:-} ]] || { [[ -x $OLD/gsort ]] || die "no gsort in OLD=$OLD"; OLD=$(cd "$OLD" && pwd); }
builds=()
for build in ${BUILDS:-}; do
  [[ $build == ?*=?* && -x ${build#*=}/gsort ]] || die "BUILDS takes NAME=DIR words, each DIR with a gsort: $build"
  builds+=("${build%%=*}=$(cd "${build#*=}" && pwd)")
done
work=${WORK:-${TMPDIR:-/tmp}/gsort-bench}
mkdir -p "$work"
work=$(cd "$work" && pwd)
results=${RESULTS:-$work/results}
mkdir -p "$results"
rounds=${ROUNDS:-3}
run_dir=$work/run
mkdir -p "$run_dir/tmp"
gpus=0
if "$bin/gsort" --version | grep -q "^GPU support: built"; then
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
fi
made_files=()
bench_status=0
trap 'cg_destroy; rm -rf "$run_dir"' EXIT

echo "bench.sh: $(nproc) threads, $gpus GPUs, BIN=$bin, WORK=$work ($(df -T "$work" | awk 'NR == 2 { print $2 }')), $rounds rounds; tables in $results" >&2
for case_name in "${cases[@]}"; do
  "case_${case_name//-/_}"
  rm -rf "${run_dir:?}"/*
  mkdir -p "$run_dir/tmp"
  if [[ ${KEEP_DATA:-1} == 0 ]] && ((${#made_files[@]})); then rm -f "${made_files[@]}"; made_files=(); fi
done
exit "$bench_status"
