// The gsort program on text lines, end to end, beside GNU sort (LC_ALL=C):
// pipes larger than the pipe buffer, compressed inputs and outputs,
// several inputs (one without its last newline), -o onto an input, -c and
// -C, -m, -z, spilled sorts under a small -S (-h's too), --stats, and
// empty input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/support/line_gen.h"
#include "tests/support/process.h"
#include "tests/support/sanitizers.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

ProcessResult gsort(std::vector<std::string> args, const ProcessOptions& p = c_locale()) {
  args.insert(args.begin(), GSORT_BINARY);
  return run_process(args, p);
}

ProcessResult gnu(std::vector<std::string> args, const ProcessOptions& p = c_locale()) {
  args.insert(args.begin(), "/usr/bin/sort");
  return run_process(args, p);
}

// Lines of a log: a timestamp, a level, a few fields, lengths 20 to 300.
std::string log_lines(Rng& rng, size_t bytes) {
  static const char* const kLevels[] = {"INFO", "WARN", "ERROR", "DEBUG"};
  std::string s;
  while (s.size() < bytes) {
    char ts[40];
    std::snprintf(ts, sizeof ts, "2024-03-%02d %02d:%02d:%02d.%03d ", static_cast<int>(rng.range(1, 28)),
                  static_cast<int>(rng.below(24)), static_cast<int>(rng.below(60)), static_cast<int>(rng.below(60)),
                  static_cast<int>(rng.below(1000)));
    s += ts;
    s += kLevels[rng.below(4)];
    s += " user=" + std::to_string(rng.below(5000)) + " took=" + std::to_string(rng.below(100000)) + "ms ";
    s += std::string(rng.below(240), static_cast<char>('a' + rng.below(26)));
    s += '\n';
  }
  return s;
}

bool have_tool(const char* path) { return ::access(path, X_OK) == 0; }

class LineCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_tool("/usr/bin/sort")) GTEST_SKIP() << "no GNU sort";
  }
  TempDir dir;
  Rng rng{12345};
};

TEST_F(LineCli, PipeLargerThanThePipeBuffer) {
  const std::string data = log_lines(rng, 12 << 20);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{}, {"-k3,3", "-k1,2r"}, {"-t=", "-k3,3n"}}) {
    const ProcessResult ours = gsort(args, c_locale(data));
    ASSERT_EQ(ours.exit_code, 0) << ours.err;
    const ProcessResult theirs = gnu(args, c_locale(data));
    EXPECT_TRUE(ours.out == theirs.out) << join_args(args);
  }
}

TEST_F(LineCli, SpilledUnderASmallBudgetAndMerged) {
  const std::string data = log_lines(rng, 6 << 20);
  write_file(dir.file("in"), data);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-S", "1M"}, {"-S", "1M", "-u", "-k4,4"}, {"-S", "1M", "--batch-size", "2", "-r"},
                                             {"-S", "1M", "--compress-temp", "-k2,2", "-s"}}) {
    std::vector<std::string> ours_args = args;
    ours_args.insert(ours_args.end(), {"-v", "-T", dir.path(), dir.file("in")});
    const ProcessResult ours = gsort(ours_args);
    ASSERT_EQ(ours.exit_code, 0) << ours.err;
    EXPECT_NE(ours.err.find(" runs, "), std::string::npos) << ours.err;
    EXPECT_EQ(ours.err.find(" 0 runs, "), std::string::npos) << "spilled: " << ours.err;
    std::vector<std::string> gnu_args(args.begin() + 2, args.end());
    if (!gnu_args.empty() && gnu_args[0] == "--batch-size") gnu_args.erase(gnu_args.begin(), gnu_args.begin() + 2);
    if (!gnu_args.empty() && gnu_args[0] == "--compress-temp") gnu_args.erase(gnu_args.begin());
    gnu_args.push_back(dir.file("in"));
    EXPECT_TRUE(ours.out == gnu(gnu_args).out) << join_args(args);
  }
}

