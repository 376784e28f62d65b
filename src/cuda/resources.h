// Owning wrappers for CUDA streams, events and memory. Move-only; their
// destructors never throw (a failure while releasing is only reported).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "src/core/test_hooks.h"
#include "src/cuda/check.h"

namespace gsort::cuda {

// A non-blocking stream (does not synchronise with the legacy default stream).
class Stream {
 public:
  Stream() { GSORT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (stream_) GSORT_CUDA_REPORT(cudaStreamDestroy(stream_));
  }
  Stream(Stream&& o) noexcept : stream_(std::exchange(o.stream_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept {
    std::swap(stream_, o.stream_);
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const { return stream_; }
  void synchronize() const { GSORT_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  // Makes later work on this stream wait for `event`'s last recorded point.
  void wait(cudaEvent_t event) const { GSORT_CUDA_CHECK(cudaStreamWaitEvent(stream_, event, 0)); }

 private:
  cudaStream_t stream_ = nullptr;
};

// An event; ordering-only events skip timing, which makes them cheaper.
class Event {
 public:
  enum class Timing { kOff, kOn };
  explicit Event(Timing timing = Timing::kOff) {
    GSORT_CUDA_CHECK(cudaEventCreateWithFlags(&event_, timing == Timing::kOn ? cudaEventDefault
                                                                               : cudaEventDisableTiming));
  }
  ~Event() {
    if (event_) GSORT_CUDA_REPORT(cudaEventDestroy(event_));
  }
  Event(Event&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
  Event& operator=(Event&& o) noexcept {
    std::swap(event_, o.event_);
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t get() const { return event_; }
  void record(const Stream& stream) const { GSORT_CUDA_CHECK(cudaEventRecord(event_, stream.get())); }

 private:
  cudaEvent_t event_ = nullptr;
};

// cudaMalloc, or the out-of-memory error a test injects (src/core/test_hooks.h).
inline cudaError_t device_malloc(void** p, size_t bytes) {
  if (test_hooks::fail_device_allocation && test_hooks::fail_device_allocation()) return cudaErrorMemoryAllocation;
  return cudaMalloc(p, bytes);
}

// Device memory from plain cudaMalloc.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes) : size_(bytes) {
    if (bytes) GSORT_CUDA_CHECK(device_malloc(&data_, bytes));
  }
  ~DeviceBuffer() {
    if (data_) GSORT_CUDA_REPORT(cudaFree(data_));
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  uint8_t* data() const { return static_cast<uint8_t*>(data_); }
  size_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace gsort::cuda
