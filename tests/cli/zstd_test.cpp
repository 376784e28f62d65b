// zstd: compressed inputs (files and pipes, recognised by their magic),
// compressed output (-o FILE.zst, --compress-output), compressed run files
// (--compress-temp) giving byte-identical results, and damaged compressed
// data failing cleanly: exit 2, one line, nothing at the destination.
// (Compressed run files on the library: unit/zstd_run_file_test.cpp.)
#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/core/errors.h"
#include "tests/support/clean_error.h"
#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// ---------------------------------------------------------------- helpers

std::string zstd_compress(const std::string& data, int level = 3, bool checksum = true) {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, checksum ? 1 : 0);
  std::string out(ZSTD_compressBound(data.size()), '\0');
  const size_t n = ZSTD_compress2(c, out.data(), out.size(), data.data(), data.size());
  ZSTD_freeCCtx(c);
  if (ZSTD_isError(n)) throw std::runtime_error(ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

// Decodes a whole zstd stream (any number of frames, sizes unknown);
// throws on damaged or truncated data.
std::string zstd_decompress(const std::string& data) {
  ZSTD_DCtx* d = ZSTD_createDCtx();
  std::string out;
  std::vector<char> buf(1 << 16);
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  size_t last = 0;
  for (;;) {
    ZSTD_outBuffer o{buf.data(), buf.size(), 0};
    last = ZSTD_decompressStream(d, &o, &in);
    if (ZSTD_isError(last)) {
      ZSTD_freeDCtx(d);
      throw std::runtime_error(ZSTD_getErrorName(last));
    }
    out.append(buf.data(), o.pos);
    // Done when the input is used up and the decoder holds nothing more:
    // a frame just ended, or it could not even fill the buffer.
    if (in.pos == in.size && (last == 0 || o.pos < o.size)) break;
  }
  ZSTD_freeDCtx(d);
  if (last != 0) throw std::runtime_error("truncated zstd stream");
  return out;
}

bool has_zstd_magic(const std::string& s) {
  return s.size() >= 4 && static_cast<uint8_t>(s[0]) == 0x28 && static_cast<uint8_t>(s[1]) == 0xB5 &&
         static_cast<uint8_t>(s[2]) == 0x2F && static_cast<uint8_t>(s[3]) == 0xFD;
}

// 16-byte records, key: a u32 at offset 0 with many repeats; the rest of
// the record says where it came from, so stability is visible.
const RefSpec kSpec = {16, {RefKey{0, 4, RefKind::kUnsigned, false, false}}, false, false};

std::string records(size_t n, uint64_t seed, bool compressible = false) {
  Rng rng(seed);
  return numbered_u32_records(rng, n, compressible ? 50 : 1000, compressible);
}

std::vector<std::string> with_spec(std::vector<std::string> args) {
  std::vector<std::string> all = kSpec.args();
  all.insert(all.end(), args.begin(), args.end());
  return all;
}

// ------------------------------------------------------ compressed inputs

TEST(ZstdInput, CompressedFileSortsLikeThePlainOne) {
  TempDir dir;
  const std::string data = records(5000, 1);
  write_file(dir.file("in.zst"), zstd_compress(data));
  // No .zst suffix is needed: the magic number decides.
  write_file(dir.file("in.bin"), zstd_compress(data, 19));
  for (const char* name : {"in.zst", "in.bin"}) {
    const ProcessResult r = run_gsort(with_spec({dir.file(name), "-o", dir.file("out")}));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(describe_difference(read_file(dir.file("out")), reference_sort(data, kSpec), 16), "") << name;
  }
}

TEST(ZstdInput, CompressedStdinPipe) {
  const std::string data = records(3000, 2);
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = zstd_compress(data);
  const ProcessResult r = run_gsort(with_spec({}), in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(r.out, reference_sort(data, kSpec), 16), "");
}

TEST(ZstdInput, ShortPlainStdinIsNotMistakenForZstd) {
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

TEST(ZstdInput, SeveralFramesAndSeveralInputs) {
  TempDir dir;
  const std::string a = records(1000, 4), b = records(700, 5), c = records(1200, 6);
  write_file(dir.file("ab.zst"), zstd_compress(a) + zstd_compress(b, 1));  // two frames
  write_file(dir.file("c.bin"), c);
  write_file(dir.file("empty.zst"), zstd_compress(""));
  const ProcessResult r =
      run_gsort(with_spec({dir.file("ab.zst"), dir.file("empty.zst"), dir.file("c.bin"), "-o", dir.file("out")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(read_file(dir.file("out")), reference_sort(a + b + c, kSpec), 16), "");
}

TEST(ZstdInput, SpillingSortAndMergeAndCheckReadCompressedInputs) {
  TempDir dir;
  const std::string data = records(40000, 7);
  write_file(dir.file("in.zst"), zstd_compress(data));
  ProcessResult r = run_gsort(with_spec({"-S", "128K", dir.file("in.zst"), "-o", dir.file("sorted.zst")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const std::string sorted = zstd_decompress(read_file(dir.file("sorted.zst")));
  EXPECT_EQ(describe_difference(sorted, reference_sort(data, kSpec), 16), "");
  // -c and -m read compressed inputs too.
  r = run_gsort(with_spec({"-c", dir.file("sorted.zst")}));
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  r = run_gsort(with_spec({"-c", dir.file("in.zst")}));
  EXPECT_EQ(r.status(), "exit 1") << r.err;
  write_file(dir.file("half.zst"), zstd_compress(reference_sort(data.substr(0, 16 * 20000), kSpec)));
  write_file(dir.file("other.bin"), reference_sort(data.substr(16 * 20000), kSpec));
  r = run_gsort(with_spec({"-m", dir.file("half.zst"), dir.file("other.bin"), "-o", dir.file("merged")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(read_file(dir.file("merged")), reference_sort(data, kSpec), 16), "");
}

TEST(ZstdInput, DecompressedSizeNotAWholeNumberOfRecords) {
  TempDir dir;
  const std::string data = records(100, 8) + "tail!";  // 1605 bytes
  write_file(dir.file("odd.zst"), zstd_compress(data));
  const ProcessResult r = run_gsort(with_spec({dir.file("odd.zst"), "-o", dir.file("out")}));
  expect_clean_error(r, {dir.file("odd.zst"), "decompressed size", "1605", "16"});
  EXPECT_FALSE(path_exists(dir.file("out")));
}

TEST(ZstdInput, CorruptedInputFailsCleanly) {
  TempDir dir;
  const std::string good = zstd_compress(records(20000, 9));
  ASSERT_GT(good.size(), 1000u);
  // A byte in the middle of the frame, and garbage after a valid frame.
  std::string bad = good;
  bad[bad.size() / 2] ^= 0x5A;
  write_file(dir.file("bad.zst"), bad);
  write_file(dir.file("junk.zst"), good + "this is not zstd");
  for (const char* name : {"bad.zst", "junk.zst"}) {
    SCOPED_TRACE(name);
    write_file(dir.file("out"), "old content");
    const ProcessResult r = run_gsort(with_spec({dir.file(name), "-o", dir.file("out")}));
    expect_clean_error(r, {name, "zstd"});
    EXPECT_EQ(read_file(dir.file("out")), "old content") << "the destination must be left as it was";
    EXPECT_EQ(count_files(dir.path()), 3u) << "no temporary file left behind";
  }
}

TEST(ZstdInput, TruncatedInputFailsCleanly) {
  TempDir dir;
  const std::string good = zstd_compress(records(20000, 10));
  for (size_t keep : {good.size() - 1, good.size() / 2, size_t{6}, size_t{4}}) {
    SCOPED_TRACE(keep);
    write_file(dir.file("cut.zst"), good.substr(0, keep));
    ProcessResult r = run_gsort(with_spec({dir.file("cut.zst"), "-o", dir.file("out")}));
    expect_clean_error(r, {"cut.zst", "truncated|corrupt"});
    EXPECT_FALSE(path_exists(dir.file("out")));
    // The same through a pipe.
    ProcessOptions in;
    in.stdin_kind = StdinKind::kPipe;
    in.stdin_data = good.substr(0, keep);
    r = run_gsort(with_spec({"-o", dir.file("out")}), in);
    expect_clean_error(r, {"standard input"});
    EXPECT_FALSE(path_exists(dir.file("out")));
  }
}

// ------------------------------------------------------ compressed output

TEST(ZstdOutput, ZstSuffixCompressesTheOutput) {
  TempDir dir;
  const std::string data = records(20000, 11, true);
  write_file(dir.file("in"), data);
  const ProcessResult r = run_gsort(with_spec({dir.file("in"), "-o", dir.file("out.zst")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const std::string stored = read_file(dir.file("out.zst"));
  ASSERT_TRUE(has_zstd_magic(stored));
  EXPECT_LT(stored.size(), data.size() / 4) << "compressible records should shrink";
  EXPECT_EQ(describe_difference(zstd_decompress(stored), reference_sort(data, kSpec), 16), "");
}

TEST(ZstdOutput, CompressOutputOptionAlsoOnStdoutAndWithLevels) {
  const std::string data = records(5000, 12, true);
  for (const char* option : {"--compress-output", "--compress-output=1", "--compress-output=19",
                             "--compress-output=-5", "--compress-output=0"}) {
    SCOPED_TRACE(option);
    ProcessOptions in;
    in.stdin_kind = StdinKind::kPipe;
    in.stdin_data = data;
    const ProcessResult r = run_gsort(with_spec({option}), in);
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    ASSERT_TRUE(has_zstd_magic(r.out));
    EXPECT_EQ(describe_difference(zstd_decompress(r.out), reference_sort(data, kSpec), 16), "");
  }
}

TEST(ZstdOutput, EmptyInputGivesAValidEmptyFrameAndUniqueWorks) {
  TempDir dir;
  write_file(dir.file("empty"), "");
  ProcessResult r = run_gsort(with_spec({dir.file("empty"), "-o", dir.file("e.zst")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(zstd_decompress(read_file(dir.file("e.zst"))), "");
  const std::string data = records(30000, 13, true);
  write_file(dir.file("in"), data);
  r = run_gsort(with_spec({"-u", "-S", "100K", dir.file("in"), "-o", dir.file("u.zst")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  RefSpec unique = kSpec;
  unique.unique = true;
  EXPECT_EQ(describe_difference(zstd_decompress(read_file(dir.file("u.zst"))), reference_sort(data, unique), 16),
            "");
}

TEST(ZstdOutput, BadLevelsAreUsageErrors) {
  TempDir dir;
  write_file(dir.file("in"), records(10, 14));
  for (const char* option : {"--compress-output=99", "--compress-output=fast", "--compress-temp=x",
                             "--compress-temp=1000", "--compress-temp="}) {
    const ProcessResult r = run_gsort(with_spec({option, dir.file("in"), "-o", dir.file("out")}));
    expect_clean_error(r, {"level|--compress"});
    EXPECT_FALSE(path_exists(dir.file("out"))) << option;
  }
  // A bare --compress-temp does not swallow the next argument.
  const ProcessResult r = run_gsort(with_spec({"--compress-temp", dir.file("in"), "-o", dir.file("out")}));
  EXPECT_EQ(r.status(), "exit 0") << r.err;
}

// ---------------------------------------------------------- compressed runs

nlohmann::json stats_of(const std::string& path) { return nlohmann::json::parse(read_file(path)); }

TEST(ZstdTemp, ManyRunsAndPassesGiveByteIdenticalOutput) {
  TempDir dir;
  for (bool compressible : {true, false}) {
    SCOPED_TRACE(compressible ? "compressible" : "random");
    const std::string data = records(60000, 15, compressible);  // 960 KB
    write_file(dir.file("in"), data);
    ProcessResult r = run_gsort(with_spec({"-S", "64K", dir.file("in"), "-o", dir.file("plain"), "--stats",
                                           dir.file("plain.json")}));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    for (const char* option : {"--compress-temp", "--compress-temp=3", "--compress-temp=-1"}) {
      SCOPED_TRACE(option);
      r = run_gsort(with_spec({"-S", "64K", option, dir.file("in"), "-o", dir.file("packed"), "--stats",
                               dir.file("packed.json")}));
      ASSERT_EQ(r.status(), "exit 0") << r.err;
      EXPECT_EQ(read_file(dir.file("packed")), read_file(dir.file("plain")));
      const nlohmann::json plain = stats_of(dir.file("plain.json")), packed = stats_of(dir.file("packed.json"));
      EXPECT_GT(packed["runs"].get<uint64_t>(), 10u);
      EXPECT_GT(packed["merge_passes"].get<uint64_t>(), 1u);
      EXPECT_EQ(packed["runs"], plain["runs"]);
      EXPECT_TRUE(packed["temp"]["compressed"].get<bool>());
      EXPECT_EQ(packed["temp"]["record_bytes"], plain["temp"]["record_bytes"]);
      if (compressible) {
        EXPECT_LT(packed["temp"]["bytes_written"].get<uint64_t>(),
                  plain["temp"]["bytes_written"].get<uint64_t>() / 2);
      }
    }
  }
  EXPECT_EQ(count_files(dir.path()), 5u) << "no run files left behind";
}

}  // namespace
}  // namespace gsort_test
