# The layers of gsort, lowest first, and what each may include. A layer is
# a folder or a file (by path prefix from the project root; the longest
# prefix that matches a file is its layer); a file may include its own
# layer's headers and those of the layers named after it. The
# gsort_layer_check target (cmake/check_layers.cmake) fails the build on
# any other project include, so a dependency that runs upward, or sideways
# between rooms that must not know each other, cannot land.
# What the distributed sort's rooms may include below them: neither kernels
# nor src/cuda (GPU work is behind src/chunk_sort/gpu's functions, declared
# without CUDA types); only the NCCL exchange, which moves records through
# the GPUs, sees src/cuda.
set(GSORT_BELOW_DISTRIBUTED
    "src/core io src/keys src/config src/algo src/chunk_sort src/verify src/output src/merge src/report src/pipeline")
set(GSORT_LAYERS
  "include/gsort:"
  "src/core:"
  "src/cuda:src/core"
  # io/, by job: the file wrapper first; the rooms above it know only what
  # they name.
  "io/file:src/core"
  "io/temp:src/core io/file"
  "io/cache:src/core io/file"
  "io/codec:src/core io/file"
  "io/input:src/core io/file io/temp io/cache io/codec"
  "io/run:src/core io/file io/codec"
  "io/output:src/core io/file io/temp io/codec"
  "src/keys:src/core src/cuda"
  "src/config:src/core src/cuda src/keys"
  "src/algo:src/core src/cuda"
  "kernels:src/core src/cuda src/keys src/algo"
  # The backends know the interface and the shared entries, never each
  # other; only the factory at the top of src/chunk_sort sees them all.
  "src/chunk_sort/entries:src/core src/cuda src/keys src/algo"
  "src/chunk_sort/cpu:src/core src/cuda src/keys src/config src/algo src/chunk_sort/sort_backend.h src/chunk_sort/entries"
  "src/chunk_sort/gpu:src/core src/cuda src/keys src/config src/algo kernels src/chunk_sort/sort_backend.h"
  "src/chunk_sort/hybrid:src/core src/cuda src/keys src/config src/algo src/chunk_sort/sort_backend.h src/chunk_sort/entries"
  # The sorters of a chunk of lines (the line unit's chunk sort, on the
  # keys' images): beside the records' backends, whose CPU sorts and shared
  # entries they use; their gpu/ room alone sees kernels, src/cuda and the
  # GPU backend's context.
  "src/chunk_sort/lines:src/core src/keys src/config src/algo src/chunk_sort/cpu src/chunk_sort/entries src/chunk_sort/gpu/make_gpu_backend.h"
  "src/chunk_sort/lines/gpu:src/core src/cuda src/keys src/config src/algo kernels src/chunk_sort/cpu src/chunk_sort/entries src/chunk_sort/gpu src/chunk_sort/lines"
  "src/chunk_sort:src/core src/cuda src/keys src/config src/algo kernels"
  "src/verify:src/core src/cuda io src/keys src/config src/algo"
  "src/output:src/core src/cuda io src/keys src/config src/algo src/verify"
  "src/report:src/core src/cuda io src/keys src/config src/chunk_sort src/verify"
  # The merge in one room: the run merger, the passes and the early merges
  # of waiting runs, their limits, the run files they write and read and
  # the runs held in the GPU's memory, and the units a merge in ranges
  # takes (record_unit.h, line_unit.h) with their range cuts; for lines,
  # the merge in batches, its windows and the runs' writer (line_*.h).
  "src/merge:src/core src/cuda io src/keys src/config src/algo src/chunk_sort src/output src/verify src/report"
  # The store of runs held in the GPU's memory: alone in the merge it sees
  # src/cuda, the GPU backend's context and the kernel that gathers lines
  # into it.
  "src/merge/device:src/core src/cuda io src/algo kernels src/chunk_sort/gpu src/merge/held_runs.h src/merge/merge_run.h"
  "src/pipeline:src/core src/cuda io src/keys src/config src/algo src/chunk_sort src/verify src/output src/merge src/report"
  # Text lines: the line sort's driver and its stages at the top of
  # src/lines, and debug (--debug's annotations). GNU sort's key model for
  # lines and the reference comparison are src/keys', a chunk's sorters
  # src/chunk_sort/lines', the chunk reader io/input's, the merge in
  # batches, its windows and the runs' writer src/merge's, the line writer
  # src/output's, --verify's ledger and -c src/verify's.
  "src/lines/debug:src/core io src/keys src/config"
  "src/lines:src/core io src/keys src/config src/algo src/chunk_sort src/verify src/output src/merge src/report src/pipeline"
  # The distributed sort's rooms run one way: ranks; then output (which
  # knows only ranks) and partition; local, which sorts into the output;
  # then exchange, which fills local's buffers with partition's buckets.
  # distributed_sort.cpp at the top sequences them.
  "src/distributed/ranks:${GSORT_BELOW_DISTRIBUTED}"
  "src/distributed/output:${GSORT_BELOW_DISTRIBUTED} src/distributed/ranks"
  "src/distributed/partition:${GSORT_BELOW_DISTRIBUTED} src/distributed/ranks"
  "src/distributed/local:${GSORT_BELOW_DISTRIBUTED} src/distributed/ranks src/distributed/output"
  "src/distributed/exchange:${GSORT_BELOW_DISTRIBUTED} src/distributed/ranks src/distributed/partition src/distributed/local"
  "src/distributed/exchange/nccl:${GSORT_BELOW_DISTRIBUTED} src/cuda src/distributed/ranks src/distributed/exchange"
  # Text lines across ranks: their slices, sorted parts and exchange.
  "src/distributed/lines:${GSORT_BELOW_DISTRIBUTED} src/distributed/ranks src/distributed/partition src/distributed/local src/distributed/exchange"
  # The drivers; the lines' runs one process's line sort (src/lines) on each
  # rank's slice and on what it receives.
  "src/distributed:${GSORT_BELOW_DISTRIBUTED} src/lines"
  "src/cli:src/core src/cuda io src/keys src/config"
  "src/api:src/core src/cuda io src/keys src/config src/algo src/chunk_sort src/verify src/output src/merge src/report src/pipeline src/lines src/cli"
  "src/gen:src/core src/cuda io src/keys src/cli"
  "src/main.cpp:src/core src/cuda io src/keys src/config src/chunk_sort src/verify src/output src/merge src/report src/pipeline src/lines src/distributed src/cli src/api tests/support/fault_hooks.h"
)
