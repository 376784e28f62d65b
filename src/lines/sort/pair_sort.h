// Sorting (word, line index) pairs by word on all threads, stably: the
// radix step of the line sort (Deshpande and Narayanan's prefix sort).
// Small arrays, or one thread, go to the CPU backend's radix sort
// (src/chunk_sort/cpu/radix_sort.h). Larger ones are split on their
// highest byte that varies (a common prefix such as a date costs nothing)
// into 256 buckets, each then sorted by one thread; when one bucket would
// hold over half of the pairs, a parallel LSD radix sort over the bytes
// that vary does the whole array instead.
#pragma once

#include <cstddef>
#include <vector>

#include "src/chunk_sort/entries/key_entry.h"
#include "src/core/thread_pool.h"

namespace gsort {

// Sorts e[0, n) by prefix, stably; tmp holds n entries of scratch. The
// result is in e.
void sort_pairs(ThreadPool& pool, KeyEntry* e, KeyEntry* tmp, size_t n);

// The first step of a parallel MSD sort: e[0, n) scattered stably into tmp
// by a digit of at most `bits` bits, the highest bits in which the
// prefixes differ (taken in order from the top, skipping bits where every
// prefix agrees: the digit orders as the prefix does). Bucket b is
// tmp[starts[b], starts[b + 1]). Returns false, moving nothing, when every
// prefix is the same.
bool scatter_by_top_bits(ThreadPool& pool, const KeyEntry* e, KeyEntry* tmp, size_t n, int bits,
                         std::vector<size_t>& starts);

}  // namespace gsort
