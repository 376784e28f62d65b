#include "io/run/run_view.h"

#include <algorithm>
#include <string>

#include "io/file/checksum.h"
#include "io/run/run_blocks.h"
#include "io/run/run_header.h"
#include "src/core/errors.h"

namespace gsort {

struct RunView::Segment {
  File* file = nullptr;
  RunHeader header{};
  uint64_t first = 0;  // the run's index of its first record
  uint64_t block_records = 0;  // plain segments
  std::vector<uint64_t> sums;  // plain segments: each block's checksum (read_block_sums)
  uint64_t count() const { return header.record_count; }
  bool compressed() const { return run_is_compressed(header); }
};

// A compressed segment's frame: where its header is, and what it says.
struct RunView::Frame {
  uint64_t at = 0;     // file offset of its RunFrameHeader
  uint64_t first = 0;  // the run's index of its first record
  RunFrameHeader header{};
  uint32_t segment = 0;
  uint64_t number = 0;  // within its segment, for messages
  uint64_t records(uint32_t rs) const { return header.record_bytes / rs; }
};

namespace {

[[noreturn]] void frame_damaged(const File& file, uint64_t frame, const std::string& what) {
  throw DataError("run file " + file.path() + " is corrupted (frame " + std::to_string(frame + 1) + ": " + what + ")");
}

// Walks the frame headers of compressed segment `s` into `frames`, each
// checked against the header and the file.
void index_frames(const RunView::Segment& seg, uint32_t s, uint32_t rs, std::vector<RunView::Frame>& frames) {
  const uint64_t end = sizeof(RunHeader) + seg.header.payload_bytes;
  uint64_t at = sizeof(RunHeader), records = 0;
  for (uint64_t n = 0; at < end; ++n) {
    RunView::Frame f;
    f.at = at;
    f.first = seg.first + records;
    f.segment = s;
    f.number = n;
    if (end - at < sizeof f.header || seg.file->pread_full(&f.header, sizeof f.header, at) != sizeof f.header) {
      frame_damaged(*seg.file, n, "truncated");
    }
    const RunFrameHeader& h = f.header;
    if (h.record_bytes == 0 || h.record_bytes % rs != 0 || h.record_bytes > seg.header.frame_bytes) {
      frame_damaged(*seg.file, n, "bad record size " + std::to_string(h.record_bytes));
    }
    if (h.stored_bytes > end - at - sizeof h || h.stored_bytes > ZstdCompressor::bound(seg.header.frame_bytes)) {
      frame_damaged(*seg.file, n, "bad stored size " + std::to_string(h.stored_bytes));
    }
    records += h.record_bytes / rs;
    if (records > seg.count()) frame_damaged(*seg.file, n, "more records than the header counts");
    at += sizeof h + h.stored_bytes;
    frames.push_back(f);
  }
  if (records != seg.count()) {
    throw DataError("run file " + seg.file->path() + " is corrupted (its frames hold " + std::to_string(records) +
                    " records, the header counts " + std::to_string(seg.count()) + ")");
  }
}

// A plain segment's block checksums, from its table at `table_at`.
std::vector<uint64_t> read_block_sums(File& file, uint64_t table_at, uint64_t blocks) {
  std::vector<uint64_t> sums(static_cast<size_t>(blocks));
  const size_t bytes = sums.size() * sizeof(uint64_t);
  if (file.pread_full(sums.data(), bytes, table_at) != bytes) throw DataError("run file " + file.path() + " is truncated");
  return sums;
}

}  // namespace

RunView::RunView(std::vector<RunViewSegment> segments, uint32_t record_size, RunDecoderPool* decoders)
    : rs_(record_size), decoders_(decoders) {
  for (const RunViewSegment& given : segments) {
    Segment seg;
    seg.file = given.file;
    seg.header = read_run_header(*given.file, record_size, given.identity);
    seg.first = records_;
    if (seg.compressed()) {
      compressed_ = true;
      index_frames(seg, static_cast<uint32_t>(segments_.size()), rs_, frames_);
      unit_bytes_ = std::max<uint64_t>(unit_bytes_, seg.header.frame_bytes);
    } else {
      seg.block_records = run_header_block_records(seg.header);
      seg.sums = read_block_sums(*seg.file, sizeof(RunHeader) + seg.count() * rs_,
                                 run_block_count(seg.count(), seg.block_records));
      unit_bytes_ = std::max<uint64_t>(unit_bytes_, seg.block_records * rs_);
    }
    records_ += seg.count();
    segments_.push_back(seg);
  }
  unit_bytes_ = std::max<uint64_t>(unit_bytes_, rs_);
}

RunView::~RunView() = default;

uint64_t RunView::index_bytes() const {
  uint64_t bytes = frames_.capacity() * sizeof(Frame);
  for (const Segment& seg : segments_) bytes += seg.sums.capacity() * sizeof(uint64_t);
  return bytes;
}

size_t RunView::segment_of(uint64_t i) const {
  const auto it = std::upper_bound(segments_.begin(), segments_.end(), i,
                                   [](uint64_t v, const Segment& s) { return v < s.first; });
  return static_cast<size_t>(it - segments_.begin()) - 1;
}

size_t RunView::frame_of(uint64_t i) const {
  const auto it =
      std::upper_bound(frames_.begin(), frames_.end(), i, [](uint64_t v, const Frame& f) { return v < f.first; });
  return static_cast<size_t>(it - frames_.begin()) - 1;
}

uint64_t RunView::sample_index(uint64_t i) const {
  return segments_[segment_of(i)].compressed() ? frames_[frame_of(i)].first : i;
}

void RunView::decode_frame(size_t f, uint8_t* dst) const {
  const Frame& frame = frames_[f];
  File& file = *segments_[frame.segment].file;
  struct Lease {
    RunDecoderPool& pool;
    std::unique_ptr<RunDecoderPool::Decoder> decoder;
    ~Lease() { pool.release(std::move(decoder)); }
  } lease{*decoders_, decoders_->acquire()};
  std::vector<uint8_t>& staging = lease.decoder->staging;
  if (staging.size() < frame.header.stored_bytes) staging.resize(frame.header.stored_bytes);
  if (file.pread_full(staging.data(), frame.header.stored_bytes, frame.at + sizeof(RunFrameHeader)) !=
      frame.header.stored_bytes) {
    frame_damaged(file, frame.number, "truncated");
  }
  std::string error;
  if (!lease.decoder->zstd.decompress(dst, frame.header.record_bytes, staging.data(), frame.header.stored_bytes,
                                      &error)) {
    frame_damaged(file, frame.number, error);
  }
  if (StreamHash::of(dst, frame.header.record_bytes) != frame.header.checksum) {
    frame_damaged(file, frame.number, "checksum mismatch");
  }
}

void RunView::read_blocks(size_t s, uint64_t k0, uint64_t k1, uint8_t* dst) const {
  const Segment& seg = segments_[s];
  const uint64_t bpr = seg.block_records;
  const uint64_t first = k0 * bpr, last = std::min(k1 * bpr, seg.count());
  const size_t bytes = static_cast<size_t>((last - first) * rs_);
  if (seg.file->pread_full(dst, bytes, sizeof(RunHeader) + first * rs_) != bytes) {
    throw DataError("run file " + seg.file->path() + " is truncated");
  }
  for (uint64_t k = k0; k < k1; ++k) {
    const uint64_t n = std::min(bpr, seg.count() - k * bpr) * rs_;
    if (run_block_sum(dst + (k - k0) * bpr * rs_, static_cast<size_t>(n), k) != seg.sums[k]) {
      throw DataError("run file " + seg.file->path() + " is corrupted (checksum mismatch in block " +
                      std::to_string(k + 1) + ")");
    }
  }
}

void RunView::read_at(const std::vector<uint64_t>& indexes, uint8_t* dst) const {
  std::vector<uint8_t> frame;
  size_t decoded = SIZE_MAX;
  for (const uint64_t i : indexes) {
    const Segment& seg = segments_[segment_of(i)];
    if (!seg.compressed()) {
      if (seg.file->pread_full(dst, rs_, sizeof(RunHeader) + (i - seg.first) * rs_) != rs_) {
        throw DataError("run file " + seg.file->path() + " is truncated");
      }
    } else {
      const size_t f = frame_of(i);
      if (f != decoded) {
        frame.resize(frames_[f].header.record_bytes);
        decode_frame(f, frame.data());
        decoded = f;
      }
      std::copy_n(frame.data() + (i - frames_[f].first) * rs_, rs_, dst);
    }
    dst += rs_;
  }
}

void RunView::read_span(uint64_t first, uint64_t count, uint8_t* dst, FrameCache* cache) const {
  FrameCache local;
  FrameCache& decoded = cache ? *cache : local;
  for (uint64_t i = first, stop = first + count; i < stop;) {
    const Segment& seg = segments_[segment_of(i)];
    if (!seg.compressed()) {
      const uint64_t n = std::min(stop, seg.first + seg.count()) - i;
      if (seg.file->pread_full(dst, n * rs_, sizeof(RunHeader) + (i - seg.first) * rs_) != n * rs_) {
        throw DataError("run file " + seg.file->path() + " is truncated");
      }
      i += n;
      dst += n * rs_;
      continue;
    }
    const size_t f = frame_of(i);
    if (decoded.frame != f) {
      decoded.frame = SIZE_MAX;  // until the decode succeeds
      decoded.bytes.resize(frames_[f].header.record_bytes);
      decode_frame(f, decoded.bytes.data());
      decoded.frame = f;
    }
    const uint64_t n = std::min(stop, frames_[f].first + frames_[f].records(rs_)) - i;
    std::copy_n(decoded.bytes.data() + (i - frames_[f].first) * rs_, n * rs_, dst);
    i += n;
    dst += n * rs_;
  }
}

uint64_t RunView::partition_point(uint64_t lo, uint64_t hi, const std::function<bool(const uint8_t*)>& before) const {
  if (!frames_.empty()) return compressed_partition_point(lo, hi, before);
  std::vector<uint8_t> record(rs_);
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    read_at({mid}, record.data());
    if (before(record.data())) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// First among frames by their first records (each probe decodes a frame),
// then inside the one frame where the answer lies.
uint64_t RunView::compressed_partition_point(uint64_t lo, uint64_t hi,
                                             const std::function<bool(const uint8_t*)>& before) const {
  if (lo >= hi) return lo;
  std::vector<uint8_t> frame(unit_bytes_);
  // Frames after lo's whose first record is below hi: the first of them
  // whose first record fails `before` ends the search.
  size_t flo = frame_of(lo) + 1, fhi = frame_of(hi - 1) + 1;
  while (flo < fhi) {
    const size_t mid = flo + (fhi - flo) / 2;
    decode_frame(mid, frame.data());
    if (before(frame.data())) {
      flo = mid + 1;
    } else {
      fhi = mid;
    }
  }
  const size_t f = flo - 1;
  const Frame& target = frames_[f];
  decode_frame(f, frame.data());
  uint64_t a = std::max(lo, target.first), b = std::min(hi, target.first + target.records(rs_));
  while (a < b) {
    const uint64_t mid = a + (b - a) / 2;
    if (before(frame.data() + (mid - target.first) * rs_)) {
      a = mid + 1;
    } else {
      b = mid;
    }
  }
  return a;
}

size_t RunView::segment_count() const { return segments_.size(); }

void RunView::release_segment_from(size_t segment, uint64_t record) const {
  const Segment& seg = segments_[segment];
  if (record >= seg.first + seg.count()) return;
  // What the records before `record` need of this segment's file; its
  // header at least, so that the file is never cut to nothing (ext4
  // writes a file cut to nothing out when it is closed).
  uint64_t keep = sizeof(RunHeader);
  if (record > seg.first && seg.compressed()) {
    const Frame& f = frames_[frame_of(record - 1)];
    keep = f.at + sizeof(RunFrameHeader) + f.header.stored_bytes;
  } else if (record > seg.first) {
    const uint64_t blocks = run_block_count(record - seg.first, seg.block_records);
    keep = sizeof(RunHeader) + std::min(blocks * seg.block_records, seg.count()) * rs_;
  }
  (void)seg.file->cut_to(keep);
}

void RunCursor::open(const RunView& view, uint64_t begin, uint64_t end) {
  view_ = &view;
  pos_ = begin;
  end_ = end;
}

const uint8_t* RunCursor::next(uint64_t* count) {
  *count = 0;
  if (pos_ >= end_) return nullptr;
  const RunView& v = *view_;
  const uint32_t rs = v.rs_;
  const size_t s = v.segment_of(pos_);
  const RunView::Segment& seg = v.segments_[s];
  const uint64_t stop = std::min(end_, seg.first + seg.count());
  uint64_t from = 0;  // the buffer's first record, as an index of the run
  uint64_t ends = 0;  // and the end of what it holds
  if (seg.compressed()) {
    const size_t f = v.frame_of(pos_);
    v.decode_frame(f, buffer_);
    from = v.frames_[f].first;
    ends = from + v.frames_[f].records(rs);
  } else {
    const uint64_t bpr = seg.block_records;
    const uint64_t k0 = (pos_ - seg.first) / bpr;
    const uint64_t room = std::max<uint64_t>(1, capacity_ / (bpr * rs));
    const uint64_t k1 = std::min(run_block_count(stop - seg.first, bpr), k0 + room);
    v.read_blocks(s, k0, k1, buffer_);
    from = seg.first + k0 * bpr;
    ends = seg.first + k1 * bpr;
  }
  const uint8_t* at = buffer_ + (pos_ - from) * rs;
  *count = std::min(stop, ends) - pos_;
  pos_ += *count;
  return at;
}

}  // namespace gsort
