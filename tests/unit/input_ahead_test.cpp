// InputSet::ahead: the bytes the next reads will take of a plain regular
// input, for the device tier to ask of the kernel early (read_into_cache);
// asking changes nothing that is read.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/input/input_set.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

constexpr uint32_t kRs = 10;

TEST(InputAhead, IsWhatTheNextReadsTakeOfTheFileBeingRead) {
  gsort_test::TempDir dir;
  gsort_test::Rng rng(5);
  const std::string a = rng.bytes(1000 * kRs), b = rng.bytes(500 * kRs);
  gsort_test::write_file(dir.file("a"), a);
  gsort_test::write_file(dir.file("b"), b);
  InputSet set({dir.file("a"), dir.file("b")}, kRs);
  FileRange r = set.ahead(uint64_t{1} << 20);
  EXPECT_GE(r.fd, 0);
  EXPECT_EQ(r.offset, 0u);
  EXPECT_EQ(r.bytes, a.size()) << "no further than the input's end";
  std::string got(a.size() + b.size(), '\0');
  uint8_t* into = reinterpret_cast<uint8_t*>(&got[0]);
  ASSERT_EQ(set.read(into, 300), 300u);
  r = set.ahead(100);
  EXPECT_EQ(r.offset, 300u * kRs);
  EXPECT_EQ(r.bytes, 100u);
  read_into_cache(r);
  read_into_cache(set.ahead(uint64_t{1} << 20));
  uint64_t done = 300;
  while (const uint64_t n = set.read(into + done * kRs, 333)) done += n;
  EXPECT_EQ(done, 1500u);
  EXPECT_TRUE(got == a + b) << "asking ahead changed what was read";
  EXPECT_LT(set.ahead(100).fd, 0) << "nothing is left";
}

TEST(InputAhead, NothingForAnEmptyFileOrNoRange) {
  gsort_test::TempDir dir;
  gsort_test::write_file(dir.file("empty"), "");
  InputSet set({dir.file("empty")}, kRs);
  const FileRange r = set.ahead(100);
  EXPECT_TRUE(r.fd < 0 || r.bytes == 0);
  read_into_cache(FileRange{});  // none: nothing happens
}

}  // namespace
}  // namespace gsort
