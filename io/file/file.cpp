#include "io/file/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "src/core/errors.h"

namespace gsort {
namespace {

constexpr size_t kMaxCallBytes = size_t{1} << 30;  // per system call

// The one short-I/O loop: `call(done, want)` moves up to `want` bytes at
// byte `done` of the transfer (a read or write system call). Short counts
// are continued and EINTR retried; a call returning 0 ends the loop
// (end of file) when `zero_ends`. Returns the bytes moved, and false in
// *ok when a call failed (errno says why).
template <typename Call>
size_t move_all(size_t n, bool zero_ends, bool* ok, Call call) {
  size_t done = 0;
  *ok = true;
  while (done < n) {
    const ssize_t got = call(done, n - done < kMaxCallBytes ? n - done : kMaxCallBytes);
    if (got < 0) {
      if (errno == EINTR) continue;
      *ok = false;
      break;
    }
    if (got == 0 && zero_ends) break;
    done += static_cast<size_t>(got);
  }
  return done;
}

}  // namespace

std::string describe_errno(const std::string& path, int err) {
  const std::string name = path == "-" ? "standard stream" : path;
  if (err == ENOSPC) return name + ": no space left on device";
  return name + ": " + std::strerror(err);
}

File::~File() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

bool same_file(int a, int b) {
  struct stat x {}, y {};
  return a >= 0 && b >= 0 && ::fstat(a, &x) == 0 && ::fstat(b, &y) == 0 && x.st_dev == y.st_dev &&
         x.st_ino == y.st_ino;
}

int descriptor_of_name(const std::string& name, int standard) {
  if (name == "-") return standard;
  static const std::string prefix = "/dev/fd/";
  if (name.size() <= prefix.size() || name.size() > prefix.size() + 9 || name.compare(0, prefix.size(), prefix) != 0) {
    return -1;
  }
  int fd = 0;
  for (size_t i = prefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    fd = fd * 10 + (name[i] - '0');
  }
  return fd;
}

File File::open_input(const std::string& name) {
  if (name == "-") return standard_input();
  const int fd = descriptor_of_name(name, 0);
  if (fd < 0) return open_read(name);
  if (::fcntl(fd, F_GETFD) < 0) throw IoError("cannot read " + describe_errno(name, errno));
  return File(fd, name, false);
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
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw IoError("cannot create " + describe_errno(path, errno));
  return File(fd, path, true);
}

void File::fail(const char* what) const {
  const int err = errno;
  throw IoError(std::string(what) + " " + describe_errno(path_, err));
}

size_t File::read_full(void* buf, size_t n) {
  if (read_ended_) return 0;
  auto* p = static_cast<uint8_t*>(buf);
  bool ok;
  const size_t done = move_all(n, true, &ok, [&](size_t at, size_t want) { return ::read(fd_, p + at, want); });
  if (!ok) fail("cannot read");
  read_ended_ = done < n;
  return done;
}

size_t File::pread_full(void* buf, size_t n, uint64_t offset) {
  auto* p = static_cast<uint8_t*>(buf);
  bool ok;
  const size_t done = move_all(n, true, &ok, [&](size_t at, size_t want) {
    return ::pread(fd_, p + at, want, static_cast<off_t>(offset + at));
  });
  if (!ok) fail("cannot read");
  return done;
}

void File::write_all(const void* buf, size_t n) {
  if (direct_) {
    direct_->append(buf, n);
    return;
  }
  const auto* p = static_cast<const uint8_t*>(buf);
  bool ok;
  move_all(n, false, &ok, [&](size_t at, size_t want) {
    const ssize_t got = ::write(fd_, p + at, want);
    if (got > 0 && written_counter_) written_counter_->fetch_add(static_cast<uint64_t>(got), std::memory_order_acq_rel);
    return got;
  });
  if (!ok) fail("cannot write");
  if (pacer_) pacer_->wrote(n);
}

bool File::write_around_cache(size_t staging_bytes) {
  if (direct_ || fd_ < 0 || !is_regular()) return direct_ != nullptr;
  direct_ = DirectWriter::open(fd_, path_, staging_bytes);
  return direct_ != nullptr;
}

void File::finish_writes() {
  if (!direct_) return;
  std::unique_ptr<DirectWriter> direct = std::move(direct_);
  direct->finish();
}

void File::pace_writeback() {
  if (!pacer_ && fd_ >= 0) pacer_ = std::make_unique<WritebackPacer>(fd_);
}

void File::pwrite_all(const void* buf, size_t n, uint64_t offset) {
  const auto* p = static_cast<const uint8_t*>(buf);
  bool ok;
  move_all(n, false, &ok, [&](size_t at, size_t want) {
    return ::pwrite(fd_, p + at, want, static_cast<off_t>(offset + at));
  });
  if (!ok) fail("cannot write");
}

bool File::is_regular() const {
  struct stat st;
  return ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
}

bool File::has_real_size() const {
  struct stat st;
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return false;
  // The pseudo file systems report sizes their files do not have: 0 for
  // most of /proc, a page for sysfs.
  struct statfs fs;
  if (::fstatfs(fd_, &fs) == 0) {
    switch (static_cast<unsigned long>(fs.f_type)) {
      case 0x9fa0:      // proc
      case 0x62656572:  // sysfs
      case 0x64626720:  // debugfs
      case 0x74726163:  // tracefs
      case 0x73636673:  // securityfs
      case 0x62656570:  // configfs
      case 0x27e0eb:    // cgroup
      case 0x63677270:  // cgroup2
      case 0xcafe4a11:  // bpf
      case 0xde5e81e4:  // efivarfs
        return false;
      default:
        break;
    }
  }
  if (st.st_size != 0) return true;
  // Empty, or a file elsewhere whose size reads 0 though it has content:
  // only a read can tell.
  char byte;
  return ::pread(fd_, &byte, 1, 0) == 0;
}

uint64_t File::size() const {
  struct stat st;
  if (::fstat(fd_, &st) != 0) fail("cannot stat");
  return static_cast<uint64_t>(st.st_size);
}

uint64_t File::position() const {
  const off_t at = ::lseek(fd_, 0, SEEK_CUR);
  return at < 0 ? 0 : static_cast<uint64_t>(at);
}

void File::enlarge_pipe() const {
  struct stat st;
  if (::fstat(fd_, &st) != 0 || !S_ISFIFO(st.st_mode)) return;
  constexpr long kMostBytes = 8l << 20;
  long bytes = 1l << 20;  // the usual pipe-max-size
  if (FILE* f = std::fopen("/proc/sys/fs/pipe-max-size", "re")) {
    if (std::fscanf(f, "%ld", &bytes) != 1) bytes = 1l << 20;
    std::fclose(f);
  }
  bytes = std::min(bytes, kMostBytes);
  // Shrinking is never wanted; a failure (EPERM above the user's limit) keeps the pipe as it is.
  if (::fcntl(fd_, F_GETPIPE_SZ) < bytes) (void)::fcntl(fd_, F_SETPIPE_SZ, static_cast<int>(bytes));
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

bool File::cut_to(uint64_t size) const { return ::ftruncate(fd_, static_cast<off_t>(size)) == 0; }

void File::flush_data_to_disk() const {
  if (::fdatasync(fd_) != 0 && errno != EINVAL) {
    throw IoError("cannot flush output to disk: " + describe_errno(path_, errno));
  }
}

void File::close() {
  if (fd_ < 0) return;
  finish_writes();
  const int fd = fd_;
  fd_ = -1;
  pacer_.reset();
  if (owned_ && ::close(fd) != 0 && errno != EINTR) {
    throw IoError("cannot close " + describe_errno(path_, errno));
  }
}

}  // namespace gsort
