// Sorting the lines of a chunk on the device by their images
// (src/keys/line_image.h), as Deshpande and Narayanan do for strings: CUB's
// radix sort of (image word 0, line) pairs, then rounds that refine only
// the tied segments by their next word (a segment whose members' images
// are all spent leaves the rounds), dropping singletons as they appear.
// What still ties after the rounds is settled on the host
// (src/lines/tie_refine.h): its segments share image words [0, depth).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "src/keys/line_key.h"

namespace gsort::kernels {

// A chunk's lines on the device: text, and starts (count + 1 entries).
struct LineChunkDevice {
  const uint8_t* text = nullptr;
  const uint64_t* starts = nullptr;
  uint32_t count = 0;
};

// Device arrays of `count` entries each (seg_longest count + 1), and CUB's
// scratch of line_sort_temp_bytes(count).
struct LineSortBuffers {
  uint64_t* keys_a = nullptr;
  uint64_t* keys_b = nullptr;
  uint32_t* vals_a = nullptr;
  uint32_t* vals_b = nullptr;
  uint32_t* vals_c = nullptr;
  uint32_t* order = nullptr;      // out: the sorted line indices
  uint32_t* head = nullptr;       // out: 1 where a segment of equal words starts
  uint32_t* seg = nullptr;
  uint32_t* segkey_a = nullptr;
  uint32_t* segkey_b = nullptr;
  uint32_t* positions = nullptr;
  uint64_t* seg_longest = nullptr;
  void* temp = nullptr;
  size_t temp_bytes = 0;
};

// Device bytes per line that LineSortBuffers takes (without CUB's scratch).
constexpr uint64_t kLineSortBytesPerLine = 3 * sizeof(uint64_t) + 9 * sizeof(uint32_t);

size_t line_sort_temp_bytes(uint32_t count);

// Sorts the chunk's lines into b.order with up to `rounds` refining rounds
// on `stream` (synchronising with it between rounds). Returns the depth:
// lines between two heads tie on image words [0, depth). count > 0.
uint64_t sort_line_chunk(const LineImageSpec& spec, const LineChunkDevice& chunk, const LineSortBuffers& b,
                         unsigned rounds, cudaStream_t stream);

}  // namespace gsort::kernels
