#include "io/input/readable_inputs.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "io/file/file.h"
#include "src/core/errors.h"

namespace gsort {

void require_readable_inputs(const std::vector<std::string>& inputs) {
  for (const std::string& name : inputs) {
    if (name == "-") continue;
    if (const int fd = descriptor_of_name(name, 0); fd >= 0) {
      if (::fcntl(fd, F_GETFD) < 0) throw IoError("cannot read " + describe_errno(name, errno));
      continue;
    }
    if (::faccessat(AT_FDCWD, name.c_str(), R_OK, AT_EACCESS) != 0) {
      throw IoError("cannot open " + describe_errno(name, errno));
    }
  }
}

}  // namespace gsort
