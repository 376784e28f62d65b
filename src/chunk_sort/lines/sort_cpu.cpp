// The CPU sorter: the first pass takes 96 bits per line (composite_pass.h:
// the keys compiled into one image, where that takes in more than the
// first; else first_pass.h);
// an MSD step on all threads scatters the (bits, line) pairs by their
// highest varying bits into buckets, and the buckets are sorted (LSD radix),
// their ties refined (tie_refine.h) and their order written in waves of
// tasks, each wave a prefix of the final order handed out at once
// (sort_in_parts), so that the output is written while the rest is sorted.
// A bucket too large for one task is sorted and refined by all threads.
// With an offload (the GPU), a chunk with a bucket too large for one task
// (or any chunk, where one thread sorts) is sorted there instead, and cut
// into pieces between runs of equal bits that are handed out in the same
// waves.
#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>

#include "src/chunk_sort/cpu/pair_sort.h"
#include "src/chunk_sort/lines/composite_pass.h"
#include "src/chunk_sort/lines/first_pass.h"
#include "src/chunk_sort/lines/sort_steps.h"
#include "src/chunk_sort/lines/sorter.h"
#include "src/chunk_sort/lines/tie_refine.h"
#include "src/core/host_buffer.h"

namespace gsort {
namespace {

constexpr uint64_t kSplitMin = uint64_t{1} << 16;     // fewer lines: one piece
constexpr uint64_t kWaves = 4;                        // about this many prefixes handed out
constexpr uint64_t kLargeBucket = uint64_t{1} << 16;  // smaller buckets: one task each
// Fewer lines: sorted here, quicker than a round trip. More, and a bucket
// too large for one task (groups_of): the offload sorts the chunk. On the
// H200 machine (2026-12-02, every chunk offloaded), the GPU's round trip
// beat the CPU's buckets exactly where some were large by groups_of's
// earlier rule (twice a wave's share: -t, -k3,3n 1.86 s against 2.09;
// -t, -k2,2 -k1,1n 1.89 against 2.85), and lost elsewhere (few names:
// 1.01 against 0.85). The rule now leaves buckets under half a thread's
// share to one task each, which took -t, -k2,2 -k1,1n on the CPU from
// 3.58 s to 2.88 (H200 host, 2 GB, medians of 3, 2026-12-02).
constexpr uint64_t kOffloadMin = uint64_t{1} << 16;

// Consecutive buckets sorted by one task, or one large bucket by all.
struct Group {
  size_t first_bucket = 0, end_bucket = 0;
  uint64_t begin = 0, end = 0;  // its entries
  bool large = false;
};

// The runs of equal bits in w[begin, end), as tied segments.
std::vector<TieSegment> ties_in(const WideEntry* w, uint64_t begin, uint64_t end, const TieStart& start) {
  std::vector<TieSegment> ties;
  if (start.settled) return ties;
  for (uint64_t i = begin, j = i; i < end; i = j) {
    j = i + 1;
    while (j < end && same_bits(w[j], w[i])) ++j;
    if (j - i > 1) ties.push_back(TieSegment{i, j - i, start.depth, start.level});
  }
  return ties;
}

class CpuLineSorter final : public LineSorter {
 public:
  CpuLineSorter(const LineSpec& spec, ThreadPool& pool, EntrySortOffload offload, CompositeOffload composite_offload)
      : spec_(spec), pool_(pool), offload_(std::move(offload)), composite_offload_(std::move(composite_offload)) {}

  std::string describe() const override {
    return "cpu (" + std::to_string(pool_.size()) + (pool_.size() == 1 ? " thread)" : " threads)");
  }
  std::string steps() const override { return steps_.text(); }
  // The pairs and their scratch, the cache, and the tied lines' compact
  // pairs and scratch (all of them when every line ties).
  uint64_t bytes_per_line() const override { return 2 * sizeof(WideEntry) + sizeof(LineCache) + 2 * sizeof(KeyEntry); }

  void sort(const LineSpan& lines, uint32_t* order) override { sort_in_parts(lines, order, [](uint64_t) {}); }

