// The independent reference of tests/support/ itself: float totalOrder
// against the hand-ranked special values, --key spellings and comparisons.
// Every test that judges gsort's output leans on it.
#include <gtest/gtest.h>

#include <cstdint>

#include "tests/support/float_specials.h"
#include "tests/support/reference_sort.h"

namespace gsort_test {
namespace {

TEST(ReferenceSort, FloatTotalOrderMatchesIeee) {
  // Every pair of the hand-ranked table (tests/support/float_specials.cpp).
  for (const FloatSpecial& a : float_specials_f32()) {
    for (const FloatSpecial& b : float_specials_f32()) {
      const int want = a.rank < b.rank ? -1 : (a.rank > b.rank ? 1 : 0);
      EXPECT_EQ(total_order_f32(static_cast<uint32_t>(a.bits), static_cast<uint32_t>(b.bits)),
                want)
          << std::hex << a.bits << " vs " << b.bits;
    }
  }
  for (const FloatSpecial& a : float_specials_f64()) {
    for (const FloatSpecial& b : float_specials_f64()) {
      const int want = a.rank < b.rank ? -1 : (a.rank > b.rank ? 1 : 0);
      EXPECT_EQ(total_order_f64(a.bits, b.bits), want) << std::hex << a.bits << " vs " << b.bits;
    }
  }
}

TEST(ReferenceSort, KeySpecsAndComparisons) {
  EXPECT_EQ((RefKey{3, 7, RefKind::kBytes, false, false}.spec()), "3:7");
  EXPECT_EQ((RefKey{8, 4, RefKind::kUnsigned, true, true}.spec()), "8:u32be:desc");
  EXPECT_EQ((RefKey{0, 2, RefKind::kSigned, false, false}.spec()), "0:i16");
  EXPECT_EQ((RefKey{1, 8, RefKind::kFloat, false, true}.spec()), "1:f64:desc");
  const uint8_t minus_one_le[2] = {0xFF, 0xFF};
  const uint8_t one_le[2] = {0x01, 0x00};
  RefSpec spec = {2, {RefKey{0, 2, RefKind::kSigned, false, false}}, false, false};
  EXPECT_LT(compare_records(minus_one_le, one_le, spec), 0);
  spec.keys[0].kind = RefKind::kUnsigned;
  EXPECT_GT(compare_records(minus_one_le, one_le, spec), 0);
  spec.keys[0].big_endian = true;  // 0x0100 vs 0xFFFF
  EXPECT_GT(compare_records(minus_one_le, one_le, spec), 0);
  spec.reverse = true;
  EXPECT_LT(compare_records(minus_one_le, one_le, spec), 0);
}

}  // namespace
}  // namespace gsort_test
