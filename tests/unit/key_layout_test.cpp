// Key specs and key normalisation (src/keys/). Every ordering check compares
// gsort's answer with a reference written here from the spec alone: numbers
// are decoded and compared as C++ values, floats by the IEEE 754 totalOrder
// rule (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN, NaNs by
// payload), bytes by memcmp. Nothing here reuses the normalisation trick.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "src/core/errors.h"
#include "src/keys/key_field.h"
#include "src/keys/key_layout.h"

namespace gsort {
namespace {

int sign(int64_t v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

template <typename T>
int three_way(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// ---------------------------------------------------------------- reference

// IEEE 754 totalOrder of two values of a float type. `mantissa` masks the
// quiet bit and payload; between NaNs of one sign they decide the order
// (ascending for +NaN, descending for -NaN).
template <typename F, typename Bits>
int total_order(Bits a_bits, Bits b_bits, Bits mantissa) {
  F a, b;
  std::memcpy(&a, &a_bits, sizeof a);
  std::memcpy(&b, &b_bits, sizeof b);
  const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
  const bool a_neg = std::signbit(a), b_neg = std::signbit(b);
  if (!a_nan && !b_nan) {
    if (a < b) return -1;
    if (b < a) return 1;
    if (a_neg != b_neg) return a_neg ? -1 : 1;  // -0.0 < +0.0
    return 0;
  }
  if (a_nan && b_nan) {
    if (a_neg != b_neg) return a_neg ? -1 : 1;
    const int by_payload = three_way(a_bits & mantissa, b_bits & mantissa);
    return a_neg ? -by_payload : by_payload;
  }
  if (a_nan) return a_neg ? -1 : 1;  // -NaN below everything, +NaN above
  return b_neg ? 1 : -1;
}

int reference_number_compare(KeyKind kind, uint32_t length, uint64_t a, uint64_t b) {
  switch (kind) {
    case KeyKind::kUnsigned:
      return three_way(a, b);
    case KeyKind::kSigned:
      switch (length) {
        case 1: return three_way(static_cast<int8_t>(a), static_cast<int8_t>(b));
        case 2: return three_way(static_cast<int16_t>(a), static_cast<int16_t>(b));
        case 4: return three_way(static_cast<int32_t>(a), static_cast<int32_t>(b));
        default: return three_way(static_cast<int64_t>(a), static_cast<int64_t>(b));
      }
    case KeyKind::kFloat:
      if (length == 4) {
        return total_order<float, uint32_t>(static_cast<uint32_t>(a), static_cast<uint32_t>(b), 0x007FFFFFu);
      }
      return total_order<double, uint64_t>(a, b, 0x000FFFFFFFFFFFFFull);
    default:
      ADD_FAILURE() << "not a number kind";
      return 0;
  }
}

uint64_t read_number(const uint8_t* p, uint32_t length, bool big_endian) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < length; ++i) {
    const uint64_t byte = p[big_endian ? length - 1 - i : i];
    v |= byte << (8 * i);
  }
  return v;
}

void write_number(uint8_t* p, uint64_t v, uint32_t length, bool big_endian) {
  for (uint32_t i = 0; i < length; ++i) p[big_endian ? length - 1 - i : i] = static_cast<uint8_t>(v >> (8 * i));
}

// One field as the user asked for it (before -r).
int reference_field_compare(const KeyField& f, const uint8_t* a, const uint8_t* b) {
  int c;
  if (f.kind == KeyKind::kBytes) {
    c = sign(std::memcmp(a + f.offset, b + f.offset, f.length));
  } else {
    c = reference_number_compare(f.kind, f.length, read_number(a + f.offset, f.length, f.big_endian),
                                 read_number(b + f.offset, f.length, f.big_endian));
  }
  return f.descending ? -c : c;
}

int reference_compare(const std::vector<KeyField>& fields, bool reverse, const uint8_t* a, const uint8_t* b) {
  for (const KeyField& f : fields) {
    const int c = reference_field_compare(f, a, b);
    if (c != 0) return reverse ? -c : c;
  }
  return 0;
}

// --------------------------------------------------------------- the checks

std::vector<uint8_t> normalised(const KeyLayout& layout, const uint8_t* record) {
  std::vector<uint8_t> out(layout.width() + 1, 0xA5);
  layout.normalise(record, out.data());
  EXPECT_EQ(out.back(), 0xA5) << "normalise wrote past width()";
  out.pop_back();
  return out;
}

// Big-endian value of bytes [8w, 8w+8) of `bytes`, zero padded.
uint64_t word_of(const std::vector<uint8_t>& bytes, uint32_t w) {
  uint64_t v = 0;
  for (uint32_t i = 8 * w; i < 8 * w + 8; ++i) v = (v << 8) | (i < bytes.size() ? bytes[i] : 0);
  return v;
}

std::string hex(const uint8_t* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

// Checks every ordering entry point of `layout` on all pairs of `records`
// against the reference. Stops after the first few failures.
void check_all_pairs(const std::vector<KeyField>& fields, bool reverse, uint32_t record_size,
                     const std::vector<std::vector<uint8_t>>& records) {
  const KeyLayout layout(fields, record_size, reverse);
  std::vector<std::vector<uint8_t>> norm;
  std::vector<uint64_t> prefix;
  for (const auto& r : records) {
    norm.push_back(normalised(layout, r.data()));
    prefix.push_back(layout.prefix(r.data()));
    ASSERT_EQ(prefix.back(), word_of(norm.back(), 0)) << "prefix() is not the first 8 normalised bytes of "
                                                      << hex(r.data(), r.size());
    for (uint32_t w = 0; w <= layout.word_count(); ++w) {
      ASSERT_EQ(normalised_key_word(layout.fields().data(), static_cast<int>(layout.fields().size()), r.data(), w),
                word_of(norm.back(), w))
          << "word " << w << " of " << hex(r.data(), r.size());
    }
  }
  int failures = 0;
  for (size_t i = 0; i < records.size() && failures < 5; ++i) {
    for (size_t j = 0; j < records.size() && failures < 5; ++j) {
      const uint8_t* a = records[i].data();
      const uint8_t* b = records[j].data();
      const int expected = reference_compare(fields, reverse, a, b);
      const int by_compare = sign(layout.compare(a, b));
      const int by_bytes = sign(std::memcmp(norm[i].data(), norm[j].data(), layout.width()));
      int by_prefix;
      if (prefix[i] != prefix[j]) {
        by_prefix = prefix[i] < prefix[j] ? -1 : 1;
      } else {
        by_prefix = layout.prefix_is_whole_key() ? 0 : sign(layout.compare_after_prefix(a, b));
        if (layout.prefix_is_whole_key()) {
          EXPECT_EQ(layout.compare_after_prefix(a, b), 0);
        }
      }
      if (by_compare != expected || by_bytes != expected || by_prefix != expected) {
        ++failures;
        ADD_FAILURE() << "records a=" << hex(a, record_size) << " b=" << hex(b, record_size)
                      << " reverse=" << reverse << " key[0]=" << describe_key_field(fields[0])
                      << ": expected " << expected << ", compare " << by_compare << ", normalised bytes "
                      << by_bytes << ", prefix/compare_after_prefix " << by_prefix;
      }
    }
  }
}

struct NumberType {
  const char* name;
  KeyKind kind;
  uint32_t length;
};

const NumberType kNumberTypes[] = {
    {"u8", KeyKind::kUnsigned, 1}, {"u16", KeyKind::kUnsigned, 2}, {"u32", KeyKind::kUnsigned, 4},
    {"u64", KeyKind::kUnsigned, 8}, {"i8", KeyKind::kSigned, 1},   {"i16", KeyKind::kSigned, 2},
    {"i32", KeyKind::kSigned, 4},   {"i64", KeyKind::kSigned, 8},  {"f32", KeyKind::kFloat, 4},
    {"f64", KeyKind::kFloat, 8},
};

const std::vector<uint64_t> kF32Specials = {
    0x00000000, 0x80000000,  // ±0
    0x3F800000, 0xBF800000,  // ±1
    0x3F800001, 0x3F7FFFFF,  // 1 ± ulp
    0x00000001, 0x80000001,  // ±smallest subnormal
    0x007FFFFF, 0x807FFFFF,  // ±largest subnormal
    0x00800000, 0x80800000,  // ±smallest normal
    0x7F7FFFFF, 0xFF7FFFFF,  // ±largest finite
    0x7F800000, 0xFF800000,  // ±inf
    0x7FC00000, 0xFFC00000,  // ±quiet NaN
    0x7FC00001, 0xFFC00001,  // ±quiet NaN with payload
    0x7F800001, 0xFF800001,  // ±signalling NaN, payload 1
    0x7FBFFFFF, 0xFFBFFFFF,  // ±signalling NaN, largest payload
    0x7FFFFFFF, 0xFFFFFFFF,  // ±NaN, every bit set
    0x40490FDB, 0xC0490FDB,  // ±pi
};

const std::vector<uint64_t> kF64Specials = {
    0x0000000000000000, 0x8000000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
    0x3FF0000000000001, 0x3FEFFFFFFFFFFFFF, 0x0000000000000001, 0x8000000000000001,
    0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF, 0x0010000000000000, 0x8010000000000000,
    0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000,
    0x7FF8000000000000, 0xFFF8000000000000, 0x7FF8000000000001, 0xFFF8000000000001,
    0x7FF0000000000001, 0xFFF0000000000001, 0x7FF7FFFFFFFFFFFF, 0xFFF7FFFFFFFFFFFF,
    0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF, 0x400921FB54442D18, 0xC00921FB54442D18,
};

// Interesting raw values of a type: extremes, zero, ±1, float specials,
// then random values, some of them repeated so that equal keys occur.
std::vector<uint64_t> values_of(const NumberType& t, std::mt19937_64& rng) {
  const unsigned bits = 8 * t.length;
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  std::vector<uint64_t> v;
  if (t.kind == KeyKind::kFloat) {
    v = t.length == 4 ? kF32Specials : kF64Specials;
    for (int i = 0; i < 40; ++i) {
      if (t.length == 4) {
        const float f = std::uniform_real_distribution<float>(-4, 4)(rng);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        v.push_back(b);
      } else {
        const double d = std::uniform_real_distribution<double>(-4, 4)(rng);
        uint64_t b;
        std::memcpy(&b, &d, 8);
        v.push_back(b);
      }
    }
  } else {
    const uint64_t sign_bit = uint64_t{1} << (bits - 1);
    v = {0, 1, 2, mask, mask - 1, sign_bit, sign_bit - 1, sign_bit + 1, 0x7F & mask, 0x80 & mask};
  }
  for (int i = 0; i < 60; ++i) v.push_back(rng() & mask);  // random bits: any value, NaNs included
  const size_t distinct = v.size();
  for (int i = 0; i < 20; ++i) v.push_back(v[rng() % distinct]);  // repeats
  return v;
}

// --------------------------------------------------------------- parse_key_spec

struct GoodSpec {
  const char* spec;
  uint32_t offset;
  uint32_t length;
  KeyKind kind;
  bool big_endian;
  bool descending;
};

// Every member of got equals want's.
void expect_same_field(const KeyField& got, const KeyField& want) {
  EXPECT_EQ(got.offset, want.offset);
  EXPECT_EQ(got.length, want.length);
  EXPECT_EQ(got.kind, want.kind);
  EXPECT_EQ(got.big_endian, want.big_endian);
  EXPECT_EQ(got.descending, want.descending);
}

TEST(KeySpecParse, AcceptsEveryFormAndType) {
  const GoodSpec cases[] = {
      {"0:10", 0, 10, KeyKind::kBytes, false, false},
      {"7:1", 7, 1, KeyKind::kBytes, false, false},
      {"3:100:desc", 3, 100, KeyKind::kBytes, false, true},
      {"4294967295:1", 4294967295u, 1, KeyKind::kBytes, false, false},
      {"0:4294967295", 0, 4294967295u, KeyKind::kBytes, false, false},
      {"007:05", 7, 5, KeyKind::kBytes, false, false},
      {"1:u8", 1, 1, KeyKind::kUnsigned, false, false},
      {"1:u8be", 1, 1, KeyKind::kUnsigned, false, false},  // one byte has no byte order
      {"2:u16", 2, 2, KeyKind::kUnsigned, false, false},
      {"2:u16be", 2, 2, KeyKind::kUnsigned, true, false},
      {"4:u32", 4, 4, KeyKind::kUnsigned, false, false},
      {"4:u32be:desc", 4, 4, KeyKind::kUnsigned, true, true},
      {"8:u64", 8, 8, KeyKind::kUnsigned, false, false},
      {"8:u64be", 8, 8, KeyKind::kUnsigned, true, false},
      {"0:i8:desc", 0, 1, KeyKind::kSigned, false, true},
      {"0:i8be", 0, 1, KeyKind::kSigned, false, false},
      {"0:i16", 0, 2, KeyKind::kSigned, false, false},
      {"0:i16be:desc", 0, 2, KeyKind::kSigned, true, true},
      {"0:i32", 0, 4, KeyKind::kSigned, false, false},
      {"0:i32be", 0, 4, KeyKind::kSigned, true, false},
      {"0:i64:desc", 0, 8, KeyKind::kSigned, false, true},
      {"0:i64be", 0, 8, KeyKind::kSigned, true, false},
      {"12:f32", 12, 4, KeyKind::kFloat, false, false},
      {"12:f32be:desc", 12, 4, KeyKind::kFloat, true, true},
      {"16:f64", 16, 8, KeyKind::kFloat, false, false},
      {"16:f64be", 16, 8, KeyKind::kFloat, true, false},
      {"16:f64:desc", 16, 8, KeyKind::kFloat, false, true},
  };
  for (const GoodSpec& c : cases) {
    SCOPED_TRACE(c.spec);
    KeyField f;
    ASSERT_NO_THROW(f = parse_key_spec(c.spec));
    expect_same_field(f, KeyField{c.offset, c.length, c.kind, c.big_endian, c.descending});
  }
}

TEST(KeySpecParse, RejectsMalformedSpecsWithUsageError) {
  const char* bad[] = {
      "",              // nothing
      "0",             // no type
      "0:",            // empty type
      ":4",            // empty offset
      ":",             // neither
      "x:4",           // non-numeric offset
      "-1:4",          // negative offset
      "+1:4",          // sign
      "1.5:4",         // fraction
      " 0:4",          // blank
      "0x10:4",        // hex
      "4294967296:4",  // offset over 32 bits
      "0:4294967296",  // length over 32 bits
      "0:0",           // zero length
      "0:00",          // zero length
      "0:-4",          // negative length
      "0:4x",          // length with junk
      "0:u128",        // unknown type
      "0:u24",         // unknown type
      "0:f16",         // unknown type
      "0:U32",         // types are lower case
      "0:u32le",       // no 'le' suffix
      "0:be",          // suffix without a type
      "0:u32bebe",     // suffix twice
      "0:float",       // not a type name
      "0:u32:",        // empty modifier
      "0:u32:asc",     // unknown modifier
      "0:u32:DESC",    // modifiers are lower case
      "0:4:desc:desc", // extra modifier
      "0:u32:desc:x",  // extra part
      "0:u32:be",      // byte order is a suffix, not a modifier
  };
  for (const char* spec : bad) {
    SCOPED_TRACE(spec);
    try {
      parse_key_spec(spec);
      ADD_FAILURE() << "accepted '" << spec << "'";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + spec + "'"), std::string::npos)
          << "the message should quote the spec: " << e.what();
    }
  }
}

TEST(KeySpecParse, DescribeRoundTrips) {
  const char* specs[] = {"0:10", "3:7:desc", "1:u8", "2:u16be", "4:i32:desc", "8:f64be:desc", "0:i64"};
  for (const char* spec : specs) {
    SCOPED_TRACE(spec);
    const KeyField f = parse_key_spec(spec);
    EXPECT_EQ(describe_key_field(f), spec);
    expect_same_field(parse_key_spec(describe_key_field(f)), f);
  }
}

// ------------------------------------------------------------ KeyLayout shape

TEST(KeyLayoutShape, KeyPastTheRecordIsAUsageError) {
  struct Case {
    const char* spec;
    uint32_t record_size;
    bool fits;
  };
  const Case cases[] = {
      {"0:10", 10, true},   {"0:11", 10, false},  {"9:1", 10, true},         {"10:1", 10, false},
      {"6:u32", 10, true},  {"7:u32", 10, false}, {"2:f64be", 10, true},     {"3:f64be", 10, false},
      {"0:u8", 1, true},    {"1:u8", 1, false},   {"4294967295:u64", 100, false},
      {"4294967295:1", 100, false}, {"1:4294967295", 100, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.spec) + " in " + std::to_string(c.record_size));
    const std::vector<KeyField> fields = {parse_key_spec(c.spec)};
    if (c.fits) {
      EXPECT_NO_THROW(KeyLayout(fields, c.record_size, false));
    } else {
      EXPECT_THROW(KeyLayout(fields, c.record_size, false), UsageError);
      EXPECT_THROW(KeyLayout(fields, c.record_size, true), UsageError);
    }
  }
  // A later field past the end fails too.
  EXPECT_THROW(KeyLayout({parse_key_spec("0:u8"), parse_key_spec("8:u32")}, 10, false), UsageError);
  // No field at all.
  EXPECT_THROW(KeyLayout({}, 10, false), UsageError);
}

