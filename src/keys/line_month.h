// -M: the month a key names, as GNU sort reads it in the C locale: after
// blanks, the first three bytes, in either case, one of JAN ... DEC (what
// follows them does not matter). Shared by the host and the GPU.
#pragma once

#include <cstdint>

#include "src/cuda/host_device.h"
#include "src/keys/line_fields.h"

namespace gsort {

// 1 to 12, or 0 when the key names no month.
GSORT_HD int line_month(const uint8_t* key, uint64_t len) {
  const uint64_t at = skip_line_blanks(key, len, 0);
  if (len - at < 3) return 0;
  const char names[] = "JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC";
  const uint8_t a = fold_upper(key[at]), b = fold_upper(key[at + 1]), c = fold_upper(key[at + 2]);
  for (int m = 0; m < 12; ++m) {
    if (a == names[3 * m] && b == names[3 * m + 1] && c == names[3 * m + 2]) return m + 1;
  }
  return 0;
}

}  // namespace gsort
