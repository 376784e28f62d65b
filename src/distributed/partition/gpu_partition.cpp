#include "src/distributed/partition/gpu_partition.h"

#include <algorithm>

#if GSORT_HAVE_CUDA
#include "src/chunk_sort/gpu/bucket_split.h"
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#endif

namespace gsort {

#if GSORT_HAVE_CUDA
namespace {

// The cost model (docs/benchmarks.md, issue 13): the host's classify and
// scatter take about 41 + 0.75 * record_size thread-ns per record; the
// GPU's round trip (registering, both copies, the sort) about 0.22 ns per
// byte, taken as 0.11 per rank that shares the GPU's link (a GPU per rank:
// not measured).
constexpr double kHostNsPerRecord = 41, kHostNsPerRecordByte = 0.75, kGpuNsPerByteAndRank = 0.11;

double host_partition_ns(uint32_t record_size, unsigned threads) {
  return (kHostNsPerRecord + kHostNsPerRecordByte * record_size) / std::max(1u, threads);
}

// The splitters as the kernel compares them: per splitter, the key's words
// (big-endian, zero past the key), then its global record number.
SplitterWords splitter_words(const Splitters& splitters, uint32_t key_width) {
  const uint32_t words = (key_width + 7) / 8, bytes = splitters.position_bytes();
  SplitterWords out;
  out.count = splitters.count();
  out.words.reserve(static_cast<size_t>(splitters.count()) * (words + 1));
  for (int s = 0; s < splitters.count(); ++s) {
    const uint8_t* p = splitters.positions().data() + static_cast<size_t>(s) * bytes;
    for (uint32_t w = 0; w < words; ++w) {
      uint64_t v = 0;
      for (uint32_t b = 8 * w; b < 8 * w + 8; ++b) v = (v << 8) | (b < key_width ? p[b] : 0);
      out.words.push_back(v);
    }
    uint64_t index = 0;
    for (uint32_t b = key_width; b < key_width + 8; ++b) index = (index << 8) | p[b];
    out.words.push_back(index);
  }
  return out;
}

// The device's buckets, as the exchange sees a partition.
class GpuSlicePartition final : public SlicePartition {
 public:
  explicit GpuSlicePartition(std::unique_ptr<GpuBuckets> buckets) : buckets_(std::move(buckets)) {}
  const std::vector<uint64_t>& counts() const override { return buckets_->counts(); }
  void scatter(const uint8_t*, const std::vector<uint8_t*>& to, BucketMemory memory) override {
    buckets_->copy_out(to, memory == BucketMemory::kPrivate);
  }
  std::string describe() const override { return buckets_->describe(); }

 private:
  std::unique_ptr<GpuBuckets> buckets_;
};

}  // namespace

bool gpu_partition_built() { return true; }

bool gpu_partition_pays(uint32_t record_size, unsigned threads, int local_ranks) {
  // Ranks of one host take its GPUs in turn (rank_config.h) and share each one's link.
  const int gpus = std::max(1, cuda_device_count());
  const int sharing = std::max(1, (local_ranks + gpus - 1) / gpus);
  return host_partition_ns(record_size, threads) > kGpuNsPerByteAndRank * sharing * record_size;
}

void warm_up_gpu(const SortConfig& config) {
  if (config.backend != BackendChoice::kCpu) warm_up_device(config.device);
}

std::unique_ptr<SlicePartition> partition_on_gpu(const SortConfig& config, const KeyLayout& layout,
                                                 const Splitters& splitters, int ranks, const uint8_t* records,
                                                 uint64_t count, uint64_t first_index, std::string* why) {
  if (config.backend == BackendChoice::kCpu) {
    if (why) *why = "--backend cpu";
    return nullptr;
  }
  std::unique_ptr<GpuBuckets> buckets =
      partition_slice_on_gpu(GpuSplitDevice{config.device, config.gpu_memory}, layout,
                             splitter_words(splitters, layout.width()), ranks, records, count, first_index, why);
  if (!buckets) return nullptr;
  return std::make_unique<GpuSlicePartition>(std::move(buckets));
}

#else

bool gpu_partition_built() { return false; }

bool gpu_partition_pays(uint32_t, unsigned, int) { return false; }

void warm_up_gpu(const SortConfig&) {}

std::unique_ptr<SlicePartition> partition_on_gpu(const SortConfig&, const KeyLayout&, const Splitters&, int,
                                                 const uint8_t*, uint64_t, uint64_t, std::string* why) {
  if (why) *why = "built without CUDA";
  return nullptr;
}

#endif

}  // namespace gsort