TEST(KeyLayoutShape, WidthAndWordCount) {
  const KeyLayout one({parse_key_spec("3:u8")}, 8, false);
  EXPECT_EQ(one.width(), 1u);
  EXPECT_EQ(one.word_count(), 1u);
  EXPECT_TRUE(one.prefix_is_whole_key());
  const KeyLayout eight({parse_key_spec("0:u32"), parse_key_spec("4:f32be")}, 8, false);
  EXPECT_EQ(eight.width(), 8u);
  EXPECT_EQ(eight.word_count(), 1u);
  EXPECT_TRUE(eight.prefix_is_whole_key());
  const KeyLayout nine({parse_key_spec("0:u64"), parse_key_spec("8:1")}, 9, false);
  EXPECT_EQ(nine.width(), 9u);
  EXPECT_EQ(nine.word_count(), 2u);
  EXPECT_FALSE(nine.prefix_is_whole_key());
  const KeyLayout whole = KeyLayout::whole_record(100, false);
  EXPECT_EQ(whole.width(), 100u);
  EXPECT_EQ(whole.word_count(), 13u);
  EXPECT_EQ(whole.record_size(), 100u);
  // -r folds into each field's direction.
  const KeyLayout rev({parse_key_spec("0:u32"), parse_key_spec("4:u32:desc")}, 8, true);
  EXPECT_TRUE(rev.fields()[0].descending);
  EXPECT_FALSE(rev.fields()[1].descending);
}