  void sort_in_parts(const LineSpan& lines, uint32_t* order, const std::function<void(uint64_t)>& ready) override {
    const uint64_t n = lines.count;
    if (n == 0) {
      ready(0);
      return;
    }
    reserve(n);
    CachedWords cached;
    Stopwatch t;
    bool replanned = false, squeezed = false;
    // A pass that fills the cache does so from end to end; otherwise the
    // refiner touches the few entries of its tied lines, here and there.
    const auto cache_from_end_to_end = [this] {
      cache_.advise_huge_pages(true);
      return cache();
    };
    bool sorted = false;
    double planned_s = 0;
    const std::optional<TieStart> composite = composite_pass(pool_, spec_, lines, w(), cache_from_end_to_end, &cached,
                                                             &replanned, &squeezed, composite_offload_, &sorted,
                                                             &planned_s);
    steps_.composite_planned_s += planned_s;
    // Huge pages for the cache only where a pass fills it: a touch of one
    // entry by the refiner would zero 2 MB.
    cache_.advise_huge_pages(composite ? cached.filled : first_pass_fills_cache(spec_));
    for (const HostBuffer* b : {&tie_entries_, &tie_scratch_}) b->advise_huge_pages(!composite || cached.filled);
    const TieStart start = composite ? *composite : first_pass(pool_, spec_, lines, w(), tmp(), cache(), &cached);
    ++steps_.chunks;
    steps_.composite_chunks += composite.has_value();
    steps_.composite_replans += replanned;
    steps_.composite_squeezed += composite.has_value() && squeezed;
    steps_.composite_tie_words += composite.has_value() && cached.filled;
    steps_.composite_offloaded += composite.has_value() && sorted;
    steps_.offloaded_chunks += composite.has_value() && sorted;
    steps_.first_pass_s += t.lap();
    TieRefiner refiner(spec_, lines, pool_, cache(), cached);
    if (composite && sorted) {  // filled and sorted off the CPU
      refine_sorted(n, refiner, start, order, ready);
      steps_.buckets_s += t.lap();
      return;
    }
    std::vector<size_t> starts;
    const int bits = static_cast<int>(std::clamp<uint64_t>(64 - __builtin_clzll(n) - 8, 8, 12));
    const bool split = n >= kSplitMin && pool_.size() > 1;
    const bool scattered = split && scatter_wide_by_top_bits(pool_, w(), tmp(), n, bits, starts);
    steps_.split_s += t.lap();
    // The scatter left w as it was: where a bucket is too large for one
    // task (the top bits say little; such buckets go one after another on
    // all threads), or one thread sorts, the offload sorts the whole chunk
    // instead. A chunk whose entries are all equal is in order already.
    const std::vector<Group> groups = scattered ? groups_of(starts, n) : std::vector<Group>{};
    uint64_t large = scattered ? 0 : split ? 0 : n;
    for (const Group& g : groups) large += g.large ? g.end - g.begin : 0;
    if (offload_ && n >= kOffloadMin && large > 0 && offload_(w(), n, large)) {
      steps_.offload_s += t.lap();
      ++steps_.offloaded_chunks;
      refine_sorted(n, refiner, start, order, ready);
      steps_.buckets_s += t.lap();
      return;
    }
    if (!scattered) {
      // One piece; when every line has the same bits, its ties on all threads.
      sort_range(0, n, split, refiner, start, order, false);
      ready(n);
    } else {
      in_waves(groups, starts, refiner, start, order, ready, false);
    }
    steps_.buckets_s += t.lap();
  }

 private:
  // Entries sorted off the CPU: cut into pieces between runs of ties, their
  // ties refined and their order written in the same waves as buckets.
  void refine_sorted(uint64_t n, TieRefiner& refiner, const TieStart& start, uint32_t* order,
                     const std::function<void(uint64_t)>& ready) {
    const std::vector<size_t> pieces = pieces_of_sorted(n);
    in_waves(groups_of(pieces, n), pieces, refiner, start, order, ready, true);
  }

  bool same_bits(uint64_t i, uint64_t j) const { return gsort::same_bits(w()[i], w()[j]); }

  // Sorted entries cut into pieces of about a sixteenth of a group's share
  // (groups_of gathers them again), each cut moved past a run of equal
  // bits, so that no run of ties is split: as starts, with n last.
  std::vector<size_t> pieces_of_sorted(uint64_t n) const {
    const uint64_t piece = std::max<uint64_t>(1, n / (pool_.balanced_task_count() * kWaves * 16));
    std::vector<size_t> starts{0};
    for (uint64_t at = piece; at < n; at += piece) {
      while (at < n && same_bits(at, at - 1)) ++at;
      if (at < n && at > starts.back()) starts.push_back(at);
    }
    starts.push_back(n);
    return starts;
  }

