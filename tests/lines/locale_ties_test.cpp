// Ties refined under a locale's collation on several threads: lines whose
// collation heads tie (a long common prefix) are sorted by their heads in
// tasks on the pool's threads, each filling the calling thread's words;
// a task that filled its own thread's instead crashed (2026-12-04). The
// order is the reference comparison's.
#include <gtest/gtest.h>

#include <locale.h>

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
  locale_t l = newlocale(LC_ALL_MASK, "en_US.UTF-8", static_cast<locale_t>(0));
  if (l == static_cast<locale_t>(0)) GTEST_SKIP() << "en_US.UTF-8 is not installed (apt-get install locales-all)";
  freelocale(l);
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

}  // namespace
}  // namespace gsort_test
