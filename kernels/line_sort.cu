#include "kernels/line_sort.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>

#include "src/cuda/check.h"
#include "src/keys/line_image.h"

namespace gsort::kernels {
namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(uint64_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

__device__ const uint8_t* line_text(const LineChunkDevice& c, uint32_t line, uint64_t* len) {
  *len = c.starts[line + 1] - c.starts[line] - 1;
  return c.text + c.starts[line];
}

__global__ void first_words(LineImageSpec spec, LineChunkDevice c, uint64_t* keys, uint32_t* vals) {
  const uint64_t i = blockIdx.x * uint64_t{blockDim.x} + threadIdx.x;
  if (i >= c.count) return;
  uint64_t len = 0;
  const uint8_t* line = line_text(c, static_cast<uint32_t>(i), &len);
  keys[i] = line_image_word(spec, line, len, 0);
  vals[i] = static_cast<uint32_t>(i);
}

__global__ void first_heads(const uint64_t* keys, const uint32_t* sorted, uint32_t n, uint32_t* head,
                            uint32_t* order) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  head[i] = i == 0 || keys[i] != keys[i - 1];
  order[i] = sorted[i];
}

// Per segment (seg holds 1-based ids), the longest image of its members.
__global__ void segment_longest(LineImageSpec spec, LineChunkDevice c, const uint32_t* order, const uint32_t* seg,
                                unsigned long long* longest) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= c.count) return;
  uint64_t len = 0;
  const uint8_t* line = line_text(c, order[i], &len);
  const LineImageView v = view_line_image(spec, line, len);
  atomicMax(&longest[seg[i]], static_cast<unsigned long long>(line_image_length(spec, v)));
}

// 1 for a position in a segment of two or more whose images go on past word depth - 1.
__global__ void active_flags(const uint32_t* head, const uint32_t* seg, const uint64_t* longest, uint32_t n,
                             uint64_t depth, uint32_t* flag) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const bool single = head[i] && (i + 1 == n || head[i + 1]);
  flag[i] = !single && longest[seg[i]] > 8 * depth;
}

__global__ void scatter_positions(const uint32_t* flag, const uint32_t* offset, uint32_t n, uint32_t* positions) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[i]) positions[offset[i]] = i;
}

__global__ void next_words(LineImageSpec spec, LineChunkDevice c, const uint32_t* order, const uint32_t* positions,
                           uint32_t m, uint64_t depth, uint64_t* keys, uint32_t* vals) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  uint64_t len = 0;
  const uint8_t* line = line_text(c, order[positions[k]], &len);
  keys[k] = line_image_word(spec, line, len, depth);
  vals[k] = k;
}

__global__ void segment_keys(const uint32_t* seg, const uint32_t* positions, const uint32_t* by_word, uint32_t m,
                             uint32_t* segkey, uint32_t* iota) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  segkey[k] = seg[positions[by_word[k]]];
  iota[k] = k;
}

// The refined order of the active positions, and the heads of new segments.
__global__ void refined_order(const uint32_t* order, const uint32_t* positions, const uint32_t* by_word,
                              const uint64_t* words, const uint32_t* final_idx, const uint32_t* final_seg, uint32_t m,
                              uint32_t* new_line, uint32_t* head) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  const uint32_t j = final_idx[k];
  new_line[k] = order[positions[by_word[j]]];
  if (k > 0 && final_seg[k] == final_seg[k - 1] && words[j] != words[final_idx[k - 1]]) head[positions[k]] = 1;
}

__global__ void store_order(const uint32_t* positions, const uint32_t* new_line, uint32_t m, uint32_t* order) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < m) order[positions[k]] = new_line[k];
}

template <typename K>
void sort_pairs(const LineSortBuffers& b, cub::DoubleBuffer<K>& keys, cub::DoubleBuffer<uint32_t>& vals, uint32_t n,
                cudaStream_t stream) {
  size_t bytes = b.temp_bytes;
  GSORT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(b.temp, bytes, keys, vals, n, 0, static_cast<int>(8 * sizeof(K)), stream));
}

