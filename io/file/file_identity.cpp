#include "io/file/file_identity.h"

#include <sys/stat.h>

#include <cerrno>

#include "io/file/file.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

int64_t nanoseconds(const struct timespec& t) { return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec; }

}  // namespace

FileIdentity FileIdentity::of(int fd, const std::string& name) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw IoError("cannot examine " + describe_errno(name, errno));
  FileIdentity id;
  id.device = st.st_dev;
  id.inode = st.st_ino;
  id.size = static_cast<uint64_t>(st.st_size);
  id.modified_ns = nanoseconds(st.st_mtim);
  id.changed_ns = nanoseconds(st.st_ctim);
  return id;
}

}  // namespace gsort
