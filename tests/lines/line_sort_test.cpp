// Finding lines in a chunk (src/algo/line_index.h) and sorting a chunk on
// the CPU (src/chunk_sort/lines/sort_cpu.cpp: radix sort of image words, ties refined),
// against the plain reference sort: random tricky data under random
// options, adversarial ties, and chunks large enough for every parallel
// path.
#include <gtest/gtest.h>
#include <locale.h>

#include <cstdlib>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "src/chunk_sort/lines/sorter.h"
#include "src/core/thread_pool.h"
#include "tests/support/line_gen.h"
#include "tests/support/line_reference.h"
#include "tests/support/sanitizers.h"

namespace gsort {
namespace {

using gsort_test::Rng;

TEST(LineIndex, FindsEveryLineOnAllThreads) {
  ThreadPool pool(4);
  Rng rng(7);
  std::string text;
  std::vector<uint64_t> expected{0};
  while (text.size() < (6u << 20)) {
    text += std::string(rng.below(rng.chance(1) ? 300000 : 80), 'x');
    if (rng.chance(5)) text += '\r';
    if (rng.chance(5)) text += std::string(1, '\0');
    text += '\n';
    expected.push_back(text.size());
  }
  std::vector<uint64_t> starts(expected.size() + 1);
  const IndexResult r = index_lines(pool, reinterpret_cast<const uint8_t*>(text.data()), text.size(), '\n',
                                    starts.data(), expected.size());
  ASSERT_EQ(r.lines, expected.size() - 1);
  EXPECT_EQ(r.bytes, text.size());
  starts.resize(expected.size());
  EXPECT_EQ(starts, expected);
  uint64_t longest = 0;
  for (size_t i = 0; i + 1 < expected.size(); ++i) longest = std::max(longest, expected[i + 1] - expected[i]);
  EXPECT_EQ(r.longest, longest);
}

TEST(LineIndex, StopsAtTheLineLimit) {
  ThreadPool pool(3);
  std::string text;
  for (int i = 0; i < 200000; ++i) text += std::to_string(i) + '\0';
  std::vector<uint64_t> starts(1001);
  const IndexResult r = index_lines(pool, reinterpret_cast<const uint8_t*>(text.data()), text.size(), '\0',
                                    starts.data(), 1000);
  EXPECT_EQ(r.lines, 1000u);
  EXPECT_EQ(r.bytes, text.find(std::string("1000") + '\0'));
  EXPECT_EQ(starts[999], text.find(std::string("999") + '\0'));
}

// Against lines found one byte at a time: starts, bytes and the longest
// line over several tasks, also where the chunk takes fewer lines than
// the text holds.
TEST(LineIndex, MatchesLinesFoundByteByByte) {
  std::mt19937_64 rng(5);
  ThreadPool pool(4);
  for (int round = 0; round < 30; ++round) {
    // Lines of 0 to 3 (and, now and then, 5000) bytes over 3 MB: several tasks.
    std::vector<uint8_t> text;
    while (text.size() < 3u << 20) {
      const uint64_t len = rng() % 50 == 0 ? 5000 : rng() % 4;
      for (uint64_t k = 0; k < len; ++k) text.push_back(static_cast<uint8_t>('a' + rng() % 3));
      text.push_back('\n');
    }
    std::vector<uint64_t> expected{0};
    uint64_t longest = 0;
    for (uint64_t i = 0; i < text.size(); ++i) {
      if (text[i] != '\n') continue;
      longest = std::max(longest, i + 1 - expected.back());
      expected.push_back(i + 1);
    }
    const uint64_t lines = expected.size() - 1;
    const uint64_t most = round % 2 == 0 ? lines : lines / 3;  // a chunk that takes fewer lines
    std::vector<uint64_t> starts(lines + 1, ~uint64_t{0});
    const IndexResult r = index_lines(pool, text.data(), text.size(), '\n', starts.data(), most);
    ASSERT_EQ(r.lines, most);
    EXPECT_EQ(r.bytes, expected[most]);
    uint64_t longest_taken = 0;
    for (uint64_t i = 0; i < most; ++i) longest_taken = std::max(longest_taken, expected[i + 1] - expected[i]);
    EXPECT_EQ(r.longest, most == lines ? longest : longest_taken);
    for (uint64_t i = 0; i <= most; ++i) ASSERT_EQ(starts[i], expected[i]) << "line " << i;
  }
}

TEST(LineSortCpu, MatchesTheReferenceUnderRandomOptions) {
  ThreadPool pool(3);
  EXPECT_EQ(gsort_test::random_rounds_against_reference(
                2024, 600, 200, [&](const LineSpec& spec) { return make_cpu_line_sorter(spec, pool); }),
            "");
}

// Ties the image cannot settle, in chunks past every parallel threshold.
TEST(LineSortCpu, AdversarialTies) {
  ThreadPool pool(4);
  Rng rng(5);
  const std::string prefix(300, 'p');
  std::vector<std::vector<std::string>> cases(4);
  // 70000 lines: past the size where a tied segment is refined with all threads.
  for (int i = 0; i < 70000; ++i) cases[0].push_back("same line");
  for (int i = 0; i < 70000; ++i) cases[1].push_back(prefix + std::to_string(rng.below(100000)));
  for (int i = 0; i < 70000; ++i) cases[2].push_back(std::to_string(rng.below(50)));
  cases[2][777] = std::string(1 << 20, 'z');  // one very long line among short ones
  for (int i = 0; i < 70000; ++i) cases[3].push_back(prefix + (rng.chance(50) ? std::string("a") : std::string("a\0", 2)));
  const std::vector<std::vector<std::string>> arg_sets = {{}, {"-r"}, {"-s", "-k1,1.5"}, {"-u", "-n"}};
  EXPECT_EQ(gsort_test::differences_from_reference(
                cases, arg_sets, [&](const LineSpec& spec) { return make_cpu_line_sorter(spec, pool); }),
            "");
}

// Integer parts longer than the image's digit count (kImageCountCap, 16M
// digits): their images hold no digits, so the comparison settles them.
TEST(LineSortCpu, NumbersTooLongForTheImage) {
  ThreadPool pool(2);
  const std::string many(17u << 20, '5');
  std::vector<std::vector<std::string>> cases = {
      {"9" + many, "1" + many, "-1" + many, "7", "1" + many + ".5", "-2" + many, "1" + many}};
  EXPECT_EQ(gsort_test::differences_from_reference(cases, {{"-n", "-r"}, {"-k1,1n", "-s"}},
                                                   [&](const LineSpec& spec) { return make_cpu_line_sorter(spec, pool); }),
            "");
}

// Numbers with more digits than an image holds exactly (64), thousands
// separators among them in en_US.UTF-8, tied in their images' words: the
// comparison settles them, never the images' zero padding (which put
// 999..9,9 before 10^64 until 2026-12-05).
TEST(LineSortCpu, LongNumbersWithSeparatorsInALocale) {
  locale_t en = newlocale(LC_ALL_MASK, "en_US.UTF-8", static_cast<locale_t>(0));
  if (en == static_cast<locale_t>(0)) GTEST_SKIP() << "en_US.UTF-8 is not installed";
  freelocale(en);
  ThreadPool pool(4);
  Rng rng(53);
  const std::string nines(60, '9');
  std::vector<std::vector<std::string>> cases(1);
  for (int i = 0; i < 70000; ++i) {
    std::string n = nines + std::to_string(rng.below(100000));
    if (rng.chance(50)) n.insert(n.size() - 3, ",");
    if (rng.chance(10)) n = "1" + std::string(n.size() - (n.find(',') == std::string::npos ? 1 : 2), '0');
    cases[0].push_back(n + " " + std::to_string(i % 7));
  }
  const char* given = std::getenv("LC_ALL");
  const std::string before = given != nullptr ? given : "";
  ::setenv("LC_ALL", "en_US.UTF-8", 1);  // the command line's locale (spec_of_args)
  const std::string differences = gsort_test::differences_from_reference(
      cases, {{"-n"}, {"-h", "-r"}, {"-k1,1n", "-k2,2n"}},
      [&](const LineSpec& spec) { return make_cpu_line_sorter(spec, pool); });
  if (given != nullptr) ::setenv("LC_ALL", before.c_str(), 1); else ::unsetenv("LC_ALL");
  EXPECT_EQ(differences, "");
}

// Segments the comparison settles (-V has no image; numbers and -d keys
// tied past their first words), large enough to be sorted in pieces on
// all threads and merged.
TEST(LineSortCpu, OrderedByTheComparisonOnAllThreads) {
  ThreadPool pool(4);
  Rng rng(77);
  std::vector<std::vector<std::string>> cases(3);
  const std::string digits(60, '7'), dashes = "a-b.c-d.e-f.g-h.i-j.k-l.m-n.o-p.q-r.s-t.u-v.w-x.y-z";
  for (int i = 0; i < 70000; ++i) {
    cases[0].push_back("pkg-1." + std::to_string(rng.below(300)) + "." + std::to_string(rng.below(20)) + "~rc");
    cases[1].push_back(digits + std::to_string(rng.below(5000)) + " " + std::to_string(i % 3));
    cases[2].push_back(dashes + std::to_string(rng.below(5000)));
  }
  const std::vector<std::vector<std::string>> arg_sets = {{"-V"}, {"-Vr", "-s"}, {"-n"}, {"-k1,1n", "-k2,2r", "-u"},
                                                          {"-d"}, {"-df", "-r"}};
  for (size_t c = 0; c < cases.size(); ++c) {
    // Under the sanitizers each case meets the two key sets made for it (case c: sets 2c and 2c + 1).
    std::vector<std::vector<std::string>> keys;
    for (size_t a = 0; a < arg_sets.size(); ++a) {
      if (gsort_test::kSanitizerShare == 1 || a / 2 == c) keys.push_back(arg_sets[a]);
    }
    EXPECT_EQ(gsort_test::differences_from_reference(
                  {cases[c]}, keys, [&](const LineSpec& spec) { return make_cpu_line_sorter(spec, pool); }),
              "")
        << "case " << c;
  }
}

TEST(LineSortCpu, LargeRandomChunkOnOneAndManyThreads) {
  Rng rng(99);
  gsort_test::LineOptionsCase o;
  std::vector<std::string> lines;
  for (int i = 0; i < 300000; ++i) lines.push_back(gsort_test::random_line_field(rng, false) + " " + std::to_string(i % 1000));
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{}, {"-k2,2n", "-k1,1"}, {"-f", "-r"}, {"-k1.2,1.4", "-s"}}) {
    const LineSpec spec = gsort_test::spec_of_args(args);
    const std::vector<uint32_t> expected = gsort_test::reference_order(spec, lines);
    for (unsigned threads : {1u, 4u}) {
      ThreadPool pool(threads);
      ASSERT_EQ(gsort_test::order_by(*make_cpu_line_sorter(spec, pool), spec, lines), expected) << gsort_test::join_args(args) << ", " << threads << " threads";
    }
  }
}

