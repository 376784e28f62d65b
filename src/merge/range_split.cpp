#include "src/merge/range_split.h"

#include <algorithm>

namespace gsort {
namespace {

// Evenly spaced samples of every run, read on the pool; sample k's record
// at bytes[k * rs].
std::vector<RangeSample> take_samples(const std::vector<const SortedRecords*>& runs, uint32_t rs, uint64_t wanted,
                                      std::vector<uint8_t>& bytes, ThreadPool& pool) {
  uint64_t total = 0;
  for (const SortedRecords* r : runs) total += r->size();
  std::vector<std::vector<uint64_t>> at(runs.size());
  for (size_t r = 0; r < runs.size(); ++r) {
    for (const uint64_t place : sample_places(runs[r]->size(), total, wanted)) {
      const uint64_t i = runs[r]->sample_index(place);
      if (at[r].empty() || at[r].back() != i) at[r].push_back(i);
    }
  }
  std::vector<RangeSample> samples;
  std::vector<size_t> first(runs.size() + 1, 0);
  for (size_t r = 0; r < runs.size(); ++r) {
    const double weight = at[r].empty() ? 0 : static_cast<double>(runs[r]->size()) / at[r].size();
    for (const uint64_t i : at[r]) samples.push_back(RangeSample{r, i, weight, samples.size()});
    first[r + 1] = samples.size();
  }
  bytes.resize(samples.size() * rs);
  pool.parallel_for(runs.size(), [&](size_t r) {
    if (!at[r].empty()) runs[r]->read_at(at[r], bytes.data() + first[r] * rs);
  });
  return samples;
}

// How many records of run r sort before the splitter (sample s, its record at `key`).
uint64_t cut_of(const SortedRecords& run, size_t r, const RangeSample& s, const uint8_t* key, const KeyLayout& layout,
                bool whole_keys) {
  if (!whole_keys && r == s.run) return s.at;
  // Records of an earlier run with the splitter's key sort before it; of a
  // later run (or, with whole keys, of any run), after.
  const bool equal_before = !whole_keys && r < s.run;
  return run.partition_point(0, run.size(), [&](const uint8_t* rec) {
    const int c = layout.compare(rec, key);
    return c < 0 || (c == 0 && equal_before);
  });
}

}  // namespace

MergeRanges split_ranges(const std::vector<const SortedRecords*>& runs, const KeyLayout& layout,
                         const SplitOptions& options, ThreadPool& pool) {
  std::vector<uint64_t> sizes(runs.size());
  uint64_t total = 0;
  for (size_t r = 0; r < runs.size(); ++r) total += sizes[r] = runs[r]->size();
  std::vector<RangeSample> splitters;
  std::vector<uint8_t> bytes;
  const uint32_t rs = layout.record_size();
  if (options.ranges > 1 && total > 0) {
    // As many as the memory for them holds: fewer samples, fewer ranges.
    const uint64_t wanted = std::max<uint64_t>(
        1, std::min<uint64_t>(options.ranges * kSamplesPerMergeRange, options.sample_bytes / rs));
    const auto record = [&](const RangeSample& s) { return bytes.data() + s.key * rs; };
    splitters = choose_merge_splitters(
        take_samples(runs, rs, wanted, bytes, pool), total, options.ranges,
        [&](const RangeSample& a, const RangeSample& b) { return layout.compare(record(a), record(b)); },
        options.whole_keys);
  }
  return ranges_from_cuts(
      sizes, splitters.size(),
      [&](size_t p, size_t r) {
        return cut_of(*runs[r], r, splitters[p], bytes.data() + splitters[p].key * rs, layout, options.whole_keys);
      },
      pool);
}

}  // namespace gsort