// ----------------------------------------------------- single numeric fields

// Each numeric type, both byte orders, ascending and descending, with and
// without -r: every pair of interesting values orders as the reference says.
TEST(KeyLayoutOrder, EveryNumberTypeMatchesTheReference) {
  std::mt19937_64 rng(12345);
  for (const NumberType& t : kNumberTypes) {
    const std::vector<uint64_t> values = values_of(t, rng);
    for (bool be : {false, true}) {
      if (be && t.length == 1) continue;
      for (bool desc : {false, true}) {
        for (bool reverse : {false, true}) {
          KeyField f;
          f.offset = 5;
          f.length = t.length;
          f.kind = t.kind;
          f.big_endian = be;
          f.descending = desc;
          const uint32_t record_size = 5 + t.length + 3;
          std::vector<std::vector<uint8_t>> records;
          for (uint64_t v : values) {
            std::vector<uint8_t> r(record_size);
            for (auto& byte : r) byte = static_cast<uint8_t>(rng());  // bytes outside the key are noise
            write_number(r.data() + 5, v, t.length, be);
            records.push_back(r);
          }
          SCOPED_TRACE(std::string(t.name) + (be ? "be" : "") + (desc ? ":desc" : "") + (reverse ? " -r" : ""));
          check_all_pairs({f}, reverse, record_size, records);
        }
      }
    }
  }
}

