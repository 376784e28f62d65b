// One worker of the parallel merge (parallel_merge.h): merges one key range
// of every run at a time straight into its place in the output. Each run's
// part of the range is read through a cursor (io/run/run_view.h) into a
// buffer of the worker's own, checked block by block; a loser tree over
// the runs' heads (ties to the earlier run) picks each next record, which
// is copied once, into the output. With -u, a record whose key equals the
// last kept one's is dropped (ranges never split a key under -u).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "io/run/run_view.h"
#include "src/core/host_buffer.h"
#include "src/keys/key_layout.h"

namespace gsort {

// What merging one range left.
struct RangeResult {
  uint64_t kept = 0;              // records written, from the range's start
  uint64_t dropped = 0;           // records -u dropped
  uint64_t dropped_hash_sum = 0;  // their hash_record sum, where asked for (--verify)
  double read_s = 0;              // reading and checking the runs' blocks
};

class RangeMerger {
 public:
  // runs: in the merge's order. buffer_bytes: each run's read buffer (at
  // least its least_buffer_bytes()). unique_by: -u's layout, or null.
  // sum_dropped: sum the dropped records' hashes (for --verify).
  RangeMerger(const std::vector<const RunView*>& runs, const KeyLayout& layout, uint64_t buffer_bytes,
              const KeyLayout* unique_by, bool sum_dropped);

  // Merges records [begin[r], end[r]) of each run r into `out`, which has
  // room for all of them. bytes_read (may be null) is advanced by the
  // bytes each buffer delivers.
  RangeResult merge(const std::vector<uint64_t>& begin, const std::vector<uint64_t>& end, uint8_t* out,
                    std::atomic<uint64_t>* bytes_read);

 private:
  struct Head;
  RangeResult merge_heads(std::vector<Head>& heads, uint8_t* out, std::atomic<uint64_t>* bytes_read,
                          double* read_s);

  const std::vector<const RunView*> runs_;
  const KeyLayout& layout_;
  const KeyLayout* const unique_by_;
  const bool sum_dropped_;
  const uint64_t buffer_bytes_;
  HostBuffer buffers_;  // one buffer per run, end to end
};

}  // namespace gsort
