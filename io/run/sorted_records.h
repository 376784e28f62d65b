// Sorted records that can be read at any index: what the parallel merge
// cuts into key ranges (src/merge/range_split.h). A spilled run's view
// (run_view.h) is one; tests make others in memory.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace gsort {

class SortedRecords {
 public:
  virtual ~SortedRecords() = default;

  virtual uint64_t size() const = 0;
  // A record near record i that is cheap to read: i itself, or the first
  // record of the compressed frame that holds it.
  virtual uint64_t sample_index(uint64_t i) const { return i; }
  // Copies the records at `indexes` (ascending, each below size()) to dst,
  // one after another.
  virtual void read_at(const std::vector<uint64_t>& indexes, uint8_t* dst) const = 0;
  // The first index in [lo, hi) whose record `before` is false for (hi if
  // none). The records are sorted, and `before` holds for a prefix of them.
  virtual uint64_t partition_point(uint64_t lo, uint64_t hi,
                                   const std::function<bool(const uint8_t*)>& before) const = 0;
};

}  // namespace gsort
