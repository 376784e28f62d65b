// A stream read into fresh memory through two small buffers that stay warm
// (issue 38): the reader's copies out of the pipe land in pages that are
// present and in the cache, and each full buffer is copied on to its place
// by the pool's threads, which take the destination's page faults side by
// side, while the reader fills the other. Read straight into a large fresh
// buffer, 2 GB from `cat` came in 1.25x the time of `cat | cat`, with a
// thread faulting the pages in ahead; through two 8 MiB buffers, in 1.16x
// (docs/benchmarks.md, "H100 host, twenty-fourth session").
#pragma once

#include <cstdint>
#include <functional>

#include "src/core/host_buffer.h"
#include "src/core/thread_pool.h"

namespace gsort {

class StagedRead {
 public:
  static constexpr uint64_t kStageBytes = uint64_t{8} << 20;

  // Reads up to `most` bytes into its argument, fewer only at the end of
  // the stream (0 there); may throw.
  using Source = std::function<uint64_t(uint8_t* into, uint64_t most)>;
  // Told that to[0, n) holds its bytes, as they come (may be null).
  using Arrived = std::function<void(uint64_t n)>;

  // `unit`: the stages hold a whole number of units (a record's bytes).
  StagedRead(ThreadPool& pool, uint64_t unit = 1, uint64_t stage_bytes = kStageBytes);

  // Reads `source` into to[0, most) until it ends or `most` is reached;
  // returns the bytes read, every one of them in place.
  uint64_t read(const Source& source, uint8_t* to, uint64_t most, const Arrived& arrived);

 private:
  ThreadPool& pool_;
  const uint64_t stage_bytes_;
  HostBuffer stages_[2];
};

}  // namespace gsort
