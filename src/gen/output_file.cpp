#include "src/gen/output_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "src/core/errors.h"

namespace gsort::gen {

OutputFile::OutputFile(const std::string& path) : path_(path) {
  if (path == "-") {
    path_ = "standard output";
    fd_ = STDOUT_FILENO;
    return;
  }
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail(errno);
  owns_fd_ = true;
}

OutputFile::~OutputFile() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
}

void OutputFile::write(const uint8_t* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    if (n == 0) fail(EIO);  // not expected from a regular write; avoid spinning
    data += n;
    size -= static_cast<size_t>(n);
  }
}

void OutputFile::close() {
  if (!owns_fd_ || fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && errno != EINTR) fail(errno);
}

void OutputFile::fail(int error) const { throw IoError(path_ + ": " + std::strerror(error)); }

}  // namespace gsort::gen
