// The GPU's memory as the first tier (issue 36): a spilled sort (input
// larger than -S) whose records the device can hold whole is read once,
// sorted there and written once, with no run on disk, and writes what the
// CPU backend writes. Where the device cannot hold it (--gpu-memory), its
// runs are as large as the device holds, or the host's where the device's
// would not be fewer, and --stats says why. Skips without a GPU (CI).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

class DeviceTier : public testing::Test {
 protected:
  void SetUp() override {
    const ProcessResult probe = run_gsort({"--backend", "gpu", "--record-size", "1", "/dev/null"});
    if (probe.exit_code != 0) GTEST_SKIP() << "no usable GPU: " << probe.err;
  }

  // gsort-gen `gen` into a file; returns its name.
  std::string generate(std::vector<std::string> gen) {
    const std::string input = dir_.file("in" + std::to_string(++inputs_) + ".bin");
    gen.insert(gen.end(), {"-o", input});
    const ProcessResult g = run_gsort_gen(gen);
    EXPECT_EQ(g.exit_code, 0) << g.err;
    return input;
  }

  // gsort `args` on `input` with --stats on stderr; fails the test unless
  // it exits 0 and leaves nothing in -T.
  ProcessResult sort(std::vector<std::string> args, const std::string& input) {
    args.insert(args.end(), {"-T", dir_.subdir("tmp"), "--stats", "-", input});
    ProcessResult r = run_gsort(args);
    EXPECT_EQ(r.exit_code, 0) << r.status() << ": " << r.err;
    EXPECT_EQ(count_files(dir_.subdir("tmp")), 0u) << "temp files left behind";
    return r;
  }

  std::string cpu_output(std::vector<std::string> args, const std::string& input) {
    args.insert(args.end(), {"--backend", "cpu"});
    return sort(args, input).out;
  }

  static nlohmann::json stats(const ProcessResult& r) { return nlohmann::json::parse(r.err); }

#ifdef GSORT_HOOKS_BINARY
  // gsort-test-hooks `args` `input` -o out.bin with device allocation `nth`
  // failing (GSORT_TEST_FAIL_DEVICE_ALLOC, and `env` besides). Fails the
  // test unless it leaves no temporary file and either writes `expected`
  // (returns true) or exits 2 with one line and no output (false). The
  // output is removed after.
  bool sort_with_failed_allocation(int nth, std::vector<std::string> args, const std::string& input,
                                   const std::string& expected, std::vector<std::string> env = {}) {
    const std::string out = dir_.file("out.bin");
    args.insert(args.begin(), GSORT_HOOKS_BINARY);
    args.insert(args.end(), {"-T", dir_.subdir("tmp"), input, "-o", out});
    ProcessOptions o;
    o.env = std::move(env);
    o.env.push_back("GSORT_TEST_FAIL_DEVICE_ALLOC=" + std::to_string(nth));
    const ProcessResult r = run_process(args, o);
    EXPECT_EQ(count_files(dir_.subdir("tmp")), 0u) << "temp files left behind";
    if (r.exit_code == 0) {
      EXPECT_TRUE(read_file(out) == expected);
    } else {
      EXPECT_EQ(r.status(), "exit 2") << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      EXPECT_NE(::access(out.c_str(), F_OK), 0) << "an output after a failure";
    }
    ::unlink(out.c_str());
    return r.exit_code == 0;
  }
#endif

  TempDir dir_;
  int inputs_ = 0;
};

TEST_F(DeviceTier, ASpilledInputIsHeldWholeAndWrittenOnce) {
  const std::string input = generate({"--format", "gensort", "--records", "300000", "--seed", "11"});
  const std::vector<std::string> args = {"--format", "gensort", "-S", "4M"};
  const std::string expected = cpu_output(args, input);
  for (const char* backend : {"gpu", "auto", "hybrid"}) {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--backend", backend, "--verify"});
    const ProcessResult r = sort(a, input);
    EXPECT_TRUE(r.out == expected) << "--backend " << backend;
    const nlohmann::json s = stats(r);
    EXPECT_GT(s["device_resident"]["bytes"].get<uint64_t>(), 30000000u) << backend;
    EXPECT_EQ(s["runs"], 0) << backend;
    EXPECT_EQ(s["temp"]["bytes_written"], 0) << backend;
    EXPECT_EQ(s["verify"]["result"], "ok") << backend;
  }
}