  // Buckets in groups of about a wave's share per task. A bucket past
  // that is a group of its own, sorted by one task while it is at most
  // half of one thread's share of the chunk; a larger one (and past
  // kLargeBucket) by all threads. Top bits that say little leave many
  // buckets of a few times a task's share: the digits of -t, -k3,3n's
  // 6-digit numbers spread 64.5M lines over about 90, each 1.1% of them
  // (2026-12-02). Sorted one after another on all threads, they took the
  // H200's 16 threads 0.71 s.
  std::vector<Group> groups_of(const std::vector<size_t>& starts, uint64_t n) const {
    const uint64_t target = std::max<uint64_t>(1, n / (pool_.balanced_task_count() * kWaves));
    const uint64_t large = std::max<uint64_t>({2 * target, n / (2 * pool_.size()), kLargeBucket - 1});
    std::vector<Group> groups;
    const size_t buckets = starts.size() - 1;
    for (size_t b = 0; b < buckets;) {
      Group g;
      g.first_bucket = b;
      g.begin = starts[b];
      const uint64_t size = starts[b + 1] - starts[b];
      g.large = size > large;
      if (g.large) {
        ++b;
      } else {
        while (b < buckets && starts[b + 1] - g.begin <= target) ++b;
        if (b == g.first_bucket) ++b;  // one bucket over the target, too small for all threads
      }
      g.end_bucket = b;
      g.end = starts[b];
      if (g.end > g.begin) groups.push_back(g);
    }
    return groups;
  }

  // Sorts the groups in order, a wave of small ones (one task each) or one
  // large one at a time, handing out each prefix as it is done.
  void in_waves(const std::vector<Group>& groups, const std::vector<size_t>& starts, TieRefiner& refiner,
                const TieStart& start, uint32_t* order, const std::function<void(uint64_t)>& ready, bool sorted) {
    const size_t per_wave = pool_.balanced_task_count();
    for (size_t g = 0; g < groups.size();) {
      if (groups[g].large) {
        // The bucket back from tmp, then sorted by all threads (a sorted piece is where it is).
        const Group& big = groups[g];
        if (!sorted) {
          parallel_copy(pool_, reinterpret_cast<uint8_t*>(w() + big.begin),
                        reinterpret_cast<const uint8_t*>(tmp() + big.begin), (big.end - big.begin) * sizeof(WideEntry));
        }
        sort_range(big.begin, big.end, true, refiner, start, order, sorted);
        ready(big.end);
        ++g;
        continue;
      }
      size_t h = g;
      while (h < groups.size() && h - g < per_wave && !groups[h].large) ++h;
      pool_.parallel_for(h - g, [&](size_t k) { sort_small(groups[g + k], starts, refiner, start, order, sorted); });
      ready(groups[h - 1].end);
      g = h;
    }
  }

  // One task: each bucket sorted from tmp into w (unless `sorted`: in w
  // already), the ties refined, the order written.
  void sort_small(const Group& g, const std::vector<size_t>& starts, TieRefiner& refiner, const TieStart& start,
                  uint32_t* order, bool sorted) {
    const Stopwatch took;
    for (size_t b = g.first_bucket; b < g.end_bucket && !sorted; ++b) {
      const uint64_t begin = starts[b], n = starts[b + 1] - begin;
      if (n == 0) continue;
      radix_sort_wide(tmp() + begin, w() + begin, n);
      std::memcpy(w() + begin, tmp() + begin, n * sizeof(WideEntry));
    }
    steps_.add_radix(took, false);
    write_order(g.begin, g.end, order);
    refine(ties_in(w(), g.begin, g.end, start), false, refiner, order, g.begin);
  }

  // w[begin, end) sorted (by all threads when `parallel`; unless `sorted`), refined, written.
  void sort_range(uint64_t begin, uint64_t end, bool parallel, TieRefiner& refiner, const TieStart& start,
                  uint32_t* order, bool sorted) {
    const uint64_t n = end - begin;
    const Stopwatch took;
    if (!sorted) {
      parallel ? sort_wide(pool_, w() + begin, tmp() + begin, n) : radix_sort_wide(w() + begin, tmp() + begin, n);
      steps_.add_radix(took, parallel);
    }
    const size_t tasks = parallel && n >= 4096 ? pool_.balanced_task_count() : 1;
    std::vector<std::vector<TieSegment>> found(tasks);
    pool_.parallel_for(tasks, [&](size_t t) {
      uint64_t b = begin + split_point(n, tasks, t), e = begin + split_point(n, tasks, t + 1);
      // A task takes the runs that start in its range.
      while (b > begin && b < e && same_bits(b, b - 1)) ++b;
      while (e < end && e > b && same_bits(e, e - 1)) ++e;
      write_order(b, e, order);
      found[t] = ties_in(w(), b, e, start);
    });
    std::vector<TieSegment> ties;
    for (auto& f : found) ties.insert(ties.end(), f.begin(), f.end());
    refine(std::move(ties), parallel, refiner, order, begin);
  }

