// OutputCheck, the check behind --verify, on the library: it accepts a
// sorted permutation in any blocking and catches disorder, a wrong count,
// changed content, and equal keys under -u.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "io/file/checksum.h"
#include "src/core/errors.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/verify/output_check.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"

namespace gsort_test {
namespace {

// 16-byte records with a u32 key at offset 0.
const RefSpec kSpec = {16, {RefKey{0, 4, RefKind::kUnsigned, false, false}}, false, false};

class OutputCheckTest : public ::testing::Test {
 protected:
  OutputCheckTest() : pool_(3), layout_({gsort::parse_key_spec("0:u32")}, 16, false) {}

  // n records of numbered_u32_records with 100 distinct keys, sorted.
  static std::string sorted(size_t n, uint64_t seed) {
    Rng rng(seed);
    return reference_sort(numbered_u32_records(rng, n, 100), kSpec);
  }
  static uint64_t sum(const std::string& d) { return gsort::hash_record_sum(d.data(), d.size() / 16, 16); }
  const uint8_t* bytes(const std::string& d) { return reinterpret_cast<const uint8_t*>(d.data()); }

  gsort::ThreadPool pool_;
  gsort::KeyLayout layout_;
};

TEST_F(OutputCheckTest, AcceptsAPermutationInOrderInAnyBlocking) {
  const std::string d = sorted(100000, 7);  // 1.6 MB: blocks are checked in parallel
  for (size_t block : {size_t{1}, size_t{999}, size_t{100000}}) {
    gsort::OutputCheck check(layout_, false, pool_);
    for (size_t i = 0; i < 100000; i += block) check.observe(bytes(d) + i * 16, std::min(block, 100000 - i));
    EXPECT_NO_THROW(check.finish(100000, sum(d))) << block;
    EXPECT_EQ(check.records(), 100000u);
  }
}

TEST_F(OutputCheckTest, CatchesDisorderAtAnyPosition) {
  const std::string d = sorted(100000, 8);
  for (size_t at : {size_t{1}, size_t{50000}, size_t{50001}, size_t{99999}}) {
    std::string bad = d;
    const uint32_t big = 0xFFFFFFFFu;
    std::memcpy(&bad[(at - 1) * 16], &big, 4);  // record at-1 now sorts after record at
    for (size_t block : {size_t{at}, size_t{100000}}) {
      gsort::OutputCheck check(layout_, false, pool_);
      try {
        for (size_t i = 0; i < 100000; i += block) check.observe(bytes(bad) + i * 16, std::min(block, 100000 - i));
        ADD_FAILURE() << "disorder at " << at << " not caught";
      } catch (const gsort::DataError& e) {
        EXPECT_NE(std::string(e.what()).find("record " + std::to_string(at + 1)), std::string::npos) << e.what();
      }
    }
  }
}

TEST_F(OutputCheckTest, CatchesWrongCountAndWrongContent) {
  const std::string d = sorted(1000, 9);
  {
    gsort::OutputCheck check(layout_, false, pool_);
    check.observe(bytes(d), 999);
    EXPECT_THROW(check.finish(1000, sum(d)), gsort::DataError);
  }
  {
    // Same count, same order, one payload byte different.
    std::string bad = d;
    bad[500 * 16 + 9] ^= 0x40;
    gsort::OutputCheck check(layout_, false, pool_);
    check.observe(bytes(bad), 1000);
    EXPECT_THROW(check.finish(1000, sum(d)), gsort::DataError);
  }
  {
    // A record duplicated in place of another: count and order still fine.
    std::string bad = d;
    std::memcpy(&bad[501 * 16], &bad[500 * 16], 16);
    gsort::OutputCheck check(layout_, false, pool_);
    check.observe(bytes(bad), 1000);
    EXPECT_THROW(check.finish(1000, sum(d)), gsort::DataError);
  }
}

TEST_F(OutputCheckTest, UniqueAccountsForDroppedRecordsAndWantsStrictOrder) {
  const std::string d = sorted(1000, 10);  // 100 distinct keys: many duplicates
  gsort::OutputCheck check(layout_, true, pool_);
  std::string kept;
  for (size_t i = 0; i < 1000; ++i) {
    if (i > 0 && std::memcmp(&d[i * 16], &d[(i - 1) * 16], 4) == 0) {
      check.dropped(bytes(d) + i * 16);
    } else {
      kept.append(d, i * 16, 16);
    }
  }
  check.observe(bytes(kept), kept.size() / 16);
  EXPECT_NO_THROW(check.finish(1000, sum(d)));
  EXPECT_EQ(check.records() + check.dropped_records(), 1000u);
  // Two equal keys in a -u output are a fault.
  gsort::OutputCheck strict(layout_, true, pool_);
  EXPECT_THROW(strict.observe(bytes(d), 1000), gsort::DataError);
}

}  // namespace
}  // namespace gsort_test
