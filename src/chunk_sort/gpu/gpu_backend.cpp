#include "src/chunk_sort/gpu/gpu_backend.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "src/chunk_sort/gpu/chunk_sorter.h"
#include "src/algo/gather.h"

namespace gsort::gpu {

namespace {

// First guesses for the split gather, from an H200 with PCIe gen5 and 16
// host threads (bench/gpu_sort_bench): device-to-host copies ran at ~50 GB/s;
// a host thread gathered ~37M records/s, at most ~2.4 GB/s.
constexpr double kDeviceGatherRate = 45e9;
double initial_host_gather_rate(uint32_t record_size, unsigned threads) {
  return threads * std::min(37e6 * record_size, 2.4e9);
}

double blend(double old_rate, double measured) { return 0.5 * old_rate + 0.5 * measured; }

}  // namespace

// A chunk sorted while the reader fills it. It takes the device at the first
// records_ready that finds it free (else at finish), so that a session never
// blocks the reader waiting for another chunk's sort.
class GpuChunkSession final : public ChunkSortSession {
 public:
  GpuChunkSession(GpuBackend& backend, const uint8_t* records)
      : backend_(backend), records_(records), hold_(backend.gate_) {}

  void records_ready(uint64_t available) override {
    available_ = available;
    if (!sorter_) {
      if (!hold_.try_acquire()) return;  // busy: catch up later
      start();
    }
    backend_.device_.make_current();
    sorter_->add_records(available);
  }

  void finish(uint32_t* order) override {
    if (!sorter_) {
      hold_.acquire();
      start();
    }
    backend_.device_.make_current();
    sorter_->finish_order(available_, order, backend_.pool_, backend_.layout_);
    BackendTimings t = sorter_->timings();
    t.chunks = 1;
    backend_.add_timings(t);
    sorter_.reset();
    hold_.release();
  }

 private:
  void start() {
    backend_.device_.make_current();
    sorter_.emplace(backend_.device_, records_, ChunkSorter::Mode::kStreaming);
  }

  GpuBackend& backend_;
  const uint8_t* records_;
  uint64_t available_ = 0;
  DeviceHold hold_;                    // declared before sorter_: released after it
  std::optional<ChunkSorter> sorter_;  // its destructor waits for the device
};

GpuBackend::GpuBackend(const KeyLayout& layout, const GpuOptions& options, GpuTuning tuning)
    : layout_(layout),
      tuning_(tuning),
      pool_(std::max(1u, options.host_threads)),
      device_(layout, options),
      device_gather_rate_(kDeviceGatherRate),
      host_gather_rate_(initial_host_gather_rate(layout.record_size(), pool_.size())) {}

std::string GpuBackend::describe() const {
  return "gpu " + std::to_string(device_.device()) + ": " + device_.name() + " (" +
         std::to_string(device_.arena_bytes() >> 20) + " MiB taken)";
}

bool GpuBackend::gathers_on_device(uint64_t count) const {
  return tuning_.gather != GatherPath::kHost && count <= resident_records();
}

uint64_t GpuBackend::device_gather_count(uint64_t count) const {
  if (tuning_.gather == GatherPath::kDevice) return count;
  double share = tuning_.device_share;
  if (share < 0) share = device_gather_rate_ / (device_gather_rate_ + host_gather_rate_);
  share = std::min(1.0, std::max(0.0, share));
  return std::min<uint64_t>(count, static_cast<uint64_t>(share * static_cast<double>(count) + 0.5));
}

uint32_t* GpuBackend::order_scratch(uint64_t count) {
  if (order_scratch_.size() < count * sizeof(uint32_t)) {
    order_scratch_ = HostBuffer();
    order_scratch_ = allocate_pinned_host(count * sizeof(uint32_t));
  }
  return reinterpret_cast<uint32_t*>(order_scratch_.data());
}

void GpuBackend::sort_order(const uint8_t* records, uint64_t count, uint32_t* order) {
  if (count <= 1) {
    if (count == 1) order[0] = 0;
    return;
  }
  DeviceHold hold(gate_);
  hold.acquire();
  device_.make_current();
  ChunkSorter sorter(device_, records, ChunkSorter::Mode::kStreaming);
  sorter.finish_order(count, order, pool_, layout_);
  BackendTimings t = sorter.timings();
  t.chunks = 1;
  add_timings(t);
}

void GpuBackend::sort_records(const uint8_t* records, uint64_t count, uint8_t* out) {
  const uint32_t size = layout_.record_size();
  if (count <= 1) {
    if (count == 1) std::copy(records, records + size, out);
    return;
  }
  DeviceHold hold(gate_);
  hold.acquire();
  device_.make_current();
  BackendTimings t;
  if (gathers_on_device(count)) {
    const uint64_t on_device = device_gather_count(count);
    uint32_t* host_order = on_device < count ? order_scratch(count - on_device) : nullptr;
    ChunkSorter sorter(device_, records, ChunkSorter::Mode::kResident);
    const ChunkSorter::SplitTimes times = sorter.finish_records(count, out, on_device, host_order, pool_);
    t = sorter.timings();
    // Balance the next chunk by what each side managed on this one (shares
    // too small to time well are left out).
    if (on_device > count / 64 && times.device_s > 0) {
      device_gather_rate_ = blend(device_gather_rate_, double(on_device) * size / times.device_s);
    }
    if (count - on_device > count / 64 && times.host_s > 0) {
      host_gather_rate_ = blend(host_gather_rate_, double(count - on_device) * size / times.host_s);
    }
  } else {
    uint32_t* order = order_scratch(count);
    {
      ChunkSorter sorter(device_, records, ChunkSorter::Mode::kStreaming);
      sorter.finish_order(count, order, pool_, layout_);
      t = sorter.timings();
    }
    const auto start = std::chrono::steady_clock::now();
    gather_records(pool_, records, size, order, count, out);
    t.gather_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  t.chunks = 1;
  add_timings(t);
}

std::unique_ptr<ChunkSortSession> GpuBackend::begin_chunk(const uint8_t* records) {
  return std::make_unique<GpuChunkSession>(*this, records);
}

HostBuffer GpuBackend::allocate_host(size_t bytes) {
  device_.make_current();
  return allocate_pinned_host(bytes);
}

BackendTimings GpuBackend::timings() const {
  std::lock_guard<std::mutex> lock(timings_mutex_);
  return timings_;
}

void GpuBackend::add_timings(const BackendTimings& t) {
  std::lock_guard<std::mutex> lock(timings_mutex_);
  timings_.extract_s += t.extract_s;
  timings_.sort_s += t.sort_s;
  timings_.copy_in_s += t.copy_in_s;
  timings_.copy_out_s += t.copy_out_s;
  timings_.merge_s += t.merge_s;
  timings_.gather_s += t.gather_s;
  timings_.chunks += t.chunks;
  timings_.pieces += t.pieces;
}

}  // namespace gsort::gpu

namespace gsort {

std::unique_ptr<SortBackend> make_gpu_backend(const KeyLayout& layout, const GpuOptions& options) {
  std::string why;
  if (!gpu_usable(options.device, &why)) throw Error("the GPU backend cannot be used: " + why);
  return std::make_unique<gpu::GpuBackend>(layout, options);
}

}  // namespace gsort
