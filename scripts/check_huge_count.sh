#!/usr/bin/env bash
# More than 2^32 records, end to end: 2^32 + 12345 one-byte records (4.3 GB)
# sorted with --verify (count, order-independent checksum, order) by the GPU
# and the CPU backend, each output checked with gsort -c, and the two
# compared byte for byte. Needs ~13 GB in WORK_DIR (RAM-backed is fastest)
# and ~45 GB of host memory; builds nothing (BIN_DIR holds gsort, gsort-gen).
#   scripts/check_huge_count.sh BIN_DIR [WORK_DIR=/dev/shm] [BACKENDS="gpu cpu"]
set -uo pipefail
bin=${1:?usage: check_huge_count.sh BIN_DIR [WORK_DIR] [BACKENDS]}
work=${2:-/dev/shm}
backends=${3:-gpu cpu}
n=$(( (1 << 32) + 12345 ))
trap 'rm -f "$work/huge.in" "$work"/huge.*.out' EXIT
now() { date +%s.%N; }
since() { awk -v s="$1" -v e="$(now)" 'BEGIN { printf "%.1f", e - s }'; }

s=$(now)
"$bin/gsort-gen" --record-size 1 --records "$n" -o "$work/huge.in" || exit 1
echo "generated $n records in $(since "$s") s"
status=0
for b in $backends; do
  mem=24G; [[ $b == gpu ]] && mem=40G
  s=$(now)
  "$bin/gsort" -v --verify --backend "$b" -S "$mem" -T "${TMPDIR:-/tmp}" --record-size 1 \
    "$work/huge.in" -o "$work/huge.$b.out" 2>"$work/huge.$b.err"
  rc=$?
  echo "--backend $b: exit $rc in $(since "$s") s, $(stat -c %s "$work/huge.$b.out" 2>/dev/null) bytes out"
  grep -E "verified|runs:|total:|error" "$work/huge.$b.err" | sed 's/^/    /'
  rm -f "$work/huge.$b.err"
  [[ $rc == 0 ]] || status=1
  "$bin/gsort" -c --record-size 1 "$work/huge.$b.out" && echo "    sorted (gsort -c)" || status=1
done
if [[ $backends == *gpu* && $backends == *cpu* ]]; then
  cmp "$work/huge.gpu.out" "$work/huge.cpu.out" && echo "gpu and cpu outputs are identical" || status=1
fi
exit $status
