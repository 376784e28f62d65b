#!/usr/bin/env bash
# Configures and builds gsort into ${BUILD_DIR:-build} (Release). The GPU
# backend is built when nvcc is found (set CUDACXX or put nvcc on PATH);
# without it the build is CPU-only.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}

if [ -z "${CUDACXX:-}" ] && ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
# ccache, where installed, makes rebuilds in other build folders cheap.
if command -v ccache >/dev/null; then
  generator+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
fi
cmake --build "$build_dir" --parallel "$(nproc)"
