#include "src/lines/sort/gpu/sort_gpu.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <thread>
#include <vector>
#include <cstdio>
#include <optional>
#include <utility>

#include "kernels/composite_fill.h"
#include "kernels/entry_sort.h"
#include "src/chunk_sort/gpu/bucket_split.h"
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/core/errors.h"
#include "src/core/stopwatch.h"
#include "src/cuda/check.h"
#include "src/cuda/host_registration.h"
#include "src/cuda/resources.h"
#include "src/lines/sort/gpu/device_composite.h"
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
      release();
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

  // The chunk's text and line starts copied in, every line's entry filled
  // by the plan (ranked[k]: level k's slots) and, where every line fits
  // it, the entries sorted and copied back into `entries`; nothing where
  // the device has no room.
  std::optional<Misfits> fill_and_sort(const LineSpan& lines, kernels::DeviceComposite plan,
                                       const std::vector<std::vector<Slot>>& ranked, WideEntry* entries) {
    GSORT_CUDA_CHECK(cudaSetDevice(device_));
    const Stopwatch took;
    const uint64_t n = lines.count, text_bytes = lines.bytes(), starts_bytes = (n + 1) * sizeof(uint64_t);
    uint64_t slots = 0;
    for (const std::vector<Slot>& r : ranked) slots += r.size();
    const size_t temp = kernels::entry_sort_temp_bytes(n);
    const uint64_t fill_bytes = std::max<uint64_t>(text_bytes + starts_bytes + slots * sizeof(Slot), fill_.size()) +
                                kMisfitsMost * sizeof(uint32_t) + sizeof(unsigned long long);
    const uint64_t need =
        std::max(2 * n, 2 * capacity_) * sizeof(WideEntry) + std::max(temp, temp_.size()) + fill_bytes;
    if (!share_.hold(need)) {
      note_no_room(n, "more than --gpu-memory leaves");
      return std::nullopt;
    }
    try {
      reserve(n, temp);
      if (fill_.size() < text_bytes + starts_bytes + slots * sizeof(Slot)) {
        fill_ = cuda::DeviceBuffer();
        fill_ = cuda::DeviceBuffer(text_bytes + starts_bytes + slots * sizeof(Slot));
      }
      if (misfits_.size() == 0) misfits_ = cuda::DeviceBuffer(kMisfitsMost * sizeof(uint32_t) + sizeof(unsigned long long));
    } catch (const DeviceOutOfMemory&) {
      release();
      note_no_room(n, "not free on the device");
      return std::nullopt;
    }
    const uint8_t* device_text = copy_in(lines, ranked, plan);
    const double copied_s = took.seconds();
    auto* a = reinterpret_cast<kernels::LineEntry*>(a_.data());
    auto* b = reinterpret_cast<kernels::LineEntry*>(b_.data());
    auto* count = reinterpret_cast<unsigned long long*>(misfits_.data());
    auto* listed = reinterpret_cast<uint32_t*>(count + 1);
    kernels::fill_composite_entries(plan, device_text, reinterpret_cast<const uint64_t*>(fill_.data()), n, a, count, listed,
                                    static_cast<uint32_t>(kMisfitsMost), stream_.get());
    unsigned long long misfit_count = 0;
    GSORT_CUDA_CHECK(cudaMemcpyAsync(&misfit_count, count, sizeof misfit_count, cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
    Misfits m;
    if (misfit_count > 0) {
      m.many = misfit_count > kMisfitsMost;
      std::vector<uint32_t> found(std::min<uint64_t>(misfit_count, kMisfitsMost));
      GSORT_CUDA_CHECK(cudaMemcpy(found.data(), listed, found.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
      m.lines.assign(found.begin(), found.end());
      return m;
    }
    const kernels::LineEntry* sorted = kernels::sort_line_entries(a, b, n, temp_.data(), temp_.size(), stream_.get(), plan.bits);
    const cuda::HostRegistration entries_pinned(device_, entries, n * sizeof(WideEntry), cudaHostRegisterDefault);
    GSORT_CUDA_CHECK(cudaMemcpyAsync(entries, sorted, n * sizeof(WideEntry), cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
    if (log_) {
      char text_line[200];
      std::snprintf(text_line, sizeof text_line,
                    "lines: the GPU filled and sorted %llu lines' entries in %.3f s (%.2f GB copied in %.3f s)",
                    static_cast<unsigned long long>(n), took.seconds(), static_cast<double>(text_bytes + starts_bytes) / 1e9,
                    copied_s);
      log_->info(text_line);
    }
    return m;
  }

 private:
  // Copies the chunk's line starts, the ranked levels' slots (pointing
  // the plan's levels at them) and its text into fill_, in that order (the
  // words aligned), and returns where the text starts there. The text (a
  // mapping of the input, often) and the starts are registered for the
  // copy only: copies of pageable memory go through the driver's staging
  // at a fifth of the speed.
  const uint8_t* copy_in(const LineSpan& lines, const std::vector<std::vector<Slot>>& ranked,
                         kernels::DeviceComposite& plan) {
    const uint64_t text_bytes = lines.bytes(), starts_bytes = (lines.count + 1) * sizeof(uint64_t);
    const uint8_t* text = lines.text + lines.starts[0];
    const cuda::HostRegistration text_pinned(device_, const_cast<uint8_t*>(text), text_bytes, cudaHostRegisterReadOnly);
    const cuda::HostRegistration starts_pinned(device_, const_cast<uint64_t*>(lines.starts), starts_bytes,
                                               cudaHostRegisterDefault);
    uint8_t* at = fill_.data();
    GSORT_CUDA_CHECK(cudaMemcpyAsync(at, lines.starts, starts_bytes, cudaMemcpyHostToDevice, stream_.get()));
    at += starts_bytes;
    for (uint32_t k = 0; k < plan.count; ++k) {
      if (ranked[k].empty()) continue;
      GSORT_CUDA_CHECK(cudaMemcpyAsync(at, ranked[k].data(), ranked[k].size() * sizeof(Slot), cudaMemcpyHostToDevice,
                                       stream_.get()));
      plan.levels[k].ranked = reinterpret_cast<const Slot*>(at);
      at += ranked[k].size() * sizeof(Slot);
    }
    GSORT_CUDA_CHECK(cudaMemcpyAsync(at, text, text_bytes, cudaMemcpyHostToDevice, stream_.get()));
    stream_.synchronize();  // before the registrations end
    return at;
  }

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

  void release() {
    a_ = cuda::DeviceBuffer();
    b_ = cuda::DeviceBuffer();
    temp_ = cuda::DeviceBuffer();
    fill_ = cuda::DeviceBuffer();
    misfits_ = cuda::DeviceBuffer();
    capacity_ = 0;
    share_.reset();
  }

  void note_no_room(uint64_t n, const char* why) const {
    if (log_) log_->info("lines: the GPU's room for a chunk of " + std::to_string(n) + " lines is " + why + "; sorted on the CPU");
  }

  int device_;
  DeviceBudgetShare share_;  // what a_, b_ and temp_ hold of --gpu-memory
  const Log* log_;
  cuda::Stream stream_;
  cuda::DeviceBuffer a_, b_, temp_;
  cuda::DeviceBuffer fill_, misfits_;  // a fill's text, starts and ranked slots; its misfits' count and list
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
        may_fill_(device_may_fill(spec.images())),
        cpu_(make_cpu_line_sorter(
            spec, pool, [this](WideEntry* e, uint64_t n, uint64_t large) { return offload(e, n, large); },
            [this](const LineSpan& lines, const std::vector<LineImageSpec>& specs, const Composite& c,
                   const std::vector<uint64_t>& reference, WideEntry* entries) {
              return offload_composite(lines, specs, c, reference, entries);
            })) {}
  ~GpuLineSorter() override {
    if (warming_.joinable()) warming_.join();
  }

  // An input large enough to be filled on the device, by keys it may
  // fill, has the device started on a thread of its own while its text
  // is read (a whole line's sort would only pay for the context).
  void prepare(uint64_t input_bytes) override {
    if (gpu_ || unusable_ || warming_.joinable() || input_bytes < costs_.warm_bytes || !may_fill_) return;
    warming_ = std::thread([device = device_] { warm_up_device(device); });
  }

  std::string describe() const override {
    return (failure_prefix_.empty() ? "auto: gpu (device " : "gpu (device ") + std::to_string(device_) + ")" +
           (failure_prefix_.empty() ? " where a chunk pays for it, else cpu" : "");
  }
  std::string steps() const override {
    return cpu_->steps() + (gpu_        ? "; the GPU started in " + seconds_text(start_s_)
                            : unusable_ ? "; the GPU could not start"
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

  // Whether the device filling and sorting a chunk's entries takes less
  // time than the CPU's fill, split and bucket sorts.
  bool fill_pays(const LineSpan& lines) const {
    const double n = static_cast<double>(lines.count);
    const double cpu_s = n * costs_.cpu_fill_thread_ns_per_line * 1e-9 / static_cast<double>(threads_);
    const double device_s = static_cast<double>(lines.bytes()) * costs_.text_in_ns_per_byte * 1e-9 +
                            n * costs_.fill_ns_per_line * 1e-9 + (gpu_ || warming_.joinable() ? 0 : costs_.start_s);
    return cpu_s > device_s;
  }

  std::optional<Misfits> offload_composite(const LineSpan& lines, const std::vector<LineImageSpec>& specs,
                                           const Composite& c, const std::vector<uint64_t>& reference, WideEntry* entries) {
    if (unusable_) return std::nullopt;
    std::vector<std::vector<Slot>> ranked;
    const std::optional<kernels::DeviceComposite> plan = device_composite(specs, c, reference, &ranked);
    if (!plan || !fill_pays(lines) || !start(lines.count, 0)) return std::nullopt;
    return gpu_->fill_and_sort(lines, *plan, ranked, entries);
  }

  bool offload(WideEntry* entries, uint64_t n, uint64_t large) {
    if (unusable_ || !pays(n, large) || !start(n, large)) return false;
    return gpu_->sort(entries, n);
  }

  // The device started, where it has not been (for a chunk of n lines,
  // `large` of them in buckets too large for one task); false where it
  // cannot start and auto chose it (failure_prefix_ empty): every chunk
  // then stays on the CPU.
  bool start(uint64_t n, uint64_t large) {
    if (warming_.joinable()) warming_.join();
    if (!gpu_) {
      const Stopwatch took;
      std::string why;
      if (!gpu_usable(device_, &why)) {
        if (!failure_prefix_.empty()) throw DeviceError(failure_prefix_ + why);
        unusable_ = true;
        if (log_) log_->info("lines: the GPU cannot start (" + why + "); sorted on the CPU");
        return false;
      }
      gpu_ = std::make_unique<DeviceEntrySort>(device_, budget_, log_);
      start_s_ = took.seconds();
      if (log_) {
        log_->info("lines: the GPU started in " + seconds_text(start_s_) + " for a chunk of " + std::to_string(n) +
                   " lines, " + std::to_string(large) + " of them in buckets too large for one task");
      }
    }
    return true;
  }

  int device_;
  size_t threads_;
  std::shared_ptr<DeviceBudget> budget_;
  const Log* log_;
  std::string failure_prefix_;
  DeviceLineCosts costs_;
  bool may_fill_;  // whether chunks may be filled on the device (device_may_fill)
  bool unusable_ = false;  // auto's device could not start: the CPU sorts every chunk
  std::unique_ptr<DeviceEntrySort> gpu_;
  std::thread warming_;  // the device's context made ahead (prepare)
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
