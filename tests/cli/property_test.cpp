// Randomised end-to-end tests: gsort's output must be byte-identical to an
// independent reference (support/reference_sort.h), which checks order,
// stability and that the output is a permutation of the input at once.
// Every case is deterministic: seeds are fixed, data comes from Rng.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/support/float_specials.h"
#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// -------------------------------------------------------- data and layouts

RefKey random_key(Rng& rng, uint32_t rs) {
  RefKey k;
  const int kind = static_cast<int>(rng.below(4));
  std::vector<uint32_t> widths;
  if (kind == 1 || kind == 2) widths = {1, 2, 4, 8};
  if (kind == 3) widths = {4, 8};
  widths.erase(std::remove_if(widths.begin(), widths.end(), [rs](uint32_t w) { return w > rs; }),
               widths.end());
  if (kind == 0 || widths.empty()) {
    k.kind = RefKind::kBytes;
    const uint32_t longest = std::min<uint32_t>(rs, rng.chance(20) ? 300 : 24);
    k.length = static_cast<uint32_t>(rng.range(1, longest));
  } else {
    k.kind = kind == 1 ? RefKind::kUnsigned : kind == 2 ? RefKind::kSigned : RefKind::kFloat;
    k.length = widths[rng.below(widths.size())];
    // A one-byte number has no byte order; gsort takes u8be, but
    // CliSort.OneByteTypesTakeTheBigEndianSuffix covers that.
    k.big_endian = k.length > 1 && rng.chance(50);
  }
  k.offset = static_cast<uint32_t>(rng.below(rs - k.length + 1));
  k.descending = rng.chance(30);
  return k;
}

// Record data: the shared generator (tests/support/record_gen.h).
using Shape = Distribution;

// The shapes a PropertyRandom seed draws from.
const Shape kSeedShapes[] = {Shape::kRandom, Shape::kFewDistinct, Shape::kLowEntropy, Shape::kAllEqual,
                             Shape::kSorted};

std::string random_data(Rng& rng, const RefSpec& spec, size_t n, Shape shape) {
  RecordMix mix;
  mix.distribution = shape;
  return make_records(rng, spec, n, mix);
}

long verbose_count(const std::string& err, const std::string& label) {
  std::smatch m;
  if (std::regex_search(err, m, std::regex(label + ":\\s*([0-9]+)"))) return std::stol(m[1]);
  return -1;
}

// ------------------------------------------------------------ one check

enum class Via { kFiles, kStdinPipe, kStdinFile, kMixed };

struct Outcome {
  ProcessResult result;
  bool ok = false;
};

// Runs gsort on `parts` (sorted together, in order) with spec and extra
// arguments, and expects output identical to the reference. Via says how
// the parts reach gsort: all files; one part piped to stdin; one part as a
// file on stdin; or files with one part as "-" among them. Output goes to
// a file with to_file, else to stdout.
Outcome check_sort(const RefSpec& spec, const std::vector<std::string>& parts,
                   const std::vector<std::string>& extra, Via via, bool to_file,
                   const std::string& label) {
  TempDir dir;
  std::vector<std::string> args = spec.args();
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {"-T", dir.subdir("tmp")});
  if (to_file) args.insert(args.end(), {"-o", dir.file("out.bin")});
  ProcessOptions options;
  const size_t stdin_part = via == Via::kMixed ? parts.size() / 2 : 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const bool on_stdin = via != Via::kFiles && i == stdin_part;
    if (on_stdin && via == Via::kStdinFile) {
      write_file(dir.file("stdin.bin"), parts[i]);
      options.stdin_kind = StdinKind::kFile;
      options.stdin_path = dir.file("stdin.bin");
    } else if (on_stdin) {
      options.stdin_kind = StdinKind::kPipe;
      options.stdin_data = parts[i];
    }
    if (on_stdin) {
      // A lone piped stdin is left implicit; a stdin file is named "-".
      if (parts.size() > 1 || via != Via::kStdinPipe) args.push_back("-");
      continue;
    }
    const std::string name = dir.file("in" + std::to_string(i) + ".bin");
    write_file(name, parts[i]);
    args.push_back(name);
  }
  std::string all;
  for (const std::string& p : parts) all += p;

  Outcome o;
  o.result = run_gsort(args, options);
  const std::string cmd = command_line(gsort_argv(args));
  SCOPED_TRACE(label + "\n  " + cmd);
  EXPECT_EQ(o.result.status(), "exit 0") << o.result.err;
  if (o.result.status() != "exit 0") return o;
  const std::string got = to_file ? read_file(dir.file("out.bin")) : o.result.out;
  const std::string want = reference_sort(all, spec);
  const std::string diff = describe_difference(got, want, spec.record_size);
  EXPECT_EQ(diff, "");
  EXPECT_EQ(list_tree(dir.file("tmp")), std::vector<std::string>{}) << "temp dir not empty";
  o.ok = diff.empty();
  return o;
}

