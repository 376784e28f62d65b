#include "src/lines/merge/run_bytes.h"

#include <algorithm>
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
  SpanPieces(const RunBytes& run, uint64_t begin, uint64_t end, uint8_t* buffer, uint64_t bytes)
      : run_(run), at_(begin), end_(end), buffer_(buffer), bytes_(bytes) {}
  const uint8_t* next(uint64_t* count) override {
    *count = std::min(bytes_, end_ - at_);
    if (*count == 0) return nullptr;
    run_.read_span(at_, *count, buffer_, nullptr);
    at_ += *count;
    return buffer_;
  }

 private:
  const RunBytes& run_;
  uint64_t at_;
  const uint64_t end_;
  uint8_t* const buffer_;
  const uint64_t bytes_;
};

class InOrder final : public RecordSource {
 public:
  InOrder(const RunBytes& run, std::string name) : run_(run), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  uint64_t size_hint() const override { return run_.size(); }
  uint64_t read(uint8_t* buf, uint64_t max_records) override {
    const uint64_t n = std::min(max_records, run_.size() - at_);
    if (n > 0) run_.read_span(at_, n, buf, &cache_);
    at_ += n;
    return n;
  }

 private:
  const RunBytes& run_;
  const std::string name_;
  uint64_t at_ = 0;
  RunView::FrameCache cache_;
};

}  // namespace

std::unique_ptr<RecordSource> read_in_order(const RunBytes& run, std::string name) {
  return std::make_unique<InOrder>(run, std::move(name));
}

std::unique_ptr<RunPieces> RunBytes::pieces(uint64_t begin, uint64_t end, uint8_t* buffer, uint64_t bytes) const {
  return std::make_unique<SpanPieces>(*this, begin, end, buffer, bytes);
}

std::unique_ptr<RunPieces> FileRunBytes::pieces(uint64_t begin, uint64_t end, uint8_t* buffer,
                                                uint64_t bytes) const {
  return std::make_unique<FilePieces>(view_, begin, end, buffer, bytes);
}

}  // namespace gsort
