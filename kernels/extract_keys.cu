#include "kernels/extract_keys.h"

#include <algorithm>

#include "src/cuda/check.h"

namespace gsort::kernels {
namespace {

constexpr int kThreads = 256;

// `n` (1..8) bytes at p as the high bytes of a big-endian word, zero padded.
__device__ __forceinline__ uint64_t load_be_word(const uint8_t* p, uint32_t n) {
  uint64_t v = 0;
#pragma unroll
  for (uint32_t k = 0; k < 8; ++k) v = (v << 8) | (k < n ? p[k] : 0u);
  return v;
}

// Ones in the high n bytes (n in 1..8).
__device__ __forceinline__ uint64_t high_bytes_mask(uint32_t n) {
  return n >= 8 ? ~uint64_t{0} : ~(~uint64_t{0} >> (8 * n));
}

// Word w of a single raw-bytes field: `n` key bytes (8, or fewer in the last word).
__device__ __forceinline__ uint64_t bytes_field_word(const KeyField& f, const uint8_t* record, uint32_t w,
                                                     uint32_t n) {
  const uint64_t v = load_be_word(record + f.offset + 8 * w, n);
  return f.descending ? v ^ high_bytes_mask(n) : v;
}

template <typename K, ExtractPath kPath>
__global__ void extract_keys_kernel(KeyFormat format, ExtractArgs a) {
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < a.count; i += stride) {
    const uint8_t* record = a.records + i * a.record_size;
    const uint64_t out = a.out_offset + i;
    uint64_t last;
    if constexpr (kPath == ExtractPath::kSingleNumeric) {
      last = normalised_number(format.single, record);  // already right-aligned
    } else if constexpr (kPath == ExtractPath::kSingleBytes) {
      for (uint32_t w = 0; w + 1 < format.words; ++w) {
        a.columns[w * a.column_stride + out] = bytes_field_word(format.single, record, w, 8);
      }
      last = bytes_field_word(format.single, record, format.words - 1, format.last_bytes) >> format.last_shift();
    } else {
      for (uint32_t w = 0; w + 1 < format.words; ++w) {
        a.columns[w * a.column_stride + out] = normalised_key_word(a.fields, a.field_count, record, w);
      }
      last = normalised_key_word(a.fields, a.field_count, record, format.words - 1) >> format.last_shift();
    }
    static_cast<K*>(a.last_keys)[out] = static_cast<K>(last);
    a.values[out] = a.index_base + static_cast<uint32_t>(i);
  }
}

template <typename K>
void launch_for_type(const KeyFormat& format, const ExtractArgs& args, cudaStream_t stream) {
  const uint64_t blocks = std::min<uint64_t>((args.count + kThreads - 1) / kThreads, 8192);
  const dim3 grid(static_cast<unsigned>(blocks));
  switch (format.path) {
    case ExtractPath::kSingleNumeric:
      extract_keys_kernel<K, ExtractPath::kSingleNumeric><<<grid, kThreads, 0, stream>>>(format, args);
      break;
    case ExtractPath::kSingleBytes:
      extract_keys_kernel<K, ExtractPath::kSingleBytes><<<grid, kThreads, 0, stream>>>(format, args);
      break;
    case ExtractPath::kGeneric:
      extract_keys_kernel<K, ExtractPath::kGeneric><<<grid, kThreads, 0, stream>>>(format, args);
      break;
  }
  GSORT_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_extract_keys(const KeyFormat& format, const ExtractArgs& args, cudaStream_t stream) {
  if (args.count == 0) return;
  switch (format.last_type) {
    case WordType::kU16: return launch_for_type<uint16_t>(format, args, stream);
    case WordType::kU32: return launch_for_type<uint32_t>(format, args, stream);
    case WordType::kU64: return launch_for_type<uint64_t>(format, args, stream);
  }
}

}  // namespace gsort::kernels
