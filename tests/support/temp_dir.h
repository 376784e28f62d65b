// Scratch directories and whole-file I/O for the end-to-end tests.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace gsort_test {

// A fresh, empty directory under $TMPDIR (else /tmp), gsort-test.XXXXXX
// (gsort-test.RUN.XXXXXX with GSORT_TEST_RUN=RUN), removed with all it
// holds when the object dies. Set GSORT_TEST_KEEP=1 to keep it for a
// post-mortem; its path is then printed on stderr.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path()/name; creates nothing.
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Creates path()/name as an empty directory and returns its path.
  std::string subdir(const std::string& name) const;

 private:
  std::string path_;
};

// Whole-file helpers. Bytes travel in std::string. They throw
// std::runtime_error naming the path on failure.
void write_file(const std::string& path, const std::string& bytes);
std::string read_file(const std::string& path);
bool path_exists(const std::string& path);

// Every entry under dir, by path relative to dir, with a file's content
// (directories map to "<dir>"). Compare two snapshots to prove that a run
// left a tree exactly as it found it.
std::map<std::string, std::string> snapshot_tree(const std::string& dir);

// Names of every entry (files, directories, anything) under dir, recursive.
std::vector<std::string> list_tree(const std::string& dir);
// Names of the entries directly in dir, sorted, links not followed; empty
// when dir is missing.
std::vector<std::string> entry_names(const std::string& dir);

// Whether dir lies on tmpfs (memory: no disk for writeback, O_DIRECT only
// from Linux 6.6).
bool on_tmpfs(const std::string& dir);

// How many regular files lie under dir, recursively; 0 when dir is missing.
// Tolerates files that vanish while it looks.
size_t count_files(const std::string& dir);

}  // namespace gsort_test
