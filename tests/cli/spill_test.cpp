// Spilling (issue 12): runs written as several streams at once give the
// bytes of one stream, and runs compressed with zstd (--compress-temp) the
// bytes of plain ones; --compress-temp=auto chooses from measurements,
// said in --stats and under -v (off for random data; on for compressible
// data whose runs outgrow the page cache onto a temp device slower than the
// compressor, which gsort-test-hooks pretends); the temp device probe
// leaves nothing behind; --page-cache=drop changes no byte of the output
// and leaves the input out of the page cache.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#include "tests/support/sanitizers.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// 16-byte records, u32 key of few values (ties show any instability).
const RefSpec kSpec = {16, {RefKey{0, 4, RefKind::kUnsigned, false, false}}, false, false};

std::vector<std::string> with_spec(std::vector<std::string> args, const RefSpec& spec = kSpec) {
  std::vector<std::string> all = spec.args();
  all.insert(all.end(), args.begin(), args.end());
  return all;
}

nlohmann::json stats_of(const std::string& path) { return nlohmann::json::parse(read_file(path)); }

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// What a sort below said: its standard error (-v) and its --stats.
struct Sorted {
  std::string err;
  nlohmann::json stats;  // null when the sort failed
};

// Sorts `data`, written to dir/in, into dir/out: `argv` (gsort's or
// gsort-test-hooks', with the spec and options) with -T dir and --stats
// dir/s.json. The sort must succeed, write `expected` and leave nothing but
// in, out and s.json in dir.
Sorted sort_in(const TempDir& dir, const std::string& data, const std::string& expected,
               std::vector<std::string> argv, const ProcessOptions& options = {}) {
  write_file(dir.file("in"), data);
  argv.insert(argv.end(), {"-T", dir.path(), "--stats", dir.file("s.json"), dir.file("in"), "-o", dir.file("out")});
  const ProcessResult r = run_process(argv, options);
  if (r.status() != "exit 0") {
    ADD_FAILURE() << command_line(argv) << ": " << r.status() << "\n" << r.err;
    return {r.err, nullptr};
  }
  EXPECT_TRUE(read_file(dir.file("out")) == expected) << "the output differs from the reference sort";
  EXPECT_EQ(count_files(dir.path()), 3u) << "files left behind";  // in, out, s.json
  return {r.err, stats_of(dir.file("s.json"))};
}

// The same by gsort itself, with kSpec and `args`.
Sorted gsort_in(const TempDir& dir, const std::string& data, const std::vector<std::string>& args) {
  return sort_in(dir, data, reference_sort(data, kSpec), gsort_argv(with_spec(args)));
}

