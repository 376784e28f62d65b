// How much of a range is in memory (mincore): for tests of code that faults
// pages in ahead of use, or drops a file's pages from the page cache.
#pragma once

#include <cstdint>

namespace gsort_test {

// Pages of the mapping [p, p + bytes) that are resident. A failed mincore
// fails the calling test.
uint64_t resident_pages(const void* p, uint64_t bytes);

// Pages of [offset, offset + bytes) of the open file fd (readable; offset
// page aligned) that are in the page cache. A failed mapping fails the test.
uint64_t cached_file_pages(int fd, uint64_t offset, uint64_t bytes);

}  // namespace gsort_test
