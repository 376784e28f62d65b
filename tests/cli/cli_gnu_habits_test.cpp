// GNU sort's habits, end to end (issue 14): -S given twice takes the last
// value, -k and -s sort as --key and the default do, -c names the first
// record out of order by number, byte offset and both keys, and the
// messages about GPUs say what is true of the machine and the build;
// standard input named twice is read once, a missing input fails before
// standard input is read, and POSIXLY_CORRECT ends the options at the
// first operand (issue 35).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// 8-byte records: a little-endian u32 key, then a little-endian u32 tag.
std::string tagged_records(const std::vector<std::pair<uint32_t, uint32_t>>& key_tag) {
  std::string out;
  for (const auto& [key, tag] : key_tag) {
    for (uint32_t v : {key, tag}) {
      for (int b = 0; b < 4; ++b) out += static_cast<char>((v >> (8 * b)) & 0xFF);
    }
  }
  return out;
}

// The same, tagged with each record's index.
std::string keyed_records(const std::vector<uint32_t>& keys) {
  std::vector<std::pair<uint32_t, uint32_t>> key_tag;
  for (size_t i = 0; i < keys.size(); ++i) key_tag.emplace_back(keys[i], static_cast<uint32_t>(i));
  return tagged_records(key_tag);
}

// sort - - reads standard input once: the second name finds its end.
TEST(CliGnuHabits, StandardInputNamedTwiceIsReadOnce) {
  ProcessOptions p;
  p.stdin_kind = StdinKind::kPipe;
  p.stdin_data = "b\na\n";
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"-", "-"}, {"-m", "-", "-"}}) {
    const ProcessResult r = run_gsort(args, p);
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(r.out, args[0] == "-m" ? "b\na\n" : "a\nb\n");
  }
  p.stdin_data = keyed_records({3, 1, 2});
  const ProcessResult r = run_gsort({"--record-size", "8", "-", "-"}, p);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, tagged_records({{1, 1}, {2, 2}, {3, 0}}));
}

// sort -o typo - missing: the missing input fails at once, while standard
// input is still open, and nothing is created (gsort waited for the end
// of standard input first).
TEST(CliGnuHabits, MissingInputFailsBeforeStandardInputIsRead) {
  TempDir dir;
  for (const std::vector<std::string>& layout :
       std::vector<std::vector<std::string>>{{}, {"--record-size", "8"}, {"-m"}}) {
    std::vector<std::string> args = layout;
    args.insert(args.end(), {"-o", dir.file("typo"), "-", dir.file("missing")});
    ProcessOptions p;
    p.stdin_kind = StdinKind::kPipe;
    Process gsort(gsort_argv(args), p);
    const int held = gsort.take_stdin();  // open, and never written: a terminal nobody types at
    const ProcessResult r = gsort.wait(20);
    ::close(held);
    ASSERT_EQ(r.status(), "exit 2") << r.err;
    EXPECT_EQ(r.err, "gsort: cannot open " + dir.file("missing") + ": No such file or directory\n");
    EXPECT_TRUE(entry_names(dir.path()).empty());
  }
}

