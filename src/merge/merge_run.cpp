#include "src/merge/merge_run.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace gsort {
namespace {

// A run file's blocks (or frames) through a cursor, each checked as read.
class FilePieces final : public RunPieces {
 public:
  FilePieces(const RunView& view, uint64_t begin, uint64_t end, uint8_t* buffer, uint64_t bytes)
      : cursor_(buffer, bytes) {
    cursor_.open(view, begin, end);
  }
  const uint8_t* next(uint64_t* count) override { return cursor_.next(count); }

 private:
  RunCursor cursor_;
};

// Pieces as spans read through the run's read_span.
class SpanPieces final : public RunPieces {
 public:
  SpanPieces(const MergeRun& run, uint64_t begin, uint64_t end, uint8_t* buffer, uint64_t bytes)
      : run_(run), at_(begin), end_(end), buffer_(buffer), bytes_(bytes) {}
  const uint8_t* next(uint64_t* count) override {
    *count = std::min(bytes_ / run_.unit_bytes(), end_ - at_);
    if (*count == 0) return nullptr;
    run_.read_span(at_, *count, buffer_, nullptr);
    at_ += *count;
    return buffer_;
  }

 private:
  const MergeRun& run_;
  uint64_t at_;
  const uint64_t end_;
  uint8_t* const buffer_;
  const uint64_t bytes_;
};

class HostRun final : public MergeRun {
 public:
  HostRun(const uint8_t* base, uint64_t units, uint32_t unit_bytes)
      : base_(base), units_(units), unit_bytes_(unit_bytes) {}
  uint64_t size() const override { return units_; }
  uint32_t unit_bytes() const override { return unit_bytes_; }
  void read_span(uint64_t first, uint64_t count, uint8_t* dst, RunView::FrameCache*) const override {
    if (count > 0) std::memcpy(dst, base_ + first * unit_bytes_, count * unit_bytes_);
  }
  uint64_t least_buffer_bytes() const override { return std::max<uint64_t>(4096, unit_bytes_); }
  std::unique_ptr<RunPieces> pieces(uint64_t begin, uint64_t end, uint8_t*, uint64_t) const override {
    return std::make_unique<InPlace>(base_ + begin * unit_bytes_, end - begin);
  }

 private:
  // The whole span at once, where it is.
  class InPlace final : public RunPieces {
   public:
    InPlace(const uint8_t* at, uint64_t units) : at_(at), units_(units) {}
    const uint8_t* next(uint64_t* count) override {
      *count = units_;
      units_ = 0;
      return at_;
    }

   private:
    const uint8_t* at_;
    uint64_t units_;
  };

  const uint8_t* const base_;
  const uint64_t units_;
  const uint32_t unit_bytes_;
};

class InOrder final : public RecordSource {
 public:
  InOrder(const MergeRun& run, std::string name) : run_(run), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  uint64_t size_hint() const override { return run_.size(); }
  uint64_t read(uint8_t* buf, uint64_t max_records) override {
    const uint64_t n = std::min(max_records, run_.size() - at_);
    if (n > 0) run_.read_span(at_, n, buf, &cache_);
    at_ += n;
    return n;
  }

 private:
  const MergeRun& run_;
  const std::string name_;
  uint64_t at_ = 0;
  RunView::FrameCache cache_;
};

}  // namespace

std::unique_ptr<MergeRun> merge_run_in_host(const uint8_t* data, uint64_t units, uint32_t unit_bytes) {
  return std::make_unique<HostRun>(data, units, unit_bytes);
}

std::unique_ptr<RecordSource> read_in_order(const MergeRun& run, std::string name) {
  return std::make_unique<InOrder>(run, std::move(name));
}

std::unique_ptr<RunPieces> MergeRun::pieces(uint64_t begin, uint64_t end, uint8_t* buffer, uint64_t bytes) const {
  return std::make_unique<SpanPieces>(*this, begin, end, buffer, bytes);
}

std::unique_ptr<RunPieces> FileMergeRun::pieces(uint64_t begin, uint64_t end, uint8_t* buffer,
                                                uint64_t bytes) const {
  return std::make_unique<FilePieces>(view_, begin, end, buffer, bytes);
}

}  // namespace gsort
