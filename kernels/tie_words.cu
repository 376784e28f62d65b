#include "kernels/tie_words.h"

#include <algorithm>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/tuple>

#include "src/cuda/check.h"
#include "src/keys/line_image.h"

namespace gsort::kernels {
namespace {

constexpr int kThreads = 256;

// A tie key's sort bits, most significant first: its run, then its words.
struct TieKeyBits {
  __host__ __device__ ::cuda::std::tuple<uint32_t&, uint64_t&, uint64_t&> operator()(TieKey& k) const {
    return {k.run, k.w0, k.w1};
  }
};

struct Larger {
  __host__ __device__ uint32_t operator()(uint32_t a, uint32_t b) const { return a > b ? a : b; }
};

// Where refine_line_ties keeps what: two halves of keys, the runs, the
// count of tied entries and the scans' and sorts' scratch, each aligned.
struct Layout {
  size_t keys[2] = {}, runs = 0, tied = 0, temp = 0, temp_bytes = 0, total = 0;
  explicit Layout(uint64_t n) {
    const auto align = [](size_t b) { return (b + 255) / 256 * 256; };
    size_t scan = 0, sort = 0;
    GSORT_CUDA_CHECK(cub::DeviceScan::InclusiveScan(nullptr, scan, static_cast<uint32_t*>(nullptr),
                                                    static_cast<uint32_t*>(nullptr), Larger{}, n));
    cub::DoubleBuffer<TieKey> k(nullptr, nullptr);
    GSORT_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sort, k, n, TieKeyBits{}));
    keys[1] = align(n * sizeof(TieKey));
    runs = 2 * keys[1];
    tied = runs + align(n * sizeof(uint32_t));
    temp = tied + align(sizeof(unsigned long long));
    temp_bytes = std::max(scan, sort);
    total = temp + align(temp_bytes);
  }
};

unsigned grid_for(uint64_t n) {
  const uint64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::min<uint64_t>(std::max<uint64_t>(blocks, 1), 1u << 16));
}

// Adds to *tied the lanes of the warp for which `ties` holds: one atomic a warp.
__device__ void count_tied(bool ties, unsigned long long* tied) {
  const unsigned votes = __ballot_sync(0xFFFFFFFFu, ties);
  if ((threadIdx.x % 32) == 0 && votes != 0) atomicAdd(tied, static_cast<unsigned long long>(__popc(votes)));
}

// runs[i]: i where entry i's bits differ from entry i-1's, else 0; the
// entries equal to the one before them counted. (Each block steps over
// the entries a block's width at a time, so that whole warps vote.)
__global__ void mark_runs_kernel(const LineEntry* e, uint64_t n, uint32_t* runs, unsigned long long* tied) {
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < n; base += step) {
    const uint64_t i = base + threadIdx.x;
    bool ties = false;
    if (i < n) {
      ties = i > 0 && e[i].hi == e[i - 1].hi && e[i].lo == e[i - 1].lo;
      runs[i] = ties ? 0 : static_cast<uint32_t>(i);
    }
    count_tied(ties, tied);
  }
}

// keys[i]: entry i's run, line and image words depth and depth + 1 (zero
// for an entry alone in its run, whose line is not read).
__global__ void load_words_kernel(LineImageSpec spec, uint64_t depth, const uint8_t* text, const uint64_t* starts,
                                  const LineEntry* e, const uint32_t* runs, uint64_t n, TieKey* keys) {
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    const uint32_t run = runs[i], line = e[i].index;
    TieKey k{0, 0, run, line};
    const bool alone = run == i && (i + 1 == n || runs[i + 1] == i + 1);
    if (!alone) {
      const uint64_t begin = starts[line] - starts[0], length = starts[line + 1] - starts[line] - 1;
      const LineImageView v = view_line_image(spec, text + begin, length);
      k.w0 = line_image_word(spec, v, depth);
      k.w1 = line_image_word(spec, v, depth + 1);
    }
    keys[i] = k;
  }
}

