// The records that follow a device run, read while that run is written.
// While a compressed run is sorted, compressed and written, the disk has
// little to do (zstd is the slow part): the next records are read
// meanwhile, on a thread of its own, into a host buffer of up to half of
// -S, and the next run is filled from there first. Plain runs keep the
// disk writing: reading beside that was slower than after it
// (docs/benchmarks.md, the disk that does not read and write at once).
#pragma once

#include <cstdint>
#include <exception>
#include <thread>

#include "io/input/input_set.h"
#include "src/chunk_sort/sort_backend.h"
#include "src/core/host_buffer.h"
#include "src/core/thread_pool.h"

namespace gsort {

class NextRunAhead {
 public:
  // Reads from `inputs`, at most `most_bytes` at a time (whole records).
  NextRunAhead(InputSet& inputs, uint32_t record_size, uint64_t most_bytes);
  ~NextRunAhead();  // waits for a read under way
  NextRunAhead(const NextRunAhead&) = delete;
  NextRunAhead& operator=(const NextRunAhead&) = delete;

  // Starts reading the next `records` records (at most what the buffer
  // holds, made at the first start), where none read ahead wait unused.
  void start(uint64_t records);
  // Fills `resident` through its slots with up to `count` records, those
  // read ahead first, then the input's (the pool reads); returns how many.
  uint64_t read_into(ThreadPool& pool, ResidentSort& resident, uint64_t count);

  size_t started() const { return started_; }
  uint64_t bytes() const { return bytes_; }

 private:
  // The read under way finished; its error rethrown.
  void wait();

  InputSet& inputs_;
  const uint32_t record_size_;
  const uint64_t most_records_;
  HostBuffer buffer_;
  uint64_t begin_ = 0, end_ = 0;  // records read ahead, not yet used
  std::thread thread_;
  std::exception_ptr error_;
  size_t started_ = 0;
  uint64_t bytes_ = 0;
};

}  // namespace gsort