// gsort-test-hooks' argv for `args`, and the options that make it pretend a
// temp device: GSORT_TEST_TEMP_DEVICE=ROOM[:MB/S] ("": none, it measures).
std::vector<std::string> hooks_argv(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {GSORT_HOOKS_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}
ProcessOptions temp_device(const std::string& device) {
  ProcessOptions options;
  if (!device.empty()) options.env.push_back("GSORT_TEST_TEMP_DEVICE=" + device);
  return options;
}

// ------------------------------------------------------------ spill streams

TEST(SpillStreams, SeveralStreamsGiveTheBytesOfOne) {
  TempDir dir;
  Rng rng(70);
  size_t round = 0;
  for (bool compressible : {false, true}) {
    const std::string data = numbered_u32_records(rng, 400000, 1000, compressible);  // 6.4 MB
    for (const RefSpec& spec : {kSpec, RefSpec{16, kSpec.keys, true, true}}) {
      const std::string expected = reference_sort(data, spec);
      for (const char* compress : {"--compress-temp=off", "--compress-temp=on"}) {
        const std::vector<const char*> stream_counts = {"1", "2", "3", "7"};
        for (size_t c = 0; c < stream_counts.size(); ++c) {
          if (!crossed_in_this_build(round, c, stream_counts.size())) continue;  // sanitizers: one count each
          const char* streams = stream_counts[c];
          SCOPED_TRACE(std::string(compressible ? "compressible" : "random") + (spec.reverse ? ", -r -u" : "") +
                       ", " + compress + ", --spill-streams " + streams);
          const std::vector<std::string> args = {"-S", "8M", "--spill-streams", streams, compress, "-v"};
          const Sorted s = sort_in(dir, data, expected, gsort_argv(with_spec(args, spec)));
          EXPECT_GT(s.stats["runs"].get<int>(), 2);
          EXPECT_EQ(s.stats["temp"]["streams"].get<int>(), std::stoi(streams));
          EXPECT_TRUE(contains(s.err, std::string(streams) + (streams[0] == '1' ? " stream each" : " streams each")))
              << s.err;
        }
        ++round;
      }
    }
  }
}

TEST(SpillStreams, EarlyMergesAndPassesOverRunsOfSeveralFiles) {
  TempDir dir;
  Rng rng(71);
  const std::string data = numbered_u32_records(rng, 600000, 50000);
  // --batch-size 3: runs of 3 files each are merged early, in a tree. The CPU
  // backend: a GPU host's device tier would hold the whole input.
  const nlohmann::json s =
      gsort_in(dir, data, {"-S", "4M", "--backend", "cpu", "--spill-streams", "3", "--batch-size", "3"}).stats;
  EXPECT_EQ(s["temp"]["streams"].get<int>(), 3);
  EXPECT_GT(s["early_merges"].get<int>(), 0);
  EXPECT_GT(s["merge_passes"].get<int>(), 1);
}

// Merges into runs (early and in passes) go in key ranges on every core
// where the runs are plain (src/merge/merge_to_run_in_ranges.cpp); equal
// keys keep the runs' order across the ranges' cuts (-s), and -u, -r and
// zstd runs (merged in order, by the run merger) give the same bytes.
TEST(SpillStreams, MergesIntoRunsGoInRangesAndKeepTheOrder) {
  TempDir dir;
  Rng rng(73);
  // 48 MB, 300 keys (long ties); under -S 16M the runs of a merge come to
  // more than a few ranges' worth.
  const std::string data = numbered_u32_records(rng, 3000000, 300);
  size_t round = 0;
  for (const RefSpec& spec : {kSpec, RefSpec{16, kSpec.keys, true, false}, RefSpec{16, kSpec.keys, false, true}}) {
    for (const char* compress : {"--compress-temp=off", "--compress-temp=on"}) {
      // zstd runs are the run merger's (tested above): once is enough.
      if ((spec.reverse || spec.unique) && std::string(compress) == "--compress-temp=on") continue;
      // The sanitizer build merges the plain runs of -s alone: the data must stay this large.
      if (round++ % kSanitizerShare != 0) continue;
      SCOPED_TRACE(std::string(spec.reverse ? "-r" : "") + (spec.unique ? "-u" : "") + ", " + compress);
      const std::vector<std::string> args = {"-S", "16M", "--backend", "cpu", "--batch-size", "3",
                                             "-s", compress, "-v"};
      const Sorted s = sort_in(dir, data, reference_sort(data, spec), gsort_argv(with_spec(args, spec)));
      EXPECT_GT(s.stats["early_merges"].get<int>(), 0);
      const bool plain = std::string(compress) == "--compress-temp=off";
      EXPECT_EQ(contains(s.err, " into one in "), plain) << s.err;
    }
  }
}

TEST(SpillStreams, ASmallBudgetSpillsFewerStreams) {
  TempDir dir;
  Rng rng(72);
  const Sorted s = gsort_in(dir, numbered_u32_records(rng, 100000, 100), {"-S", "1M", "--spill-streams", "8", "-v"});
  EXPECT_EQ(s.stats["temp"]["streams"].get<int>(), 1);  // a 64 KiB block: one stream
  EXPECT_TRUE(contains(s.err, "spill streams: 1 instead of 8")) << s.err;
}

// ---------------------------------------------------- writeback pacing

// A spilled sort whose input outgrows the page cache's room (faked by
// gsort-test-hooks) hands its runs and output to the disk as it writes them
// (several steps of io/file/writeback_pacer.h each) and keeps every record;
// --page-cache keep, or room to spare, leaves writes to the kernel.
TEST(WritebackPacing, ASortOutgrowingThePageCacheIsPacedAndKeepsEveryRecord) {
  TempDir dir;
  Rng rng(78);
  const std::string data = rng.bytes(uint64_t{7} << 24);  // 112 MiB: more than a window of steps per file
  const std::string expected = reference_sort(data, kSpec);
  struct Case {
    const char* room;
    std::vector<std::string> extra;
    bool paced;
  };
  size_t round = 0;
  for (const Case& c : {Case{"1000", {}, true}, Case{"1000", {"--page-cache", "keep"}, false},
                        Case{"1000000000000", {}, false}}) {
    // The sanitizer build sorts the paced case alone: the data must stay this large.
    if (round++ % kSanitizerShare != 0) continue;
    SCOPED_TRACE(std::string("room ") + c.room + (c.extra.empty() ? "" : " " + c.extra[0] + " " + c.extra[1]));
    std::vector<std::string> argv =
        hooks_argv(with_spec({"-S", "48M", "--spill-streams", "1", "--compress-temp=off", "-v", "--backend", "cpu"}));
    argv.insert(argv.end(), c.extra.begin(), c.extra.end());
    const Sorted s = sort_in(dir, data, expected, argv, temp_device(c.room));
    EXPECT_GT(s.stats["runs"].get<uint64_t>(), 1u);
    EXPECT_EQ(s.stats["temp"]["writeback_paced"].get<bool>(), c.paced);
    EXPECT_EQ(contains(s.err, "writes paced:"), c.paced) << s.err;
    // The output file itself goes around the cache where the file system takes O_DIRECT.
    if (c.paced && !on_tmpfs(dir.path())) {
      EXPECT_TRUE(contains(s.err, "output: written around the page cache")) << s.err;
      EXPECT_TRUE(contains(s.err, "runs: written around the page cache")) << s.err;
    }
    if (!c.paced) EXPECT_FALSE(contains(s.err, "runs: written around the page cache")) << s.err;
  }
}

// Written around the page cache, with records dropped (-u: the output's
// length is no multiple of a block) and as a merge of sorted inputs (-m).
TEST(WritebackPacing, DirectOutputWritesUniqueAndMergedOutputsWhole) {
  TempDir dir;
  Rng rng(79);
  const std::string data = numbered_u32_records(rng, 3000000, 70001);  // 48 MB, 70001 keys
  RefSpec unique = kSpec;
  unique.unique = true;
  const Sorted u = sort_in(dir, data, reference_sort(data, unique),
                           hooks_argv(with_spec({"-S", "16M", "-u", "--compress-temp=off", "-v"})), temp_device("1000"));
  TempDir other;
  const std::string sorted = reference_sort(data, kSpec);
  write_file(other.file("sorted"), sorted);
  // -m of two sorted inputs: `in` (sort_in's) is the same records, sorted too.
  const std::vector<std::string> merge = hooks_argv(with_spec({"-m", "-S", "16M", "-v", other.file("sorted")}));
  const Sorted m = sort_in(dir, sorted, reference_sort(sorted + sorted, kSpec), merge, temp_device("1000"));
  if (!on_tmpfs(dir.path())) {
    EXPECT_TRUE(contains(u.err, "output: written around the page cache")) << u.err;
    EXPECT_TRUE(contains(m.err, "output: written around the page cache")) << m.err;
  }
}

// ------------------------------------------------------- compressed runs

TEST(TempCompression, ManyRunsAndPassesGiveByteIdenticalOutput) {
  TempDir dir;
  Rng rng(15);
  for (bool compressible : {true, false}) {
    SCOPED_TRACE(compressible ? "compressible" : "random");
    const std::string data = numbered_u32_records(rng, 60000, compressible ? 50 : 1000, compressible);  // 960 KB
    // Each output is the reference sort's bytes (gsort_in checks): plain
    // and compressed runs give the same.
    // The CPU backend: a GPU host's device tier would hold the whole input.
    const nlohmann::json plain = gsort_in(dir, data, {"-S", "64K", "--backend", "cpu"}).stats;
    for (const char* option : {"--compress-temp", "--compress-temp=3", "--compress-temp=-1"}) {
      SCOPED_TRACE(option);
      const nlohmann::json packed = gsort_in(dir, data, {"-S", "64K", "--backend", "cpu", option}).stats;
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
}

// ---------------------------------------------------- --compress-temp=auto

// The --stats "temp" object of a spilled sort of `data` with `args`, run by
// gsort-test-hooks pretending the temp device `device` ("": measured).
nlohmann::json temp_choice(const TempDir& dir, const std::string& data, const std::vector<std::string>& args,
                           const std::string& device, std::string* err = nullptr) {
  std::vector<std::string> options = {"-S", "1M", "--backend", "cpu", "-v"};  // spilled on a GPU host too
  options.insert(options.end(), args.begin(), args.end());
  Sorted s = sort_in(dir, data, reference_sort(data, kSpec), hooks_argv(with_spec(options)), temp_device(device));
  if (err) *err = s.err;
  return s.stats["temp"];
}

TEST(TempCompressionAuto, RandomDataStaysPlain) {
  TempDir dir;
  Rng rng(73);
  const std::string data = rng.bytes(100000 * 16);  // incompressible
  // Even on the slowest device.
  std::string err;
  const nlohmann::json t = temp_choice(dir, data, {}, "0:1", &err);
  EXPECT_EQ(t["compress_mode"], "auto");
  EXPECT_FALSE(t["compressed"].get<bool>());
  EXPECT_LT(t["sample_ratio"].get<double>(), 1.5);
  EXPECT_TRUE(contains(t["compress_reason"].get<std::string>(), "less than 1.50x")) << t.dump();
  EXPECT_TRUE(contains(err, "temp compression: off (auto): a sample of the first chunk shrinks")) << err;
  // And the plain gsort, measuring everything itself.
  EXPECT_FALSE(gsort_in(dir, data, {"-S", "1M"}).stats["temp"]["compressed"].get<bool>());
}

TEST(TempCompressionAuto, CompressibleRunsOnASlowDeviceAreCompressed) {
  TempDir dir;
  Rng rng(74);
  const std::string data = numbered_u32_records(rng, 100000, 100, true);  // 'x' filler
  std::string err;
  const nlohmann::json t = temp_choice(dir, data, {}, "0:1", &err);  // no page cache, 1 MB/s
  EXPECT_TRUE(t["compressed"].get<bool>()) << t.dump();
  EXPECT_EQ(t["zstd_level"], 1);
  EXPECT_GE(t["sample_ratio"].get<double>(), 1.5);
  EXPECT_GT(t["compress_mb_s"].get<double>(), 1.0);
  EXPECT_EQ(t["device_write_mb_s"].get<double>(), 1.0);
  EXPECT_LT(t["bytes_written"].get<uint64_t>(), t["record_bytes"].get<uint64_t>() / 2);
  EXPECT_TRUE(contains(err, "temp compression: on (auto)")) << err;
}

TEST(TempCompressionAuto, EachReasonToStayPlain) {
  TempDir dir;
  Rng rng(75);
  const std::string data = numbered_u32_records(rng, 100000, 100, true);
  struct Case {
    const char* device;
    const char* reason;
  };
  for (const Case& c : {Case{"1000000000000:1", "fit in what the page cache takes"},
                        Case{"0:100000000000", "writing and reading back plain runs would be faster"},
                        Case{"0:0", "speed is unknown"}}) {
    SCOPED_TRACE(c.device);
    const nlohmann::json t = temp_choice(dir, data, {}, c.device);
    EXPECT_FALSE(t["compressed"].get<bool>());
    EXPECT_TRUE(contains(t["compress_reason"].get<std::string>(), c.reason)) << t.dump();
  }
}

TEST(TempCompressionAuto, ExplicitSettingsWin) {
  TempDir dir;
  Rng rng(76);
  const std::string compressible = numbered_u32_records(rng, 100000, 100, true);
  nlohmann::json t = temp_choice(dir, compressible, {"--compress-temp=off"}, "0:1");
  EXPECT_FALSE(t["compressed"].get<bool>());
  EXPECT_EQ(t["compress_mode"], "off");
  EXPECT_EQ(t["compress_reason"], "--compress-temp=off");
  t = temp_choice(dir, rng.bytes(100000 * 16), {"--compress-temp=3"}, "1000000000000:1");
  EXPECT_TRUE(t["compressed"].get<bool>());
  EXPECT_EQ(t["compress_mode"], "on");
  EXPECT_EQ(t["zstd_level"], 3);
}

// With the page cache's room at 0 the probe really writes in -T: it
// measures a speed and leaves no file there.
TEST(TempCompressionAuto, TheDeviceProbeLeavesNothingBehind) {
  TempDir dir;
  Rng rng(77);
  const nlohmann::json t = temp_choice(dir, numbered_u32_records(rng, 100000, 100, true), {}, "0");
  EXPECT_GT(t["device_write_mb_s"].get<double>(), 0.0) << t.dump();
  EXPECT_TRUE(contains(t["compress_reason"].get<std::string>(), "the temp device writes")) << t.dump();
}

TEST(TempCompressionAuto, InMemorySortsDecideNothing) {
  TempDir dir;
  Rng rng(78);
  const nlohmann::json t = gsort_in(dir, numbered_u32_records(rng, 1000, 100, true), {}).stats["temp"];
  EXPECT_FALSE(t["compressed"].get<bool>());
  EXPECT_TRUE(t["compress_reason"].is_null());
}

// ------------------------------------------------------------- page cache

// Pages of `path` in the page cache, and its pages in all.
std::pair<size_t, size_t> resident_pages(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  const off_t size = lseek(fd, 0, SEEK_END);
  void* map = mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in((static_cast<size_t>(size) + page - 1) / page);
  size_t n = 0;
  if (map != MAP_FAILED && mincore(map, static_cast<size_t>(size), in.data()) == 0) {
    for (unsigned char c : in) n += c & 1;
  }
  if (map != MAP_FAILED) munmap(map, static_cast<size_t>(size));
  close(fd);
  return {n, in.size()};
}

// Writes `path` and drops it from the page cache; false where it stays
// (tmpfs).
bool write_uncached(const std::string& path, const std::string& data) {
  write_file(path, data);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  fdatasync(fd);
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  close(fd);
  return resident_pages(path).first == 0;
}

// The default, --page-cache drop.
TEST(PageCache, DropLeavesTheInputUncachedAndTheOutputUnchanged) {
  TempDir dir;
  Rng rng(79);
  const std::string data = numbered_u32_records(rng, 400000, 1000);
  const std::string expected = reference_sort(data, kSpec);
  for (const char* memory : {"1G", "2M"}) {  // in memory, spilled
    SCOPED_TRACE(std::string("-S ") + memory);
    if (!write_uncached(dir.file("in"), data)) GTEST_SKIP() << "the page cache keeps this file (tmpfs?)";
    ProcessResult r = run_gsort(with_spec({"-S", memory, "-T", dir.path(), dir.file("in"), "-o", dir.file("out")}));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_TRUE(read_file(dir.file("out")) == expected);
    const auto [cached, pages] = resident_pages(dir.file("in"));
    EXPECT_LE(cached, 8u) << "of " << pages << " pages";  // the first bytes, peeked before reading
    // What was cached before gsort ran stays cached.
    read_file(dir.file("in"));
    r = run_gsort(with_spec({"-S", memory, "--page-cache", "drop", "-T", dir.path(), dir.file("in"), "-o",
                             dir.file("out")}));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_TRUE(read_file(dir.file("out")) == expected);
    EXPECT_EQ(resident_pages(dir.file("in")).first, pages);
    EXPECT_EQ(count_files(dir.path()), 2u);
    // --page-cache keep leaves what it read cached.
    if (!write_uncached(dir.file("in"), data)) GTEST_SKIP() << "the page cache keeps this file";
    r = run_gsort(with_spec({"-S", memory, "--page-cache", "keep", "-T", dir.path(), dir.file("in"), "-o",
                             dir.file("out")}));
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_TRUE(read_file(dir.file("out")) == expected);
    EXPECT_GT(resident_pages(dir.file("in")).first, pages / 2);
  }
}

}  // namespace
}  // namespace gsort_test
