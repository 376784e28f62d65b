#include "src/distributed/partition/gpu_partition.h"

#if GSORT_HAVE_CUDA
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "kernels/bucket_partition.h"
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/core/stopwatch.h"
#include "src/cuda/resources.h"
#endif

namespace gsort {

#if GSORT_HAVE_CUDA
namespace {

// Device memory left to others (the local sort's backend starts beside
// this): at least this much, or a tenth of what is free.
constexpr uint64_t kDeviceReserveBytes = 1ull << 30;
constexpr int kMostRanks = 1 << 16;  // destinations are 16-bit
// The slice goes over in pieces: each is registered while the one before
// it crosses the link, and its destinations are found as it lands. A
// multiple of any page size.
constexpr uintptr_t kPieceBytes = 512ull << 20;
// Buckets smaller than this are copied back unpinned.
constexpr uint64_t kPinForCopyBytes = 64ull << 20;

// Measured with two ranks of 8 threads sharing one H200 host's GPU, 16-
// and 100-byte records (docs/benchmarks.md, issue 13, tenth session): the
// host's classify and scatter took about 41 + 0.75 * record_size thread-ns
// per record; the GPU's round trip (registering, both copies, the sort)
// about 0.22 ns per byte, taken as 0.11 per rank that shares the GPU's
// link (a GPU per rank: not measured).
constexpr double kHostNsPerRecord = 41, kHostNsPerRecordByte = 0.75, kGpuNsPerByteAndRank = 0.11;

double host_partition_ns(uint32_t record_size, unsigned threads) {
  return (kHostNsPerRecord + kHostNsPerRecordByte * record_size) / std::max(1u, threads);
}

int destination_bits(int ranks) {
  int bits = 1;
  while ((1 << bits) < ranks) ++bits;
  return bits;
}

// The splitters as the kernel compares them: per splitter, the key's words
// (big-endian, zero past the key), then its global record number.
std::vector<uint64_t> splitter_words(const Splitters& splitters, uint32_t key_width) {
  const uint32_t words = (key_width + 7) / 8, bytes = splitters.position_bytes();
  std::vector<uint64_t> out;
  out.reserve(static_cast<size_t>(splitters.count()) * (words + 1));
  for (int s = 0; s < splitters.count(); ++s) {
    const uint8_t* p = splitters.positions().data() + static_cast<size_t>(s) * bytes;
    for (uint32_t w = 0; w < words; ++w) {
      uint64_t v = 0;
      for (uint32_t b = 8 * w; b < 8 * w + 8; ++b) v = (v << 8) | (b < key_width ? p[b] : 0);
      out.push_back(v);
    }
    uint64_t index = 0;
    for (uint32_t b = key_width; b < key_width + 8; ++b) index = (index << 8) | p[b];
    out.push_back(index);
  }
  return out;
}

// Host memory registered for DMA for as long as it lives, where the driver
// allows; otherwise copies with it go through the driver's staging. The
// range is widened to whole pages, which lie inside the same mapping.
class Registration {
 public:
  Registration(const void* p, size_t bytes, unsigned flags) {
    if (bytes == 0) return;
    const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const uintptr_t begin = reinterpret_cast<uintptr_t>(p) / page * page;
    const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes + page - 1) / page * page;
    p_ = reinterpret_cast<void*>(begin);
    if (cudaHostRegister(p_, end - begin, flags) != cudaSuccess) {
      (void)cudaGetLastError();
      p_ = nullptr;
    }
  }
  ~Registration() {
    if (p_) GSORT_CUDA_REPORT(cudaHostUnregister(p_));
  }
  Registration(const Registration&) = delete;
  Registration& operator=(const Registration&) = delete;

