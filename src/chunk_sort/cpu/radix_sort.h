// Stable LSD radix sort of KeyEntry by prefix, 8 bits a pass. One counting
// pass builds all eight digit histograms; a pass whose digit is the same for
// every entry is skipped, so narrow or low-entropy keys cost fewer passes.
#pragma once

#include <cstddef>

#include "src/chunk_sort/entries/key_entry.h"

namespace gsort {

// Sorts entries[0..n) by prefix; `scratch` holds n entries. The result is in
// `entries` (the data may move between the two buffers while sorting).
void radix_sort_entries(KeyEntry* entries, KeyEntry* scratch, size_t n);

}  // namespace gsort
