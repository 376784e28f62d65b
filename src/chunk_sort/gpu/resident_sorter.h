// The GPU backend's ResidentSort (chunk_sort/sort_backend.h): every record
// of the input in device memory, sorted there, and gathered back in order.
//
//   upload:  host slot s -> the records' region       (copy_in stream)
//            their keys -> the one group's arrays      (compute, after the copy)
//   sort:    the group's keys, whole (kernels/key_sort.h)
//   out:     records in sorted order -> gather slot k % 2 (compute)
//            gather slot -> host slot k % 2             (copy_out)
//
// Two host slots serve both ways: while the host fills (or writes out) one,
// the device copies the other. The sorter holds the device (its gate) for
// its lifetime.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "src/chunk_sort/gpu/device_context.h"
#include "src/chunk_sort/gpu/device_gate.h"
#include "src/chunk_sort/gpu/device_plan.h"
#include "src/chunk_sort/sort_backend.h"
#include "src/core/host_buffer.h"
#include "src/core/thread_pool.h"

namespace gsort::gpu {

class ResidentSorter final : public ResidentSort {
 public:
  // `hold` holds the device; the arena holds `plan` (DeviceContext::hold_arena).
  // `done` is given the device's phase times once the last slice is out.
  using Done = std::function<void(const BackendTimings&)>;
  ResidentSorter(DeviceContext& device, std::unique_ptr<DeviceHold> hold, const ResidentPlan& plan, ThreadPool& pool,
                 Done done);
  // Waits for the device work it enqueued; never throws.
  ~ResidentSorter() override;

  uint64_t slot_records() const override { return plan_.slot_records; }
  uint8_t* fill_slot() override;
  void upload(uint64_t count) override;
  void sort() override;
  uint64_t next_sorted(const uint8_t** records) override;
  BackendTimings timings() const override { return timings_; }
  uint64_t device_bytes() const override { return plan_.bytes; }

 private:
  uint8_t* host_slot(unsigned s) const { return staging_.data() + s * slot_bytes_; }
  void enqueue_slice(uint64_t k);

  DeviceContext& device_;
  std::unique_ptr<DeviceHold> hold_;
  const ResidentPlan plan_;
  const uint64_t slot_bytes_;
  HostBuffer staging_;
  cuda::Event uploaded_[2], gathered_[2], downloaded_[2];
  uint64_t sent_ = 0;        // records uploaded
  unsigned fill_ = 0;        // the slot fill_slot gives next
  bool sorted_ = false;
  const uint32_t* order_ = nullptr;  // device: the sorted order, after sort()
  uint64_t slices_ = 0, next_slice_ = 0;
  BackendTimings timings_;
  Done done_;
};

}  // namespace gsort::gpu
