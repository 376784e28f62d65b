// Sorting one chunk on the device, piece by piece as its records become
// available:
//
//   copy_in stream:  piece p, host -> staging slot p % 3
//   compute stream:  extract piece p's keys into the group's arrays;
//                    when a group is full or the chunk ends: sort it
//   copy_out stream: the group's order (and keys, when groups must be merged)
//                    -> host
//
// Events order the streams: a slot is refilled only after its extraction,
// a group's arrays are reused only after its results reached the host.
// Chunks larger than one group are merged on the host (host_merge.h).
#pragma once

#include <cstdint>
#include <vector>

#include "src/chunk_sort/gpu/device_context.h"
#include "src/chunk_sort/sort_backend.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"

namespace gsort::gpu {

class ChunkSorter {
 public:
  // The caller holds the device for the sorter's lifetime; `pool` does the
  // host-side work (pinned blocks, bounce copies, the merge of groups).
  ChunkSorter(DeviceContext& device, const uint8_t* records, ThreadPool& pool);
  // Waits for the device work it enqueued; never throws.
  ~ChunkSorter();
  ChunkSorter(const ChunkSorter&) = delete;
  ChunkSorter& operator=(const ChunkSorter&) = delete;

  // Records [0, available) are on the host: enqueues their full pieces.
  void add_records(uint64_t available);
  // The chunk holds `count` records: writes their sorted order.
  void finish_order(uint64_t count, uint32_t* order, const KeyLayout& layout);

  // Device phase times, merge time and groups sorted (valid after finish).
  const BackendTimings& timings() const { return timings_; }

 private:
  void enqueue_piece(uint64_t begin, uint64_t end);
  kernels::SortedKeys sort_group();
  void flush_group();
  // Copies `count` sorted indices to the host and waits for them; pageable
  // destinations go through the pinned bounce buffer and the pool.
  void copy_order_out(const uint32_t* sorted, uint64_t count, uint32_t* order);
  template <typename P>
  void merge_runs(uint32_t* order, const KeyLayout& layout);

  struct Run {
    const uint8_t* block;
    uint64_t size;
  };

  DeviceContext& device_;
  const uint8_t* records_;
  ThreadPool& pool_;
  const GroupArrays& group_;
  uint64_t next_ = 0;          // records enqueued
  uint64_t pieces_ = 0;        // pieces enqueued
  uint64_t group_index_ = 0;   // the group being filled
  bool wait_for_results_ = false;
  bool final_ = false;
  std::vector<Run> runs_;      // groups already sorted, results on the host
  BackendTimings timings_;
};

}  // namespace gsort::gpu
