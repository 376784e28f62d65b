#include "src/chunk_sort/gpu/bucket_split.h"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "kernels/bucket_partition.h"
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/core/stopwatch.h"
#include "src/cuda/host_registration.h"
#include "src/cuda/resources.h"

namespace gsort {
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

int destination_bits(int ranks) {
  int bits = 1;
  while ((1 << bits) < ranks) ++bits;
  return bits;
}

uintptr_t page_bytes() { return static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE)); }

// [p, p + bytes) registered in whole pages, which lie inside the same
// mapping; where the driver refuses, copies go through its staging.
cuda::HostRegistration register_pages(int device, const void* p, size_t bytes, unsigned flags) {
  if (bytes == 0) return cuda::HostRegistration();
  const uintptr_t page = page_bytes();
  const uintptr_t begin = reinterpret_cast<uintptr_t>(p) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes + page - 1) / page * page;
  return cuda::HostRegistration(device, reinterpret_cast<void*>(begin), end - begin, flags);
}

std::string describe_copy(const char* what, uint64_t bytes, double seconds) {
  char text[96];
  std::snprintf(text, sizeof text, "%s %.2f GB in %.3f s", what, static_cast<double>(bytes) / 1e9, seconds);
  return text;
}

class DeviceBuckets final : public GpuBuckets {
 public:
  DeviceBuckets(int device, uint32_t record_size, cuda::DeviceBuffer buckets, std::vector<uint64_t> counts,
                std::string upload)
      : device_(device), record_size_(record_size), buckets_(std::move(buckets)), counts_(std::move(counts)),
        copied_(counts_.size(), false), describe_(std::move(upload)) {}
  // The members (stream, device memory) go on the rank's device, whichever
  // thread lets this go.
  ~DeviceBuckets() override {
    if (cudaSetDevice(device_) != cudaSuccess) (void)cudaGetLastError();
  }
  DeviceBuckets(const DeviceBuckets&) = delete;
  DeviceBuckets& operator=(const DeviceBuckets&) = delete;

  const std::vector<uint64_t>& counts() const override { return counts_; }

  void copy_out(const std::vector<uint8_t*>& to, bool may_pin) override {
    GSORT_CUDA_CHECK(cudaSetDevice(device_));
    const Stopwatch copying;
    // Copies into pinned memory run at the link's speed, into pageable
    // memory through the driver's staging at a quarter of it or less;
    // pinning faulted memory costs less than the difference.
    cuda::HostRegistration pinned;
    if (may_pin) pinned = pin_targets(to);
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
    describe_ += describe_copy(may_pin ? "; back (pinned)" : "; back", bytes_out, copying.seconds());
    // Every bucket is out: the device memory goes back to the local sort.
    if (std::all_of(copied_.begin(), copied_.end(), [](bool c) { return c; })) buckets_ = cuda::DeviceBuffer();
  }

  std::string describe() const override { return describe_; }

 private:
  // One registration over the span of the buckets to be filled.
  cuda::HostRegistration pin_targets(const std::vector<uint8_t*>& to) const {
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (size_t d = 0; d < counts_.size(); ++d) {
      const uint64_t bytes = counts_[d] * record_size_;
      if (!to[d] || bytes == 0) continue;
      lo = std::min(lo, reinterpret_cast<uintptr_t>(to[d]));
      hi = std::max(hi, reinterpret_cast<uintptr_t>(to[d]) + bytes);
    }
    if (hi <= lo || hi - lo < kPinForCopyBytes) return cuda::HostRegistration();
    return register_pages(device_, reinterpret_cast<void*>(lo), hi - lo, cudaHostRegisterDefault);
  }

  int device_;
  uint32_t record_size_;
  cuda::Stream stream_;
  cuda::DeviceBuffer buckets_;  // the buckets back to back, in rank order
  std::vector<uint64_t> counts_;
  std::vector<bool> copied_;
  std::string describe_;
};

std::unique_ptr<GpuBuckets> refuse(std::string* why, const std::string& text) {
  if (why) *why = text;
  return nullptr;
}

// Everything the split holds on the device while it runs.
struct DeviceSlice {
  cuda::Stream stream;
  cuda::DeviceBuffer slice, buckets, keys_a, keys_b, index_a, index_b, temp, fields, splitters, starts;
};

