// A sorted run as a final merge in ranges reads it (range_worker.h; the
// lines' range cut, src/merge/line_range_cut.h): its units (a run of
// records': records; a run of lines': bytes), any span of them, by many
// threads at once. A run in the temporary directory is one (FileMergeRun,
// over its view); a run of lines held in the GPU's memory is another
// (src/merge/held_runs.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "io/file/record_source.h"
#include "io/run/run_view.h"

namespace gsort {

// Units [begin, end) of a run, handed out in pieces read into a buffer.
class RunPieces {
 public:
  virtual ~RunPieces() = default;
  // The next units: *count of them (0 at the end) from the pointer, valid
  // until the next call.
  virtual const uint8_t* next(uint64_t* count) = 0;
};

class MergeRun {
 public:
  virtual ~MergeRun() = default;
  virtual uint64_t size() const = 0;  // units
  // A unit's bytes: 1 for lines', a record's for records'.
  virtual uint32_t unit_bytes() const { return 1; }
  // Copies units [first, first + count) to dst, unchecked (probes; the
  // pieces check what they read). `cache` as RunView::read_span's.
  virtual void read_span(uint64_t first, uint64_t count, uint8_t* dst, RunView::FrameCache* cache) const = 0;
  // The least buffer pieces() takes.
  virtual uint64_t least_buffer_bytes() const = 0;
  // Whether each piece costs a decode (the buffer is then one frame).
  virtual bool compressed() const { return false; }
  // Memory the run's reader holds besides the buffers (a frame index).
  virtual uint64_t index_bytes() const { return 0; }
  // Units [begin, end) in pieces read into `buffer` (`bytes` of it, at
  // least least_buffer_bytes()); by default each piece is a read_span of
  // as much as the buffer holds (runs in memory, whose bytes need no check).
  virtual std::unique_ptr<RunPieces> pieces(uint64_t begin, uint64_t end, uint8_t* buffer, uint64_t bytes) const;
};

// A run of the temporary directory, through its view (borrowed).
class FileMergeRun final : public MergeRun {
 public:
  explicit FileMergeRun(const RunView& view) : view_(view) {}
  uint64_t size() const override { return view_.size(); }
  uint32_t unit_bytes() const override { return view_.record_size(); }
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

// A run in the host's memory (borrowed): `units` of `unit_bytes` each. Its
// pieces are the span asked for, where it lies: nothing copied.
std::unique_ptr<MergeRun> merge_run_in_host(const uint8_t* data, uint64_t units, uint32_t unit_bytes = 1);

// A run's units read from its start to its end, for the merge in batches
// (runs held where no file holds them: device/device_runs.h).
std::unique_ptr<RecordSource> read_in_order(const MergeRun& run, std::string name);

}  // namespace gsort
