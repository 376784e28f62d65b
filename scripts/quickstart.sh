#!/usr/bin/env bash
# Installs what is missing, builds gsort and gsort-gen only (no tests, no
# benchmarks) in ${BUILD_DIR:-build-release}, says whether GPU support was
# built, generates 1,000,000 gensort records (100 MB, ASCII variant), sorts
# them, and verifies the result against GNU sort's stable sort on the same
# 10-byte key. Arguments are passed to CMake when the build folder is new
# (e.g. -DGSORT_ENABLE_CUDA=OFF).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
bin=${BUILD_DIR:-build-release}

configure=(-DGSORT_BUILD_TESTS=OFF -DGSORT_BUILD_BENCHMARKS=OFF)
# With a GPU present, compile the kernels for it alone: several times quicker
# than the default list of architectures (cmake/cuda_architectures.cmake).
gpu_archs=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d . | sort -u | paste -sd';' || true)
if [ -n "$gpu_archs" ]; then configure+=("-DCMAKE_CUDA_ARCHITECTURES=$gpu_archs"); fi
BUILD_DIR=$bin scripts/build.sh "${configure[@]}" "$@"  # "$@": more CMake options
"$bin/gsort" --version

work=$(mktemp -d "${TMPDIR:-/tmp}/gsort-quickstart.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$bin/gsort-gen" --format gensort --ascii --records 1000000 --seed 42 -o "$work/sample.bin"
time "$bin/gsort" --format gensort "$work/sample.bin" -o "$work/sorted.bin"

"$bin/gsort" -c --format gensort "$work/sorted.bin"
# Independent reference: GNU sort, stable, keyed on the first 10 bytes.
LC_ALL=C sort -s -t "$(printf '\t')" -k1.1,1.10 "$work/sample.bin" > "$work/reference.bin"
cmp "$work/sorted.bin" "$work/reference.bin"
echo "quickstart: sorted $(( $(stat -c %s "$work/sorted.bin") / 100 )) records; output matches GNU sort's stable order"