// The active positions (compacted into b.positions); returns how many.
uint32_t compact_active(const LineSortBuffers& b, uint32_t n, uint64_t depth, cudaStream_t stream) {
  active_flags<<<blocks_for(n), kThreads, 0, stream>>>(b.head, b.seg, b.seg_longest, n, depth, b.vals_b);
  GSORT_CUDA_CHECK_LAUNCH();
  size_t bytes = b.temp_bytes;
  GSORT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(b.temp, bytes, b.vals_b, b.vals_c, n, stream));
  scatter_positions<<<blocks_for(n), kThreads, 0, stream>>>(b.vals_b, b.vals_c, n, b.positions);
  GSORT_CUDA_CHECK_LAUNCH();
  uint32_t last[2] = {0, 0};
  GSORT_CUDA_CHECK(cudaMemcpyAsync(&last[0], b.vals_b + n - 1, sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
  GSORT_CUDA_CHECK(cudaMemcpyAsync(&last[1], b.vals_c + n - 1, sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
  GSORT_CUDA_CHECK(cudaStreamSynchronize(stream));
  return last[0] + last[1];
}

// One round: the tied segments' members sorted by image word `depth`.
// Returns false when no segment is left to refine.
bool refine_round(const LineImageSpec& spec, const LineChunkDevice& c, const LineSortBuffers& b, uint64_t depth,
                  cudaStream_t stream) {
  const uint32_t n = c.count;
  size_t bytes = b.temp_bytes;
  GSORT_CUDA_CHECK(cub::DeviceScan::InclusiveSum(b.temp, bytes, b.head, b.seg, n, stream));
  GSORT_CUDA_CHECK(cudaMemsetAsync(b.seg_longest, 0, (uint64_t{n} + 1) * sizeof(uint64_t), stream));
  segment_longest<<<blocks_for(n), kThreads, 0, stream>>>(spec, c, b.order, b.seg,
                                                          reinterpret_cast<unsigned long long*>(b.seg_longest));
  GSORT_CUDA_CHECK_LAUNCH();
  const uint32_t m = compact_active(b, n, depth, stream);
  if (m == 0) return false;
  next_words<<<blocks_for(m), kThreads, 0, stream>>>(spec, c, b.order, b.positions, m, depth, b.keys_a, b.vals_a);
  GSORT_CUDA_CHECK_LAUNCH();
  cub::DoubleBuffer<uint64_t> words(b.keys_a, b.keys_b);
  cub::DoubleBuffer<uint32_t> by_word(b.vals_a, b.vals_b);
  sort_pairs(b, words, by_word, m, stream);
  // Stably by segment: vals_c and the by_word buffer not in use carry the indices.
  uint32_t* spare = by_word.Current() == b.vals_a ? b.vals_b : b.vals_a;
  segment_keys<<<blocks_for(m), kThreads, 0, stream>>>(b.seg, b.positions, by_word.Current(), m, b.segkey_a, b.vals_c);
  GSORT_CUDA_CHECK_LAUNCH();
  cub::DoubleBuffer<uint32_t> segs(b.segkey_a, b.segkey_b);
  cub::DoubleBuffer<uint32_t> idx(b.vals_c, spare);
  sort_pairs(b, segs, idx, m, stream);
  uint32_t* new_line = segs.Current() == b.segkey_a ? b.segkey_b : b.segkey_a;
  refined_order<<<blocks_for(m), kThreads, 0, stream>>>(b.order, b.positions, by_word.Current(), words.Current(),
                                                        idx.Current(), segs.Current(), m, new_line, b.head);
  GSORT_CUDA_CHECK_LAUNCH();
  store_order<<<blocks_for(m), kThreads, 0, stream>>>(b.positions, new_line, m, b.order);
  GSORT_CUDA_CHECK_LAUNCH();
  return true;
}

}  // namespace

size_t line_sort_temp_bytes(uint32_t count) {
  size_t most = 0, bytes = 0;
  cub::DoubleBuffer<uint64_t> k64(nullptr, nullptr);
  cub::DoubleBuffer<uint32_t> k32(nullptr, nullptr), v(nullptr, nullptr);
  GSORT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k64, v, count, 0, 64));
  most = std::max(most, bytes);
  GSORT_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k32, v, count, 0, 32));
  most = std::max(most, bytes);
  uint32_t* p = nullptr;
  GSORT_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, p, p, count));
  most = std::max(most, bytes);
  GSORT_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, p, p, count));
  return std::max(most, bytes);
}

uint64_t sort_line_chunk(const LineImageSpec& spec, const LineChunkDevice& chunk, const LineSortBuffers& b,
                         unsigned rounds, cudaStream_t stream) {
  const uint32_t n = chunk.count;
  first_words<<<blocks_for(n), kThreads, 0, stream>>>(spec, chunk, b.keys_a, b.vals_a);
  GSORT_CUDA_CHECK_LAUNCH();
  cub::DoubleBuffer<uint64_t> keys(b.keys_a, b.keys_b);
  cub::DoubleBuffer<uint32_t> vals(b.vals_a, b.vals_b);
  sort_pairs(b, keys, vals, n, stream);
  first_heads<<<blocks_for(n), kThreads, 0, stream>>>(keys.Current(), vals.Current(), n, b.head, b.order);
  GSORT_CUDA_CHECK_LAUNCH();
  uint64_t depth = 1;
  for (unsigned r = 0; r < rounds && refine_round(spec, chunk, b, depth, stream); ++r) ++depth;
  GSORT_CUDA_CHECK(cudaStreamSynchronize(stream));
  return depth;
}

}  // namespace gsort::kernels
