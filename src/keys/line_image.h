// The image of a line: a byte string, padded without end, whose unsigned
// lexicographic order agrees with the line comparison (src/lines/
// line_compare.h) wherever two images differ. It is read eight bytes at a
// time as big-endian words, so that a radix sort of (word 0, line) pairs
// orders the lines, and lines whose words tie are told apart by their
// next words (or, once the images are spent, by the full comparison).
// Shared by the host and the GPU, which must produce the same words.
//
// The image is that of the first key (the whole line when there is none):
//  - text: the key's bytes, upper-cased for 'f'; padded with 0x00, which
//    sorts a key before its extensions;
//  - numeric ('n'): a class byte (0x40 negative, 0x80 zero, 0xC0
//    positive), then the count of integer digits in three bytes (capped:
//    a capped count carries no digits), then the significant digits two to
//    a byte; everything after the class byte complemented for negative
//    numbers (larger magnitudes sort first), padding 0xFF there;
//  - human numeric ('h'): the same, the unit's order (line_number.h: 0 to
//    10, negative for negative numbers, 0 for zero; lower case folded
//    first for 'f') added to the class byte (0x36 to 0x40 negative, 0x80,
//    0xC0 to 0xCA positive), so that the unit orders first and the value
//    breaks its ties;
//  - 'r' complements every byte, padding included.
#pragma once

#include <cstdint>

#include "src/cuda/host_device.h"
#include "src/keys/line_fields.h"
#include "src/keys/line_key.h"
#include "src/keys/line_number.h"

namespace gsort {

constexpr uint64_t kImageCountCap = 0xFFFFFF;  // integer digits the count holds
constexpr uint64_t kImageNumberHeader = 4;      // class byte and count

// The key's bytes within the line, located once for several words.
struct LineImageView {
  const uint8_t* key = nullptr;
  uint64_t len = 0;
  LineNumber number;   // numeric keys only
  int unit_order = 0;  // 'h' only
};

// The view of a key already found: its bytes key[0, len).
GSORT_HD LineImageView view_line_key(const LineImageSpec& spec, const uint8_t* key, uint64_t len) {
  LineImageView v;
  v.key = key;
  v.len = len;
  if (reads_number(spec.key)) v.number = parse_line_number(key, len);
  if (spec.key.human) v.unit_order = line_unit_order(key, len, spec.key.fold);
  return v;
}

GSORT_HD LineImageView view_line_image(const LineImageSpec& spec, const uint8_t* line, uint64_t len) {
  uint64_t begin = 0, end = 0;
  line_key_extent(line, len, spec.key, spec.separator, &begin, &end);
  return view_line_key(spec, line + begin, end - begin);
}

// Bytes of the image before its padding.
GSORT_HD uint64_t line_image_length(const LineImageSpec& spec, const LineImageView& v) {
  if (!reads_number(spec.key)) return v.len;
  if (v.number.sign == 0) return 1;
  if (v.number.int_digits > kImageCountCap) return kImageNumberHeader;
  return kImageNumberHeader + (v.number.digits() + 1) / 2;
}

// Byte i of a numeric image ('n' or 'h'), before 'r'.
GSORT_HD uint8_t numeric_image_byte(const LineImageView& v, uint64_t i) {
  const LineNumber& n = v.number;
  if (n.sign == 0) return i == 0 ? 0x80 : 0x00;
  if (i == 0) return static_cast<uint8_t>((n.sign < 0 ? 0x40 : 0xC0) + v.unit_order);
  const bool capped = n.int_digits > kImageCountCap;
  uint8_t b = 0;
  if (i < kImageNumberHeader) {
    const uint64_t count = capped ? kImageCountCap : n.int_digits;
    b = static_cast<uint8_t>(count >> (8 * (kImageNumberHeader - 1 - i)));
  } else if (!capped) {
    const uint64_t k = 2 * (i - kImageNumberHeader);
    const uint64_t digits = n.digits();
    const uint8_t hi = k < digits ? static_cast<uint8_t>(n.digit(v.key, k) - '0') : 0;
    const uint8_t lo = k + 1 < digits ? static_cast<uint8_t>(n.digit(v.key, k + 1) - '0') : 0;
    b = static_cast<uint8_t>(hi << 4 | lo);
  }
  return n.sign < 0 ? static_cast<uint8_t>(~b) : b;
}

// Image word `w` (bytes 8w .. 8w+7, big-endian) of a viewed line.
GSORT_HD uint64_t line_image_word(const LineImageSpec& spec, const LineImageView& v, uint64_t w) {
  uint64_t word = 0;
  const uint64_t first = 8 * w;
  if (reads_number(spec.key)) {
    for (uint64_t i = first; i < first + 8; ++i) word = word << 8 | numeric_image_byte(v, i);
  } else if (first < v.len) {
    const uint64_t n = v.len - first < 8 ? v.len - first : 8;
    const uint8_t* p = v.key + first;
    for (uint64_t i = 0; i < n; ++i) word = word << 8 | (spec.key.fold ? fold_upper(p[i]) : p[i]);
    word <<= 8 * (8 - n);
  }
  return spec.key.reverse ? ~word : word;
}

// The padding after an image (every word past its length): 0x00 bytes, or
// 0xFF after a negative number's; complemented for 'r'.
GSORT_HD uint64_t line_image_padding(const LineImageSpec& spec, const LineImageView& v) {
  const uint64_t pad = reads_number(spec.key) && v.number.sign < 0 ? ~uint64_t{0} : 0;
  return spec.key.reverse ? ~pad : pad;
}

// Word `w` of the image of line[0, len).
GSORT_HD uint64_t line_image_word(const LineImageSpec& spec, const uint8_t* line, uint64_t len, uint64_t w) {
  return line_image_word(spec, view_line_image(spec, line, len), w);
}

}  // namespace gsort
