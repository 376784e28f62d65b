// The CPU sorter: one pass over the lines in memory order finds each key
// and takes image words 0, 1 and 2 (and the key's place, for the ties);
// when word 0 is the same for every line (a date at the start of log
// lines), the sort starts on word 1. Then an MSD step on all threads
// scatters the (word, line) pairs by the highest bits in which the words
// differ into buckets, and the buckets are sorted, their ties refined
// (tie_refine.h) and their order written in waves of tasks, each wave a
// prefix of the final order handed out at once (sort_in_parts), so that
// the output is written while the rest is sorted. A bucket too large for
// one task is sorted and refined by all threads.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>

#include "src/chunk_sort/cpu/radix_sort.h"
#include "src/core/host_buffer.h"
#include "src/keys/line_image.h"
#include "src/lines/sort/line_sorter.h"
#include "src/lines/sort/pair_sort.h"
#include "src/lines/sort/tie_refine.h"

namespace gsort {
namespace {

constexpr uint64_t kSplitMin = uint64_t{1} << 16;  // fewer lines: one piece
constexpr uint64_t kWaves = 4;                     // about this many prefixes handed out
constexpr uint64_t kLargeBucket = uint64_t{1} << 16;  // a bucket past a group's size and this: all threads

// Consecutive buckets sorted by one task, or one large bucket by all.
struct Group {
  size_t first_bucket = 0, end_bucket = 0;
  uint64_t begin = 0, end = 0;  // its entries
  bool large = false;
};

class CpuLineSorter final : public LineSorter {
 public:
  CpuLineSorter(const LineSpec& spec, ThreadPool& pool) : spec_(spec), image_(spec.image()), pool_(pool) {}

  std::string describe() const override {
    return "cpu (" + std::to_string(pool_.size()) + (pool_.size() == 1 ? " thread)" : " threads)");
  }
  uint64_t bytes_per_line() const override { return 2 * sizeof(KeyEntry) + sizeof(LineCache); }

  void sort(const LineSpan& lines, uint32_t* order) override { sort_in_parts(lines, order, [](uint64_t) {}); }

  void sort_in_parts(const LineSpan& lines, uint32_t* order, const std::function<void(uint64_t)>& ready) override {
    const uint64_t n = lines.count;
    if (n == 0) {
      ready(0);
      return;
    }
    reserve(n);
    const bool cached = first_pass(lines);
    uint64_t depth = 1;
    if (all_first_words_equal(n)) {  // start on word 1
      for_lines(n, [&](uint64_t i) { e()[i].prefix = cache()[i].word[0]; });
      depth = 2;
    }
    TieRefiner refiner(spec_, lines, pool_, cached ? cache() : nullptr);
    std::vector<size_t> starts;
    const int bits = static_cast<int>(std::clamp<uint64_t>(64 - __builtin_clzll(n) - 8, 8, 12));
    if (n < kSplitMin || pool_.size() == 1 || !scatter_by_top_bits(pool_, e(), tmp(), n, bits, starts)) {
      sort_pairs(pool_, e(), tmp(), n);
      refiner.refine(e(), tmp(), tied_runs(pool_, e(), n, depth));
      for_lines(n, [&](uint64_t i) { order[i] = e()[i].index; });
      ready(n);
      return;
    }
    in_waves(groups_of(starts, n), starts, refiner, depth, order, ready);
  }

 private:
  template <typename Body>
  void for_lines(uint64_t n, Body body) {
    const size_t tasks = n < 4096 ? 1 : pool_.balanced_task_count();
    pool_.parallel_for(tasks, [&](size_t t) {
      for (uint64_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) body(i);
    });
  }

