#include "io/temp_dir.h"

#include <dirent.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "src/core/errors.h"
#include "io/file.h"
#include "io/temp_registry.h"

namespace gsort {

TempDir::TempDir(const std::string& base) {
  std::string templ = (base.empty() ? std::string("/tmp") : base);
  if (templ.back() != '/') templ += '/';
  templ += "gsort.XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  const TempCreation creating;
  if (::mkdtemp(buf.data()) == nullptr) {
    throw IoError("cannot create a temporary directory in " + describe_errno(base, errno));
  }
  path_ = buf.data();
  slot_ = register_temp_path(path_, true);
}

TempDir::~TempDir() {
  // Remove whatever is left (files of a failed run), then the directory.
  if (DIR* d = ::opendir(path_.c_str())) {
    while (dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      ::unlink((path_ + "/" + name).c_str());
    }
    ::closedir(d);
  }
  ::rmdir(path_.c_str());
  unregister_temp_path(slot_);
}

std::string TempDir::new_file(const std::string& stem, int* slot) {
  std::string p = path_ + "/" + stem + "." + std::to_string(next_id_++);
  *slot = register_temp_path(p, false);
  return p;
}

void TempDir::remove(const std::string& path, int slot) {
  ::unlink(path.c_str());
  unregister_temp_path(slot);
}

}  // namespace gsort
