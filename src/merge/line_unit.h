// The line as the unit of a merge in ranges (src/merge/range_worker.h): a
// head is a line of its run (put together where it goes on past its
// run's piece) with its first image words; lines of equal first words go
// on by the next two, then by the full comparison.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "src/keys/line_compare.h"
#include "src/keys/line_image.h"
#include "src/merge/range_worker.h"

namespace gsort {

class LineUnit {
 public:
  // Image words held per head: as the batch merge's windows (line_window.h),
  // the first words are often the same for many lines (a date).
  static constexpr int kWords = 3;

  struct Head {
    uint64_t word = 0;  // image word 0
    uint64_t more[kWords - 1] = {};
    const uint8_t* line = nullptr;
    uint64_t length = 0;  // without the terminator
    std::vector<uint8_t> whole;  // a line that went on past its piece, put together
  };

  LineUnit(const LineComparator& compare, uint8_t eol)
      : compare_(&compare), image_(compare.spec().image()), itself_(image_is_line_itself(image_)), eol_(eol) {}

  // The next line; false at the end of the run's part. A part ends at a
  // terminator: a run whose bytes end inside a line is a DataError.
  bool take(Head& h, HeadBytes& b) const;
  int tie(const Head& a, const Head& b) const {
    for (int w = 0; w < kWords - 1; ++w) {
      if (a.more[w] != b.more[w]) return a.more[w] < b.more[w] ? -1 : 1;
    }
    return compare_->compare(a.line, a.length, b.line, b.length);
  }
  size_t copy(const Head& h, uint8_t* out) const {
    std::memcpy(out, h.line, h.length);
    out[h.length] = eol_;
    return h.length + 1;
  }
  bool same_key(const Head& last, const Head& h) const { return last.word == h.word && tie(last, h) == 0; }
  // The last kept line is read from where it was copied.
  void keep(Head& last, const Head& h, const uint8_t* copied) const;
  uint64_t hash(const Head& h) const;
  // Lines in whole lines' bytes: their terminators.
  uint64_t units_in(const uint8_t* bytes, uint64_t size) const;

 private:
  void find_words(Head& h) const;

  const LineComparator* compare_;
  LineImageSpec image_;
  bool itself_;  // the image is the line itself (image_is_line_itself)
  uint8_t eol_;
};

using LineRangeWorker = RangeWorker<LineUnit>;

}  // namespace gsort
