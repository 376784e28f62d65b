#include "src/chunk_sort/cpu/cpu_backend.h"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "src/chunk_sort/entries/key_entry.h"
#include "src/algo/loser_tree.h"
#include "src/core/host_buffer.h"
#include "src/core/stopwatch.h"
#include "src/chunk_sort/entries/entry_merge.h"
#include "src/chunk_sort/cpu/entry_sort.h"
#include "src/chunk_sort/cpu/stream_piece_sort.h"

namespace gsort {
namespace {

class CpuBackend final : public SortBackend {
 public:
  CpuBackend(const KeyLayout& layout, ThreadPool& pool) : layout_(layout), pool_(pool) {}

  std::string describe() const override {
    return "cpu (" + std::to_string(pool_.size()) + (pool_.size() == 1 ? " thread)" : " threads)");
  }

  uint64_t host_bytes_per_record() const override { return 2 * sizeof(KeyEntry) + sizeof(uint32_t); }
  bool sorts_in_place() const override { return true; }

  BackendTimings timings() const override { return timings_; }

  void sort_order(const uint8_t* records, uint64_t count, uint32_t* order) override {
    sort_into(records, static_cast<size_t>(count), order, nullptr);
  }

  void sort_order_in_parts(const uint8_t* records, uint64_t count, uint32_t* order,
                           const OrderProgress& ready) override {
    sort_into(records, static_cast<size_t>(count), order, &ready);
  }

  // With few threads there are none to spare beside the reader, and the
  // pieces' merge costs more than the one sort at the end.
  std::unique_ptr<ChunkSortSession> begin_stream(const uint8_t* records, uint64_t capacity) override {
    if (pool_.size() < kStreamPiecesMinThreads) return nullptr;
    return std::make_unique<StreamPieceSort>(layout_, pool_, records, capacity,
                                             StreamPieceSort::default_piece_records(layout_.record_size()), timings_);
  }

  // Keys are extracted in parallel, then the runs' entries are merged: with
  // one thread by a loser tree (each entry is touched once, where a sort
  // would make several passes); with more, pairwise in rounds, each merge
  // split among all threads by merge path. On 16 threads the loser tree
  // alone took longer than writing the batch it ordered.
  void merge_order(const uint8_t* records, const uint64_t* starts, size_t runs, uint32_t* order) override {
    const size_t n = static_cast<size_t>(starts[runs]);
    reserve(n);
    Stopwatch t0;
    const size_t tasks = pool_.balanced_task_count();
    pool_.parallel_for(tasks, [&](size_t t) { extract(records, split_point(n, tasks, t), split_point(n, tasks, t + 1)); });
    timings_.extract_s += t0.lap();
    if (pool_.size() > 1 && n >= kParallelMergeMin) {
      const std::vector<size_t> bounds(starts, starts + runs + 1);
      const KeyEntry* merged = merge_entry_runs(pool_, layout_, records, entries(), scratch(), bounds);
      pool_.parallel_for(tasks, [&](size_t t) {
        for (size_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
          order[i] = merged[i].index;
        }
      });
    } else {
      merge_with_loser_tree(records, starts, runs, order);
    }
    timings_.merge_s += t0.seconds();
  }

  // The merged order of the runs' entries (already extracted) on this thread.
  void merge_with_loser_tree(const uint8_t* records, const uint64_t* starts, size_t runs, uint32_t* order) {
    const KeyEntry* e = entries();
    std::vector<uint64_t> next(starts, starts + runs);
    const auto run_less = [&](size_t a, size_t b) {
      const KeyEntry& x = e[next[a]];
      const KeyEntry& y = e[next[b]];
      if (less(records, x, y)) return true;
      if (less(records, y, x)) return false;
      return a < b;
    };
    // Empty runs never enter the tree.
    std::vector<size_t> slot_run;
    for (size_t r = 0; r < runs; ++r) {
      if (starts[r] < starts[r + 1]) slot_run.push_back(r);
    }
    const auto slot_less = [&](size_t i, size_t j) { return run_less(slot_run[i], slot_run[j]); };
    LoserTree<decltype(slot_less)> tree(slot_run.size(), slot_less);
    for (size_t i = 0; !tree.empty(); ++i) {
      const size_t r = slot_run[tree.winner()];
      order[i] = e[next[r]].index;
      tree.advance(++next[r] < starts[r + 1]);
    }
  }

