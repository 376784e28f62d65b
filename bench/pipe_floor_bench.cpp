// The floor of a sort of a pipe that writes nothing before its last byte
// (issue 38): the least any such program spends, with no sorting at all.
// It reads standard input (a pipe) into memory, as gsort does: one reader,
// a thread faulting the buffer in ahead of it, while the output's pages
// are reserved (fallocate) and made present (MADV_POPULATE_WRITE) as the
// bytes arrive. After the last byte it copies them, in order, into the
// mapped output on THREADS threads (what the final merge at its best does:
// each byte read once and written once) and unmaps it. Prints the seconds
// of each step and the total, from start to close.
// With RING_MiB > 0 the reader reads into two reused buffers of that size
// instead (their pages present and warm), and each full one is copied on
// THREADS - 3 threads into the memory that holds the input, which those
// threads fault in, while the reader fills the other (what a sort that
// sorts and gathers each piece as it comes does with its pieces).
// With `splice` the input is held in a memfd instead: the pipe's bytes are
// spliced into it (one copy in the kernel, into pages it need not zero)
// and its mapping is made present behind the reader; with `memfd`, read
// into a reused 8 MiB buffer and written into the memfd.
//   producer | pipe_floor_bench OUT [THREADS=nproc] [MAX_MiB=8192] [RING_MiB=0|splice|memfd]
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tool_support.h"

namespace {

using bench_tool::die;
using bench_tool::now;

constexpr size_t kPage = 4096;
constexpr size_t kAheadBytes = size_t{256} << 20;  // how far ahead of the reader pages are made present
constexpr size_t kSliceBytes = size_t{32} << 20;    // gsort's stream slice
constexpr size_t kStepBytes = size_t{16} << 20;     // made present at a time

// What the reader has done, for the two helpers beside it.
struct Progress {
  std::mutex mutex;
  std::condition_variable moved;
  size_t filled = 0;    // input bytes read
  size_t reserved = 0;  // output bytes fallocated
  bool done = false;

  void update(size_t f, size_t r, bool d) {
    std::lock_guard<std::mutex> lock(mutex);
    filled = f;
    reserved = r;
    done = d;
    moved.notify_all();
  }
};

// Makes [at, end) present for writing without changing a byte.
void populate(uint8_t* p, size_t at, size_t end, int advice = MADV_POPULATE_WRITE) {
  if (end > at) (void)::madvise(p + at, end - at, advice);
}

// What a helper makes present: the input's pages up to kAheadBytes past
// what is read; the output's, up to what is reserved; a memfd's mapping,
// up to what is read.
enum class Helps { kInput, kOutput, kHeld };

// Makes `base` present as `helps` says, a step at a time, until the read
// ends (the fill makes the rest of the output present on its threads).
void helper(Progress& g, uint8_t* base, size_t most, Helps helps) {
  size_t at = 0;
  for (;;) {
    size_t until = 0;
    {
      std::unique_lock<std::mutex> lock(g.mutex);
      g.moved.wait(lock, [&] {
        until = helps == Helps::kOutput ? g.reserved
                : helps == Helps::kHeld ? g.filled / kPage * kPage  // the last partial page: the fill faults it
                                        : std::min(most, g.filled + kAheadBytes);
        return g.done || until > at;
      });
      if (until <= at || (g.done && helps != Helps::kHeld)) return;
    }
    until = std::min(until, at + kStepBytes) / kPage * kPage;
    populate(base, at, until, helps == Helps::kHeld ? MADV_POPULATE_READ : MADV_POPULATE_WRITE);
    at = std::max(at, until);
  }
}

bool drop_after_fill() {
  static const bool drop = [] {
    const char* v = std::getenv("FLOOR_DROP");
    return v != nullptr && std::string(v) == "1";
  }();
  return drop;
}

// to[0, n) = from[0, n) on `threads` threads, each first making its part
// of `to` present where `present` (a mapped output).
void copy_on_threads(uint8_t* to, const uint8_t* from, size_t n, unsigned threads, bool present) {
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([=] {
      const size_t a = n / threads * t, b = t + 1 == threads ? n : n / threads * (t + 1);
      if (present) populate(to, a / kPage * kPage, b);
      std::memcpy(to + a, from + a, b - a);
      // FLOOR_DROP=1: each thread drops its part's page table entries
      // (MADV_DONTNEED on a shared mapping keeps the bytes, dirty, in the
      // page cache), so that the unmap after finds little left to do.
      if (present && drop_after_fill()) {
        const size_t first = (a + kPage - 1) / kPage * kPage, last = b / kPage * kPage;
        if (last > first) (void)::madvise(to + first, last - first, MADV_DONTNEED);
      }
    });
  }
  for (std::thread& th : pool) th.join();
}

// After the read: the bytes into the output on `threads` threads, then
// unmapped and closed; prints the figures.
int fill_and_close(const uint8_t* in, uint8_t* out, int fd, size_t most, size_t n, unsigned threads, double t0) {
  const double t1 = now();
  copy_on_threads(out, in, n, threads, true);
  const double t2 = now();
  if (::munmap(out, most) != 0) die("munmap");
  if (::ftruncate(fd, static_cast<off_t>(n)) != 0) die("ftruncate");
  if (::close(fd) != 0) die("close");
  const double t3 = now();
  std::printf("bytes %zu read %.3f fill %.3f unmap+close %.3f total %.3f\n", n, t1 - t0, t2 - t1, t3 - t2, t3 - t0);
  return 0;
}

