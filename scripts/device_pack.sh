#!/usr/bin/env bash
# Copies a built gsort (binaries linked statically against Boost, zstd and the
# CUDA runtime) into one folder, stripped, ready to travel to a GPU machine
# that has the CUDA driver but no compiled Boost: run them from there.
#   scripts/device_pack.sh [BUILD_DIR] [DEST]      (default: build .devcarry)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
dest=${2:-.devcarry}
mkdir -p "$dest"
for f in gsort gsort-gen tests/gsort-test-hooks tests/gsort_unit_tests tests/gsort_conformance_tests \
         tests/gsort_cli_tests tests/gsort_gpu_tests tests/gsort_api_tests bench/gpu_sort_bench bench/kernel_sort_bench bench/host_alloc_bench \
         bench/cpu_sort_bench bench/output_write_bench; do
  if [[ -x $build/$f ]]; then
    cp "$build/$f" "$dest/"
    strip "$dest/$(basename "$f")"
  fi
done
cp scripts/bench_gpu.sh scripts/bench_csv.sh scripts/bench_compress_temp.sh scripts/check_huge_count.sh "$dest/"
du -sh "$dest"
