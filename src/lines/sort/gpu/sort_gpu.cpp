#include "src/lines/sort/gpu/sort_gpu.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "kernels/entry_sort.h"
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/core/errors.h"
#include "src/core/stopwatch.h"
#include "src/cuda/check.h"
#include "src/cuda/host_registration.h"
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
    // Registered for the round trip only: the CPU sorter owns the entries
    // and may free them once it returns. Copies of pageable memory go
    // through the driver's staging at a fifth of the speed.
    const cuda::HostRegistration pinned(device_, entries, bytes, cudaHostRegisterDefault);
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

// The device is started on the sorting thread by the first chunk that
// pays for the start, and kept for the chunks after it.
class GpuLineSorter final : public LineSorter {
 public:
  GpuLineSorter(const LineSpec& spec, ThreadPool& pool, int device, std::shared_ptr<DeviceBudget> budget, const Log* log,
                std::string failure_prefix, const DeviceLineCosts& costs)
      : device_(device),
        threads_(pool.size()),
        budget_(std::move(budget)),
        log_(log),
        failure_prefix_(std::move(failure_prefix)),
        costs_(costs),
        cpu_(make_cpu_line_sorter(spec, pool, [this](WideEntry* e, uint64_t n, uint64_t large) {
          return offload(e, n, large);
        })) {}

  std::string describe() const override { return "gpu (device " + std::to_string(device_) + ")"; }
  std::string steps() const override {
    return cpu_->steps() + (gpu_ ? "; the GPU started in " + seconds_text(start_s_)
                                 : "; the GPU not started (no chunk would pay for its start)");
  }
  uint64_t bytes_per_line() const override { return cpu_->bytes_per_line(); }
  void sort(const LineSpan& lines, uint32_t* order) override { cpu_->sort(lines, order); }
  void sort_in_parts(const LineSpan& lines, uint32_t* order, const std::function<void(uint64_t)>& ready) override {
    cpu_->sort_in_parts(lines, order, ready);
  }

 private:
  // Whether the device sorting n entries, `large` of them in buckets the
  // CPU would sort on all threads, takes less time than the CPU, counting
  // the device's start where it has not started.
  bool pays(uint64_t n, uint64_t large) const {
    const double cpu_s = static_cast<double>(large) * costs_.cpu_thread_ns_per_line * 1e-9 / static_cast<double>(threads_);
    const double device_s = static_cast<double>(n) * costs_.round_trip_ns_per_line * 1e-9 + (gpu_ ? 0 : costs_.start_s);
    return cpu_s > device_s;
  }

  bool offload(WideEntry* entries, uint64_t n, uint64_t large) {
    if (!pays(n, large)) return false;
    if (!gpu_) {
      const Stopwatch took;
      std::string why;
      if (!gpu_usable(device_, &why)) throw DeviceError(failure_prefix_ + why);
      gpu_ = std::make_unique<DeviceEntrySort>(device_, budget_, log_);
      start_s_ = took.seconds();
      if (log_) {
        log_->info("lines: the GPU started in " + seconds_text(start_s_) + " for a chunk of " + std::to_string(n) +
                   " lines, " + std::to_string(large) + " of them in buckets too large for one task");
      }
    }
    return gpu_->sort(entries, n);
  }

  int device_;
  size_t threads_;
  std::shared_ptr<DeviceBudget> budget_;
  const Log* log_;
  std::string failure_prefix_;
  DeviceLineCosts costs_;
  std::unique_ptr<DeviceEntrySort> gpu_;
  double start_s_ = 0;
  std::unique_ptr<LineSorter> cpu_;  // last: gone first, before the device it hands chunks to
};

}  // namespace

std::unique_ptr<LineSorter> make_gpu_line_sorter(const LineSpec& spec, ThreadPool& pool, int device,
                                                 std::shared_ptr<DeviceBudget> budget, const Log* log,
                                                 const std::string& failure_prefix, const DeviceLineCosts& costs) {
  return std::make_unique<GpuLineSorter>(spec, pool, device, std::move(budget), log, failure_prefix, costs);
}

}  // namespace gsort
