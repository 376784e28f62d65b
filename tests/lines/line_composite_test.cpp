// Keys compiled into one image per line (src/chunk_sort/lines/composite_pass.h):
// the order is the comparison's for every kind of key level (words of a
// few values ranked, numbers, months, general numbers, folded and kept
// bytes, per-key -r, keys ending in NUL, numbers past the image), in chunks
// large enough to be planned from a sample, and where lines the sample
// did not see (a rare word, a longer number, a rare sign, a count that
// does not mirror the sign) widen the plan,
// or, being many, make it again from every line. -v's steps tell that the composite was
// taken, that it left no ties to refine where the keys tell every line
// apart, and that its plan is a part of the first pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "src/algo/bit_squeeze.h"
#include "src/chunk_sort/lines/sorter.h"
#include "src/core/thread_pool.h"
#include "tests/support/line_gen.h"
#include "tests/support/line_reference.h"
#include "tests/support/sanitizers.h"

namespace gsort {
namespace {

using gsort_test::Rng;

const std::vector<std::string> kNames = {"Smith", "O'Brien", "lee",   "Van Dyke", "Smith-Jones", "Garcia",
                                         "Miller", "davis",  "Lopez", "Wilson",   "Anderson",    "Thomas"};
const std::vector<std::string> kMonths = {"JAN", "feb", " mar", "Apr", "xyz", "DEC", ""};

// n CSV lines: a number, a name of a few, a month, a general number, a word.
std::vector<std::string> csv_lines(Rng& rng, uint64_t n) {
  std::vector<std::string> lines;
  for (uint64_t i = 0; i < n; ++i) {
    const std::string number = (rng.chance(3) ? "-" : "") + std::to_string(rng.below(1000000)) +
                               (rng.chance(4) ? "." + std::to_string(rng.below(1000)) : "");
    lines.push_back(number + "," + kNames[rng.below(kNames.size())] + "," + kMonths[rng.below(kMonths.size())] + "," +
                    std::to_string(rng.below(100)) + "e" + std::to_string(rng.below(5)) + "," +
                    std::string(rng.below(4), static_cast<char>('a' + rng.below(3))));
  }
  return lines;
}

std::unique_ptr<LineSorter> cpu_sorter(const LineSpec& spec, ThreadPool& pool) {
  return make_cpu_line_sorter(spec, pool);
}

TEST(LineComposite, EveryKindOfLevelOrdersAsTheComparison) {
  Rng rng(53);
  std::vector<std::vector<std::string>> cases = {csv_lines(rng, 100000), csv_lines(rng, 3000)};
  const std::vector<std::vector<std::string>> arg_sets = {
      {"-t,", "-k2,2", "-k1,1n"},        {"-t,", "-k2,2r", "-k1,1nr", "-s"}, {"-t,", "-k3,3M", "-k2,2f", "-k1,1n"},
      {"-t,", "-k4,4g", "-k2,2", "-u"},  {"-t,", "-k2,2d", "-k5,5", "-k1,1h"}, {"-t,", "-k2,2i", "-k1,1n", "-r"},
      {"-t,", "-k5,5", "-k2,2", "-k3,3M", "-k1,1n", "-k4,4g"}, {"-t,", "-k2,2", "-k1,1V"}, {"-t,", "-k1,1n", "-k2,2"}};
  ThreadPool pool(4);
  EXPECT_EQ(gsort_test::differences_from_reference(cases, arg_sets,
                                                   [&](const LineSpec& spec) { return cpu_sorter(spec, pool); }),
            "");
}

// Lines past the sample's: one rare name, a number longer than any before,
// one negative number, a key ending in NUL, a number past the image's
// digit count. Each in its own chunk, so that each widens the plan (a key
// ending in NUL then leaves the first key's image inexact: no composite).
TEST(LineComposite, ALineTheSampleMissedWidensThePlan) {
  const std::vector<std::string> rare = {"1,Zz-rare", "123456789012345,Smith", "-5,lee",
                                         std::string("7,Smith\0", 8), "1" + std::string(40, '0') + ",lee"};
  ThreadPool pool(3);
  const std::vector<std::vector<std::string>> arg_sets = {{"-t,", "-k2,2", "-k1,1n"}, {"-t,", "-k2,2r", "-k1,1n", "-u"}};
  for (size_t r = 0; r < rare.size(); ++r) {
    Rng rng(100 + r);
    std::vector<std::string> lines;
    for (int i = 0; i < 200000; ++i) {
      lines.push_back(std::to_string(rng.below(100000)) + "," + kNames[rng.below(4)]);
    }
    lines[123457] = rare[r];
    lines.push_back(rare[r]);
    for (size_t a = 0; a < arg_sets.size(); ++a) {
      if (!gsort_test::crossed_in_this_build(r, a, arg_sets.size())) continue;  // sanitizers: one key set each
      const std::vector<std::string>& args = arg_sets[a];
      const LineSpec spec = gsort_test::spec_of_args(args);
      std::unique_ptr<LineSorter> sorter = cpu_sorter(spec, pool);
      EXPECT_EQ(gsort_test::order_by(*sorter, spec, lines), gsort_test::reference_order(spec, lines))
          << "rare line " << r << ", " << gsort_test::join_args(args);
      EXPECT_NE(sorter->steps().find(" 1 planned again"), std::string::npos)
          << "rare line " << r << ": " << sorter->steps();
    }
  }
}

// Most lines unlike the sample's (every line it skips holds another name
// and a longer number): too many to add to its figures, so the plan is
// made from every line.
TEST(LineComposite, ManyLinesTheSampleMissedPlanFromEveryLine) {
  Rng rng(9);
  std::vector<std::string> lines;
  const uint64_t n = 300000, step = n / 65536;  // composite_pass.cpp's sample: every step-th line
  for (uint64_t i = 0; i < n; ++i) {
    lines.push_back(i % step == 0 ? std::to_string(rng.below(1000)) + ",lee"
                                  : std::to_string(rng.below(1000000000)) + "," + kNames[rng.below(12)]);
  }
  ThreadPool pool(3);
  const LineSpec spec = gsort_test::spec_of_args({"-t,", "-k2,2", "-k1,1n"});
  std::unique_ptr<LineSorter> sorter = cpu_sorter(spec, pool);
  EXPECT_EQ(gsort_test::order_by(*sorter, spec, lines), gsort_test::reference_order(spec, lines));
  EXPECT_NE(sorter->steps().find("composite images in 1 of 1 chunks, 1 planned again"), std::string::npos)
      << sorter->steps();
}

// A few names, then distinct numbers: one image tells every line apart,
// so that nothing is refined; the same with the names' order reversed.
TEST(LineComposite, AFewNamesThenANumberLeaveNoTies) {
  Rng rng(7);
  std::vector<std::string> lines;
  for (uint64_t i = 0; i < 150000; ++i) {
    lines.push_back(std::to_string(i * 2654435761 % 1000000007) + ",customer/account/" + kNames[rng.below(12)]);
  }
  ThreadPool pool(4);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-t,", "-k2,2", "-k1,1n"}, {"-t,", "-k2,2r", "-k1,1n", "-s"}}) {
    const LineSpec spec = gsort_test::spec_of_args(args);
    std::unique_ptr<LineSorter> sorter = cpu_sorter(spec, pool);
    ASSERT_EQ(gsort_test::order_by(*sorter, spec, lines), gsort_test::reference_order(spec, lines))
        << gsort_test::join_args(args);
    EXPECT_NE(sorter->steps().find("composite images in 1 of 1 chunks, 0 planned again"), std::string::npos) << sorter->steps();
    EXPECT_NE(sorter->steps().find(" 0 lines in 0 segments"), std::string::npos) << sorter->steps();
    // The plan is a part of the first pass.
    double first = -1, planned = -1;
    ASSERT_EQ(std::sscanf(sorter->steps().c_str(), "first pass %lf s (planned in %lf s;", &first, &planned), 2)
        << sorter->steps();
    EXPECT_GE(planned, 0);
    EXPECT_LE(planned, first);
  }
}

// The lines left to the refiner, as -v's steps count them.
uint64_t refined_lines(const std::string& steps) {
  const size_t at = steps.rfind(" lines in ");
  if (at == std::string::npos) return ~uint64_t{0};
  return std::stoull(steps.substr(steps.rfind(' ', at - 1) + 1));
}

// `count` words of lower-case letters, `shortest` to `longest` of them.
std::vector<std::string> random_words(Rng& rng, int count, uint64_t shortest, uint64_t longest) {
  std::vector<std::string> words;
  for (int w = 0; w < count; ++w) {
    std::string word;
    for (uint64_t c = 0, n = shortest + rng.below(longest - shortest + 1); c < n; ++c) {
      word += static_cast<char>('a' + rng.below(26));
    }
    words.push_back(word);
  }
  return words;
}

// Sorted by each argument set as the reference sorts them, in one
// composite planned once, with fewer than 30 lines left to the refiner.
void expect_planned_once_with_few_ties(ThreadPool& pool, const std::vector<std::string>& lines,
                                       const std::vector<std::vector<std::string>>& arg_sets) {
  for (const std::vector<std::string>& args : arg_sets) {
    const LineSpec spec = gsort_test::spec_of_args(args);
    std::unique_ptr<LineSorter> sorter = cpu_sorter(spec, pool);
    ASSERT_EQ(gsort_test::order_by(*sorter, spec, lines), gsort_test::reference_order(spec, lines))
        << gsort_test::join_args(args);
    EXPECT_NE(sorter->steps().find("composite images in 1 of 1 chunks, 0 planned again"), std::string::npos) << sorter->steps();
    EXPECT_LT(refined_lines(sorter->steps()), 30u) << sorter->steps();
  }
}

// Words of ten lower-case letters, too many to rank (more than
// kManySlotsMost among the lines), then distinct numbers: taken as they
// are, the words' 80 bits left the numbers 16, and a word's lines whose
// numbers share a first digit or two tied; squeezed to their varying bits
// (7 a letter, seed_text_levels) the words leave the numbers 26, and a
// hundredth of a percent of the lines tie.
// A word with a byte past ASCII, and a longer one, which the first
// sample skips, are seen by the wider one that so many distinct words call
// for (composite_pass.cpp's keys_unseen): the plan takes them in from the
// start, and they order as the comparison does.
TEST(LineComposite, TextSqueezedToItsVaryingBitsLeavesRoomForTheNextKey) {
  Rng rng(11);
  const std::vector<std::string> words = random_words(rng, 100000, 10, 10);
  std::vector<std::string> lines;
  for (uint64_t i = 0; i < 150000; ++i) {
    lines.push_back(words[rng.below(words.size())] + "," + std::to_string(i * 2654435761 % 999999937));
  }
  ThreadPool pool(4);
  expect_planned_once_with_few_ties(pool, lines, {{"-t,", "-k1,1", "-k2,2n"}, {"-t,", "-k1,1r", "-k2,2n", "-s"}});
  lines[77777] = "abcdefgh\xE9j,5";
  lines[88888] = words[3] + "zz,7";
  const LineSpec spec = gsort_test::spec_of_args({"-t,", "-k1,1", "-k2,2n"});
  std::unique_ptr<LineSorter> sorter = cpu_sorter(spec, pool);
  EXPECT_EQ(gsort_test::order_by(*sorter, spec, lines), gsort_test::reference_order(spec, lines));
  EXPECT_NE(sorter->steps().find("0 planned again"), std::string::npos) << sorter->steps();
}

// Twenty thousand words of 14 to 20 letters, then numbers: squeezed, the
// words take the 96 bits, and every word's lines tie and go to the
// refiner; ranked (15 bits, composite_pass.cpp's compose_best) they leave
// the numbers room, and hardly a line ties; reversed, and under -s.
TEST(LineComposite, ManyWordsAreRankedWhereTheirBytesLeaveTheNextKeyNoRoom) {
  Rng rng(29);
  const std::vector<std::string> words = random_words(rng, 20000, 14, 20);
  std::vector<std::string> lines;
  for (uint64_t i = 0; i < 200000; ++i) {
    lines.push_back(std::to_string(i * 2654435761 % 999999937) + "," + words[rng.below(words.size())]);
  }
  ThreadPool pool(4);
  expect_planned_once_with_few_ties(pool, lines, {{"-t,", "-k2,2", "-k1,1n"}, {"-t,", "-k2,2r", "-k1,1n", "-s"}});
}

// The one-instruction gather of a squeeze's bits (where the processor has
// a fast one) gives what gathering its runs gives, for masks of every
// shape: seven bits a byte, single runs, scattered bits, fewer than all.
TEST(LineComposite, BitSqueezeGathersWhatItsRunsGather) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> masks = {0x7F7F7F7F7F7F7F7Full, 0x1F1F1F1F1F1F1F1Full, 0x7F7F000000000000ull,
                                 0x00FFFFFF00000000ull, ~uint64_t{0}, 1, uint64_t{1} << 63};
  for (int i = 0; i < 200; ++i) masks.push_back(rng() & rng());
  for (const uint64_t mask : masks) {
    for (const int most : {64, 40, 13, 1}) {
      const BitSqueeze squeeze(mask, most);
      for (int k = 0; k < 50; ++k) {
        const uint64_t w = rng();
        ASSERT_EQ(squeeze(w), squeeze.by_runs(w)) << std::hex << mask << " " << most << " " << w;
      }
    }
  }
}

