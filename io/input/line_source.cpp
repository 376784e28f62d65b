#include "io/input/line_source.h"

#include <algorithm>
#include <cstring>

#include "src/core/errors.h"
#include "src/core/test_hooks.h"

namespace gsort {

LineSource::LineSource(std::unique_ptr<RecordSource> source, uint8_t eol, uint64_t buffer_bytes, uint64_t max_line)
    : source_(std::move(source)), eol_(eol), max_line_(max_line) {
  buf_.resize(std::max<uint64_t>(buffer_bytes, 256));
}

bool LineSource::refill() {
  if (ended_) return false;
  if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, fill_ - pos_);
    fill_ -= pos_;
    pos_ = 0;
  }
  if (fill_ == buf_.size()) {  // one line fills the buffer
    if (buf_.size() >= max_line_) {
      throw DataError(source_->name() + ": a line is longer than " + std::to_string(max_line_) +
                      " bytes, a quarter of the memory budget (-S); give a larger -S");
    }
    buf_.resize(std::min<uint64_t>(max_line_, 2 * buf_.size()));
  }
  if (test_hooks::before_chunk_read) test_hooks::before_chunk_read(reads_++);
  const uint64_t got = source_->read(buf_.data() + fill_, buf_.size() - fill_);
  if (got == 0) {
    ended_ = true;
    return false;
  }
  fill_ += got;
  return true;
}

bool LineSource::take(uint64_t end) {
  line_ = pos_;
  len_ = end - pos_;
  consumed_ += len_ + 1;
  pos_ = end < fill_ ? end + 1 : end;
  return true;
}

bool LineSource::advance() {
  uint64_t searched = pos_;
  for (;;) {
    const void* hit = std::memchr(buf_.data() + searched, eol_, fill_ - searched);
    if (hit) return take(static_cast<uint64_t>(static_cast<const uint8_t*>(hit) - buf_.data()));
    const uint64_t seen = fill_ - pos_;  // no terminator among them
    if (!refill()) break;
    searched = pos_ + seen;
  }
  if (pos_ == fill_) return false;
  return take(fill_);  // the last line lacks its terminator
}

}  // namespace gsort
