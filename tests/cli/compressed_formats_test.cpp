// zstd, gzip, bzip2 and xz, checked against the tools themselves: the
// system's zstd, gzip, bzip2 and xz compress the input, gsort sorts it
// (files, standard input as a pipe and as a file, --merge, -c), the tool
// decompresses what gsort wrote (-o FILE.zst/.gz/.bz2/.xz), and the result
// must be the reference sort. Also: concatenated frames, members and
// streams, empty data, every level, output that does not depend on
// --parallel, damaged inputs failing cleanly (exit 2, one line, the
// destination as it was), and output names whose suffix names a format
// gsort cannot write. What only zstd does: CompressedZstd below
// (compressed run files: spill_test.cpp).
#include <gtest/gtest.h>
#include <zstd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

#include "tests/support/clean_error.h"
#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

struct Format {
  const char* name;    // for test names
  const char* tool;    // the system's program
  const char* suffix;  // what gsort writes it for
  int min_level, default_level, max_level;
};

const Format kFormats[] = {
    {"zstd", "zstd", ".zst", ZSTD_minCLevel(), 3, ZSTD_maxCLevel()},
    {"gzip", "gzip", ".gz", 1, 6, 9},
    {"bzip2", "bzip2", ".bz2", 1, 9, 9},
    {"xz", "xz", ".xz", 0, 6, 9},
};

// The tool's path, from PATH; empty when it is not installed.
std::string find_tool(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

// The tool (a path) run on `data` with `args` (-c, -dc, -9c ...); its stdout.
std::string run_tool(const std::string& tool, const std::vector<std::string>& args, const std::string& data) {
  std::vector<std::string> argv = {tool};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = data;
  const ProcessResult r = run_process(argv, in);
  EXPECT_EQ(r.status(), "exit 0") << command_line(argv) << ": " << r.err;
  return r.out;
}

// 16-byte records, key: a u32 at offset 0 with many repeats; the rest says
// where a record came from, so stability is visible.
const RefSpec kSpec = {16, {RefKey{0, 4, RefKind::kUnsigned, false, false}}, false, false};

std::string records(size_t n, uint64_t seed, bool compressible = false) {
  Rng rng(seed);
  return numbered_u32_records(rng, n, compressible ? 50 : 1000, compressible);
}

// Most inputs here are named without a suffix, or on standard input: they
// are decoded by their magic, which --decompress asks for (issue 37).
std::vector<std::string> with_spec(std::vector<std::string> args) {
  std::vector<std::string> all = kSpec.args();
  all.push_back("--decompress");
  all.insert(all.end(), args.begin(), args.end());
  return all;
}

class CompressedFormat : public testing::TestWithParam<Format> {
 protected:
  void SetUp() override {
    tool_ = find_tool(GetParam().tool);
    // Not a skip: CI must sort these formats (scripts/install_deps.sh installs the tools).
    ASSERT_FALSE(tool_.empty()) << GetParam().tool << " is not installed (scripts/install_deps.sh installs it)";
  }

  std::string compress(const std::string& data) const { return run_tool(tool_, {"-c"}, data); }
  std::string compress_fast(const std::string& data) const { return run_tool(tool_, {"-1c"}, data); }
  std::string decompress(const std::string& data) const { return run_tool(tool_, {"-dc"}, data); }
  std::string out_name() const { return std::string("out") + GetParam().suffix; }

  std::string tool_;
};

// ---------------------------------------------------------------- inputs

TEST_P(CompressedFormat, FileSortsLikeThePlainOneWhateverItsName) {
  TempDir dir;
  const std::string data = records(20000, 1);
  write_file(dir.file(std::string("in") + GetParam().suffix), compress(data));
  write_file(dir.file("in.bin"), compress(data));  // with --decompress, the magic decides, not the name
  for (const std::string name : {std::string("in") + GetParam().suffix, std::string("in.bin")}) {
    const ProcessResult r = run_gsort(with_spec({dir.file(name), "-o", dir.file("out")}));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(describe_difference(read_file(dir.file("out")), reference_sort(data, kSpec), 16), "") << name;
  }
}

// Without --decompress an input is decoded only by its name: records that
// happen to begin with the format's magic are records (issue 37).
TEST_P(CompressedFormat, UnnamedInputIsReadAsItIsWithoutDecompress) {
  TempDir dir;
  const std::string packed = compress(records(100, 9));
  const std::string data = packed.substr(0, packed.size() - packed.size() % 16);
  write_file(dir.file("in.bin"), data);
  std::vector<std::string> args = kSpec.args();
  args.insert(args.end(), {dir.file("in.bin"), "-o", dir.file("out")});
  const ProcessResult r = run_gsort(args);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(read_file(dir.file("out")), reference_sort(data, kSpec), 16), "");
}

