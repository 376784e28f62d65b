#include "src/pipeline/room_check.h"

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>

#include "io/run/run_file.h"
#include "io/temp/hole_probe.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// A file system as statvfs tells it; not known where it cannot be read or
// reports no size (ramfs, some FUSE file systems: f_blocks 0).
struct FileSystemRoom {
  bool known = false;
  dev_t device = 0;
  fsid_t id{};
  uint64_t free_bytes = 0;
  uint64_t block = 0;
};

FileSystemRoom room_from(const struct stat& st, const struct statvfs& fs) {
  FileSystemRoom r;
  if (fs.f_blocks == 0) return r;
  r.known = true;
  r.device = st.st_dev;
  std::memcpy(&r.id, &fs.f_fsid, std::min(sizeof r.id, sizeof fs.f_fsid));
  r.free_bytes = static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize;
  r.block = fs.f_frsize;
  return r;
}

FileSystemRoom room_of_fd(int fd) {
  struct stat st;
  struct statvfs fs;
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || ::fstatvfs(fd, &fs) != 0) return {};
  return room_from(st, fs);
}

FileSystemRoom room_of_dir(const std::string& dir) {
  struct stat st;
  struct statvfs fs;
  if (::stat(dir.c_str(), &st) != 0 || ::statvfs(dir.c_str(), &fs) != 0) return {};
  return room_from(st, fs);
}

bool same_file_system(const FileSystemRoom& a, const FileSystemRoom& b) {
  static const fsid_t kNone{};
  return a.device == b.device ||
         (std::memcmp(&a.id, &kNone, sizeof kNone) != 0 && std::memcmp(&a.id, &b.id, sizeof a.id) == 0);
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

std::string need_text(uint64_t need, const std::string& where, uint64_t free_bytes) {
  return amount(need) + " in " + where + ", which has " + amount(free_bytes) + " free";
}

[[noreturn]] void refuse(const std::string& what, uint64_t need, const std::string& where, uint64_t free_bytes) {
  throw IoError("not enough room: " + what + " " + need_text(need, where, free_bytes) +
                " (make room, give -T or -o elsewhere, or --no-space-check)");
}

// Whether punching holes can bound what a merge holds read: only where
// some run file is larger than what stays unpunched.
bool punching_counts(const RunsRoom& runs) { return runs.largest_file + sizeof(RunHeader) > kRunMostUnreleased; }

}  // namespace

RoomCheck::RoomCheck(bool enabled, OutputRoom output, std::string temp_dir)
    : enabled_(enabled), output_(std::move(output)), temp_dir_(std::move(temp_dir)) {
  check();
}

void RoomCheck::count_runs(const RunsRoom& runs) {
  runs_ = runs;
  check();
}

void RoomCheck::count_runs_if_plain(const RunsRoom& runs, TempRuns& temp) {
  temp.when_settled([this, runs](bool compressed) {
    if (!compressed) count_runs(runs);
  });
}

void RoomCheck::count_runs_as_written(const RunsRoom& runs, TempCompression mode, bool sampled, TempRuns& temp) {
  if (runs.bytes == 0 || mode == TempCompression::kOn) return;
  if (mode == TempCompression::kOff || !sampled) {
    count_runs(runs);
  } else {
    count_runs_if_plain(runs, temp);
  }
}

void RoomCheck::check() {
  if (!enabled_) return;
  check_copy_in_place();
  const FileSystemRoom out = output_.bytes > 0 ? room_of_fd(output_.fd) : FileSystemRoom{};
  const FileSystemRoom temp = runs_.bytes > 0 ? room_of_dir(temp_dir_) : FileSystemRoom{};
  const bool shared = out.known && temp.known && same_file_system(out, temp);
  const bool punches = temp.known && punching_counts(runs_) && directory_punches_holes(temp_dir_);
  const RoomPeaks p = room_peaks(runs_, output_.bytes, temp.block, shared ? temp.block : out.block, punches);
  why_stream_.clear();
  if (shared) {
    if (output_.mappable && p.mapped <= out.free_bytes) return;
    if (p.stream > out.free_bytes) refuse("the runs and the output need", p.stream, temp_dir_, out.free_bytes);
    if (output_.mappable) {
      why_stream_ = "reserved whole beside the runs, it would need " + need_text(p.mapped, temp_dir_, out.free_bytes);
    }
    return;
  }
  if (out.known && p.output > out.free_bytes) {
    refuse("the output needs", p.output, "the file system of " + output_.name, out.free_bytes);
  }
  if (temp.known && p.runs > temp.free_bytes) refuse("the runs need", p.runs, temp_dir_, temp.free_bytes);
}

void RoomCheck::check_copy_in_place() const {
  if (output_.copied_into.empty() || output_.bytes == 0) return;
  struct stat st;
  if (::stat(output_.copied_into.c_str(), &st) != 0) return;
  const FileSystemRoom there = room_of_dir(output_.copied_into);
  if (!there.known) return;
  const uint64_t now = static_cast<uint64_t>(st.st_size);
  uint64_t need = output_.bytes > now ? output_.bytes - now : 0;
  const FileSystemRoom made = room_of_fd(output_.fd);
  if (made.known && same_file_system(made, there)) need += output_.bytes;
  if (need > there.free_bytes) {
    refuse("the output and its copy into " + output_.copied_into + " (written in place) need", need,
           "its file system", there.free_bytes);
  }
}

}  // namespace gsort
