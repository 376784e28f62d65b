// Key extraction on the device: records of one piece -> the sort's key
// columns (see key_format.h) and each record's chunk index.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/key_format.h"

namespace gsort::kernels {

struct ExtractArgs {
  const uint8_t* records = nullptr;  // device: the piece's first record
  uint32_t record_size = 0;
  uint64_t count = 0;                // records in the piece
  uint64_t out_offset = 0;           // the piece's first position in the group's arrays
  uint32_t index_base = 0;           // the chunk index of the piece's first record
  uint64_t* columns = nullptr;       // words-1 uint64 columns, column_stride apart
  uint64_t column_stride = 0;
  void* last_keys = nullptr;         // the last word, right-aligned, as format.last_type
  uint32_t* values = nullptr;        // chunk indices
  const KeyField* fields = nullptr;  // device copy of the layout's fields (generic path)
  int field_count = 0;
};

// Enqueues the extraction on `stream`; throws CudaError if the launch fails.
void launch_extract_keys(const KeyFormat& format, const ExtractArgs& args, cudaStream_t stream);

}  // namespace gsort::kernels