TEST(CliGnuHabits, MemoryGivenTwiceTakesTheLast) {
  TempDir dir;
  write_file(dir.file("in.bin"), keyed_records({3, 1, 2}));
  // alias gs='gsort -S 4G'; gs -S 8G ...
  ProcessResult r = run_gsort({"-S", "4G", "--record-size", "8", "-S", "8G", "-v", "-o", dir.file("out.bin"),
                               dir.file("in.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_NE(r.err.find("gsort: memory: 8589934592 bytes budget"), std::string::npos) << r.err;
  r = run_gsort({"-S", "8G", "--record-size", "8", "-S", "4G", "-v", "-o", dir.file("out.bin"), dir.file("in.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_NE(r.err.find("gsort: memory: 4294967296 bytes budget"), std::string::npos) << "the last, not the largest";
}

TEST(CliGnuHabits, ShortKeyAndStableSortAsKeyAndTheDefault) {
  TempDir dir;
  write_file(dir.file("in.bin"), keyed_records({9, 3, 7, 3, 1, 9, 0, 3}));
  const ProcessResult with_key = run_gsort({"--record-size", "8", "--key", "0:u32", dir.file("in.bin")});
  ASSERT_EQ(with_key.status(), "exit 0") << with_key.err;
  EXPECT_TRUE(with_key.out == tagged_records({{0, 6}, {1, 4}, {3, 1}, {3, 3}, {3, 7}, {7, 2}, {9, 0}, {9, 5}}));
  for (const std::vector<std::string>& args : {std::vector<std::string>{"-k", "0:u32"},
                                               std::vector<std::string>{"-k0:u32", "-s"},
                                               std::vector<std::string>{"-sk", "0:u32"}}) {
    std::vector<std::string> full = {"--record-size", "8"};
    full.insert(full.end(), args.begin(), args.end());
    full.push_back(dir.file("in.bin"));
    const ProcessResult r = run_gsort(full);
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_TRUE(r.out == with_key.out) << command_line(full);
  }
}

TEST(CliGnuHabits, CheckNamesRecordOffsetAndBothKeys) {
  TempDir dir;
  std::vector<uint32_t> keys;
  for (uint32_t i = 0; i < 100; ++i) keys.push_back(1000 + 10 * i);
  keys[37] = 5;  // the 38th record, at byte 296, sorts before the 37th (key 1360 = 0x550)
  write_file(dir.file("unsorted.bin"), keyed_records(keys));
  ProcessResult r = run_gsort({"--record-size", "8", "-k", "0:u32", "-c", dir.file("unsorted.bin")});
  EXPECT_EQ(r.status(), "exit 1") << r.err;
  EXPECT_EQ(r.err, "gsort: " + dir.file("unsorted.bin") +
                       ": disorder at record 38 (counting from 1), byte offset 296: key 05000000 sorts before the "
                       "previous record's key 50050000\n");
  // Two fields: separated by ','; the tag breaks the tie of equal keys.
  write_file(dir.file("ties.bin"), keyed_records({4, 4, 4}) + keyed_records({4}));
  r = run_gsort({"--record-size", "8", "-k", "0:u32", "-k", "4:u32be", "-c", dir.file("ties.bin")});
  EXPECT_EQ(r.status(), "exit 1") << r.err;
  EXPECT_EQ(r.err, "gsort: " + dir.file("ties.bin") +
                       ": disorder at record 4 (counting from 1), byte offset 24: key 04000000,00000000 sorts before "
                       "the previous record's key 04000000,02000000\n");
  // With -u, an equal key is the disorder.
  r = run_gsort({"--record-size", "8", "-k", "0:u32", "-c", "-u", dir.file("ties.bin")});
  EXPECT_EQ(r.status(), "exit 1") << r.err;
  EXPECT_EQ(r.err, "gsort: " + dir.file("ties.bin") +
                       ": disorder at record 2 (counting from 1), byte offset 8: key 04000000 equals the previous "
                       "record's key 04000000 (with -u, keys must differ)\n");
}

bool built_with_cuda() {
  const ProcessResult v = run_gsort({"--version"});
  return v.out.find("GPU support: built") != std::string::npos;
}

// Without a GPU, --backend gpu says there is none, not what the CUDA
// runtime says of a missing driver ("CUDA driver version is insufficient
// for CUDA runtime version"); a CPU-only build says it has no GPU support.
TEST(CliGnuHabits, BackendGpuWithoutAGpuSaysSo) {
  const ProcessResult r = run_gsort({"--backend", "gpu", "--record-size", "1", "/dev/null"});
  if (r.exit_code == 0) GTEST_SKIP() << "a usable GPU is present";
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err.find("insufficient"), std::string::npos) << r.err;
  if (built_with_cuda()) {
    EXPECT_EQ(r.err.rfind("gsort: --backend gpu: ", 0), 0u) << r.err;
  } else {
    EXPECT_EQ(r.err, "gsort: --backend gpu: this gsort was built without CUDA\n");
  }
}

TEST(CliGnuHabits, CpuOnlyBuildNeverSpeaksOfAGpu) {
  if (built_with_cuda()) GTEST_SKIP() << "built with CUDA";
  TempDir dir;
  write_file(dir.file("in.bin"), keyed_records({3, 1, 2}));
  for (const char* backend : {"auto", "cpu"}) {
    const ProcessResult r = run_gsort({"--backend", backend, "--record-size", "8", "-v", dir.file("in.bin")});
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(r.err.find("GPU"), std::string::npos) << "--backend " << backend << ":\n" << r.err;
  }
}

}  // namespace
}  // namespace gsort_test

namespace gsort_test {
namespace {

// A CUDA build on a machine without a usable GPU says so under -v, not that
// the CPU backend beat the GPU's start.
TEST(CliGnuHabits, VerboseBackendLineIsTrueWithoutAGpu) {
  if (!built_with_cuda()) GTEST_SKIP() << "a CPU-only build says nothing of a GPU";
  const ProcessResult probe = run_gsort({"--backend", "gpu", "--record-size", "1", "/dev/null"});
  if (probe.exit_code == 0) GTEST_SKIP() << "a usable GPU is present";
  TempDir dir;
  write_file(dir.file("in.bin"), keyed_records({3, 1, 2}));
  const ProcessResult r = run_gsort({"--record-size", "8", "-v", dir.file("in.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.err.find("faster than the GPU starts"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("backend: the CPU backend sorts ("), std::string::npos) << r.err;
}

// GNU manners: an unambiguous prefix of a long option names it; an
// ambiguous one is refused naming what it matches; no prefix reaches the
// inputs' hidden option.
TEST(CliGnuHabits, LongOptionPrefixes) {
  TempDir dir;
  write_file(dir.file("in.bin"), keyed_records({1, 3, 2}));
  ProcessResult r = run_gsort({"--rev", "--record-s", "8", "--ke", "0:u32", dir.file("in.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, tagged_records({{3, 1}, {2, 2}, {1, 0}}));
  // A prefix of gsort's options only is ambiguous among them...
  r = run_gsort({"--no-", "--record-size", "8", dir.file("in.bin")});
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_NE(r.err.find("'--no-' is ambiguous"), std::string::npos) << r.err;
  // ... and one that names one of sort's long options is that one, as in
  // sort (--compress is --compress-program there), gsort's own aside.
  r = run_gsort({"--compress=gzip", "--compress=zstd", "--record-size", "8", dir.file("in.bin")});
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err, "gsort: multiple compress programs specified\n") << r.err;
  r = run_gsort({"--in", dir.file("in.bin"), "--record-size", "8"});
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err, "gsort: unrecognised option '--in' (try 'gsort --help')\n");
}

// GNU's getopt: with POSIXLY_CORRECT in the environment, options end at
// the first operand, and every later word is an input; without it, options
// and inputs mix. An option's value (-k 1,1, -o FILE, -t,) is no operand.
TEST(CliGnuHabits, PosixlyCorrectEndsOptionsAtTheFirstOperand) {
  TempDir dir;
  write_file(dir.file("in"), "b,2\na,3\nc,1\n");
  ProcessOptions posix;
  posix.env = {"POSIXLY_CORRECT=1"};
  ProcessResult r = run_gsort({dir.file("in"), "-r"});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, "c,1\nb,2\na,3\n") << "without it, -r after the input is an option";
  r = run_gsort({dir.file("in"), "-r"}, posix);
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err, "gsort: cannot open -r: No such file or directory\n");
  r = run_gsort({"-t,", "-k", "2,2", "-o", dir.file("out"), "-r", dir.file("in")}, posix);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(read_file(dir.file("out")), "a,3\nb,2\nc,1\n");
  r = run_gsort({"-rk2,2", "-t", ",", "--", dir.file("in")}, posix);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, "a,3\nb,2\nc,1\n");
}

}  // namespace
}  // namespace gsort_test
