// What ranks compare before any record moves (src/distributed/ranks/
// shared_fields.h, option_fields.h, input_identity.h): the fields survive
// their encoding whatever bytes they hold, the first difference is named
// with both values, options a rank may set for itself are left out, and an
// input's identity sees its size, time and the content of its sampled
// blocks (and, by design, not the bytes between them).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/file/file.h"
#include "src/distributed/ranks/input_identity.h"
#include "src/distributed/ranks/option_fields.h"
#include "src/distributed/ranks/shared_fields.h"
#include "tests/support/temp_dir.h"

namespace {

using gsort::SharedFields;

SharedFields some_fields() {
  return {{"option --unique", "", "off", ""},
          {"input 1", "name", std::string("'a:b\0c'", 7), ""},
          {"input 'x'", "size", "100", "a note"}};
}

TEST(SharedFields, SurviveTheirEncodingWhateverBytesTheyHold) {
  const SharedFields fields = some_fields();
  const SharedFields back = gsort::decode_fields(gsort::encode_fields(fields));
  ASSERT_EQ(back.size(), fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    EXPECT_EQ(back[i].subject, fields[i].subject);
    EXPECT_EQ(back[i].aspect, fields[i].aspect);
    EXPECT_EQ(back[i].value, fields[i].value);
  }
  // A cut-off encoding loses its tail, which then differs.
  const std::string text = gsort::encode_fields(fields);
  EXPECT_EQ(gsort::decode_fields(text.substr(0, text.size() - 1)).size(), 2u);
  EXPECT_NE(gsort::first_difference(fields, gsort::decode_fields(text.substr(0, text.size() - 1))), "");
}

TEST(SharedFields, AlikeListsHaveNoDifference) {
  EXPECT_EQ(gsort::first_difference(some_fields(), some_fields()), "");
}

TEST(SharedFields, TheFirstDifferenceIsNamedWithBothValuesAndTheNote) {
  SharedFields mine = some_fields();
  mine[2].value = "75";
  EXPECT_EQ(gsort::first_difference(mine, some_fields()),
            "input 'x' differs from rank 0's (size 75 against 100): a note");
  mine[0].value = "on";
  EXPECT_EQ(gsort::first_difference(mine, some_fields()), "option --unique differs from rank 0's (on against off)");
  SharedFields shorter = some_fields();
  shorter.pop_back();
  EXPECT_EQ(gsort::first_difference(shorter, some_fields()), "the request differs from rank 0's");
}

TEST(OptionFields, WhatARankSetsForItselfIsNotCompared) {
  gsort::SortConfig a;
  a.record_size = 100;
  a.output = "out";
  gsort::SortConfig b = a;
  b.memory_bytes = 1 << 20;
  b.temp_dir = "/elsewhere";
  b.threads = 7;
  b.backend = gsort::BackendChoice::kGpu;
  b.device = 3;
  b.verbose = true;
  b.inputs = {"other"};  // compared by input_fields
  EXPECT_EQ(gsort::first_difference(gsort::option_fields(b), gsort::option_fields(a)), "");
  b.unique = true;
  EXPECT_EQ(gsort::first_difference(gsort::option_fields(b), gsort::option_fields(a)),
            "option --unique differs from rank 0's (on against off)");
  b = a;
  b.output = "elsewhere";
  EXPECT_EQ(gsort::first_difference(gsort::option_fields(b), gsort::option_fields(a)),
            "option -o differs from rank 0's ('elsewhere' against 'out')");
}

gsort::InputIdentity identity_of(const std::string& path) {
  gsort::File file = gsort::File::open_read(path);
  return gsort::identify_input(path, file);
}

TEST(InputIdentity, SeesTheSampledBlocksButNotTheBytesBetween) {
  gsort_test::TempDir dir;
  const uint64_t size = 2000000;  // larger than the samples: 16 blocks of 64 KiB, 128964 bytes apart
  std::string bytes(size, '\0');
  for (uint64_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(i * 2654435761u >> 13);
  const std::string path = dir.file("in");
  gsort_test::write_file(path, bytes);
  const gsort::InputIdentity original = identity_of(path);
  EXPECT_EQ(original.size, size);
  const auto changed_at = [&](uint64_t at) {
    std::string copy = bytes;
    copy[at] = static_cast<char>(copy[at] ^ 1);
    gsort_test::write_file(path, copy);
    return identity_of(path).sampled_hash != original.sampled_hash;
  };
  EXPECT_TRUE(changed_at(0));                                   // the first block
  EXPECT_TRUE(changed_at(size - 1));                            // the last
  EXPECT_TRUE(changed_at(128964 * 7 + 100));                    // one between
  EXPECT_FALSE(changed_at(100000));                             // between the first two samples
  // A file no larger than the samples is hashed whole.
  gsort_test::write_file(path, bytes.substr(0, 1000000));
  const uint64_t whole = identity_of(path).sampled_hash;
  std::string small = bytes.substr(0, 1000000);
  small[500000] = static_cast<char>(small[500000] ^ 1);
  gsort_test::write_file(path, small);
  EXPECT_NE(identity_of(path).sampled_hash, whole);
}

TEST(InputIdentity, ADifferentTimeIsNamedWithAHintToKeepIt) {
  const std::vector<gsort::InputIdentity> mine{{"in", 10, 1577836805, 1}};
  const std::vector<gsort::InputIdentity> rank0s{{"in", 10, 1577836800, 1}};
  const std::string line = gsort::first_difference(gsort::input_fields(mine), gsort::input_fields(rank0s));
  EXPECT_EQ(line.rfind("input 'in' differs from rank 0's (modified 2020-01-01 00:00:05 UTC against "
                       "2020-01-01 00:00:00 UTC): ",
                       0),
            0u)
      << line;
  EXPECT_NE(line.find("cp -p"), std::string::npos) << line;
}

}  // namespace
