#include "io/file/terminal.h"

#include <sys/stat.h>
#include <unistd.h>

#include "io/file/file.h"

namespace gsort {
namespace {

// A path that is the terminal tty_fd is open on: the same character
// device, or /dev/tty (the controlling terminal, which stderr's is).
bool path_is_terminal_of(const std::string& path, int tty_fd) {
  struct stat tty, st;
  if (::isatty(tty_fd) != 1 || ::fstat(tty_fd, &tty) != 0) return false;
  if (path == "/dev/tty") return true;
  return ::stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == tty.st_rdev;
}

}  // namespace

bool input_is_terminal(const std::string& name) {
  const int fd = descriptor_of_name(name, 0);
  if (fd >= 0) return ::isatty(fd) == 1;
  return path_is_terminal_of(name, 2);
}

bool output_is_terminal_of(const std::string& name, int tty_fd) {
  const int fd = descriptor_of_name(name, 1);
  if (fd < 0) return path_is_terminal_of(name, tty_fd);
  struct stat out, tty;
  return ::isatty(fd) == 1 && ::isatty(tty_fd) == 1 && ::fstat(fd, &out) == 0 && ::fstat(tty_fd, &tty) == 0 &&
         out.st_rdev == tty.st_rdev;
}

}  // namespace gsort
