// The image of a line: a byte string, padded without end, whose unsigned
// lexicographic order agrees with the line comparison (line_compare.h)
// wherever two images differ. It is read eight bytes at a time as
// big-endian words, so that a radix sort of (word 0, line) pairs orders
// the lines, and lines whose words tie are told apart by their
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
//  - 'd' and 'i': the bytes they keep (never a NUL), upper-cased for 'f';
//  - month ('M'): one byte, 0 for no month, else 1 to 12;
//  - general numeric ('g', host only): line_orders.h's image of the
//    number strtold reads;
//  - random ('R', host only): the key's MD5 digest (line_orders.h), then
//    its bytes as a text key's;
//  - version ('V', host only): version_order.h's head, whose differences
//    order the keys; equal heads leave them to the comparison;
//  - collated text (outside the C locale, host only): the first bytes of
//    strxfrm's image of the key (collation.h), 'd' 'i' 'f' applied first;
//    equal heads leave the keys to the comparison;
//  - 'r' complements every byte, padding included.
// Numbers, months, general numbers and kept bytes are exact: equal images
// mean equal keys. Text keys (and 'R' keys) with equal images differ at
// most by the length of their text (the padding hides trailing NULs).
#pragma once

#include <cstdint>
#include <cstring>

#include "src/cuda/host_device.h"
#include "src/keys/line_fields.h"
#include "src/keys/line_key.h"
#include "src/keys/line_month.h"
#include "src/keys/line_number.h"
#if !defined(__CUDA_ARCH__)
#include "src/keys/line_orders.h"
#endif

