#include "src/distributed/lines/sorted_line_part.h"

#include <cstring>

#include "io/file/file.h"
#include "src/core/errors.h"
#include "src/distributed/lines/line_slice.h"
#include "src/distributed/ranks/rank_bytes.h"
#include "src/merge/range_cuts.h"

namespace gsort {

SortedLinePart::SortedLinePart(const std::string& path, uint8_t eol, bool terminated) : eol_(eol) {
  const File file = File::open_read(path);
  size_ = file.size();
  if (size_ == 0) return;
  mapped_ = MappedInput::map(file, 0, size_);
  if (!mapped_) throw IoError("cannot map the sorted lines of this rank: " + path);
  if (terminated && mapped_->bytes()[size_ - 1] != eol_) {
    throw Error("internal error: a rank's sorted lines end inside a line");
  }
}

SortedLinePart::SortedLinePart(const std::string& path, uint8_t eol, uint64_t begin, uint64_t end) : eol_(eol) {
  size_ = end - begin;
  if (size_ == 0) return;
  mapped_ = MappedInput::map(File::open_read(path), begin, end);
  if (!mapped_) throw IoError("cannot map the sorted lines of this rank: " + path);
  if (mapped_->bytes()[size_ - 1] != eol_) throw Error("internal error: a rank's sorted lines end inside a line");
}

uint64_t SortedLinePart::line_at_or_after(uint64_t from) const {
  return line_start_at_or_after(bytes(), size_, eol_, from);
}

uint64_t SortedLinePart::line_before(uint64_t at) const {
  const uint8_t* d = bytes();
  uint64_t start = at - 1;  // the terminator of the line before
  while (start > 0 && d[start - 1] != eol_) --start;
  return start;
}

std::string SortedLinePart::line(uint64_t at) const {
  const uint8_t* d = bytes();
  const void* end = std::memchr(d + at, eol_, size_ - at);
  const uint64_t stop = end ? static_cast<uint64_t>(static_cast<const uint8_t*>(end) - d) : size_;
  return std::string(reinterpret_cast<const char*>(d + at), stop - at);
}

std::vector<LineSample> SortedLinePart::samples(int rank, uint64_t total, uint64_t wanted) const {
  std::vector<LineSample> out;
  for (const uint64_t place : sample_places(size_, total, wanted)) {
    const uint64_t at = line_at_or_after(place);
    if (at >= size_) break;
    if (!out.empty() && out.back().at == at) continue;
    out.push_back(LineSample{rank, at, 0, line(at)});
  }
  for (LineSample& s : out) s.weight = static_cast<double>(size_) / out.size();
  return out;
}

uint64_t SortedLinePart::cut(int rank, const LineSample& splitter, const LineComparator& compare,
                             bool whole_keys) const {
  if (!whole_keys && rank == splitter.rank) return splitter.at;
  // Lines of an earlier rank equal to the splitter sort before it; of a
  // later one (or, with whole keys, of any rank), after.
  const bool equal_before = !whole_keys && rank < splitter.rank;
  const auto* key = reinterpret_cast<const uint8_t*>(splitter.line.data());
  const auto before = [&](uint64_t at) {
    const std::string l = line(at);
    const int c = compare.compare(reinterpret_cast<const uint8_t*>(l.data()), l.size(), key, splitter.line.size());
    return c < 0 || (c == 0 && equal_before);
  };
  // Binary search over byte offsets: each finds the line at or after it.
  uint64_t lo = 0, hi = size_;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    const uint64_t start = line_at_or_after(mid);
    if (start < size_ && before(start)) {
      lo = start + 1;  // every offset up to start finds this line
    } else {
      hi = mid;
    }
  }
  return line_at_or_after(lo);
}

std::vector<LineSample> choose_line_splitters(const std::vector<LineSample>& samples, uint64_t total, int ranges,
                                              const LineComparator& compare, bool whole_keys) {
  std::vector<RangeSample> places;
  for (size_t i = 0; i < samples.size(); ++i) {
    places.push_back(RangeSample{static_cast<size_t>(samples[i].rank), samples[i].at, samples[i].weight, i});
  }
  const auto key_order = [&](const RangeSample& a, const RangeSample& b) {
    const std::string& x = samples[a.key].line;
    const std::string& y = samples[b.key].line;
    return compare.compare(reinterpret_cast<const uint8_t*>(x.data()), x.size(),
                           reinterpret_cast<const uint8_t*>(y.data()), y.size());
  };
  std::vector<LineSample> chosen;
  for (const RangeSample& s : choose_merge_splitters(places, total, static_cast<size_t>(ranges), key_order, whole_keys)) {
    chosen.push_back(samples[s.key]);
  }
  return chosen;
}

std::string encode_samples(const std::vector<LineSample>& samples) {
  RankBytesWriter out;
  for (const LineSample& x : samples) {
    uint64_t weight = 0;
    std::memcpy(&weight, &x.weight, sizeof weight);
    out.u64(static_cast<uint64_t>(x.rank)).u64(x.at).u64(weight).bytes(x.line);
  }
  return out.text();
}

std::vector<LineSample> decode_samples(const std::string& bytes) {
  std::vector<LineSample> out;
  for (RankBytesReader in(bytes); !in.done();) {
    LineSample x;
    x.rank = static_cast<int>(in.u64());
    x.at = in.u64();
    const uint64_t weight = in.u64();
    std::memcpy(&x.weight, &weight, sizeof weight);
    x.line = in.bytes();
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace gsort