// du -h's lines (a size with a unit, a tab, a path), sorted by -h under a
// small -S: spilled runs, merged; then checked with -c and merged with -m.
TEST_F(LineCli, HumanSizesSpilledAndMergedAsGnuSortsThem) {
  std::string data;
  // 4 MB; a quarter under the sanitizers, still two runs' worth under -S 1M.
  while (data.size() < (4 << 20) / kSanitizerShare) {
    const char* const kUnits[] = {"", "K", "M", "G", "T", "k"};
    data += (rng.chance(5) ? "-" : "") + std::to_string(rng.below(1024));
    if (rng.chance(40)) data += "." + std::to_string(rng.below(10));
    data += kUnits[rng.below(6)];
    data += "\t/data/dir" + std::to_string(rng.below(100000)) + "\n";
  }
  write_file(dir.file("in"), data);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"-h"}, {"-hr"}, {"-k1,1h", "-u"}, {"-s", "-k1,1hr"}, {"-t", "\t", "-k2,2", "-k1,1h"}}) {
    std::vector<std::string> ours_args = {"-S", "1M", "-v", "-T", dir.path(), "-o", dir.file("out")};
    ours_args.insert(ours_args.end(), args.begin(), args.end());
    ours_args.push_back(dir.file("in"));
    const ProcessResult ours = gsort(ours_args);
    ASSERT_EQ(ours.exit_code, 0) << ours.err;
    EXPECT_EQ(ours.err.find(" 0 runs, "), std::string::npos) << "spilled: " << ours.err;
    std::vector<std::string> gnu_args = args;
    gnu_args.push_back(dir.file("in"));
    const std::string expected = gnu(gnu_args).out;
    EXPECT_TRUE(read_file(dir.file("out")) == expected) << join_args(args);
    std::vector<std::string> check = args;
    check.insert(check.end(), {"-c", dir.file("out")});
    EXPECT_EQ(gsort(check).exit_code, 0) << join_args(args);
    std::vector<std::string> merge = args;
    merge.insert(merge.end(), {"-m", dir.file("out"), dir.file("out")});
    gnu_args = merge;
    EXPECT_TRUE(gsort(merge).out == gnu(gnu_args).out) << join_args(args);
  }
}

// gsort-gen's text lines (the benchmark's data sets): the same bytes from
// the same seed, lines of the lengths promised, sorted under a small -S
// (runs spilled, merged on all threads) as GNU sort sorts them.
TEST_F(LineCli, GeneratedTextSortsAsGnuSortsIt) {
  for (const char* format : {"logs", "csv"}) {
    const std::vector<std::string> gen = {"--format", format, "--records", "60000", "--seed", "3", "-o", dir.file(format)};
    ASSERT_EQ(run_gsort_gen(gen).exit_code, 0);
    const std::string data = read_file(dir.file(format));
    ASSERT_EQ(run_gsort_gen({"--format", format, "--records", "60000", "--seed", "3"}).out, data);
    size_t lines = 0;
    for (size_t at = 0, end; at < data.size(); at = end + 1, ++lines) {
      end = data.find('\n', at);
      ASSERT_NE(end, std::string::npos);
      if (std::string(format) == "logs") ASSERT_TRUE(end - at + 1 >= 20 && end - at + 1 <= 300) << end - at;
    }
    EXPECT_EQ(lines, 60000u);
  }
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {dir.file("logs")}, {"-t,", "-k3,3n", dir.file("csv")}, {"-t,", "-k2,2", "-k1,1n", dir.file("csv")}}) {
    std::vector<std::string> ours_args = {"-S", "1M", "-T", dir.path()};
    ours_args.insert(ours_args.end(), args.begin(), args.end());
    const ProcessResult ours = gsort(ours_args);
    ASSERT_EQ(ours.exit_code, 0) << ours.err;
    EXPECT_TRUE(ours.out == gnu(args).out) << join_args(args);
  }
}

TEST_F(LineCli, FewDescriptorsMergeRunsEarly) {
  const std::string data = log_lines(rng, 8 << 20);
  write_file(dir.file("in"), data);
  ProcessOptions p = c_locale();
  p.open_file_limit = 40;  // room for a handful of waiting runs
  const ProcessResult ours = gsort({"-S", "1M", "-T", dir.path(), "--stats", dir.file("stats"), dir.file("in")}, p);
  ASSERT_EQ(ours.exit_code, 0) << ours.err;
  EXPECT_TRUE(ours.out == gnu({dir.file("in")}).out);
  const std::string stats = read_file(dir.file("stats"));
  EXPECT_EQ(stats.find("\"early_merges\":0"), std::string::npos) << stats;
}

