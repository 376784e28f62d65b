// The floor of a sort that spills its runs through the page cache, with no
// sorting at all (issue 53's target: 12 GB of records, --backend cpu -S 2G,
// at most 1.5x cp): what any such sort spends on I/O alone.
//  1. runs: the input cut into RUNS runs, each written as STREAMS segment
//     files (unlinked, in TMPDIR), as gsort writes them: every byte read once
//     (pread) and written once (write), on THREADS threads, one file each at
//     a time;
//  2. merge: the output sized (fallocate) and mapped; every segment read
//     back in 256 KiB reads (gsort's read buffers) and copied into the
//     mapping where its bytes lie in the input, one file per thread at a
//     time: each byte read once and written once, as the final merge in
//     ranges at its best;
//  3. unmap: the output unmapped and closed;
//  4. free: the runs cut to nothing and closed on THREADS threads (what the
//     merge's release and the removal after the commit do).
// With `direct` the runs bypass the page cache (O_DIRECT both ways, 4 MiB
// aligned blocks): the floor of runs kept out of the cache, at the disk's
// speed. Prints each step's seconds and the total. Run it in the -T
// directory's file system with the input in the page cache.
//   spill_floor_bench IN OUT TMPDIR [RUNS=14] [STREAMS=8] [THREADS=nproc] [direct]
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
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
using bench_tool::now;

// Runs task(i) for i in [0, n) on `threads` threads, each taking the next.
void for_each_task(size_t n, unsigned threads, const std::function<void(size_t)>& task) {
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (size_t i; (i = next.fetch_add(1)) < n;) task(i);
    });
  }
  for (std::thread& th : pool) th.join();
}

void pread_all(int fd, char* to, size_t bytes, uint64_t at) {
  while (bytes > 0) {
    const ssize_t n = ::pread(fd, to, bytes, static_cast<off_t>(at));
    if (n <= 0) die("pread");
    to += n;
    at += static_cast<uint64_t>(n);
    bytes -= static_cast<size_t>(n);
  }
}

void write_all(int fd, const char* from, size_t bytes) {
  while (bytes > 0) {
    const ssize_t n = ::write(fd, from, bytes);
    if (n <= 0) die("write");
    from += n;
    bytes -= static_cast<size_t>(n);
  }
}

char* aligned_block(size_t bytes) {
  void* p = nullptr;
  if (::posix_memalign(&p, 4096, bytes) != 0) die("posix_memalign");
  return static_cast<char*>(p);
}

struct Segment {
  int fd = -1;
  uint64_t offset = 0;  // of its bytes in the input (and the output)
  uint64_t bytes = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: spill_floor_bench IN OUT TMPDIR [RUNS=14] [STREAMS=8] [THREADS=nproc]\n");
    return 2;
  }
  const std::string tmp = argv[3];
  const uint64_t runs = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 14;
  const uint64_t streams = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 8;
  const unsigned threads = argc > 6 ? static_cast<unsigned>(std::atoi(argv[6])) : std::thread::hardware_concurrency();
  const bool direct = argc > 7 && std::strcmp(argv[7], "direct") == 0;
  if (runs == 0 || streams == 0 || threads == 0) die("RUNS, STREAMS and THREADS must be positive");
  const int in = ::open(argv[1], O_RDONLY | O_CLOEXEC);
  if (in < 0) die(argv[1]);
  struct stat st {};
  if (::fstat(in, &st) != 0) die("fstat");
  const uint64_t total = static_cast<uint64_t>(st.st_size);
  constexpr size_t kCopyBlock = size_t{4} << 20;
  // O_DIRECT reads whole blocks too (a segment's last is padded).
  const size_t read_buffer = direct ? kCopyBlock : size_t{256} << 10;

  // The segments: RUNS runs of STREAMS consecutive slices each.
  std::vector<Segment> segments;
  const uint64_t run_bytes = (total + runs - 1) / runs;
  for (uint64_t r = 0; r < runs; ++r) {
    const uint64_t run_start = std::min(total, r * run_bytes), run_end = std::min(total, run_start + run_bytes);
    // Slices of whole 4 MiB blocks, for O_DIRECT's alignment.
    const uint64_t slice = ((run_end - run_start + streams - 1) / streams + kCopyBlock - 1) / kCopyBlock * kCopyBlock;
    for (uint64_t s = 0; s < streams; ++s) {
      const uint64_t a = std::min(run_end, run_start + s * slice), b = std::min(run_end, a + slice);
      const std::string name = tmp + "/spill_floor." + std::to_string(::getpid()) + "." + std::to_string(segments.size());
      const int fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | (direct ? O_DIRECT : 0), 0600);
      if (fd < 0) die(name.c_str());
      ::unlink(name.c_str());
      segments.push_back(Segment{fd, a, b - a});
    }
  }

  const double t0 = now();
  for_each_task(segments.size(), threads, [&](size_t i) {
    char* buf = aligned_block(kCopyBlock);
    const Segment& s = segments[i];
    for (uint64_t done = 0; done < s.bytes;) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(kCopyBlock, s.bytes - done));
      pread_all(in, buf, n, s.offset + done);
      write_all(s.fd, buf, direct ? kCopyBlock : n);
      done += n;
    }
    std::free(buf);
  });
  const double t1 = now();

  const int out = ::open(argv[2], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) die(argv[2]);
  if (total > 0 && ::posix_fallocate(out, 0, static_cast<off_t>(total)) != 0) die("fallocate");
  char* map = nullptr;
  if (total > 0) {
    void* m = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, out, 0);
    if (m == MAP_FAILED) die("mmap");
    map = static_cast<char*>(m);
  }
  for_each_task(segments.size(), threads, [&](size_t i) {
    char* buf = aligned_block(read_buffer);
    const Segment& s = segments[i];
    for (uint64_t done = 0; done < s.bytes;) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(read_buffer, s.bytes - done));
      pread_all(s.fd, buf, direct ? read_buffer : n, done);
      std::memcpy(map + s.offset + done, buf, n);
      done += n;
    }
    std::free(buf);
  });
  const double t2 = now();
  if (map != nullptr && ::munmap(map, total) != 0) die("munmap");
  if (::close(out) != 0) die("close");
  const double t3 = now();
  for_each_task(segments.size(), threads, [&](size_t i) {
    if (::ftruncate(segments[i].fd, 0) != 0) die("ftruncate");
    if (::close(segments[i].fd) != 0) die("close");
  });
  const double t4 = now();
  std::printf("runs %.3f s, merge %.3f s, unmap %.3f s, free %.3f s, total %.3f s (%llu segments, %u threads%s)\n",
              t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0, static_cast<unsigned long long>(segments.size()), threads,
              direct ? ", O_DIRECT runs" : "");
  return 0;
}
