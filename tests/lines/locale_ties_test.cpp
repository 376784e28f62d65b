// Ties refined under a locale's collation on several threads: lines whose
// collation heads tie (a long common prefix) are sorted by their heads in
// tasks on the pool's threads, each filling the calling thread's words;
// a task that filled its own thread's instead crashed (2026-12-04). The
// order is the reference comparison's.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "src/chunk_sort/lines/sorter.h"
#include "src/config/line_locale.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_spec.h"
#include "tests/support/line_reference.h"
#include "tests/support/rng.h"

namespace gsort_test {
namespace {

TEST(LocaleTies, LongCollatedTiesAreRefinedOnEveryThread) {
  if (!locale_installed("en_US.UTF-8")) GTEST_SKIP() << "en_US.UTF-8 is not installed (apt-get install locales-all)";
  gsort::LineOptions o;
  o.locale = gsort::line_locale_named("en_US.UTF-8");
  const gsort::LineSpec spec = gsort::make_line_spec(o, false, false);
  Rng rng(6);
  const std::string prefix(200, 'p');  // every head ties: one segment past kLargeSegment (tie_refine.cpp)
  std::vector<std::string> lines;
  for (int i = 0; i < 70000; ++i) lines.push_back(prefix + std::to_string(rng.below(1000000)));
  gsort::ThreadPool pool(4);
  const std::unique_ptr<gsort::LineSorter> sorter = gsort::make_cpu_line_sorter(spec, pool);
  EXPECT_EQ(order_by(*sorter, spec, lines), reference_order(spec, lines));
}

// Whole lines whose heads share their first word (a date's first digits)
// and differ in words 1 and 2: the first pass keeps those words for its
// pack in spare, not in the cache, where no key follows (a collated line;
// a folded one under -s), and the order is the comparison's.
TEST(LocaleTies, WholeLinesOrderedByTheirHeadsLaterWords) {
  if (!locale_installed("en_US.UTF-8")) GTEST_SKIP() << "en_US.UTF-8 is not installed (apt-get install locales-all)";
  Rng rng(8);
  std::vector<std::string> lines;
  for (int i = 0; i < 60000; ++i) {
    lines.push_back("2024-03-2" + std::to_string(rng.below(10)) + " " + std::to_string(rng.below(100000)) +
                    (rng.chance(50) ? " Ab" : " aB") + std::to_string(rng.below(10)));
  }
  gsort::ThreadPool pool(4);
  for (const bool in_c : {false, true}) {
    gsort::LineOptions o;  // collated whole lines; in C, folded ones under -s
    if (in_c) {
      o.fold = o.stable = true;
    } else {
      o.locale = gsort::line_locale_named("en_US.UTF-8");
    }
    const gsort::LineSpec spec = gsort::make_line_spec(o, false, false);
    const std::unique_ptr<gsort::LineSorter> sorter = gsort::make_cpu_line_sorter(spec, pool);
    EXPECT_EQ(order_by(*sorter, spec, lines), reference_order(spec, lines)) << (in_c ? "C, -f -s" : "en_US.UTF-8");
  }
}

// Numbers as text in en_US.UTF-8: "123" and "-123" share a first level,
// so every copy of both ties in one segment whose heads the first pass's
// words held whole (TieRefiner::heads_known_equal); the collation then
// orders the two keys, and the last resort each key's lines.
TEST(LocaleTies, ShortHeadsHeldWholeAreNotReadAgain) {
  if (!locale_installed("en_US.UTF-8")) GTEST_SKIP() << "en_US.UTF-8 is not installed (apt-get install locales-all)";
  Rng rng(10);
  std::vector<std::string> lines;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t v = rng.below(3000);
    lines.push_back(std::to_string(rng.below(1000000)) + "," + (rng.chance(50) ? "-" : "") + std::to_string(v) + "," +
                    std::to_string(rng.below(100)));
  }
  gsort::ThreadPool pool(4);
  for (const std::vector<std::string>& keys :
       std::vector<std::vector<std::string>>{{"2,2"}, {"2,2r"}, {"2,2", "1,1"}}) {
    gsort::LineOptions o;
    o.locale = gsort::line_locale_named("en_US.UTF-8");
    o.separator = ',';
    o.keys = keys;
    const gsort::LineSpec spec = gsort::make_line_spec(o, false, false);
    const std::unique_ptr<gsort::LineSorter> sorter = gsort::make_cpu_line_sorter(spec, pool);
    EXPECT_EQ(order_by(*sorter, spec, lines), reference_order(spec, lines)) << "-k" << keys.front();
  }
}

}  // namespace
}  // namespace gsort_test