// The device memory the split needs: the slice and its buckets, two
// destination and two index buffers, the sort's scratch, the splitters and
// fields.
uint64_t device_bytes_needed(const KeyLayout& layout, const SplitterWords& splitters, int ranks, uint64_t count,
                             size_t temp_bytes) {
  return 2 * count * layout.record_size() + count * 2 * (sizeof(uint16_t) + sizeof(uint32_t)) + temp_bytes +
         splitters.words.size() * 8 + layout.fields().size() * sizeof(KeyField) + (ranks + 1) * 8 + (16u << 20);
}

// What of the device's free memory the split may take.
uint64_t device_room(uint64_t memory_cap) {
  size_t free = 0, total = 0;
  GSORT_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  uint64_t room = free > kDeviceReserveBytes ? free - std::max<uint64_t>(kDeviceReserveBytes, free / 10) : 0;
  if (memory_cap > 0) room = std::min<uint64_t>(room, memory_cap);
  return room;
}

// False where the device ran out: another process (or rank) took the
// memory since it was measured.
bool allocate(DeviceSlice& d, const KeyLayout& layout, const SplitterWords& splitters, int ranks, uint64_t count,
              size_t temp_bytes) {
  const uint32_t rs = layout.record_size();
  try {
    d.slice = cuda::DeviceBuffer(count * rs);
    d.buckets = cuda::DeviceBuffer(count * rs);
    d.keys_a = cuda::DeviceBuffer(count * sizeof(uint16_t));
    d.keys_b = cuda::DeviceBuffer(count * sizeof(uint16_t));
    d.index_a = cuda::DeviceBuffer(count * sizeof(uint32_t));
    d.index_b = cuda::DeviceBuffer(count * sizeof(uint32_t));
    d.temp = cuda::DeviceBuffer(temp_bytes);
    d.fields = cuda::DeviceBuffer(layout.fields().size() * sizeof(KeyField));
    d.splitters = cuda::DeviceBuffer(std::max<size_t>(splitters.words.size(), 1) * sizeof(uint64_t));
    d.starts = cuda::DeviceBuffer((ranks + 1) * sizeof(uint64_t));
  } catch (const DeviceOutOfMemory&) {
    return false;
  }
  GSORT_CUDA_CHECK(cudaMemcpyAsync(d.fields.data(), layout.fields().data(), d.fields.size(), cudaMemcpyHostToDevice,
                                   d.stream.get()));
  if (!splitters.words.empty()) {
    GSORT_CUDA_CHECK(cudaMemcpyAsync(d.splitters.data(), splitters.words.data(),
                                     splitters.words.size() * sizeof(uint64_t), cudaMemcpyHostToDevice,
                                     d.stream.get()));
  }
  return true;
}

// Copies the slice over in pieces of whole pages, so that no two
// registrations share a page, and finds the destinations of the records
// that have fully landed after each.
void upload_and_classify(DeviceSlice& d, int device, kernels::DestinationArgs args, const uint8_t* records,
                         uint64_t count, uint64_t first_index) {
  const uint32_t rs = args.record_size;
  uint16_t* const destinations = args.destinations;
  uint32_t* const indices = args.indices;
  const uintptr_t page = page_bytes();
  const uintptr_t begin = reinterpret_cast<uintptr_t>(records), end = begin + count * rs;
  std::vector<cuda::HostRegistration> registered;
  uint64_t classified = 0;
  try {
    for (uintptr_t a = begin / page * page; a < end; a += kPieceBytes) {
      const uintptr_t b = std::min<uintptr_t>(a + kPieceBytes, (end + page - 1) / page * page);
      // Read-only: the slice may be the page cache, mapped read-only.
      registered.push_back(register_pages(device, reinterpret_cast<void*>(a), b - a, cudaHostRegisterReadOnly));
      const uintptr_t from = std::max(a, begin), to = std::min(b, end);
      GSORT_CUDA_CHECK(cudaMemcpyAsync(d.slice.data() + (from - begin), reinterpret_cast<const void*>(from),
                                       to - from, cudaMemcpyHostToDevice, d.stream.get()));
      const uint64_t landed = (to - begin) / rs;
      args.records = d.slice.data() + classified * rs;
      args.count = landed - classified;
      args.first_index = first_index + classified;
      args.index_base = static_cast<uint32_t>(classified);
      args.destinations = destinations + classified;
      args.indices = indices + classified;
      kernels::launch_destinations(args, d.stream.get());
      classified = landed;
    }
    d.stream.synchronize();
  } catch (...) {
    // No registration ends under a copy still in flight.
    (void)cudaStreamSynchronize(d.stream.get());
    throw;
  }
}