// Spot checks of the documented order, independent of the pair sweep.
// Between NaNs of one sign the quiet bit and payload decide: a larger
// mantissa is larger for +NaN and smaller for -NaN (so -qNaN < -sNaN).
TEST(KeyLayoutOrder, FloatTotalOrderChain) {
  const std::vector<uint64_t> f32_chain = {0xFFFFFFFF, 0xFFC00000, 0xFFBFFFFF, 0xFF800001, 0xFF800000, 0xFF7FFFFF,
                                           0xBF800000, 0x807FFFFF, 0x80000001, 0x80000000, 0x00000000,
                                           0x00000001, 0x007FFFFF, 0x3F800000, 0x7F7FFFFF, 0x7F800000,
                                           0x7F800001, 0x7FC00000, 0x7FFFFFFF};
  const std::vector<uint64_t> f64_chain = {0xFFF8000000000001, 0xFFF8000000000000, 0xFFF0000000000001,
                                           0xFFF0000000000000, 0xBFF0000000000000, 0x8000000000000001,
                                           0x8000000000000000, 0x0000000000000000, 0x0000000000000001,
                                           0x3FF0000000000000, 0x7FF0000000000000, 0x7FF0000000000001,
                                           0x7FF8000000000000};
  for (bool be : {false, true}) {
    for (uint32_t len : {4u, 8u}) {
      const auto& chain = len == 4 ? f32_chain : f64_chain;
      KeyField f;
      f.length = len;
      f.kind = KeyKind::kFloat;
      f.big_endian = be;
      for (bool reverse : {false, true}) {
        const KeyLayout layout({f}, len, reverse);
        for (size_t i = 0; i + 1 < chain.size(); ++i) {
          uint8_t a[8], b[8];
          write_number(a, chain[i], len, be);
          write_number(b, chain[i + 1], len, be);
          SCOPED_TRACE("f" + std::to_string(8 * len) + (be ? "be" : "") + " step " + std::to_string(i));
          if (reverse) {
            EXPECT_GT(layout.compare(a, b), 0);
          } else {
            EXPECT_LT(layout.compare(a, b), 0);
          }
          EXPECT_EQ(layout.compare(a, a), 0);
        }
      }
    }
  }
}

