// The record as the unit of a merge in ranges (range_worker.h): a head is
// a record in its run's buffer and its key layout's 64-bit prefix; records
// of equal prefixes go on by the rest of the key.
#pragma once

#include <cstdint>
#include <cstring>

#include "io/file/checksum.h"
#include "src/keys/key_layout.h"
#include "src/merge/range_worker.h"

namespace gsort {

class RecordUnit {
 public:
  struct Head {
    uint64_t word = 0;  // the layout's prefix of *at
    const uint8_t* at = nullptr;
  };

  explicit RecordUnit(const KeyLayout& layout)
      : layout_(&layout), rs_(layout.record_size()), whole_(layout.prefix_is_whole_key()) {}

  bool take(Head& h, HeadBytes& b) const {
    if (b.at == b.end && !b.refill()) return false;
    h.at = b.at;
    b.at += rs_;
    h.word = layout_->prefix(h.at);
    return true;
  }
  int tie(const Head& a, const Head& b) const { return whole_ ? 0 : layout_->compare_after_prefix(a.at, b.at); }
  size_t copy(const Head& h, uint8_t* out) const {
    std::memcpy(out, h.at, rs_);
    return rs_;
  }
  bool same_key(const Head& last, const Head& h) const { return last.word == h.word && tie(last, h) == 0; }
  // The last kept record is read from where it was copied: its buffer
  // moves on.
  void keep(Head& last, const Head& h, const uint8_t* copied) const { last = Head{h.word, copied}; }
  uint64_t hash(const Head& h) const { return hash_record(h.at, rs_); }
  uint64_t units_in(const uint8_t*, uint64_t bytes) const { return bytes / rs_; }

 private:
  const KeyLayout* layout_;
  uint32_t rs_;
  bool whole_;
};

using RecordRangeWorker = RangeWorker<RecordUnit>;

}  // namespace gsort
