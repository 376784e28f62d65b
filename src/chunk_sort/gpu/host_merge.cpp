#include "src/chunk_sort/gpu/host_merge.h"

#include <algorithm>
#include <cstring>

#include "src/algo/merge_path.h"

namespace gsort::gpu {
namespace {

// Positions in run a or run b, typed apart so that the shared merge_path
// (which compares b[j] with a[i]) can hand them to an index-based order.
struct RunA {
  uint64_t at;
};
struct RunB {
  uint64_t at;
};
template <typename Position>
struct PositionsOf {
  Position operator[](uint64_t at) const { return Position{at}; }
};

// Strict "x sorts before y" for elements of two runs.
template <typename P>
struct RunLess {
  const RecordTieBreak& ties;
  bool operator()(P x_key, uint32_t x_index, P y_key, uint32_t y_index) const {
    if (x_key != y_key) return x_key < y_key;
    if (ties.keys_are_whole) return false;
    const uint32_t size = ties.layout->record_size();
    return ties.layout->compare_after_prefix(ties.records + uint64_t{x_index} * size,
                                             ties.records + uint64_t{y_index} * size) < 0;
  }
};

// One task: output positions [begin, end) of the merge of runs a and b.
template <typename P>
struct MergeTask {
  SortedRun<P> a, b;  // b.size == 0: a plain copy of a
  uint64_t begin = 0, end = 0;
  uint32_t* out_order = nullptr;  // the pair's output (position 0 of the pair)
  P* out_keys = nullptr;          // null in the last round
};

template <typename P>
void run_task(const MergeTask<P>& t, const RunLess<P>& less) {
  const SortedRun<P>& a = t.a;
  const SortedRun<P>& b = t.b;
  const auto b_before_a = [&](uint64_t j, uint64_t i) { return less(b.keys[j], b.order[j], a.keys[i], a.order[i]); };
  uint64_t i = gsort::merge_path(PositionsOf<RunA>{}, a.size, PositionsOf<RunB>{}, b.size, t.begin,
                          [&](RunB bj, RunA ai) { return b_before_a(bj.at, ai.at); });
  uint64_t j = t.begin - i;
  for (uint64_t k = t.begin; k < t.end; ++k) {
    const bool take_a = j >= b.size || (i < a.size && !b_before_a(j, i));
    const P key = take_a ? a.keys[i] : b.keys[j];
    t.out_order[k] = take_a ? a.order[i] : b.order[j];
    if (t.out_keys) t.out_keys[k] = key;
    if (take_a) {
      ++i;
    } else {
      ++j;
    }
  }
}

}  // namespace

template <typename P>
void merge_sorted_runs(ThreadPool& pool, const std::vector<SortedRun<P>>& runs, const RecordTieBreak& ties,
                       uint32_t* order) {
  uint64_t total = 0;
  for (const SortedRun<P>& r : runs) total += r.size;
  if (runs.empty() || total == 0) return;
  if (runs.size() == 1) {
    std::memcpy(order, runs.front().order, total * sizeof(uint32_t));
    return;
  }
  const RunLess<P> less{ties};
  // Round outputs alternate between two scratch sets; the last goes to order.
  std::vector<uint32_t> scratch_order[2];
  std::vector<P> scratch_keys[2];
  std::vector<SortedRun<P>> current = runs;
  const uint64_t min_task = 1 << 16;
  const uint64_t wanted_tasks = pool.balanced_task_count();
  for (int round = 0; current.size() > 1; ++round) {
    const bool last = current.size() <= 2;
    uint32_t* out_order = order;
    P* out_keys = nullptr;
    if (!last) {
      scratch_order[round % 2].resize(total);
      scratch_keys[round % 2].resize(total);
      out_order = scratch_order[round % 2].data();
      out_keys = scratch_keys[round % 2].data();
    }
    std::vector<MergeTask<P>> tasks;
    std::vector<SortedRun<P>> next;
    uint64_t at = 0;
    for (size_t r = 0; r < current.size(); r += 2) {
      MergeTask<P> pair;
      pair.a = current[r];
      if (r + 1 < current.size()) pair.b = current[r + 1];
      pair.out_order = out_order + at;
      pair.out_keys = out_keys ? out_keys + at : nullptr;
      const uint64_t size = pair.a.size + pair.b.size;
      const uint64_t parts = std::max<uint64_t>(1, std::min(size / min_task + 1, (size * wanted_tasks + total - 1) / total));
      for (uint64_t k = 0; k < parts; ++k) {
        pair.begin = split_point(size, parts, k);
        pair.end = split_point(size, parts, k + 1);
        tasks.push_back(pair);
      }
      next.push_back({pair.out_order, pair.out_keys, size});
      at += size;
    }
    pool.parallel_for(tasks.size(), [&](size_t k) { run_task(tasks[k], less); });
    current = std::move(next);
  }
}

template void merge_sorted_runs<uint16_t>(ThreadPool&, const std::vector<SortedRun<uint16_t>>&, const RecordTieBreak&,
                                          uint32_t*);
template void merge_sorted_runs<uint32_t>(ThreadPool&, const std::vector<SortedRun<uint32_t>>&, const RecordTieBreak&,
                                          uint32_t*);
template void merge_sorted_runs<uint64_t>(ThreadPool&, const std::vector<SortedRun<uint64_t>>&, const RecordTieBreak&,
                                          uint32_t*);

}  // namespace gsort::gpu