// ---------------------------------------------------------------- tests

// Each seed: a random record size (1..4096), 0-3 random key fields, random
// -r / -u, data shape, memory, parallelism, number of inputs and how they
// arrive.
class PropertyRandom : public testing::TestWithParam<int> {};

TEST_P(PropertyRandom, MatchesReference) {
  Rng rng(1000 + static_cast<uint64_t>(GetParam()));
  RefSpec spec;
  const uint64_t size_class = rng.below(10);
  spec.record_size = static_cast<uint32_t>(size_class < 5   ? rng.range(1, 16)
                                           : size_class < 8 ? rng.range(17, 256)
                                                            : rng.range(257, 4096));
  const size_t fields = static_cast<size_t>(rng.below(4));
  for (size_t i = 0; i < fields; ++i) spec.keys.push_back(random_key(rng, spec.record_size));
  spec.reverse = rng.chance(30);
  spec.unique = rng.chance(25);
  const Shape shape = kSeedShapes[rng.below(std::size(kSeedShapes))];
  const size_t max_records = std::min<size_t>(4000, (512u << 10) / spec.record_size);
  const uint64_t count_class = rng.below(10);
  const size_t n = count_class == 0   ? 0
                   : count_class == 1 ? 1
                   : count_class == 2 ? static_cast<size_t>(rng.range(2, 10))
                                      : static_cast<size_t>(rng.range(11, max_records));
  const std::string data = random_data(rng, spec, n, shape);

  std::vector<std::string> extra;
  if (rng.chance(50)) extra.insert(extra.end(), {"-S", "64K"});
  if (rng.chance(30)) extra.insert(extra.end(), {"--parallel", std::to_string(rng.range(1, 4))});
  const Via via = static_cast<Via>(rng.below(4));
  const size_t part_count = via == Via::kStdinPipe || via == Via::kStdinFile
                                ? 1
                                : static_cast<size_t>(rng.range(1, 4));
  std::vector<std::string> parts;
  size_t begin = 0;
  for (size_t i = 0; i < part_count; ++i) {
    const size_t end = i + 1 == part_count ? n : begin + rng.below(n - begin + 1);
    parts.push_back(data.substr(begin * spec.record_size, (end - begin) * spec.record_size));
    begin = end;
  }
  check_sort(spec, parts, extra, via, rng.chance(50),
             "seed " + std::to_string(GetParam()) + ", " + std::to_string(n) + " records");
}

INSTANTIATE_TEST_SUITE_P(PropertySeeds, PropertyRandom, testing::Range(0, 160),
                         [](const testing::TestParamInfo<int>& p) { return "seed" + std::to_string(p.param); });

// Float keys made only of special values and a few ordinary ones, every
// float type, byte order and direction, with and without -r and -u.
TEST(PropertyFloats, SpecialValuesInTotalOrder) {
  Rng rng(77);
  for (uint32_t width : {4u, 8u}) {
    for (bool be : {false, true}) {
      for (int variant = 0; variant < 4; ++variant) {
        const bool desc = variant & 1;
        const bool reverse = variant & 2;
        // Record: 3 bytes of junk, the float, a 4-byte tag.
        RefSpec spec = {3 + width + 4,
                        {RefKey{3, width, RefKind::kFloat, be, desc}},
                        reverse,
                        rng.chance(30)};
        const auto& specials = float_specials(width);
        std::string data;
        for (uint32_t i = 0; i < 600; ++i) {
          std::string rec = rng.bytes(spec.record_size);
          auto* p = reinterpret_cast<uint8_t*>(rec.data());
          if (!rng.chance(10)) put_number(p + 3, specials[rng.below(specials.size())].bits, width, be);
          put_number(p + 3 + width, i, 4, false);
          data += rec;
        }
        check_sort(spec, {data}, rng.chance(50) ? std::vector<std::string>{"-S", "64K"}
                                                : std::vector<std::string>{},
                   Via::kFiles, true,
                   "f" + std::to_string(8 * width) + (be ? "be" : "") + (desc ? " desc" : "") +
                       (reverse ? " -r" : ""));
      }
    }
  }
}

