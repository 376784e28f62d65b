#include "src/lines/merge/device/device_runs.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/core/errors.h"
#include "src/cuda/check.h"
#include "src/cuda/resources.h"

namespace gsort {
namespace {

// Left free beside the runs, for the CUDA runtime's own needs.
constexpr uint64_t kDeviceSlackBytes = uint64_t{512} << 20;
// The device's pieces are copied, not checked: any size serves.
constexpr uint64_t kLeastPieceBytes = uint64_t{64} << 10;

// A copy between host and device on the calling thread's own stream,
// waited for.
void copy(void* dst, const void* src, uint64_t bytes, cudaMemcpyKind kind, int device) {
  GSORT_CUDA_CHECK(cudaSetDevice(device));
  GSORT_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, cudaStreamPerThread));
  GSORT_CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
}

class DeviceRunBytes final : public RunBytes {
 public:
  DeviceRunBytes(int device, const uint8_t* base, uint64_t size) : device_(device), base_(base), size_(size) {}
  uint64_t size() const override { return size_; }
  void read_span(uint64_t first, uint64_t count, uint8_t* dst, RunView::FrameCache*) const override {
    if (count > 0) copy(dst, base_ + first, count, cudaMemcpyDeviceToHost, device_);
  }
  uint64_t least_buffer_bytes() const override { return kLeastPieceBytes; }

 private:
  const int device_;
  const uint8_t* const base_;
  const uint64_t size_;
};

class DeviceHeldRuns final : public HeldLineRuns {
 public:
  DeviceHeldRuns(int device, uint64_t bytes) : device_(device), store_(bytes) {}
  uint64_t capacity() const override { return store_.size(); }
  uint64_t used() const override { return used_; }
  void append(const uint8_t* data, uint64_t bytes) override {
    if (bytes > store_.size() - used_) {
      throw Error("internal error: the runs outgrow the " + std::to_string(store_.size()) +
                  " bytes reserved for them on the device");
    }
    copy(store_.data() + used_, data, bytes, cudaMemcpyHostToDevice, device_);
    used_ += bytes;
  }
  void end_run() override { starts_.push_back(used_); }
  size_t runs() const override { return starts_.size() - 1; }
  std::unique_ptr<RunBytes> run(size_t r) const override {
    return std::make_unique<DeviceRunBytes>(device_, store_.data() + starts_[r], starts_[r + 1] - starts_[r]);
  }
  std::string where() const override { return "the GPU's memory (device " + std::to_string(device_) + ")"; }

 private:
  const int device_;
  cuda::DeviceBuffer store_;
  uint64_t used_ = 0;
  std::vector<uint64_t> starts_{0};  // each run's first byte, and the end of the last
};

}  // namespace

std::unique_ptr<HeldLineRuns> hold_line_runs_on_device(int device, uint64_t bytes, uint64_t limit, std::string* why) {
  if (!gpu_usable(device, why)) return nullptr;
  size_t free = 0, total = 0;
  if (const cudaError_t e = cudaMemGetInfo(&free, &total); e != cudaSuccess) {
    *why = std::string("cannot query the device's memory: ") + cudaGetErrorString(e);
    return nullptr;
  }
  const uint64_t room = free > kDeviceSlackBytes ? free - kDeviceSlackBytes : 0;
  const uint64_t allowed = limit != 0 ? std::min<uint64_t>(limit, room) : room;
  if (bytes > allowed) {
    *why = "the input's " + std::to_string(bytes) + " bytes are more than the device's " + std::to_string(allowed) +
           " bytes allow";
    return nullptr;
  }
  try {
    return std::make_unique<DeviceHeldRuns>(device, std::max<uint64_t>(bytes, 1));
  } catch (const DeviceError& e) {
    *why = e.what();
    return nullptr;
  }
}

}  // namespace gsort
