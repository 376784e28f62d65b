// The shared stages over both units (issue 53): one sort, by a u32 key and
// stable, given as 16-byte records and as text lines that carry the same
// key and record number ("%010u %08u"), so that the lines' order is the
// records' rendered as text. Each stage is run over both: the final merge,
// forced through the batches and through ranges (the range cut over heavy
// duplicates and one key); the output writer with -u and --verify; merge
// passes and early merges under a fan-in of 2; a spilled sort under
// ulimit -n 16; the sort in memory. Every output matches the reference sort
// of the records (tests/support/reference_sort.h), and no file is left
// behind. The CPU backend: a GPU host's device tier would hold the whole
// input (the device tier's own suites: cli_device_tier_test,
// line_parallel_merge_test).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tests/support/forced_merge.h"
#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#include "tests/support/rng.h"
#include "tests/support/sanitizers.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// 16-byte records, a u32 key at 0 (numbered_u32_records'), the record's number at 4.
const RefSpec kRecords = {16, {RefKey{0, 4, RefKind::kUnsigned, false, false}}, false, false};
const RefSpec kUniqueRecords = {16, kRecords.keys, false, true};

enum class Unit { kRecords, kLines };

const char* unit_name(Unit u) { return u == Unit::kRecords ? "records" : "lines"; }

// Records as lines: the key in ten digits (its byte order is its number's),
// a space, the record number in eight.
std::string as_lines(const std::string& records) {
  std::string lines;
  for (size_t at = 0; at + 16 <= records.size(); at += 16) {
    uint32_t key = 0;
    uint64_t number = 0;
    std::memcpy(&key, records.data() + at, 4);
    std::memcpy(&number, records.data() + at + 4, 8);
    char line[32];
    std::snprintf(line, sizeof line, "%010u %08llu\n", key, static_cast<unsigned long long>(number));
    lines += line;
  }
  return lines;
}

