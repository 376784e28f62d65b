#include "src/merge/device/device_line_gather.h"

#include <cuda_runtime_api.h>

#include "kernels/line_gather.h"
#include "src/cuda/check.h"
#include "src/cuda/registered_copies.h"

namespace gsort {
namespace {

constexpr uint64_t align8(uint64_t bytes) { return (bytes + 7) / 8 * 8; }

// Where each part lies in the scratch of a chunk of `n` lines and `text` bytes.
struct ScratchLayout {
  uint64_t starts = 0, order = 0, lengths = 0, offsets = 0, temp = 0, end = 0;
  ScratchLayout(uint64_t n, uint64_t text) {
    starts = align8(text);
    order = starts + (n + 1) * sizeof(uint64_t);
    lengths = order + align8(n * sizeof(uint32_t));
    offsets = lengths + n * sizeof(uint64_t);
    temp = offsets + n * sizeof(uint64_t);
    end = temp + align8(kernels::line_gather_temp_bytes(n));
  }
};

}  // namespace

bool DeviceLineGather::room_for(uint64_t bytes) {
  if (bytes <= scratch_.size()) return true;
  scratch_ = cuda::DeviceBuffer();
  if (!share_.hold(base_ + bytes)) {
    share_.hold(base_);
    return false;
  }
  try {
    scratch_ = cuda::DeviceBuffer(bytes);
  } catch (const DeviceOutOfMemory&) {
    share_.hold(base_);
    return false;
  }
  return true;
}

bool DeviceLineGather::gather(const LineSpan& lines, const uint32_t* order, uint8_t* to) {
  const uint64_t n = lines.count, text = lines.bytes();
  if (n == 0) return true;
  GSORT_CUDA_CHECK(cudaSetDevice(device_));
  const ScratchLayout at(n, text);
  if (!room_for(at.end)) return false;
  uint8_t* s = scratch_.data();
  {
    cuda::RegisteredCopies pins(device_, stream_);  // ended once the copies are done
    pins.copy(lines.text + lines.starts[0], text, s, cudaHostRegisterReadOnly);
    pins.copy(lines.starts, (n + 1) * sizeof(uint64_t), s + at.starts, cudaHostRegisterReadOnly);
    pins.copy(order, n * sizeof(uint32_t), s + at.order, cudaHostRegisterReadOnly);
    kernels::gather_sorted_lines(s, reinterpret_cast<const uint64_t*>(s + at.starts),
                                 reinterpret_cast<const uint32_t*>(s + at.order), n,
                                 reinterpret_cast<uint64_t*>(s + at.lengths), reinterpret_cast<uint64_t*>(s + at.offsets),
                                 to, s + at.temp, at.end - at.temp, stream_.get());
  }
  stream_.synchronize();
  return true;
}

}  // namespace gsort
