#!/usr/bin/env bash
# What a spilling sort does to the page cache of the other programs on the
# machine (issue 12), with and without --page-cache=drop. Root only.
#
#   scripts/bench_page_cache.sh BIN_DIR WORK_DIR [SIZE_GB=4] [LIMIT=3G] [VICTIM_GB=1]
#
# The machine, scaled down, is a memory cgroup with memory.max LIMIT
# (scripts/bench_cgroup_lib.sh): page cache is charged to the cgroup that
# reads it, and reclaimed within it. Each round, in a fresh cgroup with the
# work files out of the page cache: a victim file of VICTIM_GB (someone
# else's much-used file) is read twice, so that its pages are active, as a
# hot file's are (VICTIM_READS); then gsort sorts SIZE_GB of binary gensort records with
# -S MEM, spilling runs to WORK_DIR, with each --page-cache setting in
# PAGE_CACHE. Printed per setting, medians of RUNS rounds: the victim's
# pages still cached after the sort (fincore, util-linux), the input's,
# gsort's wall time and the cgroup's page cache at the end.
# Environment:
#   RUNS=3   MEM=512M   PAGE_CACHE="keep drop"   EXTRA=... (more gsort options)
#   VICTIM_READS=2   1: the victim read once (its pages inactive, as a file
#                    used once lately)
#   UNCACHE=files (this script's files only) or all (drop_caches: the whole machine)
set -euo pipefail

bin=${1:?usage: bench_page_cache.sh BIN_DIR WORK_DIR [SIZE_GB] [LIMIT] [VICTIM_GB]}
work_base=${2:?usage: bench_page_cache.sh BIN_DIR WORK_DIR [SIZE_GB] [LIMIT] [VICTIM_GB]}
size_gb=${3:-4}
limit=${4:-3G}
victim_gb=${5:-1}
runs=${RUNS:-3}
mem=${MEM:-512M}
read -r -a settings <<<"${PAGE_CACHE:-keep drop}"
read -r -a extra <<<"${EXTRA:-}"
mode=${UNCACHE:-files}
victim_reads=${VICTIM_READS:-2}
[[ $(id -u) == 0 ]] || { echo "bench_page_cache.sh: run as root (cgroups)" >&2; exit 2; }
# fincore (util-linux), else bench/cached_bytes from BIN_DIR (the GPU hosts lack fincore).
if command -v fincore >/dev/null; then
  cached_mib() { fincore --bytes --noheadings --output RES "$1" | awk '{ printf "%d", $1 / 1048576 }'; }
elif [[ -x $bin/cached_bytes ]]; then
  cached_mib() { "$bin/cached_bytes" "$1" | awk '{ printf "%d", $1 / 1048576 }'; }
else
  echo "bench_page_cache.sh: needs fincore (util-linux) or $bin/cached_bytes (bench/cached_bytes.cpp)" >&2
  exit 2
fi
mkdir -p "$work_base"
work=$(mktemp -d "$work_base/gsort-pc.XXXXXX")
source "$(dirname "$0")/bench_csv.sh"
source "$(dirname "$0")/bench_cgroup_lib.sh"
trap 'cg_destroy; rm -rf "$work"' EXIT

cgroup_cache_mib() {
  local stat=$cg_dir/memory.stat
  awk '$1 == "file" || $1 == "cache" { printf "%d", $2 / 1048576; exit }' "$stat"
}

echo "== page cache: victim $victim_gb GB read $victim_reads times, then gsort -S $mem of $size_gb GB (spilled to $work)," \
  "cgroup limit $limit, $(nproc) threads, $runs rounds, medians"
"$bin/gsort-gen" --format gensort --records "$((size_gb * 10000000))" --seed 11 -o "$work/in"
head -c "$((victim_gb * 1000000000))" /dev/urandom >"$work/victim"

declare -A victim=() input=() wall=() cache=()
for ((i = 1; i <= runs; i++)); do
  for s in "${settings[@]}"; do
    rm -f "$work/out"
    uncache "$mode" "$work/victim" "$work/in"
    cg_create "$limit" 2>/dev/null
    for ((r = 0; r < victim_reads; r++)); do cg_run cat "$work/victim" >/dev/null; done
    before=$(cached_mib "$work/victim")
    t0=$(now)
    cg_run "$bin/gsort" --format gensort -S "$mem" -T "$work" --page-cache "$s" "${extra[@]}" "$work/in" -o "$work/out"
    t1=$(now)
    victim[$s]+="$(cached_mib "$work/victim") "
    input[$s]+="$(cached_mib "$work/in") "
    wall[$s]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') "
    cache[$s]+="$(cgroup_cache_mib) "
    echo "  round $i, --page-cache $s: victim cached before the sort $before MiB" >&2
    cg_destroy
  done
done
printf '  %-22s %18s %18s %10s %20s\n' --page-cache "victim cached MiB" "input cached MiB" "wall s" "cgroup cache MiB"
for s in "${settings[@]}"; do
  # shellcheck disable=SC2086  # lists
  printf '  %-22s %18s %18s %10s %20s   victim: %s wall: %s\n' "$s" "$(median ${victim[$s]})" \
    "$(median ${input[$s]})" "$(median ${wall[$s]})" "$(median ${cache[$s]})" "${victim[$s]}" "${wall[$s]}"
done
echo "  (victim: $((victim_gb * 1000000000 >> 20)) MiB in all)"
