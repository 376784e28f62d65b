#include "io/output_target.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "src/core/errors.h"
#include "io/temp_registry.h"

namespace gsort {
namespace {

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

OutputTarget::OutputTarget(const std::string& destination) : destination_(destination) {
  if (is_stdout()) {
    file_ = File::standard_output();
    file_.enlarge_pipe();  // gsort | consumer: large writes, fewer wake-ups
    return;
  }
  struct stat st;
  const bool exists = ::stat(destination.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw IoError("cannot write output " + destination + ": Is a directory");
  if (exists && !S_ISREG(st.st_mode)) {
    const int fd = ::open(destination.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw IoError("cannot open output " + describe_errno(destination, errno));
    file_ = File(fd, destination, true);
    return;
  }
  // Replace the file a symbolic link names, not the link.
  std::string target = destination;
  if (exists) {
    std::vector<char> resolved(PATH_MAX + 1);
    if (::realpath(destination.c_str(), resolved.data()) != nullptr) target = resolved.data();
  }
  target_ = target;
  const std::string dir = directory_of(target);
  std::string templ = dir + "/." + base_name(target) + ".gsort-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  {
    const TempCreation creating;
    const int fd = ::mkstemp(buf.data());
    if (fd < 0) throw IoError("cannot create output in " + describe_errno(dir, errno));
    temp_path_ = buf.data();
    file_ = File(fd, temp_path_, true);
    slot_ = register_temp_path(temp_path_, false);
  }
  // mkstemp makes the file 0600; give it the mode a new file would get.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(file_.fd(), 0666 & ~mask) != 0) throw IoError("cannot set mode of " + describe_errno(temp_path_, errno));
}

OutputTarget::~OutputTarget() {
  if (!is_direct() && !committed_) {
    ::unlink(temp_path_.c_str());
    unregister_temp_path(slot_);
  }
}

namespace {

// fsync, where the descriptor supports it (pipes and some devices do not).
void flush_to_disk(int fd, const std::string& name) {
  if (::fsync(fd) == 0 || errno == EINVAL || errno == EROFS) return;
  throw IoError("cannot flush output to disk: " + describe_errno(name, errno));
}

}  // namespace

void OutputTarget::commit(bool durable) {
  if (durable) flush_to_disk(file_.fd(), is_stdout() ? std::string("standard output") : destination_);
  if (is_stdout()) return;
  file_.close();
  if (is_direct()) {
    committed_ = true;
    return;
  }
  if (::rename(temp_path_.c_str(), target_.c_str()) != 0) {
    throw IoError("cannot rename output into place: " + describe_errno(destination_, errno));
  }
  committed_ = true;
  unregister_temp_path(slot_);
  if (durable) {
    const std::string dir = directory_of(target_);
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) throw IoError("cannot open the output's directory to flush it: " + describe_errno(dir, errno));
    const int rc = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0 && err != EINVAL) throw IoError("cannot flush output directory to disk: " + describe_errno(dir, err));
  }
}

}  // namespace gsort
