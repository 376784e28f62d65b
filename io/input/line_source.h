// A stream of lines from a source of bytes (the input of -c), one line at
// a time, through a buffer that grows to hold the
// longest line (up to max_line bytes, its terminator included; longer is a
// DataError). A last line without its terminator is a line all the same.
// line() stays valid until the next advance().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/file/record_source.h"

namespace gsort {

class LineSource {
 public:
  LineSource(std::unique_ptr<RecordSource> source, uint8_t eol, uint64_t buffer_bytes, uint64_t max_line);

  // Moves to the next line; false at the end.
  bool advance();
  const uint8_t* line() const { return buf_.data() + line_; }
  uint64_t length() const { return len_; }
  // Bytes consumed so far (lines with terminators).
  uint64_t bytes() const { return consumed_; }
  std::string name() const { return source_->name(); }

 private:
  // Reads more after the bytes not yet consumed (moved to the front);
  // false when the source has ended.
  bool refill();

  std::unique_ptr<RecordSource> source_;
  uint8_t eol_;
  uint64_t max_line_;
  std::vector<uint8_t> buf_;
  uint64_t pos_ = 0, fill_ = 0;  // unconsumed bytes: [pos_, fill_)
  uint64_t line_ = 0, len_ = 0;
  uint64_t consumed_ = 0;
  bool ended_ = false;
  uint64_t reads_ = 0;  // refills, for the test hook
  // Takes the line from pos_ to `end` (its terminator, or fill_ at the end).
  bool take(uint64_t end);
};

}  // namespace gsort
