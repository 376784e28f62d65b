#include "io/file/new_file_mode.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <string>

#include "io/file/file.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

bool umask_from_proc(mode_t* mask) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.compare(0, 6, "Umask:") != 0) continue;
    try {
      *mask = static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }
  return false;
}

}  // namespace

mode_t new_file_mode() {
  mode_t mask = 0;
  if (!umask_from_proc(&mask)) {
    mask = ::umask(0);
    ::umask(mask);
  }
  return 0666 & ~mask & 0777;
}

void take_mode_and_owner(int fd, const struct stat* replaced, const std::string& display) {
  mode_t mode = replaced ? replaced->st_mode & 07777 : new_file_mode();
  if (replaced) {
    struct stat now;
    if (::fstat(fd, &now) != 0) throw IoError("cannot stat " + describe_errno(display, errno));
    bool uid_kept = now.st_uid == replaced->st_uid, gid_kept = now.st_gid == replaced->st_gid;
    if ((!uid_kept || !gid_kept) && ::fchown(fd, replaced->st_uid, replaced->st_gid) == 0) {
      uid_kept = gid_kept = true;
    } else if (!gid_kept && ::fchown(fd, static_cast<uid_t>(-1), replaced->st_gid) == 0) {
      gid_kept = true;
    }
    if (!uid_kept) mode &= ~S_ISUID;
    if (!gid_kept) mode &= ~(S_ISGID | S_IRWXG);
  }
  if (::fchmod(fd, mode) != 0) throw IoError("cannot set the mode of " + describe_errno(display, errno));
}

}  // namespace gsort
