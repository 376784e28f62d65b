#!/usr/bin/env bash
# CI: builds the libFuzzer targets of tests/fuzz with clang (ASan+UBSan on
# every library, in ${BUILD_DIR:-build-fuzz}) and runs each for
# FUZZ_SECONDS (default 60) from a copy of its seed corpus, so the tree stays
# clean. Fails on any crash, sanitizer report, leak, timeout (-timeout, one
# input) or out-of-memory (-rss_limit_mb); the reproducer is kept in
# ${FUZZ_ARTIFACTS:-BUILD_DIR/fuzz-artifacts}/<target>/.
# Usage: scripts/ci_fuzz.sh [TARGET...]   (default: all of them)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang libclang-rt-dev >/dev/null
fi

build_dir=${BUILD_DIR:-build-fuzz}
seconds=${FUZZ_SECONDS:-60}
artifacts=$(realpath -m "${FUZZ_ARTIFACTS:-$build_dir/fuzz-artifacts}")
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(size_parse_fuzz key_spec_fuzz options_fuzz run_reader_fuzz zstd_input_fuzz compressed_input_fuzz)
fi

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S . -B "$build_dir" "${generator[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang -DGSORT_ENABLE_CUDA=OFF -DGSORT_FUZZ=ON \
  -DGSORT_BUILD_TESTS=OFF -DGSORT_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)" --target "${targets[@]}"

export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The targets run side by side, one per core (each fuzzer is one process on
# one core): the same seconds each, in a fraction of the wall time.
jobs_at_once=${FUZZ_JOBS:-$(nproc)}
for t in "${targets[@]}"; do
  mkdir -p "$work/$t" "$artifacts/$t"
  cp tests/fuzz/corpus/"$t"/* "$work/$t"/
  echo "== $t: ${seconds}s"
  (
    rc=0
    "$build_dir/tests/fuzz/$t" "$work/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$artifacts/$t/" -print_final_stats=1 >"$work/$t.log" 2>&1 || rc=$?
    echo "$rc" >"$work/$t.rc"
  ) &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
done
wait
failed=()
for t in "${targets[@]}"; do
  if [ "$(cat "$work/$t.rc")" != 0 ]; then
    echo "== $t failed:"
    tail -n 60 "$work/$t.log"
    failed+=("$t")
  else
    echo "== $t:"
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$work/$t.log" || true
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing failed: ${failed[*]} (reproducers in $artifacts)" >&2
  exit 1
fi
rmdir "$artifacts"/* "$artifacts" 2>/dev/null || true
echo "fuzzing: no findings"