// Orders the records by destination into d.buckets; returns each bucket's
// size.
std::vector<uint64_t> order_by_bucket(DeviceSlice& d, uint32_t record_size, uint64_t count, int ranks,
                                      size_t temp_bytes) {
  uint16_t* sorted = reinterpret_cast<uint16_t*>(d.keys_a.data());
  uint32_t* order = reinterpret_cast<uint32_t*>(d.index_a.data());
  kernels::sort_destinations(d.temp.data(), temp_bytes, &sorted, reinterpret_cast<uint16_t*>(d.keys_b.data()), &order,
                             reinterpret_cast<uint32_t*>(d.index_b.data()), count, destination_bits(ranks),
                             d.stream.get());
  kernels::launch_gather_records(d.slice.data(), record_size, order, count, d.buckets.data(), d.stream.get());
  auto* device_starts = reinterpret_cast<uint64_t*>(d.starts.data());
  kernels::launch_bucket_starts(sorted, count, ranks, device_starts, d.stream.get());
  std::vector<uint64_t> bounds(static_cast<size_t>(ranks) + 1);
  GSORT_CUDA_CHECK(cudaMemcpyAsync(bounds.data(), device_starts, bounds.size() * sizeof(uint64_t),
                                   cudaMemcpyDeviceToHost, d.stream.get()));
  d.stream.synchronize();
  std::vector<uint64_t> counts(static_cast<size_t>(ranks));
  for (size_t b = 0; b < counts.size(); ++b) counts[b] = bounds[b + 1] - bounds[b];
  if (bounds.back() != count) throw Error("internal error: the GPU partition lost records");
  return counts;
}

}  // namespace

std::unique_ptr<GpuBuckets> partition_slice_on_gpu(const GpuSplitDevice& gpu, const KeyLayout& layout,
                                                   const SplitterWords& splitters, int ranks, const uint8_t* records,
                                                   uint64_t count, uint64_t first_index, std::string* why) {
  if (ranks > kMostRanks) return refuse(why, "more than 65536 ranks");
  if (count == 0) return refuse(why, "no records");
  if (count >= (1ull << 32)) return refuse(why, "a slice of 2^32 records or more");
  std::string unusable;
  if (!gpu_usable(gpu.device, &unusable)) return refuse(why, unusable);
  const Stopwatch starting;
  GSORT_CUDA_CHECK(cudaSetDevice(gpu.device));
  GSORT_CUDA_CHECK(cudaFree(nullptr));  // the context, where warm_up_device has not made it yet
  const double context_s = starting.seconds();

  const size_t temp_bytes = kernels::destination_sort_temp_bytes(count, destination_bits(ranks));
  const uint64_t need = device_bytes_needed(layout, splitters, ranks, count, temp_bytes);
  const uint64_t room = device_room(gpu.memory_cap);
  if (need > room) {
    return refuse(why, "the slice needs " + std::to_string(need >> 20) + " MiB of device memory, " +
                           std::to_string(room >> 20) + " MiB may be used");
  }
  DeviceSlice d;
  if (!allocate(d, layout, splitters, ranks, count, temp_bytes)) return refuse(why, "device memory ran out");

  kernels::DestinationArgs args;
  args.record_size = layout.record_size();
  args.fields = reinterpret_cast<const KeyField*>(d.fields.data());
  args.field_count = static_cast<int>(layout.fields().size());
  args.key_words = layout.word_count();
  args.splitters = reinterpret_cast<const uint64_t*>(d.splitters.data());
  args.splitter_count = splitters.count;
  args.destinations = reinterpret_cast<uint16_t*>(d.keys_a.data());
  args.indices = reinterpret_cast<uint32_t*>(d.index_a.data());
  const double setup_s = starting.seconds() - context_s;
  const Stopwatch uploading;
  upload_and_classify(d, gpu.device, args, records, count, first_index);
  const double upload_s = uploading.seconds();

  const Stopwatch ordering;
  std::vector<uint64_t> counts = order_by_bucket(d, layout.record_size(), count, ranks, temp_bytes);
  char text[160];
  std::snprintf(text, sizeof text,
                "context %.3f s, buffers %.3f s; %.2f GB over in %.3f s; ordered by bucket in %.3f s", context_s,
                setup_s, static_cast<double>(count * layout.record_size()) / 1e9, upload_s, ordering.seconds());
  return std::make_unique<DeviceBuckets>(gpu.device, layout.record_size(), std::move(d.buckets), std::move(counts),
                                         text);
}

void warm_up_device(int device) {
  if (!gpu_usable(device, nullptr)) return;
  if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) (void)cudaGetLastError();
}

}  // namespace gsort
