#include "src/chunk_sort/lines/gpu/sort_gpu.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kernels/composite_fill.h"
#include "src/chunk_sort/cpu/pair_sort.h"
#include "src/chunk_sort/gpu/bucket_split.h"
#include "src/chunk_sort/gpu/device_context.h"
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/chunk_sort/lines/gpu/device_composite.h"
#include "src/chunk_sort/lines/gpu/device_entry_sort.h"
#include "src/core/errors.h"
#include "src/core/host_buffer.h"
#include "src/core/process_clock.h"
#include "src/core/stopwatch.h"

namespace gsort {
namespace {

// The device is started on the sorting thread by the first chunk that
// pays for the start, and kept for the chunks after it.
class GpuLineSorter final : public LineSorter {
 public:
  GpuLineSorter(const LineSpec& spec, ThreadPool& pool, int device, std::shared_ptr<DeviceBudget> budget, const Log* log,
                std::string failure_prefix, const DeviceLineCosts& costs)
      : device_(device),
        pool_(pool),
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
    const std::lock_guard<std::mutex> lock(warming_mutex_);
    if (warming_.joinable()) warming_.join();
  }

  // An input large enough to be filled on the device, by keys it may
  // fill, has the device started on a thread of its own while its text
  // is read (a whole line's sort would only pay for the context).
  // A stream's reader calls it as the stream arrives (src/lines/form_runs.cpp).
  void prepare(uint64_t input_bytes) override {
    if (input_bytes < costs_.warm_bytes || !may_fill_) return;
    const std::lock_guard<std::mutex> lock(warming_mutex_);
    if (gpu_ || unusable_ || warming_.joinable()) return;
    warming_ = std::thread([this] {
      warm_began_s_ = process_seconds();
      warm_up_device(device_);
      warm_ended_s_ = process_seconds();
    });
  }

  std::string describe() const override {
    const std::string gpu = "gpu (device " + std::to_string(device_) + ")";
    return automatic() ? "auto: " + gpu + " where a chunk pays for it, else cpu" : gpu;
  }
  std::string steps() const override {
    return cpu_->steps() + (gpu_        ? "; the GPU started in " + seconds_text(start_s_) + ", ties refined there in " +
                                              std::to_string(gpu_->tie_chunks()) + " chunks"
                            : unusable_ ? "; the GPU could not start"
                                        : "; the GPU not started (no chunk would pay for its start)");
  }
  uint64_t bytes_per_line() const override { return cpu_->bytes_per_line(); }
  bool holds_text(const LineSpan& lines) const override { return gpu_ && gpu_->holds(lines); }
  bool write_sorted(const LineSpan& lines, const uint32_t* order, const SortedText& put) override {
    if (!holds_text(lines)) return false;
    if (staging_.size() == 0) staging_ = gpu::allocate_pinned_host(device_, 2 * kStagingPiece, pool_);
    return gpu_->write_sorted(lines, order, staging_, put);
  }
  void sort(const LineSpan& lines, uint32_t* order) override {
    sort_in_parts(lines, order, [](uint64_t) {});
  }
  void sort_in_parts(const LineSpan& lines, uint32_t* order, const std::function<void(uint64_t)>& ready) override {
    // A new chunk: the text an earlier fill copied in is not its own, even
    // where its memory and line count are the same.
    if (gpu_) gpu_->forget_text();
    cpu_->sort_in_parts(lines, order, ready);
  }

 private:
  // Whether the device sorting n entries, `large` of them in buckets the
  // CPU would sort on all threads, takes less time than the CPU, counting
  // the device's start where it has not started.
  bool pays(uint64_t n, uint64_t large) const {
    const double cpu_s = static_cast<double>(large) * costs_.cpu_thread_ns_per_line * 1e-9 / static_cast<double>(pool_.size());
    const double device_s = static_cast<double>(n) * costs_.round_trip_ns_per_line * 1e-9 + (gpu_ ? 0 : costs_.start_s);
    return cpu_s > device_s;
  }

  bool warming() const {
    const std::lock_guard<std::mutex> lock(warming_mutex_);
    return warming_.joinable();
  }

  // Whether the device filling and sorting a chunk's entries takes less
  // time than the CPU's fill, split and bucket sorts.
  bool fill_pays(const LineSpan& lines) const {
    const double n = static_cast<double>(lines.count);
    const bool started = gpu_ || warming();
    const double cpu_s = n * costs_.cpu_fill_thread_ns_per_line * 1e-9 / static_cast<double>(pool_.size());
    const double device_s = static_cast<double>(lines.bytes()) * costs_.text_in_ns_per_byte * 1e-9 +
                            n * costs_.fill_ns_per_line * 1e-9 + (started ? 0 : costs_.start_s);
    return cpu_s > device_s;
  }