 private:
  static constexpr size_t kStreamPiecesMinThreads = 4;
  // Below this many records one thread sorts the chunk.
  static constexpr size_t kBucketSortMin = size_t{1} << 16;
  // Below this many entries a batch merges on one thread.
  static constexpr size_t kParallelMergeMin = size_t{1} << 14;

  void extract(const uint8_t* records, size_t begin, size_t end) {
    const uint32_t rs = layout_.record_size();
    KeyEntry* e = entries();
    for (size_t i = begin; i < end; ++i) {
      e[i].prefix = layout_.prefix(records + uint64_t{i} * rs);
      e[i].index = static_cast<uint32_t>(i);
    }
  }

  // Each thread sorts a slice; the slices are then merged by merge path.
  // `extracted`: the entries already hold the chunk's keys.
  const KeyEntry* sort_by_slices(const uint8_t* records, size_t n, bool extracted = false) {
    const size_t slices = n < kBucketSortMin ? 1 : pool_.size();
    std::vector<size_t> bounds(slices + 1);
    for (size_t s = 0; s <= slices; ++s) bounds[s] = split_point(n, slices, s);
    Stopwatch t0;
    pool_.parallel_for(slices, [&](size_t s) {
      if (!extracted) extract(records, bounds[s], bounds[s + 1]);
      sort_range(records, entries() + bounds[s], scratch() + bounds[s], bounds[s + 1] - bounds[s]);
    });
    timings_.sort_s += t0.lap();
    const KeyEntry* sorted = merge_slices(records, bounds);
    timings_.merge_s += t0.seconds();
    return sorted;
  }

  // The stable order of records[0, n) into `order`; with `ready`, each
  // prefix of it is reported as soon as it is final.
  void sort_into(const uint8_t* records, size_t n, uint32_t* order, const OrderProgress* ready) {
    reserve(n);
    bool extracted = false;
    if (n >= kBucketSortMin && pool_.size() > 1) {
      std::array<size_t, 257> bucket_start{};
      extracted = true;
      if (split_into_buckets(records, n, bucket_start)) {
        sort_buckets(records, bucket_start, order, ready);
        ++timings_.chunks;
        return;
      }
    }
    copy_indices(sort_by_slices(records, n, extracted), 0, n, order);
    if (ready) (*ready)(n);
    ++timings_.chunks;
  }

  void copy_indices(const KeyEntry* sorted, size_t begin, size_t end, uint32_t* order) {
    const size_t n = end - begin;
    const size_t tasks = std::min(pool_.balanced_task_count(), std::max<size_t>(1, n >> 14));
    pool_.parallel_for(tasks, [&](size_t t) {
      for (size_t i = begin + split_point(n, tasks, t), e = begin + split_point(n, tasks, t + 1); i < e; ++i) {
        order[i] = sorted[i].index;
      }
    });
  }

  // One most-significant-digit pass on the prefix's top byte splits the
  // entries (extracted here) into 256 buckets in scratch(), stably, in
  // parallel; bucket_start gets their bounds. When one bucket would hold
  // most entries (low-entropy keys) it scatters nothing and returns false:
  // the slices path then keeps the threads busy.
  bool split_into_buckets(const uint8_t* records, size_t n, std::array<size_t, 257>& bucket_start) {
    const size_t slices = pool_.balanced_task_count();
    std::vector<std::array<size_t, 256>> counts(slices);
    Stopwatch t0;
    pool_.parallel_for(slices, [&](size_t s) {
      const size_t begin = split_point(n, slices, s), end = split_point(n, slices, s + 1);
      extract(records, begin, end);
      counts[s].fill(0);
      const KeyEntry* e = entries();
      for (size_t i = begin; i < end; ++i) ++counts[s][e[i].prefix >> 56];
    });
    timings_.extract_s += t0.lap();

    bucket_start[0] = 0;
    size_t largest = 0;
    for (int b = 0; b < 256; ++b) {
      size_t total = 0;
      for (size_t s = 0; s < slices; ++s) total += counts[s][b];
      bucket_start[b + 1] = bucket_start[b] + total;
      largest = std::max(largest, total);
    }
    if (largest > n / 2) return false;  // skewed keys
    // Slice s writes its bucket-b entries after those of slices < s: stable.
    for (int b = 0; b < 256; ++b) {
      size_t offset = bucket_start[b];
      for (size_t s = 0; s < slices; ++s) {
        const size_t c = counts[s][b];
        counts[s][b] = offset;
        offset += c;
      }
    }
    pool_.parallel_for(slices, [&](size_t s) {
      const size_t begin = split_point(n, slices, s), end = split_point(n, slices, s + 1);
      const KeyEntry* e = entries();
      KeyEntry* out = scratch();
      auto& next = counts[s];
      for (size_t i = begin; i < end; ++i) out[next[e[i].prefix >> 56]++] = e[i];
    });
    timings_.sort_s += t0.seconds();
    return true;
  }