// Runs merged in passes (src/merge/merge_in_passes.h, as the records'):
// with --batch-size 2 and 3 the runs of -S 1M take several passes, and the
// output is still GNU sort's.
TEST_F(LineCli, MergePassesUnderASmallBatchSize) {
  const std::string data = log_lines(rng, 4 << 20);
  write_file(dir.file("in"), data);
  const std::string expected = gnu({dir.file("in")}).out;
  for (const char* batch : {"--batch-size=2", "--batch-size=3"}) {
    const ProcessResult ours =
        gsort({"-S", "1M", batch, "-T", dir.path(), "--stats", dir.file("stats"), dir.file("in")}, c_locale());
    ASSERT_EQ(ours.exit_code, 0) << ours.err;
    EXPECT_TRUE(ours.out == expected) << batch;
    const nlohmann::json s = nlohmann::json::parse(read_file(dir.file("stats")));
    EXPECT_GT(s["runs"].get<uint64_t>(), 8u) << batch;
    EXPECT_GT(s["merge_passes"].get<uint64_t>(), 2u) << batch;
  }
}

// --verify numbers a line out of order by its place in the output where
// the writer's batch is summed by several tasks and the line lies in a
// later one: 100,001 lines, each value twice, one out of order at 70,001.
TEST_F(LineCli, VerifyNumbersADisorderInALaterTaskOfTheBatch) {
  std::string data;
  for (int i = 0; i < 50000; ++i) {
    char line[8];
    std::snprintf(line, sizeof line, "%06d\n", i);
    if (i == 35000) data += "000001\n";
    data += line;
    data += line;
  }
  write_file(dir.file("in"), data);
  const ProcessResult unique = gsort({"-m", "-u", "--verify", dir.file("in"), "-o", dir.file("out")});
  EXPECT_EQ(unique.exit_code, 2);
  EXPECT_EQ(unique.err, "gsort: verification failed: output line 35001 does not sort after the one above it\n");
  const ProcessResult all = gsort({"-m", "--verify", dir.file("in"), "-o", dir.file("out")});
  EXPECT_EQ(all.exit_code, 2);
  EXPECT_EQ(all.err, "gsort: verification failed: output line 70001 sorts before the one above it\n");
}

TEST_F(LineCli, CompressedInputsAndOutputs) {
  const std::string data = log_lines(rng, 2 << 20);
  write_file(dir.file("in"), data);
  const std::string expected = gnu({dir.file("in")}).out;
  const std::pair<const char*, const char*> tools[] = {{"gzip", ".gz"}, {"zstd", ".zst"}, {"xz", ".xz"}, {"bzip2", ".bz2"}};
  for (const auto& [tool, suffix] : tools) {
    if (!have_tool((std::string("/usr/bin/") + tool).c_str())) continue;
    const std::string packed = dir.file(std::string("in") + suffix);
    ASSERT_EQ(run_process({"/bin/sh", "-c", std::string(tool) + " -c < " + dir.file("in") + " > " + packed}).exit_code, 0);
    const ProcessResult ours = gsort({packed});
    ASSERT_EQ(ours.exit_code, 0) << tool << ": " << ours.err;
    EXPECT_TRUE(ours.out == expected) << tool;
    // And through a pipe, where --decompress=auto reads the magic.
    const ProcessResult piped = gsort({"--decompress=auto"}, c_locale(read_file(packed)));
    EXPECT_TRUE(piped.out == expected) << tool << " on a pipe";
  }
  ASSERT_EQ(gsort({dir.file("in"), "-o", dir.file("out.gz")}).exit_code, 0);
  const ProcessResult back = run_process({"/bin/sh", "-c", "gzip -dc < " + dir.file("out.gz")});
  EXPECT_TRUE(back.out == expected) << "-o FILE.gz is gzip";
}