// Reserves the output 64 MiB past the `n` bytes read, where `reserved`
// falls short of them; returns what is reserved now.
size_t reserve_ahead(int fd, size_t n, size_t reserved, size_t most) {
  if (n <= reserved) return reserved;
  reserved = std::min(most, (n + (size_t{64} << 20)) / kPage * kPage);
  if (::fallocate(fd, 0, 0, static_cast<off_t>(reserved)) != 0) die("fallocate");
  return reserved;
}

// Reads the pipe to its end through read_some(at, want), which takes up to
// `want` bytes of it to offset `at` of the input (0 at the end); the output
// is reserved and `g` told as the bytes come. Returns the bytes read.
template <typename ReadSome>
size_t read_to_end(Progress& g, int fd, size_t most, ReadSome read_some) {
  size_t n = 0, reserved = 0;
  for (;;) {
    const size_t got = read_some(n, std::min(kSliceBytes, most - n));
    if (got == 0) break;
    n += got;
    reserved = reserve_ahead(fd, n, reserved, most);
    g.update(n, reserved, false);
    if (n == most) die("input larger than MAX_MiB");
  }
  g.update(n, reserved, true);
  return n;
}

// The ring's read: see the top. The output is reserved and made present
// as the bytes come, as in the plain read.
int read_through_ring(uint8_t* in, uint8_t* out, int fd, size_t most, size_t ring, unsigned threads, double t0) {
  std::vector<uint8_t> buffers[2] = {std::vector<uint8_t>(ring, 1), std::vector<uint8_t>(ring, 1)};
  const unsigned copiers = std::max(1u, threads > 3 ? threads - 3 : 1u);
  Progress g;
  std::thread populater(helper, std::ref(g), out, most, Helps::kOutput);
  std::thread copying;
  size_t n = 0, reserved = 0;
  for (int b = 0;; b = 1 - b) {
    size_t fill = 0;
    while (fill < ring) {
      const ssize_t got = ::read(0, buffers[b].data() + fill, ring - fill);
      if (got < 0) die("read");
      if (got == 0) break;
      fill += static_cast<size_t>(got);
    }
    if (copying.joinable()) copying.join();
    if (n + fill > most) die("input larger than MAX_MiB");
    copying = std::thread([=, &buffers] { copy_on_threads(in + n, buffers[b].data(), fill, copiers, false); });
    n += fill;
    reserved = reserve_ahead(fd, n, reserved, most);
    g.update(n, reserved, fill < ring);
    if (fill < ring) break;
  }
  copying.join();
  populater.join();
  return fill_and_close(in, out, fd, most, n, threads, t0);
}

// The memfd's read: see the top.
int read_into_memfd(uint8_t* out, int fd, size_t most, bool use_splice, unsigned threads, double t0) {
  const int held = static_cast<int>(::syscall(SYS_memfd_create, "held", 0));
  if (held < 0) die("memfd_create");
  if (::ftruncate(held, static_cast<off_t>(most)) != 0) die("ftruncate memfd");
  auto* in = static_cast<uint8_t*>(::mmap(nullptr, most, PROT_READ | PROT_WRITE, MAP_SHARED, held, 0));
  if (in == MAP_FAILED) die("mmap memfd");
  std::vector<uint8_t> buffer(use_splice ? 0 : kStepBytes / 2, 1);
  Progress g;
  std::thread holder(helper, std::ref(g), in, most, Helps::kHeld);
  std::thread populater(helper, std::ref(g), out, most, Helps::kOutput);
  const size_t n = read_to_end(g, fd, most, [&](size_t at, size_t want) {
    ssize_t got = 0;
    if (use_splice) {
      loff_t to = static_cast<loff_t>(at);
      got = ::splice(0, nullptr, held, &to, want, SPLICE_F_MOVE | SPLICE_F_MORE);
      if (got < 0) die("splice");
    } else {
      got = ::read(0, buffer.data(), std::min(want, buffer.size()));
      if (got < 0) die("read");
      if (got > 0 && ::pwrite(held, buffer.data(), static_cast<size_t>(got), static_cast<off_t>(at)) != got) die("pwrite");
    }
    return static_cast<size_t>(got);
  });
  holder.join();
  populater.join();
  return fill_and_close(in, out, fd, most, n, threads, t0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: producer | pipe_floor_bench OUT [THREADS] [MAX_MiB] [RING_MiB|splice|memfd]\n");
    return 2;
  }
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : std::thread::hardware_concurrency();
  const size_t most = (argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 8192) << 20;
  const double t0 = now();
  (void)::fcntl(0, F_SETPIPE_SZ, 1 << 20);
  auto* in = static_cast<uint8_t*>(::mmap(nullptr, most, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  if (in == MAP_FAILED) die("mmap input");
  const int fd = ::open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) die("open");
  auto* out = static_cast<uint8_t*>(::mmap(nullptr, most, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
  if (out == MAP_FAILED) die("mmap output");
  const std::string mode = argc > 4 ? argv[4] : "0";
  if (mode == "splice" || mode == "memfd") return read_into_memfd(out, fd, most, mode == "splice", threads, t0);
  const size_t ring = std::strtoull(mode.c_str(), nullptr, 10) << 20;
  if (ring > 0) return read_through_ring(in, out, fd, most, ring, threads, t0);
  Progress g;
  std::thread faulter(helper, std::ref(g), in, most, Helps::kInput);
  std::thread populater(helper, std::ref(g), out, most, Helps::kOutput);
  const size_t n = read_to_end(g, fd, most, [in](size_t at, size_t want) {
    const ssize_t got = ::read(0, in + at, want);
    if (got < 0) die("read");
    return static_cast<size_t>(got);
  });
  faulter.join();
  populater.join();
  return fill_and_close(in, out, fd, most, n, threads, t0);
}