// Where many lines tie under the composite, the fill keeps every line's
// tie words (tie_refine.h's CachedWords) and the refiner reads them there:
// 16 names and 100 numbers, the last resort deciding among ~190 lines a
// key; lines in pairs of equal keys, 300,000 of them so that the sample
// (every fourth line) sees a sixteenth of the pairs; a long common prefix
// after the keys, so that refinement goes past the kept words. Keys that
// tell every line apart keep nothing.
TEST(LineComposite, ManyTiedLinesKeepTheirTieWords) {
  Rng rng(54);
  std::vector<std::string> dups, pairs, distinct;
  for (uint64_t i = 0; i < 300000; ++i) {
    const std::string name = kNames[rng.below(kNames.size())];
    dups.push_back(std::to_string(rng.below(100)) + "," + name + "," + std::to_string(rng.below(100000)) + "," +
                   std::string(rng.below(30), 'x'));
    distinct.push_back(std::to_string(i * 2654435761 % 1000000007) + "," + name);
  }
  for (uint64_t i = 0; i < 150000; ++i) {
    const std::string key = std::to_string(i * 2654435761 % 1000000007) + "," + kNames[rng.below(kNames.size())];
    pairs.push_back(key + ",customer/account/region/" + std::to_string(rng.below(1000)));
    pairs.push_back(key + ",customer/account/region/" + std::to_string(rng.below(1000)));
  }
  std::shuffle(pairs.begin(), pairs.end(), std::mt19937_64(5));
  ThreadPool pool(4);
  const std::vector<std::vector<std::string>> arg_sets = {
      {"-t,", "-k2,2", "-k1,1n"}, {"-t,", "-k2,2r", "-k1,1n"}, {"-t,", "-k2,2", "-k1,1n", "-r"}, {"-t,", "-k2,2f", "-k1,1n", "-s"}};
  const std::vector<const std::vector<std::string>*> line_sets = {&dups, &pairs, &distinct};
  for (size_t a = 0; a < arg_sets.size(); ++a) {
    const std::vector<std::string>& args = arg_sets[a];
    for (size_t l = 0; l < line_sets.size(); ++l) {
      // Under the sanitizers each key set sorts one of the line sets, in turn (-s the duplicates).
      if (!gsort_test::crossed_in_this_build(a, l, line_sets.size())) continue;
      const std::vector<std::string>* lines = line_sets[l];
      const LineSpec spec = gsort_test::spec_of_args(args);
      std::unique_ptr<LineSorter> sorter = cpu_sorter(spec, pool);
      ASSERT_EQ(gsort_test::order_by(*sorter, spec, *lines), gsort_test::reference_order(spec, *lines))
          << gsort_test::join_args(args);
      const bool tied = lines != &distinct && args.back() != "-s";
      EXPECT_NE(sorter->steps().find(tied ? "tie words kept in 1)" : "tie words kept in 0)"), std::string::npos)
          << gsort_test::join_args(args) << ": " << sorter->steps();
    }
  }
}

