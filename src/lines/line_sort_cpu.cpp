// The CPU sorter: image word 0 of every line with its index, a parallel
// radix sort of those pairs, then the ties refined (tie_refine.h).
#include <vector>

#include "src/core/host_buffer.h"
#include "src/keys/line_image.h"
#include "src/lines/line_sorter.h"
#include "src/lines/pair_sort.h"
#include "src/lines/tie_refine.h"

namespace gsort {
namespace {

class CpuLineSorter final : public LineSorter {
 public:
  CpuLineSorter(const LineSpec& spec, ThreadPool& pool) : spec_(spec), image_(spec.image()), pool_(pool) {}

  std::string describe() const override {
    return "cpu (" + std::to_string(pool_.size()) + (pool_.size() == 1 ? " thread)" : " threads)");
  }
  uint64_t bytes_per_line() const override { return 2 * sizeof(KeyEntry); }

  void sort(const LineSpan& lines, uint32_t* order) override {
    const uint64_t n = lines.count;
    if (n == 0) return;
    reserve(n);
    KeyEntry* e = entries();
    const size_t tasks = pool_.balanced_task_count();
    pool_.parallel_for(tasks, [&](size_t t) {
      for (uint64_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
        e[i].prefix = line_image_word(image_, lines.line(i), lines.length(i), 0);
        e[i].index = static_cast<uint32_t>(i);
      }
    });
    sort_pairs(pool_, e, scratch(), n);
    TieRefiner(spec_, lines, pool_).refine(e, scratch(), tied_runs(pool_, e, n, 1));
    pool_.parallel_for(tasks, [&](size_t t) {
      for (uint64_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) order[i] = e[i].index;
    });
  }

 private:
  void reserve(uint64_t n) {
    if (n <= capacity_) return;
    entries_ = HostBuffer();
    scratch_ = HostBuffer();
    entries_ = HostBuffer::allocate_pageable(n * sizeof(KeyEntry));
    scratch_ = HostBuffer::allocate_pageable(n * sizeof(KeyEntry));
    capacity_ = n;
  }
  KeyEntry* entries() { return reinterpret_cast<KeyEntry*>(entries_.data()); }
  KeyEntry* scratch() { return reinterpret_cast<KeyEntry*>(scratch_.data()); }

  LineSpec spec_;
  LineImageSpec image_;
  ThreadPool& pool_;
  HostBuffer entries_, scratch_;
  uint64_t capacity_ = 0;
};

}  // namespace

std::unique_ptr<LineSorter> make_cpu_line_sorter(const LineSpec& spec, ThreadPool& pool) {
  return std::make_unique<CpuLineSorter>(spec, pool);
}

}  // namespace gsort