TEST(KeyLayoutOrder, IntegerBoundaries) {
  // i32 little-endian: INT32_MIN < -1 < 0 < 1 < INT32_MAX.
  const KeyLayout i32({parse_key_spec("0:i32")}, 4, false);
  const int32_t ints[] = {INT32_MIN, INT32_MIN + 1, -1, 0, 1, INT32_MAX - 1, INT32_MAX};
  for (size_t i = 0; i + 1 < std::size(ints); ++i) {
    uint8_t a[4], b[4];
    std::memcpy(a, &ints[i], 4);  // the test host is little-endian
    std::memcpy(b, &ints[i + 1], 4);
    EXPECT_LT(i32.compare(a, b), 0) << ints[i] << " vs " << ints[i + 1];
  }
  // u16 big-endian: 0x00FF < 0x0100 although its first byte is smaller.
  const KeyLayout u16be({parse_key_spec("0:u16be")}, 2, false);
  const uint8_t x[2] = {0x00, 0xFF}, y[2] = {0x01, 0x00};
  EXPECT_LT(u16be.compare(x, y), 0);
  // u16 little-endian: the same bytes read 0xFF00 and 0x0001.
  const KeyLayout u16({parse_key_spec("0:u16")}, 2, false);
  EXPECT_GT(u16.compare(x, y), 0);
  // i8: 0x80 (-128) < 0x7F (127).
  const KeyLayout i8({parse_key_spec("0:i8")}, 1, false);
  const uint8_t m = 0x80, p = 0x7F;
  EXPECT_LT(i8.compare(&m, &p), 0);
  // desc on i64: the largest first.
  const KeyLayout i64d({parse_key_spec("0:i64:desc")}, 8, false);
  const int64_t lo = INT64_MIN, hi = INT64_MAX;
  EXPECT_GT(i64d.compare(reinterpret_cast<const uint8_t*>(&lo), reinterpret_cast<const uint8_t*>(&hi)), 0);
}

