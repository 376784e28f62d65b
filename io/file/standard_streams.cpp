#include "io/file/standard_streams.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace gsort {
namespace {

// Opens /dev/null on fd if fd is closed; true when it was.
bool fill_if_closed(int fd, int flags) {
  if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) return false;
  const int got = ::open("/dev/null", flags);  // the lowest free number: fd itself
  if (got >= 0 && got != fd) {
    ::dup2(got, fd);
    ::close(got);
  }
  return true;
}

}  // namespace

StandardStreams guard_standard_streams() {
  StandardStreams s;
  s.stdin_was_closed = fill_if_closed(0, O_RDONLY);
  s.stdout_was_closed = fill_if_closed(1, O_WRONLY);
  s.stderr_was_closed = fill_if_closed(2, O_WRONLY);
  s.stdout_is_terminal = ::isatty(1) == 1;
  return s;
}

}  // namespace gsort