// Keys with few values, all-equal keys, low-entropy keys: stability and -u
// carry the whole result here.
TEST(PropertyDuplicates, HeavyDuplicatesAndAllEqualKeys) {
  Rng rng(88);
  for (Shape shape : {Shape::kFewDistinct, Shape::kAllEqual, Shape::kLowEntropy}) {
    for (int variant = 0; variant < 8; ++variant) {
      RefSpec spec;
      spec.record_size = static_cast<uint32_t>(rng.range(8, 64));
      const size_t fields = static_cast<size_t>(rng.range(variant < 2 ? 0 : 1, 3));
      for (size_t i = 0; i < fields; ++i) spec.keys.push_back(random_key(rng, spec.record_size));
      spec.reverse = variant & 1;
      spec.unique = variant & 2;
      const std::string data = random_data(rng, spec, 5000, shape);
      check_sort(spec, {data}, {"-S", "64K"}, Via::kFiles, false,
                 "shape " + std::to_string(static_cast<int>(shape)) + " variant " +
                     std::to_string(variant));
    }
  }
}

TEST(PropertyEdge, ZeroAndOneRecord) {
  Rng rng(99);
  for (uint32_t rs : {1u, 7u, 100u, 4096u}) {
    for (size_t n : {0, 1}) {
      for (Via via : {Via::kFiles, Via::kStdinPipe, Via::kStdinFile}) {
        RefSpec spec = {rs, {}, rng.chance(50), rng.chance(50)};
        if (rs >= 8) spec.keys.push_back(RefKey{rs - 8, 8, RefKind::kFloat, true, false});
        check_sort(spec, {rng.bytes(n * rs)}, {}, via, rng.chance(50),
                   "rs " + std::to_string(rs) + " n " + std::to_string(n));
      }
    }
  }
}

// gsort's chunk size under -S 64K is unknown to the test, so sweep counts
// around every plausible boundary: 64K / (record size + per-record
// overhead) / buffers, times 1-3 chunks, each -1, 0, +1.
TEST(PropertyChunks, RecordCountsAroundChunkBoundaries) {
  Rng rng(111);
  int failures = 0;
  for (uint32_t rs : {8u, 24u, 100u}) {
    std::set<size_t> counts;
    for (uint32_t overhead : {0u, 8u}) {
      for (uint32_t buffers : {1u, 2u, 4u}) {
        const size_t chunk = 65536 / (rs + overhead) / buffers;
        for (size_t chunks : {1, 2, 3}) {
          for (int delta : {-1, 0, 1}) counts.insert(chunk * chunks + delta);
        }
      }
    }
    const RefSpec spec = {rs, {RefKey{0, 2, RefKind::kUnsigned, false, false}}, false, false};
    for (size_t n : counts) {
      std::string data = rng.bytes(n * rs);
      for (size_t i = 0; i < n; ++i) data[i * rs + 1] = 0;  // 256 distinct keys: ties
      const Outcome o = check_sort(spec, {data}, {"-S", "64K"}, Via::kFiles, false,
                                   "rs " + std::to_string(rs) + " n " + std::to_string(n));
      if (!o.ok && ++failures >= 5) FAIL() << "stopping after 5 failing counts";
    }
  }
}

