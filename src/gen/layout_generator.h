// Records of any fixed size with the --key fields filled from the
// distribution. Every other byte is random filler, except that the record
// number is stored as a big-endian u64 in the first 8 bytes that no key
// field covers, when there are such: it makes each record unique, so tests
// can check that a sort is a permutation and that equal keys keep their
// input order.
#pragma once

#include <optional>
#include <vector>

#include "src/gen/key_digits.h"
#include "src/gen/key_field_writer.h"
#include "src/gen/record_generator.h"

namespace gsort::gen {

class LayoutGenerator : public RecordGenerator {
 public:
  explicit LayoutGenerator(const GenOptions& options);
  uint32_t record_size() const override { return record_size_; }
  void generate(uint8_t* out, size_t count) override;

 private:
  void shape_floats(uint8_t* record);

  uint32_t record_size_;
  std::vector<KeyField> fields_;
  KeyDigits keys_;
  KeyFieldWriter writer_;
  std::vector<uint8_t> digits_;
  std::optional<uint32_t> row_number_offset_;
  bool shape_floats_;  // uniform keys: specials mixed in, or NaN/inf removed
  bool float_specials_;
  Xoshiro256ss filler_rng_;
  Xoshiro256ss specials_rng_;
  uint64_t row_ = 0;
};

}  // namespace gsort::gen
