// The GPU backend's class, for the factory, the tests and the benchmarks.
// The pipeline sees it only as a SortBackend (chunk_sort/sort_backend.h).
//
// sort_order and chunk sessions: records stream through the device in
// pieces; the keys of up to one group stay there and are sorted (CUB, or
// gsort's kernels under --algorithm); a chunk larger than one group is
// sorted group by group and the groups merged on the host (host_merge.h).
// Putting the records in order is the output writer's job (the host gather).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "src/chunk_sort/gpu/device_context.h"
#include "src/chunk_sort/gpu/device_gate.h"
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/chunk_sort/sort_backend.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"

namespace gsort::gpu {

class GpuBackend final : public SortBackend {
 public:
  GpuBackend(const KeyLayout& layout, const GpuOptions& options, ThreadPool& pool);

  std::string describe() const override;
  void sort_order(const uint8_t* records, uint64_t count, uint32_t* order) override;
  std::unique_ptr<ChunkSortSession> begin_chunk(const uint8_t* records) override;
  HostBuffer allocate_host(size_t bytes) override;
  std::unique_ptr<HostPin> pin_host(void* p, size_t bytes) override;
  bool pins_host() const override { return true; }
  BackendTimings timings() const override;
  uint64_t peak_device_bytes() const override { return device_.peak_arena_bytes(); }
  uint64_t resident_capacity(uint64_t slot_bytes) override;
  std::unique_ptr<ResidentSort> hold_records(uint64_t count, uint64_t slot_bytes, std::string* why) override;

  // The plan's sizes, in records: a host-to-device piece, a sorted group.
  uint64_t piece_records() const { return device_.plan().piece_records; }
  uint64_t group_records() const { return device_.plan().streaming.capacity; }

 private:
  friend class GpuChunkSession;
  void add_timings(const BackendTimings& t);

  const KeyLayout layout_;
  ThreadPool& pool_;  // the caller's (main's) pool, for the host-side work
  DeviceContext device_;
  DeviceGate gate_;  // one chunk on the device at a time
  mutable std::mutex timings_mutex_;
  BackendTimings timings_;
};

}  // namespace gsort::gpu
