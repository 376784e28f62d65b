#include "src/chunk_sort/hybrid/hybrid_backend.h"

#include <atomic>
#include <exception>
#include <thread>
#include <vector>

#include "src/chunk_sort/entries/entry_merge.h"
#include "src/core/scoped_join.h"
#include "src/core/stopwatch.h"

namespace gsort {
namespace {

class HybridBackend final : public SortBackend {
 public:
  HybridBackend(const KeyLayout& layout, ThreadPool& pool, std::unique_ptr<SortBackend> cpu, const MakeGpuSide& make_gpu)
      : gpu_pool_(pool.size()),
        gpu_(make_gpu(gpu_pool_)),
        cpu_(std::move(cpu)),
        layout_(layout),
        pool_(pool) {}

  std::string describe() const override {
    return "hybrid: " + gpu_->describe() + " + " + cpu_->describe() + "; pieces sorted: gpu " +
           std::to_string(gpu_pieces_) + ", cpu " + std::to_string(cpu_pieces_);
  }

  uint64_t host_bytes_per_record() const override {
    return std::max(gpu_->host_bytes_per_record(), cpu_->host_bytes_per_record()) + 2 * sizeof(KeyEntry);
  }

  HostBuffer allocate_host(size_t bytes) override { return gpu_->allocate_host(bytes); }
  uint64_t peak_device_bytes() const override { return gpu_->peak_device_bytes(); }
  // An input held whole on the device is the device's to sort.
  uint64_t resident_capacity(uint64_t slot_bytes) override { return gpu_->resident_capacity(slot_bytes); }
  std::unique_ptr<ResidentSort> hold_records(uint64_t count, uint64_t slot_bytes, std::string* why) override {
    return gpu_->hold_records(count, slot_bytes, why);
  }

  void sort_order(const uint8_t* records, uint64_t count, uint32_t* order) override {
    if (count < kMinRecords) {
      gpu_->sort_order(records, count, order);
      ++gpu_pieces_;
      return;
    }
    std::vector<size_t> bounds(kPieces + 1);
    for (uint64_t p = 0; p <= kPieces; ++p) bounds[p] = split_point(count, kPieces, p);
    sort_pieces(records, bounds, order);
    merge_pieces(records, bounds, order);
  }

  void merge_order(const uint8_t* records, const uint64_t* starts, size_t runs, uint32_t* order) override {
    gpu_->merge_order(records, starts, runs, order);
  }

  BackendTimings timings() const override {
    BackendTimings t = gpu_->timings();
    const BackendTimings c = cpu_->timings();
    t.extract_s += c.extract_s;
    t.merge_s += c.merge_s + merge_s_;
    t.chunks += c.chunks;
    return t;
  }

 private:
  static constexpr uint64_t kMinRecords = uint64_t{1} << 20;  // below: the GPU alone
  static constexpr uint64_t kPieces = 32;
  // More tasks than threads, so that a slow thread does not hold up the rest.

  // Sorts each piece [bounds[p], bounds[p+1]) into order (as chunk indices).
  // Both sides pull pieces from one counter: the GPU from a thread of its
  // own, started per chunk (it cannot be a task of pool_, whose threads the
  // CPU side's parallel_for holds meanwhile), the CPU from this thread.
  void sort_pieces(const uint8_t* records, const std::vector<size_t>& bounds, uint32_t* order) {
    std::atomic<uint64_t> next{0};
    const auto work = [&](SortBackend& side, uint64_t& taken) {
      for (uint64_t p; (p = next.fetch_add(1)) < kPieces;) {
        const uint64_t begin = bounds[p], n = bounds[p + 1] - begin;
        side.sort_order(records + begin * layout_.record_size(), n, order + begin);
        for (uint64_t i = 0; i < n; ++i) order[begin + i] += static_cast<uint32_t>(begin);
        ++taken;
      }
    };
    std::exception_ptr gpu_error;
    std::thread gpu_thread([&] {
      try {
        work(*gpu_, gpu_pieces_);
      } catch (...) {
        gpu_error = std::current_exception();
        next.store(kPieces);  // stop the CPU side too
      }
    });
    ScopedJoin join_gpu(gpu_thread, [&] { next.store(kPieces); });  // on a CPU failure: stop the GPU side too
    work(*cpu_, cpu_pieces_);
    join_gpu.join();
    if (gpu_error) std::rethrow_exception(gpu_error);
  }

  // Merges the sorted pieces: entries in each piece's sorted order, then
  // pairwise merges split by merge path.
  void merge_pieces(const uint8_t* records, const std::vector<size_t>& bounds, uint32_t* order) {
    const Stopwatch t0;
    const uint64_t count = bounds.back();
    entries_.resize(count);
    scratch_.resize(count);
    const uint32_t rs = layout_.record_size();
    const size_t tasks = pool_.balanced_task_count();
    pool_.parallel_for(tasks, [&](size_t t) {
      for (size_t i = split_point(count, tasks, t), end = split_point(count, tasks, t + 1); i < end; ++i) {
        entries_[i] = KeyEntry{layout_.prefix(records + uint64_t{order[i]} * rs), order[i]};
      }
    });
    const KeyEntry* merged = merge_entry_runs(pool_, layout_, records, entries_.data(), scratch_.data(), bounds);
    pool_.parallel_for(tasks, [&](size_t t) {
      for (size_t i = split_point(count, tasks, t), end = split_point(count, tasks, t + 1); i < end; ++i) {
        order[i] = merged[i].index;
      }
    });
    merge_s_ += t0.seconds();
  }

  // The GPU side's host work (its host merges) runs on a pool of its own, so
  // that the CPU side's sorts on pool_, running at the same time, do not
  // take every worker from it. Declared before gpu_, which uses it.
  ThreadPool gpu_pool_;
  std::unique_ptr<SortBackend> gpu_;
  std::unique_ptr<SortBackend> cpu_;
  const KeyLayout& layout_;
  ThreadPool& pool_;
  std::vector<KeyEntry> entries_, scratch_;
  uint64_t gpu_pieces_ = 0, cpu_pieces_ = 0;
  double merge_s_ = 0;
};

}  // namespace

std::unique_ptr<SortBackend> make_hybrid_backend(const KeyLayout& layout, ThreadPool& pool,
                                                 std::unique_ptr<SortBackend> cpu, const MakeGpuSide& make_gpu) {
  return std::make_unique<HybridBackend>(layout, pool, std::move(cpu), make_gpu);
}

}  // namespace gsort
