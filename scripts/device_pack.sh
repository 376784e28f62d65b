#!/usr/bin/env bash
# Copies a built gsort (binaries linked statically against Boost, zstd and the
# CUDA runtime) into one folder, stripped, ready to travel to a GPU machine
# that has the CUDA driver but no compiled Boost, beside a copy of the
# repository: scripts/device_check.sh and scripts/bench.sh run them there.
#   scripts/device_pack.sh [BUILD_DIR] [DEST]      (default: build .devcarry,
#                                                   relative to the repository)
# DEST/build_dir names BUILD_DIR as an absolute path: the host test suites
# run gsort, gsort-gen and gsort-test-hooks from there (their paths are
# compiled in), so device_check.sh puts them there on the GPU machine.
# ONLY="gsort gsort-gen ..." packs just those (names as below, without their
# folder); GZIPPED=1 compresses each binary, which device_check.sh unpacks:
# the whole pack of an arch-90 build is some 118 MB, over a device call's
# 64 MiB, and gsort, gsort-gen, gsort-test-hooks, gsort_gpu_tests and
# gsort_line_tests gzipped some 20 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
dest=${2:-.devcarry}
[[ -x $build/gsort ]] || { echo "device_pack.sh: no gsort in $build (scripts/build.sh first)" >&2; exit 2; }
mkdir -p "$dest"
for f in gsort gsort-mpi gsort-gen tests/gsort-test-hooks tests/gsort_unit_tests tests/gsort_conformance_tests \
         tests/gsort_cli_tests tests/gsort_gpu_tests tests/gsort_api_tests tests/gsort_distributed_unit_tests \
         tests/gsort_line_tests bench/gpu_sort_bench bench/kernel_sort_bench bench/host_alloc_bench bench/register_bench \
         bench/slice_transfer_bench bench/cpu_sort_bench bench/output_write_bench bench/pipe_floor_bench bench/spill_floor_bench bench/line_sort_bench bench/cached_bytes \
         bench/run_release_bench; do
  name=$(basename "$f")
  [[ -z ${ONLY:-} || " $ONLY " == *" $name "* ]] || continue
  if [[ -x $build/$f ]]; then
    cp "$build/$f" "$dest/"
    strip "$dest/$name"
    [[ ${GZIPPED:-0} != 1 ]] || gzip -f "$dest/$name"
  fi
done
(cd "$build" && pwd) >"$dest/build_dir"
du -sh "$dest"
