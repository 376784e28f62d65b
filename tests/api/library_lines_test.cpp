// The library on text lines (issue 31): Options without a record size sort
// lines, keys in GNU sort's syntax; check_file and merge_files work on
// lines; sort_records needs a record size.
#include <gtest/gtest.h>

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

TEST(LibraryLines, SortRecordsNeedsARecordSize) {
  char buf[4] = {'b', '\n', 'a', '\n'};
  EXPECT_THROW(gsort::sort_records(buf, 2, gsort::Options{}), gsort::UsageError);
}

}  // namespace
