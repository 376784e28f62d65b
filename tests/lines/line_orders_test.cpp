// The pieces of GNU sort's other orderings (src/keys/): MD5 against RFC
// 1321's test vectors, -V's version order, -M's months, -g's image
// against the values it stands for, and -d/-i's kept bytes in the image.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "src/keys/line_image.h"
#include "src/keys/line_month.h"
#include "src/keys/line_orders.h"
#include "src/keys/md5.h"
#include "src/keys/version_order.h"
#include "tests/support/rng.h"

namespace gsort {
namespace {

const uint8_t* u(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

std::string md5_hex(const std::string& s, size_t step) {
  Md5 md5;
  for (size_t at = 0; at < s.size(); at += step) md5.update(u(s) + at, std::min(step, s.size() - at));
  std::string hex;
  for (uint8_t b : md5.finish()) {
    char buf[3];
    std::snprintf(buf, sizeof buf, "%02x", b);
    hex += buf;
  }
  return hex;
}

TEST(LineOrders, Md5MatchesTheRfcVectorsInAnyPieces) {
  const std::pair<std::string, const char*> vectors[] = {
      {"", "d41d8cd98f00b204e9800998ecf8427e"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72"},
      {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
      {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
      {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
       "57edf4a22be3c955ac49da2e2107b67a"},
  };
  for (const auto& [text, hex] : vectors) {
    for (size_t step : {size_t{1}, size_t{7}, size_t{64}, size_t{1000}}) EXPECT_EQ(md5_hex(text, step), hex) << text;
  }
}

// An empty key (-R on an empty field) may come as a null pointer: no bytes
// are read, and the digest is the empty string's, with bytes before it too
// (UndefinedBehaviorSanitizer fails the test where memcpy is handed null).
TEST(LineOrders, Md5TakesNoBytesFromANullPointer) {
  Md5 empty;
  empty.update(nullptr, 0);
  Md5 reference;
  EXPECT_EQ(empty.finish(), reference.finish());
  Md5 after;
  after.update(u("abc"), 3);
  after.update(nullptr, 0);
  std::string hex;
  for (uint8_t b : after.finish()) {
    char buf[3];
    std::snprintf(buf, sizeof buf, "%02x", b);
    hex += buf;
  }
  EXPECT_EQ(hex, "900150983cd24fb0d6963f7d28e17f72");
}

int version_sign(const std::string& a, const std::string& b) {
  const int d = compare_versions(u(a), a.size(), u(b), b.size());
  return d < 0 ? -1 : d > 0 ? 1 : 0;
}

TEST(LineOrders, VersionOrder) {
  // As LC_ALL=C sort -V orders them in coreutils 9.2 and later, and as its
  // manual says: ".0" before ".A" (9.1 had them the other way round).
  const std::vector<std::string> ascending = {"",       ".",        "..",      ".0",       ".9",      ".A",
                                              ".a~",    ".a",       ".a.b",    "1.0~rc1",  "1.0",     "1.0.1",
                                              "1.2.9",  "1.2.10",   "1.10",    "a",        "a.tar.gz",
                                              "a1",     "a2",       "a9",      "a10",      "ab",      "b~",
                                              "b",      "foo-1.0~rc1.tar.gz",  "foo-1.0.tar.gz",      "#"};
  for (size_t i = 0; i < ascending.size(); ++i) {
    for (size_t j = 0; j < ascending.size(); ++j) {
      EXPECT_EQ(version_sign(ascending[i], ascending[j]), i < j ? -1 : i > j ? 1 : 0)
          << "'" << ascending[i] << "' and '" << ascending[j] << "'";
    }
  }
  EXPECT_EQ(version_sign("a01", "a1"), 0) << "leading zeros do not count";
  EXPECT_EQ(version_sign("a", "a0"), 0) << "nor does a run of zeros";
}

// The head: where two heads differ, their first differing byte orders the
// keys as compare_versions does (equal heads say nothing), over keys built
// to meet every rule: '~', the end, letters, other bytes, zero runs, long
// digit runs, file suffixes, "." and "..", hidden names, heads cut short.
TEST(LineOrders, VersionHeadOrdersAsTheComparison) {
  gsort_test::Rng rng(2027);
  static const char* const kParts[] = {"", "~", ".", "..", "0", "00", "007", "1", "9", "10", "a", "A", "z", "Z",
                                       "-", "_", "+", ".tar", ".gz", ".a1", ".~x", "~rc1", "\x01", "\xff", " ",
                                       "1234567890123456789012345"};
  std::vector<std::string> keys;
  for (int i = 0; i < 3000; ++i) {
    std::string k;
    for (uint64_t p = rng.below(7); p > 0; --p) k += kParts[rng.below(sizeof kParts / sizeof kParts[0])];
    if (rng.chance(2)) k = std::string(300, '7') + k;  // a digit run past the length byte
    keys.push_back(k);
  }
  for (const uint64_t most : {uint64_t{21}, uint64_t{6}, uint64_t{2}}) {
    std::vector<std::vector<uint8_t>> heads;
    for (const std::string& k : keys) {
      std::vector<uint8_t> h(most, 0);
      const uint64_t n = gsort::version_image(u(k), k.size(), h.data(), most);
      ASSERT_LE(n, most);
      heads.push_back(h);  // padded with zeros past n, as the image words are
    }
    for (int t = 0; t < 200000; ++t) {
      const size_t i = rng.below(keys.size()), j = rng.below(keys.size());
      const int by_head = heads[i] < heads[j] ? -1 : heads[j] < heads[i] ? 1 : 0;
      if (by_head != 0) {
        ASSERT_EQ(by_head, version_sign(keys[i], keys[j])) << "'" << keys[i] << "' and '" << keys[j] << "', head of " << most;
      }
    }
  }
}

TEST(LineOrders, Months) {
  const std::pair<const char*, int> cases[] = {{"JAN", 1}, {"jan", 1}, {"  \tFeb", 2}, {"december", 12},
                                               {"Ma", 0},  {"MAX", 0}, {"", 0},         {"x JUN", 0},
                                               {"sep1", 9}, {"\nOCT", 10}};
  for (const auto& [text, month] : cases) EXPECT_EQ(line_month(u(text), std::string(text).size()), month) << text;
}

TEST(LineOrders, GeneralNumericImagesOrderAsTheValues) {
  const std::vector<std::vector<std::string>> ascending = {
      {"", "abc", "+", "-"}, {"-nan"}, {"nan", "NaN"}, {"-inf", "-Infinity"}, {"-1e4000"}, {"-1e10"},
      {"-1.5", "-0x1.8p0"}, {"-1e-400"}, {"0", "-0", "0x0", "0e5"}, {"1e-4000"}, {"4.9e-324"},
      {"0.1"}, {"1", "1.0", "+1", " 1"}, {"10", "1e1", "0xa"}, {"1e308"}, {"1e4000"}, {"inf", "INF", "infinity"}};
  std::vector<std::pair<std::string, size_t>> all;
  for (size_t rank = 0; rank < ascending.size(); ++rank) {
    for (const std::string& s : ascending[rank]) all.emplace_back(s, rank);
  }
  for (const auto& [a, ra] : all) {
    for (const auto& [b, rb] : all) {
      uint8_t x[kGeneralImageBytes], y[kGeneralImageBytes];
      general_image(u(a), a.size(), x);
      general_image(u(b), b.size(), y);
      const int d = std::memcmp(x, y, kGeneralImageBytes);
      EXPECT_EQ(d < 0 ? -1 : d > 0 ? 1 : 0, ra < rb ? -1 : ra > rb ? 1 : 0) << "'" << a << "' and '" << b << "'";
    }
  }
}

TEST(LineOrders, KeptBytesMakeTheImage) {
  LineImageSpec spec;
  spec.key.keep = kKeepDictionary;
  spec.key.fold = true;
  const std::string key = "a-b.c d!e_f g";
  const LineImageView v = view_line_image(spec, u(key), key.size());
  EXPECT_EQ(line_image_length(spec, v), 9u) << "A B C space D E F space G";
  EXPECT_EQ(line_image_word(spec, v, 0), 0x4142432044454620ull);
  EXPECT_EQ(line_image_word(spec, v, 1), uint64_t{'G'} << 56);
  spec.key.keep = kKeepPrintable;
  spec.key.fold = false;
  const std::string raw = "\x01" "a\x7f" "b\x80";
  EXPECT_EQ(line_image_word(spec, view_line_image(spec, u(raw), raw.size()), 0), uint64_t{0x6162} << 48);
}

}  // namespace
}  // namespace gsort
