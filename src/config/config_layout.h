// The key layout a SortConfig asks for: its --key fields, or the whole
// record as bytes when none was given.
#pragma once

#include "src/config/sort_config.h"
#include "src/keys/key_layout.h"

namespace gsort {

inline KeyLayout layout_of(const SortConfig& c) {
  return c.keys.empty() ? KeyLayout::whole_record(c.record_size, c.reverse)
                        : KeyLayout(c.keys, c.record_size, c.reverse);
}

}  // namespace gsort
