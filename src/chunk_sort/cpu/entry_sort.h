// Sorting one range of KeyEntry (prefix, index) of a chunk by the whole
// key: LSD radix on the prefix, then each run of equal prefixes by the rest
// of the key (stable: equal keys keep their index order).
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/chunk_sort/entries/key_entry.h"
#include "src/keys/key_layout.h"

namespace gsort {

// Sorts e[0..n), whose indexes point into `records`, in place; tmp holds n
// entries of scratch.
void sort_entries(const KeyLayout& layout, const uint8_t* records, KeyEntry* e, KeyEntry* tmp, size_t n);

}  // namespace gsort
