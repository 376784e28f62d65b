#include "io/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "src/core/errors.h"
#include "io/temp_registry.h"

namespace gsort {

std::string describe_errno(const std::string& path, int err) {
  const std::string name = path == "-" ? "standard stream" : path;
  if (err == ENOSPC) return name + ": no space left on device";
  return name + ": " + std::strerror(err);
}

File::~File() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

File File::open_read(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError("cannot open " + describe_errno(path, errno));
  File f(fd, path, true);
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) throw IoError("cannot read " + path + ": Is a directory");
  return f;
}

File File::open_update(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) throw IoError("cannot open " + describe_errno(path, errno));
  return File(fd, path, true);
}

File File::create(const std::string& path) {
  const TempCreation creating;  // File::create makes temporary files only: run files
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw IoError("cannot create " + describe_errno(path, errno));
  return File(fd, path, true);
}

std::string File::display_name() const { return path_ == "-" ? "standard input" : path_; }

void File::fail(const char* what) const {
  const int err = errno;
  throw IoError(std::string(what) + " " + describe_errno(path_ == "-" ? display_name() : path_, err));
}

size_t File::read_full(void* buf, size_t n) {
  auto* p = static_cast<uint8_t*>(buf);
  size_t done = 0;
  while (done < n) {
    const size_t want = n - done < (size_t{1} << 30) ? n - done : (size_t{1} << 30);
    const ssize_t got = ::read(fd_, p + done, want);
    if (got < 0) {
      if (errno == EINTR) continue;
      fail("cannot read");
    }
    if (got == 0) break;
    done += static_cast<size_t>(got);
  }
  return done;
}

size_t File::pread_full(void* buf, size_t n, uint64_t offset) {
  auto* p = static_cast<uint8_t*>(buf);
  size_t done = 0;
  while (done < n) {
    const size_t want = n - done < (size_t{1} << 30) ? n - done : (size_t{1} << 30);
    const ssize_t got = ::pread(fd_, p + done, want, static_cast<off_t>(offset + done));
    if (got < 0) {
      if (errno == EINTR) continue;
      fail("cannot read");
    }
    if (got == 0) break;
    done += static_cast<size_t>(got);
  }
  return done;
}

void File::write_all(const void* buf, size_t n) {
  const auto* p = static_cast<const uint8_t*>(buf);
  size_t done = 0;
  while (done < n) {
    const size_t want = n - done < (size_t{1} << 30) ? n - done : (size_t{1} << 30);
    const ssize_t put = ::write(fd_, p + done, want);
    if (put < 0) {
      if (errno == EINTR) continue;
      fail("cannot write");
    }
    done += static_cast<size_t>(put);
  }
}

void File::pwrite_all(const void* buf, size_t n, uint64_t offset) {
  const auto* p = static_cast<const uint8_t*>(buf);
  size_t done = 0;
  while (done < n) {
    const ssize_t put = ::pwrite(fd_, p + done, n - done, static_cast<off_t>(offset + done));
    if (put < 0) {
      if (errno == EINTR) continue;
      fail("cannot write");
    }
    done += static_cast<size_t>(put);
  }
}

bool File::is_regular() const {
  struct stat st;
  return ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
}

uint64_t File::size() const {
  struct stat st;
  if (::fstat(fd_, &st) != 0) fail("cannot stat");
  return static_cast<uint64_t>(st.st_size);
}

void File::advise_sequential() const {
#ifdef POSIX_FADV_SEQUENTIAL
  (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
}

bool File::punch_hole(uint64_t offset, uint64_t n) const {
  if (n == 0) return true;
  return ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                     static_cast<off_t>(n)) == 0;
}

void File::close() {
  if (fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  if (owned_ && ::close(fd) != 0 && errno != EINTR) {
    throw IoError("cannot close " + describe_errno(path_, errno));
  }
}

}  // namespace gsort
