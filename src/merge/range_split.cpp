#include "src/merge/range_split.h"

#include <algorithm>
#include <numeric>

namespace gsort {
namespace {

// Samples per range wanted: enough that each range's share of the records
// comes out within a few percent of even.
constexpr uint64_t kSamplesPerRange = 32;

// A sampled record: where it is, and how many records it stands for.
struct Sample {
  size_t run;
  uint64_t index;
  double weight;
  const uint8_t* record;
};

// Evenly spaced samples of every run, read on the pool; their records in
// `bytes`.
std::vector<Sample> take_samples(const std::vector<const SortedRecords*>& runs, uint32_t rs, uint64_t wanted,
                                 std::vector<uint8_t>& bytes, ThreadPool& pool) {
  uint64_t total = 0;
  for (const SortedRecords* r : runs) total += r->size();
  std::vector<std::vector<uint64_t>> at(runs.size());
  uint64_t count = 0;
  for (size_t r = 0; r < runs.size(); ++r) {
    const uint64_t n = runs[r]->size();
    if (n == 0) continue;
    const uint64_t share = std::clamp<uint64_t>(
        static_cast<uint64_t>(static_cast<long double>(wanted) * n / total + 0.5), 1, n);
    for (uint64_t j = 0; j < share; ++j) {
      const uint64_t i = runs[r]->sample_index(static_cast<uint64_t>((2 * static_cast<long double>(j) + 1) * n / (2 * share)));
      if (at[r].empty() || at[r].back() != i) at[r].push_back(i);
    }
    count += at[r].size();
  }
  bytes.resize(count * rs);
  std::vector<Sample> samples;
  samples.reserve(count);
  for (size_t r = 0; r < runs.size(); ++r) {
    const double weight = at[r].empty() ? 0 : static_cast<double>(runs[r]->size()) / at[r].size();
    for (const uint64_t i : at[r]) samples.push_back(Sample{r, i, weight, bytes.data() + samples.size() * rs});
  }
  std::vector<size_t> first(runs.size() + 1, 0);
  for (size_t r = 0; r < runs.size(); ++r) first[r + 1] = first[r] + at[r].size();
  pool.parallel_for(runs.size(), [&](size_t r) {
    if (!at[r].empty()) runs[r]->read_at(at[r], bytes.data() + first[r] * rs);
  });
  return samples;
}

// The samples chosen as splitters, in order: one where the records before
// it reach each even share. With whole_keys, none of equal keys.
std::vector<Sample> choose_splitters(std::vector<Sample> samples, uint64_t total, size_t ranges,
                                     const KeyLayout& layout, bool whole_keys) {
  std::sort(samples.begin(), samples.end(), [&](const Sample& a, const Sample& b) {
    const int c = layout.compare(a.record, b.record);
    if (c != 0) return c < 0;
    return a.run != b.run ? a.run < b.run : a.index < b.index;
  });
  std::vector<Sample> chosen;
  double before = 0;
  size_t p = 1;
  for (const Sample& s : samples) {
    const double target = static_cast<double>(total) * p / ranges;
    if (before >= target) {
      const bool repeats = !chosen.empty() && whole_keys && layout.compare(chosen.back().record, s.record) == 0;
      if (!repeats) chosen.push_back(s);
      while (p < ranges && before >= static_cast<double>(total) * p / ranges) ++p;
      if (p == ranges) break;
    }
    before += s.weight;
  }
  return chosen;
}

// How many records of run r sort before splitter s.
uint64_t cut_of(const SortedRecords& run, size_t r, const Sample& s, const KeyLayout& layout, bool whole_keys) {
  if (!whole_keys && r == s.run) return s.index;
  // Records of an earlier run with the splitter's key sort before it; of a
  // later run (or, with whole keys, of any run), after.
  const bool equal_before = !whole_keys && r < s.run;
  return run.partition_point(0, run.size(), [&](const uint8_t* rec) {
    const int c = layout.compare(rec, s.record);
    return c < 0 || (c == 0 && equal_before);
  });
}

}  // namespace

uint64_t MergeRanges::records_before(size_t p) const {
  return std::accumulate(cuts[p].begin(), cuts[p].end(), uint64_t{0});
}

MergeRanges split_ranges(const std::vector<const SortedRecords*>& runs, const KeyLayout& layout,
                         const SplitOptions& options, ThreadPool& pool) {
  MergeRanges out;
  std::vector<uint64_t> sizes(runs.size());
  uint64_t total = 0;
  for (size_t r = 0; r < runs.size(); ++r) total += sizes[r] = runs[r]->size();
  out.cuts.push_back(std::vector<uint64_t>(runs.size(), 0));
  if (options.ranges > 1 && total > 0) {
    const uint32_t rs = layout.record_size();
    // As many as the memory for them holds: fewer samples, fewer ranges.
    const uint64_t wanted = std::max<uint64_t>(
        1, std::min<uint64_t>(options.ranges * kSamplesPerRange, options.sample_bytes / rs));
    std::vector<uint8_t> bytes;
    const std::vector<Sample> splitters =
        choose_splitters(take_samples(runs, rs, wanted, bytes, pool), total, options.ranges, layout,
                         options.whole_keys);
    std::vector<std::vector<uint64_t>> cuts(splitters.size(), std::vector<uint64_t>(runs.size()));
    pool.parallel_for(splitters.size() * runs.size(), [&](size_t task) {
      const size_t p = task / runs.size(), r = task % runs.size();
      cuts[p][r] = cut_of(*runs[r], r, splitters[p], layout, options.whole_keys);
    });
    for (std::vector<uint64_t>& cut : cuts) out.cuts.push_back(std::move(cut));
  }
  out.cuts.push_back(sizes);
  // Each run's cuts rise (they do for sorted runs; a damaged run is caught
  // when its blocks are read), and no range is empty.
  MergeRanges ranges;
  ranges.cuts.push_back(out.cuts.front());
  for (size_t p = 1; p < out.cuts.size(); ++p) {
    std::vector<uint64_t> cut = out.cuts[p];
    for (size_t r = 0; r < cut.size(); ++r) cut[r] = std::clamp(cut[r], ranges.cuts.back()[r], sizes[r]);
    if (cut != ranges.cuts.back()) ranges.cuts.push_back(std::move(cut));
  }
  return ranges;
}

}  // namespace gsort
