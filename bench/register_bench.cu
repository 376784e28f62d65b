// What it takes to get a mapped input (a file in the page cache) onto the
// GPU, the first step of the device's fill of lines: registering the
// mapping (cudaHostRegisterReadOnly) whole and then copying it, against
// registering it a piece at a time while the pieces before cross the bus,
// on one thread or several; and cudaMalloc of the fill's buffers.
// Usage: register_bench FILE [PIECE_MIB] [ROUNDS]
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "bench/cuda_probe_support.h"

namespace {

using probe::check;
using probe::now;

struct Input {
  uint8_t* p = nullptr;
  size_t bytes = 0;
};

Input map_input(const char* path) {
  const int fd = open(path, O_RDONLY);
  if (fd < 0) { std::perror(path); std::exit(1); }
  struct stat st {};
  fstat(fd, &st);
  void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED) { std::perror("mmap"); std::exit(1); }
  return {static_cast<uint8_t*>(p), static_cast<size_t>(st.st_size)};
}

// Pieces of [p, p + bytes) whose bounds but the first and last are page-aligned.
std::vector<std::pair<uint8_t*, size_t>> pieces_of(uint8_t* p, size_t bytes, size_t piece) {
  std::vector<std::pair<uint8_t*, size_t>> out;
  uint8_t* const end = p + bytes;
  for (uint8_t* at = p; at < end;) {
    uintptr_t next = (reinterpret_cast<uintptr_t>(at) + piece) & ~uintptr_t{4095};
    uint8_t* to = std::min(end, reinterpret_cast<uint8_t*>(next));
    out.emplace_back(at, static_cast<size_t>(to - at));
    at = to;
  }
  return out;
}

void unregister_all(const std::vector<std::pair<uint8_t*, size_t>>& ps) {
  for (auto& q : ps) check(cudaHostUnregister(q.first), "unregister");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) { std::fprintf(stderr, "usage: register_bench FILE [PIECE_MIB] [ROUNDS]\n"); return 2; }
  const size_t piece = static_cast<size_t>(argc > 2 ? std::atoi(argv[2]) : 256) << 20;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 3;
  double t = now();
  check(cudaFree(nullptr), "context");
  std::printf("context creation                       %8.3f s\n", now() - t);
  const Input in = map_input(argv[1]);
  t = now();
  void* d = nullptr;
  check(cudaMalloc(&d, in.bytes), "cudaMalloc");
  void *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, in.bytes / 2), "cudaMalloc");
  check(cudaMalloc(&b, in.bytes / 2), "cudaMalloc");
  std::printf("cudaMalloc %.2f GB in 3                %8.3f s\n", 2.0 * in.bytes / 1e9, now() - t);
  cudaStream_t s;
  check(cudaStreamCreate(&s), "stream");
  auto* dev = static_cast<uint8_t*>(d);
  const auto ps = pieces_of(in.p, in.bytes, piece);
  for (int r = 0; r < rounds; ++r) {
    // Whole: register, then copy.
    t = now();
    check(cudaHostRegister(in.p, in.bytes, cudaHostRegisterReadOnly), "register whole");
    const double reg = now() - t;
    check(cudaMemcpyAsync(dev, in.p, in.bytes, cudaMemcpyHostToDevice, s), "copy");
    check(cudaStreamSynchronize(s), "sync");
    const double whole = now() - t;
    double u = now();
    check(cudaHostUnregister(in.p), "unregister");
    std::printf("round %d whole: register %.3f, +copy %.3f s (unregister %.3f)\n", r, reg, whole, now() - u);
    // Pieces on one thread: piece k copies while k+1 registers.
    t = now();
    for (auto& q : ps) {
      check(cudaHostRegister(q.first, q.second, cudaHostRegisterReadOnly), "register piece");
      check(cudaMemcpyAsync(dev + (q.first - in.p), q.first, q.second, cudaMemcpyHostToDevice, s), "copy");
    }
    check(cudaStreamSynchronize(s), "sync");
    std::printf("round %d %zu pieces, one thread: %.3f s\n", r, ps.size(), now() - t);
    unregister_all(ps);
    // Pieces registered by T threads; this thread copies each once it is registered.
    for (unsigned threads : {2u, 4u, 8u}) {
      std::vector<std::atomic<int>> ready(ps.size());
      for (auto& x : ready) x.store(0);
      std::atomic<size_t> next{0};
      t = now();
      std::vector<std::thread> ts;
      for (unsigned i = 0; i < threads; ++i) {
        ts.emplace_back([&] {
          for (size_t k; (k = next.fetch_add(1)) < ps.size();) {
            check(cudaHostRegister(ps[k].first, ps[k].second, cudaHostRegisterReadOnly), "register piece");
            ready[k].store(1, std::memory_order_release);
          }
        });
      }
      for (size_t k = 0; k < ps.size(); ++k) {
        while (ready[k].load(std::memory_order_acquire) == 0) std::this_thread::yield();
        check(cudaMemcpyAsync(dev + (ps[k].first - in.p), ps[k].first, ps[k].second, cudaMemcpyHostToDevice, s), "copy");
      }
      check(cudaStreamSynchronize(s), "sync");
      const double took = now() - t;
      for (auto& x : ts) x.join();
      std::printf("round %d %zu pieces, %u registering threads: %.3f s\n", r, ps.size(), threads, took);
      unregister_all(ps);
    }
  }
  return 0;
}
