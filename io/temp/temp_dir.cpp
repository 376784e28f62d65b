#include "io/temp/temp_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "io/temp/stale_temp_dirs.h"
#include "io/temp/temp_registry.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// An unnamed file in dir (O_TMPFILE); -1 where the file system cannot.
int open_unnamed(const std::string& dir) {
#ifdef O_TMPFILE
  for (;;) {
    const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != EINTR) return fd;
  }
#else
  (void)dir;
  return -1;
#endif
}

// EISDIR, EOPNOTSUPP, EINVAL: the kernel or file system has no O_TMPFILE;
// anything else (ENOSPC, EMFILE, EACCES) is an error of its own.
bool lacks_tmpfile(int err) { return err == EISDIR || err == EOPNOTSUPP || err == EINVAL; }

}  // namespace

TempDir::TempDir(const std::string& base) {
  std::string templ = (base.empty() ? std::string("/tmp") : base);
  if (templ.back() != '/') templ += '/';
  templ += "gsort." + std::to_string(::getpid()) + ".XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  const TempCreation creating;
  if (::mkdtemp(buf.data()) == nullptr) {
    throw IoError("cannot create a temporary directory in " + describe_errno(base, errno));
  }
  path_ = buf.data();
  slot_ = register_temp_path(path_, true);
  // The marker tells remove_stale_temp_dirs that gsort made this directory.
  // Registered as a file, so that the signal handler removes it before it
  // removes the directory.
  const std::string marker = path_ + "/" + kTempDirMarker;
  const int marker_fd = ::open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (marker_fd < 0) {
    const int err = errno;
    ::rmdir(path_.c_str());
    unregister_temp_path(slot_);
    throw IoError("cannot create a temporary directory in " + describe_errno(base, err));
  }
  ::close(marker_fd);
  marker_slot_ = register_temp_path(marker, false);
  // The lock says "alive" to remove_stale_temp_dirs; the kernel drops it
  // with the process, however it dies.
  lock_fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock_fd_ < 0 || ::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    if (lock_fd_ >= 0) ::close(lock_fd_);
    ::unlink(marker.c_str());
    ::rmdir(path_.c_str());
    unregister_temp_path(marker_slot_);
    unregister_temp_path(slot_);
    throw IoError("cannot lock the temporary directory " + describe_errno(path_, err));
  }
}

TempDir::~TempDir() {
  // Remove whatever is left (named files of a failed run), then the directory.
  if (DIR* d = ::opendir(path_.c_str())) {
    while (dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      ::unlink((path_ + "/" + name).c_str());
    }
    ::closedir(d);
  }
  ::rmdir(path_.c_str());
  unregister_temp_path(marker_slot_);
  unregister_temp_path(slot_);
  ::close(lock_fd_);
}

TempFile TempDir::create_file(const std::string& stem, uint64_t* number) {
  *number = next_id_++;
  const std::string name = path_ + "/" + stem + "." + std::to_string(*number);
  TempFile t;
  int fd = open_unnamed(path_);
  if (fd >= 0) {
    t.file = File(fd, name, true);
    return t;
  }
  if (!lacks_tmpfile(errno)) throw IoError("cannot create " + describe_errno(name, errno));
  // A name for an instant, registered so that a signal in between removes it.
  const TempCreation creating;
  fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw IoError("cannot create " + describe_errno(name, errno));
  t.file = File(fd, name, true);
  t.slot = register_temp_path(name, false);
  t.named = true;
  if (::unlink(name.c_str()) == 0) {
    unregister_temp_path(t.slot);
    t.slot = -1;
    t.named = false;
  }
  return t;
}

void TempDir::remove(TempFile& file) {
  if (file.named) {
    ::unlink(file.file.path().c_str());
    unregister_temp_path(file.slot);
    file.named = false;
    file.slot = -1;
  }
  file.file = File();
}

}  // namespace gsort
