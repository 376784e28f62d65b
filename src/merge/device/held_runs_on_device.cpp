#include "src/merge/device/held_runs_on_device.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "src/chunk_sort/gpu/device_context.h"
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/core/errors.h"
#include "src/core/host_buffer.h"
#include "src/cuda/check.h"
#include "src/cuda/resources.h"
#include "src/merge/device/device_line_gather.h"

namespace gsort {
namespace {

// Left free beside the runs, for the CUDA runtime's own needs.
constexpr uint64_t kDeviceSlackBytes = uint64_t{512} << 20;
// The device's pieces are copied, not checked: any size serves.
constexpr uint64_t kLeastPieceBytes = uint64_t{64} << 10;
// Each reading thread's pinned buffer, which its reads pass through.
constexpr uint64_t kStagingBytes = uint64_t{1} << 20;

// A copy between host and device on the calling thread's own stream,
// waited for.
void copy(void* dst, const void* src, uint64_t bytes, cudaMemcpyKind kind, int device) {
  GSORT_CUDA_CHECK(cudaSetDevice(device));
  GSORT_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, cudaStreamPerThread));
  GSORT_CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
}

// Page-locked host memory (pageable where the driver will not pin it: the
// copies are slower, not wrong).
HostBuffer pinned(int device, uint64_t bytes) {
  GSORT_CUDA_CHECK(cudaSetDevice(device));
  return gpu::allocate_pinned_small(static_cast<size_t>(bytes));
}

// Pinned buffers lent to one reading thread at a time. A copy from pageable
// memory goes through the driver's own staging, which every thread shares:
// sixteen threads reading 256 KiB pieces that way moved 4 GB/s together.
class StagingBuffers {
 public:
  explicit StagingBuffers(int device) : device_(device) {}
  HostBuffer take() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty()) {
        HostBuffer b = std::move(free_.back());
        free_.pop_back();
        return b;
      }
    }
    return pinned(device_, kStagingBytes);
  }
  void give(HostBuffer b) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(b));
  }

 private:
  const int device_;
  std::mutex mutex_;
  std::vector<HostBuffer> free_;
};

class DeviceRunBytes final : public MergeRun {
 public:
  DeviceRunBytes(int device, const uint8_t* base, uint64_t size, StagingBuffers& staging)
      : device_(device), base_(base), size_(size), staging_(staging) {}
  uint64_t size() const override { return size_; }
  void read_span(uint64_t first, uint64_t count, uint8_t* dst, RunView::FrameCache*) const override {
    if (count == 0) return;
    HostBuffer b = staging_.take();
    for (uint64_t done = 0; done < count;) {
      const uint64_t n = std::min<uint64_t>(count - done, b.size());
      copy(b.data(), base_ + first + done, n, cudaMemcpyDeviceToHost, device_);
      std::memcpy(dst + done, b.data(), n);
      done += n;
    }
    staging_.give(std::move(b));  // not on an error: a failed copy ends the sort
  }
  uint64_t least_buffer_bytes() const override { return kLeastPieceBytes; }

 private:
  const int device_;
  const uint8_t* const base_;
  const uint64_t size_;
  StagingBuffers& staging_;
};

class DeviceHeldRuns final : public HeldRuns {
 public:
  DeviceHeldRuns(int device, uint64_t bytes, DeviceBudgetShare share)
      : HeldRuns(bytes),
        device_(device),
        share_(std::move(share)),
        store_(bytes),
        staging_(device),
        gather_(device, share_, share_.held()) {}
  bool gather_lines(const LineSpan& lines, const uint32_t* order) override {
    const uint64_t bytes = lines.bytes();
    check_room(bytes);
    if (!gather_.gather(lines, order, store_.data() + used())) return false;
    gathered_in_place(bytes);
    return true;
  }
  std::vector<uint8_t*> write_blocks(uint64_t bytes, unsigned count) override {
    if (blocks_.size() != count || blocks_.front().size() != bytes) {
      blocks_.clear();
      for (unsigned i = 0; i < count; ++i) blocks_.push_back(pinned(device_, bytes));
    }
    std::vector<uint8_t*> out;
    for (const HostBuffer& b : blocks_) out.push_back(b.data());
    return out;
  }
  std::string where() const override { return "the GPU's memory (device " + std::to_string(device_) + ")"; }

 private:
  void store(uint64_t at, const uint8_t* data, uint64_t bytes) override {
    copy(store_.data() + at, data, bytes, cudaMemcpyHostToDevice, device_);
  }
  std::unique_ptr<MergeRun> bytes_at(uint64_t first, uint64_t size) const override {
    return std::make_unique<DeviceRunBytes>(device_, store_.data() + first, size, staging_);
  }

  const int device_;
  DeviceBudgetShare share_;  // store_'s bytes of --gpu-memory
  cuda::DeviceBuffer store_;
  mutable StagingBuffers staging_;
  std::vector<HostBuffer> blocks_;  // the writer's, pinned: copied to the device at the bus's speed
  DeviceLineGather gather_;         // after share_, which it holds its scratch in
};

}  // namespace

std::unique_ptr<HeldRuns> hold_runs_on_device(int device, uint64_t bytes, std::shared_ptr<DeviceBudget> budget,
                                                       std::string* why) {
  if (!gpu_usable(device, why)) return nullptr;
  size_t free = 0, total = 0;
  if (const cudaError_t e = cudaMemGetInfo(&free, &total); e != cudaSuccess) {
    *why = std::string("cannot query the device's memory: ") + cudaGetErrorString(e);
    return nullptr;
  }
  const uint64_t room = free > kDeviceSlackBytes ? free - kDeviceSlackBytes : 0;
  const uint64_t left = budget ? budget->left() : UINT64_MAX;
  const uint64_t store = std::max<uint64_t>(bytes, 1);
  DeviceBudgetShare share(std::move(budget));
  if (store > room || !share.hold(store)) {
    *why = "the input's " + std::to_string(bytes) + " bytes are more than the device's " +
           std::to_string(std::min(room, left)) + " bytes allow";
    return nullptr;
  }
  try {
    return std::make_unique<DeviceHeldRuns>(device, store, std::move(share));
  } catch (const DeviceError& e) {
    *why = e.what();
    return nullptr;
  }
}

}  // namespace gsort
