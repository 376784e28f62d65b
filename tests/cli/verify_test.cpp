// --verify: the output is checked against the input (order, record count,
// order-independent checksum of all records). A fault planted between the
// sort and the write (gsort-test-hooks, built with GSORT_TEST_HOOKS) must
// fail the run: exit 2, one line, the destination left as it was.
// (OutputCheck on the library: unit/output_check_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// 16-byte records with a u32 key at offset 0 (few distinct values, so -u
// has work) and the record number after it (tests/support/record_gen.h).
const RefSpec kSpec = {16, {RefKey{0, 4, RefKind::kUnsigned, false, false}}, false, false};

std::string records(size_t n, uint64_t seed, uint32_t distinct = 1000) {
  Rng rng(seed);
  return numbered_u32_records(rng, n, distinct);
}

std::vector<std::string> with_spec(std::vector<std::string> args, bool unique = false) {
  std::vector<std::string> all = kSpec.args();
  if (unique) all.push_back("-u");
  all.insert(all.end(), args.begin(), args.end());
  return all;
}

nlohmann::json stats_of(const std::string& path) { return nlohmann::json::parse(read_file(path)); }

// ------------------------------------------------------------- end to end

TEST(Verify, PassesOnGoodRuns) {
  TempDir dir;
  const std::string data = records(30000, 1, 50);
  write_file(dir.file("in"), data);
  struct Case {
    const char* name;
    std::vector<std::string> args;
    bool unique;
  };
  const Case cases[] = {
      {"in memory", {}, false},
      {"spilled", {"-S", "64K"}, false},
      {"spilled, compressed runs", {"-S", "64K", "--compress-temp"}, false},
      {"unique in memory", {}, true},
      {"unique spilled", {"-S", "64K"}, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--verify", dir.file("in"), "-o", dir.file("out"), "--stats", dir.file("s.json")});
    const ProcessResult r = run_gsort(with_spec(args, c.unique));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(r.err, "");
    RefSpec spec = kSpec;
    spec.unique = c.unique;
    EXPECT_EQ(describe_difference(read_file(dir.file("out")), reference_sort(data, spec), 16), "");
    const nlohmann::json s = stats_of(dir.file("s.json"));
    EXPECT_EQ(s["verify"]["enabled"], true);
    EXPECT_EQ(s["verify"]["result"], "ok");
    EXPECT_EQ(s["verify"]["records"], 30000);
  }
  // Off by default, and with --no-verify.
  for (const char* option : {"--no-verify", "--stats"}) {
    std::vector<std::string> args = {dir.file("in"), "-o", dir.file("out"), "--stats", dir.file("s.json")};
    if (std::string(option) == "--no-verify") args.push_back(option);
    const ProcessResult r = run_gsort(with_spec(args));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(stats_of(dir.file("s.json"))["verify"]["enabled"], false);
    EXPECT_EQ(stats_of(dir.file("s.json"))["verify"]["result"], "off");
  }
  // Both: the later one counts (alias gs='gsort --verify'; gs --no-verify).
  for (const bool verify_last : {false, true}) {
    std::vector<std::string> args = {dir.file("in"), "-o", dir.file("out2"), "--stats", dir.file("s.json")};
    args.insert(args.end(), {verify_last ? "--no-verify" : "--verify", verify_last ? "--verify" : "--no-verify"});
    const ProcessResult r = run_gsort(with_spec(args));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(stats_of(dir.file("s.json"))["verify"]["enabled"], verify_last);
  }
}

TEST(Verify, MergeOfSortedInputsIsVerified) {
  TempDir dir;
  const std::string a = records(5000, 2), b = records(7000, 3);
  write_file(dir.file("a"), reference_sort(a, kSpec));
  write_file(dir.file("b"), reference_sort(b, kSpec));
  const ProcessResult r = run_gsort(
      with_spec({"--verify", "-m", dir.file("a"), dir.file("b"), "-o", dir.file("out"), "--stats",
                 dir.file("s.json")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(stats_of(dir.file("s.json"))["verify"]["result"], "ok");
  EXPECT_EQ(stats_of(dir.file("s.json"))["verify"]["records"], 12000);
}

#ifdef GSORT_HOOKS_BINARY

// Runs gsort-test-hooks with GSORT_TEST_CORRUPT_OUTPUT=fault.
ProcessResult run_faulty(const std::vector<std::string>& args, const std::string& fault,
                         ProcessOptions options = {}) {
  std::vector<std::string> argv = {GSORT_HOOKS_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  options.env.push_back("GSORT_TEST_CORRUPT_OUTPUT=" + fault);
  return run_process(argv, options);
}

TEST(VerifyFault, PlantedFlipIsCaughtAndNothingIsCommitted) {
  TempDir dir;
  const std::string data = records(30000, 4, 50);
  write_file(dir.file("in"), data);
  write_file(dir.file("sorted"), reference_sort(data, kSpec));
  struct Case {
    const char* name;
    std::vector<std::string> args;
    std::string fault;  // record[:byte]
    bool unique;
  };
  const Case cases[] = {
      // The last byte is not part of the key: only the checksum sees it.
      {"in memory, payload byte", {}, "12345", false},
      // The first byte is the key's lowest: usually the order check fires.
      {"in memory, key byte", {}, "12345:0", false},
      {"first record", {}, "0", false},
      {"last record", {}, "29999", false},
      {"spilled, multi-pass", {"-S", "64K"}, "20000", false},
      {"compressed runs", {"-S", "64K", "--compress-temp"}, "777", false},
      {"compressed output", {"--compress-output"}, "15000", false},
      {"unique", {}, "10", true},
      {"unique spilled", {"-S", "64K"}, "20:3", true},
      {"merge", {"-m"}, "100", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    write_file(dir.file("out"), "previous content");
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--verify", c.args.empty() || c.args[0] != "-m" ? dir.file("in") : dir.file("sorted"),
                             "-o", dir.file("out")});
    const ProcessResult r = run_faulty(with_spec(args, c.unique), c.fault);
    EXPECT_EQ(r.status(), "exit 2") << r.err;
    EXPECT_EQ(r.err.rfind("gsort: verification failed", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(read_file(dir.file("out")), "previous content");
    EXPECT_EQ(count_files(dir.path()), 3u) << "no temporary output left behind";
  }
}

TEST(VerifyFault, WithoutVerifyThePlantedFlipGoesThrough) {
  // Proves that the hook really corrupts the output: without --verify it
  // goes through, and the real gsort ignores the variable.
  TempDir dir;
  const std::string data = records(5000, 5);
  write_file(dir.file("in"), data);
  const std::string expected = reference_sort(data, kSpec);
  ProcessResult r = run_faulty(with_spec({dir.file("in"), "-o", dir.file("out")}), "42");
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const std::string got = read_file(dir.file("out"));
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_NE(got, expected);
  EXPECT_EQ(got.substr(0, 42 * 16 + 15), expected.substr(0, 42 * 16 + 15));
  EXPECT_EQ(static_cast<uint8_t>(got[42 * 16 + 15] ^ expected[42 * 16 + 15]), 0x01);
  ProcessOptions env;
  env.env.push_back("GSORT_TEST_CORRUPT_OUTPUT=42");
  r = run_gsort(with_spec({"--verify", dir.file("in"), "-o", dir.file("out")}), env);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(read_file(dir.file("out")), expected);
}

TEST(VerifyFault, StdoutFailsWithExitTwo) {
  TempDir dir;
  write_file(dir.file("in"), records(5000, 6));
  const ProcessResult r = run_faulty(with_spec({"--verify", dir.file("in")}), "4000");
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_NE(r.err.find("verification failed"), std::string::npos) << r.err;
}

#endif  // GSORT_HOOKS_BINARY

}  // namespace
}  // namespace gsort_test
