// Everything the GPU backend holds on the device: the arena (its one large
// allocation) and the plan dividing it, the layout's key fields, three
// streams (copies in, compute, copies out), the events that order them, the
// phase timer, and pinned host blocks for group results.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/cuda/resources.h"
#include "src/chunk_sort/gpu/device_plan.h"
#include "src/chunk_sort/gpu/phase_timer.h"
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/core/host_buffer.h"
#include "src/core/thread_pool.h"
#include "kernels/key_format.h"
#include "kernels/key_sort.h"
#include "src/keys/key_layout.h"

namespace gsort::gpu {

// Host memory pinned for `device`, or pageable memory if pinning fails (no
// error). The pool faults in the pages of large buffers.
HostBuffer allocate_pinned_host(int device, size_t bytes, ThreadPool& pool);
// The same for a buffer of a few MiB, pinned as cudaHostAlloc gives it, for
// the calling thread's current device.
HostBuffer allocate_pinned_small(size_t bytes);

class DeviceContext {
  int device_;  // first: the device is selected before the streams and events are made

 public:
  // Selects the device and takes the arena: memory_cap bytes, or most of the
  // free memory (no more than a known input needs); shrinks and retries when
  // the allocation fails. Throws DeviceOutOfMemory when too little memory
  // remains to sort anything. With neither a cap nor a known input size (a
  // pipe), it takes a small arena and grows it as chunks need (ensure_room).
  DeviceContext(const KeyLayout& layout, const GpuOptions& options);
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  // Makes the device current on the calling thread.
  void make_current() const;
  // For an arena that grows: makes one group hold `records` if the device
  // has the memory (else groups are merged on the host, as under a cap).
  // Call with the device held and nothing in flight; other callers' plan
  // and result blocks are replaced. A no-op for a fixed arena.
  void ensure_room(uint64_t records);
  // Makes the arena at least `bytes` (a resident sort's), within the cap;
  // false, with the reason in `why` and an arena as before, where it cannot
  // be had. Call with the device held and nothing in flight; result blocks
  // are replaced and the plan remade for the new size.
  bool hold_arena(size_t bytes, std::string* why);
  // The largest arena hold_arena could have now: the cap, or the arena and
  // the free memory less headroom.
  size_t largest_arena() const;
  // The largest arena held so far.
  size_t peak_arena_bytes() const { return peak_arena_bytes_; }
  // Waits for everything enqueued on the three streams.
  void synchronize() const;
  // The same, never throwing (for destructors).
  void synchronize_noexcept() const noexcept;

  template <typename T>
  T* at(size_t offset) const {
    return reinterpret_cast<T*>(arena_.data() + offset);
  }
  kernels::SortBuffers sort_buffers(const GroupArrays& g) const;
  // Enqueues on `compute`, timed, the extraction of the keys of `count`
  // records at `records` (device) into group `g`'s arrays from position
  // `out_offset`, their indices counted from `index_base`.
  void extract_keys(const uint8_t* records, uint64_t count, const GroupArrays& g, uint64_t out_offset,
                    uint32_t index_base);
  // Host block for group `g`'s results: its sorted order at 0, its sorted
  // keys at result_keys_offset(). Blocks are kept for later chunks.
  uint8_t* result_block(size_t g, ThreadPool& pool);
  size_t result_keys_offset() const { return (plan_.streaming.capacity * 4 + 7) / 8 * 8; }
  // Two pinned slots of kBounceBytes for copies to pageable memory; null if
  // pinning failed.
  static constexpr size_t kBounceBytes = size_t{16} << 20;
  uint8_t* bounce_buffer(ThreadPool& pool);

  int device() const { return device_; }
  const std::string& name() const { return name_; }
  const kernels::KeyFormat& format() const { return format_; }
  uint32_t record_size() const { return record_size_; }
  const DevicePlan& plan() const { return plan_; }
  size_t arena_bytes() const { return arena_.size(); }
  const KeyField* fields() const { return reinterpret_cast<const KeyField*>(fields_.data()); }
  int field_count() const { return field_count_; }

  static constexpr unsigned kSlots = DevicePlan::kSlots;
  cuda::Stream copy_in, compute, copy_out;
  cuda::Event uploaded[kSlots], slot_free[kSlots];  // staging slots: filled / free again
  cuda::Event sorted, results_copied;               // a group's sort / its results on the host
  cuda::Event bounced[2];                           // order slices in the bounce buffer
  PhaseTimer timer;

 private:
  std::string name_;
  kernels::KeyFormat format_;
  uint32_t record_size_;
  DevicePlan plan_;
  cuda::DeviceBuffer arena_;
  cuda::DeviceBuffer fields_;
  int field_count_;
  std::vector<HostBuffer> result_blocks_;
  uint64_t cap_ = 0;           // --gpu-memory; 0: none
  uint64_t input_hint_ = 0;    // what the first arena was sized for
  bool grows_ = false;         // no cap and no known input size
  bool at_ceiling_ = false;    // a growth got less than it asked for: stop asking
  size_t peak_arena_bytes_ = 0;
  HostBuffer bounce_;
  bool bounce_pinned_ = false;
};

// Whether host memory at p is pinned (page-locked or registered).
bool is_pinned(const void* p);

}  // namespace gsort::gpu
