#include "src/chunk_sort/gpu/gpu_backend.h"

#include <algorithm>
#include <optional>

#include "src/chunk_sort/gpu/chunk_sorter.h"
#include "src/chunk_sort/gpu/resident_sorter.h"

namespace gsort::gpu {

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
    sorter_->finish_order(available_, order, backend_.layout_);
    BackendTimings t = sorter_->timings();
    t.chunks = 1;
    backend_.add_timings(t);
    sorter_.reset();
    hold_.release();
  }

 private:
  void start() {
    backend_.device_.make_current();
    sorter_.emplace(backend_.device_, records_, backend_.pool_);
  }

  GpuBackend& backend_;
  const uint8_t* records_;
  uint64_t available_ = 0;
  DeviceHold hold_;                    // declared before sorter_: released after it
  std::optional<ChunkSorter> sorter_;  // its destructor waits for the device
};

GpuBackend::GpuBackend(const KeyLayout& layout, const GpuOptions& options, ThreadPool& pool)
    : layout_(layout), pool_(pool), device_(layout, options) {}

std::string GpuBackend::describe() const {
  return "gpu " + std::to_string(device_.device()) + ": " + device_.name() + " (" +
         std::to_string(device_.arena_bytes() >> 20) + " MiB taken)";
}

void GpuBackend::sort_order(const uint8_t* records, uint64_t count, uint32_t* order) {
  if (count <= 1) {
    if (count == 1) order[0] = 0;
    return;
  }
  DeviceHold hold(gate_);
  hold.acquire();
  device_.make_current();
  device_.ensure_room(count);  // an input of unknown size: the arena grows with the chunks
  ChunkSorter sorter(device_, records, pool_);
  sorter.finish_order(count, order, layout_);
  BackendTimings t = sorter.timings();
  t.chunks = 1;
  add_timings(t);
}

std::unique_ptr<ChunkSortSession> GpuBackend::begin_chunk(const uint8_t* records) {
  return std::make_unique<GpuChunkSession>(*this, records);
}

HostBuffer GpuBackend::allocate_host(size_t bytes) {
  device_.make_current();
  return allocate_pinned_host(device_.device(), bytes, pool_);
}

std::unique_ptr<HostPin> GpuBackend::pin_host(void* p, size_t bytes) {
  return pin_host_for_device(device_.device(), p, bytes);
}

namespace {

// Records per staging slot of a resident sort of `count` records.
uint64_t slot_records_for(uint64_t slot_bytes, uint32_t record_size, uint64_t count) {
  return std::max<uint64_t>(1, std::min<uint64_t>(slot_bytes / record_size, count));
}

}  // namespace

uint64_t GpuBackend::resident_capacity(uint64_t slot_bytes) {
  const uint32_t size = layout_.record_size();
  DeviceHold hold(gate_);
  hold.acquire();
  device_.make_current();
  const size_t limit = device_.largest_arena();
  // The most records whose plan fits: plan bytes grow with the records.
  uint64_t lo = 0, hi = std::min<uint64_t>(kMaxGroupRecords, limit / size);
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo + 1) / 2;
    if (plan_resident(device_.format(), size, mid, slot_records_for(slot_bytes, size, mid)).bytes <= limit) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

std::unique_ptr<ResidentSort> GpuBackend::hold_records(uint64_t count, uint64_t slot_bytes, std::string* why) {
  if (count > kMaxGroupRecords) {
    *why = std::to_string(count) + " records are more than one device sort takes (2^32 - 1)";
    return nullptr;
  }
  const uint32_t size = layout_.record_size();
  const ResidentPlan plan = plan_resident(device_.format(), size, count, slot_records_for(slot_bytes, size, count));
  auto hold = std::make_unique<DeviceHold>(gate_);
  hold->acquire();
  device_.make_current();
  if (!device_.hold_arena(plan.bytes, why)) return nullptr;
  return std::make_unique<ResidentSorter>(device_, std::move(hold), plan, pool_,
                                          [this](const BackendTimings& t) { add_timings(t); });
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
  timings_.chunks += t.chunks;
  timings_.pieces += t.pieces;
}

}  // namespace gsort::gpu

namespace gsort {

std::unique_ptr<SortBackend> make_gpu_backend(const KeyLayout& layout, const GpuOptions& options, ThreadPool& pool) {
  std::string why;
  if (!gpu_usable(options.device, &why)) throw Error("the GPU backend cannot be used: " + why);
  return std::make_unique<gpu::GpuBackend>(layout, options, pool);
}

}  // namespace gsort
