// The comparison of lines (src/keys/line_compare.h) and where keys lie in
// a line (src/keys/line_fields.h): GNU sort's rules, case by case.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "src/keys/line_compare.h"
#include "src/keys/line_fields.h"
#include "src/keys/line_number.h"
#include "src/keys/line_numeric.h"

namespace gsort {
namespace {

const uint8_t* u(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

LineSpec spec_of(std::vector<std::string> keys, int separator = kBlankSeparated, bool reverse = false,
                 bool stable = false, bool unique = false) {
  LineOptions o;
  o.keys = std::move(keys);
  o.separator = separator;
  o.stable = stable;
  return make_line_spec(o, reverse, unique);
}

int cmp(const LineSpec& s, const std::string& a, const std::string& b) {
  const int d = LineComparator(s).compare(u(a), a.size(), u(b), b.size());
  return d < 0 ? -1 : d > 0 ? 1 : 0;
}

int num(const std::string& a, const std::string& b) {
  const int d = compare_line_numbers(u(a), a.size(), u(b), b.size());
  return d < 0 ? -1 : d > 0 ? 1 : 0;
}

int human(const std::string& a, const std::string& b) {
  const int d = compare_human_numbers(u(a), a.size(), u(b), b.size(), false);
  return d < 0 ? -1 : d > 0 ? 1 : 0;
}

std::string key_of(const std::string& line, const std::string& spec, int separator = kBlankSeparated) {
  const LineKey k = parse_line_key(spec).key;
  uint64_t b = 0, e = 0;
  line_key_extent(u(line), line.size(), k, separator, &b, &e);
  return line.substr(b, e - b);
}

TEST(LineFields, BlankSeparatedFieldsKeepTheirLeadingBlanks) {
  EXPECT_EQ(key_of("  a  b c", "2,2"), "  b");
  EXPECT_EQ(key_of("  a  b c", "2b,2"), "b");
  EXPECT_EQ(key_of("  a  b c", "1,1"), "  a");
  EXPECT_EQ(key_of("  a  b c", "2"), "  b c");
  EXPECT_EQ(key_of("a b", "3,3"), "") << "a missing field is empty";
  EXPECT_EQ(key_of("abc def", "1.2,1.3"), "bc");
  EXPECT_EQ(key_of("abc def", "2.2,2.3"), "de") << "characters count from the field's leading blank";
  EXPECT_EQ(key_of("abc def", "2.2b,2.3b"), "ef");
  EXPECT_EQ(key_of("abc", "1.10"), "") << "a start past the end";
  EXPECT_EQ(key_of("abc def", "2,1"), "") << "an end before the start: empty";
  EXPECT_EQ(key_of("a\tb\nc", "3,3"), "\nc") << "newline is a blank (it is inside lines with -z)";
}

TEST(LineFields, SeparatedFields) {
  EXPECT_EQ(key_of("a,,c", "2,2", ','), "");
  EXPECT_EQ(key_of("a,,c", "3,3", ','), "c");
  EXPECT_EQ(key_of("a,b,c", "2", ','), "b,c");
  EXPECT_EQ(key_of(" a, b", "2,2", ','), " b");
  EXPECT_EQ(key_of(" a, b", "2b,2", ','), "b");
  EXPECT_EQ(key_of("ab,cd,ef", "1.2,2.1", ','), "b,c");
  EXPECT_EQ(key_of("ab,cd", "2,2.5", ','), "cd") << "an end character past the field stops at the line's end";
  EXPECT_EQ(key_of("ab,cd,ef", "1,1.5", ','), "ab,cd") << "GNU: echar counts past the separator";
  EXPECT_EQ(key_of("a", "2,2", ','), "");
}

// The word-at-a-time scan finds what a byte-by-byte one finds, for every
// separator byte, at every offset and length, among bytes that trip a
// careless zero-byte test (0x00, 0x01, 0x80, 0xFF next to the separator).
TEST(LineFields, FindLineByteMatchesAByteByByteScan) {
  std::mt19937_64 rng(21);
  const uint8_t tricky[] = {0x00, 0x01, 0x7F, 0x80, 0x81, 0xFE, 0xFF};
  for (int sep = 0; sep < 256; ++sep) {
    for (int round = 0; round < 40; ++round) {
      std::vector<uint8_t> line(rng() % 40);
      for (uint8_t& b : line) {
        const uint64_t r = rng();
        b = r % 4 == 0 ? static_cast<uint8_t>(sep) : r % 4 == 1 ? tricky[(r >> 8) % sizeof tricky] : static_cast<uint8_t>(r >> 16);
        if (b == sep && r % 3 != 0) b = static_cast<uint8_t>(sep ^ 1);  // fewer separators: longer scans
      }
      for (uint64_t at = 0; at <= line.size(); ++at) {
        uint64_t expected = at;
        while (expected < line.size() && line[expected] != sep) ++expected;
        ASSERT_EQ(find_line_byte(line.data(), line.size(), at, static_cast<uint8_t>(sep)), expected)
            << "sep " << sep << " at " << at << " of " << line.size();
      }
    }
  }
}

TEST(LineNumbers, ValuesAsGnuReadsThem) {
  EXPECT_EQ(num("10", "9"), 1);
  EXPECT_EQ(num("-10", "-9"), -1);
  EXPECT_EQ(num("-0", "0"), 0);
  EXPECT_EQ(num("-0.000", ""), 0);
  EXPECT_EQ(num("abc", "0"), 0) << "no number is zero";
  EXPECT_EQ(num("+5", "0"), 0) << "'+' is no sign in GNU sort -n";
  EXPECT_EQ(num("1e5", "2"), -1) << "no exponent";
  EXPECT_EQ(num("1,000", "2"), -1) << "no thousands separator in the C locale";
  EXPECT_EQ(num("0010", "10.0"), 0);
  EXPECT_EQ(num(".5", "0.50"), 0);
  EXPECT_EQ(num("-.5", "-0.4"), -1);
  EXPECT_EQ(num("  \t7", "7"), 0);
  EXPECT_EQ(num("1.2.3", "1.2"), 0);
  EXPECT_EQ(num("123456789012345678901234567890", "123456789012345678901234567891"), -1);
  EXPECT_EQ(num("-123456789012345678901234567890.5", "-123456789012345678901234567890.4"), -1);
  EXPECT_EQ(num("- 5", "0"), 0);
  EXPECT_EQ(num("0.05", "0.5"), -1);
  EXPECT_EQ(num("-", "."), 0);
}

// GNU sort's -h (its human_numcompare in the C locale): the unit first,
// whatever the number, then the number as -n reads it.
TEST(LineNumbers, HumanUnitsThenValuesAsGnuReadsThem) {
  const char* const ascending[] = {"-1Q", "-1R", "-1Y", "-1Z", "-1E", "-1P", "-1T", "-1G", "-1M", "-1k", "-5",
                                   "0", "1", "1K", "1M", "1G", "1T", "1P", "1E", "1Z", "1Y", "1R", "1Q"};
  for (size_t i = 0; i + 1 < sizeof ascending / sizeof ascending[0]; ++i) {
    EXPECT_EQ(human(ascending[i], ascending[i + 1]), -1) << ascending[i] << " < " << ascending[i + 1];
  }
  EXPECT_EQ(human("1023M", "1G"), -1) << "the unit decides, not the size it stands for";
  EXPECT_EQ(human("2000", "1K"), -1) << "no unit sorts before K";
  EXPECT_EQ(human("1k", "1K"), 0) << "k and K are one unit";
  EXPECT_EQ(human("1.5K", "1.05K"), 1);
  EXPECT_EQ(human("-2M", "-3M"), 1) << "negatives by value within a unit";
  EXPECT_EQ(human("0K", "0"), 0) << "a zero has no unit";
  EXPECT_EQ(human("-0M", "0"), 0);
  EXPECT_EQ(human("0.0G", "-1"), 1);
  EXPECT_EQ(human(".5K", "999"), 1) << "a fraction alone has a unit";
  EXPECT_EQ(human("-.5K", "-999"), -1);
  EXPECT_EQ(human("1.E", "2.M"), 1) << "a decimal point at the end still has a unit (sort.pl h4)";
  EXPECT_EQ(human("1..2E", "2..2M"), -1) << "a second point: no unit (sort.pl h5)";
  EXPECT_EQ(human("1GiB", "1030MiB"), 1) << "sort.pl h6";
  EXPECT_EQ(human("1X", "2"), -1) << "an unknown unit is none";
  EXPECT_EQ(human("  \t1K", "1K"), 0) << "leading blanks";
  EXPECT_EQ(human("1 K", "2"), -1) << "the unit right after the number only";
  EXPECT_EQ(human("+1K", "2"), -1) << "no '+' sign, so no number, so no unit";
  EXPECT_EQ(human("K", "1"), -1);
  EXPECT_EQ(human("1\x80" "2K", "2K"), -1) << "0x80 ends the number: no unit";
  EXPECT_EQ(human("1\x80" "2K", "3"), -1) << "and it is 1 (coreutils 9.1 to 9.4 read 12 on x86)";
  EXPECT_EQ(human(std::string("1\0K", 3), "2"), -1) << "NUL is no unit";
  EXPECT_EQ(human("1e", "2"), -1) << "e is no unit";
  const auto folded = [](const std::string& a, const std::string& b) {
    return compare_human_numbers(u(a), a.size(), u(b), b.size(), true);
  };
  EXPECT_GT(folded("1e", "2"), 0) << "but -f folds it to E first, as GNU sort does";
  EXPECT_LT(folded("1m", "1g"), 0);
  EXPECT_EQ(folded("1k", "1K"), 0);
}

TEST(LineCompare, LastResortAndItsExceptions) {
  // Keys tie; the whole lines decide.
  EXPECT_EQ(cmp(spec_of({"1,1"}), "a 2", "a 1"), 1);
  EXPECT_EQ(cmp(spec_of({"1,1"}, kBlankSeparated, true), "a 2", "a 1"), -1) << "-r reverses the last resort";
  EXPECT_EQ(cmp(spec_of({"1,1"}, kBlankSeparated, false, true), "a 2", "a 1"), 0) << "-s: none";
  EXPECT_EQ(cmp(spec_of({"1,1"}, kBlankSeparated, false, false, true), "a 2", "a 1"), 0) << "-u: none";
  EXPECT_EQ(cmp(spec_of({}), "ab", "abc"), -1) << "a prefix first";
  EXPECT_EQ(cmp(spec_of({}), "", "a"), -1);
  EXPECT_EQ(cmp(spec_of({}), "\xff", "a"), 1) << "bytes unsigned";
  EXPECT_EQ(cmp(spec_of({}), std::string("a\0b", 3), std::string("a\0a", 3)), 1) << "NUL is a byte";
}

TEST(LineCompare, KeyOptions) {
  EXPECT_EQ(cmp(spec_of({"1,1n"}), "10", "9"), 1);
  EXPECT_EQ(cmp(spec_of({"1,1"}), "10", "9"), -1);
  EXPECT_EQ(cmp(spec_of({"1,1f"}), "abc", "ABD"), -1);
  EXPECT_EQ(cmp(spec_of({"1,1f"}), "abc", "ABC"), 1) << "the last resort tells them apart";
  EXPECT_EQ(cmp(spec_of({"1,1r"}), "a", "b"), 1);
  EXPECT_EQ(cmp(spec_of({"2,2n", "1,1"}, ','), "b,1", "a,1"), 1);
  EXPECT_EQ(cmp(spec_of({"1,1fr", "2,2"}, ','), "A,x", "a,y"), -1) << "equal folded, then key 2";
  EXPECT_EQ(cmp(spec_of({"2,2h", "1,1"}), "a 1G", "b 1023M"), 1) << "sort.pl h3";
  EXPECT_EQ(cmp(spec_of({"1,1hr"}), "1K", "1M"), 1);
  EXPECT_EQ(cmp(spec_of({"1,1hf"}), "1k", "1K"), 1) << "equal keys: the last resort";
  EXPECT_EQ(cmp(spec_of({"1b,1h"}), "  2K", "1M"), -1);
  EXPECT_EQ(cmp(spec_of({"1,1hf"}), "227.9e5", "229"), 1) << "folded: 227.9E";
}

}  // namespace
}  // namespace gsort
