#include "src/lines/sort/gpu/sort_gpu.h"

#include <algorithm>
#include <cstddef>
#include <future>
#include <memory>
#include <string>
#include <utility>

#include "kernels/entry_sort.h"
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/core/errors.h"
#include "src/cuda/check.h"
#include "src/cuda/resources.h"
#include "src/lines/sort/pair_sort.h"

namespace gsort {
namespace {

static_assert(sizeof(kernels::LineEntry) == sizeof(WideEntry) && offsetof(WideEntry, hi) == 0 &&
                  offsetof(WideEntry, lo) == 8 && offsetof(WideEntry, index) == 12,
              "the device sorts the host's entries as they are");

// The device's part: a chunk's entries copied in, sorted, copied back.
class DeviceEntrySort {
 public:
  DeviceEntrySort(int device, std::shared_ptr<DeviceBudget> budget, const Log* log)
      : device_(selected(device)), share_(std::move(budget)), log_(log) {}

  bool sort(WideEntry* entries, uint64_t n) {
    GSORT_CUDA_CHECK(cudaSetDevice(device_));
    const size_t temp = kernels::entry_sort_temp_bytes(n);
    // What the buffers will hold in all, if they grow (never less than they hold).
    const uint64_t need = std::max(2 * n, 2 * capacity_) * sizeof(WideEntry) + std::max(temp, temp_.size());
    if (!share_.hold(need)) {
      note_no_room(n, "more than --gpu-memory leaves");
      return false;
    }
    try {
      reserve(n, temp);
    } catch (const DeviceOutOfMemory&) {
      a_ = cuda::DeviceBuffer();
      b_ = cuda::DeviceBuffer();
      temp_ = cuda::DeviceBuffer();
      capacity_ = 0;
      share_.reset();
      note_no_room(n, "not free on the device");
      return false;
    }
    auto* a = reinterpret_cast<kernels::LineEntry*>(a_.data());
    auto* b = reinterpret_cast<kernels::LineEntry*>(b_.data());
    const uint64_t bytes = n * sizeof(WideEntry);
    GSORT_CUDA_CHECK(cudaMemcpyAsync(a, entries, bytes, cudaMemcpyHostToDevice, stream_.get()));
    const kernels::LineEntry* sorted = kernels::sort_line_entries(a, b, n, temp_.data(), temp_.size(), stream_.get());
    GSORT_CUDA_CHECK(cudaMemcpyAsync(entries, sorted, bytes, cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
    return true;
  }

 private:
  // The device made current, before the stream is made on it.
  static int selected(int device) {
    GSORT_CUDA_CHECK(cudaSetDevice(device));
    return device;
  }

  void reserve(uint64_t n, size_t temp) {
    if (n > capacity_) {
      a_ = cuda::DeviceBuffer();
      b_ = cuda::DeviceBuffer();
      a_ = cuda::DeviceBuffer(n * sizeof(WideEntry));
      b_ = cuda::DeviceBuffer(n * sizeof(WideEntry));
      capacity_ = n;
    }
    if (temp > temp_.size()) {
      temp_ = cuda::DeviceBuffer();
      temp_ = cuda::DeviceBuffer(temp);
    }
  }

  void note_no_room(uint64_t n, const char* why) const {
    if (log_) log_->info("lines: the GPU's room for a chunk of " + std::to_string(n) + " lines is " + why + "; sorted on the CPU");
  }

  int device_;
  DeviceBudgetShare share_;  // what a_, b_ and temp_ hold of --gpu-memory
  const Log* log_;
  cuda::Stream stream_;
  cuda::DeviceBuffer a_, b_, temp_;
  uint64_t capacity_ = 0;
};

// The device starts (the driver loaded, checked, a context made: a
// fraction of a second) beside the first chunk's reading and first pass.
class GpuLineSorter final : public LineSorter {
 public:
  GpuLineSorter(const LineSpec& spec, ThreadPool& pool, int device, std::shared_ptr<DeviceBudget> budget, const Log* log,
                const std::string& failure_prefix)
      : device_(device),
        start_(std::async(std::launch::async,
                          [=] {
                            std::string why;
                            if (!gpu_usable(device, &why)) throw DeviceError(failure_prefix + why);
                            return std::make_unique<DeviceEntrySort>(device, budget, log);
                          })),
        cpu_(make_cpu_line_sorter(spec, pool, [this](WideEntry* e, uint64_t n) { return started().sort(e, n); })) {}
  ~GpuLineSorter() override {
    if (start_.valid()) start_.wait();  // a failed start's error goes with it: no chunk needed the device
  }

  std::string describe() const override { return "gpu (device " + std::to_string(device_) + ")"; }
  std::string steps() const override { return cpu_->steps(); }
  uint64_t bytes_per_line() const override { return cpu_->bytes_per_line(); }
  // A device that could not start fails the sort even where no chunk was
  // large enough to need it: --backend gpu is not quietly the CPU.
  void sort(const LineSpan& lines, uint32_t* order) override {
    cpu_->sort(lines, order);
    started();
  }
  void sort_in_parts(const LineSpan& lines, uint32_t* order, const std::function<void(uint64_t)>& ready) override {
    cpu_->sort_in_parts(lines, order, ready);
    started();
  }

 private:
  // The started device; throws where it could not start.
  DeviceEntrySort& started() {
    if (start_.valid()) gpu_ = start_.get();
    return *gpu_;
  }

  int device_;
  std::future<std::unique_ptr<DeviceEntrySort>> start_;
  std::unique_ptr<DeviceEntrySort> gpu_;
  std::unique_ptr<LineSorter> cpu_;
};

}  // namespace

std::unique_ptr<LineSorter> make_gpu_line_sorter(const LineSpec& spec, ThreadPool& pool, int device,
                                                 std::shared_ptr<DeviceBudget> budget, const Log* log,
                                                 const std::string& failure_prefix) {
  return std::make_unique<GpuLineSorter>(spec, pool, device, std::move(budget), log, failure_prefix);
}

}  // namespace gsort
