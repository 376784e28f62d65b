// A collated key ranked in the composite image (src/chunk_sort/lines/
// collated_ranks.h): over more distinct words than the first sample sees,
// which a wider sample finds, so every line fits the first plan (none made
// again from every line); and before a last resort whose heads the plan
// leaves out (tests/gpu/gpu_locale_fill_test.cpp: also once a name the
// sample missed widens the plan). The order is the reference comparison's.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "src/chunk_sort/lines/sorter.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_spec.h"
#include "tests/support/line_gen.h"
#include "tests/support/line_reference.h"
#include "tests/support/rng.h"

namespace gsort_test {
namespace {

// 600,000 lines over 20,000 accented words: the first sample (every 9th
// line) misses some 700 of them, whose lines made the plan again.
TEST(LocaleComposite, WordsTheFirstSampleMissesAreSeenByAWiderOne) {
  if (!locale_installed("en_US.UTF-8")) GTEST_SKIP() << "en_US.UTF-8 is not installed (apt-get install locales-all)";
  const std::vector<std::string> letters = {"a", "b", "c", "d", "e", "l", "o", "r", "s", "t",
                                            "\xC3\xA9", "\xC3\xA5", "\xC3\xB6", "E", "'", "-"};
  Rng rng(21);
  std::vector<std::string> words;
  for (int w = 0; w < 20000; ++w) {
    std::string word;
    for (uint64_t c = 0, n = 3 + rng.below(8); c < n; ++c) word += letters[rng.below(letters.size())];
    words.push_back(word);
  }
  std::vector<std::string> lines;
  for (int i = 0; i < 600000; ++i) {
    lines.push_back(std::to_string(rng.below(1000000000)) + "," + words[rng.below(words.size())] + "," +
                    std::to_string(rng.below(100000)));
  }
  gsort::ThreadPool pool(4);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-t,", "-k2,2"}, {"-t,", "-k2,2r", "-k3,3n", "-s"}}) {
    const gsort::LineSpec spec = spec_in_locale("en_US.UTF-8", args);
    const std::unique_ptr<gsort::LineSorter> sorter = gsort::make_cpu_line_sorter(spec, pool);
    ASSERT_EQ(order_by(*sorter, spec, lines), reference_order(spec, lines)) << join_args(args);
    EXPECT_NE(sorter->steps().find("composite images in 1 of 1 chunks, 0 planned again"), std::string::npos)
        << sorter->steps();
  }
}

// A name ranked, then a number, then the whole line collated (the last
// resort): few lines share a name and a number, so the plan leaves the
// lines' heads out, and those few (pairs whose other fields differ by
// accents, case and punctuation) are ordered by the refiner from the last
// resort, as the comparison orders them.
TEST(LocaleComposite, TheLastResortsHeadsLeftOutWhereFewLinesTie) {
  if (!locale_installed("en_US.UTF-8")) GTEST_SKIP() << "en_US.UTF-8 is not installed (apt-get install locales-all)";
  const std::vector<std::string> names = {"Smith", "O'Brien", "lee", "Van Dyke", "Smith-Jones", "\xC3\x89lise"};
  const std::vector<std::string> tails = {"caf\xC3\xA9", "cafe", "Cafe", "ca-fe", "c\xC3\xA0" "fe", "CAFE"};
  Rng rng(23);
  std::vector<std::string> lines;
  for (int i = 0; i < 300000; ++i) {
    const std::string key = std::to_string(rng.below(1000000000)) + "," + names[rng.below(names.size())] + ",";
    lines.push_back(key + tails[rng.below(tails.size())]);
    if (rng.chance(2)) lines.push_back(key + tails[rng.below(tails.size())]);  // the same name and number
  }
  gsort::ThreadPool pool(4);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-t,", "-k2,2", "-k1,1n"}, {"-t,", "-k2,2", "-k1,1n", "-r"}}) {
    const gsort::LineSpec spec = spec_in_locale("en_US.UTF-8", args);
    const std::unique_ptr<gsort::LineSorter> sorter = gsort::make_cpu_line_sorter(spec, pool);
    ASSERT_EQ(order_by(*sorter, spec, lines), reference_order(spec, lines)) << join_args(args);
    EXPECT_NE(sorter->steps().find("composite images in 1 of 1 chunks"), std::string::npos) << sorter->steps();
  }
}

}  // namespace
}  // namespace gsort_test