// A number image's count bytes mirror its sign, where the counts seen
// leave them alike, and are then not taken: an 8-digit number among
// numbers of up to 7 (its image no longer, its count's bit 3 set) and
// numbers of 70,000 digits, which the sample did not see, break the
// mirror and widen the plan, and order as the comparison does, -r too.
TEST(LineComposite, CountBitsThatMirrorTheSignAreCheckedInEveryLine) {
  // Lines 70001 and 140002: not in the sample (every third line). Each
  // pair in a chunk of its own.
  const std::vector<std::vector<std::string>> rare = {
      {"12345678,lee", "-87654321,lee"},
      {"9" + std::string(70000, '1') + ",lee", "-8" + std::string(70000, '2') + ",lee"}};
  ThreadPool pool(4);
  for (size_t r = 0; r < rare.size(); ++r) {
    Rng rng(65);
    std::vector<std::string> lines;
    for (int i = 0; i < 200000; ++i) {
      lines.push_back((rng.chance(2) ? "-" : "") + std::to_string(rng.below(10000000)) + "," + kNames[rng.below(12)]);
    }
    lines[70001] = rare[r][0];
    lines[140002] = rare[r][1];
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"-t,", "-k1,1n", "-k2,2"}, {"-t,", "-k1,1nr", "-k2,2"}}) {
      const LineSpec spec = gsort_test::spec_of_args(args);
      std::unique_ptr<LineSorter> sorter = cpu_sorter(spec, pool);
      EXPECT_EQ(gsort_test::order_by(*sorter, spec, lines), gsort_test::reference_order(spec, lines))
          << "pair " << r << ", " << gsort_test::join_args(args);
      EXPECT_NE(sorter->steps().find(" 1 planned again"), std::string::npos) << sorter->steps();
    }
  }
}

}  // namespace
}  // namespace gsort