  void write_order(uint64_t begin, uint64_t end, uint32_t* order) const {
    for (uint64_t i = begin; i < end; ++i) order[i] = w()[i].index;
  }

  // The tied segments' members refined in a compact array of their own
  // (with all threads where `parallel`), their order written over theirs.
  // The segments lie in [base, base + n) of the chunk's order, so their
  // members fit the sorter's tie arrays from `base` on: tasks refining
  // disjoint ranges share them, and no array is made and zeroed per call.
  void refine(std::vector<TieSegment> ties, bool parallel, TieRefiner& refiner, uint32_t* order,
              uint64_t base) const {
    if (ties.empty()) return;
    const Stopwatch took;
    KeyEntry* e = tie_entries() + base;
    KeyEntry* scratch = tie_scratch() + base;
    std::vector<TieSegment> local = ties;
    uint64_t at = 0;
    for (TieSegment& s : local) {
      s.begin = at;
      at += s.size;
    }
    // copy(o, m, n): between segment k's n places in the order and its members.
    const auto each_segment = [&](auto copy) {
      const size_t tasks = parallel && at >= 4096 ? std::min(ties.size(), pool_.balanced_task_count()) : 1;
      pool_.parallel_for(tasks, [&](size_t t) {
        for (size_t k = split_point(ties.size(), tasks, t), end = split_point(ties.size(), tasks, t + 1); k < end; ++k) {
          copy(order + ties[k].begin, e + local[k].begin, ties[k].size);
        }
      });
    };
    each_segment([](const uint32_t* o, KeyEntry* m, uint64_t n) {
      for (uint64_t i = 0; i < n; ++i) m[i].index = o[i];
    });
    parallel ? refiner.refine(e, scratch, local) : refiner.refine_serial(e, scratch, local);
    each_segment([](uint32_t* o, const KeyEntry* m, uint64_t n) {
      for (uint64_t i = 0; i < n; ++i) o[i] = m[i].index;
    });
    steps_.add_refine(took, parallel, at, ties.size());
  }

  void reserve(uint64_t n) {
    if (n <= capacity_) return;
    for (HostBuffer* b : {&entries_, &scratch_, &cache_, &tie_entries_, &tie_scratch_}) *b = HostBuffer();
    entries_ = HostBuffer::allocate_pageable(n * sizeof(WideEntry));
    scratch_ = HostBuffer::allocate_pageable(n * sizeof(WideEntry));
    cache_ = HostBuffer::allocate_pageable(n * sizeof(LineCache));
    tie_entries_ = HostBuffer::allocate_pageable(n * sizeof(KeyEntry));
    tie_scratch_ = HostBuffer::allocate_pageable(n * sizeof(KeyEntry));
    capacity_ = n;
  }
  WideEntry* w() const { return reinterpret_cast<WideEntry*>(entries_.data()); }
  WideEntry* tmp() const { return reinterpret_cast<WideEntry*>(scratch_.data()); }
  LineCache* cache() const { return reinterpret_cast<LineCache*>(cache_.data()); }
  KeyEntry* tie_entries() const { return reinterpret_cast<KeyEntry*>(tie_entries_.data()); }
  KeyEntry* tie_scratch() const { return reinterpret_cast<KeyEntry*>(tie_scratch_.data()); }

  LineSpec spec_;
  ThreadPool& pool_;
  EntrySortOffload offload_;
  CompositeOffload composite_offload_;
  mutable SortSteps steps_;
  HostBuffer entries_, scratch_, cache_, tie_entries_, tie_scratch_;
  uint64_t capacity_ = 0;
};

}  // namespace

std::unique_ptr<LineSorter> make_cpu_line_sorter(const LineSpec& spec, ThreadPool& pool, EntrySortOffload offload,
                                                 CompositeOffload composite_offload) {
  return std::make_unique<CpuLineSorter>(spec, pool, std::move(offload), std::move(composite_offload));
}

}  // namespace gsort
