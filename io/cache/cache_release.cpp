#include "io/cache/cache_release.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

namespace gsort {
namespace {

uint64_t page_size() {
  static const uint64_t size = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

PageCacheSnapshot::PageCacheSnapshot(int fd, uint64_t size) : fd_(fd), size_(size) {
  if (size == 0) return;
  const size_t length = static_cast<size_t>(size);
  void* map = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd_, 0);
  if (map == MAP_FAILED) return;
  resident_.resize((size + page_size() - 1) / page_size());
  known_ = ::mincore(map, length, resident_.data()) == 0;
  ::munmap(map, length);
}

void PageCacheSnapshot::drop_new_pages(uint64_t offset, uint64_t bytes) const {
  if (!known_ || bytes == 0) return;
  const uint64_t page = page_size();
  // Whole pages only (the kernel keeps a partly covered one); runs of pages
  // that were not cached, each dropped with one call.
  const uint64_t end = std::min(offset + bytes, size_);
  size_t i = static_cast<size_t>(offset / page);
  const size_t last = static_cast<size_t>((end + page - 1) / page);
  while (i < last) {
    if (resident_[i] & 1) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < last && !(resident_[j] & 1)) ++j;
    const uint64_t from = i * page, to = std::min<uint64_t>(j * page, size_);
    (void)::posix_fadvise(fd_, static_cast<off_t>(from), static_cast<off_t>(to - from), POSIX_FADV_DONTNEED);
    i = j;
  }
}

bool PageCacheSnapshot::all_cached(uint64_t offset, uint64_t bytes) const {
  if (!known_) return false;
  const uint64_t page = page_size();
  const uint64_t end = std::min(offset + bytes, size_);
  for (size_t i = static_cast<size_t>(offset / page), last = static_cast<size_t>((end + page - 1) / page); i < last; ++i) {
    if (!(resident_[i] & 1)) return false;
  }
  return true;
}

}  // namespace gsort
