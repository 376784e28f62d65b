// The CPU sorter: one pass over the lines in memory order finds each key
// and takes image words 0 and 1 (and the key's place, for the ties); a
// parallel radix sort of (word, line) pairs; then the ties refined
// (tie_refine.h). When word 0 is the same for every line (a date at the
// start of log lines), the sort starts on word 1.
#include <atomic>
#include <limits>

#include "src/core/host_buffer.h"
#include "src/keys/line_image.h"
#include "src/lines/sort/line_sorter.h"
#include "src/lines/sort/pair_sort.h"
#include "src/lines/sort/tie_refine.h"

namespace gsort {
namespace {

// Per line: the key's start and length, its image's length, image word 1.
constexpr uint64_t kCacheBytesPerLine = 3 * sizeof(uint32_t) + sizeof(uint64_t);

class CpuLineSorter final : public LineSorter {
 public:
  CpuLineSorter(const LineSpec& spec, ThreadPool& pool) : spec_(spec), image_(spec.image()), pool_(pool) {}

  std::string describe() const override {
    return "cpu (" + std::to_string(pool_.size()) + (pool_.size() == 1 ? " thread)" : " threads)");
  }
  uint64_t bytes_per_line() const override { return 2 * sizeof(KeyEntry) + kCacheBytesPerLine; }

  void sort(const LineSpan& lines, uint32_t* order) override {
    const uint64_t n = lines.count;
    if (n == 0) return;
    reserve(n);
    KeyEntry* e = entries();
    const bool cached = first_pass(lines);
    uint64_t depth = 1;
    if (all_first_words_equal(e, n)) {  // start on word 1
      pool_.parallel_for(tasks_for(n), [&](size_t t) {
        for (uint64_t i = split_point(n, tasks_for(n), t), end = split_point(n, tasks_for(n), t + 1); i < end; ++i) {
          e[i].prefix = cache_.word1[e[i].index];
        }
      });
      depth = 2;
    }
    sort_pairs(pool_, e, scratch(), n);
    TieRefiner(spec_, lines, pool_, cached ? &cache_ : nullptr).refine(e, scratch(), tied_runs(pool_, e, n, depth));
    pool_.parallel_for(tasks_for(n), [&](size_t t) {
      for (uint64_t i = split_point(n, tasks_for(n), t), end = split_point(n, tasks_for(n), t + 1); i < end; ++i) {
        order[i] = e[i].index;
      }
    });
  }

 private:
  size_t tasks_for(uint64_t n) const { return n < 4096 ? 1 : pool_.balanced_task_count(); }

  // Words 0 and 1 and the cache, for every line; false when a line's
  // figures do not fit the cache's 32 bits (the refinement then finds keys again).
  bool first_pass(const LineSpan& lines) {
    const uint64_t n = lines.count;
    std::atomic<bool> fits{true};
    KeyEntry* e = entries();
    pool_.parallel_for(tasks_for(n), [&](size_t t) {
      constexpr uint64_t kMost = std::numeric_limits<uint32_t>::max();
      for (uint64_t i = split_point(n, tasks_for(n), t), end = split_point(n, tasks_for(n), t + 1); i < end; ++i) {
        const uint8_t* line = lines.line(i);
        const LineImageView v = view_line_image(image_, line, lines.length(i));
        const uint64_t start = static_cast<uint64_t>(v.key - line), image_length = line_image_length(image_, v);
        e[i].prefix = line_image_word(image_, v, 0);
        e[i].index = static_cast<uint32_t>(i);
        word1_[i] = line_image_word(image_, v, 1);
        if (start > kMost || v.len > kMost || image_length > kMost) fits.store(false, std::memory_order_relaxed);
        key_start_[i] = static_cast<uint32_t>(start);
        key_length_[i] = static_cast<uint32_t>(v.len);
        image_length_[i] = static_cast<uint32_t>(image_length);
      }
    });
    return fits.load();
  }

  bool all_first_words_equal(const KeyEntry* e, uint64_t n) {
    std::atomic<bool> equal{true};
    pool_.parallel_for(tasks_for(n), [&](size_t t) {
      for (uint64_t i = split_point(n, tasks_for(n), t), end = split_point(n, tasks_for(n), t + 1); i < end; ++i) {
        if (e[i].prefix != e[0].prefix) {
          equal.store(false, std::memory_order_relaxed);
          return;
        }
      }
    });
    return equal.load();
  }

  void reserve(uint64_t n) {
    if (n <= capacity_) return;
    for (HostBuffer* b : {&entries_, &scratch_, &cache_buffer_}) *b = HostBuffer();
    entries_ = HostBuffer::allocate_pageable(n * sizeof(KeyEntry));
    scratch_ = HostBuffer::allocate_pageable(n * sizeof(KeyEntry));
    cache_buffer_ = HostBuffer::allocate_pageable(n * kCacheBytesPerLine);
    word1_ = reinterpret_cast<uint64_t*>(cache_buffer_.data());
    key_start_ = reinterpret_cast<uint32_t*>(word1_ + n);
    key_length_ = key_start_ + n;
    image_length_ = key_length_ + n;
    cache_ = LineImageCache{key_start_, key_length_, image_length_, word1_};
    capacity_ = n;
  }
  KeyEntry* entries() { return reinterpret_cast<KeyEntry*>(entries_.data()); }
  KeyEntry* scratch() { return reinterpret_cast<KeyEntry*>(scratch_.data()); }

  LineSpec spec_;
  LineImageSpec image_;
  ThreadPool& pool_;
  HostBuffer entries_, scratch_, cache_buffer_;
  uint64_t* word1_ = nullptr;
  uint32_t *key_start_ = nullptr, *key_length_ = nullptr, *image_length_ = nullptr;
  LineImageCache cache_;
  uint64_t capacity_ = 0;
};

}  // namespace

std::unique_ptr<LineSorter> make_cpu_line_sorter(const LineSpec& spec, ThreadPool& pool) {
  return std::make_unique<CpuLineSorter>(spec, pool);
}

}  // namespace gsort
