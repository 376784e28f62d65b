#include "tests/support/temp_dir.h"

#include <dirent.h>
#include <linux/magic.h>
#include <sys/vfs.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace fs = std::filesystem;

namespace gsort_test {

namespace {

std::runtime_error io_error(const std::string& what, const std::string& path) {
  return std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  // scripts/run_suite.sh tags its run's directories (gsort-test.RUN.XXXXXX)
  // to find those a test left behind.
  const char* run = std::getenv("GSORT_TEST_RUN");
  const std::string tag = run && *run && std::strpbrk(run, "/.") == nullptr ? std::string(run) + "." : "";
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/gsort-test." + tag + "XXXXXX";
  if (!mkdtemp(pattern.data())) throw io_error("cannot create temp dir", pattern);
  path_ = pattern;
}

TempDir::~TempDir() {
  const char* keep = std::getenv("GSORT_TEST_KEEP");
  if (keep && *keep && std::string(keep) != "0") {
    std::fprintf(stderr, "[kept %s]\n", path_.c_str());
    return;
  }
  // Give back permissions a test may have taken away, so removal succeeds
  // for non-root users too.
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(path_, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
  }
  fs::remove_all(path_, ec);
}

std::string TempDir::subdir(const std::string& name) const {
  const std::string dir = file(name);
  std::error_code ec;
  if (!fs::create_directories(dir, ec) && ec) {
    throw std::runtime_error("cannot create " + dir + ": " + ec.message());
  }
  return dir;
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw io_error("cannot open", path);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw io_error("cannot write", path);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io_error("cannot open", path);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw io_error("cannot read", path);
  return bytes;
}

bool path_exists(const std::string& path) {
  std::error_code ec;
  return fs::symlink_status(path, ec).type() != fs::file_type::not_found && !ec;
}

std::map<std::string, std::string> snapshot_tree(const std::string& dir) {
  std::map<std::string, std::string> tree;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const std::string rel = fs::relative(it->path(), dir).string();
    if (it->is_directory()) {
      tree[rel] = "<dir>";
    } else if (it->is_regular_file()) {
      // An unreadable file (chmod 000, not root) still shows up, by size.
      std::ifstream in(it->path(), std::ios::binary);
      tree[rel] = in ? std::string((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>())
                     : "<unreadable:" + std::to_string(it->file_size()) + ">";
    } else {
      tree[rel] = "<other>";
    }
  }
  return tree;
}

std::vector<std::string> list_tree(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    names.push_back(fs::relative(it->path(), dir).string());
  }
  return names;
}

size_t count_files(const std::string& dir) {
  size_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_regular_file(type_ec)) ++n;
  }
  return n;
}

std::vector<std::string> entry_names(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool on_tmpfs(const std::string& dir) {
  struct statfs fs;
  return ::statfs(dir.c_str(), &fs) == 0 && fs.f_type == TMPFS_MAGIC;
}

}  // namespace gsort_test
