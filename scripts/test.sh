#!/usr/bin/env bash
# Installs what is missing, builds gsort with its tests, and runs the whole
# suite with ctest. GPU tests skip themselves where no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
# The test build compiles the kernels for one GPU generation, Hopper (the
# H100/H200 the GPU suites run on): about a quarter of the CUDA compile time
# of the installable default list (cmake/cuda_architectures.cmake).
# GSORT_TEST_CUDA_ARCHITECTURES changes it.
scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES="${GSORT_TEST_CUDA_ARCHITECTURES:-90}"
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure --parallel "$(nproc)" "$@"
