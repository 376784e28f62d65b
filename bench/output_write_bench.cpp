// How fast can one output file be written into the page cache? gsort's
// in-memory sorts end with one write of the whole output, which takes longer
// than everything before it. This compares ways of writing SIZE bytes to a
// new file at PATH (median of REPS, each from creating the file to close):
//   write    one thread, write() of 8 MiB blocks (what gsort does now)
//   pwrite   THREADS threads, pwrite() of disjoint 64 MiB ranges
//   mmap     ftruncate, mmap MAP_SHARED, THREADS threads memcpy into it
//   mmap+fa  the same after fallocate (space reserved: no SIGBUS on ENOSPC)
//   fa       fallocate alone (one call: tmpfs zeroes every page on one thread)
//   mmap+pop ftruncate, mmap, THREADS threads make their ranges' pages present
//            (MADV_POPULATE_WRITE: the space taken, or an error, not SIGBUS),
//            then copy into them
//   direct   fallocate, then THREADS threads pwrite() 64 MiB ranges with
//            O_DIRECT (past the page cache, so past its per-inode lock)
//   output_write_bench PATH [SIZE_MiB=2048] [THREADS=nproc] [REPS=3]
// And, as each of N processes writing one shared file (the distributed
// sort's ranks into one output; start N at once, K = 0..N-1, after
// fallocate -l SIZE_MiBM PATH):
//   output_write_bench --part K N WAY PATH SIZE_MiB THREADS
// writes part K of N (SIZE/N bytes, whole MiB, at offset K*SIZE/N) of an
// existing file of SIZE bytes with WAY (pwrite, mmap or direct) on THREADS
// threads and prints the seconds from open to close.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "tool_support.h"

namespace {

using bench_tool::die;

void parallel(unsigned threads, const std::function<void(unsigned)>& body) {
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(body, t);
  for (auto& th : pool) th.join();
}

int create(const std::string& path) {
  ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) die("open");
  return fd;
}

void write_one_thread(const std::string& path, const uint8_t* src, size_t size, unsigned) {
  const int fd = create(path);
  const size_t block = size_t{8} << 20;
  for (size_t off = 0; off < size; off += block) {
    const size_t n = std::min(block, size - off);
    if (::write(fd, src + off, n) != static_cast<ssize_t>(n)) die("write");
  }
  if (::close(fd) != 0) die("close");
}

void pwrite_threads(const std::string& path, const uint8_t* src, size_t size, unsigned threads) {
  const int fd = create(path);
  const size_t range = size_t{64} << 20;
  const size_t ranges = (size + range - 1) / range;
  parallel(threads, [&](unsigned t) {
    for (size_t r = t; r < ranges; r += threads) {
      const size_t off = r * range, n = std::min(range, size - off);
      if (::pwrite(fd, src + off, n, static_cast<off_t>(off)) != static_cast<ssize_t>(n)) die("pwrite");
    }
  });
  if (::close(fd) != 0) die("close");
}

// How a mapped output's space is taken before the copy: not at all (pages
// fault in as copied), by fallocate, or by its threads making their
// ranges' pages present.
enum class Reserve { kNone, kFallocate, kPopulate };

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

void mmap_threads(const std::string& path, const uint8_t* src, size_t size, unsigned threads, Reserve reserve) {
  const int fd = create(path);
  if (reserve == Reserve::kFallocate) {
    if (::posix_fallocate(fd, 0, static_cast<off_t>(size)) != 0) die("posix_fallocate");
  } else if (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
    die("ftruncate");
  }
  void* map = ::mmap(nullptr, size, PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) die("mmap");
  auto* dst = static_cast<uint8_t*>(map);
  const size_t range = size_t{16} << 20;
  const size_t ranges = (size + range - 1) / range;
  if (reserve == Reserve::kPopulate) {
    parallel(threads, [&](unsigned t) {
      for (size_t r = t; r < ranges; r += threads) {
        if (::madvise(dst + r * range, std::min(range, size - r * range), MADV_POPULATE_WRITE) != 0) die("madvise");
      }
    });
  }
  parallel(threads, [&](unsigned t) {
    for (size_t r = t; r < ranges; r += threads) {
      const size_t off = r * range;
      std::memcpy(dst + off, src + off, std::min(range, size - off));
    }
  });
  if (::munmap(map, size) != 0) die("munmap");
  if (::close(fd) != 0) die("close");
}

void fallocate_only(const std::string& path, size_t size) {
  const int fd = create(path);
  if (::posix_fallocate(fd, 0, static_cast<off_t>(size)) != 0) die("posix_fallocate");
  if (::close(fd) != 0) die("close");
}

