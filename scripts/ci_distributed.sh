#!/usr/bin/env bash
# CI for the distributed sort: installs Open MPI (and gsort's other build
# dependencies) where missing, builds gsort and gsort-gen with MPI (CPU
# backend is enough), and runs the distributed tests (ctest -L distributed:
# mpirun -np 1..4 against one process, refusals, faults). About 2 minutes
# on 2 cores. Extra arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}

scripts/install_deps.sh
if ! command -v mpirun >/dev/null || ! dpkg-query -W -f='${Status}' libopenmpi-dev 2>/dev/null | grep -q "ok installed"; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "installing: libopenmpi-dev openmpi-bin" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libopenmpi-dev openmpi-bin >/dev/null
fi

generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
if command -v ccache >/dev/null; then generator+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
if [ -f "$build_dir/CMakeCache.txt" ]; then
  # Configured before MPI was installed: look for it again.
  cmake -S . -B "$build_dir" -DGSORT_ENABLE_MPI=ON >/dev/null
else
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DGSORT_ENABLE_MPI=ON >/dev/null
fi
cmake --build "$build_dir" --target gsort gsort-gen --parallel "$(nproc)"

if [ "$(ctest --test-dir "$build_dir" -L distributed -N | grep -c 'distributed\.')" -eq 0 ]; then
  echo "ci_distributed: the build found no MPI (no distributed tests registered)" >&2
  exit 1
fi
ctest --test-dir "$build_dir" -L distributed --output-on-failure --parallel "$(nproc)" "$@"
