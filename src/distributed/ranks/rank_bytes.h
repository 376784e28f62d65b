// What ranks hand each other as one string (gather_to_all,
// broadcast_from_rank0): numbers and byte strings end to end, read back in
// the order written. A string cut short is an internal error, never a
// misread value.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "src/core/errors.h"

namespace gsort {

class RankBytesWriter {
 public:
  RankBytesWriter& u64(uint64_t v) {
    out_.append(reinterpret_cast<const char*>(&v), sizeof v);
    return *this;
  }
  RankBytesWriter& bytes(const std::string& s) {
    u64(s.size());
    out_ += s;
    return *this;
  }
  const std::string& text() const { return out_; }

 private:
  std::string out_;
};

class RankBytesReader {
 public:
  explicit RankBytesReader(const std::string& text) : text_(text) {}
  bool done() const { return at_ == text_.size(); }
  uint64_t u64() {
    need(sizeof(uint64_t));
    uint64_t v = 0;
    std::memcpy(&v, text_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::string bytes() {
    const uint64_t n = u64();
    need(n);
    std::string s = text_.substr(at_, n);
    at_ += n;
    return s;
  }

 private:
  void need(uint64_t n) const {
    if (n > text_.size() - at_) throw Error("internal error: what a rank sent is cut short");
  }
  const std::string& text_;
  size_t at_ = 0;
};

}  // namespace gsort