TEST(PropertyExternal, TinyMemoryForcesManyRunsAndMultiPassMerge) {
  Rng rng(222);
  // 4 MB, two keys (one descending), -r: a deep merge must keep it all.
  const RefSpec spec = {64,
                        {RefKey{5, 2, RefKind::kSigned, true, true},
                         RefKey{20, 8, RefKind::kFloat, false, false}},
                        true,
                        false};
  const std::string data = random_data(rng, spec, 65536, Shape::kFewDistinct);
  // The CPU backend: a GPU host's device tier would hold the whole input.
  const Outcome o = check_sort(spec, {data}, {"-S", "64K", "--backend", "cpu", "-v"}, Via::kFiles, true, "4 MB");
  ASSERT_EQ(o.result.status(), "exit 0");
  EXPECT_GE(verbose_count(o.result.err, "runs"), 32) << o.result.err;
  EXPECT_GE(verbose_count(o.result.err, "merge passes"), 2) << o.result.err;
}

TEST(PropertyExternal, StdinPipeOfUnknownSizeSpills) {
  Rng rng(333);
  const RefSpec spec = {40, {RefKey{0, 4, RefKind::kUnsigned, true, false}}, false, false};
  const std::string data = random_data(rng, spec, 80000, Shape::kFewDistinct);  // 3.2 MB
  const Outcome o =
      check_sort(spec, {data}, {"-S", "64K", "-v"}, Via::kStdinPipe, false, "3.2 MB pipe");
  ASSERT_EQ(o.result.status(), "exit 0");
  EXPECT_GE(verbose_count(o.result.err, "runs"), 16) << o.result.err;
  EXPECT_GE(verbose_count(o.result.err, "merge passes"), 1) << o.result.err;
}

TEST(PropertyInputs, SeveralInputsIncludingEmptyAndStdin) {
  Rng rng(444);
  for (int round = 0; round < 12; ++round) {
    RefSpec spec = {static_cast<uint32_t>(rng.range(4, 40)), {}, rng.chance(30), rng.chance(30)};
    spec.keys.push_back(random_key(rng, spec.record_size));
    std::vector<std::string> parts;
    const size_t count = static_cast<size_t>(rng.range(2, 7));
    for (size_t i = 0; i < count; ++i) {
      const size_t n = rng.chance(20) ? 0 : static_cast<size_t>(rng.range(1, 3000));
      parts.push_back(random_data(rng, spec, n, rng.chance(50) ? Shape::kFewDistinct : Shape::kRandom));
    }
    check_sort(spec, parts,
               rng.chance(50) ? std::vector<std::string>{"-S", "64K"} : std::vector<std::string>{},
               rng.chance(50) ? Via::kMixed : Via::kFiles, rng.chance(50),
               "round " + std::to_string(round));
  }
}

// Data from gsort-gen, in each of its distributions, sorted by the same keys.
TEST(PropertyGen, GeneratedDistributions) {
  const std::vector<std::string> distributions = {"uniform", "sorted",  "reverse",
                                                  "equal",   "few",     "lowentropy"};
  const std::vector<RefSpec> specs = {
      {32,
       {RefKey{8, 4, RefKind::kFloat, false, false}, RefKey{16, 2, RefKind::kSigned, true, true}},
       false,
       false},
      {16, {RefKey{8, 8, RefKind::kFloat, true, false}}, true, false},
      {24, {RefKey{12, 5, RefKind::kBytes, false, false}}, false, true},
      {12, {RefKey{0, 4, RefKind::kUnsigned, false, true}}, false, false},
  };
  uint64_t seed = 1;
  for (const RefSpec& spec : specs) {
    for (const std::string& distribution : distributions) {
      std::vector<std::string> gen_args = {"--record-size", std::to_string(spec.record_size),
                                           "--records",     "20000",
                                           "--seed",        std::to_string(seed++),
                                           "--distribution", distribution};
      for (const RefKey& k : spec.keys) gen_args.insert(gen_args.end(), {"--key", k.spec()});
      const ProcessResult gen = run_gsort_gen(gen_args);
      ASSERT_EQ(gen.status(), "exit 0") << command_line(gsort_gen_argv(gen_args)) << "\n"
                                        << gen.err;
      ASSERT_EQ(gen.out.size(), 20000u * spec.record_size);
      check_sort(spec, {gen.out}, {"-S", "128K"}, Via::kFiles, false,
                 command_line(gsort_gen_argv(gen_args)));
    }
  }
}

}  // namespace
}  // namespace gsort_test
