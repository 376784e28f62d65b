// Splitting a rank's slice into one bucket per rank on a GPU, for the
// distributed sort: the slice crosses the link once (its pages registered
// for DMA as it goes, not copied), the GPU finds every record's destination
// and orders the records by destination, stably (kernels/bucket_partition.h),
// and copy_out() brings buckets back to where the caller wants them. No
// CUDA types here; implemented only in builds with CUDA.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/keys/key_layout.h"

namespace gsort {

// The splitters as the kernel compares them: per splitter, the key's 8-byte
// words (big-endian, zero past the key), then its global record number.
struct SplitterWords {
  std::vector<uint64_t> words;
  int count = 0;
};

// A slice's buckets, back to back in destination order on the device.
class GpuBuckets {
 public:
  virtual ~GpuBuckets() = default;
  // Each bucket's size, in destination order.
  virtual const std::vector<uint64_t>& counts() const = 0;
  // Copies bucket d to to[d] (room for counts()[d] records) for every
  // non-null to[d]; a null one is left for a later call. `may_pin`: nothing
  // else pins, fills or frees the targets meanwhile, so that they may be
  // registered for the copy. The device memory goes once every bucket is out.
  virtual void copy_out(const std::vector<uint8_t*>& to, bool may_pin) = 0;
  // What it did and how long each step took, for -v.
  virtual std::string describe() const = 0;
};

// Where the memory is: the device to use, and the most of its memory that
// may be taken (0: what is free, less a reserve for the local sort).
struct GpuSplitDevice {
  int device = 0;
  uint64_t memory_cap = 0;
};

// The slice's `count` records (global record `first_index` first) split
// into `ranks` buckets by `splitters`; null, with the reason in `why`,
// where the GPU cannot: more than 65,536 ranks, no records, 2^32 records or
// more, no usable GPU, too little free device memory. Throws on a CUDA
// failure after the decision.
std::unique_ptr<GpuBuckets> partition_slice_on_gpu(const GpuSplitDevice& gpu, const KeyLayout& layout,
                                                   const SplitterWords& splitters, int ranks, const uint8_t* records,
                                                   uint64_t count, uint64_t first_index, std::string* why);

// Makes the CUDA context on `device` where it is usable (about 0.3 s), so
// that it is ready when the slice is. Never throws.
void warm_up_device(int device);

}  // namespace gsort
