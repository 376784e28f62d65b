#include "io/output/output_parts.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <vector>

#include "io/file/file.h"
#include "io/file/extended_attributes.h"
#include "io/file/new_file_mode.h"
#include "io/output/output_temp.h"
#include "io/temp/stale_files.h"
#include "io/temp/temp_registry.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// N for "part-N" (digits only), or -1.
long part_number(const std::string& name) {
  static const std::string prefix = "part-";
  if (name.size() <= prefix.size() || name.size() > prefix.size() + 9 || name.compare(0, prefix.size(), prefix) != 0) {
    return -1;
  }
  long n = 0;
  for (size_t i = prefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    n = n * 10 + (name[i] - '0');
  }
  return n;
}

// DIR/.gsort-kept-<host>-<pid>.WHAT-part-NNNNN: a part kept aside. Never
// removed but by this process's commit: a gsort killed in the instant
// between placing and committing leaves the parts it replaced under these
// names rather than lose them (neither the signal handler nor the next
// gsort's cleaning touches them).
std::string aside_name(const std::string& directory, const char* what, const std::string& part_name) {
  return directory + "/" + kOutputTempPrefix + "kept-" + process_tag() + "." + what + "-" + part_name;
}

}  // namespace

std::string part_file_name(const std::string& directory, int index) {
  char name[32];
  std::snprintf(name, sizeof name, "part-%05d", index);
  return directory + "/" + name;
}

OutputDirectory::OutputDirectory(const std::string& directory) : path_(directory) {
  const TempCreation creating;
  if (::mkdir(directory.c_str(), 0777) == 0) {
    made_ = true;
    slot_ = register_temp_path(directory, true);  // rmdir on a signal: only while empty
    return;
  }
  const int err = errno;
  struct stat st;
  if (err == EEXIST && ::stat(directory.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  if (err == EEXIST) throw IoError("--output-parts: " + directory + " exists and is not a directory");
  throw IoError("cannot create the output directory " + describe_errno(directory, err));
}

OutputDirectory::~OutputDirectory() {
  if (slot_ < 0) return;
  unregister_temp_path(slot_);
  if (made_) ::rmdir(path_.c_str());
}

void OutputDirectory::keep() {
  if (slot_ >= 0) unregister_temp_path(slot_);
  slot_ = -1;
  made_ = false;
}

StaleParts::StaleParts(const std::string& directory, int first) {
  DIR* d = ::opendir(directory.c_str());
  if (d == nullptr) throw IoError("cannot read the output directory " + describe_errno(directory, errno));
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    if (part_number(e->d_name) >= first) names.push_back(e->d_name);
  }
  ::closedir(d);
  for (const std::string& name : names) {
    Aside a{directory + "/" + name, aside_name(directory, "stale", name)};
    if (::rename(a.part.c_str(), a.hidden.c_str()) != 0) {
      if (errno == ENOENT) continue;  // another rank of this directory took it
      const int err = errno;
      put_back();
      throw IoError("cannot remove the stale part " + describe_errno(a.part, err));
    }
    aside_.push_back(a);
  }
}

StaleParts::~StaleParts() {
  if (!committed_) put_back();
}

void StaleParts::put_back() noexcept {
  for (const Aside& a : aside_) ::rename(a.hidden.c_str(), a.part.c_str());
  aside_.clear();
}

void StaleParts::commit() {
  committed_ = true;
  for (const Aside& a : aside_) ::unlink(a.hidden.c_str());
  aside_.clear();
}

PlacedPart::PlacedPart(const std::string& staged, const std::string& directory, int index)
    : path_(part_file_name(directory, index)) {
  struct stat old {};
  const bool replaces = ::lstat(path_.c_str(), &old) == 0 && S_ISREG(old.st_mode);
  {
    const int fd = ::open(staged.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw IoError("cannot open the part " + describe_errno(staged, errno));
    try {
      take_mode_and_owner(fd, replaces ? &old : nullptr, path_);
      if (replaces) copy_extended_attributes(path_, fd, path_);
    } catch (...) {
      ::close(fd);
      throw;
    }
    ::close(fd);
  }
  if (replaces) {
    kept_ = aside_name(directory, "replaced", path_.substr(path_.rfind('/') + 1));
    ::unlink(kept_.c_str());
    if (::link(path_.c_str(), kept_.c_str()) != 0) {
      const int err = errno;
      kept_.clear();
      throw IoError("cannot keep the part it replaces: " + describe_errno(path_, err));
    }
  }
  if (::rename(staged.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    if (!kept_.empty()) ::unlink(kept_.c_str());
    kept_.clear();
    throw IoError("cannot rename the part into place: " + describe_errno(path_, err));
  }
}

PlacedPart::~PlacedPart() {
  if (committed_) return;
  // Not every part made it: ours goes, and the one it replaced comes back.
  if (kept_.empty()) {
    ::unlink(path_.c_str());
  } else {
    ::rename(kept_.c_str(), path_.c_str());
  }
}

void PlacedPart::commit() {
  committed_ = true;
  if (!kept_.empty()) ::unlink(kept_.c_str());
}

}  // namespace gsort
