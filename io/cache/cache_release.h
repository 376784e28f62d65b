// Reading a file without keeping it in the page cache, so that a large sort
// does not push out what other programs cache: when the file is opened,
// which of its pages are cached is noted (mincore on a mapping of it);
// after a range was read, its pages that were not cached then are dropped
// (POSIX_FADV_DONTNEED), read-ahead included. Pages that were cached before
// gsort opened the file (someone else's, or a warm input's) stay.
#pragma once

#include <cstdint>
#include <vector>

namespace gsort {

class PageCacheSnapshot {
 public:
  // Notes which pages of the first `size` bytes of the file are cached.
  PageCacheSnapshot(int fd, uint64_t size);
  // Drops the pages of [offset, offset + bytes) that were not cached when
  // the snapshot was taken. Where that could not be learnt, drops nothing.
  // Never fails.
  void drop_new_pages(uint64_t offset, uint64_t bytes) const;
  // Whether every page of [offset, offset + bytes) was cached (false where
  // that could not be learnt): reading them would bring in nothing to drop.
  bool all_cached(uint64_t offset, uint64_t bytes) const;

 private:
  int fd_;
  uint64_t size_;
  bool known_ = false;
  std::vector<unsigned char> resident_;  // one byte per page, bit 0: cached
};

}  // namespace gsort