void direct_threads(const std::string& path, const uint8_t* src, size_t size, unsigned threads) {
  const int fd = create(path);
  if (::posix_fallocate(fd, 0, static_cast<off_t>(size)) != 0) die("posix_fallocate");
  const int direct = ::open(path.c_str(), O_WRONLY | O_DIRECT);
  if (direct < 0) die("open O_DIRECT");
  const size_t range = size_t{64} << 20;  // SIZE is whole MiB: every range is 4 KiB aligned
  const size_t ranges = (size + range - 1) / range;
  parallel(threads, [&](unsigned t) {
    for (size_t r = t; r < ranges; r += threads) {
      const size_t off = r * range, n = std::min(range, size - off);
      if (::pwrite(direct, src + off, n, static_cast<off_t>(off)) != static_cast<ssize_t>(n)) die("pwrite O_DIRECT");
    }
  });
  if (::close(direct) != 0 || ::close(fd) != 0) die("close");
}

// Part K of N of the existing file at `path`, `size` bytes in all.
int write_part(int k, int n, const std::string& way, const std::string& path, size_t size, unsigned threads) {
  const size_t part = size / static_cast<size_t>(n) >> 20 << 20, off = part * static_cast<size_t>(k);
  auto* src = static_cast<uint8_t*>(std::aligned_alloc(4096, part));
  if (!src) die("aligned_alloc");
  std::memset(src, k + 1, part);  // faulted in before the clock starts
  const auto t0 = std::chrono::steady_clock::now();
  const int fd = ::open(path.c_str(), way == "direct" ? (O_WRONLY | O_DIRECT) : O_RDWR);
  if (fd < 0) die("open");
  const size_t range = size_t{64} << 20;
  const size_t ranges = (part + range - 1) / range;
  if (way == "mmap") {
    void* map = ::mmap(nullptr, part, PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(off));
    if (map == MAP_FAILED) die("mmap");
    auto* dst = static_cast<uint8_t*>(map);
    parallel(threads, [&](unsigned t) {
      for (size_t r = t; r < ranges; r += threads) {
        std::memcpy(dst + r * range, src + r * range, std::min(range, part - r * range));
      }
    });
    if (::munmap(map, part) != 0) die("munmap");
  } else {
    parallel(threads, [&](unsigned t) {
      for (size_t r = t; r < ranges; r += threads) {
        const size_t at = r * range, len = std::min(range, part - at);
        if (::pwrite(fd, src + at, len, static_cast<off_t>(off + at)) != static_cast<ssize_t>(len)) die("pwrite");
      }
    });
  }
  if (::close(fd) != 0) die("close");
  std::printf("part %d of %d, %s: %.3f s\n", k, n, way.c_str(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  std::free(src);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 8 && std::string(argv[1]) == "--part") {
    return write_part(std::atoi(argv[2]), std::atoi(argv[3]), argv[4], argv[5], std::strtoull(argv[6], nullptr, 10) << 20,
                      static_cast<unsigned>(std::atoi(argv[7])));
  }
  if (argc < 2) {
    std::fprintf(stderr, "usage: output_write_bench PATH [SIZE_MiB] [THREADS] [REPS]\n");
    return 2;
  }
  const std::string path = argv[1];
  const size_t size = (argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2048) << 20;
  const unsigned threads = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : std::thread::hardware_concurrency();
  const int reps = argc > 4 ? std::atoi(argv[4]) : 3;
  // Page aligned, as O_DIRECT needs.
  auto* src = static_cast<uint8_t*>(std::aligned_alloc(4096, size));
  if (!src) die("aligned_alloc");
  for (size_t i = 0; i < size; i += 8) {
    const uint64_t v = i * 0x9E3779B97F4A7C15ull;
    std::memcpy(src + i, &v, std::min<size_t>(8, size - i));
  }
  struct Way {
    const char* name;
    std::function<void()> run;
  };
  const Way ways[] = {
      {"write", [&] { write_one_thread(path, src, size, 1); }},
      {"pwrite", [&] { pwrite_threads(path, src, size, threads); }},
      {"mmap", [&] { mmap_threads(path, src, size, threads, Reserve::kNone); }},
      {"mmap+fa", [&] { mmap_threads(path, src, size, threads, Reserve::kFallocate); }},
      {"fa", [&] { fallocate_only(path, size); }},
      {"mmap+pop", [&] { mmap_threads(path, src, size, threads, Reserve::kPopulate); }},
      {"direct", [&] { direct_threads(path, src, size, threads); }},
  };
  std::printf("%zu MiB to %s, %u threads, median of %d\n", size >> 20, path.c_str(), threads, reps);
  for (const Way& way : ways) {
    std::vector<double> secs;
    for (int r = 0; r < reps; ++r) {
      ::unlink(path.c_str());
      ::sync();
      const auto t0 = std::chrono::steady_clock::now();
      way.run();
      secs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(secs.begin(), secs.end());
    const double med = secs[secs.size() / 2];
    std::printf("  %-8s %8.3f s %8.2f GB/s\n", way.name, med, size / med / 1e9);
  }
  ::unlink(path.c_str());
  std::free(src);
  return 0;
}
