// Entries (a line's index in .index) sorted stably by the full comparison
// of their lines, where the image cannot order them: on one thread, or,
// for large arrays, in pieces on the pool's threads merged in pairs, each
// merge in parts on all threads.
#pragma once

#include <cstdint>

#include "src/algo/line_index.h"
#include "src/chunk_sort/entries/key_entry.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"

namespace gsort {

// Sorts e[0, n) (tmp: n entries of scratch); pool null: on this thread.
void sort_by_comparison(ThreadPool* pool, const LineComparator& compare, const LineSpan& lines, KeyEntry* e,
                        KeyEntry* tmp, uint64_t n);

}  // namespace gsort
