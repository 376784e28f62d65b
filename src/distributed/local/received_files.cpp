#include "src/distributed/local/received_files.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "src/core/errors.h"

namespace gsort {

ReceivedFiles::ReceivedFiles(const std::string& temp_base, int ranks, uint32_t record_size, uint64_t pool_bytes)
    : dir_(temp_base), record_size_(record_size), pool_bytes_(pool_bytes) {
  if (pool_bytes_ != 0) {
    // Where no memory file can be made or mapped, the pool's bytes go to -T too.
    pool_ = File(::memfd_create("gsort-received", MFD_CLOEXEC), "received lines", true);
    if (pool_.is_open()) {
      void* p = ::mmap(nullptr, pool_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, pool_.fd(), 0);
      if (p != MAP_FAILED) pool_map_ = static_cast<uint8_t*>(p);
    }
    uint64_t number = 0;
    files_.push_back(dir_.create_file("received", &number));
    return;
  }
  for (int r = 0; r < ranks; ++r) {
    uint64_t number = 0;
    files_.push_back(dir_.create_file("received", &number));
  }
}

ReceivedFiles::~ReceivedFiles() { unmap_pool(); }

void ReceivedFiles::unmap_pool() {
  if (pool_map_ != nullptr) ::munmap(pool_map_, pool_bytes_);
  pool_map_ = nullptr;
}

uint8_t* ReceivedFiles::take(uint64_t bytes) {
  const std::lock_guard<std::mutex> lock(mutex_);
  return take_locked(bytes);
}

uint8_t* ReceivedFiles::take_locked(uint64_t bytes) {
  if (pool_map_ == nullptr || bytes > pool_bytes_ - pooled_) return nullptr;
  const uint64_t end = pooled_ + bytes;
  if (end > pool_size_) {
    // Grown in steps: a page past the file's end would be a SIGBUS.
    const uint64_t size = std::min(pool_bytes_, std::max(end, pool_size_ + pool_size_ / 2 + (uint64_t{64} << 20)));
    if (::ftruncate(pool_.fd(), static_cast<off_t>(size)) != 0) return nullptr;
    pool_size_ = size;
  }
  uint8_t* at = pool_map_ + pooled_;
  pooled_ = end;
  records_ += bytes / record_size_;
  return at;
}

void ReceivedFiles::append(int source, const uint8_t* records, uint64_t count) {
  const uint64_t bytes = count * record_size_;
  if (bytes == 0) return;
  // Room in the pool is copied into outside the lock, as take()'s callers fill theirs.
  if (uint8_t* at = take(bytes)) {
    std::memcpy(at, records, bytes);
    return;
  }
  const std::lock_guard<std::mutex> lock(mutex_);  // one writer at a time at a file's end
  files_[pool_bytes_ != 0 ? 0 : static_cast<size_t>(source)].file.write_all(records, bytes);
  records_ += count;
}

void ReceivedFiles::append_bytes(int source, const uint8_t* data, uint64_t bytes) {
  if (bytes % record_size_ != 0) throw Error("internal error: a rank received part of a record");
  append(source, data, bytes / record_size_);
}

void ReceivedFiles::finish() {
  paths_.clear();
  if (pooled_ != 0) {
    unmap_pool();
    if (::ftruncate(pool_.fd(), static_cast<off_t>(pooled_)) != 0) {
      throw IoError("cannot keep received lines in memory: " + describe_errno("a memory file", errno));
    }
    paths_.push_back("/proc/self/fd/" + std::to_string(pool_.fd()));
  }
  for (const TempFile& f : files_) {
    // Pooled, the file in -T is read only where the pool overflowed.
    if (pool_bytes_ == 0 || f.file.size() != 0 || pooled_ == 0) {
      paths_.push_back("/proc/self/fd/" + std::to_string(f.file.fd()));
    }
  }
}

void ReceivedFiles::remove() {
  unmap_pool();
  for (TempFile& f : files_) dir_.remove(f);
  files_.clear();
  paths_.clear();
  pool_ = File();
}

}  // namespace gsort
