// The image of a line's keys against GNU sort itself (LC_ALL=C, a child
// process): for random options and random lines, every pair whose images
// differ is in order for `sort -C` when written in the images' order, and
// out of order when written the other way. line_image_test.cpp holds the
// image against gsort's own comparison on many more pairs; this ties the
// image to sort's rules directly, one process a pair.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "src/keys/line_image.h"
#include "src/lines/keys/compare.h"
#include "tests/lines/gnu_diff.h"
#include "tests/support/line_gen.h"
#include "tests/support/line_reference.h"
#include "tests/support/process.h"

namespace gsort {
namespace {

using gsort_test::Rng;

const uint8_t* u(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// -1, 0, 1: the images' order, word by word until both are spent.
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
