#include "src/merge/line_range_cut.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "src/core/errors.h"

namespace gsort {
namespace {

constexpr uint64_t kProbeBytes = 4096;  // read at a time while looking for a terminator

// The offset of the first `eol` at or after `from` (run.size() where none).
uint64_t next_terminator(const MergeRun& run, uint64_t from, uint8_t eol, std::vector<uint8_t>& bytes,
                         RunView::FrameCache* cache) {
  const uint64_t size = run.size();
  for (uint64_t at = from, step = kProbeBytes; at < size; at += step, step *= 2) {
    const uint64_t n = std::min(step, size - at);
    bytes.resize(n);
    run.read_span(at, n, bytes.data(), cache);
    const void* hit = std::memchr(bytes.data(), eol, n);
    if (hit) return at + static_cast<uint64_t>(static_cast<const uint8_t*>(hit) - bytes.data());
  }
  return size;
}

// Every run's samples, in its runs' order and each run's: lines found at
// evenly spaced offsets, their bytes in `keys` (a sample's key indexes it);
// run r's are [first[r], first[r + 1]).
struct LineSamples {
  std::vector<RangeSample> samples;
  std::vector<std::vector<uint8_t>> keys;
  std::vector<size_t> first;
};

LineSamples take_samples(const std::vector<const MergeRun*>& runs, uint8_t eol, uint64_t wanted, ThreadPool& pool) {
  uint64_t total = 0;
  for (const MergeRun* r : runs) total += r->size();
  std::vector<std::vector<std::pair<uint64_t, std::vector<uint8_t>>>> per_run(runs.size());
  pool.parallel_for(runs.size(), [&](size_t r) {
    const uint64_t n = runs[r]->size();
    RunView::FrameCache cache;
    for (const uint64_t place : sample_places(n, total, wanted)) {
      std::vector<uint8_t> line;
      const uint64_t start = line_at_or_after(*runs[r], place, eol, line, &cache);
      if (start >= n) break;
      if (!per_run[r].empty() && per_run[r].back().first == start) continue;
      per_run[r].emplace_back(start, std::move(line));
    }
  });
  LineSamples s;
  s.first.push_back(0);
  for (size_t r = 0; r < runs.size(); ++r) {
    const double weight = per_run[r].empty() ? 0 : static_cast<double>(runs[r]->size()) / per_run[r].size();
    for (auto& [start, line] : per_run[r]) {
      s.samples.push_back(RangeSample{r, start, weight, s.keys.size()});
      s.keys.push_back(std::move(line));
    }
    s.first.push_back(s.samples.size());
  }
  return s;
}

// The first line start of run r that does not sort before splitter s; the
// run's own samples (in its order) narrow the search before any read.
uint64_t cut_of(const MergeRun& run, size_t r, const RangeSample& s, const LineSamples& all,
                const LineComparator& compare, uint8_t eol, bool whole_keys) {
  if (!whole_keys && r == s.run) return s.at;
  const std::vector<uint8_t>& splitter = all.keys[s.key];
  // Lines of an earlier run equal to the splitter sort before it; of a
  // later one (or, with whole keys, of any run), after.
  const bool equal_before = !whole_keys && r < s.run;
  const auto before_splitter = [&](const uint8_t* line, size_t len) {
    const int c = compare.compare(line, len, splitter.data(), splitter.size());
    return c < 0 || (c == 0 && equal_before);
  };
  const auto begin = all.samples.begin() + static_cast<std::ptrdiff_t>(all.first[r]);
  const auto end = all.samples.begin() + static_cast<std::ptrdiff_t>(all.first[r + 1]);
  const auto k = std::partition_point(begin, end, [&](const RangeSample& x) {
    return before_splitter(all.keys[x.key].data(), all.keys[x.key].size());
  });
  uint64_t lo = k == begin ? 0 : std::prev(k)->at + 1;
  uint64_t hi = k == end ? run.size() : k->at;
  std::vector<uint8_t> line;
  RunView::FrameCache cache;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    const uint64_t start = line_at_or_after(run, mid, eol, line, &cache);
    if (start < run.size() && before_splitter(line.data(), line.size())) {
      lo = start + 1;  // every offset up to start finds this line
    } else {
      hi = mid;
    }
  }
  std::vector<uint8_t> ignored;
  return line_at_or_after(run, lo, eol, ignored, &cache);
}

}  // namespace

uint64_t line_at_or_after(const MergeRun& run, uint64_t from, uint8_t eol, std::vector<uint8_t>& line,
                          RunView::FrameCache* cache) {
  const uint64_t size = run.size();
  line.clear();
  const uint64_t at = from == 0 ? 0 : from - 1;
  if (at >= size) return size;
  // One read most often holds the terminator before the line and the line's
  // own: a probe of a run on the device is one copy, not three.
  std::vector<uint8_t> bytes(std::min(kProbeBytes, size - at));
  run.read_span(at, bytes.size(), bytes.data(), cache);
  const uint8_t* const first = bytes.data();
  const uint8_t* const last = first + bytes.size();
  const uint8_t* begin = first;
  if (from != 0) {
    const void* before = std::memchr(first, eol, bytes.size());
    begin = before ? static_cast<const uint8_t*>(before) + 1 : nullptr;
  }
  uint64_t start = 0;
  if (begin) {
    start = at + static_cast<uint64_t>(begin - first);
    if (start >= size) return size;
    if (const void* end = std::memchr(begin, eol, static_cast<size_t>(last - begin))) {
      line.assign(begin, static_cast<const uint8_t*>(end));
      return start;
    }
  } else {
    start = std::min(size, next_terminator(run, at + bytes.size(), eol, bytes, cache) + 1);
    if (start >= size) return size;
  }
  const uint64_t end = next_terminator(run, start, eol, bytes, cache);
  if (end >= size) throw DataError("a spilled run of lines ends inside a line");
  line.resize(end - start);
  if (end > start) run.read_span(start, end - start, line.data(), cache);
  return start;
}

MergeRanges cut_line_runs(const std::vector<const MergeRun*>& runs, const LineComparator& compare, uint8_t eol,
                          size_t ranges, ThreadPool& pool, bool whole_keys) {
  std::vector<uint64_t> sizes(runs.size());
  uint64_t total = 0;
  for (size_t r = 0; r < runs.size(); ++r) total += sizes[r] = runs[r]->size();
  LineSamples samples;
  std::vector<RangeSample> splitters;
  if (ranges > 1 && total > 0) {
    samples = take_samples(runs, eol, ranges * kSamplesPerMergeRange, pool);
    const auto key_order = [&](const RangeSample& a, const RangeSample& b) {
      const std::vector<uint8_t>& x = samples.keys[a.key];
      const std::vector<uint8_t>& y = samples.keys[b.key];
      return compare.compare(x.data(), x.size(), y.data(), y.size());
    };
    splitters = choose_merge_splitters(samples.samples, total, ranges, key_order, whole_keys);
  }
  return ranges_from_cuts(
      sizes, splitters.size(),
      [&](size_t p, size_t r) { return cut_of(*runs[r], r, splitters[p], samples, compare, eol, whole_keys); },
      pool);
}

}  // namespace gsort
