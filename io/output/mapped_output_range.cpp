#include "io/output/mapped_output_range.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "io/file/file.h"
#include "io/temp/temp_registry.h"
#include "src/core/errors.h"
#include "src/core/host_buffer.h"

namespace gsort {

std::unique_ptr<MappedOutputRange> MappedOutputRange::reserve_and_map(const std::string& path, int fd, bool owns_fd,
                                                                      uint64_t offset, uint64_t bytes, bool* no_room,
                                                                      int map_fd) {
  const auto give_up = [&] {
    if (owns_fd) ::close(fd);
  };
  if (::fallocate(fd, 0, static_cast<off_t>(offset), static_cast<off_t>(bytes)) != 0) {
    const int err = errno;
    if (no_room != nullptr && (err == ENOSPC || err == EDQUOT)) {
      // A failed reservation may keep part of what it took.
      const bool cut = ::ftruncate(fd, static_cast<off_t>(offset)) == 0;
      const int cut_err = errno;
      give_up();
      if (!cut) throw IoError("cannot write output: " + describe_errno(path, cut_err));
      *no_room = true;
      return nullptr;
    }
    give_up();
    if (err == EOPNOTSUPP || err == ENOSYS) return nullptr;
    throw IoError("cannot write output: " + describe_errno(path, err));
  }
  return map_reserved(path, fd, owns_fd, offset, bytes, bytes, map_fd);
}

std::unique_ptr<MappedOutputRange> MappedOutputRange::map_reserved(const std::string& path, int fd, bool owns_fd,
                                                                   uint64_t offset, uint64_t bytes, uint64_t map_bytes,
                                                                   int map_fd) {
  const auto give_up = [&] {
    if (owns_fd) ::close(fd);
  };
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t start = offset / page * page;
  const size_t length = static_cast<size_t>(offset + map_bytes - start);
  void* base = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, static_cast<off_t>(start));
  if (base == MAP_FAILED) {
    give_up();
    return nullptr;
  }
  int guard = -1;
  try {
    guard = register_mapped_output(base, length);
  } catch (...) {
    ::munmap(base, length);
    give_up();
    throw;
  }
  std::unique_ptr<MappedOutputRange> range(new MappedOutputRange(
      path, fd, owns_fd, base, length, static_cast<uint8_t*>(base) + (offset - start), bytes, guard));
  range->capacity_ = map_bytes;
  range->offset_ = offset;
  return range;
}

std::unique_ptr<MappedOutputRange> MappedOutputRange::map(const std::string& path, uint64_t offset, uint64_t bytes,
                                                          ThreadPool& pool) {
  if (bytes == 0) return nullptr;
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) throw IoError("cannot open output for writing: " + describe_errno(path, errno));
  std::unique_ptr<MappedOutputRange> range = reserve_and_map(path, fd, true, offset, bytes, nullptr, fd);
  // Every page present and writable before a byte is copied, on all
  // threads; any failure (an old kernel, no memory) falls back.
  if (range && !populate_on_pool(static_cast<uint8_t*>(range->base_), range->length_, PopulateFor::kWrite, pool)) {
    return nullptr;
  }
  return range;
}

namespace {

// make(map_fd) through `reopen` (the file's name, opened read-write for the
// mmap alone and closed again) where it is the same file as `file`; null
// where it cannot be opened so.
template <typename Make>
std::unique_ptr<MappedOutputRange> through_reopened(const File& file, const char* reopen, const Make& make) {
  const int map_fd = ::open(reopen, O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (map_fd < 0) return nullptr;
  std::unique_ptr<MappedOutputRange> range;
  try {
    if (same_file(map_fd, file.fd())) range = make(map_fd);
  } catch (...) {
    ::close(map_fd);
    throw;
  }
  ::close(map_fd);  // the mapping outlives the descriptor it was made through
  return range;
}

}  // namespace

std::unique_ptr<MappedOutputRange> MappedOutputRange::map(const File& file, uint64_t offset, uint64_t bytes,
                                                          bool* no_room, const char* reopen) {
  if (bytes == 0) return nullptr;
  const auto make = [&](int map_fd) {
    return reserve_and_map(file.display_name(), file.fd(), false, offset, bytes, no_room, map_fd);
  };
  return reopen == nullptr ? make(file.fd()) : through_reopened(file, reopen, make);
}

std::unique_ptr<MappedOutputRange> MappedOutputRange::map_growing(const File& file, uint64_t offset,
                                                                  uint64_t max_bytes, const char* reopen) {
  if (max_bytes == 0) return nullptr;
  const auto make = [&](int map_fd) {
    return map_reserved(file.display_name(), file.fd(), false, offset, 0, max_bytes, map_fd);
  };
  return reopen == nullptr ? make(file.fd()) : through_reopened(file, reopen, make);
}

bool MappedOutputRange::grow(uint64_t bytes) {
  if (bytes < bytes_ || bytes > capacity_) throw Error("internal error: a mapped output range grew out of bounds");
  if (bytes == bytes_) return true;
  if (::fallocate(fd_, 0, static_cast<off_t>(offset_ + bytes_), static_cast<off_t>(bytes - bytes_)) == 0) {
    bytes_ = bytes;
    return true;
  }
  const int err = errno;
  if (err != ENOSPC && err != EDQUOT && err != EOPNOTSUPP && err != ENOSYS) {
    throw IoError("cannot write output: " + describe_errno(path_, err));
  }
  return false;
}

MappedOutputRange::MappedOutputRange(std::string path, int fd, bool owns_fd, void* base, size_t length, uint8_t* data,
                                     uint64_t bytes, int guard)
    : path_(std::move(path)),
      fd_(fd),
      owns_fd_(owns_fd),
      base_(base),
      length_(length),
      data_(data),
      bytes_(bytes),
      capacity_(bytes),
      guard_(guard) {}

MappedOutputRange::~MappedOutputRange() { release(); }

void MappedOutputRange::finish(bool fsync, ThreadPool* pool) {
  if (fsync && (::msync(base_, length_, MS_SYNC) != 0 || (::fdatasync(fd_) != 0 && errno != EINVAL))) {
    const int err = errno;
    release();
    throw IoError("cannot flush output to disk: " + describe_errno(path_, err));
  }
  const int fd = fd_;
  const bool owned = owns_fd_;
  fd_ = -1;
  release(pool);
  if (owned && fd >= 0 && ::close(fd) != 0) throw IoError("cannot write output: " + describe_errno(path_, errno));
}

void MappedOutputRange::release(ThreadPool* pool) noexcept {
  if (base_) {
    unregister_mapped_input(guard_);
    constexpr size_t kPiece = size_t{256} << 20;  // a multiple of any page size
    if (pool != nullptr && length_ > kPiece) {
      try {
        uint8_t* base = static_cast<uint8_t*>(base_);
        pool->parallel_for((length_ + kPiece - 1) / kPiece, [&](size_t i) {
          ::munmap(base + i * kPiece, std::min(kPiece, length_ - i * kPiece));
        });
      } catch (...) {
        ::munmap(base_, length_);  // what is left (unmapping an unmapped page is no error)
      }
    } else {
      ::munmap(base_, length_);
    }
    base_ = nullptr;
  }
  if (fd_ >= 0 && owns_fd_) ::close(fd_);
  fd_ = -1;
}

}  // namespace gsort
