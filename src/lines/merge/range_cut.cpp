#include "src/lines/merge/range_cut.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "src/core/errors.h"

namespace gsort {
namespace {

constexpr uint64_t kSamplesPerRange = 32;
constexpr uint64_t kProbeBytes = 4096;  // read at a time while looking for a terminator

// The offset of the first `eol` at or after `from` (run.size() where none).
uint64_t next_terminator(const RunBytes& run, uint64_t from, uint8_t eol, std::vector<uint8_t>& bytes,
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

struct Sample {
  size_t run;
  uint64_t start;  // the line's first byte in its run
  double weight;   // the bytes of the run it stands for
  std::vector<uint8_t> line;
};

// Whether a sorts before b in the merge's total order.
bool sample_before(const LineComparator& compare, const Sample& a, const Sample& b) {
  const int c = compare.compare(a.line.data(), a.line.size(), b.line.data(), b.line.size());
  if (c != 0) return c < 0;
  return a.run != b.run ? a.run < b.run : a.start < b.start;
}

// Each run's samples, in its order.
std::vector<std::vector<Sample>> take_samples(const std::vector<const RunBytes*>& runs, uint8_t eol, uint64_t wanted,
                                              ThreadPool& pool) {
  uint64_t total = 0;
  for (const RunBytes* r : runs) total += r->size();
  std::vector<std::vector<Sample>> per_run(runs.size());
  pool.parallel_for(runs.size(), [&](size_t r) {
    const uint64_t n = runs[r]->size();
    if (n == 0) return;
    const uint64_t share = std::clamp<uint64_t>(
        static_cast<uint64_t>(static_cast<long double>(wanted) * n / total + 0.5), 1, n);
    RunView::FrameCache cache;
    for (uint64_t j = 0; j < share; ++j) {
      const uint64_t at = static_cast<uint64_t>((2 * static_cast<long double>(j) + 1) * n / (2 * share));
      Sample s{r, 0, 0, {}};
      s.start = line_at_or_after(*runs[r], at, eol, s.line, &cache);
      if (s.start >= n) break;
      if (!per_run[r].empty() && per_run[r].back().start == s.start) continue;
      per_run[r].push_back(std::move(s));
    }
    for (Sample& s : per_run[r]) s.weight = static_cast<double>(n) / per_run[r].size();
  });
  return per_run;
}

std::vector<Sample> choose_splitters(const std::vector<std::vector<Sample>>& per_run, const LineComparator& compare,
                                     uint64_t total, size_t ranges) {
  std::vector<Sample> samples;
  for (const std::vector<Sample>& v : per_run) samples.insert(samples.end(), v.begin(), v.end());
  std::sort(samples.begin(), samples.end(),
            [&compare](const Sample& a, const Sample& b) { return sample_before(compare, a, b); });
  std::vector<Sample> chosen;
  double before = 0;
  size_t p = 1;
  for (Sample& s : samples) {
    if (before >= static_cast<double>(total) * p / ranges) {
      chosen.push_back(std::move(s));
      while (p < ranges && before >= static_cast<double>(total) * p / ranges) ++p;
      if (p == ranges) break;
    }
    before += s.weight;
  }
  return chosen;
}

// The first line start of run r that does not sort before splitter s; the
// run's own samples (in its order) narrow the search before any read.
uint64_t cut_of(const RunBytes& run, size_t r, const Sample& s, const std::vector<Sample>& samples,
                const LineComparator& compare, uint8_t eol) {
  if (r == s.run) return s.start;
  // Lines of an earlier run equal to the splitter sort before it; of a later one, after.
  const bool equal_before = r < s.run;
  const auto before_splitter = [&](const Sample& x) {
    const int c = compare.compare(x.line.data(), x.line.size(), s.line.data(), s.line.size());
    return c < 0 || (c == 0 && equal_before);
  };
  const auto k = std::partition_point(samples.begin(), samples.end(), before_splitter);
  uint64_t lo = k == samples.begin() ? 0 : std::prev(k)->start + 1;
  uint64_t hi = k == samples.end() ? run.size() : k->start;
  std::vector<uint8_t> line;
  RunView::FrameCache cache;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    const uint64_t start = line_at_or_after(run, mid, eol, line, &cache);
    bool before = false;
    if (start < run.size()) {
      const int c = compare.compare(line.data(), line.size(), s.line.data(), s.line.size());
      before = c < 0 || (c == 0 && equal_before);
    }
    if (before) {
      lo = start + 1;  // every offset up to start finds this line
    } else {
      hi = mid;
    }
  }
  std::vector<uint8_t> ignored;
  return line_at_or_after(run, lo, eol, ignored, &cache);
}

}  // namespace

uint64_t line_at_or_after(const RunBytes& run, uint64_t from, uint8_t eol, std::vector<uint8_t>& line,
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

MergeRanges cut_line_runs(const std::vector<const RunBytes*>& runs, const LineComparator& compare, uint8_t eol,
                          size_t ranges, ThreadPool& pool) {
  std::vector<uint64_t> sizes(runs.size());
  uint64_t total = 0;
  for (size_t r = 0; r < runs.size(); ++r) total += sizes[r] = runs[r]->size();
  std::vector<std::vector<uint64_t>> cuts{std::vector<uint64_t>(runs.size(), 0)};
  if (ranges > 1 && total > 0) {
    const std::vector<std::vector<Sample>> samples = take_samples(runs, eol, ranges * kSamplesPerRange, pool);
    const std::vector<Sample> splitters = choose_splitters(samples, compare, total, ranges);
    std::vector<std::vector<uint64_t>> found(splitters.size(), std::vector<uint64_t>(runs.size()));
    pool.parallel_for(splitters.size() * runs.size(), [&](size_t task) {
      const size_t p = task / runs.size(), r = task % runs.size();
      found[p][r] = cut_of(*runs[r], r, splitters[p], samples[r], compare, eol);
    });
    for (auto& cut : found) cuts.push_back(std::move(cut));
  }
  cuts.push_back(sizes);
  // Each run's cuts rise (they do for sorted runs), and no range is empty.
  MergeRanges out;
  out.cuts.push_back(cuts.front());
  for (size_t p = 1; p < cuts.size(); ++p) {
    std::vector<uint64_t> cut = cuts[p];
    for (size_t r = 0; r < cut.size(); ++r) cut[r] = std::clamp(cut[r], out.cuts.back()[r], sizes[r]);
    if (cut != out.cuts.back()) out.cuts.push_back(std::move(cut));
  }
  return out;
}

}  // namespace gsort