  // Each bucket, small enough to stay in cache, radix sorted by one thread,
  // then the order written out. With `ready`, buckets go a pool's worth at a
  // time, in key order, and each group's part of the order is reported as
  // it is done: the output is written from the first group on, while the
  // rest is sorted.
  void sort_buckets(const uint8_t* records, const std::array<size_t, 257>& bucket_start, uint32_t* order,
                    const OrderProgress* ready) {
    Stopwatch t0;
    const auto sort_bucket = [&](size_t b) {
      const size_t begin = bucket_start[b], len = bucket_start[b + 1] - begin;
      sort_range(records, scratch() + begin, entries() + begin, len);
    };
    if (!ready) {
      pool_.parallel_for(256, sort_bucket);
      timings_.sort_s += t0.seconds();
      copy_indices(scratch(), 0, bucket_start[256], order);
      return;
    }
    const size_t group = pool_.size();
    for (size_t first = 0; first < 256; first += group) {
      const size_t last = std::min<size_t>(256, first + group);
      pool_.parallel_for(last - first, [&](size_t i) { sort_bucket(first + i); });
      if (bucket_start[last] == bucket_start[first]) continue;  // empty buckets: nothing new to tell
      copy_indices(scratch(), bucket_start[first], bucket_start[last], order);
      (*ready)(bucket_start[last]);
    }
    timings_.sort_s += t0.seconds();
  }

  void sort_range(const uint8_t* records, KeyEntry* e, KeyEntry* tmp, size_t n) {
    sort_entries(layout_, records, e, tmp, n);
  }

  bool less(const uint8_t* records, const KeyEntry& x, const KeyEntry& y) const {
    return entry_less(layout_, records, x, y);
  }

  const KeyEntry* merge_slices(const uint8_t* records, const std::vector<size_t>& bounds) {
    return merge_entry_runs(pool_, layout_, records, entries(), scratch(), bounds);
  }

  // Grows the entry buffers without initialising them (a pass over memory
  // that would cost as much as a radix pass). Large ones ask for huge pages:
  // first-touch faults of 4 KiB pages are a visible part of a split.
  void reserve(size_t n) {
    if (n <= capacity_) return;
    entries_buf_ = HostBuffer();  // freed first: the old and new buffers are never held at once
    scratch_buf_ = HostBuffer();
    entries_buf_ = HostBuffer::allocate_pageable(n * sizeof(KeyEntry));
    scratch_buf_ = HostBuffer::allocate_pageable(n * sizeof(KeyEntry));
    capacity_ = n;
  }
  KeyEntry* entries() { return reinterpret_cast<KeyEntry*>(entries_buf_.data()); }
  KeyEntry* scratch() { return reinterpret_cast<KeyEntry*>(scratch_buf_.data()); }

  const KeyLayout& layout_;
  ThreadPool& pool_;
  HostBuffer entries_buf_, scratch_buf_;
  size_t capacity_ = 0;
  BackendTimings timings_;
};

}  // namespace

std::unique_ptr<SortBackend> make_cpu_backend(const KeyLayout& layout, ThreadPool& pool) {
  return std::make_unique<CpuBackend>(layout, pool);
}

}  // namespace gsort
