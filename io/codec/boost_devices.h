// gsort's File as Boost.Iostreams devices, for Boost's compression filters
// called directly (filter.read(source, ...), filter.write(sink, ...)):
// no stream buffer in between, so records are decoded straight into the
// caller's buffer. Errors of the file (IoError) pass through the filters.
#pragma once

#include <algorithm>
#include <boost/iostreams/categories.hpp>
#include <cstdint>
#include <cstring>
#include <ios>
#include <vector>

#include "io/file/file.h"

namespace gsort {

// Reads the bytes peeked at to find the magic first, then the file from
// where it stands. The filter holds it by reference: it is never copied.
class FileSource {
 public:
  using char_type = char;
  using category = boost::iostreams::source_tag;

  FileSource(File& file, const uint8_t* peeked, size_t peeked_bytes)
      : file_(file), peeked_(peeked, peeked + peeked_bytes), bytes_(peeked_bytes) {}
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  // Up to n bytes; -1 once the file has ended (Boost's end of a source).
  std::streamsize read(char* s, std::streamsize n) {
    size_t got = 0;
    if (peeked_pos_ < peeked_.size()) {
      got = std::min(static_cast<size_t>(n), peeked_.size() - peeked_pos_);
      std::memcpy(s, peeked_.data() + peeked_pos_, got);
      peeked_pos_ += got;
    }
    if (got < static_cast<size_t>(n) && !ended_) {
      const size_t more = file_.read_full(s + got, static_cast<size_t>(n) - got);
      ended_ = more < static_cast<size_t>(n) - got;
      bytes_ += more;
      got += more;
    }
    if (got == 0 && n > 0) {
      exhausted_ = true;
      return -1;
    }
    return static_cast<std::streamsize>(got);
  }
  // Whether the filter has asked for bytes past the end: it needed more
  // than the file holds.
  bool exhausted() const { return exhausted_; }
  // Bytes handed to the filter so far (the peeked ones included).
  uint64_t bytes() const { return bytes_; }

 private:
  File& file_;
  std::vector<uint8_t> peeked_;
  size_t peeked_pos_ = 0;
  bool ended_ = false;
  bool exhausted_ = false;
  uint64_t bytes_;
};

// Writes to the file, counting the bytes.
class FileSink {
 public:
  using char_type = char;
  using category = boost::iostreams::sink_tag;

  explicit FileSink(File& file) : file_(file) {}
  FileSink(const FileSink&) = delete;
  FileSink& operator=(const FileSink&) = delete;

  std::streamsize write(const char* s, std::streamsize n) {
    file_.write_all(s, static_cast<size_t>(n));
    bytes_ += static_cast<uint64_t>(n);
    return n;
  }
  uint64_t bytes() const { return bytes_; }

 private:
  File& file_;
  uint64_t bytes_ = 0;
};

}  // namespace gsort
