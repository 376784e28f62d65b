// Stores a record's key digits (radix 256, see key_digits.h) into the
// record's key fields, in each field's type and byte order.
#pragma once

#include <cstdint>
#include <vector>

#include "src/keys/key_field.h"

namespace gsort::gen {

class KeyFieldWriter {
 public:
  // stored_order: the digits are the fields' stored bytes, copied as they
  // are; otherwise they are normalised key bytes and get denormalised.
  KeyFieldWriter(std::vector<KeyField> fields, bool stored_order);

  // digits holds the sum of the fields' lengths, fields in order.
  void write(const uint8_t* digits, uint8_t* record) const;

 private:
  std::vector<KeyField> fields_;
  bool stored_order_;
};

}  // namespace gsort::gen
