#!/usr/bin/env bash
# The exchange's cost per byte between hosts of their own (issue 55), on one
# machine: two network namespaces on a private bridge
# (tests/distributed/multihost/hosts.sh), one rank each, the records moving
# over TCP through the kernel's veth pairs, against the same two ranks on
# one host (Open MPI's shared memory, and gsort's own). Each rank's
# --stats gives the bytes it sent and the seconds it spent inside the
# exchange's collectives; the figure is their ratio, median of ROUNDS.
#   scripts/bench_multihost.sh GSORT_MPI GSORT_GEN [SIZE_MB] [ROUNDS]
# Needs root (namespaces). Prints a Markdown table.
set -euo pipefail
gsort=$(readlink -f "$1") gen=$(readlink -f "$2") size_mb=${3:-1024} rounds=${4:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/distributed/multihost/hosts.sh
source "$here/tests/distributed/multihost/hosts.sh"
mh_permitted || { echo "bench_multihost.sh: needs root with network namespaces" >&2; exit 2; }
mh_start 2
records=$((size_mb * 1000000 / 16))
"$gen" -n "$records" --record-size 16 --key 0:u64 -o "$MH_WORK/shared/in.dat"
for h in 1 2; do mh_temp_size "$h" "$((size_mb * 3))m"; done
mkdir -p "$MH_WORK/onehost"
args=(--backend cpu --record-size 16 --key 0:u64 "$MH_WORK/shared/in.dat")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# rate STATS: MB/s of what the ranks sent, over their time in the collectives.
rate() {
  python3 - "$1" <<'PY'
import json, sys
ranks = json.load(open(sys.argv[1]))["per_rank"]
sent = sum(r["bytes_sent"] for r in ranks)
wait = max(r["phases"]["exchange_wait_s"] for r in ranks)
total = max(r["phases"]["total_s"] for r in ranks)
print(f"{sent / wait / 1e6:.0f} {sent / 1e6:.0f} {wait:.3f} {total:.3f}")
PY
}
declare -A runs
for ((r = 1; r <= rounds; r++)); do
  MH_TIMEOUT=600 mh_mpirun --host "$(mh_hostlist "1 2")" -np 2 "$gsort" -T "$MH_WORK/temp" --exchange mpi "${args[@]}" \
    -o "$MH_WORK/out/sorted" --stats "$MH_WORK/out/stats.json"
  runs[tcp]+="$(rate "$MH_WORK/out/stats.json");"
  for ex in mpi shm; do
    mpirun --allow-run-as-root --oversubscribe --bind-to none -np 2 "$gsort" -T "$MH_WORK/onehost" \
      --exchange "$ex" "${args[@]}" -o "$MH_WORK/out/sorted" --stats "$MH_WORK/out/stats.json"
    runs[$ex]+="$(rate "$MH_WORK/out/stats.json");"
  done
done
echo "| 2 ranks, $size_mb MB of 16-byte records | MB/s sent over time in the exchange (median of $rounds) | MB sent | s in the exchange | s in all |"
echo "| --- | ---: | ---: | ---: | ---: |"
for k in tcp mpi shm; do
  case $k in tcp) label="two hosts (namespaces), MPI over TCP" ;; mpi) label="one host, MPI (shared memory)" ;;
    shm) label="one host, gsort's shared memory" ;; esac
  python3 - "$label" "${runs[$k]}" <<'PY'
import statistics, sys
rows = [list(map(float, r.split())) for r in sys.argv[2].split(";") if r]
med = [statistics.median(col) for col in zip(*rows)]
print(f"| {sys.argv[1]} | {med[0]:.0f} | {med[1]:.0f} | {med[2]:.3f} | {med[3]:.3f} |")
PY
done
