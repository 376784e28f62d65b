#include "kernels/bucket_partition.h"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>

#include "src/cuda/check.h"

namespace gsort::kernels {
namespace {

constexpr int kThreads = 256;
constexpr uint64_t kMaxBlocks = 16384;

dim3 grid_for(uint64_t count) {
  return dim3(static_cast<unsigned>(std::min<uint64_t>((count + kThreads - 1) / kThreads, kMaxBlocks)));
}

// <0, 0, >0 as splitter `s` is before, at, after the record's position.
// `first_word` is the record's key word 0; later words are only made where
// word 0 ties (heavy duplicates, long keys).
__device__ int compare_splitter(const DestinationArgs& a, const uint64_t* s, const uint8_t* record,
                                uint64_t first_word, uint64_t index) {
  for (uint32_t w = 0; w < a.key_words; ++w) {
    const uint64_t mine = w == 0 ? first_word : normalised_key_word(a.fields, a.field_count, record, w);
    if (s[w] != mine) return s[w] < mine ? -1 : 1;
  }
  const uint64_t at = s[a.key_words];
  return at == index ? 0 : (at < index ? -1 : 1);
}

__global__ void destinations_kernel(DestinationArgs a) {
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  const uint32_t per_splitter = a.key_words + 1;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < a.count; i += stride) {
    const uint8_t* record = a.records + i * a.record_size;
    const uint64_t first_word = normalised_key_word(a.fields, a.field_count, record, 0);
    // The number of splitters at or before the record's position.
    int lo = 0, hi = a.splitter_count;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (compare_splitter(a, a.splitters + uint64_t(mid) * per_splitter, record, first_word, a.first_index + i) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    a.destinations[i] = static_cast<uint16_t>(lo);
    a.indices[i] = a.index_base + static_cast<uint32_t>(i);
  }
}

// One thread per record, copying it in the widest word that its size and
// the buffers' alignment allow.
template <typename Word>
__global__ void gather_records_kernel(const uint8_t* records, uint32_t record_size, const uint32_t* order,
                                      uint64_t count, uint8_t* out) {
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  const uint32_t words = record_size / sizeof(Word);
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    const auto* from = reinterpret_cast<const Word*>(records + uint64_t{order[i]} * record_size);
    auto* to = reinterpret_cast<Word*>(out + i * record_size);
    for (uint32_t w = 0; w < words; ++w) to[w] = from[w];
  }
}

__global__ void bucket_starts_kernel(const uint16_t* sorted, uint64_t count, int buckets, uint64_t* starts) {
  const int d = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (d > buckets) return;
  uint64_t lo = 0, hi = count;  // first position whose destination is >= d
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (sorted[mid] < d) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  starts[d] = lo;
}

}  // namespace

void launch_destinations(const DestinationArgs& args, cudaStream_t stream) {
  if (args.count == 0) return;
  destinations_kernel<<<grid_for(args.count), kThreads, 0, stream>>>(args);
  GSORT_CUDA_CHECK_LAUNCH();
}

size_t destination_sort_temp_bytes(uint64_t count, int bits) {
  size_t bytes = 0;
  cub::DoubleBuffer<uint16_t> keys(nullptr, nullptr);
  cub::DoubleBuffer<uint32_t> values(nullptr, nullptr);
  GSORT_CUDA_CHECK(
      cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, static_cast<uint32_t>(count), 0, bits));
  return bytes;
}

void sort_destinations(void* temp, size_t temp_bytes, uint16_t** keys, uint16_t* keys_alternate, uint32_t** indices,
                       uint32_t* indices_alternate, uint64_t count, int bits, cudaStream_t stream) {
  if (count == 0) return;
  cub::DoubleBuffer<uint16_t> k(*keys, keys_alternate);
  cub::DoubleBuffer<uint32_t> v(*indices, indices_alternate);
  GSORT_CUDA_CHECK(
      cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k, v, static_cast<uint32_t>(count), 0, bits, stream));
  *keys = k.Current();
  *indices = v.Current();
}

void launch_gather_records(const uint8_t* records, uint32_t record_size, const uint32_t* order, uint64_t count,
                           uint8_t* out, cudaStream_t stream) {
  if (count == 0) return;
  const auto aligned = [&](size_t word) {
    return record_size % word == 0 && reinterpret_cast<uintptr_t>(records) % word == 0 &&
           reinterpret_cast<uintptr_t>(out) % word == 0;
  };
  const dim3 grid = grid_for(count);
  if (aligned(16)) {
    gather_records_kernel<uint4><<<grid, kThreads, 0, stream>>>(records, record_size, order, count, out);
  } else if (aligned(8)) {
    gather_records_kernel<uint64_t><<<grid, kThreads, 0, stream>>>(records, record_size, order, count, out);
  } else if (aligned(4)) {
    gather_records_kernel<uint32_t><<<grid, kThreads, 0, stream>>>(records, record_size, order, count, out);
  } else {
    gather_records_kernel<uint8_t><<<grid, kThreads, 0, stream>>>(records, record_size, order, count, out);
  }
  GSORT_CUDA_CHECK_LAUNCH();
}

void launch_bucket_starts(const uint16_t* sorted, uint64_t count, int buckets, uint64_t* starts,
                          cudaStream_t stream) {
  const int threads = buckets + 1;
  bucket_starts_kernel<<<(threads + kThreads - 1) / kThreads, kThreads, 0, stream>>>(sorted, count, buckets, starts);
  GSORT_CUDA_CHECK_LAUNCH();
}

}  // namespace gsort::kernels
