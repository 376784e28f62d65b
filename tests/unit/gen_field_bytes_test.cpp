// gsort-gen's number encoding (src/gen/field_bytes.h) on the library.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "src/gen/field_bytes.h"
#include "src/keys/key_layout.h"

namespace gsort_test {
namespace {

using gsort::KeyField;
using gsort::KeyKind;

// The generator picks keys in normalised order and stores the value that
// sorts there; storing then normalising must give the chosen key back.
TEST(GenFieldBytes, DenormalisedNumbersNormaliseBack) {
  uint64_t state = 12345;
  for (KeyKind kind : {KeyKind::kUnsigned, KeyKind::kSigned, KeyKind::kFloat}) {
    for (uint32_t length : {1u, 2u, 4u, 8u}) {
      if (kind == KeyKind::kFloat && length < 4) continue;
      for (bool big_endian : {false, true}) {
        for (bool descending : {false, true}) {
          KeyField f;
          f.offset = 3;
          f.length = length;
          f.kind = kind;
          f.big_endian = big_endian;
          f.descending = descending;
          const uint64_t mask = gsort::gen::field_mask(f);
          for (int i = 0; i < 2000; ++i) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            const uint64_t n = (i < 4 ? std::vector<uint64_t>{0, 1, mask, mask - 1}[i] : state) & mask;
            uint8_t record[16] = {};
            gsort::gen::store_number(f, gsort::gen::denormalised_number(f, n), record);
            ASSERT_EQ(gsort::normalised_number(f, record), n) << gsort::describe_key_field(f);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace gsort_test
