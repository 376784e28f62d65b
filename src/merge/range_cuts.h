// The steps every merge in ranges takes to cut its runs, whatever its unit
// (a record: range_split.h; a line: src/merge/line_range_cut.h): samples
// at evenly spaced places of each run, sorted in the merge's total order
// (by key, then run, then place), splitters taken where the samples before
// them reach each even share, and each run's cut for each splitter found
// on the pool's threads. Only the sampling and the search within a run
// are the unit's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "src/core/thread_pool.h"

namespace gsort {

struct MergeRanges {
  // cuts[p][r], p in [0, ranges()]: cuts[0] all 0, cuts.back() each run's size.
  std::vector<std::vector<uint64_t>> cuts;
  size_t ranges() const { return cuts.empty() ? 0 : cuts.size() - 1; }
  // Units of every run before range p: where its output starts.
  uint64_t records_before(size_t p) const;
};

// Samples per range wanted: enough that each range's share of the units
// comes out within a few percent of even.
constexpr uint64_t kSamplesPerMergeRange = 32;

// One sample: its run, where it lies there (a record's index, a line's
// first byte), how much of its run it stands for, and its key (an index
// into the caller's keys).
struct RangeSample {
  size_t run = 0;
  uint64_t at = 0;
  double weight = 0;
  size_t key = 0;
};

// The places a run of `size` (of `total` in all runs) is sampled at: its
// share of `wanted`, at least one, evenly spaced.
std::vector<uint64_t> sample_places(uint64_t size, uint64_t total, uint64_t wanted);

// How two samples' keys compare (< 0, 0, > 0).
using SampleKeyCompare = std::function<int(const RangeSample& a, const RangeSample& b)>;

// The splitters, in order: the samples where those before them (in the
// merge's total order) reach each of `ranges` even shares of `total`.
// whole_keys (-u): no two of equal keys.
std::vector<RangeSample> choose_merge_splitters(std::vector<RangeSample> samples, uint64_t total, size_t ranges,
                                          const SampleKeyCompare& compare, bool whole_keys);

// The ranges: cut_of(p, r) (run r's cut for splitter p) for every pair on
// the pool's threads, between the runs' starts and `sizes`; each run's
// cuts made to rise, and no range left empty.
MergeRanges ranges_from_cuts(const std::vector<uint64_t>& sizes, size_t splitters,
                             const std::function<uint64_t(size_t p, size_t r)>& cut_of, ThreadPool& pool);

}  // namespace gsort
