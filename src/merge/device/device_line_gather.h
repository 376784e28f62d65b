// A sorted chunk's lines gathered on the device straight into device
// memory (a held run's place in the store): the chunk's text, starts and
// order cross the bus as three large copies, each piece registered just
// before its copy (src/cuda/registered_copies.h), and the lines are put in
// order there (kernels/line_gather.h). The host's threads would fetch them
// a line at a time from anywhere in the chunk, sharing the pool with the
// next chunk's index and sort: 12 GB of log lines, -S 2G, wrote their runs
// at 6.9 GB/s so (H100 host, 2026-12-06).
#pragma once

#include <cstdint>

#include "src/algo/line_index.h"
#include "src/core/device_budget.h"
#include "src/cuda/resources.h"

namespace gsort {

class DeviceLineGather {
 public:
  // On CUDA device `device`; its scratch is held in `share` beside what
  // the share holds already (`base` bytes).
  DeviceLineGather(int device, DeviceBudgetShare& share, uint64_t base)
      : device_(device), share_(share), base_(base) {}

  // Writes the lines of `lines` in `order` (all of them, each with its
  // terminator, end to end: lines.bytes() bytes) to device memory `to`,
  // and waits for it; false, having written nothing, where its scratch
  // does not fit --gpu-memory or the device. Throws CudaError on failure.
  bool gather(const LineSpan& lines, const uint32_t* order, uint8_t* to);

 private:
  bool room_for(uint64_t bytes);

  const int device_;
  DeviceBudgetShare& share_;
  const uint64_t base_;
  cuda::Stream stream_;
  cuda::DeviceBuffer scratch_;  // the text, its starts and order, the lengths, their offsets and the scan's temp
};

}  // namespace gsort
