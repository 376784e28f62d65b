#include "tests/support/float_specials.h"

namespace gsort_test {

const std::vector<FloatSpecial>& float_specials_f32() {
  static const std::vector<FloatSpecial> table = {
      {0xFFFFFFFF, 0},   // -NaN, largest payload
      {0xFFC00001, 1},   // -qNaN with payload
      {0xFFC00000, 2},   // -qNaN
      {0xFF800001, 3},   // -sNaN
      {0xFF800000, 4},   // -inf
      {0xFF7FFFFF, 5},   // -max
      {0xBF800000, 6},   // -1
      {0x80800000, 7},   // -min normal
      {0x807FFFFF, 8},   // -max subnormal
      {0x80000001, 9},   // -min subnormal
      {0x80000000, 10},  // -0
      {0x00000000, 11},  // +0
      {0x00000001, 12},  // +min subnormal
      {0x007FFFFF, 13},  // +max subnormal
      {0x00800000, 14},  // +min normal
      {0x3F800000, 15},  // 1
      {0x7F7FFFFF, 16},  // max
      {0x7F800000, 17},  // +inf
      {0x7F800001, 18},  // +sNaN
      {0x7FC00000, 19},  // +qNaN
      {0x7FC00001, 20},  // +qNaN with payload
      {0x7FFFFFFF, 21},  // +NaN, largest payload
  };
  return table;
}

const std::vector<FloatSpecial>& float_specials_f64() {
  static const std::vector<FloatSpecial> table = {
      {0xFFFFFFFFFFFFFFFF, 0},  {0xFFF8000000000001, 1},  {0xFFF8000000000000, 2},
      {0xFFF0000000000001, 3},  {0xFFF0000000000000, 4},  {0xFFEFFFFFFFFFFFFF, 5},
      {0xBFF0000000000000, 6},  {0x8010000000000000, 7},  {0x800FFFFFFFFFFFFF, 8},
      {0x8000000000000001, 9},  {0x8000000000000000, 10}, {0x0000000000000000, 11},
      {0x0000000000000001, 12}, {0x000FFFFFFFFFFFFF, 13}, {0x0010000000000000, 14},
      {0x3FF0000000000000, 15}, {0x7FEFFFFFFFFFFFFF, 16}, {0x7FF0000000000000, 17},
      {0x7FF0000000000001, 18}, {0x7FF8000000000000, 19}, {0x7FF8000000000001, 20},
      {0x7FFFFFFFFFFFFFFF, 21},
  };
  return table;
}

const std::vector<FloatSpecial>& float_specials(uint32_t length) {
  return length == 4 ? float_specials_f32() : float_specials_f64();
}

}  // namespace gsort_test