// ----------------------------------------------------------- bytes fields

TEST(KeyLayoutOrder, BytesFieldsOfEveryLength) {
  std::mt19937_64 rng(99);
  for (uint32_t len : {1u, 3u, 7u, 8u, 9u, 16u, 17u, 40u}) {
    for (bool desc : {false, true}) {
      for (bool reverse : {false, true}) {
        KeyField f;
        f.offset = 2;
        f.length = len;
        f.descending = desc;
        const uint32_t record_size = len + 4;
        std::vector<std::vector<uint8_t>> records;
        for (int i = 0; i < 60; ++i) {
          std::vector<uint8_t> r(record_size);
          for (auto& byte : r) byte = static_cast<uint8_t>(rng());
          // Few distinct key bytes, so keys share long common prefixes.
          for (uint32_t k = 0; k < len; ++k) r[2 + k] = static_cast<uint8_t>(rng() % 3 == 0 ? rng() : 0x41);
          records.push_back(r);
        }
        records.push_back(std::vector<uint8_t>(record_size, 0x00));
        records.push_back(std::vector<uint8_t>(record_size, 0xFF));
        SCOPED_TRACE("bytes " + std::to_string(len) + (desc ? ":desc" : "") + (reverse ? " -r" : ""));
        check_all_pairs({f}, reverse, record_size, records);
      }
    }
  }
}

