// A spilled run as the parallel merge reads it: any range of its records,
// by many threads at once (pread on the run's descriptors). A run is one or
// more segment files, each a contiguous slice of the run (spill streams);
// the view checks every segment's header when it is made (and holds plain
// segments' block checksums, so that a cut file still checks), and a cursor
// checks every block (plain runs, run_blocks.h) or frame (compressed runs)
// it reads before handing out any of its records. A damaged run is a
// DataError naming its file.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "io/file/file.h"
#include "io/run/run_file.h"
#include "io/run/sorted_records.h"

namespace gsort {

// One segment of a run: its open file (borrowed: it must outlive the view)
// and the identity its header must carry.
struct RunViewSegment {
  File* file = nullptr;
  RunIdentity identity;
};

class RunView final : public SortedRecords {
 public:
  // `decoders`: zstd contexts for compressed runs, shared (borrowed).
  // Reads each segment's header and, for compressed segments, walks the
  // frame headers into an index (checked as it goes).
  RunView(std::vector<RunViewSegment> segments, uint32_t record_size, RunDecoderPool* decoders);
  ~RunView() override;
  RunView(const RunView&) = delete;
  RunView& operator=(const RunView&) = delete;

  uint64_t size() const override { return records_; }
  uint64_t sample_index(uint64_t i) const override;
  void read_at(const std::vector<uint64_t>& indexes, uint8_t* dst) const override;
  // Copies records [first, first + count) to dst, unchecked as read_at's
  // (one-byte records: the bytes of a run of lines, around a probed line).
  // `cache` (one thread's, may be null) keeps the frame decoded last for
  // the next call: a binary search probes one frame many times.
  struct FrameCache {
    size_t frame = SIZE_MAX;
    std::vector<uint8_t> bytes;
  };
  void read_span(uint64_t first, uint64_t count, uint8_t* dst, FrameCache* cache = nullptr) const;
  uint64_t partition_point(uint64_t lo, uint64_t hi,
                           const std::function<bool(const uint8_t*)>& before) const override;

  // Frees the storage (and cached pages) that only records [record,
  // size()) occupy in segment file `segment`, by cutting it short: whole
  // blocks or frames, so that no byte records before `record` need is
  // touched. For a run read once, from its end, and deleted after: its
  // pages go while the merge runs, dirty ones unwritten. A file that cannot
  // be cut stays whole. Several threads may each cut a segment at once.
  size_t segment_count() const;
  void release_segment_from(size_t segment, uint64_t record) const;

  uint32_t record_size() const { return rs_; }
  // The least buffer a cursor over this run needs: its largest block or
  // frame of records.
  uint64_t least_buffer_bytes() const { return unit_bytes_; }
  // Memory the view itself holds (the frame index of a compressed run).
  uint64_t index_bytes() const;
  bool compressed() const { return compressed_; }

  struct Segment;
  struct Frame;

 private:
  friend class RunCursor;
  // The segment holding record i, and the frame holding it (compressed).
  size_t segment_of(uint64_t i) const;
  size_t frame_of(uint64_t i) const;
  // Decodes frame f (checked) into dst, which holds its records.
  void decode_frame(size_t f, uint8_t* dst) const;
  // Reads the blocks [k0, k1) of plain segment s into dst and checks them.
  void read_blocks(size_t s, uint64_t k0, uint64_t k1, uint8_t* dst) const;
  uint64_t compressed_partition_point(uint64_t lo, uint64_t hi,
                                      const std::function<bool(const uint8_t*)>& before) const;

  const uint32_t rs_;
  RunDecoderPool* const decoders_;
  std::vector<Segment> segments_;
  std::vector<Frame> frames_;  // every compressed segment's, in order
  uint64_t records_ = 0;
  uint64_t unit_bytes_ = 0;
  bool compressed_ = false;
};

// Hands out records [begin, end) of a run in checked pieces, read into a
// buffer it borrows (at least the view's least_buffer_bytes()). One thread
// uses a cursor; many cursors may read one view at once.
class RunCursor {
 public:
  RunCursor(uint8_t* buffer, uint64_t bytes) : buffer_(buffer), capacity_(bytes) {}

  void open(const RunView& view, uint64_t begin, uint64_t end);
  // The next records: *count of them (0 at the end) from the pointer.
  const uint8_t* next(uint64_t* count);

 private:
  const RunView* view_ = nullptr;
  uint8_t* buffer_;
  uint64_t capacity_;
  uint64_t pos_ = 0, end_ = 0;
};

}  // namespace gsort