// The unit's options for the sort by key, stable, and -u where asked.
std::vector<std::string> unit_args(Unit u, bool unique, std::vector<std::string> more) {
  std::vector<std::string> args = {"--backend", "cpu", "-s"};
  if (u == Unit::kRecords) {
    const std::vector<std::string> spec = (unique ? kUniqueRecords : kRecords).args();
    args.insert(args.end(), spec.begin(), spec.end());
  } else {
    args.insert(args.end(), {"-t", " ", "-k1,1"});
    if (unique) args.push_back("-u");
  }
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The records written as the unit's input; returns the unit's expected output.
std::string write_input(const TempDir& dir, Unit u, const std::string& records, bool unique) {
  const std::string sorted = reference_sort(records, unique ? kUniqueRecords : kRecords);
  write_file(dir.file("in"), u == Unit::kRecords ? records : as_lines(records));
  return u == Unit::kRecords ? sorted : as_lines(sorted);
}

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

class BothUnits : public ::testing::TestWithParam<Unit> {};

// Under -u too: no key spans two ranges (the cut takes whole keys), each
// range keeps the first of each key, and the ranges are moved together.
TEST_P(BothUnits, TheFinalMergeInBatchesAndInRangesGivesTheReference) {
  const Unit u = GetParam();
  TempDir dir;
  Rng rng(53);
  for (const bool unique : {false, true}) {
    for (const uint32_t distinct : {7u, 1u, 1000000u}) {
      SCOPED_TRACE(std::string(unit_name(u)) + (unique ? ", -u" : "") + ", keys below " + std::to_string(distinct));
      const std::string expected = write_input(dir, u, numbered_u32_records(rng, 120000, distinct), unique);
      const std::vector<std::string> args = unit_args(u, unique, {"-S", "1M"});
      const ForcedMerge batches = sort_forcing_merge(dir, "batches", args);
      ASSERT_EQ(batches.result.status(), "exit 0") << batches.result.err;
      EXPECT_TRUE(batches.out == expected) << "the batches differ from the reference";
      EXPECT_FALSE(contains(batches.result.err, "gsort: final merge: ")) << batches.result.err;
      const ForcedMerge ranges = sort_forcing_merge(dir, "ranges:23", args);
      ASSERT_EQ(ranges.result.status(), "exit 0") << ranges.result.err;
      EXPECT_TRUE(ranges.out == expected) << "the ranges differ from the reference";
      // Whole keys: as many ranges as distinct keys where they are fewer.
      const std::string cut = unique && distinct < 23 ? std::to_string(distinct) + " range" : "23 ranges";
      EXPECT_TRUE(contains(ranges.result.err, "gsort: final merge: " + cut)) << ranges.result.err;
      EXPECT_EQ(count_files(dir.path()), 2u) << "files left behind";  // in, out
    }
  }
}

TEST_P(BothUnits, TheOutputWriterKeepsTheFirstOfEachKeyUnderVerify) {
  const Unit u = GetParam();
  TempDir dir;
  Rng rng(54);
  for (const bool spilled : {false, true}) {
    SCOPED_TRACE(std::string(unit_name(u)) + (spilled ? ", spilled" : ", in memory"));
    const std::string expected = write_input(dir, u, numbered_u32_records(rng, 100000, 500), true);
    std::vector<std::string> more = {"--verify"};
    if (spilled) more.insert(more.end(), {"-S", "1M"});
    const ForcedMerge r = sort_forcing_merge(dir, "planned", unit_args(u, true, more));
    ASSERT_EQ(r.result.status(), "exit 0") << r.result.err;
    EXPECT_TRUE(r.out == expected) << "-u differs from the reference";
    EXPECT_TRUE(contains(r.result.err, "verified")) << r.result.err;
    EXPECT_EQ(count_files(dir.path()), 2u) << "files left behind";
  }
}

TEST_P(BothUnits, MergePassesUnderAFanInOfTwoGiveTheReference) {
  const Unit u = GetParam();
  TempDir dir;
  Rng rng(55);
  const std::string expected = write_input(dir, u, numbered_u32_records(rng, 120000, 50), false);
  const ForcedMerge r = sort_forcing_merge(
      dir, "planned", unit_args(u, false, {"-S", "1M", "--batch-size", "2", "--stats", dir.file("stats.json")}));
  ASSERT_EQ(r.result.status(), "exit 0") << r.result.err;
  EXPECT_TRUE(r.out == expected) << "the passes differ from the reference";
  const nlohmann::json stats = nlohmann::json::parse(read_file(dir.file("stats.json")));
  EXPECT_GE(stats["runs"].get<uint64_t>(), 8u) << stats.dump();
  EXPECT_GE(stats["merge_passes"].get<uint64_t>(), 3u) << stats.dump();
  // The runs merged early as they form, by one stack (src/merge/run_stack.h):
  // each pair of a level as it completes.
  EXPECT_GE(stats["early_merges"].get<uint64_t>(), stats["runs"].get<uint64_t>() / 2) << stats.dump();
  EXPECT_EQ(count_files(dir.path()), 3u) << "files left behind";  // in, out, stats
}

// Run formation under few descriptors: a spilled sort of many runs under
// ulimit -n 16 keeps its waiting runs within the limit (merged early, as
// the records' and the lines' plans both count them) and gives the reference.
TEST_P(BothUnits, ASpilledSortUnderSixteenDescriptorsGivesTheReference) {
#if GSORT_TEST_UNDER_ASAN
  GTEST_SKIP() << "the sanitizers' runtime needs descriptors of its own (tests/support/sanitizers.h)";
#endif
  const Unit u = GetParam();
  TempDir dir;
  Rng rng(56);
  const std::string expected = write_input(dir, u, numbered_u32_records(rng, 150000, 1000), false);
  std::string command = "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd<&-\"; done\n"
                        "ulimit -n 16 || exit 98\nexec";
  for (const std::string& a : gsort_argv({})) command += " '" + a + "'";
  for (const std::string& a : unit_args(u, false, {"-S", "1M", "--stats", dir.file("stats.json")})) {
    command += " '" + a + "'";
  }
  command += " -T '" + dir.path() + "' '" + dir.file("in") + "' -o '" + dir.file("out") + "'";
  const ProcessResult r = run_process({"/bin/bash", "-c", command}, c_locale());
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(read_file(dir.file("out")) == expected) << "the sort under few descriptors differs from the reference";
  const nlohmann::json stats = nlohmann::json::parse(read_file(dir.file("stats.json")));
  EXPECT_GE(stats["runs"].get<uint64_t>(), 8u) << stats.dump();
  EXPECT_EQ(count_files(dir.path()), 3u) << "files left behind";  // in, out, stats
}

INSTANTIATE_TEST_SUITE_P(RecordsAndLines, BothUnits, ::testing::Values(Unit::kRecords, Unit::kLines),
                         [](const ::testing::TestParamInfo<Unit>& info) {
                           return std::string(info.param == Unit::kRecords ? "Records" : "Lines");
                         });

}  // namespace
}  // namespace gsort_test