TEST(KeyLayoutOrder, WholeRecordIsMemcmpOrder) {
  std::mt19937_64 rng(7);
  for (uint32_t rs : {1u, 5u, 8u, 100u}) {
    for (bool reverse : {false, true}) {
      const KeyLayout layout = KeyLayout::whole_record(rs, reverse);
      ASSERT_EQ(layout.width(), rs);
      for (int i = 0; i < 300; ++i) {
        std::vector<uint8_t> a(rs), b(rs);
        for (uint32_t k = 0; k < rs; ++k) {
          a[k] = static_cast<uint8_t>(rng() % 3);
          b[k] = static_cast<uint8_t>(rng() % 3);
        }
        const int expected = sign(std::memcmp(a.data(), b.data(), rs)) * (reverse ? -1 : 1);
        ASSERT_EQ(sign(layout.compare(a.data(), b.data())), expected);
        ASSERT_EQ(layout.prefix(a.data()), word_of(normalised(layout, a.data()), 0));
      }
    }
  }
}

// -------------------------------------------------------- multi-field keys

// Records drawn from few values per field, so that every field in turn has
// to break ties; every normalised word and the prefix path are checked.
void check_multi_field(const std::vector<const char*>& specs, uint32_t record_size, uint64_t seed) {
  std::vector<KeyField> fields;
  for (const char* s : specs) fields.push_back(parse_key_spec(s));
  std::mt19937_64 rng(seed);
  std::vector<std::vector<uint8_t>> records;
  for (int i = 0; i < 150; ++i) {
    std::vector<uint8_t> r(record_size);
    for (auto& byte : r) byte = static_cast<uint8_t>(rng());
    for (const KeyField& f : fields) {
      for (uint32_t k = 0; k < f.length; ++k) {
        const int pick = static_cast<int>(rng() % 4);
        r[f.offset + k] = pick == 0 ? 0x00 : (pick == 1 ? 0xFF : (pick == 2 ? 0x80 : 0x7F));
      }
    }
    records.push_back(r);
  }
  for (bool reverse : {false, true}) {
    SCOPED_TRACE(std::string(specs[0]) + "... reverse=" + std::to_string(reverse));
    check_all_pairs(fields, reverse, record_size, records);
  }
}

TEST(KeyLayoutMultiField, LaterFieldsBreakTies) {
  check_multi_field({"0:u8", "4:i32be:desc", "8:10", "20:f64", "28:2:desc"}, 32, 1);
  check_multi_field({"0:u32", "4:u64be"}, 12, 2);              // a number across the 8-byte prefix
  check_multi_field({"0:6", "6:6:desc"}, 12, 3);               // bytes across the prefix
  check_multi_field({"0:f32be", "4:f32", "8:i16", "10:u8"}, 11, 4);  // exactly 11 bytes
  check_multi_field({"16:8", "0:16:desc"}, 24, 5);             // fields out of record order
  check_multi_field({"0:i64:desc", "8:i64", "16:f64be:desc"}, 24, 6);
  check_multi_field({"3:u8", "3:u8:desc"}, 4, 7);              // the same bytes twice
}

