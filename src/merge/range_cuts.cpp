#include "src/merge/range_cuts.h"

#include <algorithm>
#include <numeric>

namespace gsort {

uint64_t MergeRanges::records_before(size_t p) const {
  return std::accumulate(cuts[p].begin(), cuts[p].end(), uint64_t{0});
}

std::vector<uint64_t> sample_places(uint64_t size, uint64_t total, uint64_t wanted) {
  std::vector<uint64_t> places;
  if (size == 0 || total == 0) return places;
  const uint64_t share = std::clamp<uint64_t>(
      static_cast<uint64_t>(static_cast<long double>(wanted) * size / total + 0.5), 1, size);
  places.reserve(share);
  for (uint64_t j = 0; j < share; ++j) {
    places.push_back(static_cast<uint64_t>((2 * static_cast<long double>(j) + 1) * size / (2 * share)));
  }
  return places;
}

std::vector<RangeSample> choose_merge_splitters(std::vector<RangeSample> samples, uint64_t total, size_t ranges,
                                          const SampleKeyCompare& compare, bool whole_keys) {
  std::sort(samples.begin(), samples.end(), [&](const RangeSample& a, const RangeSample& b) {
    const int c = compare(a, b);
    if (c != 0) return c < 0;
    return a.run != b.run ? a.run < b.run : a.at < b.at;
  });
  std::vector<RangeSample> chosen;
  double before = 0;
  size_t p = 1;
  for (const RangeSample& s : samples) {
    if (before >= static_cast<double>(total) * p / ranges) {
      const bool repeats = whole_keys && !chosen.empty() && compare(chosen.back(), s) == 0;
      if (!repeats) chosen.push_back(s);
      while (p < ranges && before >= static_cast<double>(total) * p / ranges) ++p;
      if (p == ranges) break;
    }
    before += s.weight;
  }
  return chosen;
}

MergeRanges ranges_from_cuts(const std::vector<uint64_t>& sizes, size_t splitters,
                             const std::function<uint64_t(size_t p, size_t r)>& cut_of, ThreadPool& pool) {
  const size_t runs = sizes.size();
  std::vector<std::vector<uint64_t>> found(splitters, std::vector<uint64_t>(runs));
  if (runs > 0) {
    pool.parallel_for(splitters * runs, [&](size_t task) {
      const size_t p = task / runs, r = task % runs;
      found[p][r] = cut_of(p, r);
    });
  }
  found.push_back(sizes);
  // Each run's cuts rise (they do for sorted runs; a damaged run is caught
  // when its blocks are read), and no range is empty.
  MergeRanges ranges;
  ranges.cuts.push_back(std::vector<uint64_t>(runs, 0));
  for (std::vector<uint64_t>& cut : found) {
    for (size_t r = 0; r < runs; ++r) cut[r] = std::clamp(cut[r], ranges.cuts.back()[r], sizes[r]);
    if (cut != ranges.cuts.back()) ranges.cuts.push_back(std::move(cut));
  }
  return ranges;
}

}  // namespace gsort
