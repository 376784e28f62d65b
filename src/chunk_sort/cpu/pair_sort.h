// Sorting (word, line index) pairs by word on all threads, stably: the
// radix step of the line sort (Deshpande and Narayanan's prefix sort).
// Two kinds of pairs: KeyEntry (a 64-bit word, src/chunk_sort/entries/
// key_entry.h), what tied segments are refined with, and WideEntry (96
// bits: a word and 32 bits of the next), what a chunk is sorted by first.
// Small arrays, or one thread, are sorted by one thread's LSD radix sort.
// Larger ones are split on their highest byte that varies (a common prefix
// such as a date costs nothing) into 256 buckets, each then sorted by one
// thread; when one bucket would hold over half of the pairs, a parallel LSD
// radix sort over the bytes that vary does the whole array instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/chunk_sort/entries/key_entry.h"
#include "src/core/thread_pool.h"

namespace gsort {

// A line and the first 96 bits it sorts by: hi, then lo.
struct WideEntry {
  uint64_t hi;
  uint32_t lo;
  uint32_t index;
};
static_assert(sizeof(WideEntry) == 16, "WideEntry is 16 bytes");

// Whether two entries have the same 96 bits (their lines tie so far).
inline bool same_bits(const WideEntry& a, const WideEntry& b) { return a.hi == b.hi && a.lo == b.lo; }

// Sorts e[0, n) by prefix, stably; tmp holds n entries of scratch. The
// result is in e.
void sort_pairs(ThreadPool& pool, KeyEntry* e, KeyEntry* tmp, size_t n);
// The same for WideEntry, by (hi, lo).
void sort_wide(ThreadPool& pool, WideEntry* e, WideEntry* tmp, size_t n);
// By (hi, lo) on this thread alone; the result is in e.
void radix_sort_wide(WideEntry* e, WideEntry* tmp, size_t n);

// The first step of a parallel MSD sort: e[0, n) scattered stably into tmp
// by a digit of at most `bits` bits, the highest bits of (hi, lo) in which
// the entries differ (taken in order from the top, skipping bits where
// every entry agrees: the digit orders as the key does). Bucket b is
// tmp[starts[b], starts[b + 1]). Returns false, moving nothing, when every
// key is the same.
bool scatter_wide_by_top_bits(ThreadPool& pool, const WideEntry* e, WideEntry* tmp, size_t n, int bits,
                              std::vector<size_t>& starts);

}  // namespace gsort