 private:
  void* p_ = nullptr;
};

std::string describe_copy(const char* what, uint64_t bytes, double seconds) {
  char text[96];
  std::snprintf(text, sizeof text, "%s %.2f GB in %.3f s", what, static_cast<double>(bytes) / 1e9, seconds);
  return text;
}

class GpuSlicePartition : public SlicePartition {
 public:
  GpuSlicePartition(int device, uint32_t record_size, cuda::DeviceBuffer buckets, std::vector<uint64_t> counts,
                    std::string upload)
      : device_(device), record_size_(record_size), buckets_(std::move(buckets)), counts_(std::move(counts)),
        copied_(counts_.size(), false), describe_(std::move(upload)) {}
  // The members (stream, device memory) go on the rank's device, whichever
  // thread lets this go.
  ~GpuSlicePartition() override {
    if (cudaSetDevice(device_) != cudaSuccess) (void)cudaGetLastError();
  }
  GpuSlicePartition(const GpuSlicePartition&) = delete;
  GpuSlicePartition& operator=(const GpuSlicePartition&) = delete;

  const std::vector<uint64_t>& counts() const override { return counts_; }

  void scatter(const uint8_t*, const std::vector<uint8_t*>& to, BucketMemory memory) override {
    GSORT_CUDA_CHECK(cudaSetDevice(device_));
    const Stopwatch copying;
    // Copies into pinned memory run at the link's speed, into pageable
    // memory through the driver's staging at a quarter of it or less;
    // pinning faulted memory costs less than the difference.
    std::unique_ptr<Registration> pinned;
    if (memory == BucketMemory::kPrivate) pinned = pin_targets(to);
    uint64_t start = 0, bytes_out = 0;
    for (size_t d = 0; d < counts_.size(); ++d) {
      const uint64_t bytes = counts_[d] * record_size_;
      if (to[d] && bytes > 0) {
        GSORT_CUDA_CHECK(
            cudaMemcpyAsync(to[d], buckets_.data() + start, bytes, cudaMemcpyDeviceToHost, stream_.get()));
        bytes_out += bytes;
      }
      if (to[d]) copied_[d] = true;
      start += bytes;
    }
    stream_.synchronize();
    pinned.reset();
    describe_ += describe_copy(memory == BucketMemory::kPrivate ? "; back (pinned)" : "; back", bytes_out,
                               copying.seconds());
    // Every bucket is out: the device memory goes back to the local sort.
    if (std::all_of(copied_.begin(), copied_.end(), [](bool c) { return c; })) buckets_ = cuda::DeviceBuffer();
  }

  std::string describe() const override { return describe_; }

 private:
  // One registration over the span of the buckets to be filled.
  std::unique_ptr<Registration> pin_targets(const std::vector<uint8_t*>& to) const {
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (size_t d = 0; d < counts_.size(); ++d) {
      const uint64_t bytes = counts_[d] * record_size_;
      if (!to[d] || bytes == 0) continue;
      lo = std::min(lo, reinterpret_cast<uintptr_t>(to[d]));
      hi = std::max(hi, reinterpret_cast<uintptr_t>(to[d]) + bytes);
    }
    if (hi <= lo || hi - lo < kPinForCopyBytes) return nullptr;
    return std::make_unique<Registration>(reinterpret_cast<void*>(lo), hi - lo, cudaHostRegisterDefault);
  }

  int device_;
  uint32_t record_size_;
  cuda::Stream stream_;
  cuda::DeviceBuffer buckets_;  // the buckets back to back, in rank order
  std::vector<uint64_t> counts_;
  std::vector<bool> copied_;
  std::string describe_;
};

std::unique_ptr<SlicePartition> refuse(std::string* why, const std::string& text) {
  if (why) *why = text;
  return nullptr;
}

}  // namespace

bool gpu_partition_built() { return true; }

bool gpu_partition_pays(uint32_t record_size, unsigned threads, int local_ranks) {
  // Ranks of one host take its GPUs in turn (rank_config.h) and share each one's link.
  const int gpus = std::max(1, cuda_device_count());
  const int sharing = std::max(1, (local_ranks + gpus - 1) / gpus);
  return host_partition_ns(record_size, threads) > kGpuNsPerByteAndRank * sharing * record_size;
}

