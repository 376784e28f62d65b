#include "kernels/key_sort.h"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "src/cuda/check.h"
#include "kernels/permute.h"
#include "kernels/device/sorts.h"

namespace gsort::kernels {
namespace {

// Under --algorithm auto, a 64-bit pass of up to rank_sort_block_max() keys
// (512) runs on gsort's rank sort, which beats CUB there (docs/benchmarks.md).
// Only its one-block path, which needs no scratch: the group's scratch is
// sized for CUB, so the pass hands the rank sort none (its grid path for
// larger counts would need some).
bool rank_sort_takes(PassSort sort, size_t key_bytes, uint32_t count) {
  return sort == PassSort::kAuto && key_bytes == 8 && count <= rank_sort_block_max();
}

// Whether this pass runs on gsort's radix or merge sort (--algorithm).
template <typename K>
constexpr bool kernel_takes(PassSort sort) {
  return (sort == PassSort::kRadix && sizeof(K) >= 4) || (sort == PassSort::kMerge && sizeof(K) == 8);
}

// Bytes of scratch for one pass over `bits` key bits of type K.
template <typename K>
size_t pass_temp_bytes(PassSort sort, uint32_t count, int bits) {
  if (kernel_takes<K>(sort)) {
    return sort == PassSort::kRadix ? radix_sort_pairs_temp_bytes(count, 8 * sizeof(K))
                                       : merge_sort_pairs_temp_bytes(count);
  }
  size_t bytes = 0;
  cub::DoubleBuffer<K> keys(nullptr, nullptr);
  cub::DoubleBuffer<uint32_t> values(nullptr, nullptr);
  GSORT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, count, 0, bits));
  return bytes;
}

size_t last_pass_temp_bytes(const KeyFormat& f, uint32_t count) {
  const int bits = static_cast<int>(8 * f.last_bytes);
  switch (f.last_type) {
    case WordType::kU16: return pass_temp_bytes<uint16_t>(f.sort, count, bits);
    case WordType::kU32: return pass_temp_bytes<uint32_t>(f.sort, count, bits);
    case WordType::kU64: break;
  }
  return pass_temp_bytes<uint64_t>(f.sort, count, bits);
}

// Runs a sort of kernels/device/sorts.h. CUDA failures pass through as
// thrown (CudaError, or DeviceOutOfMemory for the caller to act on); the
// kernels reject an argument (std::invalid_argument) only when the plan
// gave them wrong sizes, which becomes a gsort::Error.
template <typename Sort>
void run_kernel_sort(const Sort& sort) {
  try {
    sort();
  } catch (const std::invalid_argument& e) {
    throw Error(std::string("GPU sort failed: ") + e.what());
  }
}

// One stable pass; `values` continues from the previous pass. gsort's sorts
// work in place (keys_a, values.Current()); CUB may land in either buffer.
template <typename K>
const K* sort_pass(PassSort sort, const SortBuffers& b, cub::DoubleBuffer<uint32_t>& values, uint32_t count,
                   int bits, cudaStream_t stream) {
  K* keys_a = static_cast<K*>(b.keys_a);
  if constexpr (sizeof(K) == 8) {
    if (rank_sort_takes(sort, sizeof(K), count)) {
      run_kernel_sort([&] { rank_sort_pairs(keys_a, values.Current(), count, nullptr, 0, stream); });
      return keys_a;
    }
  }
  if constexpr (sizeof(K) >= 4) {
    if (kernel_takes<K>(sort)) {
      run_kernel_sort([&] {
        if (sort == PassSort::kRadix) {
          radix_sort_pairs(keys_a, values.Current(), count, 0, bits, b.temp, b.temp_bytes, stream);
        } else if constexpr (sizeof(K) == 8) {
          merge_sort_pairs(keys_a, values.Current(), count, b.temp, b.temp_bytes, stream);
        }
      });
      return keys_a;
    }
  }
  cub::DoubleBuffer<K> keys(keys_a, static_cast<K*>(b.keys_b));
  size_t bytes = b.temp_bytes;
  GSORT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(b.temp, bytes, keys, values, count, 0, bits, stream));
  return keys.Current();
}

const void* sort_last_word(const KeyFormat& f, const SortBuffers& b, cub::DoubleBuffer<uint32_t>& values,
                           uint32_t count, cudaStream_t stream) {
  const int bits = static_cast<int>(8 * f.last_bytes);
  switch (f.last_type) {
    case WordType::kU16: return sort_pass<uint16_t>(f.sort, b, values, count, bits, stream);
    case WordType::kU32: return sort_pass<uint32_t>(f.sort, b, values, count, bits, stream);
    case WordType::kU64: break;
  }
  return sort_pass<uint64_t>(f.sort, b, values, count, bits, stream);
}

}  // namespace

size_t key_sort_temp_bytes(const KeyFormat& format, uint64_t count) {
  const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(count, 0xFFFFFFFFu));
  size_t bytes = last_pass_temp_bytes(format, n);
  if (format.words > 1) bytes = std::max(bytes, pass_temp_bytes<uint64_t>(format.sort, n, 64));
  return bytes;
}

SortedKeys sort_keys(const KeyFormat& format, const SortBuffers& buffers, uint64_t count, uint32_t index_base,
                     cudaStream_t stream) {
  SortedKeys result{buffers.values_a, buffers.keys_a};
  if (count == 0) return result;
  if (count > 0xFFFFFFFFu) throw Error("internal error: a GPU sort group holds 2^32 or more keys");
  const uint32_t n = static_cast<uint32_t>(count);
  const size_t needed = key_sort_temp_bytes(format, n);
  if (needed > buffers.temp_bytes) {
    throw Error("internal error: the GPU sort needs " + std::to_string(needed) + " bytes of scratch, " +
                std::to_string(buffers.temp_bytes) + " were planned");
  }
  cub::DoubleBuffer<uint32_t> values(buffers.values_a, buffers.values_b);
  const void* keys = sort_last_word(format, buffers, values, n, stream);
  for (uint32_t w = format.words - 1; w-- > 0;) {
    // The earlier keys are spent: reuse keys_a for this word in current order.
    uint64_t* word = static_cast<uint64_t*>(buffers.keys_a);
    launch_gather_column(buffers.columns + w * buffers.column_stride, values.Current(), index_base, n, word, stream);
    keys = sort_pass<uint64_t>(format.sort, buffers, values, n, 64, stream);
  }
  result.order = values.Current();
  result.keys = keys;
  return result;
}

}  // namespace gsort::kernels
