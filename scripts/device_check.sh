#!/usr/bin/env bash
# On a GPU machine, in a copy of the repository with a packed build
# (scripts/device_pack.sh; CARRY, default the repository's .devcarry): runs
# the GPU and host test suites, the CUDA sanitizers on small cases, the
# distributed tests and the chosen benchmarks, from any directory, writing
# logs to ${OUT:-/tmp/gsort-device} (the tables of scripts/bench.sh under
# OUT/bench).
#   scripts/device_check.sh [tests] [gpu-tests] [sanitize] [kernels] [distributed]
#                           [bench:CASE[,CASE...]] [page-cache]     (default: tests sanitize bench:gensort-2g)
# bench:CASE runs scripts/bench.sh CASE... (scripts/bench.sh list; e.g.
# bench:targets, bench:dist, bench:cgroup as root) with BIN=CARRY; its
# variables (ROUNDS, SIZE_GB, OLD, ...) pass through. page-cache (root): what
# a 12 GB spilled sort leaves of a 4 GB victim's page cache, in cgroups of
# 16G and 100G, the victim read twice and once.
# HOST_FILTER narrows the host suites (unit, conformance, cli, lines: a gtest filter;
# default: all of them). The CLI cases are read from this copy's tests/cli/cases.
set -uo pipefail
# The suites run as ctest runs them (tests/CMakeLists.txt), and the benchmarks
# as bench.sh does: in C, whatever locale the machine sets (the H200 kind
# sets LC_ALL=en_US.UTF-8).
export LC_ALL=C
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
carry=$(cd "${CARRY:-$repo/.devcarry}" && pwd) || { echo "device_check.sh: no packed build (CARRY)" >&2; exit 2; }
# A pack made with GZIPPED=1 (device_pack.sh), unpacked where it lies (each call sends it again).
for packed in "$carry"/*.gz; do
  [[ -e $packed ]] || continue
  gunzip -f "$packed" && chmod +x "${packed%.gz}"
done
out=${OUT:-/tmp/gsort-device}
tmp=${TMPDIR:-/tmp}
mkdir -p "$out"
# The host suites run the binaries where they were built (paths compiled in).
if [[ -f $carry/build_dir ]]; then
  built=$(cat "$carry/build_dir")
  mkdir -p "$built/tests"
  cp "$carry/gsort" "$carry/gsort-gen" "$built/"
  cp "$carry/gsort-test-hooks" "$built/tests/"
else
  echo "device_check.sh: $carry/build_dir missing (packed before it was written): pack again" >&2
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
bench() { BIN=$carry RESULTS=${RESULTS:-$out/bench} "$repo/scripts/bench.sh" "$@"; }
steps=("$@")
[[ ${#steps[@]} -gt 0 ]] || steps=(tests sanitize bench:gensort-2g)
for step in "${steps[@]}"; do
  case $step in
    tests)
      "$carry/gsort_gpu_tests" >"$out/gpu_tests.log" 2>&1; echo "gsort_gpu_tests rc=$?"; tail -4 "$out/gpu_tests.log"
      : >"$out/host_tests.log"
      for suite in gsort_unit_tests gsort_conformance_tests gsort_cli_tests gsort_line_tests; do
        GSORT_CLI_CASES_DIR=$repo/tests/cli/cases "$carry/$suite" --gtest_filter="${HOST_FILTER:-*}" >"$out/$suite.log" 2>&1
        echo "$suite rc=$?"; tail -4 "$out/$suite.log"; cat "$out/$suite.log" >>"$out/host_tests.log"
      done
      grep -E "^\[  FAILED|SKIPPED \]" "$out/host_tests.log" "$out/gpu_tests.log" | head -20
      ;;
    gpu-tests)  # the suites that use the GPU in-process: the GPU tests and the library's
      for suite in gsort_gpu_tests gsort_api_tests; do
        "$carry/$suite" >"$out/$suite.log" 2>&1; echo "$suite rc=$?"; tail -3 "$out/$suite.log"
        grep -E "^\[  FAILED|SKIPPED \]" "$out/$suite.log" | head -10
      done ;;
    sanitize)
      "$carry/gsort-gen" --format gensort --records 50000 -o "$tmp/small.bin"
      for tool in memcheck racecheck; do
        filter='GpuSortOrder.*:GpuSession.*'
        [[ $tool == racecheck ]] && filter='GpuSession.*:GpuPieces.*'  # racecheck is slow: the smaller cases
        compute-sanitizer --tool $tool --error-exitcode 9 "$carry/gsort_gpu_tests" \
          --gtest_filter="$filter" >"$out/san_$tool.log" 2>&1
        echo "$tool gpu tests rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/san_$tool.log" | tail -1
        compute-sanitizer --tool $tool --error-exitcode 9 "$carry/gsort" --backend gpu --format gensort --gpu-memory 8M \
          "$tmp/small.bin" -o "$tmp/small.out" >"$out/san_cli_$tool.log" 2>&1
        echo "$tool gsort cli rc=$?"; grep -E "SUMMARY" "$out/san_cli_$tool.log" | tail -1
        # Larger than -S: held whole in device memory (sort_on_device), then in device-sized runs.
        for gpu_memory in 1G 4M; do
          compute-sanitizer --tool $tool --error-exitcode 9 "$carry/gsort" --backend gpu --format gensort -S 1M \
            --gpu-memory $gpu_memory -T "$tmp" "$tmp/small.bin" -o "$tmp/tier.out" >"$out/san_tier_$tool.log" 2>&1
          echo "$tool device tier (--gpu-memory $gpu_memory) rc=$?"; grep -E "SUMMARY" "$out/san_tier_$tool.log" | tail -1
          cmp -s "$tmp/tier.out" "$tmp/small.out" && echo "device tier output = the GPU run's"
        done
      done
      "$carry/gsort" -c --format gensort "$tmp/small.out" && echo "sanitized run output sorted"
      ;;
    bench:*)
      IFS=, read -r -a cases <<<"${step#bench:}"
      bench "${cases[@]}" 2>&1 | tee "$out/bench_${step#bench:}.log" ;;
    page-cache)
      for limit in 16G 100G; do
        for reads in 2 1; do
          LIMIT=$limit VICTIM_READS=$reads VICTIM_GB=4 SIZE_GB=12 MEM=2G UNCACHE=all \
            RESULTS="$out/bench/page-cache-$limit-$reads" bench page-cache 2>&1 | tee -a "$out/bench_page_cache.log"
        done
      done ;;
    distributed)  # issue 13's tests with every rank on a GPU and NCCL between them (2+ GPUs), and memcheck of 2 ranks
      export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
      dist_test() {
        bash "$repo/tests/distributed/distributed_test.sh" "$carry/gsort-mpi" "$carry/gsort-gen" "$carry/gsort-test-hooks" "$@"
      }
      # NCCL with up to 2 ranks (a GPU each); the MPI and shared-memory exchanges with 1 to 4 ranks sharing the GPUs
      for c in ${DIST_CASES:-keys reverse unique skew tiny inputs parts spill receive stats exchange faults}; do
        GSORT_DIST_BACKEND=gpu GSORT_DIST_EXCHANGE=nccl GSORT_DIST_MAX_RANKS=2 dist_test "$c" >"$out/dist_nccl_$c.log" 2>&1 &
        GSORT_DIST_BACKEND=gpu GSORT_DIST_EXCHANGE=mpi dist_test "$c" >"$out/dist_mpi_$c.log" 2>&1 &
        GSORT_DIST_BACKEND=gpu GSORT_DIST_EXCHANGE=shm dist_test "$c" >"$out/dist_shm_$c.log" 2>&1 &
      done
      wait
      for f in "$out"/dist_*.log; do echo "$(basename "$f" .log): $(tail -1 "$f")"; done
      (cd "$out" && tar czf dist_logs.tgz dist_*.log && rm dist_*.log)
      small=$tmp/dist_small
      "$carry/gsort-gen" -n 300000 --record-size 16 --key 0:u64 -o "$small.bin"
      "$carry/gsort" --backend cpu --record-size 16 --key 0:u64 "$small.bin" -o "$small.ref"
      for streamed in yes no; do  # -S 2M: the streamed exchange; else whole slices, pinned for the GPU backend
        mem=(); [[ $streamed == yes ]] && mem=(-S 2M)
        mpirun --allow-run-as-root -np 2 -x NCCL_NVLS_ENABLE compute-sanitizer --tool memcheck --report-api-errors no \
          --error-exitcode 9 "$carry/gsort-mpi" --backend gpu --exchange nccl "${mem[@]}" --record-size 16 --key 0:u64 \
          "$small.bin" -o "$small.out" >"$out/san_dist_$streamed.log" 2>&1
        echo "memcheck mpirun -np 2 (streamed: $streamed) rc=$?"; grep -E "ERROR SUMMARY" "$out/san_dist_$streamed.log"
        cmp "$small.ref" "$small.out" && echo "memcheck run output identical"
      done ;;
    kernels)
      "$carry/gpu_sort_bench" 2>&1 | tee "$out/gpu_sort_bench.log"
      "$carry/kernel_sort_bench" 2>&1 | tee "$out/kernel_sort_bench.log" | tail -30 ;;
    *) echo "unknown step $step" ;;
  esac
done