// runs[i]: i where sorted key i differs from key i-1 (run or words), else
// 0; the keys equal to the one before them counted.
__global__ void mark_groups_kernel(const TieKey* keys, uint64_t n, uint32_t* runs, unsigned long long* tied) {
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < n; base += step) {
    const uint64_t i = base + threadIdx.x;
    bool ties = false;
    if (i < n) {
      ties = i > 0 && keys[i].run == keys[i - 1].run && keys[i].w0 == keys[i - 1].w0 && keys[i].w1 == keys[i - 1].w1;
      runs[i] = ties ? 0 : static_cast<uint32_t>(i);
    }
    count_tied(ties, tied);
  }
}

// entries[i]: sorted key i's line, its bits its group's first place.
__global__ void write_entries_kernel(const TieKey* keys, const uint32_t* groups, uint64_t n, LineEntry* e) {
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    e[i] = LineEntry{groups[i], 0, keys[i].index};
  }
}

}  // namespace

size_t line_ties_bytes(uint64_t count) { return Layout(count).total; }

LineTies refine_line_ties(const LineImageSpec& spec, uint64_t depth, const uint8_t* text, const uint64_t* starts,
                          LineEntry* entries, uint64_t count, uint64_t least, int rounds, void* scratch,
                          cudaStream_t stream) {
  LineTies out;
  if (count < 2) return out;
  const Layout at(count);
  auto* base = static_cast<uint8_t*>(scratch);
  auto* runs = reinterpret_cast<uint32_t*>(base + at.runs);
  auto* tied = reinterpret_cast<unsigned long long*>(base + at.tied);
  void* temp = base + at.temp;
  cub::DoubleBuffer<TieKey> keys(reinterpret_cast<TieKey*>(base + at.keys[0]), reinterpret_cast<TieKey*>(base + at.keys[1]));
  unsigned long long found = 0;
  const auto tied_count = [&] {
    GSORT_CUDA_CHECK(cudaMemcpyAsync(&found, tied, sizeof found, cudaMemcpyDeviceToHost, stream));
    GSORT_CUDA_CHECK(cudaStreamSynchronize(stream));
    return static_cast<uint64_t>(found);
  };
  // Each run's first place, in every member's runs[] entry.
  const auto spread = [&] {
    size_t bytes = at.temp_bytes;
    GSORT_CUDA_CHECK(cub::DeviceScan::InclusiveScan(temp, bytes, runs, runs, Larger{}, count, stream));
  };
  GSORT_CUDA_CHECK(cudaMemsetAsync(tied, 0, sizeof(unsigned long long), stream));
  mark_runs_kernel<<<grid_for(count), kThreads, 0, stream>>>(entries, count, runs, tied);
  GSORT_CUDA_CHECK(cudaGetLastError());
  out.tied = tied_count();
  if (out.tied == 0 || out.tied < least) return out;
  spread();
  // Each round leaves in runs[] the first place of every entry's group.
  for (int round = 0; round < rounds && out.tied > 0 && out.tied >= least; ++round) {
    load_words_kernel<<<grid_for(count), kThreads, 0, stream>>>(spec, depth + out.words, text, starts, entries, runs,
                                                                count, keys.Current());
    GSORT_CUDA_CHECK(cudaGetLastError());
    size_t bytes = at.temp_bytes;
    GSORT_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp, bytes, keys, count, TieKeyBits{}, 0, 160, stream));
    GSORT_CUDA_CHECK(cudaMemsetAsync(tied, 0, sizeof(unsigned long long), stream));
    mark_groups_kernel<<<grid_for(count), kThreads, 0, stream>>>(keys.Current(), count, runs, tied);
    GSORT_CUDA_CHECK(cudaGetLastError());
    spread();
    write_entries_kernel<<<grid_for(count), kThreads, 0, stream>>>(keys.Current(), runs, count, entries);
    GSORT_CUDA_CHECK(cudaGetLastError());
    out.words += 2;
    out.tied = tied_count();
  }
  return out;
}

}  // namespace gsort::kernels
