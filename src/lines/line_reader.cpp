#include "src/lines/line_reader.h"

#include <cstring>

#include "src/core/errors.h"

namespace gsort {

LineReader::LineReader(const std::vector<std::string>& inputs, uint8_t eol, uint64_t max_line, ThreadPool& pool,
                       InputTally* tally, bool drop_read_pages)
    : set_(inputs, 1, tally, drop_read_pages), eol_(eol), max_line_(max_line), pool_(pool) {
  openers_ = set_.lazy_sources();
  known_ = set_.size_known();
  total_ = set_.total_bytes();
}

void LineReader::too_long() const {
  throw DataError((current_name_.empty() ? std::string("input") : current_name_) + ": a line is longer than " +
                  std::to_string(max_line_) + " bytes, a quarter of the memory budget (-S); give a larger -S");
}

uint64_t LineReader::fill_from_inputs(uint8_t* buf, uint64_t fill, uint64_t room) {
  while (fill < room) {
    if (!current_) {
      if (next_input_ == openers_.size()) {
        inputs_done_ = true;
        break;
      }
      current_ = openers_[next_input_++]();
      current_name_ = current_->name();
      current_has_bytes_ = false;
    }
    auto* file = dynamic_cast<InputFile*>(current_.get());
    const uint64_t got = file ? file->read(buf + fill, room - fill, pool_) : current_->read(buf + fill, room - fill);
    if (got > 0) {
      fill += got;
      last_byte_ = buf[fill - 1];
      current_has_bytes_ = true;
      continue;
    }
    // The end of this input: its last line gets a terminator if it lacks one.
    if (current_has_bytes_ && last_byte_ != eol_) buf[fill++] = eol_;
    current_.reset();
  }
  return fill;
}

uint64_t LineReader::read_chunk(uint8_t* buf, uint64_t capacity) {
  uint64_t fill = carry_.size();
  if (fill != 0) std::memcpy(buf, carry_.data(), fill);
  carry_.clear();
  // One byte is kept free for the terminator an input's end may add.
  fill = fill_from_inputs(buf, fill, capacity - 1);
  if (fill == 0) return 0;
  if (inputs_done_) return fill;  // every input ended with a terminator
  uint64_t end = fill;
  while (end > 0 && buf[end - 1] != eol_) --end;
  if (fill - end >= max_line_ || end == 0) too_long();
  carry_.assign(buf + end, buf + fill);
  return end;
}

void LineReader::unread(const uint8_t* bytes, uint64_t n) {
  carry_.insert(carry_.begin(), bytes, bytes + n);
}

}  // namespace gsort
