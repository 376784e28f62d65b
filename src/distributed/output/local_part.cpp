#include "src/distributed/output/local_part.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "io/file/file.h"
#include "io/file/new_file_mode.h"
#include "io/output/output_temp.h"
#include "io/temp/stale_files.h"
#include "io/temp/temp_registry.h"
#include "src/core/errors.h"

namespace gsort {

LocalPart::LocalPart(const std::string& directory, const std::string& stem) {
  const std::string templ = directory + "/" + kOutputTempPrefix + process_tag() + "." + stem + ".XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  const TempCreation creating;
  const int fd = ::mkstemp(buf.data());
  if (fd < 0) throw IoError("cannot create a part file in " + describe_errno(directory, errno));
  path_ = buf.data();
  slot_ = register_temp_path(path_, false);
  ::close(fd);
  // The name is ours now; the file goes again, so that the local sort's
  // output is renamed to a free name. Renamed over an existing file, even
  // an empty one, ext4 (auto_da_alloc) starts writing the new file's data
  // back at the rename, seconds for a part of a few GB (docs/benchmarks.md).
  if (::unlink(path_.c_str()) != 0) throw IoError("cannot remove " + describe_errno(path_, errno));
}

void LocalPart::create_empty() {
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, new_file_mode());
  if (fd < 0) throw IoError("cannot create a part file: " + describe_errno(path_, errno));
  ::close(fd);
}

LocalPart::~LocalPart() {
  if (slot_ < 0) return;
  ::unlink(path_.c_str());
  unregister_temp_path(slot_);
}

void LocalPart::release() {
  unregister_temp_path(slot_);
  slot_ = -1;
}

}  // namespace gsort
