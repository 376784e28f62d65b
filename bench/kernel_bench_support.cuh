// Shared pieces of kernel_sort_bench: generating and checking keys on the
// device, device buffers, and timing a case with CUDA events.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "src/cuda/check.h"
#include "src/cuda/resources.h"

#define CK(x) GSORT_CUDA_CHECK(x)

namespace gsort::bench {
namespace {  // each benchmark file gets its own copies

// ---------------------------------------------------------------- device data

__device__ __forceinline__ uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

template <typename K>
__global__ void fill_kernel(K* keys, uint32_t* vals, uint64_t n, uint64_t seed, uint64_t key_mask) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    keys[i] = K(mix64(i * 0x9e3779b97f4a7c15ull + seed) & key_mask);
    if (vals) vals[i] = uint32_t(i);
  }
}

template <typename K>
void fill(K* keys, uint32_t* vals, uint64_t n, uint64_t seed, uint64_t key_mask = ~0ull) {
  fill_kernel<K><<<2048, 256>>>(keys, vals, n, seed, key_mask);
  CK(cudaGetLastError());
}

template <typename K>
__global__ void copy_kernel(const K* in, K* out, uint64_t n) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = in[i];
}

__global__ void gather_kernel(const uint64_t* hi, const uint32_t* order, uint64_t* out, uint64_t n) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = hi[order[i]];
}

// Sets *bad when keys are out of order (or, when `hi`/`lo` are given, the
// records order[] points at are not in (hi, lo, index) order).
template <typename K>
__global__ void check_sorted_kernel(const K* keys, uint64_t n, unsigned* bad) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i + 1 < n; i += stride)
    if (keys[i + 1] < keys[i]) atomicOr(bad, 1u);
}

template <typename L>
__global__ void check_gensort_kernel(const uint64_t* hi, const L* lo, const uint32_t* order, uint64_t n,
                                     unsigned* bad) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i + 1 < n; i += stride) {
    const uint32_t a = order[i], b = order[i + 1];
    const bool ok = hi[a] < hi[b] || (hi[a] == hi[b] && (lo[a] < lo[b] || (lo[a] == lo[b] && a < b)));
    if (!ok) atomicOr(bad, 1u);
  }
}

// ------------------------------------------------------------------ buffers

// Device arrays for one case, freed together.
struct Mem {
  std::vector<gsort::cuda::DeviceBuffer> buffers;
  template <typename T>
  T* get(uint64_t count) {
    buffers.emplace_back(std::max<uint64_t>(count * sizeof(T), 256));
    return reinterpret_cast<T*>(buffers.back().data());
  }
  void* bytes(size_t b) { return get<char>(b); }
};

// A device word the check kernels set when they find a fault.
struct Flag {
  gsort::cuda::DeviceBuffer word{4};
  unsigned* d = reinterpret_cast<unsigned*>(word.data());
  void reset() { CK(cudaMemset(d, 0, 4)); }
  bool ok() {
    unsigned h = 0;
    CK(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost));
    return h == 0;
  }
};

// A benchmark case: prepare(seed) makes fresh input (untimed), run() sorts
// (timed), check() validates the last output.
struct Case {
  std::function<void(uint64_t)> prepare;
  std::function<void()> run;
  std::function<bool()> check;
};

struct Timing {
  double ms = 0;
  bool ok = false;
};

inline Timing time_case(const Case& c, int reps) {
  const gsort::cuda::Event a(gsort::cuda::Event::Timing::kOn), b(gsort::cuda::Event::Timing::kOn);
  c.prepare(1000);
  c.run();
  CK(cudaDeviceSynchronize());
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    c.prepare(uint64_t(r) * 7919 + 17);
    CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(a.get()));  // the legacy default stream, which the sorts use
    c.run();
    CK(cudaEventRecord(b.get()));
    CK(cudaEventSynchronize(b.get()));
    float t = 0;
    CK(cudaEventElapsedTime(&t, a.get(), b.get()));
    ms.push_back(t);
  }
  CK(cudaGetLastError());
  Timing out;
  std::sort(ms.begin(), ms.end());
  out.ms = ms[ms.size() / 2];
  out.ok = c.check();
  return out;
}

}  // namespace

// The policy sweep of --tune (kernel_policy_sweep.cu).
void run_policy_sweep(uint64_t n_radix, uint64_t n_merge, int reps);

}  // namespace gsort::bench
