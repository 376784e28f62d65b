// A stream read into a large fresh buffer through a few small stages that
// stay warm (issue 38). The one reader's copies out of the pipe land in
// pages that are present and in the cache; copier threads of the stream's
// own (not the shared pool, whose threads may all be sorting) copy each
// full stage on to its place, taking the destination's page faults, while
// the reader fills the next stage. Reading straight into fresh memory,
// its pages faulted in ahead, was slower (bench/pipe_floor_bench; the
// figures are in docs/benchmarks.md, pipe, 2026-11-28).
//
//   StagedStream staged(record_bytes);
//   uint64_t n = staged.read(source, buffer, capacity, arrived);
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "src/core/host_buffer.h"

namespace gsort {

class StagedStream {
 public:
  static constexpr uint64_t kStageBytes = uint64_t{4} << 20;
  static constexpr int kStages = 4;
  static constexpr int kCopiers = 3;
  static constexpr uint64_t kArrivalBytes = uint64_t{32} << 20;  // arrivals are told this often

  // Reads up to `most` bytes into its argument; fewer only where the
  // stream has ended (0 there). May throw.
  using Source = std::function<uint64_t(uint8_t* into, uint64_t most)>;
  // Told that to[0, n) holds its bytes, in order, as they come (may be null).
  using Arrived = std::function<void(uint64_t n)>;

  // `unit`: each stage holds a whole number of units (a record's bytes).
  explicit StagedStream(uint64_t unit = 1, uint64_t stage_bytes = kStageBytes,
                        uint64_t arrival_bytes = kArrivalBytes);
  ~StagedStream();
  StagedStream(const StagedStream&) = delete;
  StagedStream& operator=(const StagedStream&) = delete;

  // Reads `source` into to[0, most) until it ends or `most` is reached;
  // returns the bytes read, every one in place. Where the source throws,
  // the copies under way end first.
  uint64_t read(const Source& source, uint8_t* to, uint64_t most, const Arrived& arrived);

 private:
  struct Copy {
    const uint8_t* from;
    uint8_t* to;
    uint64_t bytes;
    int stage;
  };
  void copier();
  void submit(const Copy& copy);
  void wait_for(int stage);  // until that stage's copy is done
  void wait_for_all();

  const uint64_t stage_bytes_;
  const uint64_t arrival_bytes_;
  HostBuffer stages_[kStages];
  std::mutex mutex_;
  std::condition_variable queued_;  // a copy to do, or stop
  std::condition_variable copied_;  // a copy done
  std::deque<Copy> queue_;
  bool busy_[kStages] = {};  // a stage whose copy is queued or under way
  bool stop_ = false;
  std::vector<std::thread> copiers_;  // last: start once the members above exist
};

}  // namespace gsort