void warm_up_gpu(const SortConfig& config) {
  if (config.backend == BackendChoice::kCpu || !gpu_usable(config.device, nullptr)) return;
  if (cudaSetDevice(config.device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) (void)cudaGetLastError();
}

std::unique_ptr<SlicePartition> partition_on_gpu(const SortConfig& config, const KeyLayout& layout,
                                                 const Splitters& splitters, int ranks, const uint8_t* records,
                                                 uint64_t count, uint64_t first_index, std::string* why) {
  if (config.backend == BackendChoice::kCpu) return refuse(why, "--backend cpu");
  if (ranks > kMostRanks) return refuse(why, "more than 65536 ranks");
  if (count == 0) return refuse(why, "no records");
  if (count >= (1ull << 32)) return refuse(why, "a slice of 2^32 records or more");
  std::string unusable;
  if (!gpu_usable(config.device, &unusable)) return refuse(why, unusable);
  const Stopwatch starting;
  GSORT_CUDA_CHECK(cudaSetDevice(config.device));
  GSORT_CUDA_CHECK(cudaFree(nullptr));  // the context, where warm_up_gpu has not made it yet
  const double context_s = starting.seconds();

  const uint32_t rs = layout.record_size();
  const int bits = destination_bits(ranks);
  const size_t temp_bytes = kernels::destination_sort_temp_bytes(count, bits);
  const std::vector<uint64_t> words = splitter_words(splitters, layout.width());
  // The slice and its buckets, two destination and two index buffers, the
  // sort's scratch, the splitters and fields.
  const uint64_t need = 2 * count * rs + count * 2 * (sizeof(uint16_t) + sizeof(uint32_t)) + temp_bytes +
                        words.size() * 8 + layout.fields().size() * sizeof(KeyField) + (ranks + 1) * 8 + (16u << 20);
  size_t free = 0, total = 0;
  GSORT_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  uint64_t room = free > kDeviceReserveBytes ? free - std::max<uint64_t>(kDeviceReserveBytes, free / 10) : 0;
  if (config.gpu_memory > 0) room = std::min<uint64_t>(room, config.gpu_memory);
  if (need > room) {
    return refuse(why, "the slice needs " + std::to_string(need >> 20) + " MiB of device memory, " +
                           std::to_string(room >> 20) + " MiB may be used");
  }

  cuda::Stream stream;
  cuda::DeviceBuffer slice, buckets, keys_a, keys_b, index_a, index_b, temp, fields, splitter_buffer, starts;
  try {
    slice = cuda::DeviceBuffer(count * rs);
    buckets = cuda::DeviceBuffer(count * rs);
    keys_a = cuda::DeviceBuffer(count * sizeof(uint16_t));
    keys_b = cuda::DeviceBuffer(count * sizeof(uint16_t));
    index_a = cuda::DeviceBuffer(count * sizeof(uint32_t));
    index_b = cuda::DeviceBuffer(count * sizeof(uint32_t));
    temp = cuda::DeviceBuffer(temp_bytes);
    fields = cuda::DeviceBuffer(layout.fields().size() * sizeof(KeyField));
    splitter_buffer = cuda::DeviceBuffer(std::max<size_t>(words.size(), 1) * sizeof(uint64_t));
    starts = cuda::DeviceBuffer((ranks + 1) * sizeof(uint64_t));
  } catch (const DeviceOutOfMemory&) {
    // Another process (or rank) took the memory since it was measured.
    return refuse(why, "device memory ran out");
  }
  GSORT_CUDA_CHECK(cudaMemcpyAsync(fields.data(), layout.fields().data(), fields.size(), cudaMemcpyHostToDevice,
                                   stream.get()));
  if (!words.empty()) {
    GSORT_CUDA_CHECK(cudaMemcpyAsync(splitter_buffer.data(), words.data(), words.size() * sizeof(uint64_t),
                                     cudaMemcpyHostToDevice, stream.get()));
  }

  kernels::DestinationArgs args;
  args.record_size = rs;
  args.fields = reinterpret_cast<const KeyField*>(fields.data());
  args.field_count = static_cast<int>(layout.fields().size());
  args.key_words = layout.word_count();
  args.splitters = reinterpret_cast<const uint64_t*>(splitter_buffer.data());
  args.splitter_count = splitters.count();
  auto* destinations = reinterpret_cast<uint16_t*>(keys_a.data());
  auto* indices = reinterpret_cast<uint32_t*>(index_a.data());
  const double setup_s = starting.seconds() - context_s;
  const Stopwatch uploading;
  {
    // Pieces of whole pages, so that no two registrations share a page;
    // the records that have fully landed are classified after each.
    const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const uintptr_t begin = reinterpret_cast<uintptr_t>(records), end = begin + count * rs;
    std::vector<std::unique_ptr<Registration>> registered;
    uint64_t classified = 0;
    try {
      for (uintptr_t a = begin / page * page; a < end; a += kPieceBytes) {
        const uintptr_t b = std::min<uintptr_t>(a + kPieceBytes, (end + page - 1) / page * page);
        // Read-only: the slice may be the page cache, mapped read-only.
        registered.push_back(
            std::make_unique<Registration>(reinterpret_cast<void*>(a), b - a, cudaHostRegisterReadOnly));
        const uintptr_t from = std::max(a, begin), to = std::min(b, end);
        GSORT_CUDA_CHECK(cudaMemcpyAsync(slice.data() + (from - begin), reinterpret_cast<const void*>(from), to - from,
                                         cudaMemcpyHostToDevice, stream.get()));
        const uint64_t landed = (to - begin) / rs;
        args.records = slice.data() + classified * rs;
        args.count = landed - classified;
        args.first_index = first_index + classified;
        args.index_base = static_cast<uint32_t>(classified);
        args.destinations = destinations + classified;
        args.indices = indices + classified;
        kernels::launch_destinations(args, stream.get());
        classified = landed;
      }
      stream.synchronize();
    } catch (...) {
      // No registration ends under a copy still in flight.
      (void)cudaStreamSynchronize(stream.get());
      throw;
    }
  }
  const double upload_s = uploading.seconds();

  const Stopwatch ordering;
  uint16_t* sorted = destinations;
  uint32_t* order = indices;
  kernels::sort_destinations(temp.data(), temp_bytes, &sorted, reinterpret_cast<uint16_t*>(keys_b.data()), &order,
                             reinterpret_cast<uint32_t*>(index_b.data()), count, bits, stream.get());
  kernels::launch_gather_records(slice.data(), rs, order, count, buckets.data(), stream.get());
  auto* device_starts = reinterpret_cast<uint64_t*>(starts.data());
  kernels::launch_bucket_starts(sorted, count, ranks, device_starts, stream.get());
  std::vector<uint64_t> bounds(static_cast<size_t>(ranks) + 1);
  GSORT_CUDA_CHECK(cudaMemcpyAsync(bounds.data(), device_starts, bounds.size() * sizeof(uint64_t),
                                   cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  std::vector<uint64_t> counts(static_cast<size_t>(ranks));
  for (size_t d = 0; d < counts.size(); ++d) counts[d] = bounds[d + 1] - bounds[d];
  if (bounds.back() != count) throw Error("internal error: the GPU partition lost records");

  char text[160];
  std::snprintf(text, sizeof text,
                "context %.3f s, buffers %.3f s; %.2f GB over in %.3f s; ordered by bucket in %.3f s", context_s,
                setup_s, static_cast<double>(count * rs) / 1e9, upload_s, ordering.seconds());
  return std::make_unique<GpuSlicePartition>(config.device, rs, std::move(buckets), std::move(counts), text);
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
