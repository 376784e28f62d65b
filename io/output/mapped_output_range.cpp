#include "io/output/mapped_output_range.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "io/file/file.h"
#include "io/temp/temp_registry.h"
#include "src/core/errors.h"
#include "src/core/host_buffer.h"

namespace gsort {

bool MappedOutputRange::reserve(int fd, const std::string& path, uint64_t offset, uint64_t bytes) {
  if (::fallocate(fd, 0, static_cast<off_t>(offset), static_cast<off_t>(bytes)) == 0) return true;
  const int err = errno;
  if (err == EOPNOTSUPP || err == ENOSYS) return false;
  throw IoError("cannot write output: " + describe_errno(path, err));
}

std::unique_ptr<MappedOutputRange> MappedOutputRange::map_only(const std::string& path, int fd, bool owns_fd,
                                                               uint64_t offset, uint64_t bytes) {
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t start = offset / page * page;
  const size_t length = static_cast<size_t>(offset + bytes - start);
  void* base = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(start));
  if (base == MAP_FAILED) {
    if (owns_fd) ::close(fd);
    return nullptr;
  }
  int guard = -1;
  try {
    guard = register_mapped_output(base, length);
  } catch (...) {
    ::munmap(base, length);
    if (owns_fd) ::close(fd);
    throw;
  }
  return std::unique_ptr<MappedOutputRange>(new MappedOutputRange(
      path, fd, owns_fd, base, length, static_cast<uint8_t*>(base) + (offset - start), bytes, guard));
}

std::unique_ptr<MappedOutputRange> MappedOutputRange::reserve_and_map(const std::string& path, int fd, bool owns_fd,
                                                                      uint64_t offset, uint64_t bytes) {
  bool reserved = false;
  try {
    reserved = reserve(fd, path, offset, bytes);
  } catch (...) {
    if (owns_fd) ::close(fd);
    throw;
  }
  if (!reserved) {
    if (owns_fd) ::close(fd);
    return nullptr;
  }
  return map_only(path, fd, owns_fd, offset, bytes);
}

std::unique_ptr<MappedOutputRange> MappedOutputRange::map(const std::string& path, uint64_t offset, uint64_t bytes,
                                                          ThreadPool& pool) {
  if (bytes == 0) return nullptr;
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) throw IoError("cannot open output for writing: " + describe_errno(path, errno));
  std::unique_ptr<MappedOutputRange> range = reserve_and_map(path, fd, true, offset, bytes);
  // Every page present and writable before a byte is copied, on all
  // threads; any failure (an old kernel, no memory) falls back.
  if (range && !populate_on_pool(static_cast<uint8_t*>(range->base_), range->length_, PopulateFor::kWrite, pool)) {
    return nullptr;
  }
  return range;
}

std::unique_ptr<MappedOutputRange> MappedOutputRange::map(const File& file, uint64_t offset, uint64_t bytes) {
  if (bytes == 0) return nullptr;
  return reserve_and_map(file.display_name(), file.fd(), false, offset, bytes);
}

std::unique_ptr<MappedOutputRange> MappedOutputRange::map_growing(const File& file, uint64_t capacity) {
  if (capacity == 0) return nullptr;
  // A file system that cannot reserve cannot grow the range safely: refused
  // up front, with nothing mapped.
  if (!reserve(file.fd(), file.display_name(), 0, std::min<uint64_t>(capacity, kFirstGrowthBytes))) return nullptr;
  std::unique_ptr<MappedOutputRange> range = map_only(file.display_name(), file.fd(), false, 0, capacity);
  if (range) range->reserved_ = std::min<uint64_t>(capacity, kFirstGrowthBytes);
  return range;
}

void MappedOutputRange::grow_to(uint64_t bytes) {
  if (bytes <= reserved_) return;
  if (bytes > bytes_) throw Error("internal error: the output outgrew the range mapped for it");
  reserve(fd_, path_, reserved_, bytes - reserved_);
  reserved_ = bytes;
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
      reserved_(bytes),
      guard_(guard) {}

MappedOutputRange::~MappedOutputRange() { release(); }

void MappedOutputRange::finish(bool fsync) {
  if (fsync && (::msync(base_, length_, MS_SYNC) != 0 || (::fdatasync(fd_) != 0 && errno != EINVAL))) {
    const int err = errno;
    release();
    throw IoError("cannot flush output to disk: " + describe_errno(path_, err));
  }
  const int fd = fd_;
  const bool owned = owns_fd_;
  fd_ = -1;
  release();
  if (owned && fd >= 0 && ::close(fd) != 0) throw IoError("cannot write output: " + describe_errno(path_, errno));
}

void MappedOutputRange::release() noexcept {
  if (base_) {
    unregister_mapped_input(guard_);
    ::munmap(base_, length_);
    base_ = nullptr;
  }
  if (fd_ >= 0 && owns_fd_) ::close(fd_);
  fd_ = -1;
}

}  // namespace gsort
