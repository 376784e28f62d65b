// Closing the gaps between pieces of one buffer: each piece moves down to
// follow the one before it, on the pool's threads. The parallel merge under
// -u writes each range at the place it would take if nothing were dropped,
// and moves the ranges together once the records each kept are known.
#pragma once

#include <cstdint>
#include <vector>

#include "src/core/thread_pool.h"

namespace gsort {

struct Piece {
  uint64_t from = 0;   // where it is: its offset in the buffer
  uint64_t bytes = 0;
};

// Moves the pieces (in order of `from`, none overlapping the next) to
// consecutive places from offset 0 of `base`; returns the bytes they take
// then. A move that overlaps itself goes in steps no thread's copy meets
// another's; `scratch_bytes`: memory it may take for that (the threads'
// share of each piece's distance).
uint64_t close_gaps(ThreadPool& pool, uint8_t* base, const std::vector<Piece>& pieces, uint64_t scratch_bytes);

}  // namespace gsort
