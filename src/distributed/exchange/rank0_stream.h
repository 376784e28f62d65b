// What rank 0 alone can read (standard input, a pipe, a compressed file),
// sent on as it comes (issue 55): rank 0 puts each unit (a line, a record)
// into the bucket of the rank of its key range and sends every bucket
// through MPI when together they hold enough, its own to its file; every
// other rank appends what comes to its file until rank 0 ends the stream.
// Each rank's file then holds its range in input order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/distributed/local/received_files.h"
#include "src/distributed/ranks/rank_context.h"

namespace gsort {

// Rank 0's buckets.
class Rank0Buckets {
 public:
  Rank0Buckets(RankContext& rank, ReceivedFiles& received, uint64_t flush_bytes);
  // `bytes` of a unit for rank `to`, then `terminator` where it is one (>= 0).
  void add(int to, const uint8_t* data, uint64_t bytes, int terminator = -1);
  // Sends what the buckets hold, then tells every rank the stream ended.
  // Called once, also after a failure (kept on the fence).
  void end();

 private:
  void flush();

  RankContext& rank_;
  ReceivedFiles& received_;
  std::vector<std::string> buckets_;
  const uint64_t flush_bytes_;
  uint64_t held_ = 0;
};

// Every rank but 0: what rank 0 sends, appended to `received` (source 0)
// until the end. A failure to append is kept on the fence.
void receive_from_rank0(RankContext& rank, ReceivedFiles& received);

// The bytes rank 0's buckets send at a time, and the first bytes read that
// give the splitters, for the least -S of all ranks.
uint64_t rank0_flush_bytes(const RankContext& rank);
uint64_t rank0_sample_bytes(const RankContext& rank);

}  // namespace gsort
