#include "src/core/host_buffer.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "src/core/thread_pool.h"

namespace gsort {
namespace {

constexpr size_t kHugeThreshold = size_t{32} << 20;
constexpr size_t kHugePage = size_t{2} << 20;

constexpr size_t kPageBytes = 4096;
constexpr size_t kSmallPages = 4096;  // up to 16 MiB: one task, not worth handing out

}  // namespace

void fault_in_pages(uint8_t* p, size_t bytes, ThreadPool& pool) {
  const size_t pages = (bytes + kPageBytes - 1) / kPageBytes;
  const size_t tasks = pages < kSmallPages ? 1 : pool.size();
  pool.parallel_for(tasks, [&](size_t t) {
    for (size_t page = split_point(pages, tasks, t), end = split_point(pages, tasks, t + 1); page < end; ++page) {
      p[page * kPageBytes] = 0;
    }
  });
}

void populate_for_write(uint8_t* p, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  const uintptr_t begin = reinterpret_cast<uintptr_t>(p) / kPageBytes * kPageBytes;
  const uintptr_t end = reinterpret_cast<uintptr_t>(p) + bytes;
  (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}

void drop_written_pages(uint8_t* p, size_t bytes) {
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kPageBytes - 1) / kPageBytes * kPageBytes;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) / kPageBytes * kPageBytes;
  if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

bool populate_on_pool(uint8_t* p, size_t bytes, PopulateFor use, ThreadPool& pool) {
#if defined(MADV_POPULATE_READ) && defined(MADV_POPULATE_WRITE)
  constexpr size_t kPiece = size_t{64} << 20;  // a multiple of any page size
  const int advice = use == PopulateFor::kRead ? MADV_POPULATE_READ : MADV_POPULATE_WRITE;
  std::atomic<bool> all{true};
  pool.parallel_for((bytes + kPiece - 1) / kPiece, [&](size_t i) {
    const size_t at = i * kPiece;
    if (::madvise(p + at, std::min(kPiece, bytes - at), advice) != 0) all = false;
  });
  return all;
#else
  (void)p, (void)bytes, (void)use, (void)pool;
  return false;
#endif
}

void parallel_copy(ThreadPool& pool, uint8_t* to, const uint8_t* from, uint64_t n) {
  const uint64_t tasks = std::max<uint64_t>(1, std::min<uint64_t>(pool.balanced_task_count(), n >> 20));
  pool.parallel_for(tasks, [&](uint64_t t) {
    const uint64_t begin = n * t / tasks, end = n * (t + 1) / tasks;
    std::memcpy(to + begin, from + begin, end - begin);
  });
}

void HostBuffer::advise_huge_pages(bool want) const {
  if (!data_ || size_ < kHugeThreshold) return;
  const size_t rounded = (size_ + kHugePage - 1) / kHugePage * kHugePage;
  (void)::madvise(data_, rounded, want ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
}

HostBuffer HostBuffer::allocate_pageable(size_t size) {
  if (size >= kHugeThreshold) {
    // Large buffers come straight from mmap, asking for transparent huge
    // pages: first-touch page faults on a multi-GB chunk otherwise cost as
    // much as reading it.
    const size_t rounded = (size + kHugePage - 1) / kHugePage * kHugePage;
    void* p = ::mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw HostOutOfMemory(size);
    (void)::madvise(p, rounded, MADV_HUGEPAGE);  // a hint; harmless where THP is off
    return HostBuffer(p, size, [rounded](void* q) { ::munmap(q, rounded); });
  }
  constexpr size_t kAlign = 4096;
  const size_t rounded = (size + kAlign - 1) / kAlign * kAlign;
  void* p = std::aligned_alloc(kAlign, rounded == 0 ? kAlign : rounded);
  if (!p) throw HostOutOfMemory(size);
  return HostBuffer(p, size, [](void* q) { std::free(q); });
}

}  // namespace gsort
