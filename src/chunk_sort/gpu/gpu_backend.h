// The GPU backend's class, for the factory, the tests and the benchmarks.
// The pipeline sees it only as a SortBackend (backend/gpu_backend.h).
//
// sort_order: records stream through the device in pieces; keys of up to
// one group stay there and are sorted by CUB; larger chunks are sorted group
// by group and merged on the host. sort_records, for chunks the device can
// hold: the records stay on the device; the device gathers the first part of
// the output and copies it back while the host threads gather the rest from
// its order, the split balanced by the rates measured on earlier chunks.
// Larger chunks: sort_order, then the host gather (gather_records).
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

enum class GatherPath {
  kAuto,    // split between the device and the host
  kHost,    // the host gathers everything (sort_order + gather_records)
  kDevice,  // the device gathers everything
};

// Internal knobs, for tests and benchmarks; the defaults are for real use.
struct GpuTuning {
  GatherPath gather = GatherPath::kAuto;
  double device_share = -1;  // kAuto: the device's fraction of the output; < 0: balanced by measured rates
};

class GpuBackend final : public SortBackend {
 public:
  GpuBackend(const KeyLayout& layout, const GpuOptions& options, GpuTuning tuning = {});

  std::string describe() const override;
  void sort_order(const uint8_t* records, uint64_t count, uint32_t* order) override;
  void sort_records(const uint8_t* records, uint64_t count, uint8_t* out) override;
  std::unique_ptr<ChunkSortSession> begin_chunk(const uint8_t* records) override;
  HostBuffer allocate_host(size_t bytes) override;
  BackendTimings timings() const override;
  // The arena is taken once, up front: it is the peak.
  uint64_t peak_device_bytes() const override { return device_.arena_bytes(); }

  // The plan's sizes, in records: a host-to-device piece, a sorted group,
  // the largest chunk sort_records can gather on the device.
  uint64_t piece_records() const { return device_.plan().piece_records; }
  uint64_t group_records() const { return device_.plan().streaming.capacity; }
  uint64_t resident_records() const { return device_.plan().resident.capacity; }
  size_t device_bytes() const { return device_.arena_bytes(); }
  bool gathers_on_device(uint64_t count) const;
  // Of `count` records that gathers_on_device, how many the device gathers.
  uint64_t device_gather_count(uint64_t count) const;

 private:
  friend class GpuChunkSession;
  void add_timings(const BackendTimings& t);
  uint32_t* order_scratch(uint64_t count);

  const KeyLayout layout_;
  const GpuTuning tuning_;
  ThreadPool pool_;
  DeviceContext device_;
  DeviceGate gate_;  // one chunk on the device at a time
  HostBuffer order_scratch_;  // the order, for the host gather
  double device_gather_rate_;  // bytes/s of the device's share of a split gather (measured)
  double host_gather_rate_;    // bytes/s of the host's share
  mutable std::mutex timings_mutex_;
  BackendTimings timings_;
};

}  // namespace gsort::gpu
