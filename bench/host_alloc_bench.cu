// Start-up costs the GPU backend pays before sorting: creating the CUDA
// context, taking device memory, and getting pinned host memory for a chunk,
// by cudaHostAlloc or by registering (cudaHostRegister) an mmap'd buffer
// with transparent huge pages after touching it from several threads.
// Usage: host_alloc_bench [GiB]
#include <cuda_runtime.h>
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "bench/cuda_probe_support.h"

namespace {

using probe::check;
using probe::now;

void touch(char* p, size_t bytes, unsigned threads) {
  std::vector<std::thread> ts;
  for (unsigned t = 0; t < threads; ++t) {
    ts.emplace_back([=] {
      const size_t a = bytes / threads * t, b = t + 1 == threads ? bytes : bytes / threads * (t + 1);
      for (size_t i = a; i < b; i += 4096) p[i] = 1;
    });
  }
  for (auto& t : ts) t.join();
}

}  // namespace

int main(int argc, char** argv) {
  const size_t bytes = static_cast<size_t>((argc > 1 ? std::atof(argv[1]) : 2.0) * (1ull << 30));
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  double t = now();
  check(cudaFree(nullptr), "context");
  std::printf("context creation            %8.3f s\n", now() - t);

  t = now();
  void* d = nullptr;
  check(cudaMalloc(&d, bytes * 4), "cudaMalloc");
  std::printf("cudaMalloc %5.1f GiB          %8.3f s\n", 4.0 * bytes / (1ull << 30), now() - t);
  check(cudaFree(d), "cudaFree");

  for (int rep = 0; rep < 2; ++rep) {
    t = now();
    void* h = nullptr;
    check(cudaHostAlloc(&h, bytes, cudaHostAllocPortable), "cudaHostAlloc");
    const double alloc = now() - t;
    t = now();
    check(cudaFreeHost(h), "cudaFreeHost");
    std::printf("cudaHostAlloc %4.1f GiB       %8.3f s (free %.3f s)\n", 1.0 * bytes / (1ull << 30), alloc, now() - t);

    t = now();
    char* p = static_cast<char*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    madvise(p, bytes, MADV_HUGEPAGE);
    touch(p, bytes, threads);
    const double touched = now() - t;
    check(cudaHostRegister(p, bytes, cudaHostRegisterPortable), "cudaHostRegister");
    const double reg = now() - t;
    t = now();
    check(cudaHostUnregister(p), "cudaHostUnregister");
    munmap(p, bytes);
    std::printf("mmap+THP+touch(%2u)+register  %8.3f s (touch %.3f s; unregister+unmap %.3f s)\n", threads, reg,
                touched, now() - t);

    // Copy speed from each kind, 1 GiB slice.
    void* dev = nullptr;
    check(cudaMalloc(&dev, bytes), "cudaMalloc");
    char* q = static_cast<char*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    madvise(q, bytes, MADV_HUGEPAGE);
    touch(q, bytes, threads);
    t = now();
    check(cudaMemcpy(dev, q, bytes, cudaMemcpyHostToDevice), "copy pageable");
    std::printf("H2D from pageable            %8.1f GB/s\n", bytes / (now() - t) / 1e9);
    check(cudaHostRegister(q, bytes, cudaHostRegisterPortable), "register");
    t = now();
    check(cudaMemcpy(dev, q, bytes, cudaMemcpyHostToDevice), "copy pinned");
    std::printf("H2D from registered          %8.1f GB/s\n", bytes / (now() - t) / 1e9);
    check(cudaHostUnregister(q), "unregister");
    munmap(q, bytes);
    check(cudaFree(dev), "cudaFree");
  }
  return 0;
}
