// The image of a line (src/keys/line_image.h) against the comparison:
// wherever two lines' image words differ, the first word that differs
// orders them as the comparison does (and the comparison never calls
// lines with different images equal). Random tricky lines under random
// options, many pairs each. And against GNU sort itself (LC_ALL=C, a
// child process), one process a pair: every pair whose images differ is
// in order for `sort -C` written in the images' order, and out of order
// written the other way.
#include <gtest/gtest.h>

#include <locale.h>

#include <algorithm>
#include <string>
#include <vector>

#include "src/keys/line_compare.h"
#include "src/keys/line_image.h"
#include "tests/lines/gnu_diff.h"
#include "tests/support/line_gen.h"
#include "tests/support/line_reference.h"
#include "tests/support/process.h"

namespace gsort {
namespace {

using gsort_test::Rng;

const uint8_t* u(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// -1, 0, 1: the images' order, comparing words until both are spent.
int image_order(const LineImageSpec& spec, const std::string& a, const std::string& b) {
  const LineImageView va = view_line_image(spec, u(a), a.size());
  const LineImageView vb = view_line_image(spec, u(b), b.size());
  const uint64_t longest = std::max(line_image_length(spec, va), line_image_length(spec, vb));
  for (uint64_t w = 0; 8 * w < longest + 8; ++w) {
    const uint64_t x = line_image_word(spec, va, w), y = line_image_word(spec, vb, w);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

TEST(LineImage, NeverContradictsTheComparison) {
  Rng rng(31);
  uint64_t checked = 0, decided_by_image = 0;
  for (int round = 0; round < 400; ++round) {
    const gsort_test::LineOptionsCase o = gsort_test::random_line_options(rng);
    const LineSpec spec = gsort_test::spec_of_args(o.args);
    const LineComparator compare(spec);
    const LineImageSpec image = spec.image();
    const std::vector<std::string> lines =
        gsort_test::split_lines(gsort_test::random_line_input(rng, o, 60), o.zero_terminated ? '\0' : '\n');
    for (size_t i = 0; i < lines.size(); ++i) {
      for (size_t j = 0; j < lines.size(); ++j) {
        const int by_image = image_order(image, lines[i], lines[j]);
        if (by_image == 0) continue;
        const int d = compare.compare(u(lines[i]), lines[i].size(), u(lines[j]), lines[j].size());
        const int by_compare = d < 0 ? -1 : d > 0 ? 1 : 0;
        ASSERT_EQ(by_image, by_compare) << gsort_test::join_args(o.args) << "\nlines '" << lines[i] << "' and '"
                                        << lines[j] << "'";
        ++decided_by_image;
      }
      // Past its length an image is its padding.
      const LineImageView v = view_line_image(image, u(lines[i]), lines[i].size());
      const uint64_t past = (line_image_length(image, v) + 7) / 8;
      ASSERT_EQ(line_image_word(image, v, past), line_image_padding(image, v)) << gsort_test::join_args(o.args);
      checked += lines.size();
    }
  }
  EXPECT_GT(decided_by_image, checked / 4) << "the image decides most pairs";
}

// line_image_bytes, the composite pass's way to an image, gives the bytes
// of line_image_word's words for every order and modifier, padding too.
TEST(LineImage, BytesAtOnceAreTheWordsBytes) {
  Rng rng(37);
  uint64_t compared = 0;
  for (int round = 0; round < 400; ++round) {
    const gsort_test::LineOptionsCase o = gsort_test::random_line_options(rng);
    const LineSpec spec = gsort_test::spec_of_args(o.args);
    const std::vector<std::string> lines =
        gsort_test::split_lines(gsort_test::random_line_input(rng, o, 40), o.zero_terminated ? '\0' : '\n');
    for (const LineImageSpec& image : spec.images()) {
      for (const std::string& line : lines) {
        const LineImageView v = view_line_image(image, u(line), line.size());
        const uint64_t bytes = 8 * ((line_image_length(image, v) + 7) / 8 + 1);
        std::vector<uint8_t> at_once(bytes);
        line_image_bytes(image, v, at_once.data(), bytes);
        for (uint64_t i = 0; i < bytes; ++i) {
          const uint64_t word = line_image_word(image, v, i / 8);
          ASSERT_EQ(at_once[i], static_cast<uint8_t>(word >> (56 - 8 * (i % 8))))
              << gsort_test::join_args(o.args) << "\nline '" << line << "' byte " << i;
        }
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 4000u);
}

TEST(LineImage, NumericImageOrdersValues) {
  LineOptions o;
  o.numeric = true;
  const LineSpec spec = make_line_spec(o, false, false);
  const std::vector<std::string> ascending = {"-1000", "-999.5", "-10", "-1", "-0.5", "-0.05", "0", "-0", "abc",
                                              "0.05", "0.5", "1", "1.5", "9", "10", "99", "100",
                                              "12345678901234567890123"};
  for (size_t i = 0; i + 1 < ascending.size(); ++i) {
    const int order = image_order(spec.image(), ascending[i], ascending[i + 1]);
    EXPECT_LE(order, 0) << ascending[i] << " vs " << ascending[i + 1];
  }
  EXPECT_EQ(image_order(spec.image(), "0", "-0"), 0);
  EXPECT_EQ(image_order(spec.image(), "007.10", "7.1"), 0);
}

// Numbers longer than an image holds exactly (kImageDigits; with
// thousands separators among their digits too, and counts of
// kImageCountCap digits) against shorter ones of the same count: the
// images never order a pair against the comparison. Before 2026-12-05 a
// number with a separator and more than 64 digits had its header alone
// for an image, whose zero padding put 999..9,9 before 10^64.
TEST(LineImage, LongNumbersNeverContradictTheComparison) {
  locale_t en = newlocale(LC_ALL_MASK, "en_US.UTF-8", static_cast<locale_t>(0));
  if (en == static_cast<locale_t>(0)) GTEST_SKIP() << "en_US.UTF-8 is not installed";
  freelocale(en);
  Rng rng(41);
  const auto digits = [&rng](size_t n) {
    std::string d;
    for (size_t i = 0; i < n; ++i) d += static_cast<char>('0' + (i == 0 ? 1 + rng.below(9) : rng.below(10)));
    return d;
  };
  const auto with_separators = [](const std::string& d) {
    std::string s;
    for (size_t i = 0; i < d.size(); ++i) s += (i > 0 && (d.size() - i) % 3 == 0 ? "," : "") + d.substr(i, 1);
    return s;
  };
  std::vector<std::string> lines = {std::string(64, '9') + ",9", "1" + std::string(64, '0')};
  const std::string shared = digits(62);
  for (int i = 0; i < 60; ++i) {
    std::string d = rng.chance(50) ? shared + digits(1 + rng.below(6)) : digits(60 + rng.below(10));
    if (rng.chance(30)) d += "." + digits(1 + rng.below(8));
    lines.push_back((rng.chance(20) ? "-" : "") + (rng.chance(50) ? with_separators(d) : d));
  }
  // The count's cap: kImageCountCap integer digits, and one more (pairs among them alone: 16 MB each).
  const std::vector<std::string> capped = {"9" + std::string(kImageCountCap - 1, '0'),
                                           "1" + std::string(kImageCountCap, '0'),
                                           "1," + std::string(kImageCountCap - 1, '0'), "7"};
  for (const bool human : {false, true}) {
    LineOptions o;
    (human ? o.human_numeric : o.numeric) = true;
    o.locale.numeric = "en_US.UTF-8";
    const LineSpec spec = make_line_spec(o, false, false);
    const LineComparator compare(spec);
    uint64_t decided = 0;
    for (const std::vector<std::string>* set : std::vector<const std::vector<std::string>*>{&lines, &capped}) {
      for (const std::string& a : *set) {
        for (const std::string& b : *set) {
          const int by_image = image_order(spec.image(), a, b);
          if (by_image == 0) continue;
          const int d = compare.compare(u(a), a.size(), u(b), b.size());
          ASSERT_EQ(by_image, d < 0 ? -1 : d > 0 ? 1 : 0) << (human ? "-h" : "-n") << ": '" << a.substr(0, 80)
                                                         << "' and '" << b.substr(0, 80) << "'";
          ++decided;
        }
      }
    }
    EXPECT_GT(decided, lines.size() * lines.size() / 2) << "the images decide most pairs";
  }
}

TEST(LineImage, HumanImageOrdersUnitsThenValues) {
  LineOptions o;
  o.human_numeric = true;
  const LineSpec spec = make_line_spec(o, false, false);
  const std::vector<std::string> ascending = {"-1Q", "-2Y", "-1Y", "-1000K", "-1k", "-999", "-0.5", "0", "-0K",
                                              "abc", "0.5", "1\x80" "2K", "999", "1k", "1.5K", "1000K", "1M",
                                              "1Q", "12345678901234567890123Q"};
  for (size_t i = 0; i + 1 < ascending.size(); ++i) {
    const int order = image_order(spec.image(), ascending[i], ascending[i + 1]);
    EXPECT_LE(order, 0) << ascending[i] << " vs " << ascending[i + 1];
  }
  EXPECT_EQ(image_order(spec.image(), "1k", "1K"), 0);
  EXPECT_EQ(image_order(spec.image(), "0K", "-0"), 0);
  EXPECT_EQ(image_order(spec.image(), "1.5M", "01.50Mi"), 0);
  const LineSpec reversed = make_line_spec(o, true, false);
  EXPECT_EQ(image_order(reversed.image(), "1K", "2"), -1) << "'r' complements the unit too";
}

TEST(LineImage, TextWordsAreBigEndianBytes) {
  const LineSpec spec = make_line_spec(LineOptions{}, false, false);
  const std::string line = "abcdefghij";
  EXPECT_EQ(line_image_word(spec.image(), u(line), line.size(), 0), 0x6162636465666768ull);
  EXPECT_EQ(line_image_word(spec.image(), u(line), line.size(), 1), 0x696a000000000000ull);
  EXPECT_EQ(line_image_word(spec.image(), u(line), line.size(), 2), 0u);
  const LineSpec reversed = make_line_spec(LineOptions{}, true, false);
  EXPECT_EQ(line_image_word(reversed.image(), u(line), line.size(), 2), ~0ull);
}

// Whether `sort -C ARGS` takes first, then second, as in order.
bool gnu_in_order(const std::vector<std::string>& args, char eol, const std::string& first,
                  const std::string& second) {
  std::vector<std::string> argv = {"/usr/bin/sort", "-C"};
  argv.insert(argv.end(), args.begin(), args.end());
  const gsort_test::ProcessResult r =
      gsort_test::run_process(argv, gsort_test::c_locale(first + eol + second + eol));
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.status() << ": " << r.err;
  return r.exit_code == 0;
}

TEST(LineImageAgainstGnuSort, PairsTheImagesOrderAreInThatOrderForSort) {
  Rng rng(53);
  int pairs = 0;
  for (int round = 0; round < 80; ++round) {
    const gsort_test::LineOptionsCase o = gsort_test::comparable_line_options(rng);
    const char eol = o.zero_terminated ? '\0' : '\n';
    const LineImageSpec image = gsort_test::spec_of_args(o.args).image();
    const std::vector<std::string> lines =
        gsort_test::split_lines(gsort_test::comparable_line_input(rng, o, 30), eol);
    if (lines.size() < 2) continue;
    for (int k = 0; k < 6; ++k) {
      const std::string& a = lines[rng.below(lines.size())];
      const std::string& b = lines[rng.below(lines.size())];
      const int by_image = image_order(image, a, b);
      if (by_image == 0) continue;
      const std::string& low = by_image < 0 ? a : b;
      const std::string& high = by_image < 0 ? b : a;
      EXPECT_TRUE(gnu_in_order(o.args, eol, low, high))
          << gsort_test::join_args(o.args) << ": the image puts '" << low << "' before '" << high << "'";
      EXPECT_FALSE(gnu_in_order(o.args, eol, high, low))
          << gsort_test::join_args(o.args) << ": sort calls '" << high << "' then '" << low << "' in order";
      ++pairs;
    }
  }
  EXPECT_GT(pairs, 150) << "most rounds find pairs the image decides";
}

}  // namespace
}  // namespace gsort
