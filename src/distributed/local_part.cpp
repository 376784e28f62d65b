#include "src/distributed/local_part.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "io/file.h"
#include "io/new_file_mode.h"
#include "io/temp_registry.h"
#include "src/core/errors.h"

namespace gsort {

LocalPart::LocalPart(const std::string& directory, const std::string& stem) {
  const std::string templ = directory + "/." + stem + ".XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  const TempCreation creating;
  const int fd = ::mkstemp(buf.data());
  if (fd < 0) throw IoError("cannot create a part file in " + describe_errno(directory, errno));
  path_ = buf.data();
  slot_ = register_temp_path(path_, false);
  // mkstemp makes the file 0600; a part put in place gets a new file's mode.
  const int rc = ::fchmod(fd, new_file_mode());
  ::close(fd);
  if (rc != 0) throw IoError("cannot set mode of " + describe_errno(path_, errno));
}

LocalPart::~LocalPart() {
  if (slot_ < 0) return;
  ::unlink(path_.c_str());
  unregister_temp_path(slot_);
}

void LocalPart::put_in_place(const std::string& destination) {
  if (::rename(path_.c_str(), destination.c_str()) != 0) {
    throw IoError("cannot rename the part into place: " + describe_errno(destination, errno));
  }
  unregister_temp_path(slot_);
  slot_ = -1;
}

}  // namespace gsort