TEST_P(CompressedFormat, StandardInputAsAPipeAndAsAFile) {
  TempDir dir;
  const std::string data = records(30000, 2);
  const std::string packed = compress(data);
  write_file(dir.file("in"), packed);
  ProcessOptions pipe;
  pipe.stdin_kind = StdinKind::kPipe;
  pipe.stdin_data = packed;
  ProcessOptions file;
  file.stdin_kind = StdinKind::kFile;
  file.stdin_path = dir.file("in");
  for (const ProcessOptions& in : {pipe, file}) {
    const ProcessResult r = run_gsort(with_spec({}), in);
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(describe_difference(r.out, reference_sort(data, kSpec), 16), "");
  }
}

TEST_P(CompressedFormat, ConcatenatedMembersDecodeWhole) {
  // What `cat a.zst b.zst`, `cat a.gz b.gz`, pigz, pbzip2 and `xz` on several
  // files make: the tools decode it to the concatenation, and so must gsort.
  // Many pieces of odd sizes, so that their boundaries fall anywhere in
  // gsort's reads.
  TempDir dir;
  Rng sizes(3);
  std::string all, packed;
  for (int i = 0; i < 40; ++i) {
    const std::string piece = records(static_cast<size_t>(sizes.next() % 9000), 100 + i);
    all += piece;
    packed += compress_fast(piece);
  }
  packed += compress_fast("");  // an empty member at the end
  write_file(dir.file("many"), packed);
  const std::string c = records(1500, 4);
  write_file(dir.file("c.bin"), c);
  ProcessResult r = run_gsort(with_spec({dir.file("many"), dir.file("c.bin"), "-o", dir.file("out")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(read_file(dir.file("out")), reference_sort(all + c, kSpec), 16), "");
  // Through a pipe too.
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = packed;
  r = run_gsort(with_spec({}), in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(r.out, reference_sort(all, kSpec), 16), "");
}

TEST_P(CompressedFormat, EmptyInputAndEmptyOutput) {
  TempDir dir;
  write_file(dir.file("empty"), compress(""));
  const ProcessResult r = run_gsort(with_spec({dir.file("empty"), "-o", dir.file(out_name())}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const std::string stored = read_file(dir.file(out_name()));
  EXPECT_FALSE(stored.empty()) << "an empty output is still a valid compressed file";
  EXPECT_EQ(decompress(stored), "");
}

TEST_P(CompressedFormat, SpilledSortMergeAndCheckReadIt) {
  TempDir dir;
  const std::string data = records(40000, 5);
  write_file(dir.file("in"), compress(data));
  ProcessResult r = run_gsort(with_spec({"-S", "128K", dir.file("in"), "-o", dir.file(out_name())}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(decompress(read_file(dir.file(out_name()))), reference_sort(data, kSpec), 16), "");
  // -c reads it: what gsort wrote is sorted, the input is not.
  r = run_gsort(with_spec({"-c", dir.file(out_name())}));
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  r = run_gsort(with_spec({"-c", dir.file("in")}));
  EXPECT_EQ(r.status(), "exit 1") << r.err;
  // -m merges a compressed input with a plain one.
  write_file(dir.file("half"), compress(reference_sort(data.substr(0, 16 * 20000), kSpec)));
  write_file(dir.file("other"), reference_sort(data.substr(16 * 20000), kSpec));
  r = run_gsort(with_spec({"-m", dir.file("half"), dir.file("other"), "-o", dir.file("merged")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(read_file(dir.file("merged")), reference_sort(data, kSpec), 16), "");
}

TEST_P(CompressedFormat, DecompressedSizeNotAWholeNumberOfRecords) {
  TempDir dir;
  write_file(dir.file("odd"), compress(records(100, 6) + "tail!"));  // 1605 bytes
  const ProcessResult r = run_gsort(with_spec({dir.file("odd"), "-o", dir.file("out")}));
  expect_clean_error(r, {dir.file("odd"), "decompressed size", "1605", "16"});
  EXPECT_FALSE(path_exists(dir.file("out")));
}

TEST_P(CompressedFormat, TruncatedInputFailsCleanly) {
  TempDir dir;
  const std::string good = compress(records(20000, 7));
  ASSERT_GT(good.size(), 1000u);
  for (size_t keep : {good.size() - 1, good.size() - 5, good.size() / 2, size_t{12}}) {
    SCOPED_TRACE(keep);
    write_file(dir.file("cut"), good.substr(0, keep));
    write_file(dir.file("out"), "old content");
    ProcessResult r = run_gsort(with_spec({dir.file("cut"), "-o", dir.file("out")}));
    expect_clean_error(r, {"cut", "truncated", GetParam().name});
    EXPECT_EQ(read_file(dir.file("out")), "old content") << "the destination must be left as it was";
    ProcessOptions in;
    in.stdin_kind = StdinKind::kPipe;
    in.stdin_data = good.substr(0, keep);
    r = run_gsort(with_spec({"-o", dir.file("out")}), in);
    expect_clean_error(r, {"standard input", "truncated"});
    EXPECT_EQ(read_file(dir.file("out")), "old content");
    EXPECT_EQ(count_files(dir.path()), 2u) << "no temporary file left behind";
  }
}

TEST_P(CompressedFormat, CorruptedInputFailsCleanly) {
  TempDir dir;
  const std::string good = compress(records(20000, 8));
  std::string bad = good;
  bad[bad.size() / 2] ^= 0x5A;
  write_file(dir.file("bad"), bad);
  write_file(dir.file("junk"), good + "this is not compressed data");
  for (const char* name : {"bad", "junk"}) {
    SCOPED_TRACE(name);
    write_file(dir.file("out"), "old content");
    const ProcessResult r = run_gsort(with_spec({dir.file(name), "-o", dir.file("out")}));
    expect_clean_error(r, {name, "corrupt", GetParam().name});
    EXPECT_EQ(read_file(dir.file("out")), "old content");
    EXPECT_EQ(count_files(dir.path()), 3u) << "no temporary file left behind";
  }
}

// A gzip member's trailer holds the CRC-32 and the length (ISIZE) of its
// data: either wrong is corrupted data, as gzip -t says, in the last
// member and in one before it.
TEST(CompressedGzip, WrongTrailerIsCorrupted) {
  const std::string gzip = find_tool("gzip");
  ASSERT_FALSE(gzip.empty());
  TempDir dir;
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = records(20000, 9);
  const std::string good = run_process({gzip, "-c"}, in).out;
  ASSERT_GT(good.size(), 8u);
  for (const size_t from_end : {size_t{1}, size_t{5}}) {  // ISIZE's top byte, the CRC's
    std::string bad = good;
    bad[bad.size() - from_end] ^= 0x01;
    for (const std::string& data : {bad, bad + good}) {
      SCOPED_TRACE(std::to_string(from_end) + (data.size() > bad.size() ? ", then a good member" : ""));
      write_file(dir.file("bad.gz"), data);
      write_file(dir.file("out"), "old content");
      const ProcessResult r = run_gsort(with_spec({dir.file("bad.gz"), "-o", dir.file("out")}));
      expect_clean_error(r, {"bad.gz", "corrupted gzip data", from_end == 1 ? "length mismatch" : "CRC-32 mismatch"});
      EXPECT_EQ(read_file(dir.file("out")), "old content");
      EXPECT_NE(run_process({gzip, "-t", dir.file("bad.gz")}).exit_code, 0) << "gzip -t accepts it";
    }
  }
}

TEST_P(CompressedFormat, StatsAndVerifyCountTheDecodedRecords) {
  TempDir dir;
  const std::string data = records(20000, 9, true);
  const std::string packed = compress(data);
  write_file(dir.file("in"), packed);
  const ProcessResult r = run_gsort(
      with_spec({"--verify", "--stats", dir.file("s.json"), dir.file("in"), "-o", dir.file(out_name())}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const nlohmann::json s = nlohmann::json::parse(read_file(dir.file("s.json")));
  EXPECT_EQ(s["input"]["records"], 20000u);
  EXPECT_EQ(s["input"]["bytes"], data.size());
  EXPECT_EQ(s["input"]["stored_bytes"], packed.size());
  EXPECT_EQ(s["output"]["records"], 20000u);
  EXPECT_EQ(s["output"]["compressed"], true);
  EXPECT_EQ(s["output"]["format"], GetParam().name);
  EXPECT_EQ(s["output"]["level"], GetParam().default_level);
  EXPECT_EQ(s["output"]["stored_bytes"], read_file(dir.file(out_name())).size());
  EXPECT_EQ(s["verify"]["result"], "ok");
}

// ---------------------------------------------------------------- output

TEST_P(CompressedFormat, SuffixWritesTheFormatForTheToolToRead) {
  TempDir dir;
  // Over 5 MB: several gzip members and bzip2 streams (gsort compresses
  // pieces of the output in parallel), zstd's workers, and more than one
  // write of the output.
  const std::string data = records(350000, 10, true);
  write_file(dir.file("in"), data);
  const ProcessResult r = run_gsort(with_spec({dir.file("in"), "-o", dir.file(out_name())}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const std::string stored = read_file(dir.file(out_name()));
  EXPECT_LT(stored.size(), data.size() / 3) << "compressible records should shrink";
  EXPECT_EQ(describe_difference(decompress(stored), reference_sort(data, kSpec), 16), "");
  // The tool's own integrity test passes too.
  run_tool(tool_, {"-t"}, stored);
}

// Every level of the format; of zstd's thousands (its negative levels are
// ever faster) the lowest, those about 0, the default and the highest.
std::vector<int> levels_to_try(const Format& f) {
  if (f.max_level - f.min_level > 20) return {f.min_level, -1, 0, 1, f.default_level, f.max_level};
  std::vector<int> levels;
  for (int level = f.min_level; level <= f.max_level; ++level) levels.push_back(level);
  return levels;
}

TEST_P(CompressedFormat, EveryLevelAndTheSuffixInCapitals) {
  TempDir dir;
  const std::string data = records(30000, 11, true);
  write_file(dir.file("in"), data);
  const std::string expected = reference_sort(data, kSpec);
  const Format& f = GetParam();
  for (const int level : levels_to_try(f)) {
    SCOPED_TRACE(level);
    const ProcessResult r = run_gsort(
        with_spec({dir.file("in"), "-o", dir.file(out_name()), "--compress-output=" + std::to_string(level)}));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(describe_difference(decompress(read_file(dir.file(out_name()))), expected, 16), "");
  }
  // A bare --compress-output is the format's default level, as the suffix alone.
  ProcessResult r = run_gsort(with_spec({dir.file("in"), "-o", dir.file("a" + std::string(f.suffix))}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  r = run_gsort(with_spec({dir.file("in"), "-o", dir.file("b" + std::string(f.suffix)),
                           "--compress-output=" + std::to_string(f.default_level)}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(read_file(dir.file("a" + std::string(f.suffix))), read_file(dir.file("b" + std::string(f.suffix))));
  // OUT.GZ is gzip too.
  std::string upper = std::string("UPPER") + f.suffix;
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  r = run_gsort(with_spec({dir.file("in"), "-o", dir.file(upper)}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(decompress(read_file(dir.file(upper))), expected, 16), "");
}

TEST_P(CompressedFormat, LevelsOutOfRangeAreUsageErrors) {
  TempDir dir;
  write_file(dir.file("in"), records(10, 12));
  const Format& f = GetParam();
  for (int level : {f.min_level - 1, f.max_level + 1, 99}) {
    SCOPED_TRACE(level);
    const ProcessResult r = run_gsort(
        with_spec({dir.file("in"), "-o", dir.file(out_name()), "--compress-output=" + std::to_string(level)}));
    expect_clean_error(r, {"--compress-output", std::string(f.name) + " level " + std::to_string(level)});
    EXPECT_FALSE(path_exists(dir.file(out_name())));
  }
}

TEST_P(CompressedFormat, OutputBytesDoNotDependOnTheThreads) {
  TempDir dir;
  // 4 MB at level 1: several gzip members, bzip2 streams (100 kB) and xz
  // blocks (3 MiB), compressed on several threads at once; zstd with one
  // worker and more (where libzstd has threads).
  const std::string data = records(250000, 13, true);
  write_file(dir.file("in"), data);
  std::string first;
  for (const char* threads : {"1", "2", "3"}) {
    SCOPED_TRACE(threads);
    const ProcessResult r = run_gsort(
        with_spec({"--parallel", threads, "--compress-output=1", dir.file("in"), "-o", dir.file(out_name())}));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    const std::string stored = read_file(dir.file(out_name()));
    if (first.empty()) first = stored;
    EXPECT_TRUE(stored == first) << "the bytes differ with --parallel " << threads;
  }
  EXPECT_EQ(describe_difference(decompress(first), reference_sort(data, kSpec), 16), "");
}

void PrintTo(const Format& f, std::ostream* os) { *os << f.name; }  // gtest's "GetParam() = gzip"

INSTANTIATE_TEST_SUITE_P(Tools, CompressedFormat, testing::ValuesIn(kFormats),
                         [](const testing::TestParamInfo<Format>& p) { return std::string(p.param.name); });

// ------------------------------------------------- what only zstd does

TEST(CompressedZstd, ShortPlainStdinIsNotMistakenForZstd) {
  // Fewer bytes than the magic, and plain records: both read as they are.
  for (size_t n : {0, 1, 2, 100}) {
    const std::string data = records(n, 3);
    ProcessOptions in;
    in.stdin_kind = StdinKind::kPipe;
    in.stdin_data = data;
    const ProcessResult r = run_gsort(with_spec({}), in);
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(describe_difference(r.out, reference_sort(data, kSpec), 16), "") << n;
  }
}

// Without a suffix that names a format (standard output here) the output
// is zstd, at any of its levels: 0 (its default) and the negative ones too.
TEST(CompressedZstd, CompressOutputOptionAlsoOnStdoutAndWithLevels) {
  const std::string zstd = find_tool("zstd");
  ASSERT_FALSE(zstd.empty()) << "zstd is not installed (scripts/install_deps.sh installs it)";
  const std::string data = records(5000, 12, true);
  for (const char* option : {"--compress-output", "--compress-output=1", "--compress-output=19",
                             "--compress-output=-5", "--compress-output=0"}) {
    SCOPED_TRACE(option);
    ProcessOptions in;
    in.stdin_kind = StdinKind::kPipe;
    in.stdin_data = data;
    const ProcessResult r = run_gsort(with_spec({option}), in);
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    ASSERT_EQ(r.out.substr(0, 4), "\x28\xB5\x2F\xFD") << "not zstd's magic";
    EXPECT_EQ(describe_difference(run_tool(zstd, {"-dc"}, r.out), reference_sort(data, kSpec), 16), "");
  }
}

TEST(CompressedZstd, UniqueSpilledSortIntoCompressedOutput) {
  const std::string zstd = find_tool("zstd");
  ASSERT_FALSE(zstd.empty()) << "zstd is not installed (scripts/install_deps.sh installs it)";
  TempDir dir;
  const std::string data = records(30000, 13, true);
  write_file(dir.file("in"), data);
  const ProcessResult r = run_gsort(with_spec({"-u", "-S", "100K", dir.file("in"), "-o", dir.file("u.zst")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  RefSpec unique = kSpec;
  unique.unique = true;
  EXPECT_EQ(describe_difference(run_tool(zstd, {"-dc"}, read_file(dir.file("u.zst"))), reference_sort(data, unique),
                                16),
            "");
}

// Levels that are no number or out of zstd's range, for the output and for
// the run files (--compress-temp, zstd whatever the output's format).
TEST(CompressedZstd, BadLevelsAreUsageErrors) {
  TempDir dir;
  write_file(dir.file("in"), records(10, 14));
  for (const char* option :
       {"--compress-output=fast", "--compress-temp=x", "--compress-temp=1000", "--compress-temp="}) {
    const ProcessResult r = run_gsort(with_spec({option, dir.file("in"), "-o", dir.file("out")}));
    expect_clean_error(r, {"level|--compress"});
    EXPECT_FALSE(path_exists(dir.file("out"))) << option;
  }
  // A bare --compress-temp does not swallow the next argument.
  const ProcessResult r = run_gsort(with_spec({"--compress-temp", dir.file("in"), "-o", dir.file("out")}));
  EXPECT_EQ(r.status(), "exit 0") << r.err;
}

// ------------------------------------------------------- output names

TEST(CompressedOutputNames, FormatsGsortCannotWriteAreUsageErrors) {
  TempDir dir;
  write_file(dir.file("in"), records(10, 14));
  for (const char* name : {"out.lz4", "out.lz", "out.lzma", "out.zip", "out.Z", "out.br", "out.7z", "OUT.LZ4"}) {
    SCOPED_TRACE(name);
    for (const std::vector<std::string>& extra : {std::vector<std::string>{}, {"--compress-output"}}) {
      std::vector<std::string> args = with_spec({dir.file("in"), "-o", dir.file(name)});
      args.insert(args.end(), extra.begin(), extra.end());
      const ProcessResult r = run_gsort(args);
      expect_clean_error(r, {name, "cannot write"});
      EXPECT_FALSE(path_exists(dir.file(name)));
    }
  }
}

TEST(CompressedOutputNames, AliasesAndPlainNames) {
  TempDir dir;
  const std::string data = records(1000, 15);
  write_file(dir.file("in"), data);
  // .tgz is gzip, .txz xz; a name that only contains a suffix, or is one
  // (a hidden file called .gz), stays plain.
  const std::vector<std::pair<std::string, std::string>> names = {
      {"out.tgz", "\x1f\x8b"}, {"out.txz", "\xfd" "7zXZ"}, {"out.tbz2", "BZh"}, {"out.gz.bin", ""}, {".gz", ""}};
  for (const auto& [name, magic] : names) {
    SCOPED_TRACE(name);
    const ProcessResult r = run_gsort(with_spec({dir.file("in"), "-o", dir.file(name)}));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    const std::string stored = read_file(dir.file(name));
    if (magic.empty()) {
      EXPECT_TRUE(stored == reference_sort(data, kSpec)) << "not the plain records";
    } else {
      EXPECT_TRUE(stored.substr(0, magic.size()) == magic) << "not the format's magic";
    }
  }
}

}  // namespace
}  // namespace gsort_test
