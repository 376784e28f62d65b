// Where a GNU sort key starts and ends in one line (its bytes without the
// terminator), as GNU sort's begfield and limfield find them. Shared by
// the host and the GPU.
//
// Blanks are space, tab and newline (a newline is inside a line only with
// -z). Without -t a field is a run of blanks then a run of non-blanks, so
// it includes its leading blanks; with -t it ends at the separator.
#pragma once

#include <cstdint>

#include "src/cuda/host_device.h"
#include "src/keys/line_key.h"

namespace gsort {

GSORT_HD bool is_line_blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\n'; }

// 'f': a-z as A-Z (the C locale's toupper).
GSORT_HD uint8_t fold_upper(uint8_t c) { return (c >= 'a' && c <= 'z') ? static_cast<uint8_t>(c - 32) : c; }

// Offset of the first byte at or after `at` that is not blank (or len).
GSORT_HD uint64_t skip_line_blanks(const uint8_t* line, uint64_t len, uint64_t at) {
  while (at < len && is_line_blank(line[at])) ++at;
  return at;
}

// Moves past one field from `at`: with a separator, to the separator
// (not past it); without, past the blanks and then the non-blanks.
GSORT_HD uint64_t skip_line_field(const uint8_t* line, uint64_t len, uint64_t at, int separator) {
  if (separator != kBlankSeparated) {
    const uint8_t sep = static_cast<uint8_t>(separator);
    while (at < len && line[at] != sep) ++at;
    return at;
  }
  at = skip_line_blanks(line, len, at);
  while (at < len && !is_line_blank(line[at])) ++at;
  return at;
}

// at + n, but no further than len (n may be huge).
GSORT_HD uint64_t advance_within(uint64_t at, uint64_t n, uint64_t len) { return n >= len - at ? len : at + n; }

// Where the key starts (GNU's begfield).
GSORT_HD uint64_t line_key_start(const uint8_t* line, uint64_t len, const LineKey& key, int separator) {
  uint64_t at = 0;
  for (uint64_t field = key.start_field; at < len && field > 0; --field) {
    at = skip_line_field(line, len, at, separator);
    if (separator != kBlankSeparated && at < len) ++at;  // past the separator
  }
  if (key.skip_start_blanks) at = skip_line_blanks(line, len, at);
  return advance_within(at, key.start_char, len);
}

// Where the key ends (GNU's limfield); may be before its start, which
// makes the key empty.
GSORT_HD uint64_t line_key_limit(const uint8_t* line, uint64_t len, const LineKey& key, int separator) {
  if (key.end_field == kToLineEnd) return len;
  // Without a character position the whole end field is in the key.
  uint64_t fields = key.end_char == 0 ? key.end_field + 1 : key.end_field;
  uint64_t at = 0;
  while (at < len && fields > 0) {
    --fields;
    at = skip_line_field(line, len, at, separator);
    // With -t, past the separator only when a later field or a character
    // position follows.
    if (separator != kBlankSeparated && at < len && (fields > 0 || key.end_char != 0)) ++at;
  }
  if (key.end_char != 0) {
    if (key.skip_end_blanks) at = skip_line_blanks(line, len, at);
    at = advance_within(at, key.end_char, len);
  }
  return at;
}

// The key's bytes: [*begin, *end), empty when the limit is before the start.
GSORT_HD void line_key_extent(const uint8_t* line, uint64_t len, const LineKey& key, int separator, uint64_t* begin,
                              uint64_t* end) {
  const uint64_t b = line_key_start(line, len, key, separator);
  const uint64_t e = line_key_limit(line, len, key, separator);
  *begin = b;
  *end = e < b ? b : e;
}

}  // namespace gsort
