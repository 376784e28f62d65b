#!/usr/bin/env bash
# The distributed sort's benchmark: `mpirun -np N gsort` for each N of
# RANKS against one process, on gensort records and on 16-byte records with
# a u64 key, with one output file and with --output-parts, through each data
# plane of EXCHANGES. Builds nothing: BIN_DIR holds gsort and gsort-gen (a
# build with MPI; with CUDA and nccl.h for --exchange nccl).
#   scripts/bench_distributed.sh BIN_DIR [WORK_DIR]
# Environment: SIZE_GB (per data set, default 4), RANKS ("1 2"), EXCHANGES
# ("mpi", or "shm mpi nccl" on GPU machines), SETS ("gensort u64"), RUNS (3), SORT_ARGS (extra gsort
# options, e.g. "-S 32G" where MemTotal starts small), CSV (file, default
# ./bench_distributed.csv; CSV= for none). Every output is checked against
# the one-process output (cmp) before it is timed again.
# Prints per case the median wall time, GB/s, speedup over one process, and
# from the last run's --stats each rank's phases (exchange, the part of it
# inside the collectives, local sort, write) and bytes sent.
# NCCL's NVLink multicast stays off (NCCL_NVLS_ENABLE=0), as gsort sets it.
set -euo pipefail

bin=${1:?usage: bench_distributed.sh BIN_DIR [WORK_DIR]}
work=${2:-/tmp/gsort-dist-bench}
size_gb=${SIZE_GB:-4}
ranks_list=${RANKS:-1 2}
exchanges=${EXCHANGES:-mpi}
runs=${RUNS:-3}
sort_args=(${SORT_ARGS:-})
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi_flags=(--allow-run-as-root --bind-to none)

source "$(dirname "$0")/bench_csv.sh"
csv=${CSV-bench_distributed.csv}
[[ -z $csv ]] || bench_csv_open "$csv"
now() { date +%s.%N; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)," \
     "GPUs: $(nvidia-smi -L 2>/dev/null | wc -l)"
echo "gsort: $("$bin/gsort" --version | tr '\n' ' ')"
# What mpirun itself costs (start and end of the job), for the gap between
# the ranks' own totals and the wall time.
for n in $ranks_list; do
  s=$(date +%s.%N); mpirun "${mpi_flags[@]}" -np "$n" true; e=$(date +%s.%N)
  awk -v n="$n" -v s="$s" -v e="$e" 'BEGIN { printf "mpirun -np %d true: %.3f s\n", n, e - s }'
done

# Median seconds of RUNS runs of "$@"; each run's output is compared with
# $work/ref by `check`.
timed() {
  local case_name=$1 bytes=$2 check=$3
  shift 3
  local times=() s e
  for ((i = 0; i < runs; i++)); do
    rm -rf "$work/out" "$work/parts"
    sync
    s=$(now)
    "$@" >/dev/null 2>"$work/last.err" || { cat "$work/last.err" >&2; exit 1; }
    e=$(now)
    $check
    times+=("$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f", e - s }')")
    bench_csv_row "$case_name" "$((i + 1))" "${times[-1]}" "$bytes" "$@"
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}

same_file() { cmp -s "$work/ref" "$work/out" || { echo "OUTPUT DIFFERS from one process" >&2; exit 1; }; }
same_parts() { cat "$work"/parts/part-* | cmp -s "$work/ref" - || { echo "PARTS DIFFER from one process" >&2; exit 1; }; }

# The last run's per-rank phases from its --stats (rank 0 writes it).
rank_phases() {
  python3 - "$work/stats.json" <<'EOF' || true
import json, sys
s = json.load(open(sys.argv[1]))
for r in s.get("per_rank", []):
    p = r.get("phases", {})
    print("      rank %d: exchange %.2f s (read+partition %.2f s [map %.2f, classify %.2f, place %.2f], start %.2f s, "
          "allocate %.2f s, in collectives %.2f s), local sort %.2f s (sort %.2f s, gather+write %.2f s, "
          "release %.2f s), write %.2f s, total %.2f s; sent %.2f GB, received %.2f GB, %d rounds" % (
          r["rank"], p.get("exchange_s", 0), p.get("read_s", 0), p.get("map_s", 0), p.get("classify_s", 0),
          p.get("place_s", 0), p.get("start_s", 0), p.get("allocate_s", 0), p.get("exchange_wait_s", 0),
          p.get("sort_s", 0), p.get("order_s", 0), p.get("part_write_s", 0), p.get("release_s", 0),
          p.get("write_s", 0), p.get("total_s", 0), r.get("bytes_sent", 0) / 1e9, r.get("bytes_received", 0) / 1e9,
          r.get("rounds", 0)))
EOF
}

run_set() {  # name gen-args... -- sort-args...
  local name=$1
  shift
  local gen_args=() args=()
  while [[ $1 != -- ]]; do gen_args+=("$1"); shift; done
  shift
  args=("$@" "${sort_args[@]}")
  "$bin/gsort-gen" "${gen_args[@]}" -o "$work/in"
  local bytes
  bytes=$(stat -c %s "$work/in")
  echo
  echo "== $name: $(awk -v b="$bytes" 'BEGIN { printf "%.1f GB", b / 1e9 }')"
  "$bin/gsort" "${args[@]}" "$work/in" -o "$work/ref"
  local one
  one=$(timed "$name-1proc" "$bytes" "true" "$bin/gsort" "${args[@]}" "$work/in" -o "$work/out")
  awk -v t="$one" -v b="$bytes" 'BEGIN { printf "  %-34s %8.3f s %7.2f GB/s\n", "one process", t, b / 1e9 / t }'
  for n in $ranks_list; do
    for ex in $exchanges; do
      for shape in file parts; do
        local out_args=(-o "$work/out") check=same_file
        if [[ $shape == parts ]]; then out_args=(-o "$work/parts" --output-parts); check=same_parts; fi
        local t
        t=$(timed "$name-np$n-$ex-$shape" "$bytes" "$check" mpirun "${mpi_flags[@]}" -np "$n" "$bin/gsort" \
              "${args[@]}" --exchange "$ex" --stats "$work/stats.json" "$work/in" "${out_args[@]}")
        awk -v n="np $n, $ex, $shape" -v t="$t" -v b="$bytes" -v one="$one" \
          'BEGIN { printf "  %-34s %8.3f s %7.2f GB/s %6.2fx one process\n", n, t, b / 1e9 / t, one / t }'
        rank_phases
      done
    done
  done
  rm -f "$work/in" "$work/ref"
}

records_gensort=$(awk -v g="$size_gb" 'BEGIN { printf "%d", g * 1e9 / 100 }')
records_u64=$(awk -v g="$size_gb" 'BEGIN { printf "%d", g * 1e9 / 16 }')
for set in ${SETS:-gensort u64}; do
  case $set in
    gensort) run_set gensort --format gensort --records "$records_gensort" --seed 13 -- --format gensort ;;
    u64) run_set u64 --record-size 16 --key 0:u64 --records "$records_u64" --seed 13 -- --record-size 16 --key 0:u64 ;;
    *) echo "unknown set $set" >&2; exit 2 ;;
  esac
done