// Issue 37: a text that begins with a compressed format's magic is text,
// as sort reads it, in a file and on a pipe; --decompress=auto decodes by
// the magic, a .gz name without it.
TEST_F(LineCli, TextBeginningWithAMagicSortsAsText) {
  for (const std::string magic : {std::string("BZh9"), std::string("\x1f\x8b\x08"), std::string("(\xb5/\xfd"),
                                  std::string("\xfd" "7zXZ\0", 6)}) {
    const std::string text = magic + "zz\nb\na\n";
    write_file(dir.file("magic.txt"), text);
    const std::string expected = gnu({dir.file("magic.txt")}).out;
    EXPECT_EQ(expected.size(), text.size());
    const ProcessResult from_file = gsort({dir.file("magic.txt")});
    EXPECT_EQ(from_file.exit_code, 0) << from_file.err;
    EXPECT_EQ(from_file.out, expected);
    EXPECT_EQ(gsort({}, c_locale(text)).out, expected) << "on a pipe";
  }
  write_file(dir.file("plain"), "b\na\n");
  ASSERT_EQ(run_process({"/bin/sh", "-c", "gzip -c < " + dir.file("plain") + " > " + dir.file("p.gz")}).exit_code, 0);
  EXPECT_EQ(gsort({dir.file("p.gz")}).out, "a\nb\n") << "a .gz name is decoded";
  const std::string packed = read_file(dir.file("p.gz"));
  EXPECT_EQ(gsort({"--decompress"}, c_locale(packed)).out, "a\nb\n") << "--decompress sniffs standard input";
  EXPECT_NE(gsort({}, c_locale(packed)).out, "a\nb\n") << "without it, gzip bytes are lines as they are";
}

TEST_F(LineCli, SeveralInputsEachEndsItsLastLine) {
  write_file(dir.file("a"), "b\nz");  // no final newline: "z" stays a line of its own
  write_file(dir.file("b"), "a\ny\n");
  write_file(dir.file("c"), "");
  const ProcessResult ours = gsort({dir.file("a"), dir.file("c"), dir.file("b")});
  EXPECT_EQ(ours.out, "a\nb\ny\nz\n");
  EXPECT_EQ(ours.out, gnu({dir.file("a"), dir.file("c"), dir.file("b")}).out);
  EXPECT_EQ(gsort({}, c_locale("x")).out, "x\n") << "a last line gets its newline";
  EXPECT_EQ(gsort({dir.file("c")}).out, "") << "empty in, empty out";
}

TEST_F(LineCli, OutputOntoAnInput) {
  write_file(dir.file("f"), "3\n1\n2\n");
  ASSERT_EQ(gsort({"-o", dir.file("f"), dir.file("f")}).exit_code, 0);
  EXPECT_EQ(read_file(dir.file("f")), "1\n2\n3\n");
}

TEST_F(LineCli, CheckAndQuietCheck) {
  write_file(dir.file("sorted"), "a\nb\nb\nc\n");
  write_file(dir.file("unsorted"), "a\nc\nb\n");
  EXPECT_EQ(gsort({"-c", dir.file("sorted")}).exit_code, 0);
  const ProcessResult bad = gsort({"-c", dir.file("unsorted")});
  EXPECT_EQ(bad.exit_code, 1);
  // GNU's words after the program's name: FILE:LINE: disorder: TEXT.
  const auto words = [](const std::string& err) { return err.substr(err.find(": ")); };
  EXPECT_EQ(words(gnu({"-c", dir.file("unsorted")}).err), words(bad.err));
  const ProcessResult dup = gsort({"-c", "-u", dir.file("sorted")});
  EXPECT_EQ(dup.exit_code, 1);
  EXPECT_EQ(words(gnu({"-c", "-u", dir.file("sorted")}).err), words(dup.err));
  const ProcessResult quiet = gsort({"-C", dir.file("unsorted")});
  EXPECT_EQ(quiet.exit_code, 1);
  EXPECT_EQ(quiet.err, "");
  const ProcessResult piped = gsort({"-c", "-k2,2n", "-t,"}, c_locale("a,2\nb,10\nc,3\n"));
  EXPECT_EQ(piped.err, "gsort: -:3: disorder: c,3\n");
}

TEST_F(LineCli, MergeSortedInputs) {
  std::vector<std::string> files;
  for (int f = 0; f < 5; ++f) {
    const std::string path = dir.file("part" + std::to_string(f));
    write_file(dir.file("raw"), log_lines(rng, 300000));
    const ProcessResult sorted = gnu({"-k4,4", dir.file("raw")});
    write_file(path, sorted.out);
    files.push_back(path);
  }
  for (const std::vector<std::string>& extra : std::vector<std::vector<std::string>>{{}, {"-u"}, {"--batch-size", "2"}}) {
    std::vector<std::string> args = {"-m", "-k4,4"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), files.begin(), files.end());
    const ProcessResult ours = gsort(args);
    ASSERT_EQ(ours.exit_code, 0) << ours.err;
    std::vector<std::string> gnu_args = {"-m", "-k4,4"};
    if (!extra.empty() && extra[0] == "-u") gnu_args.push_back("-u");
    gnu_args.insert(gnu_args.end(), files.begin(), files.end());
    EXPECT_TRUE(ours.out == gnu(gnu_args).out) << join_args(extra);
  }
}

