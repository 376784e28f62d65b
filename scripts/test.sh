#!/usr/bin/env bash
# Installs what is missing, builds gsort with its tests, and runs the whole
# suite with ctest (scripts/run_suite.sh: it fails too if a test left a
# scratch directory behind). GPU tests skip themselves where no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
# The test build compiles the kernels for one GPU generation, Hopper (the
# H100/H200 the GPU suites run on): about a quarter of the CUDA compile time
# of the installable default list (cmake/cuda_architectures.cmake).
# GSORT_TEST_CUDA_ARCHITECTURES changes it.
scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES="${GSORT_TEST_CUDA_ARCHITECTURES:-90}"
# GSORT_WITH_MPI=1 (CI) promises the distributed tests: a build that found
# no MPI would leave them out without a word.
if [ "${GSORT_WITH_MPI:-0}" = 1 ] &&
   ! ctest --test-dir "${BUILD_DIR:-build}" -N -L distributed | grep ' distributed\.' >/dev/null; then
  echo "test.sh: GSORT_WITH_MPI=1, but ${BUILD_DIR:-build} has no distributed tests (configured before Open MPI" \
       "was installed? remove it and run again)" >&2
  exit 1
fi
# The suite, and a check that it left no scratch directory in /tmp.
scripts/run_suite.sh "${BUILD_DIR:-build}" "$@"