  // Buckets in groups of about a wave's share per task; a bucket larger
  // than that (and kLargeBucket) a group of its own, for all threads.
  std::vector<Group> groups_of(const std::vector<size_t>& starts, uint64_t n) const {
    const uint64_t target = std::max<uint64_t>(1, n / (pool_.balanced_task_count() * kWaves));
    std::vector<Group> groups;
    const size_t buckets = starts.size() - 1;
    for (size_t b = 0; b < buckets;) {
      Group g;
      g.first_bucket = b;
      g.begin = starts[b];
      const uint64_t size = starts[b + 1] - starts[b];
      g.large = size > 2 * target && size >= kLargeBucket;
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
                uint64_t depth, uint32_t* order, const std::function<void(uint64_t)>& ready) {
    const size_t per_wave = pool_.balanced_task_count();
    for (size_t g = 0; g < groups.size();) {
      if (groups[g].large) {
        sort_large(groups[g], refiner, depth, order);
        ready(groups[g].end);
        ++g;
        continue;
      }
      size_t h = g;
      while (h < groups.size() && h - g < per_wave && !groups[h].large) ++h;
      pool_.parallel_for(h - g, [&](size_t k) { sort_small(groups[g + k], starts, refiner, depth, order); });
      ready(groups[h - 1].end);
      g = h;
    }
  }

  // One task: each bucket sorted from tmp into e, the ties refined, the order written.
  void sort_small(const Group& g, const std::vector<size_t>& starts, TieRefiner& refiner, uint64_t depth,
                  uint32_t* order) {
    KeyEntry* const entries = e();
    KeyEntry* const scratch = tmp();
    for (size_t b = g.first_bucket; b < g.end_bucket; ++b) {
      const uint64_t begin = starts[b], n = starts[b + 1] - begin;
      if (n == 0) continue;
      radix_sort_entries(scratch + begin, entries + begin, n);
      std::memcpy(entries + begin, scratch + begin, n * sizeof(KeyEntry));
    }
    // Equal words share a bucket: the ties are runs within the group.
    std::vector<TieSegment> ties;
    for (uint64_t i = g.begin, end = i; i < g.end; i = end) {
      end = i + 1;
      while (end < g.end && entries[end].prefix == entries[i].prefix) ++end;
      if (end - i > 1) ties.push_back(TieSegment{i, end - i, depth, 0});
    }
    refiner.refine_serial(entries, scratch, std::move(ties));
    for (uint64_t i = g.begin; i < g.end; ++i) order[i] = entries[i].index;
  }

  // All threads: the bucket back into e, sorted, refined, its order written.
  void sort_large(const Group& g, TieRefiner& refiner, uint64_t depth, uint32_t* order) {
    const uint64_t n = g.end - g.begin;
    KeyEntry* const entries = e() + g.begin;
    KeyEntry* const scratch = tmp() + g.begin;
    parallel_copy(pool_, reinterpret_cast<uint8_t*>(entries), reinterpret_cast<const uint8_t*>(scratch),
                  n * sizeof(KeyEntry));
    sort_pairs(pool_, entries, scratch, n);
    refiner.refine(e(), tmp(), tied_runs(pool_, entries, n, depth, g.begin));
    for_lines(n, [&](uint64_t i) { order[g.begin + i] = entries[i].index; });
  }

  // Words 0, 1 and 2 and the cache, for every line; false when a line's
  // figures do not fit the cache's 32 bits (the refinement then finds keys again).
  bool first_pass(const LineSpan& lines) {
    std::atomic<bool> fits{true};
    KeyEntry* const entries = e();
    LineCache* const c = cache();
    for_lines(lines.count, [&](uint64_t i) {
      constexpr uint64_t kMost = std::numeric_limits<uint32_t>::max();
      const uint8_t* line = lines.line(i);
      const LineImageView v = view_line_image(image_, line, lines.length(i));
      const uint64_t image_length = line_image_length(image_, v);
      entries[i].prefix = line_image_word(image_, v, 0);
      entries[i].index = static_cast<uint32_t>(i);
      c[i].word[0] = line_image_word(image_, v, 1);
      c[i].word[1] = line_image_word(image_, v, 2);
      c[i].key_at = static_cast<uint64_t>(v.key - lines.text);
      if (v.len > kMost || image_length > kMost) fits.store(false, std::memory_order_relaxed);
      c[i].key_length = static_cast<uint32_t>(v.len);
      c[i].image_length = static_cast<uint32_t>(image_length);
    });
    return fits.load();
  }

  bool all_first_words_equal(uint64_t n) {
    std::atomic<bool> equal{true};
    const uint64_t first = e()[0].prefix;
    for_lines(n, [&](uint64_t i) {
      if (e()[i].prefix != first) equal.store(false, std::memory_order_relaxed);
    });
    return equal.load();
  }

  void reserve(uint64_t n) {
    if (n <= capacity_) return;
    for (HostBuffer* b : {&entries_, &scratch_, &cache_}) *b = HostBuffer();
    entries_ = HostBuffer::allocate_pageable(n * sizeof(KeyEntry));
    scratch_ = HostBuffer::allocate_pageable(n * sizeof(KeyEntry));
    cache_ = HostBuffer::allocate_pageable(n * sizeof(LineCache));
    capacity_ = n;
  }
  KeyEntry* e() const { return reinterpret_cast<KeyEntry*>(entries_.data()); }
  KeyEntry* tmp() const { return reinterpret_cast<KeyEntry*>(scratch_.data()); }
  LineCache* cache() const { return reinterpret_cast<LineCache*>(cache_.data()); }

  LineSpec spec_;
  LineImageSpec image_;
  ThreadPool& pool_;
  HostBuffer entries_, scratch_, cache_;
  uint64_t capacity_ = 0;
};

}  // namespace

std::unique_ptr<LineSorter> make_cpu_line_sorter(const LineSpec& spec, ThreadPool& pool) {
  return std::make_unique<CpuLineSorter>(spec, pool);
}

}  // namespace gsort
