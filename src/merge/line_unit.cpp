#include "src/merge/line_unit.h"

#include "src/algo/line_index.h"
#include "src/core/errors.h"
#include "src/verify/line_ledger.h"

namespace gsort {
namespace {

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

bool LineUnit::take(Head& h, HeadBytes& b) const {
  if (b.at == b.end && !b.refill()) return false;
  const auto* stop = static_cast<const uint8_t*>(std::memchr(b.at, eol_, static_cast<size_t>(b.end - b.at)));
  if (stop) {
    h.line = b.at;
    h.length = static_cast<uint64_t>(stop - b.at);
    b.at = stop + 1;
  } else {
    h.whole.assign(b.at, b.end);
    for (;;) {
      if (!b.refill()) throw DataError("a spilled run of lines ends inside a line");
      stop = static_cast<const uint8_t*>(std::memchr(b.at, eol_, static_cast<size_t>(b.end - b.at)));
      h.whole.insert(h.whole.end(), b.at, stop ? stop : b.end);
      b.at = stop ? stop + 1 : b.end;
      if (stop) break;
    }
    h.line = h.whole.data();
    h.length = h.whole.size();
  }
  find_words(h);
  return true;
}

void LineUnit::find_words(Head& h) const {
  uint64_t words[kWords];
  if (itself_) {
    const uint64_t flip = image_.key.reverse ? ~uint64_t{0} : 0;
    for (int w = 0; w < kWords; ++w) words[w] = line_word(h.line, h.length, static_cast<uint64_t>(w)) ^ flip;
  } else {
    const LineImageView v = view_line_image(image_, h.line, h.length);
    for (int w = 0; w < kWords; ++w) words[w] = line_image_word(image_, v, static_cast<uint64_t>(w));
  }
  h.word = words[0];
  for (int w = 1; w < kWords; ++w) h.more[w - 1] = words[w];
}

void LineUnit::keep(Head& last, const Head& h, const uint8_t* copied) const {
  last.word = h.word;
  for (int w = 0; w < kWords - 1; ++w) last.more[w] = h.more[w];
  last.line = copied;
  last.length = h.length;
}

uint64_t LineUnit::hash(const Head& h) const { return hash_line(h.line, h.length); }

uint64_t LineUnit::units_in(const uint8_t* bytes, uint64_t size) const {
  return count_terminators(bytes, 0, size, eol_);
}

}  // namespace gsort