// Larger than the device may take: runs as large as it holds, formed
// there, merged in one pass; --stats says why the whole was not held.
TEST_F(DeviceTier, AnInputLargerThanTheCapIsFormedIntoDeviceSizedRuns) {
  const std::string input = generate({"--format", "gensort", "--records", "300000", "--seed", "12"});
  const std::vector<std::string> args = {"--format", "gensort", "-S", "4M"};
  const std::string expected = cpu_output(args, input);
  std::vector<std::string> a = args;
  a.insert(a.end(), {"--backend", "gpu", "--gpu-memory", "16M", "-v"});
  ProcessResult r = sort(a, input);
  EXPECT_TRUE(r.out == expected);
  EXPECT_NE(r.err.find("in GPU memory"), std::string::npos) << r.err;
  r.err = r.err.substr(r.err.find('{'));  // the --stats after the -v lines
  const nlohmann::json s = stats(r);
  EXPECT_GT(s["device_resident"]["bytes"].get<uint64_t>(), 0u);
  EXPECT_LE(s["device_resident"]["bytes"].get<uint64_t>(), uint64_t{16} << 20);
  EXPECT_NE(s["device_resident"]["why_not"].get<std::string>().find("--gpu-memory allows"), std::string::npos)
      << s["device_resident"];
  EXPECT_GE(s["runs"].get<uint64_t>(), 2u);
  EXPECT_LE(s["runs"].get<uint64_t>(), 4u) << "runs as large as the device holds";
  EXPECT_EQ(s["device_resident"]["held_runs"], 0) << "a mapped output is merged in ranges: no run waits";
  EXPECT_EQ(s["merge_passes"], 1);
}

// A cap that holds less than two of the host's chunks: the host forms the runs.
TEST_F(DeviceTier, ACapTooSmallForDeviceRunsKeepsTheHostsRuns) {
  const std::string input = generate({"--format", "gensort", "--records", "300000", "--seed", "15"});
  const std::vector<std::string> args = {"--format", "gensort", "-S", "8M"};
  const std::string expected = cpu_output(args, input);
  std::vector<std::string> a = args;
  a.insert(a.end(), {"--backend", "gpu", "--gpu-memory", "4M"});
  const ProcessResult r = sort(a, input);
  EXPECT_TRUE(r.out == expected);
  const nlohmann::json s = stats(r);
  EXPECT_EQ(s["device_resident"]["bytes"], 0);
  EXPECT_FALSE(s["device_resident"]["why_not"].is_null());
  EXPECT_GE(s["runs"].get<uint64_t>(), 4u);
}

