// -M: the month a key names, as GNU sort reads it: after blanks, in the C
// locale the first three bytes, in either case, one of JAN ... DEC (what
// follows them does not matter); in another locale (LocaleRules), the
// key's bytes in the locale's upper case starting with one of its month
// names, found as GNU's getmonth finds it (a binary search of the sorted
// names). Shared by the host and the GPU (C's names only).
#pragma once

#include <cstdint>

#include "src/cuda/host_device.h"
#include "src/keys/line_fields.h"

namespace gsort {

// 1 to 12, or 0 when the key names no month; *name_end (if given): where
// the name ends in the key.
GSORT_HD int line_month(const uint8_t* key, uint64_t len, const LocaleRules* rules = nullptr,
                        uint64_t* name_end = nullptr) {
  const uint64_t at = skip_line_blanks(key, len, 0);
  if (rules != nullptr && rules->month_count != 0) {
    uint64_t lo = 0, hi = 12;
    do {
      const uint64_t ix = (lo + hi) / 2;
      for (uint64_t i = 0;; ++i) {
        if (i == rules->month_length[ix]) {
          if (name_end != nullptr) *name_end = at + i;
          return rules->month_number[ix];
        }
        // Past the key, sort reads its terminating NUL.
        const uint8_t k = at + i < len ? rules->upper[key[at + i]] : rules->upper[0];
        const uint8_t n = rules->month_name[ix][i];
        if (k < n) {
          hi = ix;
          break;
        }
        if (k > n) {
          lo = ix + 1;
          break;
        }
      }
    } while (lo < hi);
    return 0;
  }
  if (len - at < 3) return 0;
  const char names[] = "JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC";
  const uint8_t a = fold_upper(key[at]), b = fold_upper(key[at + 1]), c = fold_upper(key[at + 2]);
  for (int m = 0; m < 12; ++m) {
    if (a == names[3 * m] && b == names[3 * m + 1] && c == names[3 * m + 2]) {
      if (name_end != nullptr) *name_end = at + 3;
      return m + 1;
    }
  }
  return 0;
}

}  // namespace gsort
