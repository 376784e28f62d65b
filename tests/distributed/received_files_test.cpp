// src/distributed/local/received_files: what a rank receives, one file per
// source in source order; or, pooled, every source into one file in memory
// up to its size and the rest into one file in -T, nothing lost or doubled
// at the overflow.
#include "src/distributed/local/received_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "src/core/errors.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

const uint8_t* bytes_of(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

std::string read_all(const std::vector<std::string>& paths) {
  std::string all;
  for (const std::string& p : paths) all += gsort_test::read_file(p);
  return all;
}

TEST(ReceivedFiles, KeepOneFilePerSourceInSourceOrder) {
  gsort_test::TempDir dir;
  ReceivedFiles received(dir.path(), 3, 1);
  received.append_bytes(2, bytes_of("c1\n"), 3);
  received.append_bytes(0, bytes_of("a1\n"), 3);
  received.append_bytes(2, bytes_of("c2\n"), 3);
  received.append_bytes(1, bytes_of("b1\n"), 3);
  received.finish();
  ASSERT_EQ(received.paths().size(), 3u);
  EXPECT_EQ(read_all(received.paths()), "a1\nb1\nc1\nc2\n");
  EXPECT_EQ(received.records(), 12u);
}

TEST(ReceivedFiles, PooledFillTheMemoryFileThenTheOneInTempDir) {
  gsort_test::TempDir dir;
  ReceivedFiles received(dir.path(), 3, 1, 8);
  received.append_bytes(1, bytes_of("b1\n"), 3);
  received.append_bytes(0, bytes_of("a1\n"), 3);
  received.append_bytes(2, bytes_of("c1\n"), 3);  // past 8 bytes: into -T
  received.append_bytes(0, bytes_of("a\n"), 2);   // fits the pool still
  received.finish();
  ASSERT_EQ(received.paths().size(), 2u);
  EXPECT_EQ(gsort_test::read_file(received.paths()[0]), "b1\na1\na\n");
  EXPECT_EQ(gsort_test::read_file(received.paths()[1]), "c1\n");
  EXPECT_EQ(received.records(), 11u);
}

TEST(ReceivedFiles, PooledWithinThePoolIsOneFileAndEmptyIsOneEmptyFile) {
  gsort_test::TempDir dir;
  {
    ReceivedFiles received(dir.path(), 2, 1, 1 << 20);
    received.append_bytes(1, bytes_of("x\n"), 2);
    received.append_bytes(0, bytes_of("y\n"), 2);
    received.finish();
    ASSERT_EQ(received.paths().size(), 1u);
    EXPECT_EQ(read_all(received.paths()), "x\ny\n");
  }
  ReceivedFiles empty(dir.path(), 2, 1, 1 << 20);
  empty.finish();
  ASSERT_EQ(empty.paths().size(), 1u);
  EXPECT_EQ(read_all(empty.paths()), "");
  EXPECT_EQ(empty.records(), 0u);
}

TEST(ReceivedFiles, PooledTakeGivesRoomInThePoolUntilItIsFull) {
  gsort_test::TempDir dir;
  ReceivedFiles received(dir.path(), 2, 1, 10);
  uint8_t* a = received.take(4);
  ASSERT_NE(a, nullptr);
  std::copy_n("one\n", 4, a);
  received.append_bytes(1, bytes_of("two\n"), 4);
  EXPECT_EQ(received.take(3), nullptr);  // 8 of 10 taken
  received.append_bytes(0, bytes_of("three\n"), 6);  // into -T
  uint8_t* b = received.take(2);
  ASSERT_NE(b, nullptr);
  std::copy_n("4\n", 2, b);
  received.finish();
  ASSERT_EQ(received.paths().size(), 2u);
  EXPECT_EQ(gsort_test::read_file(received.paths()[0]), "one\ntwo\n4\n");
  EXPECT_EQ(gsort_test::read_file(received.paths()[1]), "three\n");
  EXPECT_EQ(received.records(), 16u);
}

TEST(ReceivedFiles, UnpooledTakeNothing) {
  gsort_test::TempDir dir;
  ReceivedFiles received(dir.path(), 2, 1);
  EXPECT_EQ(received.take(1), nullptr);
}

TEST(ReceivedFiles, RefusePartOfARecord) {
  gsort_test::TempDir dir;
  ReceivedFiles received(dir.path(), 2, 4);
  EXPECT_THROW(received.append_bytes(0, bytes_of("abcdef"), 6), Error);
}

}  // namespace
}  // namespace gsort
