#!/usr/bin/env bash
# On a GPU machine, from the repository root, with a packed build in
# .devcarry (scripts/device_pack.sh): runs the GPU and host test suites, the
# CUDA sanitizers on small cases, and the chosen benchmarks, writing logs to
# ${OUT:-/tmp/gsort-device}. The host tests look for the binaries where they
# were built (/work/main/build), so they are copied there first.
#   scripts/device_check.sh [tests] [gpu-tests] [sanitize] [bench-2g] [bench-12g] [kernels]
#                           [spill-streams] [io-targets] [cgroup] [page-cache]   (issue 12; the last two as root)
# HOST_FILTER narrows the host suites (unit, conformance, cli: a gtest filter;
# default: all of them). The CLI cases are read from tests/cli/cases here.
set -uo pipefail
out=${OUT:-/tmp/gsort-device}
mkdir -p "$out" /work/main/build/tests
cp .devcarry/gsort .devcarry/gsort-gen /work/main/build/
cp .devcarry/gsort-test-hooks /work/main/build/tests/
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
steps=("$@")
[[ ${#steps[@]} -gt 0 ]] || steps=(tests sanitize bench-2g)
for step in "${steps[@]}"; do
  case $step in
    tests)
      .devcarry/gsort_gpu_tests >"$out/gpu_tests.log" 2>&1; echo "gsort_gpu_tests rc=$?"; tail -4 "$out/gpu_tests.log"
      : >"$out/host_tests.log"
      for suite in gsort_unit_tests gsort_conformance_tests gsort_cli_tests; do
        GSORT_CLI_CASES_DIR=$PWD/tests/cli/cases .devcarry/$suite --gtest_filter="${HOST_FILTER:-*}" >"$out/$suite.log" 2>&1
        echo "$suite rc=$?"; tail -4 "$out/$suite.log"; cat "$out/$suite.log" >>"$out/host_tests.log"
      done
      grep -E "^\[  FAILED|SKIPPED \]" "$out/host_tests.log" "$out/gpu_tests.log" | head -20
      ;;
    gpu-tests)  # the suites that use the GPU in-process: the GPU tests and the library's
      for suite in gsort_gpu_tests gsort_api_tests; do
        .devcarry/$suite >"$out/$suite.log" 2>&1; echo "$suite rc=$?"; tail -3 "$out/$suite.log"
        grep -E "^\[  FAILED|SKIPPED \]" "$out/$suite.log" | head -10
      done ;;
    sanitize)
      /work/main/build/gsort-gen --format gensort --records 50000 -o /tmp/small.bin
      for tool in memcheck racecheck; do
        filter='GpuSortOrder.*:GpuSession.*'
        [[ $tool == racecheck ]] && filter='GpuSession.*:GpuPieces.*'  # racecheck is slow: the smaller cases
        compute-sanitizer --tool $tool --error-exitcode 9 .devcarry/gsort_gpu_tests \
          --gtest_filter="$filter" >"$out/san_$tool.log" 2>&1
        echo "$tool gpu tests rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/san_$tool.log" | tail -1
        compute-sanitizer --tool $tool --error-exitcode 9 /work/main/build/gsort --backend gpu --format gensort --gpu-memory 8M \
          /tmp/small.bin -o /tmp/small.out >"$out/san_cli_$tool.log" 2>&1
        echo "$tool gsort cli rc=$?"; grep -E "SUMMARY" "$out/san_cli_$tool.log" | tail -1
      done
      /work/main/build/gsort -c --format gensort /tmp/small.out && echo "sanitized run output sorted"
      ;;
    bench-2g) RUNS=${RUNS:-3} .devcarry/bench_gpu.sh .devcarry /tmp/gsort-bench 2g 2>&1 | tee "$out/bench_2g.log" ;;
    bench-12g) RUNS=${RUNS:-3} .devcarry/bench_gpu.sh .devcarry /tmp/gsort-bench 12g-gpu 12g-disk 2>&1 | tee "$out/bench_12g.log" ;;
    spill-streams)  # 12 GB gensort with -S 2G: the stream count that pays, against cp
      STREAMS=${STREAMS:-1 2 4 8 16} RUNS=${RUNS:-3} scripts/bench_spill_streams.sh .devcarry /tmp 120000000 2G 2>&1 |
        tee "$out/bench_spill_streams.log" ;;
    cgroup)  # bigger than RAM: memory.max 3G, caches dropped, against the two-pass floor (~50 GB of disk)
      CASES=${CASES:-random ascii} RUNS=${RUNS:-3} CSV="$out/bench_cgroup.csv" scripts/bench_cgroup.sh .devcarry \
        /tmp/gsort-cg 12 3G 2>&1 | tee "$out/bench_cgroup.log" ;;
    page-cache)  # what a 12 GB spilled sort leaves of a 4 GB victim's page cache, under 16G and without pressure
      for limit in 16G 100G; do
        for reads in 2 1; do
          VICTIM_READS=$reads MEM=2G RUNS=${RUNS:-3} UNCACHE=all scripts/bench_page_cache.sh .devcarry /tmp/gsort-pc 12 \
            "$limit" 4 2>&1 | tee -a "$out/bench_page_cache.log"
        done
      done ;;
    io-targets)  # issue 12's targets against cp and cat|dd (with BASE_DIR=an earlier build beside); traces tarred
      mkdir -p /tmp/gsort-traces
      RUNS=${RUNS:-3} TRACE_DIR=/tmp/gsort-traces CSV="$out/io_targets.csv" scripts/bench_io_targets.sh .devcarry \
        /tmp/gsort-io 2>&1 | tee "$out/io_targets.log"
      tar czf "$out/traces.tgz" -C /tmp gsort-traces ;;
    distributed)  # issue 13's tests with every rank on a GPU and NCCL between them (2+ GPUs), and memcheck of 2 ranks
      export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
      # NCCL with up to 2 ranks (a GPU each); the MPI and shared-memory exchanges with 1 to 4 ranks sharing the GPUs
      for c in ${DIST_CASES:-keys reverse unique skew tiny inputs parts spill receive stats exchange faults}; do
        GSORT_DIST_BACKEND=gpu GSORT_DIST_EXCHANGE=nccl GSORT_DIST_MAX_RANKS=2 bash tests/distributed/distributed_test.sh \
          .devcarry/gsort .devcarry/gsort-gen .devcarry/gsort-test-hooks "$c" >"$out/dist_nccl_$c.log" 2>&1 &
        GSORT_DIST_BACKEND=gpu GSORT_DIST_EXCHANGE=mpi bash tests/distributed/distributed_test.sh \
          .devcarry/gsort .devcarry/gsort-gen .devcarry/gsort-test-hooks "$c" >"$out/dist_mpi_$c.log" 2>&1 &
        GSORT_DIST_BACKEND=gpu GSORT_DIST_EXCHANGE=shm bash tests/distributed/distributed_test.sh \
          .devcarry/gsort .devcarry/gsort-gen .devcarry/gsort-test-hooks "$c" >"$out/dist_shm_$c.log" 2>&1 &
      done
      wait
      for f in "$out"/dist_*.log; do echo "$(basename "$f" .log): $(tail -1 "$f")"; done
      tar czf "$out/dist_logs.tgz" -C "$out" $(cd "$out" && ls dist_*.log) && rm "$out"/dist_*.log
      .devcarry/gsort-gen -n 300000 --record-size 16 --key 0:u64 -o /tmp/dist_small.bin
      .devcarry/gsort --backend cpu --record-size 16 --key 0:u64 /tmp/dist_small.bin -o /tmp/dist_small.ref
      mpirun --allow-run-as-root -np 2 -x NCCL_NVLS_ENABLE compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
        .devcarry/gsort --backend gpu --exchange nccl -S 2M --record-size 16 --key 0:u64 /tmp/dist_small.bin \
        -o /tmp/dist_small.out >"$out/san_dist.log" 2>&1
      echo "memcheck mpirun -np 2 (streamed) rc=$?"; grep -E "ERROR SUMMARY" "$out/san_dist.log"
      cmp /tmp/dist_small.ref /tmp/dist_small.out && echo "memcheck run output identical"
      # The whole-slice exchange: buffers prepared beside the read, pinned for the GPU backend
      mpirun --allow-run-as-root -np 2 -x NCCL_NVLS_ENABLE compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
        .devcarry/gsort --backend gpu --exchange nccl --record-size 16 --key 0:u64 /tmp/dist_small.bin \
        -o /tmp/dist_small.out >"$out/san_dist_whole.log" 2>&1
      echo "memcheck mpirun -np 2 (whole slices) rc=$?"; grep -E "ERROR SUMMARY" "$out/san_dist_whole.log"
      cmp /tmp/dist_small.ref /tmp/dist_small.out && echo "memcheck whole-slice output identical" ;;
    bench-distributed)  # issue 13's benchmark (SIZE_GB per data set; 24 and 32 for the issue's figures)
      RANKS=${RANKS:-1 2} EXCHANGES=${EXCHANGES:-shm mpi nccl} RUNS=${RUNS:-3} CSV="$out/bench_distributed.csv" \
        scripts/bench_distributed.sh .devcarry /tmp/gsort-dist 2>&1 | tee "$out/bench_distributed.log" ;;
    kernels) .devcarry/gpu_sort_bench 2>&1 | tee "$out/gpu_sort_bench.log"; .devcarry/kernel_sort_bench 2>&1 | tee "$out/kernel_sort_bench.log" | tail -30 ;;
    *) echo "unknown step $step" ;;
  esac
done