// -t, -k2,2 -k1,1n over a column of a few words: the words take a few of
// the 96 bits sorted first (composite_pass.h), and the next key's number
// the rest, so that distinct numbers of up to 7 digits, of either sign,
// and of 13 digits, leave no line to refine.
TEST(LineSortCpu, AFirstKeyOfFewWordsLeavesTheBitsToTheNext) {
  Rng rng(31);
  const LineSpec spec = gsort_test::spec_of_args({"-t,", "-k2,2", "-k1,1n"});
  for (const bool long_numbers : {false, true}) {
    std::vector<std::string> lines;
    for (uint64_t i = 0; i < 200000; ++i) {
      const std::string word = std::vector<std::string>{"alpha", "beta", "gamma"}[rng.below(3)];
      // Distinct: 1 to 7 digits, either sign (the image's sign and
      // exponent vary too), or 13 digits.
      const uint64_t number = long_numbers ? 1000000000000 + i * 37 : i * 2654435761 % 10000000 + 1;
      lines.push_back((i % 2 != 0 || long_numbers ? "" : "-") + std::to_string(number) + "," + word);
    }
    const std::vector<uint32_t> expected = gsort_test::reference_order(spec, lines);
    ThreadPool pool(4);
    std::unique_ptr<LineSorter> sorter = make_cpu_line_sorter(spec, pool);
    ASSERT_EQ(gsort_test::order_by(*sorter, spec, lines), expected) << long_numbers;
    EXPECT_NE(sorter->steps().find(" 0 lines in 0 segments"), std::string::npos) << long_numbers << sorter->steps();
  }
}

