// A collation's first-level weights by character as plain data, and the
// head they give a text: the one implementation that the host
// (first_level_weights.h, which builds the table) and the device (the GPU's
// fill of a collated level, kernels/composite_fill.cu) both run, so that
// both make the same bytes. The pointers are the host's or, in a copy made
// for the device, the device's.
#pragma once

#include <cstdint>
#include <cstring>

#include "src/cuda/host_device.h"

namespace gsort {

// A character's weights and their count, in 8 bytes: copied whole where
// the weights go, in one load and one store.
struct CharacterWeights {
  static constexpr int kMostBytes = 7;
  static constexpr uint8_t kNotHeld = 0xFF;
  static constexpr uint8_t kSegmentEnd = 0xFE;  // NUL's length: a segment ends there
  uint8_t bytes[kMostBytes] = {};
  uint8_t length = kNotHeld;
};
static_assert(sizeof(CharacterWeights) == 8, "one word a character");

struct HeadTable {
  const CharacterWeights* ascii = nullptr;         // bytes below 0x80 (128), in every locale the table serves
  const CharacterWeights* by_character = nullptr;  // by code point (UTF-8) or by byte
  uint64_t held = 0;                               // by_character's entries
  bool utf8 = false;
};

// The next character of text[at, len) in UTF-8: its code point, or ~0
// where the bytes are not a character the table could hold; its length in
// *bytes.
GSORT_HD uint32_t next_utf8_character(const uint8_t* text, uint64_t at, uint64_t len, int* bytes) {
  const uint8_t b = text[at];
  *bytes = 1;
  if (b < 0x80) return b;
  if (b >= 0xC2 && b < 0xE0 && at + 1 < len && (text[at + 1] & 0xC0) == 0x80) {
    *bytes = 2;
    return (uint32_t{b} & 0x1F) << 6 | (text[at + 1] & 0x3F);
  }
  if (b >= 0xE0 && b < 0xF0 && at + 2 < len && (text[at + 1] & 0xC0) == 0x80 && (text[at + 2] & 0xC0) == 0x80) {
    const uint32_t c = (uint32_t{b} & 0x0F) << 12 | (uint32_t{text[at + 1]} & 0x3F) << 6 | (text[at + 2] & 0x3F);
    if (c >= 0x800 && (c < 0xD800 || c > 0xDFFF)) {  // not overlong, not a surrogate
      *bytes = 3;
      return c;
    }
  }
  return ~uint32_t{0};
}

// The first `cap` bytes (at most 256) of the first level of the image of
// the text's first segment (up to a NUL) into out, their count in
// *written; false where the table cannot say them: a character it does not
// hold comes before the head is made and two characters past it (it may
// combine with the one or two before it).
GSORT_HD bool table_head(const HeadTable& t, const uint8_t* text, uint64_t len, uint8_t* out, uint64_t cap,
                         uint64_t* written) {
  uint64_t n = 0, before_last = 0, before_that = 0;
  uint8_t image[256 + sizeof(CharacterWeights)];  // (each character's 8 bytes copied whole: a few past n)
  const CharacterWeights outside;                 // (not held)
  for (uint64_t at = 0; at < len;) {
    const CharacterWeights* w;
    if (text[at] < 0x80) {
      w = &t.ascii[text[at]];
      at += 1;
    } else {
      int bytes = 1;
      const uint32_t c = t.utf8 ? next_utf8_character(text, at, len, &bytes) : text[at];
      w = c < t.held ? &t.by_character[c] : &outside;
      at += static_cast<uint64_t>(bytes);
    }
    if (w->length >= CharacterWeights::kSegmentEnd) {
      if (w->length == CharacterWeights::kSegmentEnd) break;  // a NUL ends the text's first segment
      if (before_that < cap) return false;
      memcpy(out, image, cap);
      *written = cap;
      return true;
    }
    before_that = before_last;
    before_last = n;
    if (n + w->length > 256) break;  // far past the head: enough
    // 8 bytes, the count's too: one move (a loop of bytes was compiled as
    // 8 loads and shifts, 60% of the host's heads).
    memcpy(image + n, w, sizeof(CharacterWeights));
    n += w->length;
    if (before_that >= cap) break;  // the head, and two characters past it
  }
  // The whole text (exact), or enough of it.
  *written = n < cap ? n : cap;
  memcpy(out, image, *written);
  return true;
}

}  // namespace gsort
