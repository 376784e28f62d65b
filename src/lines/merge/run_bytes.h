// A spilled run of lines as the final merge in ranges reads it (range_cut.h,
// range_merge.h): its bytes, any span of them, by many threads at once. A
// run in the temporary directory is one (FileRunBytes, over its view); a
// run held in the GPU's memory is another (device/held_runs.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "io/file/record_source.h"
#include "io/run/run_view.h"

namespace gsort {

// Bytes [begin, end) of a run, handed out in pieces read into a buffer.
class RunPieces {
 public:
  virtual ~RunPieces() = default;
  // The next bytes: *count of them (0 at the end) from the pointer, valid
  // until the next call.
  virtual const uint8_t* next(uint64_t* count) = 0;
};

class RunBytes {
 public:
  virtual ~RunBytes() = default;
  virtual uint64_t size() const = 0;
  // Copies bytes [first, first + count) to dst, unchecked (probes; the
  // pieces check what they read). `cache` as RunView::read_span's.
  virtual void read_span(uint64_t first, uint64_t count, uint8_t* dst, RunView::FrameCache* cache) const = 0;
  // The least buffer pieces() takes.
  virtual uint64_t least_buffer_bytes() const = 0;
  // Whether each piece costs a decode (the buffer is then one frame).
  virtual bool compressed() const { return false; }
  // Memory the run's reader holds besides the buffers (a frame index).
  virtual uint64_t index_bytes() const { return 0; }
  // Bytes [begin, end) in pieces read into `buffer` (`bytes` of it, at
  // least least_buffer_bytes()); by default each piece is a read_span of
  // as much as the buffer holds (runs in memory, whose bytes need no check).
  virtual std::unique_ptr<RunPieces> pieces(uint64_t begin, uint64_t end, uint8_t* buffer, uint64_t bytes) const;
};

// A run of the temporary directory, through its view (borrowed).
class FileRunBytes final : public RunBytes {
 public:
  explicit FileRunBytes(const RunView& view) : view_(view) {}
  uint64_t size() const override { return view_.size(); }
  void read_span(uint64_t first, uint64_t count, uint8_t* dst, RunView::FrameCache* cache) const override {
    view_.read_span(first, count, dst, cache);
  }
  uint64_t least_buffer_bytes() const override { return view_.least_buffer_bytes(); }
  bool compressed() const override { return view_.compressed(); }
  uint64_t index_bytes() const override { return view_.index_bytes(); }
  std::unique_ptr<RunPieces> pieces(uint64_t begin, uint64_t end, uint8_t* buffer, uint64_t bytes) const override;

 private:
  const RunView& view_;
};

// A run's bytes read from its start to its end, for the merge in batches
// (runs held where no file holds them: device/device_runs.h).
std::unique_ptr<RecordSource> read_in_order(const RunBytes& run, std::string name);

}  // namespace gsort