// The first pass packs the varying bits of the image's words 0, 1 and 2
// into the 96 bits sorted first (first_pass.h): keys of few varying bits a
// byte that tie past 12 bytes, short keys the packed bits settle whole,
// trailing NULs the padding hides, keys of bytes varying in every bit, and
// a common prefix longer than the three words.
TEST(LineSortCpu, PackedBitsOfTheFirstWords) {
  ThreadPool pool(4);
  Rng rng(31);
  std::vector<std::vector<std::string>> cases(5);
  for (int i = 0; i < 20000; ++i) {
    cases[0].push_back(std::to_string(100 + rng.below(900)) + ",O'Brien," + std::to_string(rng.below(90000)) + ",x");
    std::string digits;
    for (uint64_t k = rng.below(25); k > 0; --k) digits += static_cast<char>('0' + rng.below(4));
    cases[1].push_back(digits);
    std::string bytes;
    for (uint64_t k = rng.below(30); k > 0; --k) {
      const uint64_t c = rng.below(256);
      bytes += static_cast<char>(c == '\n' ? 11 : c);
    }
    cases[2].push_back(bytes);
    cases[3].push_back(std::string("ab") + (rng.chance(2) ? std::string("\0", 1) : "") + (rng.chance(3) ? "c" : ""));
    cases[4].push_back(std::string(30, 'q') + std::to_string(rng.below(1000)));
  }
  const std::vector<std::vector<std::string>> arg_sets = {{}, {"-r"}, {"-u"}, {"-f"}, {"-k1,1"}, {"-s", "-k1.3"}};
  EXPECT_EQ(gsort_test::differences_from_reference(
                cases, arg_sets, [&](const LineSpec& spec) { return make_cpu_line_sorter(spec, pool); }),
            "");
  // Lines of at most 24 bytes whose varying bits all fit the 96: settled
  // by the radix sort alone, none left to refine.
  const LineSpec spec = gsort_test::spec_of_args({});
  std::unique_ptr<LineSorter> sorter = make_cpu_line_sorter(spec, pool);
  ASSERT_EQ(gsort_test::order_by(*sorter, spec, cases[0]), gsort_test::reference_order(spec, cases[0]));
  EXPECT_NE(sorter->steps().find(" 0 lines in 0 segments"), std::string::npos) << sorter->steps();
}

}  // namespace
}  // namespace gsort
