#include "io/output/output_temp.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "io/temp/stale_files.h"
#include "io/temp/temp_registry.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// O_TMPFILE needs file system support, and linking it back into a
// directory needs /proc/self/fd (without CAP_DAC_READ_SEARCH).
bool unnamed_file_unsupported(int err) { return err == EOPNOTSUPP || err == EISDIR || err == EINVAL; }

// dir/.gsort-<host>-<pid>.XXXXXX with six random letters or digits: the
// maker's tag lets the next gsort remove a name a killed one left
// (io/temp/stale_files.h).
std::string random_temp_name(const std::string& dir) {
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  unsigned char bytes[6] = {};
  if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) {
    for (size_t i = 0; i < sizeof bytes; ++i) bytes[i] = static_cast<unsigned char>(::rand());
  }
  std::string name = dir + "/" + kOutputTempPrefix + process_tag() + ".";
  for (unsigned char b : bytes) name += kChars[b % (sizeof kChars - 1)];
  return name;
}

}  // namespace

OutputTemp::OutputTemp(const std::string& dir, const std::string& shown_as, const std::string& failure,
                       const std::string& failure_path, bool allow_unnamed)
    : dir_(dir), shown_as_(shown_as), failure_(failure), failure_path_(failure_path) {
  // What killed gsorts left here (a named temporary, a rank's part).
  remove_stale_files(dir, kOutputTempPrefix);
  const TempCreation creating;
  const bool have_proc = allow_unnamed && ::access("/proc/self/fd", X_OK) == 0;
  int fd = have_proc ? ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600) : -1;
  if (fd >= 0) {
    file_ = File(fd, shown_as, true);
    return;
  }
  if (have_proc && !unnamed_file_unsupported(errno)) throw IoError(failure + " " + describe_errno(failure_path, errno));
  std::string templ = dir + "/" + kOutputTempPrefix + process_tag() + ".XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  fd = ::mkstemp(buf.data());  // mode 0600
  if (fd < 0) throw IoError(failure + " " + describe_errno(failure_path, errno));
  file_ = File(fd, shown_as, true);
  set_path(buf.data());
}

OutputTemp::~OutputTemp() {
  if (!path_.empty()) {
    ::unlink(path_.c_str());
    forget_path();
  }
}

void OutputTemp::set_path(const std::string& path) {
  path_ = path;
  slot_ = register_temp_path(path, false);
}

void OutputTemp::forget_path() {
  unregister_temp_path(slot_);
  slot_ = -1;
  path_.clear();
}

bool OutputTemp::can_set_aside() const {
  struct stat st;
  return path_.empty() && file_.is_open() && ::fstat(file_.fd(), &st) == 0 && st.st_size == 0;
}

bool OutputTemp::set_aside() {
  if (!can_set_aside()) return false;
  file_.close();
  set_aside_ = true;
  return true;
}

void OutputTemp::take_back() {
  if (!set_aside_) return;
  const int fd = ::open(dir_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) throw IoError(failure_ + " " + describe_errno(failure_path_, errno));
  file_ = File(fd, shown_as_, true);
  set_aside_ = false;
}

void OutputTemp::name_and_close() {
  if (path_.empty()) {
    const std::string proc = "/proc/self/fd/" + std::to_string(file_.fd());
    for (int attempt = 0;; ++attempt) {
      const TempCreation creating;
      const std::string name = random_temp_name(dir_);
      if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
        set_path(name);
        break;
      }
      if (errno != EEXIST || attempt == 100) throw IoError("cannot name the output in " + describe_errno(dir_, errno));
    }
  }
  file_.close();  // reports a delayed write error; the destructor removes the name
}

void OutputTemp::rename_onto(const std::string& target, const std::string& role, const std::string& display) {
  if (::rename(path_.c_str(), target.c_str()) != 0) {
    throw IoError("cannot rename " + role + " into place: " + describe_errno(display, errno));
  }
  forget_path();
}

}  // namespace gsort
