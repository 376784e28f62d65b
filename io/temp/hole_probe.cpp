#include "io/temp/hole_probe.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace gsort {

bool directory_punches_holes(const std::string& dir) {
#if defined(O_TMPFILE) && defined(FALLOC_FL_PUNCH_HOLE)
  int fd = -1;
  do {
    fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return false;
  constexpr off_t kBytes = off_t{1} << 20;
  const bool punched = ::ftruncate(fd, kBytes) == 0 &&
                       ::fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, kBytes) == 0;
  ::close(fd);
  return punched;
#else
  (void)dir;
  return false;
#endif
}

}  // namespace gsort
