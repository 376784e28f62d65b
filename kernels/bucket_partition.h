// Splitting a rank's slice into one bucket per rank on its GPU, for the
// distributed sort: each record's destination by a binary search over the
// splitters' positions (key words, then the global record number), a
// stable radix sort of (destination, record number in the slice) pairs,
// then a gather of the whole records into bucket order. The same order as
// the host's Partitioner (src/distributed/partition/partition.h).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "src/keys/key_field.h"

namespace gsort::kernels {

struct DestinationArgs {
  const uint8_t* records = nullptr;  // device: the slice
  uint32_t record_size = 0;
  uint64_t count = 0;                // < 2^32
  uint64_t first_index = 0;          // global record number of the slice's first record
  const KeyField* fields = nullptr;  // device copy of the layout's fields
  int field_count = 0;
  uint32_t key_words = 0;            // 8-byte words of the normalised key
  // Each splitter as key_words big-endian key words (zero past the key)
  // followed by its global record number: key_words + 1 words apiece.
  const uint64_t* splitters = nullptr;
  int splitter_count = 0;
  uint16_t* destinations = nullptr;  // out: each record's rank
  uint32_t* indices = nullptr;       // out: index_base .. index_base+count-1
  uint32_t index_base = 0;           // the first record's position in the slice
};

// Enqueues the destinations' search; throws CudaError if the launch fails.
void launch_destinations(const DestinationArgs& args, cudaStream_t stream);

// CUB scratch bytes to sort `count` destinations of `bits` bits.
size_t destination_sort_temp_bytes(uint64_t count, int bits);

// Sorts (destination, index) pairs stably by the low `bits` bits of the
// destination. Each pair of buffers is (current, alternate); on return
// *keys and *indices point at the buffer that holds the sorted data.
void sort_destinations(void* temp, size_t temp_bytes, uint16_t** keys, uint16_t* keys_alternate, uint32_t** indices,
                       uint32_t* indices_alternate, uint64_t count, int bits, cudaStream_t stream);

// out[i] = the record at records[order[i]], `record_size` bytes each.
void launch_gather_records(const uint8_t* records, uint32_t record_size, const uint32_t* order, uint64_t count,
                           uint8_t* out, cudaStream_t stream);

// starts[d] = the first position of destination d in the sorted
// destinations, for d in 0 .. buckets (starts[buckets] = count).
void launch_bucket_starts(const uint16_t* sorted, uint64_t count, int buckets, uint64_t* starts,
                          cudaStream_t stream);

}  // namespace gsort::kernels
