#include "src/lines/merge/range_merge.h"

#include <algorithm>
#include <cstring>

#include "src/core/errors.h"
#include "src/core/stopwatch.h"
#include "src/keys/line_image.h"
#include "src/algo/loser_tree.h"

namespace gsort {
namespace {

// Image words compared before the full comparison: as the batch merge's
// windows (window.h), the first words are often the same for many lines.
constexpr int kWords = 3;

// Bytes 8w .. 8w+7 of line[0, len) as a big-endian word, zero past its end:
// word w of an image that is the line itself (image_is_line_itself).
uint64_t line_word(const uint8_t* line, uint64_t len, uint64_t w) {
  const uint64_t first = 8 * w;
  if (first >= len) return 0;
  uint64_t raw = 0;
  if (first + 8 <= len) {
    std::memcpy(&raw, line + first, 8);  // one load
  } else {
    std::memcpy(&raw, line + first, len - first);
  }
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the load is read as little-endian");
  return __builtin_bswap64(raw);
}

}  // namespace

// A run's part of the range: its pieces, the piece it last handed out
// [at, end), and the line taken from it.
struct LineRangeMerger::Head {
  std::unique_ptr<RunPieces> cursor;
  const uint8_t* at = nullptr;
  const uint8_t* end = nullptr;
  const uint8_t* line = nullptr;
  uint64_t length = 0;
  uint64_t words[kWords] = {};  // the line's first image words
  std::vector<uint8_t> whole;  // a line that went on past its piece, put together

  bool refill(std::atomic<uint64_t>* bytes_read, double* read_s) {
    const Stopwatch reading;
    uint64_t n = 0;
    at = cursor->next(&n);
    end = at + n;
    if (bytes_read) bytes_read->fetch_add(n, std::memory_order_relaxed);
    *read_s += reading.seconds();
    return n > 0;
  }

  // Takes the next line; false at the end of the part.
  // `itself`: the image is the line itself (image_is_line_itself).
  bool take(uint8_t eol, const LineImageSpec& image, bool itself, std::atomic<uint64_t>* bytes_read, double* read_s) {
    if (at == end && !refill(bytes_read, read_s)) return false;
    const auto* stop = static_cast<const uint8_t*>(std::memchr(at, eol, static_cast<size_t>(end - at)));
    if (stop) {
      line = at;
      length = static_cast<uint64_t>(stop - at);
      at = stop + 1;
    } else {
      whole.assign(at, end);
      for (;;) {
        if (!refill(bytes_read, read_s)) throw DataError("a spilled run of lines ends inside a line");
        stop = static_cast<const uint8_t*>(std::memchr(at, eol, static_cast<size_t>(end - at)));
        whole.insert(whole.end(), at, stop ? stop : end);
        at = stop ? stop + 1 : end;
        if (stop) break;
      }
      line = whole.data();
      length = whole.size();
    }
    if (itself) {
      const uint64_t flip = image.key.reverse ? ~uint64_t{0} : 0;
      for (int w = 0; w < kWords; ++w) words[w] = line_word(line, length, static_cast<uint64_t>(w)) ^ flip;
      return true;
    }
    const LineImageView v = view_line_image(image, line, length);
    for (int w = 0; w < kWords; ++w) words[w] = line_image_word(image, v, static_cast<uint64_t>(w));
    return true;
  }
};

LineRangeMerger::LineRangeMerger(const std::vector<const RunBytes*>& runs, const LineComparator& compare, uint8_t eol,
                                 uint64_t buffer_bytes)
    : runs_(runs),
      compare_(compare),
      eol_(eol),
      buffer_bytes_(buffer_bytes),
      buffers_(HostBuffer::allocate_pageable(runs.size() * buffer_bytes)) {}

LineRangeResult LineRangeMerger::merge(const std::vector<uint64_t>& begin, const std::vector<uint64_t>& end,
                                       uint8_t* out, std::atomic<uint64_t>* bytes_read) {
  const LineImageSpec image = compare_.spec().image();
  const bool itself = image_is_line_itself(image);
  LineRangeResult result;
  std::vector<Head> heads;
  heads.reserve(runs_.size());
  for (size_t r = 0; r < runs_.size(); ++r) {
    if (begin[r] >= end[r]) continue;
    Head h{runs_[r]->pieces(begin[r], end[r], buffers_.data() + r * buffer_bytes_, buffer_bytes_), nullptr, nullptr,
           nullptr, 0, {}, {}};
    if (h.take(eol_, image, itself, bytes_read, &result.read_s)) heads.push_back(std::move(h));
  }
  const LineComparator& compare = compare_;
  // Heads are in the runs' order: equal lines go to the earlier run.
  const auto before = [&heads, &compare](size_t a, size_t b) {
    const Head& x = heads[a];
    const Head& y = heads[b];
    for (int w = 0; w < kWords; ++w) {
      if (x.words[w] != y.words[w]) return x.words[w] < y.words[w];
    }
    const int c = compare.compare(x.line, x.length, y.line, y.length);
    return c != 0 ? c < 0 : a < b;
  };
  if (heads.empty()) return result;
  LoserTree<decltype(before)> tree(heads.size(), before);
  while (!tree.empty()) {
    Head& h = heads[tree.winner()];
    std::memcpy(out + result.bytes, h.line, h.length);
    out[result.bytes + h.length] = eol_;
    result.bytes += h.length + 1;
    ++result.lines;
    tree.advance(h.take(eol_, image, itself, bytes_read, &result.read_s));
  }
  return result;
}

}  // namespace gsort