TEST(KeyLayoutMultiField, SecondFieldDecidesOnlyOnTies) {
  const KeyLayout layout({parse_key_spec("0:u8"), parse_key_spec("1:u8:desc")}, 2, false);
  const uint8_t a[2] = {1, 9}, b[2] = {1, 3}, c[2] = {2, 99}, d[2] = {1, 9};
  EXPECT_LT(layout.compare(a, b), 0);  // tie on field 1, field 2 descending
  EXPECT_LT(layout.compare(b, c), 0);  // field 1 decides
  EXPECT_EQ(layout.compare(a, d), 0);
  const KeyLayout reversed({parse_key_spec("0:u8"), parse_key_spec("1:u8:desc")}, 2, true);
  EXPECT_GT(reversed.compare(a, b), 0);
  EXPECT_GT(reversed.compare(b, c), 0);
  EXPECT_EQ(reversed.compare(a, d), 0);
}

// compare_after_prefix alone: records whose first 8 normalised bytes agree.
TEST(KeyLayoutMultiField, CompareAfterPrefixAgreesWithCompare) {
  std::mt19937_64 rng(31);
  const KeyLayout layout({parse_key_spec("0:u32"), parse_key_spec("4:u64be"), parse_key_spec("12:5:desc")}, 17,
                         false);
  for (int i = 0; i < 2000; ++i) {
    uint8_t a[17], b[17];
    for (int k = 0; k < 17; ++k) a[k] = static_cast<uint8_t>(rng());
    std::memcpy(b, a, 17);
    // Same u32 and same high half of the u64: equal 8-byte prefixes.
    for (int k = 8; k < 17; ++k) {
      if (rng() % 2) b[k] = static_cast<uint8_t>(rng() % 2 ? a[k] + 1 : rng());
    }
    ASSERT_EQ(layout.prefix(a), layout.prefix(b));
    const int full = sign(layout.compare(a, b));
    ASSERT_EQ(sign(layout.compare_after_prefix(a, b)), full) << hex(a, 17) << " " << hex(b, 17);
    ASSERT_EQ(full, reference_compare(layout.fields(), false, a, b));
  }
}

// --------------------------------------------------------- normalised words

TEST(KeyLayoutWords, EachWordIsTheBigEndianSliceOfTheNormalisedKey) {
  std::mt19937_64 rng(5);
  const KeyLayout layout({parse_key_spec("1:u16"), parse_key_spec("3:13"), parse_key_spec("16:f32:desc"),
                          parse_key_spec("20:i64be")},
                         28, false);
  ASSERT_EQ(layout.width(), 2u + 13 + 4 + 8);
  ASSERT_EQ(layout.word_count(), 4u);
  for (int i = 0; i < 200; ++i) {
    uint8_t r[28];
    for (auto& byte : r) byte = static_cast<uint8_t>(rng());
    const std::vector<uint8_t> norm = normalised(layout, r);
    for (uint32_t w = 0; w < 6; ++w) {  // words past the key are zero
      ASSERT_EQ(normalised_key_word(layout.fields().data(), 4, r, w), word_of(norm, w)) << "word " << w;
    }
    EXPECT_EQ(normalised_key_word(layout.fields().data(), 4, r, layout.word_count()), 0u);
  }
  // Hand-checked: u16 0x1234 little-endian, then bytes "ABC".
  const KeyLayout small({parse_key_spec("0:u16"), parse_key_spec("2:3")}, 5, false);
  const uint8_t rec[5] = {0x34, 0x12, 'A', 'B', 'C'};
  EXPECT_EQ(small.prefix(rec), 0x1234414243000000ull);
  // A signed byte: 0xFF (-1) normalises to 0x7F; desc inverts it to 0x80.
  const KeyLayout i8({parse_key_spec("0:i8")}, 1, false);
  const KeyLayout i8d({parse_key_spec("0:i8:desc")}, 1, false);
  const uint8_t minus_one = 0xFF;
  EXPECT_EQ(i8.prefix(&minus_one), 0x7F00000000000000ull);
  EXPECT_EQ(i8d.prefix(&minus_one), 0x8000000000000000ull);
  // -0.0f normalises below +0.0f: 0x7FFFFFFF vs 0x80000000.
  const KeyLayout f32({parse_key_spec("0:f32be")}, 4, false);
  const uint8_t neg_zero[4] = {0x80, 0, 0, 0}, pos_zero[4] = {0, 0, 0, 0};
  EXPECT_EQ(f32.prefix(neg_zero), 0x7FFFFFFF00000000ull);
  EXPECT_EQ(f32.prefix(pos_zero), 0x8000000000000000ull);
}

}  // namespace
}  // namespace gsort
