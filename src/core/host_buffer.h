// A large host allocation with a pluggable release function, so that a GPU
// backend can hand out pinned (page-locked) memory through the same type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <new>
#include <string>

namespace gsort {

class ThreadPool;

// A host allocation that failed, and how large it was: main's message
// names the size (a bad_alloc, as any failed allocation is).
class HostOutOfMemory : public std::bad_alloc {
 public:
  explicit HostOutOfMemory(size_t bytes)
      : bytes_(bytes), what_("cannot allocate " + std::to_string(bytes) + " bytes of memory") {}
  const char* what() const noexcept override { return what_.c_str(); }
  size_t bytes() const { return bytes_; }

 private:
  size_t bytes_;
  std::string what_;
};

// Faults in every page of fresh memory [p, p + bytes) by writing a zero to
// it, one range per pool thread: first-touch faults of a multi-GB buffer
// cost less spread over all cores than taken one by one while it is read
// or pinned. Only for memory that holds nothing yet.
void fault_in_pages(uint8_t* p, size_t bytes, ThreadPool& pool);

// Makes the pages of [p, p + bytes) present and writable without changing a
// byte (MADV_POPULATE_WRITE), for memory that another thread may be filling.
// Where the kernel lacks it (before Linux 5.14) nothing happens: the pages
// fault in when first written.
void populate_for_write(uint8_t* p, size_t bytes);

// Drops the page-table entries of the whole pages inside [p, p + bytes) of
// a shared file mapping whose bytes are all written (MADV_DONTNEED): they
// stay in the page cache, dirty, and the unmap at the end has that much
// less to clear, here, on the thread that wrote them, beside the others.
void drop_written_pages(uint8_t* p, size_t bytes);

// Makes the pages of a mapping [p, p + bytes) present, for reading or for
// writing (MADV_POPULATE_READ / _WRITE), in 64 MiB pieces on the pool's
// threads. False where any piece failed (an I/O error, no memory) or the
// kernel lacks it (before Linux 5.14); the pages then fault in when touched.
enum class PopulateFor { kRead, kWrite };
bool populate_on_pool(uint8_t* p, size_t bytes, PopulateFor use, ThreadPool& pool);

// Copies n bytes with the pool's threads (a large memcpy is bandwidth-bound
// per thread).
void parallel_copy(ThreadPool& pool, uint8_t* to, const uint8_t* from, uint64_t n);

class HostBuffer {
 public:
  using Release = std::function<void(void*)>;

  HostBuffer() = default;
  HostBuffer(void* data, size_t size, Release release)
      : data_(static_cast<uint8_t*>(data)), size_(size), release_(std::move(release)) {}
  HostBuffer(HostBuffer&& other) noexcept { swap(other); }
  HostBuffer& operator=(HostBuffer&& other) noexcept {
    HostBuffer tmp(std::move(other));
    swap(tmp);
    return *this;
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer() {
    if (data_ && release_) release_(data_);
  }

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  explicit operator bool() const { return data_ != nullptr; }

  // Ordinary pageable memory, page aligned (throws std::bad_alloc).
  static HostBuffer allocate_pageable(size_t size);
  // For a large allocate_pageable buffer, whether the pages it has not
  // touched yet come as transparent huge pages (the default): right for
  // memory filled from end to end, wrong for memory touched here and there,
  // where each first touch would zero 2 MiB. A hint; smaller buffers ignore it.
  void advise_huge_pages(bool want) const;

 private:
  void swap(HostBuffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(release_, o.release_);
  }
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  Release release_;
};

}  // namespace gsort
