#include "kernels/entry_sort.h"

#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/tuple>

#include "src/cuda/check.h"

namespace gsort::kernels {
namespace {

// The key bits of an entry, most significant first; the index rides along.
struct EntryKeyBits {
  __host__ __device__ ::cuda::std::tuple<uint64_t&, uint32_t&> operator()(LineEntry& e) const {
    return {e.hi, e.lo};
  }
};

}  // namespace

size_t entry_sort_temp_bytes(uint64_t count) {
  size_t bytes = 0;
  cub::DoubleBuffer<LineEntry> keys(nullptr, nullptr);
  GSORT_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys, count, EntryKeyBits{}));
  return bytes;
}

LineEntry* sort_line_entries(LineEntry* a, LineEntry* b, uint64_t count, void* temp, size_t temp_bytes,
                             cudaStream_t stream, int bits) {
  cub::DoubleBuffer<LineEntry> keys(a, b);
  if (bits <= 0) return keys.Current();
  // Below the top `bits` of the 96 every entry's bits are zero: no pass for them.
  const int begin_bit = bits >= kEntryBits ? 0 : kEntryBits - bits;
  GSORT_CUDA_CHECK(
      cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, count, EntryKeyBits{}, begin_bit, kEntryBits, stream));
  return keys.Current();
}

}  // namespace gsort::kernels
