#include "kernels/gather_records.h"

#include <algorithm>

#include "src/cuda/check.h"

namespace gsort::kernels {
namespace {

constexpr int kThreads = 256;
constexpr uint64_t kMaxBlocks = 65535;

// One thread per word of the output: consecutive threads write consecutive
// words (coalesced), and read the words of one record together. Word is the
// widest type that divides the record size (records, and the buffers that
// hold them, start at 256-byte aligned device addresses).
template <typename Word>
__global__ void gather_records_kernel(const Word* records, uint32_t words_per_record, const uint32_t* order,
                                      uint64_t count, Word* out) {
  const uint64_t total = count * words_per_record;
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t w = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; w < total; w += stride) {
    const uint64_t i = w / words_per_record;
    const uint64_t word = w - i * words_per_record;
    out[w] = records[uint64_t{order[i]} * words_per_record + word];
  }
}

template <typename Word>
void launch(const uint8_t* records, uint32_t record_size, const uint32_t* order, uint64_t count, uint8_t* out,
            cudaStream_t stream) {
  const uint32_t words = record_size / sizeof(Word);
  const uint64_t total = count * words;
  const dim3 grid(static_cast<unsigned>(std::min<uint64_t>((total + kThreads - 1) / kThreads, kMaxBlocks)));
  gather_records_kernel<Word><<<grid, kThreads, 0, stream>>>(reinterpret_cast<const Word*>(records), words, order,
                                                              count, reinterpret_cast<Word*>(out));
  GSORT_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_gather_records(const uint8_t* records, uint32_t record_size, const uint32_t* order, uint64_t count,
                           uint8_t* out, cudaStream_t stream) {
  if (count == 0) return;
  if (record_size % 16 == 0) return launch<uint4>(records, record_size, order, count, out, stream);
  if (record_size % 8 == 0) return launch<uint64_t>(records, record_size, order, count, out, stream);
  if (record_size % 4 == 0) return launch<uint32_t>(records, record_size, order, count, out, stream);
  if (record_size % 2 == 0) return launch<uint16_t>(records, record_size, order, count, out, stream);
  launch<uint8_t>(records, record_size, order, count, out, stream);
}

}  // namespace gsort::kernels
