// A key level's slot: the first kSlotBytes bytes of one line's image of
// that level, padding included, read as big-endian words. The composite
// image of a line (src/chunk_sort/lines/composite_pass.h) is built from its
// levels' slots, on the host or, where the GPU fills it
// (kernels/composite_fill.h), on the device, which must make the same words.
#pragma once

#include <cstdint>
#include <cstring>

#include "src/cuda/host_device.h"
#include "src/keys/line_image.h"

namespace gsort {

constexpr uint64_t kSlotWords = 8;  // of a level's image, the most the composite reads (64 bytes)
constexpr uint64_t kSlotBytes = 8 * kSlotWords;
constexpr uint64_t kKeyBytesMost = kSlotBytes - 1;  // a collated key held in a slot, with its length

// A level's image in the slot, padding included, as big-endian words.
struct Slot {
  uint64_t w[kSlotWords];
};

// A number image's count bytes (1 to 3 of word 0). For a count under
// 2^16 their top bytes are 0x00 after a class byte whose top bit is set
// (positive, zero; negative under 'r') and 0xFF after one whose top bit is
// clear: bits that only mirror the sign, which the class byte orders
// already. Where a chunk's lines all show it, such bits are not taken.
constexpr uint64_t kCountBytes = 0x00FFFFFF00000000ull;
GSORT_HD uint64_t sign_mirror(uint64_t word0) { return (word0 >> 63) != 0 ? 0 : kCountBytes; }

// The eight bytes at p as a big-endian word.
GSORT_HD uint64_t big_endian_word(const uint8_t* p) {
#if defined(__CUDA_ARCH__)
  uint64_t word = 0;
  for (int b = 0; b < 8; ++b) word = word << 8 | p[b];
  return word;
#else
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the load is read as little-endian");
  uint64_t raw;
  std::memcpy(&raw, p, 8);
  return __builtin_bswap64(raw);
#endif
}

// One level of one line: its key found once, and its image's words.
// Plain text (every byte kept, none folded) is read in place, eight bytes
// to a word; other images are made into the slot's bytes
// (line_image_bytes), up to the word their padding fills, or to `bytes`
// (whole words) where fewer are read: the fill takes only the words its
// plan takes, and a whole line's last resort would copy every byte. Text
// and numbers skip line_image.h's per-order helpers, each of which asks
// the key's order again: the fill of -t, -k2,2 -k1,1n (a few names, then
// a number) took some 1,580 instructions a line (callgrind, dev,
// 2026-12-03). A collated level's slot is its key's bytes (of_key_bytes).
class LevelSlot {
 public:
  GSORT_HD LevelSlot(const LineImageSpec& spec, const uint8_t* line, uint64_t len, uint64_t bytes) {
    const LineKey& key = spec.key;
    const LineOrder order = line_order(key);
    const uint64_t flip = key.reverse ? ~uint64_t{0} : 0;
    if (order == LineOrder::kText && key.keep == kKeepAll && !key.fold) {  // as line_image.h has it, in place
      uint64_t begin = 0, end = 0;
      line_key_extent(line, len, key, spec.separator, &begin, &end);
      text_ = line + begin;
      length_ = end - begin;
      pad_ = flip_ = flip;
      inexact_ = length_ > 0 && text_[length_ - 1] == 0;  // the padding hides a trailing NUL
      return;
    }
    const LineImageView view = view_line_image(spec, line, len);
    if (order == LineOrder::kNumber) {  // line_image_length's, line_image_padding's and image_holds_key's
      length_ = number_image_length(view.number);
      pad_ = (view.number.sign < 0 ? ~uint64_t{0} : 0) ^ flip;
      inexact_ = !number_digits_in_image(view.number);
    } else {
      length_ = line_image_length(spec, view);
      pad_ = line_image_padding(spec, view);
      inexact_ = !image_holds_key(spec, view);
    }
    const uint64_t whole = (length_ + 7) / 8 * 8;
    line_image_bytes(spec, view, bytes_, bytes < whole ? bytes : whole);
  }
  // A collated level's slot, which its keys' ranks are found by (the
  // host ranks them, collated_ranks.h): the key's bytes, zeros after them,
  // its length in the last byte; all zeros and inexact where the key is
  // longer than kKeyBytesMost.
  GSORT_HD static LevelSlot of_key_bytes(const LineImageSpec& spec, const uint8_t* line, uint64_t len) {
    LevelSlot l;
    uint64_t begin = 0, end = 0;
    line_key_extent(line, len, spec.key, spec.separator, &begin, &end);
    const uint64_t n = end - begin;
    l.length_ = kSlotBytes;
    l.inexact_ = n > kKeyBytesMost;
    std::memset(l.bytes_, 0, kSlotBytes);
    if (l.inexact_) return l;
    std::memcpy(l.bytes_, line + begin, n);
    l.bytes_[kSlotBytes - 1] = static_cast<uint8_t>(n);
    return l;
  }
  // A collated level's slot from its head (head_table.h's, n bytes, at
  // most kImageHeadBytes): the words the host's LevelSlot makes of the
  // same head, complemented under 'r'; inexact, as every collated image is.
  GSORT_HD static LevelSlot of_head(const uint8_t* head, uint64_t n, bool reverse) {
    LevelSlot l;
    const uint8_t flip = reverse ? 0xFF : 0;
    l.length_ = n;
    l.pad_ = reverse ? ~uint64_t{0} : 0;
    l.inexact_ = true;
    for (uint64_t i = 0; i < (n + 7) / 8 * 8; ++i) l.bytes_[i] = static_cast<uint8_t>((i < n ? head[i] : 0) ^ flip);
    return l;
  }
  // Word w of the slot; w below the words the slot was made with.
  GSORT_HD uint64_t word(uint64_t w) const {
    const uint64_t first = 8 * w;
    if (first >= length_) return pad_;
    if (text_ == nullptr) return big_endian_word(bytes_ + first);
    if (first + 8 <= length_) return big_endian_word(text_ + first) ^ flip_;
    uint64_t word = 0;  // the text's last bytes, then zeros (flipped: the padding's bytes under 'r')
    for (uint64_t i = first; i < length_; ++i) word = word << 8 | text_[i];
    return (word << (8 * (first + 8 - length_))) ^ flip_;
  }
  GSORT_HD Slot slot() const {
    Slot s;
    for (uint64_t w = 0; w < kSlotWords; ++w) s.w[w] = word(w);
    return s;
  }
  GSORT_HD uint64_t length() const { return length_; }
  GSORT_HD bool inexact() const { return inexact_; }

 private:
  GSORT_HD LevelSlot() {}
  uint64_t length_ = 0, pad_ = 0;
  bool inexact_ = false;
  const uint8_t* text_ = nullptr;  // plain text: its bytes, read in place
  uint64_t flip_ = 0;              // plain text under 'r': every bit flipped
  uint8_t bytes_[kSlotBytes];      // other images: [0, min(kSlotBytes, length_ rounded up to a word)) set
};

}  // namespace gsort
