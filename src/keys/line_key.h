// One GNU sort key over text lines (-k POS1[,POS2] with its modifiers),
// resolved: plain data, so that the GPU gets a copy as it is. Parsing is in
// src/keys/line_spec.h; where a key starts and ends in a line is
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

// Which bytes of a key take part in its comparison ('d', 'i'; GNU's
// "ignore" table: one of them, 'd' winning).
enum LineKeep : uint8_t {
  kKeepAll = 0,
  kKeepDictionary = 1,  // 'd': blanks and letters and digits (the C locale's)
  kKeepPrintable = 2,   // 'i': 0x20 to 0x7E
};

// How -n and -h read a number in the locale's LC_NUMERIC, as GNU sort
// reads it: its one-byte decimal point ('.' where the locale's is none or
// several bytes), and its one-byte thousands separator (none where the
// locale's is none or several bytes, as in C).
constexpr int kNoThousandsSeparator = -1;
struct NumberMarks {
  uint8_t decimal_point = '.';
  int thousands_separator = kNoThousandsSeparator;
};

// What a key reads from a locale whose rules are not all the C locale's
// (GNU sort's inittables, byte by byte, and its LC_NUMERIC): the upper
// case of each byte ('f', and -M's key), the bytes 'd' and 'i' keep, -M's
// month names, -g's strtold. Host only: kept for the life of the process
// (src/keys/line_locale_rules.h).
constexpr int kMonthNameBytes = 48;
struct LocaleRules {
  uint8_t upper[256];
  bool keeps[3][256];  // by LineKeep
  // -M: the locale's abbreviated month names, blanks out, in upper case,
  // sorted by their bytes as GNU's monthtab (month_count 0: C's names).
  int month_count = 0;
  uint8_t month_name[12][kMonthNameBytes];
  uint8_t month_length[12];
  uint8_t month_number[12];
  void* numeric = nullptr;  // 'g': the locale_t strtold_l reads in, where its decimal point is not '.'
};

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
  bool general = false;            // 'g': the number strtold reads, NaN and non-numbers first
  bool month = false;              // 'M': unknown < JAN < ... < DEC
  bool random = false;             // 'R': by a keyed MD5 hash of the key
  bool version = false;            // 'V': version order (GNU's filevercmp)
  uint8_t keep = kKeepAll;         // 'd' or 'i'
  bool collate = false;            // text by the locale's collation (collation.h), not bytewise
  NumberMarks marks;               // 'n' and 'h': the locale's decimal point and thousands separator
  const LocaleRules* rules = nullptr;  // 'f' 'd' 'i' 'M' 'g' in a locale whose rules are not C's; null: C's
};

// Whether the key is compared by the number it starts with ('n' or 'h').
GSORT_HD bool reads_number(const LineKey& key) { return key.numeric || key.human; }

// How a key's bytes are compared, as GNU sort chooses among the orderings
// a key may have (incompatible ones are refused before): the number
// ('n', 'h'), 'g', 'M', 'R', 'V', else the text: by the locale's
// collation outside the C locale, else the bytes themselves.
enum class LineOrder { kText, kNumber, kGeneral, kMonth, kRandom, kVersion, kCollate };
GSORT_HD LineOrder line_order(const LineKey& key) {
  if (reads_number(key)) return LineOrder::kNumber;
  if (key.general) return LineOrder::kGeneral;
  if (key.month) return LineOrder::kMonth;
  if (key.random) return LineOrder::kRandom;
  if (key.version) return LineOrder::kVersion;
  if (key.collate) return LineOrder::kCollate;
  return LineOrder::kText;
}

// Whether byte c of a key takes part in its comparison ('d', 'i').
GSORT_HD bool keeps_byte(const LineKey& key, uint8_t c) {
  if (key.rules != nullptr) return key.rules->keeps[key.keep][c];
  if (key.keep == kKeepPrintable) return c >= 0x20 && c <= 0x7E;
  if (key.keep == kKeepDictionary) {
    return c == ' ' || c == '\t' || c == '\n' || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
           (c >= 'a' && c <= 'z');
  }
  return true;
}

// What the image of a line is built from: the first key (or the whole
// line when there is none), the field separator, and whether the key is
// the whole line compared as bytes (then the image is the line itself).
constexpr int kRandomSeedBytes = 16;

class Collation;  // collation.h (host only)

struct LineImageSpec {
  LineKey key;
  int separator = kBlankSeparated;  // -t's byte, or kBlankSeparated
  uint8_t seed[kRandomSeedBytes] = {};  // 'R': the bytes hashed before each key (--random-source's first 16)
  const Collation* collation = nullptr;  // the locale's, where text is collated ('R' hashes its image too)
};

}  // namespace gsort