namespace gsort {

constexpr uint64_t kImageCountCap = 0xFFFFFF;  // the count's largest value
constexpr uint64_t kImageDigits = 64;          // the most digits an exact image holds

// A number's image is its header (class byte and count) and then a prefix
// of its digit string D, zero-padded; equal images that are not both
// exact are left to the comparison. Every image of one header must read D
// to the same depth or further, or padding would stand in for digits:
// - exact: D has at most kImageDigits digits, all held;
// - longer: its first kImageDigits + 2 digits, one byte more than any
//   exact image, which its length tells apart (number_image_capped);
// - an integer part of kImageCountCap digits or more: the header alone,
//   its count capped, as every number of that header has it.
GSORT_HD bool number_count_in_image(const LineNumber& n) { return n.int_digits < kImageCountCap; }
GSORT_HD bool number_digits_in_image(const LineNumber& n) {
  return number_count_in_image(n) && n.digits() <= kImageDigits;
}
constexpr uint64_t kImageNumberHeader = 4;      // class byte and count

constexpr uint64_t kImageHeadBytes = 21;        // the most a head holds ('g')
constexpr uint64_t kRandomDigestBytes = 16;     // an 'R' image's head

// The key's bytes within the line, located once for several words.
struct LineImageView {
  const uint8_t* key = nullptr;
  uint64_t len = 0;
  LineNumber number;   // numeric keys only
  int unit_order = 0;  // 'h' only
  uint64_t text = 0;   // text and 'R' keys: the bytes 'd' or 'i' keep (else len)
  // 'M' its month, 'g' its image, 'R' its digest, 'V' its head. Bytes past
  // head_len are never read, and left unset: zeroing them took a third of
  // a view's making (a `rep stos` per line).
  uint8_t head[kImageHeadBytes];
  uint64_t head_len = 0;
};

// Whether keys whose images are spent and equal are equal (numbers too
// long for the image aside); else, text and 'R' keys differ by their
// text's length, and 'V' keys are told apart by the comparison alone.
GSORT_HD bool image_is_exact(const LineKey& key) {
  const LineOrder order = line_order(key);
  if (order == LineOrder::kText || order == LineOrder::kRandom) return key.keep != kKeepAll;
  return order != LineOrder::kVersion && order != LineOrder::kCollate;
}

// Whether equal heads, spent, say nothing of the order: 'V' and a
// collated text's, whose lines the comparison orders.
GSORT_HD bool image_leaves_ties_to_comparison(const LineKey& key) {
  const LineOrder order = line_order(key);
  return order == LineOrder::kVersion || order == LineOrder::kCollate;
}

// Whether the image of this one key, padding and all, tells it from every
// key whose image differs in length or bytes, as the comparison would:
// not for a number too long for the image (kImageDigits, kImageCountCap), nor for a key
// whose bytes are all kept that ends in NUL, which the padding hides.
GSORT_HD bool image_holds_key(const LineImageSpec& spec, const LineImageView& v) {
  if (reads_number(spec.key)) return number_digits_in_image(v.number);
  if (line_order(spec.key) == LineOrder::kCollate) return false;
  return spec.key.keep != kKeepAll || v.len == 0 || v.key[v.len - 1] != 0;
}

// Whether each word of the image reads the whole key again (a number
// parsed, kept bytes counted, a digest taken), rather than 8 of its bytes.
GSORT_HD bool image_words_costly(const LineKey& key) {
  return line_order(key) != LineOrder::kText || key.keep != kKeepAll;
}

// Whether the key spans every line whole: from its first byte, blanks
// kept, to its end (whatever its order reads of it).
GSORT_HD bool key_spans_whole_line(const LineKey& k) {
  return k.start_field == 0 && k.start_char == 0 && k.end_field == kToLineEnd && !k.skip_start_blanks;
}

// Whether the image of every line is the line itself, bytes as they are
// (complemented for 'r'): the whole line, compared as text, nothing kept
// out or folded.
GSORT_HD bool image_is_line_itself(const LineImageSpec& spec) {
  const LineKey& k = spec.key;
  return key_spans_whole_line(k) && line_order(k) == LineOrder::kText && k.keep == kKeepAll && !k.fold;
}

// Whether the image reads nothing but the key's bytes: an order whose
// words come from them (text in byte order, numbers, months; these never
// read the spec's collation, which a locale that collates in byte order
// sets too) and no locale's rules (LineKey::rules, line_orders.h), so
// that the device makes it as the host does (its fill of composite
// entries and its refinement of ties take such levels only).
GSORT_HD bool image_made_from_bytes(const LineImageSpec& spec) {
  const LineOrder order = line_order(spec.key);
  return (order == LineOrder::kText || order == LineOrder::kNumber || order == LineOrder::kMonth) &&
         spec.key.rules == nullptr;
}

// The view of a key already found: its bytes key[0, len).
GSORT_HD LineImageView view_line_key(const LineImageSpec& spec, const uint8_t* key, uint64_t len) {
  LineImageView v;
  v.key = key;
  v.len = len;
  const LineOrder order = line_order(spec.key);
  if (order == LineOrder::kNumber) {
    v.number = parse_line_number(key, len, spec.key.marks);
    if (spec.key.human) v.unit_order = line_unit_order(key, len, spec.key.fold, spec.key.marks);
  } else if (order == LineOrder::kMonth) {
    v.head[0] = static_cast<uint8_t>(line_month(key, len, spec.key.rules));
    v.head_len = 1;
  } else if (order == LineOrder::kText || order == LineOrder::kRandom) {
    v.text = len;
    if (spec.key.keep != kKeepAll) {
      v.text = 0;
      for (uint64_t i = 0; i < len; ++i) v.text += keeps_byte(spec.key, key[i]);
    }
  }
#if !defined(__CUDA_ARCH__)
  if (order == LineOrder::kGeneral || order == LineOrder::kRandom || order == LineOrder::kVersion ||
      order == LineOrder::kCollate) {
    v.head_len = host_image_head(spec, key, len, v.head);
  }
#endif
  return v;
}

GSORT_HD LineImageView view_line_image(const LineImageSpec& spec, const uint8_t* line, uint64_t len) {
  uint64_t begin = 0, end = 0;
  line_key_extent(line, len, spec.key, spec.separator, &begin, &end);
  return view_line_key(spec, line + begin, end - begin);
}

// Bytes of a numeric image before its padding.
GSORT_HD uint64_t number_image_length(const LineNumber& n) {
  if (n.sign == 0) return 1;
  if (!number_count_in_image(n)) return kImageNumberHeader;
  if (n.digits() > kImageDigits) return kImageNumberHeader + kImageDigits / 2 + 1;
  return kImageNumberHeader + (n.digits() + 1) / 2;
}

// Whether a numeric image of this length leaves its number's order among
// equal images to the comparison (number_digits_in_image's false).
GSORT_HD bool number_image_capped(uint64_t length) {
  return length == kImageNumberHeader || length > kImageNumberHeader + kImageDigits / 2;
}

GSORT_HD uint64_t line_image_length(const LineImageSpec& spec, const LineImageView& v) {
  const LineOrder order = line_order(spec.key);
  if (order == LineOrder::kText) return v.text;
  if (order == LineOrder::kRandom) return kRandomDigestBytes + v.text;
  if (order != LineOrder::kNumber) return v.head_len;
  return number_image_length(v.number);
}

// Byte i of a numeric image ('n' or 'h'), before 'r'.
GSORT_HD uint8_t numeric_image_byte(const LineImageView& v, uint64_t i) {
  const LineNumber& n = v.number;
  if (n.sign == 0) return i == 0 ? 0x80 : 0x00;
  if (i == 0) return static_cast<uint8_t>((n.sign < 0 ? 0x40 : 0xC0) + v.unit_order);
  uint8_t b = 0;
  if (i < kImageNumberHeader) {
    const uint64_t count = n.int_digits > kImageCountCap ? kImageCountCap : n.int_digits;
    b = static_cast<uint8_t>(count >> (8 * (kImageNumberHeader - 1 - i)));
  } else if (i < number_image_length(n)) {
    const uint64_t k = 2 * (i - kImageNumberHeader);
    const uint64_t digits = n.digits();
    const uint8_t hi = k < digits ? static_cast<uint8_t>(n.digit(v.key, k) - '0') : 0;
    const uint8_t lo = k + 1 < digits ? static_cast<uint8_t>(n.digit(v.key, k + 1) - '0') : 0;
    b = static_cast<uint8_t>(hi << 4 | lo);
  }
  return n.sign < 0 ? static_cast<uint8_t>(~b) : b;
}

// Bytes `first` .. first+7 of a text image (the bytes kept, folded for
// 'f') as a big-endian word, zero past its end. With 'd' or 'i' the kept
// bytes before `first` are counted from the key's start.
GSORT_HD uint64_t text_image_word(const LineKey& key, const LineImageView& v, uint64_t first) {
#if !defined(__CUDA_ARCH__)
  if (key.keep == kKeepAll && !key.fold && first + 8 <= v.len) {  // eight bytes as they are: one load
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the load is read as little-endian");
    uint64_t raw;
    std::memcpy(&raw, v.key + first, 8);
    return __builtin_bswap64(raw);
  }
#endif
  uint64_t word = 0;
  int taken = 0;
  if (key.keep == kKeepAll) {
    for (uint64_t i = first; i < v.len && taken < 8; ++i, ++taken) {
      word = word << 8 | (key.fold ? fold_key_byte(key, v.key[i]) : v.key[i]);
    }
  } else {
    for (uint64_t i = 0, seen = 0; i < v.len && taken < 8; ++i) {
      if (!keeps_byte(key, v.key[i]) || seen++ < first) continue;
      word = word << 8 | (key.fold ? fold_key_byte(key, v.key[i]) : v.key[i]);
      ++taken;
    }
  }
  return taken == 0 ? 0 : word << (8 * (8 - taken));
}

// Image word `w` (bytes 8w .. 8w+7, big-endian) of a viewed line.
GSORT_HD uint64_t line_image_word(const LineImageSpec& spec, const LineImageView& v, uint64_t w) {
  uint64_t word = 0;
  const uint64_t first = 8 * w;
  const LineOrder order = line_order(spec.key);
  if (order == LineOrder::kNumber) {
    for (uint64_t i = first; i < first + 8; ++i) word = word << 8 | numeric_image_byte(v, i);
  } else if (order == LineOrder::kText) {
    word = text_image_word(spec.key, v, first);
  } else if (order == LineOrder::kRandom && first >= kRandomDigestBytes) {
    word = text_image_word(spec.key, v, first - kRandomDigestBytes);
  } else {
    for (uint64_t i = first; i < first + 8; ++i) word = word << 8 | (i < v.head_len ? v.head[i] : 0);
  }
  return spec.key.reverse ? ~word : word;
}

// The padding after an image (every word past its length): 0x00 bytes, or
// 0xFF after a negative number's; complemented for 'r'.
GSORT_HD uint64_t line_image_padding(const LineImageSpec& spec, const LineImageView& v) {
  const uint64_t pad = reads_number(spec.key) && v.number.sign < 0 ? ~uint64_t{0} : 0;
  return spec.key.reverse ? ~pad : pad;
}

// The image's first `bytes` bytes, padding included, into out: the bytes
// of line_image_word's words, the key read once rather than word by word.
GSORT_HD void line_image_bytes(const LineImageSpec& spec, const LineImageView& v, uint8_t* out, uint64_t bytes) {
  const LineOrder order = line_order(spec.key);
  const bool text = order == LineOrder::kText && spec.key.keep == kKeepAll;
  if (order != LineOrder::kNumber && !text) {
    for (uint64_t w = 0; 8 * w < bytes; ++w) {
      const uint64_t word = line_image_word(spec, v, w);
      for (uint64_t b = 0; b < 8 && 8 * w + b < bytes; ++b) out[8 * w + b] = static_cast<uint8_t>(word >> (56 - 8 * b));
    }
    return;
  }
  const uint64_t length = line_image_length(spec, v);
  const uint64_t image = length < bytes ? length : bytes;
  uint8_t flip = spec.key.reverse ? 0xFF : 0x00;
  uint64_t i = 0;
  // Locals: `out` may alias anything, so fields read in a loop would be read again every byte.
  const uint8_t* key = v.key;
  if (text && !spec.key.fold) {
    for (; i < image; ++i) out[i] = static_cast<uint8_t>(key[i] ^ flip);
  } else if (text) {
    for (; i < image; ++i) out[i] = static_cast<uint8_t>(fold_key_byte(spec.key, key[i]) ^ flip);
  } else {
    // numeric_image_byte's bytes, the header made at once and the digits
    // read in order: asked one byte at a time, a nine-digit number's image
    // took some 300 instructions (callgrind, dev, 2026-12-03).
    const LineNumber n = v.number;
    const uint8_t mask = static_cast<uint8_t>((n.sign < 0 ? 0xFF : 0x00) ^ flip);
    if (n.sign == 0) {
      if (i < image) out[i++] = static_cast<uint8_t>(0x80 ^ flip);
    } else {
      const uint64_t count = n.int_digits > kImageCountCap ? kImageCountCap : n.int_digits;
      const uint8_t header[kImageNumberHeader] = {
          static_cast<uint8_t>(((n.sign < 0 ? 0x40 : 0xC0) + v.unit_order) ^ flip),
          static_cast<uint8_t>((count >> 16) ^ mask), static_cast<uint8_t>((count >> 8) ^ mask),
          static_cast<uint8_t>(count ^ mask)};
      for (; i < image && i < kImageNumberHeader; ++i) out[i] = header[i];
    }
    const uint64_t digits = n.digits();
    if (!n.spread) {  // integer digits from int_begin, then the fraction's: no separator among them
      const uint8_t* integer = key + n.int_begin;
      const uint8_t* fraction = key + n.frac_begin - n.int_digits;
      for (uint64_t k = 0; i < image; ++i, k += 2) {
        const uint8_t hi = static_cast<uint8_t>((k < n.int_digits ? integer[k] : fraction[k]) - '0');
        const uint8_t lo =
            k + 1 < digits ? static_cast<uint8_t>((k + 1 < n.int_digits ? integer[k + 1] : fraction[k + 1]) - '0') : 0;
        out[i] = static_cast<uint8_t>((hi << 4 | lo) ^ mask);
      }
    } else {
      for (uint64_t k = 0; i < image; ++i, k += 2) {
        const uint8_t hi = static_cast<uint8_t>(n.digit(key, k) - '0');
        const uint8_t lo = k + 1 < digits ? static_cast<uint8_t>(n.digit(key, k + 1) - '0') : 0;
        out[i] = static_cast<uint8_t>((hi << 4 | lo) ^ mask);
      }
    }
    if (n.sign < 0) flip = static_cast<uint8_t>(~flip);  // a negative number's padding is 0xFF
  }
  for (; i < bytes; ++i) out[i] = flip;
}

// Word `w` of the image of line[0, len).
GSORT_HD uint64_t line_image_word(const LineImageSpec& spec, const uint8_t* line, uint64_t len, uint64_t w) {
  return line_image_word(spec, view_line_image(spec, line, len), w);
}

}  // namespace gsort
