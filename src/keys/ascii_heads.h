// The head of a text whose first characters are ASCII with first-level
// weights of two bytes at most (letters and digits, and the punctuation
// and blanks the first level ignores: a log line's timestamp and words),
// made 64 bytes at a time with AVX-512 (VBMI's byte lookups, VBMI2's byte
// compress) where the CPU has it. The same bytes as table_head
// (head_table.h), which the caller asks for every other text: a
// character outside those, or a head that needs more than 64 bytes.
// Host only (first_level_weights.h).
#pragma once

#include <cstdint>

#include "src/keys/head_table.h"

namespace gsort {

class AsciiHeads {
 public:
  // From a table's entries for the bytes below 0x80.
  explicit AsciiHeads(const CharacterWeights ascii[128]);

  // Whether this CPU runs head() (AVX-512 VBMI and VBMI2).
  bool usable() const { return usable_; }

  // table_head's head of the text into out[0, cap) and its count in
  // *written, where it can say it at once; false otherwise (nothing
  // said). Only where usable().
  bool head(const uint8_t* text, uint64_t len, uint8_t* out, uint64_t cap, uint64_t* written) const;

 private:
  uint8_t first_[128] = {};   // the first weight byte, 0 for none
  uint8_t second_[128] = {};  // the second, 0 for none
  uint8_t simple_[128] = {};  // 1 where the byte is such a character
  bool usable_ = false;
};

}  // namespace gsort
