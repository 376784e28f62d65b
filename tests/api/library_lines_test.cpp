// The library on text lines (issue 31): Options without a record size sort
// lines, keys in GNU sort's syntax; check_file and merge_files work on
// lines; sort_records needs a record size.
#include <gtest/gtest.h>
#include <locale.h>

#include <string>

#include "gsort/gsort.h"
#include "tests/support/temp_dir.h"

namespace {

TEST(LibraryLines, SortsLinesWithGnuKeys) {
  gsort_test::TempDir dir;
  gsort_test::write_file(dir.file("in"), "b,10\na,9\nc,100\nd,9");
  gsort::Options o;
  o.keys = {"2,2n", "1,1"};
  o.arguments = {"-t", ","};
  o.verify = true;
  const gsort::SortResult r = gsort::sort_files({dir.file("in")}, dir.file("out"), o);
  EXPECT_EQ(gsort_test::read_file(dir.file("out")), "a,9\nd,9\nb,10\nc,100\n");
  EXPECT_EQ(r.input_records, 4u);
  EXPECT_EQ(r.output_records, 4u);
}

// Options::locale: the locale named, whatever the environment (the tests
// run with LC_ALL=C); verified, merged and checked in it too.
TEST(LibraryLines, SortsInTheLocaleNamed) {
  locale_t l = newlocale(LC_ALL_MASK, "en_US.UTF-8", static_cast<locale_t>(0));
  if (l == static_cast<locale_t>(0)) GTEST_SKIP() << "en_US.UTF-8 is not installed";
  freelocale(l);
  gsort_test::TempDir dir;
  gsort_test::write_file(dir.file("in"), "b\nB\na\nA\n\xC3\xA9\n1,000\n999\n");
  gsort::Options o;
  o.locale = "en_US.UTF-8";
  o.verify = true;
  gsort::sort_files({dir.file("in")}, dir.file("out"), o);
  EXPECT_EQ(gsort_test::read_file(dir.file("out")), "1,000\n999\na\nA\nb\nB\n\xC3\xA9\n");
  EXPECT_TRUE(gsort::check_file(dir.file("out"), o).sorted);
  o.keys = {"1,1n"};
  gsort::sort_files({dir.file("in")}, dir.file("out"), o);  // 1,000 is a thousand there
  EXPECT_EQ(gsort_test::read_file(dir.file("out")), "a\nA\nb\nB\n\xC3\xA9\n999\n1,000\n");
  gsort::Options c;
  c.locale = "C";
  EXPECT_FALSE(gsort::check_file(dir.file("out"), c).sorted);
  c.locale = "xx_NOWHERE.UTF-8";
  EXPECT_THROW(gsort::check_file(dir.file("out"), c), gsort::UsageError);
}

TEST(LibraryLines, MergeAndCheck) {
  gsort_test::TempDir dir;
  gsort_test::write_file(dir.file("a"), "a\nc\n");
  gsort_test::write_file(dir.file("b"), "b\nd\n");
  gsort::Options o;
  gsort::merge_files({dir.file("a"), dir.file("b")}, dir.file("out"), o);
  EXPECT_EQ(gsort_test::read_file(dir.file("out")), "a\nb\nc\nd\n");
  EXPECT_TRUE(gsort::check_file(dir.file("out"), o).sorted);
  gsort_test::write_file(dir.file("bad"), "a\nc\nb\n");
  const gsort::CheckReport r = gsort::check_file(dir.file("bad"), o);
  EXPECT_FALSE(r.sorted);
  EXPECT_EQ(r.first_disorder, 3u);
  EXPECT_EQ(r.first_disorder_offset, 4u);
}

// merge_files writes what sort -m writes for inputs that are not sorted:
// the least next line at each step, ties to the earlier input.
TEST(LibraryLines, MergeOfUnsortedInputsTakesTheLeastNextLine) {
  gsort_test::TempDir dir;
  std::string a, b;
  for (uint64_t i = 0; i < 50000; ++i) {
    a += std::to_string((i * 7919) % 50000) + "\n";
    b += std::to_string((i * 104729) % 50000) + "\n";
  }
  gsort_test::write_file(dir.file("a"), a);
  gsort_test::write_file(dir.file("b"), b);
  std::string expected;  // the least head each time, ties to a
  for (size_t i = 0, j = 0; i < a.size() || j < b.size();) {
    const size_t ie = a.find('\n', i), je = b.find('\n', j);
    const bool take_a = j >= b.size() || (i < a.size() && a.compare(i, ie - i, b, j, je - j) <= 0);
    expected += take_a ? a.substr(i, ie + 1 - i) : b.substr(j, je + 1 - j);
    (take_a ? i : j) = (take_a ? ie : je) + 1;
  }
  for (unsigned threads : {1u, 2u, 16u}) {
    gsort::Options o;
    o.threads = threads;
    const gsort::SortResult r = gsort::merge_files({dir.file("a"), dir.file("b")}, dir.file("out"), o);
    EXPECT_EQ(r.output_records, 100000u) << threads;
    EXPECT_TRUE(gsort_test::read_file(dir.file("out")) == expected) << threads << " threads";
  }
}

TEST(LibraryLines, SortRecordsNeedsARecordSize) {
  char buf[4] = {'b', '\n', 'a', '\n'};
  EXPECT_THROW(gsort::sort_records(buf, 2, gsort::Options{}), gsort::UsageError);
}

}  // namespace
