#!/usr/bin/env bash
# CI: the host test suite (unit and CLI tests) built with AddressSanitizer and
# UndefinedBehaviorSanitizer in a build folder of its own, ${BUILD_DIR:-build-asan}.
# Any sanitizer report fails the test that triggered it. Extra arguments go
# to ctest (e.g. -R cli_). Left out: the README's commands (its library
# example links the installed libgsort.a into a program built without the
# sanitizers; step 1 runs them), packaging, the GPU and mpirun.
# Built with clang (installed here, as scripts/ci_fuzz.sh needs it too): on
# the 2-core CI machine it compiles the instrumented suite in about 390 s
# where gcc took 615 s, and its UBSan checks more (misaligned references to
# packed members). SANITIZER_CXX=g++ builds with gcc instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
build_dir=${BUILD_DIR:-build-asan}

compiler=()
if [ "${SANITIZER_CXX:-clang++}" = clang++ ]; then
  if ! command -v clang++ >/dev/null; then
    sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang libclang-rt-dev >/dev/null
  fi
  # Line tables only: the reports' file:line without full debug
  # information, less to compile and link.
  compiler=(-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang
            "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG"
            "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG")
fi

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S . -B "$build_dir" "${generator[@]}" "${launcher[@]}" "${compiler[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGSORT_SANITIZE=address,undefined -DGSORT_ENABLE_CUDA=OFF -DGSORT_ENABLE_MPI=OFF -DGSORT_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# A test that cannot run under ASan (RLIMIT_AS, huge allocations) gets the
# label no_sanitizer, with the reason beside it; none needs it so far. The
# packaging tests check files, not code, and this build has no GPU or MPI.
scripts/run_suite.sh "$build_dir" --label-exclude "no_sanitizer|packaging|readme|gpu|distributed" "$@"
