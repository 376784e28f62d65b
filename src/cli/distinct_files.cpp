#include "src/cli/distinct_files.h"

#include <sys/stat.h>

#include <string>

#include "io/file/destination.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// What a path names: an existing regular file by device and inode; a file
// yet to be created by its directory's device and inode and its name.
// Devices, FIFOs and unreadable paths are "nothing" (written directly,
// they hold no data to lose).
struct FileKey {
  bool valid = false;
  dev_t dev = 0;
  ino_t ino = 0;
  std::string name;  // empty for an existing file
  bool operator==(const FileKey& o) const { return valid && o.valid && dev == o.dev && ino == o.ino && name == o.name; }
};

FileKey key_of_stat(const struct stat& st) {
  FileKey k;
  k.valid = S_ISREG(st.st_mode);
  k.dev = st.st_dev;
  k.ino = st.st_ino;
  return k;
}

// std_fd: the descriptor "-" stands for (0 for an input, 1 for the output).
FileKey key_of(const std::string& path, int std_fd) {
  struct stat st;
  if (path == "-") return ::fstat(std_fd, &st) == 0 ? key_of_stat(st) : FileKey{};
  if (::stat(path.c_str(), &st) == 0) return key_of_stat(st);
  Destination d;
  try {
    d = resolve_destination(path, "file");
  } catch (const IoError&) {
    return FileKey{};  // a link loop: creating it fails later with its own message
  }
  if (::stat(directory_of(d.target).c_str(), &st) != 0) return FileKey{};
  FileKey k{true, st.st_dev, st.st_ino, d.target.substr(d.target.rfind('/') + 1)};
  return k;
}

// Refuses `path`, a file gsort writes as `role` ("--stats file"), when it is
// an input or the output.
void refuse_overlap(const SortConfig& config, const std::string& output, const std::string& role,
                    const std::string& path) {
  const FileKey written = key_of(path, -1);
  for (const std::string& input : config.inputs) {
    if (key_of(input, 0) == written) throw UsageError(role + " " + path + " is also an input");
  }
  if (config.mode != Mode::kCheck && key_of(output, 1) == written) {
    throw UsageError(role + " " + path + " is also the output");
  }
}

}  // namespace

void refuse_overlapping_files(const SortConfig& config, const std::string& output) {
  const bool stats = !config.stats_path.empty() && config.stats_path != "-";
  if (stats) refuse_overlap(config, output, "--stats file", config.stats_path);
  if (config.trace_path.empty()) return;
  refuse_overlap(config, output, "--trace file", config.trace_path);
  if (stats && key_of(config.trace_path, -1) == key_of(config.stats_path, -1)) {
    throw UsageError("--trace file " + config.trace_path + " is also the --stats file");
  }
}

}  // namespace gsort
