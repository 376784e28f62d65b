// Partitioning a rank's whole slice on its GPU (src/chunk_sort/gpu/
// bucket_split.h does the CUDA work): the slice crosses PCIe once, the GPU
// finds every destination and orders the records by bucket, and scatter()
// copies the buckets back to where the exchange wants them. On the host it
// costs a registration and the copies back; the host's Partitioner reads
// every record twice and writes it once (classify, then scatter), which for
// small records costs more than the bytes (docs/benchmarks.md, issue 13).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/config/sort_config.h"
#include "src/distributed/partition/slice_partition.h"
#include "src/distributed/partition/splitters.h"
#include "src/keys/key_layout.h"

namespace gsort {

// Whether this build can partition on a GPU at all.
bool gpu_partition_built();

// Whether partitioning on the GPU is expected to beat the host's `threads`
// for records of this size, with `local_ranks` ranks on the host sharing
// its GPUs: the host pays per record, the GPU per byte (the slice crosses
// the link and its buckets come back), so small records go to the GPU and
// large ones stay (the cost model is in the source).
bool gpu_partition_pays(uint32_t record_size, unsigned threads, int local_ranks);

// Makes the CUDA context on the rank's GPU (about 0.3 s) where the GPU may
// partition, so that it is ready when the slice is; run on its own thread
// beside the splitters. Never throws.
void warm_up_gpu(const SortConfig& config);

// The slice's `count` records (global record `first_index` first) split on
// GPU config.device; null, with the reason in `why`, where it cannot be:
// --backend cpu, no usable GPU, too little free device memory (or more than
// --gpu-memory allows), 2^32 records or more, or more than 65,536 ranks.
// Throws on a CUDA failure after the decision (not collective).
std::unique_ptr<SlicePartition> partition_on_gpu(const SortConfig& config, const KeyLayout& layout,
                                                 const Splitters& splitters, int ranks, const uint8_t* records,
                                                 uint64_t count, uint64_t first_index, std::string* why);

}  // namespace gsort
