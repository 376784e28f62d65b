#!/usr/bin/env bash
# How fast N processes (the distributed sort's ranks on one host) write one
# shared output file, by each way, against N separate files, into the page
# cache: rounds interleaved, wall time from the first start to the last end.
#   scripts/probe_shared_output.sh BIN_DIR WORK_DIR [SIZE_MiB=12288] [N=2] [THREADS=8] [ROUNDS=3]
set -euo pipefail
bin=$1 work=$2 size=${3:-12288} n=${4:-2} threads=${5:-8} rounds=${6:-3}
mkdir -p "$work"
run() {  # WAY: shared file (pwrite, mmap, direct; preallocated by fallocate) or "files"
  local way=$1 s e
  rm -f "$work"/out*; sync
  if [ "$way" = files ]; then
    for ((k = 0; k < n; k++)); do fallocate -l $((size / n))M "$work/out$k"; done
  else
    fallocate -l "${size}M" "$work/out"
  fi
  s=$(date +%s.%N)
  for ((k = 0; k < n; k++)); do
    if [ "$way" = files ]; then
      "$bin/output_write_bench" --part 0 1 pwrite "$work/out$k" $((size / n)) "$threads" >/dev/null &
    else
      "$bin/output_write_bench" --part "$k" "$n" "$way" "$work/out" "$size" "$threads" >/dev/null &
    fi
  done
  wait
  e=$(date +%s.%N)
  awk -v w="$way" -v s="$s" -v e="$e" -v b="$size" 'BEGIN{printf "  %-7s %.3f s %.2f GB/s\n", w, e-s, b*1048576/(e-s)/1e9}'
}
echo "$n processes, $size MiB in all, $threads threads each"
for ((r = 1; r <= rounds; r++)); do
  echo "round $r"
  for way in files pwrite mmap direct; do run "$way"; done
done
rm -f "$work"/out*