  std::optional<Misfits> offload_composite(const LineSpan& lines, const std::vector<LineImageSpec>& specs,
                                           const Composite& c, const std::vector<uint64_t>& reference, WideEntry* entries) {
    if (unusable_) return std::nullopt;
    if (!fill_pays(lines)) return std::nullopt;
    std::vector<const FewSlots*> ranked;
    const std::optional<kernels::DeviceComposite> plan = device_composite(specs, c, reference, &ranked);
    if (!plan || (heads_missed_ && makes_heads(*plan))) return std::nullopt;
    // The entries' fresh pages faulted in on every thread (while the
    // context is made, where it is not yet): pinned for the copy back as
    // they were, one thread faulted them in, 0.20 s of 1 GB on the H200
    // host (2026-12-04), beside the device's whole fill and sort.
    fault_in_pages(reinterpret_cast<uint8_t*>(entries), lines.count * sizeof(WideEntry), pool_);
    if (!start(lines.count, 0)) return std::nullopt;
    std::optional<Misfits> m = gpu_->fill_and_sort(lines, *plan, ranked, entries, device_ties(specs, c.start));
    // A line that did not fit a plan the device made heads for may hold a
    // character the collation's table lacks, which a wider plan would not
    // fix: from then on, the CPU fills such plans.
    if (m && !m->none() && makes_heads(*plan)) heads_missed_ = true;
    return m;
  }

  static bool makes_heads(const kernels::DeviceComposite& plan) {
    for (uint32_t k = 0; k < plan.count; ++k) {
      if (plan.levels[k].device_heads) return true;
    }
    return false;
  }

  // Ties left at a level whose image the device makes (a key's text,
  // number or month, or the whole line): refined there, where the text is.
  static std::optional<DeviceTies> device_ties(const std::vector<LineImageSpec>& specs, const TieStart& start) {
    if (start.settled || start.level >= specs.size() || !image_made_from_bytes(specs[start.level])) return std::nullopt;
    return DeviceTies{specs[start.level], start.depth};
  }

  bool offload(WideEntry* entries, uint64_t n, uint64_t large) {
    if (unusable_ || !pays(n, large) || !start(n, large)) return false;
    return gpu_->sort(entries, n);
  }

  // Whether auto chose this sorter (an empty failure prefix): a device
  // that cannot start then leaves every chunk on the CPU.
  bool automatic() const { return failure_prefix_.empty(); }

  // The device started, where it has not been (for a chunk of n lines,
  // `large` of them in buckets too large for one task); false where it
  // cannot start under auto.
  bool start(uint64_t n, uint64_t large) {
    const Stopwatch waited;
    {
      const std::lock_guard<std::mutex> lock(warming_mutex_);
      if (warming_.joinable()) warming_.join();
    }
    if (!gpu_) {
      const double waited_s = waited.seconds();  // for the context made ahead (prepare), where it was not ready
      // (read after the join: the warming thread's figures, where it ran)
      const std::string ahead = warm_ended_s_ > 0 ? "; made ahead from " + seconds_text(warm_began_s_) + " to " +
                                                        seconds_text(warm_ended_s_) + " after the start"
                                                  : "";
      const Stopwatch took;
      std::string why;
      if (!gpu_usable(device_, &why)) {
        if (!automatic()) throw DeviceError(failure_prefix_ + why);
        unusable_ = true;
        if (log_) log_->info("lines: the GPU cannot start (" + why + "); sorted on the CPU");
        return false;
      }
      gpu_ = std::make_unique<DeviceEntrySort>(device_, budget_, log_);
      start_s_ = took.seconds();
      if (log_) {
        log_->info("lines: the GPU started in " + seconds_text(start_s_) + " (its context awaited " +
                   seconds_text(waited_s) + ahead + ") for a chunk of " + std::to_string(n) + " lines, " +
                   std::to_string(large) + " of them in buckets too large for one task");
      }
    }
    return true;
  }

  int device_;
  ThreadPool& pool_;
  std::shared_ptr<DeviceBudget> budget_;
  const Log* log_;
  std::string failure_prefix_;
  DeviceLineCosts costs_;
  bool may_fill_;  // whether chunks may be filled on the device (device_may_fill)
  bool unusable_ = false;  // auto's device could not start: the CPU sorts every chunk
  bool heads_missed_ = false;  // a plan with heads made on the device left lines out (offload_composite)
  std::unique_ptr<DeviceEntrySort> gpu_;
  // Sorted text comes back through two pieces of pinned memory (write_sorted).
  static constexpr uint64_t kStagingPiece = uint64_t{64} << 20;
  HostBuffer staging_;
  mutable std::mutex warming_mutex_;  // prepare may come from a stream's reader
  std::thread warming_;               // the device's context made ahead (prepare)
  double start_s_ = 0;
  double warm_began_s_ = 0, warm_ended_s_ = 0;  // process_seconds() around the warming thread's work
  std::unique_ptr<LineSorter> cpu_;  // last: gone first, before the device it hands chunks to
};

}  // namespace

std::unique_ptr<LineSorter> make_gpu_line_sorter(const LineSpec& spec, ThreadPool& pool, int device,
                                                 std::shared_ptr<DeviceBudget> budget, const Log* log,
                                                 const std::string& failure_prefix, const DeviceLineCosts& costs) {
  return std::make_unique<GpuLineSorter>(spec, pool, device, std::move(budget), log, failure_prefix, costs);
}

}  // namespace gsort
