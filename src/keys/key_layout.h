// The sort key of a record format: which fields, in which order, and how
// they compare. Built from the command line's --key specs; used by every
// stage that compares records.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/keys/key_field.h"

namespace gsort {

// The largest record gsort (and gsort-gen) takes: 64 MiB.
inline constexpr uint32_t kMaxRecordSize = 64u << 20;

// Parses one --key SPEC: "OFFSET:LENGTH" (raw bytes, memcmp order) or
// "OFFSET:TYPE" with TYPE in u8..u64, i8..i64, f32, f64, optionally with a
// "be" suffix (big-endian), then optionally ":desc". Throws UsageError.
KeyField parse_key_spec(const std::string& spec);

class KeyLayout {
 public:
  // Validates that every field lies inside the record (UsageError if not).
  // `reverse` (-r) inverts the whole order; equal keys still keep input order.
  KeyLayout(std::vector<KeyField> fields, uint32_t record_size, bool reverse);

  // The default key: the whole record compared as bytes.
  static KeyLayout whole_record(uint32_t record_size, bool reverse);

  uint32_t record_size() const { return record_size_; }
  // Bytes of the normalised key (the sum of the fields' lengths).
  uint32_t width() const { return width_; }
  // Number of 8-byte big-endian words the normalised key spans.
  uint32_t word_count() const { return (width_ + 7) / 8; }
  const std::vector<KeyField>& fields() const { return fields_; }

  // Writes width() normalised bytes.
  void normalise(const uint8_t* record, uint8_t* out) const;
  // The first 8 normalised bytes as a big-endian integer (zero padded).
  uint64_t prefix(const uint8_t* record) const;
  // True when prefix() holds the whole key, so equal prefixes mean equal keys.
  bool prefix_is_whole_key() const { return width_ <= 8; }
  // <0, 0, >0 as a's key sorts before, with, after b's key.
  int compare(const uint8_t* a, const uint8_t* b) const;
  // compare() for records whose prefixes are already known to be equal.
  int compare_after_prefix(const uint8_t* a, const uint8_t* b) const;

 private:
  std::vector<KeyField> fields_;
  uint32_t record_size_;
  uint32_t width_;
  // Fast path for prefix(): a leading ascending bytes field of >= 8 bytes.
  bool leading_bytes8_ = false;
  // And for a leading numeric field of 8 bytes, or a numeric key of one
  // field: prefix() is that number shifted to the top (-1: neither).
  int leading_number_shift_ = -1;
};

// A human-readable form of a field, for messages and -v ("8:u64be:desc").
std::string describe_key_field(const KeyField& f);

}  // namespace gsort
