#include "src/pipeline/room_check.h"

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cstdio>

#include "src/core/errors.h"

namespace gsort {
namespace {

struct Room {
  bool known = false;
  dev_t device = 0;
  uint64_t free_bytes = 0;
};

Room room_of_fd(int fd) {
  Room r;
  struct stat st;
  struct statvfs fs;
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || ::fstatvfs(fd, &fs) != 0) return r;
  r = Room{true, st.st_dev, static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize};
  return r;
}

Room room_of_dir(const std::string& dir) {
  Room r;
  struct stat st;
  struct statvfs fs;
  if (::stat(dir.c_str(), &st) != 0 || ::statvfs(dir.c_str(), &fs) != 0) return r;
  r = Room{true, st.st_dev, static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize};
  return r;
}

// "1.0 TB (1000000000000 bytes)"
std::string amount(uint64_t bytes) {
  char buf[64];
  const double b = static_cast<double>(bytes);
  if (b >= 1e12) {
    std::snprintf(buf, sizeof buf, "%.1f TB", b / 1e12);
  } else if (b >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.1f GB", b / 1e9);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f MB", b / 1e6);
  }
  return std::string(buf) + " (" + std::to_string(bytes) + " bytes)";
}

[[noreturn]] void refuse(const std::string& what, uint64_t need, const std::string& where, uint64_t free_bytes) {
  throw IoError("not enough room: " + what + " " + amount(need) + " in " + where + ", which has " +
                amount(free_bytes) + " free (make room, give -T or -o elsewhere, or --no-space-check)");
}

}  // namespace

void check_room(const RoomNeed& need) {
  const Room out = need.output_bytes > 0 ? room_of_fd(need.output_fd) : Room{};
  const Room temp = need.run_bytes > 0 ? room_of_dir(need.temp_dir) : Room{};
  if (out.known && temp.known && out.device == temp.device) {
    const uint64_t both = std::max(need.output_bytes, need.run_bytes);
    if (both > out.free_bytes) refuse("the runs, then the output, need", both, need.temp_dir, out.free_bytes);
    return;
  }
  if (out.known && need.output_bytes > out.free_bytes) {
    refuse("the output needs", need.output_bytes, "the file system of " + need.output_name, out.free_bytes);
  }
  if (temp.known && need.run_bytes > temp.free_bytes) refuse("the runs need", need.run_bytes, need.temp_dir, temp.free_bytes);
}

}  // namespace gsort
