#include "kernels/permute.h"

#include <algorithm>

#include "src/cuda/check.h"

namespace gsort::gpu {
namespace {

constexpr int kThreads = 256;
constexpr uint32_t kTileUnits = 4096;  // units (T) a block moves per tile
constexpr uint64_t kMaxBlocks = 16384;

__global__ void gather_column_kernel(const uint64_t* column, const uint32_t* order, uint32_t base, uint64_t count,
                                     uint64_t* out) {
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    out[i] = column[order[i] - base];
  }
}

// Each tile is `tile_records` consecutive output records; consecutive threads
// move consecutive units of the tile, so writes are coalesced and reads are
// contiguous within each source record.
template <typename T>
__global__ void gather_records_kernel(const T* records, uint32_t units_per_record, uint32_t tile_records,
                                      const uint32_t* order, uint32_t base, uint64_t count, T* out) {
  const uint64_t tiles = (count + tile_records - 1) / tile_records;
  for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const uint64_t first = tile * tile_records;
    const uint32_t records_here = static_cast<uint32_t>(min(uint64_t{tile_records}, count - first));
    const uint32_t units = records_here * units_per_record;
    T* dst = out + first * units_per_record;
    for (uint32_t u = threadIdx.x; u < units; u += blockDim.x) {
      const uint32_t r = u / units_per_record;
      const uint32_t k = u - r * units_per_record;
      const uint64_t src = order[first + r] - base;
      dst[u] = records[src * units_per_record + k];
    }
  }
}

template <typename T>
void launch_records(const uint8_t* records, uint32_t record_size, const uint32_t* order, uint32_t base,
                    uint64_t count, uint8_t* out, cudaStream_t stream) {
  const uint32_t units_per_record = record_size / static_cast<uint32_t>(sizeof(T));
  const uint32_t tile_records = std::max<uint32_t>(1, kTileUnits / units_per_record);
  const uint64_t tiles = (count + tile_records - 1) / tile_records;
  const dim3 grid(static_cast<unsigned>(std::min(tiles, kMaxBlocks)));
  gather_records_kernel<T><<<grid, kThreads, 0, stream>>>(reinterpret_cast<const T*>(records), units_per_record,
                                                          tile_records, order, base, count, reinterpret_cast<T*>(out));
  GSORT_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_gather_column(const uint64_t* column, const uint32_t* order, uint32_t index_base, uint64_t count,
                          uint64_t* out, cudaStream_t stream) {
  if (count == 0) return;
  const dim3 grid(static_cast<unsigned>(std::min<uint64_t>((count + kThreads - 1) / kThreads, kMaxBlocks)));
  gather_column_kernel<<<grid, kThreads, 0, stream>>>(column, order, index_base, count, out);
  GSORT_CUDA_CHECK_LAUNCH();
}

void launch_gather_records(const uint8_t* records, uint32_t record_size, const uint32_t* order,
                           uint32_t index_base, uint64_t count, uint8_t* out, cudaStream_t stream) {
  if (count == 0) return;
  if (record_size % 16 == 0) return launch_records<uint4>(records, record_size, order, index_base, count, out, stream);
  if (record_size % 8 == 0) return launch_records<uint2>(records, record_size, order, index_base, count, out, stream);
  if (record_size % 4 == 0) return launch_records<uint32_t>(records, record_size, order, index_base, count, out, stream);
  if (record_size % 2 == 0) return launch_records<uint16_t>(records, record_size, order, index_base, count, out, stream);
  launch_records<uint8_t>(records, record_size, order, index_base, count, out, stream);
}

}  // namespace gsort::gpu
