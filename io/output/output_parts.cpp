#include "io/output/output_parts.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "io/file/file.h"
#include "src/core/errors.h"

namespace gsort {

std::string part_file_name(const std::string& directory, int index) {
  char name[32];
  std::snprintf(name, sizeof name, "part-%05d", index);
  return directory + "/" + name;
}

void make_output_directory(const std::string& directory) {
  if (::mkdir(directory.c_str(), 0777) == 0) return;
  const int err = errno;
  struct stat st;
  if (err == EEXIST && ::stat(directory.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  if (err == EEXIST) throw IoError("--output-parts: " + directory + " exists and is not a directory");
  throw IoError("cannot create the output directory " + describe_errno(directory, err));
}

void remove_parts_from(const std::string& directory, int first) {
  for (int i = first;; ++i) {
    const std::string name = part_file_name(directory, i);
    if (::unlink(name.c_str()) != 0) {
      if (errno == ENOENT) return;
      throw IoError("cannot remove the stale part " + describe_errno(name, errno));
    }
  }
}

std::string prepare_single_part(const std::string& directory) {
  make_output_directory(directory);
  remove_parts_from(directory, 1);
  return part_file_name(directory, 0);
}

}  // namespace gsort
