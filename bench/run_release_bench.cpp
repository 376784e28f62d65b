// How fast the kernel frees the page cache of files a sort has done with
// (its runs), by how many threads cut them: a spilled sort through the page
// cache spends seconds freeing its runs' pages (`-v`: "waited for that",
// "runs removed after the commit"), which src/merge/background_release.h
// frees one run at a time on one thread, and the end of the sort on the pool.
//   run_release_bench FILES MiB THREADS... [--synced]
// writes FILES unlinked files of MiB each (write(), dirty in the page
// cache; --synced: fsync'd, clean), then for each THREADS count writes them
// again and times cutting them all to nothing (ftruncate) on that many
// threads, each taking every THREADS-th file. Run it in the -T directory.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tool_support.h"

namespace {

using bench_tool::die;

// `files` unlinked files of `mib` MiB each, written (and fsync'd with synced).
std::vector<int> write_files(int files, long mib, bool synced) {
  std::vector<char> block(size_t{1} << 20, 'r');
  std::vector<int> fds;
  for (int i = 0; i < files; ++i) {
    const std::string name = "run_release_bench." + std::to_string(::getpid()) + "." + std::to_string(i);
    const int fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) die(name.c_str());
    ::unlink(name.c_str());
    for (long m = 0; m < mib; ++m) {
      if (::write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size())) die("write");
    }
    if (synced && ::fsync(fd) != 0) die("fsync");
    fds.push_back(fd);
  }
  return fds;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: run_release_bench FILES MiB THREADS... [--synced]\n");
    return 2;
  }
  const int files = std::atoi(argv[1]);
  const long mib = std::atol(argv[2]);
  const bool synced = std::strcmp(argv[argc - 1], "--synced") == 0;
  for (int a = 3; a < argc - (synced ? 1 : 0); ++a) {
    const int threads = std::atoi(argv[a]);
    std::vector<int> fds = write_files(files, mib, synced);
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> cutters;
    for (int t = 0; t < threads; ++t) {
      cutters.emplace_back([&fds, t, threads] {
        for (size_t i = t; i < fds.size(); i += threads) {
          if (::ftruncate(fds[i], 0) != 0) die("ftruncate");
        }
      });
    }
    for (std::thread& c : cutters) c.join();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%d files of %ld MiB (%s), %d threads: freed in %.3f s, %.2f GB/s\n", files, mib,
                synced ? "clean" : "dirty", threads, s, files * mib / 1024.0 / s);
    for (int fd : fds) ::close(fd);
  }
  return 0;
}
