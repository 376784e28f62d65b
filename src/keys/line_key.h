// One GNU sort key over text lines (-k POS1[,POS2] with its modifiers),
// resolved: plain data, so that the GPU gets a copy as it is. Parsing is in
// src/lines/line_key_spec.h; where a key starts and ends in a line is
// line_fields.h; its fixed-width image (for radix sorting) line_image.h.
//
// Positions are GNU's, zero-based: the key starts start_char bytes into
// field start_field and ends after end_char bytes of field end_field
// (end_char 0: at the end of that field; end_field kToLineEnd: at the end
// of the line).
#pragma once

#include <cstdint>

#include "src/cuda/host_device.h"

namespace gsort {

constexpr uint64_t kToLineEnd = ~uint64_t{0};
constexpr int kBlankSeparated = -1;  // no -t: fields are separated by runs of blanks

struct LineKey {
  uint64_t start_field = 0;
  uint64_t start_char = 0;
  uint64_t end_field = kToLineEnd;
  uint64_t end_char = 0;
  bool skip_start_blanks = false;  // 'b' after POS1 (or -b)
  bool skip_end_blanks = false;    // 'b' after POS2 (or -b)
  bool numeric = false;            // 'n'
  bool human = false;              // 'h': a unit (K, M, G, ...) after the number, then its value
  bool fold = false;               // 'f': lower case compares as upper case
  bool reverse = false;            // 'r'
};

// Whether the key is compared by the number it starts with ('n' or 'h').
GSORT_HD bool reads_number(const LineKey& key) { return key.numeric || key.human; }

// What the image of a line is built from: the first key (or the whole
// line when there is none), the field separator, and whether the key is
// the whole line compared as bytes (then the image is the line itself).
struct LineImageSpec {
  LineKey key;
  int separator = kBlankSeparated;  // -t's byte, or kBlankSeparated
};

}  // namespace gsort