// The shuffled numbers merged with themselves: every line twice, in GNU
// sort -m's order, on one thread and on several, to standard output and
// to a mapped -o.
TEST_F(LineCli, MergeOfUnsortedInputsKeepsEveryLineInGnuOrder) {
  std::vector<uint64_t> numbers(100000);
  for (uint64_t i = 0; i < numbers.size(); ++i) numbers[i] = i + 1;
  for (uint64_t i = numbers.size() - 1; i > 0; --i) std::swap(numbers[i], numbers[rng.below(i + 1)]);
  std::string data;
  for (uint64_t n : numbers) data += std::to_string(n) + "\n";
  write_file(dir.file("a"), data);
  const std::string expected = gnu({"-m", dir.file("a"), dir.file("a")}).out;
  ASSERT_EQ(expected.size(), 2 * data.size());
  for (const char* threads : {"1", "2", "16"}) {
    const ProcessResult piped = gsort({"--parallel", threads, "-m", dir.file("a"), dir.file("a")});
    ASSERT_EQ(piped.exit_code, 0) << piped.err;
    EXPECT_TRUE(piped.out == expected) << "--parallel " << threads;
    const ProcessResult mapped = gsort({"--parallel", threads, "-m", dir.file("a"), dir.file("a"), "-o", dir.file("m")});
    ASSERT_EQ(mapped.exit_code, 0) << mapped.err;
    EXPECT_TRUE(read_file(dir.file("m")) == expected) << "-o, --parallel " << threads;
  }
}

// A window grows with its source: 32 one-line inputs under the default
// budget take little memory (each took a window of the budget's share).
TEST_F(LineCli, MergeOfSmallInputsTakesLittleMemory) {
  std::vector<std::string> args = {"-m"};
  for (int f = 0; f < 32; ++f) {
    args.push_back(dir.file("one" + std::to_string(f)));
    write_file(args.back(), std::to_string(f) + "\n");
  }
  const std::string expected = gnu(args).out;
  // gsort's own peak (--stats: VmHWM); the child's rusage would also hold
  // this test process's size at the exec.
  args.insert(args.end(), {"--stats", dir.file("s.json")});
  const ProcessResult ours = gsort(args);
  ASSERT_EQ(ours.exit_code, 0) << ours.err;
  EXPECT_EQ(ours.out, expected);
  const nlohmann::json stats = nlohmann::json::parse(read_file(dir.file("s.json")));
  EXPECT_LT(stats["memory"]["peak_host_bytes"].get<uint64_t>(), uint64_t{100} << 20) << "32 one-line inputs";
}

TEST_F(LineCli, ZeroTerminatedLinesHoldNewlines) {
  const std::string data("b\nx\0a y\0a\nz\0", 12);
  const ProcessResult ours = gsort({"-z", "-k2,2"}, c_locale(data));
  EXPECT_EQ(ours.out, gnu({"-z", "-k2,2"}, c_locale(data)).out);
}

TEST_F(LineCli, VerifyChecksOrderCountAndLines) {
  const std::string data = log_lines(rng, 3 << 20);
  write_file(dir.file("in"), data);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {}, {"-u", "-k4,4"}, {"-S", "1M", "-u", "-k3,3"}, {"-S", "1M", "-r"}}) {
    std::vector<std::string> ours_args = args;
    ours_args.insert(ours_args.end(), {"--verify", "-v", "-T", dir.path(), dir.file("in")});
    const ProcessResult ours = gsort(ours_args);
    ASSERT_EQ(ours.exit_code, 0) << ours.err;
    EXPECT_NE(ours.err.find("lines in order, matching the input"), std::string::npos) << ours.err;
    std::vector<std::string> gnu_args = args;
    if (gnu_args.size() > 1 && gnu_args[0] == "-S") gnu_args.erase(gnu_args.begin(), gnu_args.begin() + 2);
    gnu_args.push_back(dir.file("in"));
    EXPECT_TRUE(ours.out == gnu(gnu_args).out) << join_args(args);
  }
  // -m trusts its inputs; with --verify, one out of order fails the run.
  write_file(dir.file("a"), "b\na\n");
  write_file(dir.file("b"), "c\n");
  const ProcessResult bad = gsort({"-m", "--verify", dir.file("a"), dir.file("b"), "-o", dir.file("out")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "gsort: verification failed: output line 2 sorts before the one above it\n");
  EXPECT_FALSE(path_exists(dir.file("out")));
  // Under -u the number is the line's in the output, the dropped lines not counted.
  write_file(dir.file("u"), "a\na\na\nc\nb\n");
  const ProcessResult unique = gsort({"-m", "-u", "--verify", dir.file("u"), "-o", dir.file("out")});
  EXPECT_EQ(unique.exit_code, 2);
  EXPECT_EQ(unique.err, "gsort: verification failed: output line 3 does not sort after the one above it\n");
  EXPECT_EQ(gsort({"-m", "--verify", dir.file("b"), dir.file("b")}).out, "c\nc\n");
}

