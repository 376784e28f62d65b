// The differential test against GNU sort (LC_ALL=C sort, coreutils): random
// combinations of keys (fields, characters, b f n h r on either position),
// -t, -n -h -r -u -s -f -b -z, over random tricky inputs, sorted and merged
// (-m); every output must be byte-identical. In CI (CPU backend); tests/gpu/gpu_lines_test.cpp runs it
// with --backend gpu.
#include <gtest/gtest.h>

#include <unistd.h>

#include "tests/lines/gnu_diff.h"
#include "tests/support/sanitizers.h"

namespace gsort_test {
namespace {

bool have_gnu_sort() { return ::access("/usr/bin/sort", X_OK) == 0; }

TEST(GnuDifferential, ThousandsOfRandomOptionCombinations) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no /usr/bin/sort";
  const DiffOutcome d = run_gnu_differential(31, 2500 / kSanitizerShare, 120, {"--backend", "cpu"});
  EXPECT_TRUE(d.same) << d.what;
}

TEST(GnuDifferential, LargerInputs) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no /usr/bin/sort";
  const DiffOutcome d = run_gnu_differential(1031, 60, 5000, {"--backend", "cpu", "--parallel", "4"});
  EXPECT_TRUE(d.same) << d.what;
}

TEST(GnuDifferential, SpilledToRunsAndMerged) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no /usr/bin/sort";
  // -S 1M (the least): a chunk holds about half a megabyte, so inputs of
  // tens of thousands of lines spill runs and merge them.
  const DiffOutcome d = run_gnu_differential(2031, 12, 60000, {"--backend", "cpu", "-S", "1M"});
  EXPECT_TRUE(d.same) << d.what;
}

TEST(GnuDifferential, ThroughTheProgramOnAPipe) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no /usr/bin/sort";
  const DiffOutcome d = run_gnu_differential_cli(3031, 150 / kSanitizerShare, 120, {});
  EXPECT_TRUE(d.same) << d.what;
}

// -m writes what GNU sort -m writes for any inputs, sorted or not: at each
// step the least of the inputs' next lines, ties to the earlier input.
TEST(GnuDifferential, MergeOfSortedUnsortedAndPartlySortedInputs) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no /usr/bin/sort";
  const DiffOutcome d = run_gnu_merge_differential(4031, 400, 300, {1, 2, 16}, {});
  EXPECT_TRUE(d.same) << d.what;
}

// Inputs larger than a merge window (-S 1M), refilled many times.
TEST(GnuDifferential, MergeRefillsItsWindowsOverUnsortedInputs) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no /usr/bin/sort";
  const DiffOutcome d = run_gnu_merge_differential(5031, 24, 30000, {1, 2, 16}, {"-S", "1M"});
  EXPECT_TRUE(d.same) << d.what;
}

// Batches large enough to be merged in pieces by several threads.
TEST(GnuDifferential, MergeInPiecesOverUnsortedInputs) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no /usr/bin/sort";
  const DiffOutcome d = run_gnu_merge_differential(6031, 9 / kSanitizerShare, 60000, {2, 16}, {});
  EXPECT_TRUE(d.same) << d.what;
}

// sort's interface beside the orderings (gnu_diff.h): --debug's notes and
// marks byte for byte, --check=WORD, -y, --buffer-size, -S 0, --parallel
// beyond the cores, long abbreviations and obsolete keys.
TEST(GnuDifferential, DebugCheckWordsAbbreviationsAndObsoleteKeys) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no /usr/bin/sort";
  const DiffOutcome d = run_gnu_interface_differential(7031, 400 / kSanitizerShare, 60);
  EXPECT_TRUE(d.same) << d.what;
}

}  // namespace
}  // namespace gsort_test