// Keys of every kind, -r, -u with heavy duplicates, records larger than a
// staging slot's share, and counts around the slots' boundaries.
TEST_F(DeviceTier, EveryLayoutWritesWhatTheCpuWrites) {
  struct Case {
    std::vector<std::string> gen, sort;
  };
  const std::vector<Case> cases = {
      {{"--record-size", "24", "--key", "0:f64", "--key", "8:i32be", "--distribution", "few", "--records", "200000"},
       {"--record-size", "24", "--key", "0:f64", "--key", "8:i32be:desc", "-r", "-u", "-S", "1M"}},
      {{"--record-size", "7", "--key", "2:u16", "--distribution", "lowentropy", "--records", "400000"},
       {"--record-size", "7", "--key", "2:u16", "-S", "1M"}},
      {{"--record-size", "16", "--key", "0:u64", "--distribution", "equal", "--records", "300000"},
       {"--record-size", "16", "--key", "0:u64", "-S", "1M"}},
      {{"--record-size", "8", "--key", "0:u32", "--distribution", "sorted", "--records", "500000"},
       {"--record-size", "8", "--key", "0:u32", "-r", "-S", "1M"}},
      {{"--record-size", "10000", "--records", "3000"}, {"--record-size", "10000", "--key", "5:9", "-S", "4M"}},
      {{"--record-size", "33", "--records", "100000"}, {"--record-size", "33", "-u", "-S", "1M"}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> gen = c.gen;
    gen.insert(gen.end(), {"--seed", "13"});
    const std::string input = generate(gen);
    const std::string expected = cpu_output(c.sort, input);
    std::vector<std::string> a = c.sort;
    a.insert(a.end(), {"--backend", "gpu"});
    const ProcessResult r = sort(a, input);
    EXPECT_TRUE(r.out == expected) << c.sort[1] << " " << c.sort.back();
    EXPECT_GT(stats(r)["device_resident"]["bytes"].get<uint64_t>(), 0u) << c.sort[1];
  }
}

TEST_F(DeviceTier, RecordCountsAroundTheSlotBoundaries) {
  // -S 4M: slots of a quarter of the budget as used (--stats says it).
  const std::string probe = generate({"--format", "gensort", "--records", "100000", "--seed", "14"});
  const ProcessResult p = sort({"--format", "gensort", "-S", "4M", "--backend", "gpu"}, probe);
  const uint64_t budget = stats(p)["memory"]["budget_bytes"].get<uint64_t>();
  const uint64_t slot = budget / 4 / 100;
  for (const uint64_t count : {5 * slot - 1, 5 * slot, 5 * slot + 1, 8 * slot + 3}) {
    const std::string input =
        generate({"--format", "gensort", "--records", std::to_string(count), "--seed", std::to_string(count)});
    const std::string expected = cpu_output({"--format", "gensort", "-S", "4M"}, input);
    const ProcessResult r = sort({"--format", "gensort", "-S", "4M", "--backend", "gpu"}, input);
    EXPECT_TRUE(r.out == expected) << count << " records, slots of " << slot;
    EXPECT_GT(stats(r)["device_resident"]["bytes"].get<uint64_t>(), 0u) << count;
  }
}

#ifdef GSORT_HOOKS_BINARY
// A device allocation that fails at any step of the device tier (the
// arena, the gather slots, the sort's scratch, ...): gsort either keeps the
// host's way and writes what the CPU writes, or exits 2 with one line and
// leaves neither an output nor a temporary file. Never a wrong output.
TEST_F(DeviceTier, AFailedDeviceAllocationAtAnyStepFailsCleanlyOrFallsBack) {
  const std::string input = generate({"--format", "gensort", "--records", "300000", "--seed", "16"});
  const std::string expected = cpu_output({"--format", "gensort", "-S", "4M"}, input);
  const std::string stats_file = dir_.file("s.json");
  int affected = 0;  // runs the fault changed: a failure, or the input not held on the device
  for (int nth = 1; nth <= 16; ++nth) {
    SCOPED_TRACE("allocation " + std::to_string(nth) + " fails");
    if (sort_with_failed_allocation(
            nth, {"--format", "gensort", "-S", "4M", "--backend", "gpu", "--verify", "--stats", stats_file}, input,
            expected)) {
      affected += nlohmann::json::parse(read_file(stats_file))["device_resident"]["bytes"] == 0;
    } else {
      ++affected;
    }
    ::unlink(stats_file.c_str());
  }
  EXPECT_GT(affected, 0) << "no injected failure reached the device tier";
}

// An output that is not mapped (a test asks for the one write() stream) is
// merged in order: the device's last run waits in its memory for that
// merge, the first run takes the rest, and only the runs before the last
// touch the disk.
TEST_F(DeviceTier, TheLastDeviceRunWaitsInGpuMemoryForAMergeInOrder) {
  const std::string input = generate({"--format", "gensort", "--records", "300000", "--seed", "17"});
  const std::string out = dir_.file("out.bin");
  const std::string stats_file = dir_.file("s.json");
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{}, {"-r", "-u"}, {"-s", "--key", "0:2"}, {"--compress-temp=on"}, {"--verify"}}) {
    std::vector<std::string> args = {"--format", "gensort", "-S", "4M"};
    args.insert(args.end(), extra.begin(), extra.end());
    const std::string expected = cpu_output(args, input);
    std::vector<std::string> argv = {GSORT_HOOKS_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--backend", "gpu", "--gpu-memory", "16M", "-v", "--stats", stats_file, "-T",
                             dir_.subdir("tmp"), input, "-o", out});
    ProcessOptions o;
    o.env = {"GSORT_TEST_OUTPUT_WAY=stream"};
    const ProcessResult r = run_process(argv, o);
    const std::string shown = extra.empty() ? "(default)" : extra.front();
    ASSERT_EQ(r.exit_code, 0) << shown << ": " << r.err;
    EXPECT_EQ(count_files(dir_.subdir("tmp")), 0u) << "temp files left behind";
    EXPECT_TRUE(read_file(out) == expected) << shown;
    EXPECT_NE(r.err.find("the last waits there for the final merge"), std::string::npos) << r.err;
    const nlohmann::json s = nlohmann::json::parse(read_file(stats_file));
    const uint64_t runs = s["runs"].get<uint64_t>();
    EXPECT_GE(runs, 2u) << shown;
    EXPECT_EQ(s["device_resident"]["held_runs"], 1) << shown;
    EXPECT_EQ(s["merge_passes"], 1) << shown;
    if (!extra.empty() && extra.front() == "--verify") EXPECT_EQ(s["verify"]["result"], "ok");
    if (extra.empty()) {
      // The runs written are all but the held one, at most (runs - 1) / runs of the input.
      EXPECT_LE(s["temp"]["bytes_written"].get<uint64_t>() * runs, 30000000u * (runs - 1) + 4096 * runs) << s["temp"];
    }
  }
}

// The same for runs formed on the device, the last held there for a merge
// in order: a failure is exit 2, one line, no temporary file, no output.
TEST_F(DeviceTier, AFailedDeviceAllocationWhileRunsAreHeldFailsCleanlyOrFallsBack) {
  const std::string input = generate({"--format", "gensort", "--records", "300000", "--seed", "18"});
  const std::string expected = cpu_output({"--format", "gensort", "-S", "4M"}, input);
  int failed = 0;
  for (int nth = 1; nth <= 24; ++nth) {
    SCOPED_TRACE("allocation " + std::to_string(nth) + " fails");
    const std::vector<std::string> args = {"--format", "gensort", "-S", "4M", "--backend", "gpu", "--gpu-memory", "16M"};
    failed += !sort_with_failed_allocation(nth, args, input, expected, {"GSORT_TEST_OUTPUT_WAY=stream"});
  }
  EXPECT_GT(failed, 0) << "no injected failure reached the device runs";
}
#endif

}  // namespace
}  // namespace gsort_test