TEST_F(LineCli, StatsSayLines) {
  write_file(dir.file("in"), "b\na\n");
  ASSERT_EQ(gsort({dir.file("in"), "-o", dir.file("out"), "--stats", dir.file("stats.json")}).exit_code, 0);
  const std::string stats = read_file(dir.file("stats.json"));
  EXPECT_NE(stats.find("\"lines\":true"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"records\":2"), std::string::npos) << stats;
}

// The output's way, as for records: a new regular file is filled through a
// mapping (in memory and by the merge), a test may force the one write()
// stream, standard output is a stream; the bytes are GNU sort's each way.
// --compress-temp=auto compresses line runs where the temp device is slow.
TEST_F(LineCli, OutputWaysAndAutoCompressedRuns) {
  const std::string data = log_lines(rng, 3 << 20);
  write_file(dir.file("in"), data);
  const std::string expected = gnu({dir.file("in")}).out;
  const auto way = [&](std::vector<std::string> args, const std::vector<std::string>& env) {
    args.insert(args.begin(), GSORT_HOOKS_BINARY);
    args.insert(args.end(), {"-T", dir.path(), "--stats", dir.file("s.json"), dir.file("in"), "-o", dir.file("out")});
    ProcessOptions p = c_locale();
    p.env.insert(p.env.end(), env.begin(), env.end());
    const ProcessResult r = run_process(args, p);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(read_file(dir.file("out")) == expected) << join_args(args);
    return read_file(dir.file("s.json"));
  };
  EXPECT_NE(way({}, {}).find("\"way\":\"mapped\""), std::string::npos);
  EXPECT_NE(way({}, {"GSORT_TEST_OUTPUT_WAY=stream"}).find("\"way\":\"stream\""), std::string::npos);
  // Runs on a slow device that the page cache does not hold: compressed.
  const std::string spilled = way({"-S", "1M"}, {"GSORT_TEST_TEMP_DEVICE=0:1"});
  EXPECT_NE(spilled.find("\"way\":\"mapped\""), std::string::npos) << spilled;
  EXPECT_NE(spilled.find("\"compressed\":true,\"zstd_level\":1"), std::string::npos) << spilled;
  EXPECT_NE(spilled.find("\"compress_mode\":\"auto\""), std::string::npos) << spilled;
  // Standard output that is a regular file (the harness's) is mapped too
  // (issue 38); a pipe is one stream.
  const ProcessResult to_file = gsort({"--stats", dir.file("s.json"), dir.file("in")});
  EXPECT_TRUE(to_file.out == expected);
  EXPECT_NE(read_file(dir.file("s.json")).find("\"way\":\"mapped\""), std::string::npos);
  const ProcessResult piped = run_process(
      {"/bin/sh", "-c", "\"$0\" --stats \"$1\" \"$2\" | cat", gsort_argv({}).front(), dir.file("s.json"), dir.file("in")},
      c_locale());
  EXPECT_TRUE(piped.out == expected);
  EXPECT_NE(read_file(dir.file("s.json")).find("\"way\":\"stream\""), std::string::npos);
}

TEST_F(LineCli, TextGoesToATerminalAndMpiIsNotNeeded) {
  const ProcessResult help = gsort({"--help"});
  EXPECT_NE(help.out.find("Sort text lines (the default)"), std::string::npos);
}

}  // namespace
}  // namespace gsort_test
