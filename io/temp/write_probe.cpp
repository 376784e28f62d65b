#include "io/temp/write_probe.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace gsort {
namespace {

constexpr size_t kWriteBytes = 1 << 20;  // one write
constexpr size_t kAlign = 4096;          // O_DIRECT: buffer, offset and length aligned

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// Writes `bytes` at offset 0 in 1 MiB pieces; false with errno on failure.
bool write_pieces(int fd, const uint8_t* piece, uint64_t bytes) {
  for (uint64_t off = 0; off < bytes; off += kWriteBytes) {
    const ssize_t n = ::pwrite(fd, piece, kWriteBytes, static_cast<off_t>(off));
    if (n < 0 && errno == EINTR) {
      off -= kWriteBytes;
      continue;
    }
    if (n != static_cast<ssize_t>(kWriteBytes)) {
      if (n >= 0) errno = EIO;
      return false;
    }
  }
  return true;
}

}  // namespace

bool directory_in_memory(const std::string& dir) {
  struct statfs s;
  if (::statfs(dir.c_str(), &s) != 0) return false;
  return s.f_type == TMPFS_MAGIC || s.f_type == RAMFS_MAGIC;
}

WriteSpeed measure_write_speed(File& file, uint64_t bytes) {
  WriteSpeed speed;
  bytes = std::max<uint64_t>(kWriteBytes, bytes / kWriteBytes * kWriteBytes);
  void* raw = nullptr;
  if (::posix_memalign(&raw, kAlign, kWriteBytes) != 0) {
    speed.how = "no memory for the probe";
    return speed;
  }
  const std::unique_ptr<void, FreeDeleter> owned(raw);
  // Not zeros, which a device or file system might not store as written.
  auto* piece = static_cast<uint8_t*>(raw);
  for (size_t i = 0; i < kWriteBytes; ++i) piece[i] = static_cast<uint8_t>(i * 131 + (i >> 12));
  const int fd = file.fd();
  const int flags = ::fcntl(fd, F_GETFL);
  const bool direct = flags >= 0 && ::fcntl(fd, F_SETFL, flags | O_DIRECT) == 0;
  const auto start = std::chrono::steady_clock::now();
  bool ok = write_pieces(fd, piece, bytes);
  if (ok && !direct) ok = ::fdatasync(fd) == 0;
  const int err = errno;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (direct) (void)::fcntl(fd, F_SETFL, flags);
  // Its blocks go back now; the file itself when it is closed.
  (void)::ftruncate(fd, 0);
  const std::string size = std::to_string(bytes >> 20) + " MiB";
  if (!ok) {
    speed.how = std::string("the probe's write failed: ") + std::strerror(err);
    return speed;
  }
  speed.measured = true;
  speed.bytes_per_s = seconds > 0 ? static_cast<double>(bytes) / seconds : 0;
  speed.how = (direct ? "O_DIRECT, " : "fdatasync, ") + size;
  return speed;
}

}  // namespace gsort
