// Spilled runs held outside the temporary directory, end to end in one
// reserved store (the GPU's memory: device/held_runs_on_device.h), as
// bytes whatever their unit (the line sort's today): written one
// run at a time by the spill's writer thread, then read by the final merge
// in ranges, by many threads at once, as MergeRun. Nothing touches the page
// cache or the disk, so a sort whose runs the store holds writes its input's
// bytes once, to the output.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/algo/line_index.h"
#include "src/core/host_buffer.h"
#include "src/merge/merge_run.h"

namespace gsort {

class HeldRuns {
 public:
  explicit HeldRuns(uint64_t capacity) : capacity_(capacity) {}
  virtual ~HeldRuns() = default;
  // The bytes reserved, and those the runs take so far.
  uint64_t capacity() const { return capacity_; }
  uint64_t used() const { return starts_.back() + open_; }
  // Appends to the run being written (a DataError-free Error where the
  // store is full: the plan reserves the input's size, which bounds it).
  void append(const uint8_t* data, uint64_t bytes);
  // Ends the run being written.
  void end_run();
  size_t runs() const { return starts_.size() - 1; }
  // Run r's bytes; the store must outlive them.
  std::unique_ptr<MergeRun> run(size_t r) const { return bytes_at(starts_[r], starts_[r + 1] - starts_[r]); }
  // Appends the lines of `lines` in `order` (all of them, each with its
  // terminator, end to end) to the run being written, gathered where the
  // store is; false, having appended nothing, where it cannot (the caller
  // writes them through its blocks). The device's store gathers them there
  // from a copy of the chunk, where the host's threads would fetch them a
  // line at a time from anywhere in it.
  virtual bool gather_lines(const LineSpan& lines, const uint32_t* order) {
    (void)lines, (void)order;
    return false;
  }
  // The runs, or parts of runs, that gather_lines appended so far.
  uint64_t gathered() const { return gathered_; }
  // `count` buffers of `bytes` for the writer of a run to fill, owned by the
  // store and the same for every run (one run is written at a time); none
  // where any host memory serves. The device's are pinned.
  virtual std::vector<uint8_t*> write_blocks(uint64_t /*bytes*/, unsigned /*count*/) { return {}; }
  // Where the runs are, for -v ("the GPU's memory (device 0)").
  virtual std::string where() const = 0;
  // Whether they count as device memory in the report (--stats'
  // device_resident): a device's store and the tests' stand-in for it.
  virtual bool on_device() const { return true; }

 protected:
  // Ends a run of `bytes` already in the store at used() (put there by
  // other means than append).
  void run_in_place(uint64_t bytes) {
    open_ += bytes;
    end_run();
  }
  // Throws where `bytes` more would outgrow the capacity.
  void check_room(uint64_t bytes) const;
  // Counts `bytes` that gather_lines put at used() into the run being written.
  void gathered_in_place(uint64_t bytes) {
    open_ += bytes;
    ++gathered_;
  }
  // Copies `bytes` of data to the store's byte `at` (within the capacity).
  virtual void store(uint64_t at, const uint8_t* data, uint64_t bytes) = 0;
  // The store's bytes [first, first + size) as a run.
  virtual std::unique_ptr<MergeRun> bytes_at(uint64_t first, uint64_t size) const = 0;

 private:
  const uint64_t capacity_;
  uint64_t open_ = 0;                 // the bytes of the run being written
  uint64_t gathered_ = 0;
  std::vector<uint64_t> starts_{0};  // each run's first byte, and the end of the last
};

// The same store in the host's memory, for the tests of a machine without
// a GPU (test_hooks::hold_runs_in_host): the held runs' pipeline, all
// but the device's copies.
std::unique_ptr<HeldRuns> hold_runs_in_host(uint64_t bytes);
// Runs already sorted in place in the host's memory, end to end in `bytes`
// (taken): run r is [bounds[r], bounds[r + 1]) (a stream's pieces sorted
// while it arrived: src/lines/arriving_pieces.h).
std::unique_ptr<HeldRuns> hold_runs_in_place(HostBuffer bytes, const std::vector<uint64_t>& bounds);

}  // namespace gsort
