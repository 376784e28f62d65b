// src/distributed/output/part_copy: a range of a rank's part copied into
// the one output file at the rank's offset, mapped and read into by the
// pool's threads, or by pwrite where the range is not mapped (the test
// hook), the bytes around it left as they were.
#include "src/distributed/output/part_copy.h"

#include <gtest/gtest.h>

#include <string>

#include "src/core/errors.h"
#include "src/core/test_hooks.h"
#include "src/core/thread_pool.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

bool always() { return true; }

// A part of 9 MB (pieces of 4 MB, one short) and an output whose bytes
// before and after the rank's range are other ranks'.
struct Copy {
  gsort_test::TempDir dir;
  std::string part = dir.file("part"), out = dir.file("out");
  std::string bytes;
  ThreadPool pool{3};
  Copy() {
    for (int i = 0; bytes.size() < (9u << 20) + 123; ++i) bytes += std::to_string(i * 7919) + "\n";
    gsort_test::write_file(part, "skip" + bytes);
    gsort_test::write_file(out, std::string(1000, 'a') + std::string(bytes.size(), '.') + std::string(500, 'z'));
  }
  std::string expected() const { return std::string(1000, 'a') + bytes + std::string(500, 'z'); }
};

TEST(PartCopy, IntoAMappedRangeOnThePoolsThreads) {
  Copy c;
  copy_into_range(c.part, 4, c.bytes.size(), c.out, 1000, false, c.pool);
  EXPECT_EQ(gsort_test::read_file(c.out), c.expected());
}

TEST(PartCopy, ByPwriteWhereTheRangeIsNotMapped) {
  Copy c;
  test_hooks::output_by_pwrite = &always;
  copy_into_range(c.part, 4, c.bytes.size(), c.out, 1000, true, c.pool);
  test_hooks::output_by_pwrite = nullptr;
  EXPECT_EQ(gsort_test::read_file(c.out), c.expected());
}

TEST(PartCopy, APartShorterThanItsRangeIsAnError) {
  Copy c;
  EXPECT_THROW(copy_into_range(c.part, 4, c.bytes.size() + 10, c.out, 1000, false, c.pool), IoError);
}

}  // namespace
}  // namespace gsort
