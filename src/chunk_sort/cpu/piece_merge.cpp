#include "src/chunk_sort/cpu/piece_merge.h"

#include <algorithm>
#include <mutex>

#include "src/chunk_sort/entries/entry_merge.h"
#include "src/algo/loser_tree.h"

namespace gsort {
namespace {

constexpr size_t kRangesPerThread = 4;  // enough ranges to keep every thread busy to the end
constexpr uint64_t kMinRangeRecords = uint64_t{1} << 14;
constexpr size_t kSamplesPerRange = 4;  // taken from each piece, for the splitters

// By key, then by index: a strict total order under which every piece is
// sorted (each was sorted stably from ascending indexes), so that cutting
// at any entry splits every piece exactly, and merging by it is stable.
struct Before {
  const KeyLayout& layout;
  const uint8_t* records;
  bool operator()(const KeyEntry& x, const KeyEntry& y) const {
    if (entry_less(layout, records, x, y)) return true;
    if (entry_less(layout, records, y, x)) return false;
    return x.index < y.index;
  }
};

// cuts[r][p]: where range r starts in piece p (r in [0, ranges]).
std::vector<std::vector<uint64_t>> cut_ranges(const Before& before, const KeyEntry* e,
                                              const std::vector<uint64_t>& bounds, size_t ranges) {
  const size_t k = bounds.size() - 1;
  std::vector<KeyEntry> samples;
  for (size_t p = 0; p < k; ++p) {
    const uint64_t len = bounds[p + 1] - bounds[p];
    const uint64_t take = std::min<uint64_t>(len, ranges * kSamplesPerRange);
    for (uint64_t j = 0; j < take; ++j) samples.push_back(e[bounds[p] + (j * len) / take]);
  }
  std::sort(samples.begin(), samples.end(), before);
  std::vector<std::vector<uint64_t>> cuts(ranges + 1, std::vector<uint64_t>(k));
  for (size_t p = 0; p < k; ++p) {
    cuts[0][p] = bounds[p];
    cuts[ranges][p] = bounds[p + 1];
  }
  for (size_t r = 1; r < ranges; ++r) {
    const KeyEntry& splitter = samples[r * samples.size() / ranges];
    for (size_t p = 0; p < k; ++p) {
      cuts[r][p] = static_cast<uint64_t>(std::lower_bound(e + bounds[p], e + bounds[p + 1], splitter, before) - e);
    }
  }
  return cuts;
}

// Range r of every piece, merged into `out`.
void merge_range(const Before& before, const KeyEntry* e, const std::vector<uint64_t>& from,
                 const std::vector<uint64_t>& to, uint32_t* out) {
  std::vector<uint64_t> next, end;
  for (size_t p = 0; p < from.size(); ++p) {
    if (from[p] == to[p]) continue;  // empty parts never enter the tree
    next.push_back(from[p]);
    end.push_back(to[p]);
  }
  if (next.empty()) return;
  const auto less = [&](size_t i, size_t j) { return before(e[next[i]], e[next[j]]); };
  LoserTree<decltype(less)> tree(next.size(), less);
  for (uint64_t i = 0; !tree.empty(); ++i) {
    const size_t w = tree.winner();
    out[i] = e[next[w]].index;
    tree.advance(++next[w] < end[w]);
  }
}

}  // namespace

void merge_sorted_pieces(ThreadPool& pool, const KeyLayout& layout, const uint8_t* records, const KeyEntry* entries,
                         const std::vector<uint64_t>& bounds, uint32_t* order, const OrderProgress& ready) {
  const uint64_t count = bounds.back();
  if (bounds.size() < 2) {  // no pieces: nothing arrived
    ready(count);
    return;
  }
  const Before before{layout, records};
  const size_t ranges = static_cast<size_t>(std::clamp<uint64_t>(count / kMinRangeRecords, 1,
                                                                 pool.size() * kRangesPerThread));
  const std::vector<std::vector<uint64_t>> cuts = cut_ranges(before, entries, bounds, ranges);
  std::vector<uint64_t> starts(ranges + 1, 0);
  for (size_t r = 0; r < ranges; ++r) {
    uint64_t n = 0;
    for (size_t p = 0; p + 1 < bounds.size(); ++p) n += cuts[r + 1][p] - cuts[r][p];
    starts[r + 1] = starts[r] + n;
  }
  std::mutex mutex;
  std::vector<bool> done(ranges, false);
  size_t frontier = 0;  // ranges [0, frontier) are merged and reported
  pool.parallel_for(ranges, [&](size_t r) {
    merge_range(before, entries, cuts[r], cuts[r + 1], order + starts[r]);
    std::lock_guard<std::mutex> lock(mutex);
    done[r] = true;
    const size_t was = frontier;
    while (frontier < ranges && done[frontier]) ++frontier;
    if (frontier > was) ready(frontier == ranges ? count : starts[frontier]);
  });
}

}  // namespace gsort
