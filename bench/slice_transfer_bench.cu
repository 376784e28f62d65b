// How fast a rank's slice can reach its GPU and its partitioned buckets come
// back (the GPU partition of the distributed sort): from a file mapped
// read-only from the page cache (registered with cudaHostRegisterReadOnly,
// or copied as pageable memory from 1..8 threads), and back into fresh or
// faulted pageable memory.
// Usage: slice_transfer_bench FILE   (a file already in the page cache)
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "bench/cuda_probe_support.h"

namespace {

using probe::check;
using probe::now;

// Copies `bytes` between host and device in `threads` equal pieces, each on
// its own thread and stream; returns GB/s.
double copy_rate(void* dev, void* host, size_t bytes, unsigned threads, cudaMemcpyKind kind) {
  const double t = now();
  std::vector<std::thread> ts;
  for (unsigned k = 0; k < threads; ++k) {
    ts.emplace_back([=] {
      cudaStream_t s;
      check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
      const size_t a = bytes / threads * k, b = k + 1 == threads ? bytes : bytes / threads * (k + 1);
      char* d = static_cast<char*>(dev) + a;
      char* h = static_cast<char*>(host) + a;
      if (kind == cudaMemcpyHostToDevice) {
        check(cudaMemcpyAsync(d, h, b - a, kind, s), "copy");
      } else {
        check(cudaMemcpyAsync(h, d, b - a, kind, s), "copy");
      }
      check(cudaStreamSynchronize(s), "sync");
      check(cudaStreamDestroy(s), "destroy");
    });
  }
  for (auto& th : ts) th.join();
  return bytes / (now() - t) / 1e9;
}

char* fresh(size_t bytes) {
  char* p = static_cast<char*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: slice_transfer_bench FILE\n");
    return 2;
  }
  const int fd = open(argv[1], O_RDONLY);
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0) {
    std::perror(argv[1]);
    return 2;
  }
  const size_t bytes = static_cast<size_t>(st.st_size);
  check(cudaFree(nullptr), "context");
  void* dev = nullptr;
  check(cudaMalloc(&dev, bytes), "cudaMalloc");
  std::printf("slice %.2f GB\n", bytes / 1e9);

  double t = now();
  void* mapped = mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  if (mapped == MAP_FAILED) return 2;
#ifdef MADV_POPULATE_READ
  madvise(mapped, bytes, MADV_POPULATE_READ);
#endif
  std::printf("map + populate                 %7.3f s\n", now() - t);
  for (unsigned threads : {1u, 2u, 4u, 8u}) {
    std::printf("H2D mapped pageable, %u thr     %7.1f GB/s\n", threads,
                copy_rate(dev, mapped, bytes, threads, cudaMemcpyHostToDevice));
  }
  t = now();
  const cudaError_t reg = cudaHostRegister(mapped, bytes, cudaHostRegisterReadOnly);
  std::printf("register mapped (read-only)    %7.3f s: %s\n", now() - t, cudaGetErrorString(reg));
  if (reg == cudaSuccess) {
    std::printf("H2D mapped registered          %7.1f GB/s\n", copy_rate(dev, mapped, bytes, 1, cudaMemcpyHostToDevice));
    t = now();
    check(cudaHostUnregister(mapped), "unregister");
    std::printf("unregister mapped              %7.3f s\n", now() - t);
  }
  munmap(mapped, bytes);

  for (unsigned threads : {1u, 4u}) {
    char* out = fresh(bytes);
    std::printf("D2H fresh pageable, %u thr      %7.1f GB/s\n", threads,
                copy_rate(dev, out, bytes, threads, cudaMemcpyDeviceToHost));
    std::printf("D2H faulted pageable, %u thr    %7.1f GB/s\n", threads,
                copy_rate(dev, out, bytes, threads, cudaMemcpyDeviceToHost));
    munmap(out, bytes);
  }
  char* out = fresh(bytes);
  t = now();
  check(cudaHostRegister(out, bytes, cudaHostRegisterPortable), "register fresh");
  std::printf("register fresh memory          %7.3f s\n", now() - t);
  std::printf("D2H registered                 %7.1f GB/s\n", copy_rate(dev, out, bytes, 1, cudaMemcpyDeviceToHost));
  check(cudaHostUnregister(out), "unregister");
  munmap(out, bytes);
  check(cudaFree(dev), "cudaFree");
  close(fd);
  return 0;
}
