// End-to-end tests of the gsort command line: they run the built binary on
// files in a scratch directory and check its output, exit code, messages and
// the files it leaves behind.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/clean_error.h"
#include "tests/support/proc_fds.h"
#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tmpfs.h"

namespace gsort_test {
namespace {

// ---------------------------------------------------------------- helpers

// 8-byte records: a little-endian u32 key, then a u32 tag saying where the
// record came from, so stability and "first of equal keys" are visible.
std::string tagged_records(const std::vector<std::pair<uint32_t, uint32_t>>& key_tag) {
  std::string out;
  for (const auto& [key, tag] : key_tag) {
    for (int i = 0; i < 4; ++i) out += static_cast<char>(key >> (8 * i));
    for (int i = 0; i < 4; ++i) out += static_cast<char>(tag >> (8 * i));
  }
  return out;
}

std::string keyed_records(const std::vector<uint32_t>& keys) {
  std::vector<std::pair<uint32_t, uint32_t>> key_tag;
  for (uint32_t i = 0; i < keys.size(); ++i) key_tag.push_back({keys[i], i});
  return tagged_records(key_tag);
}

const RefSpec kTaggedSpec = {8, {RefKey{0, 4, RefKind::kUnsigned, false, false}}, false, false};

// n records of record_size bytes whose key (the first byte) repeats often.
std::string random_records(Rng& rng, size_t n, uint32_t record_size) {
  RecordMix few_keys;
  few_keys.distribution = Distribution::kFewDistinct;
  const RefSpec first_byte = {record_size, {RefKey{0, 1, RefKind::kBytes, false, false}}, false, false};
  return make_records(rng, first_byte, n, few_keys);
}

// The numbers written in text, as whole tokens.
std::vector<uint64_t> numbers_in(const std::string& text) {
  std::vector<uint64_t> numbers;
  const std::regex number("[0-9]+");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number);
       it != std::sregex_iterator(); ++it) {
    numbers.push_back(std::stoull(it->str()));
  }
  return numbers;
}

// The value after "label:" in gsort -v output, or -1.
long verbose_count(const std::string& err, const std::string& label) {
  std::smatch m;
  if (std::regex_search(err, m, std::regex(label + ":\\s*([0-9]+)"))) return std::stol(m[1]);
  return -1;
}

std::string describe_tree(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += " " + n;
  return s.empty() ? " (empty)" : s;
}

// ------------------------------------------------------------ basic sorts

TEST(CliSort, StdinToStdout) {
  Rng rng(1);
  const std::string data = random_records(rng, 1000, 16);
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = data;
  const ProcessResult r = run_gsort({"--record-size", "16"}, in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(describe_difference(r.out, reference_sort(data, {16, {}, false, false}), 16), "");
}

TEST(CliSort, StdinFromRegularFileWithDash) {
  TempDir dir;
  Rng rng(2);
  const std::string data = random_records(rng, 500, 10);
  write_file(dir.file("in.bin"), data);
  ProcessOptions in;
  in.stdin_kind = StdinKind::kFile;
  in.stdin_path = dir.file("in.bin");
  const ProcessResult r = run_gsort({"--record-size", "10", "-"}, in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(r.out, reference_sort(data, {10, {}, false, false}), 10), "");
}

TEST(CliSort, FileToOutputFileIsQuiet) {
  TempDir dir;
  Rng rng(3);
  const std::string data = random_records(rng, 2000, 24);
  write_file(dir.file("in.bin"), data);
  const ProcessResult r =
      run_gsort({"--record-size", "24", "-o", dir.file("out.bin"), dir.file("in.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, "") << "stdout must be empty with -o";
  EXPECT_EQ(r.err, "") << "stderr must be empty without -v";
  EXPECT_EQ(describe_difference(read_file(dir.file("out.bin")),
                                reference_sort(data, {24, {}, false, false}), 24),
            "");
  EXPECT_EQ(read_file(dir.file("in.bin")), data) << "input modified";
  std::vector<std::string> names = list_tree(dir.path());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"in.bin", "out.bin"}))
      << "leftovers next to the output:" << describe_tree(names);
}

TEST(CliSort, LongOptionsAndKeys) {
  TempDir dir;
  const std::string data = keyed_records({9, 3, 7, 3, 1, 9});
  write_file(dir.file("in.bin"), data);
  const ProcessResult r = run_gsort({"--record-size=8", "--key=0:u32", "--output",
                                     dir.file("out.bin"), "--memory", "1M", "--parallel", "2",
                                     "--temporary-directory", dir.subdir("tmp"),
                                     dir.file("in.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(read_file(dir.file("out.bin")),
            tagged_records({{1, 4}, {3, 1}, {3, 3}, {7, 2}, {9, 0}, {9, 5}}));
}

TEST(CliSort, SeveralInputsSortTogetherInOrderGiven) {
  TempDir dir;
  Rng rng(4);
  // Duplicate keys across files: equal keys must come out in input order,
  // that is file by file in command-line order (stdin where "-" stands).
  std::string a, b, c;
  for (uint32_t i = 0; i < 300; ++i) a += tagged_records({{uint32_t(rng.below(20)), i}});
  for (uint32_t i = 0; i < 200; ++i) b += tagged_records({{uint32_t(rng.below(20)), 1000 + i}});
  for (uint32_t i = 0; i < 250; ++i) c += tagged_records({{uint32_t(rng.below(20)), 2000 + i}});
  write_file(dir.file("a.bin"), a);
  write_file(dir.file("c.bin"), c);
  write_file(dir.file("empty.bin"), "");
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = b;
  const ProcessResult r =
      run_gsort({"--record-size", "8", "--key", "0:u32", dir.file("a.bin"), dir.file("empty.bin"),
                 "-", dir.file("c.bin")},
                in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(r.out, reference_sort(a + b + c, kTaggedSpec), 8), "");
}

TEST(CliSort, OutputMayNameAnInput) {
  TempDir dir;
  Rng rng(5);
  const std::string f = random_records(rng, 400, 8);
  const std::string g = random_records(rng, 300, 8);
  write_file(dir.file("f.bin"), f);
  write_file(dir.file("g.bin"), g);
  // gsort -o f f
  ProcessResult r = run_gsort({"--record-size", "8", "-o", dir.file("f.bin"), dir.file("f.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(read_file(dir.file("f.bin")),
                                reference_sort(f, {8, {}, false, false}), 8),
            "");
  // gsort -o g f g: the output is the second input.
  write_file(dir.file("f.bin"), f);
  r = run_gsort({"--record-size", "8", "-o", dir.file("g.bin"), dir.file("f.bin"),
                 dir.file("g.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(read_file(dir.file("g.bin")),
                                reference_sort(f + g, {8, {}, false, false}), 8),
            "");
  EXPECT_EQ(read_file(dir.file("f.bin")), f);
}

TEST(CliSort, OutputMayNameAnInputThatSpillsRuns) {
  TempDir dir;
  Rng rng(6);
  const std::string f = random_records(rng, 30000, 100);  // 3 MB against -S 64K
  write_file(dir.file("f.bin"), f);
  const std::string tmp = dir.subdir("tmp");
  const ProcessResult r = run_gsort({"--record-size", "100", "--key", "0:10", "-S", "64K", "-T",
                                     tmp, "-o", dir.file("f.bin"), dir.file("f.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const RefSpec spec = {100, {RefKey{0, 10, RefKind::kBytes, false, false}}, false, false};
  EXPECT_EQ(describe_difference(read_file(dir.file("f.bin")), reference_sort(f, spec), 100), "");
  EXPECT_EQ(list_tree(tmp), std::vector<std::string>{});
}

TEST(CliSort, HugeRecords) {
  TempDir dir;
  Rng rng(7);
  const uint32_t rs = 1u << 20;  // 1 MiB, the largest size gsort must take
  const std::string data = rng.bytes(6ull * rs);
  write_file(dir.file("in.bin"), data);
  const std::string key = std::to_string(rs - 4) + ":u32be";
  const ProcessResult r = run_gsort({"--record-size", std::to_string(rs), "--key", key, "-o",
                                     dir.file("out.bin"), dir.file("in.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const RefSpec spec = {rs, {RefKey{rs - 4, 4, RefKind::kUnsigned, true, false}}, false, false};
  EXPECT_EQ(describe_difference(read_file(dir.file("out.bin")), reference_sort(data, spec), rs),
            "");
}

TEST(CliSort, OneByteTypesTakeTheBigEndianSuffix) {
  const std::string data = keyed_records({0x80, 0x7f, 0x01, 0xff, 0x00});
  for (const char* type : {"u8", "u8be", "i8", "i8be"}) {
    ProcessOptions in;
    in.stdin_kind = StdinKind::kPipe;
    in.stdin_data = data;
    const ProcessResult r =
        run_gsort({"--record-size", "8", "--key", std::string("0:") + type}, in);
    ASSERT_EQ(r.status(), "exit 0") << type << ": " << r.err;
    const RefKind kind = type[0] == 'u' ? RefKind::kUnsigned : RefKind::kSigned;
    const RefSpec spec = {8, {RefKey{0, 1, kind, false, false}}, false, false};
    EXPECT_EQ(describe_difference(r.out, reference_sort(data, spec), 8), "") << type;
  }
}

TEST(CliSort, MemorySizeForms) {
  Rng rng(8);
  const std::string data = random_records(rng, 3000, 12);
  const std::string want = reference_sort(data, {12, {}, false, false});
  for (const char* size : {"64K", "64k", "3M", "1G", "5%", "100000"}) {
    TempDir dir;
    ProcessOptions in;
    in.stdin_kind = StdinKind::kPipe;
    in.stdin_data = data;
    const ProcessResult r =
        run_gsort({"--record-size", "12", "-S", size, "-T", dir.path()}, in);
    ASSERT_EQ(r.status(), "exit 0") << "-S " << size << ": " << r.err;
    EXPECT_EQ(describe_difference(r.out, want, 12), "") << "-S " << size;
  }
}

// ------------------------------------------------------------- -r and -u

TEST(CliSort, ReverseKeepsEqualKeysInInputOrder) {
  const std::string data = keyed_records({2, 1, 2, 3, 1, 2});
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = data;
  for (const char* flag : {"-r", "--reverse"}) {
    const ProcessResult r = run_gsort({"--record-size", "8", "--key", "0:u32", flag}, in);
    ASSERT_EQ(r.status(), "exit 0") << r.err;
    EXPECT_EQ(r.out, tagged_records({{3, 3}, {2, 0}, {2, 2}, {2, 5}, {1, 1}, {1, 4}})) << flag;
  }
}

TEST(CliSort, ReverseOfADescendingKeyIsAscending) {
  const std::string data = keyed_records({2, 1, 2, 3, 1});
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = data;
  const ProcessResult r = run_gsort({"--record-size", "8", "--key", "0:u32:desc", "-r"}, in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, tagged_records({{1, 1}, {1, 4}, {2, 0}, {2, 2}, {3, 3}}));
}

TEST(CliSort, UniqueKeepsTheFirstOfEqualKeys) {
  const std::string data = keyed_records({5, 3, 5, 1, 3, 5, 1});
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = data;
  ProcessResult r = run_gsort({"--record-size", "8", "--key", "0:u32", "-u"}, in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, tagged_records({{1, 3}, {3, 1}, {5, 0}}));
  r = run_gsort({"--record-size", "8", "--key", "0:u32", "--unique", "-r"}, in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, tagged_records({{5, 0}, {3, 1}, {1, 3}}));
}

TEST(CliSort, UniqueWithTheWholeRecordDropsExactDuplicates) {
  const std::string data = tagged_records({{4, 1}, {2, 2}, {4, 1}, {4, 0}, {2, 2}});
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = data;
  const ProcessResult r = run_gsort({"--record-size", "8", "-u"}, in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, reference_sort(data, {8, {}, false, true}));
  EXPECT_EQ(r.out.size(), 3u * 8);
}

TEST(CliSort, UniqueAcrossSpilledRunsKeepsTheFirstInInputOrder) {
  // Equal keys spread over many runs: the survivor must be the earliest.
  TempDir dir;
  Rng rng(9);
  std::string data;
  for (uint32_t i = 0; i < 40000; ++i) data += tagged_records({{uint32_t(rng.below(50)), i}});
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = data;
  const ProcessResult r =
      run_gsort({"--record-size", "8", "--key", "0:u32", "-u", "-S", "64K", "-T", dir.path()}, in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  RefSpec spec = kTaggedSpec;
  spec.unique = true;
  EXPECT_EQ(describe_difference(r.out, reference_sort(data, spec), 8), "");
}

// ------------------------------------------------------------ -c and -C

TEST(CliCheck, SortedInputExitsZeroSilently) {
  TempDir dir;
  // Ties are in order: -c must accept them.
  write_file(dir.file("in.bin"), tagged_records({{1, 9}, {1, 3}, {2, 0}, {7, 5}, {7, 1}}));
  for (const char* flag : {"-c", "--check", "-C"}) {
    const ProcessResult r =
        run_gsort({"--record-size", "8", "--key", "0:u32", flag, dir.file("in.bin")});
    EXPECT_EQ(r.status(), "exit 0") << flag << ": " << r.err;
    EXPECT_EQ(r.out, "") << flag;
    EXPECT_EQ(r.err, "") << flag;
  }
}

TEST(CliCheck, HonoursReverseAndDescendingKeys) {
  TempDir dir;
  write_file(dir.file("in.bin"), tagged_records({{9, 0}, {5, 1}, {5, 2}, {1, 3}}));
  ProcessResult r = run_gsort({"--record-size", "8", "--key", "0:u32", "-r", "-c",
                               dir.file("in.bin")});
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  r = run_gsort({"--record-size", "8", "--key", "0:u32:desc", "-c", dir.file("in.bin")});
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  r = run_gsort({"--record-size", "8", "--key", "0:u32", "-c", dir.file("in.bin")});
  EXPECT_EQ(r.status(), "exit 1") << r.err;
}

TEST(CliCheck, UnsortedInputExitsOneAndNamesThePosition) {
  TempDir dir;
  std::vector<uint32_t> keys;
  for (uint32_t i = 0; i < 100; ++i) keys.push_back(1000 + 10 * i);
  keys[37] = 5;  // records 0..36 are in order; record 37 (0-based) is the first bad one
  keys[60] = 1;
  write_file(dir.file("unsorted.bin"), keyed_records(keys));
  const ProcessResult r =
      run_gsort({"--record-size", "8", "--key", "0:u32", "-c", dir.file("unsorted.bin")});
  EXPECT_EQ(r.status(), "exit 1") << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // The position may be a 0-based or 1-based record number or a byte
  // offset (spec: "the first bad position"); any of them names record 37.
  const std::vector<uint64_t> numbers = numbers_in(r.err);
  const bool named = std::any_of(numbers.begin(), numbers.end(), [](uint64_t n) {
    return n == 37 || n == 38 || n == 37 * 8;
  });
  EXPECT_TRUE(named) << "stderr should name record 37 (or 38 counting from 1, or byte 296): "
                     << r.err;
}

TEST(CliCheck, QuietCheckPrintsNothing) {
  TempDir dir;
  write_file(dir.file("unsorted.bin"), keyed_records({3, 2, 1}));
  const ProcessResult r =
      run_gsort({"--record-size", "8", "--key", "0:u32", "-C", dir.file("unsorted.bin")});
  EXPECT_EQ(r.status(), "exit 1");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
}

TEST(CliCheck, ChecksStdinAndRefusesSeveralInputs) {
  TempDir dir;
  write_file(dir.file("a.bin"), keyed_records({1, 2, 3}));
  write_file(dir.file("b.bin"), keyed_records({3, 4}));
  // The spec leaves -c with several inputs open. Like sort(1) ("extra
  // operand not allowed with -c"), gsort refuses it as a usage error.
  ProcessResult r = run_gsort({"--record-size", "8", "--key", "0:u32", "-c", dir.file("a.bin"),
                               dir.file("b.bin")});
  expect_clean_error(r, {"check|-c"}, "-c with two inputs");
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = keyed_records({4, 3});
  r = run_gsort({"--record-size", "8", "--key", "0:u32", "-C"}, in);
  EXPECT_EQ(r.status(), "exit 1") << r.err;
}

// ------------------------------------------------------------------- -m

// Splits data into `parts` record-aligned pieces of random sizes.
std::vector<std::string> split_records(Rng& rng, const std::string& data, uint32_t rs,
                                       size_t parts) {
  const size_t n = data.size() / rs;
  std::vector<size_t> cuts = {0, n};
  for (size_t i = 1; i < parts; ++i) cuts.push_back(rng.below(n + 1));
  std::sort(cuts.begin(), cuts.end());
  std::vector<std::string> pieces;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    pieces.push_back(data.substr(cuts[i] * rs, (cuts[i + 1] - cuts[i]) * rs));
  }
  return pieces;
}

void check_merge(size_t record_count, size_t parts, std::vector<std::string> extra_args,
                 bool unique, uint64_t seed) {
  TempDir dir;
  Rng rng(seed);
  std::string data;
  for (uint32_t i = 0; i < record_count; ++i) {
    data += tagged_records({{uint32_t(rng.below(record_count / 4 + 1)), i}});
  }
  RefSpec spec = kTaggedSpec;
  spec.unique = unique;
  std::vector<std::string> args = {"--record-size", "8", "--key", "0:u32", "-m"};
  if (unique) args.push_back("-u");
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  args.push_back("-o");
  args.push_back(dir.file("merged.bin"));
  std::string concatenation;
  const std::vector<std::string> pieces = split_records(rng, data, 8, parts);
  for (size_t i = 0; i < pieces.size(); ++i) {
    RefSpec sort_only = kTaggedSpec;
    const std::string sorted = reference_sort(pieces[i], sort_only);
    concatenation += sorted;
    const std::string name = dir.file("part" + std::to_string(i) + ".bin");
    write_file(name, sorted);
    args.push_back(name);
  }
  const ProcessResult merged = run_gsort(args);
  ASSERT_EQ(merged.status(), "exit 0") << command_line(gsort_argv(args)) << "\n" << merged.err;
  const std::string got = read_file(dir.file("merged.bin"));
  // Merging sorted parts is sorting their concatenation, stability included.
  EXPECT_EQ(describe_difference(got, reference_sort(concatenation, spec), 8), "");
  std::vector<std::string> sort_args = {"--record-size", "8", "--key", "0:u32"};
  if (unique) sort_args.push_back("-u");
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = concatenation;
  const ProcessResult sorted = run_gsort(sort_args, in);
  ASSERT_EQ(sorted.status(), "exit 0") << sorted.err;
  EXPECT_EQ(describe_difference(got, sorted.out, 8), "") << "-m differs from sorting";
}

TEST(CliMerge, MergingSortedPartsEqualsSortingTheConcatenation) {
  check_merge(5000, 5, {}, false, 11);
}

TEST(CliMerge, UniqueKeepsTheFirstAcrossInputs) { check_merge(5000, 4, {}, true, 12); }

TEST(CliMerge, ManyInputsWithTinyMemory) {
  TempDir tmp;
  check_merge(60000, 40, {"-S", "64K", "-T", tmp.path()}, false, 13);
  EXPECT_EQ(list_tree(tmp.path()), std::vector<std::string>{});
}

TEST(CliMerge, EmptyAndSingleInputs) {
  TempDir dir;
  write_file(dir.file("empty.bin"), "");
  write_file(dir.file("one.bin"), keyed_records({1, 2, 2, 9}));
  ProcessResult r = run_gsort({"--record-size", "8", "-m", dir.file("empty.bin")});
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, "");
  r = run_gsort({"--record-size", "8", "--key", "0:u32", "-m", dir.file("empty.bin"),
                 dir.file("one.bin"), dir.file("empty.bin")});
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, read_file(dir.file("one.bin")));
}

TEST(CliMerge, UnsortedInputIsACleanError) {
  // Not in the spec's list of errors, but gsort checks its merge inputs
  // (core/errors.h): a user expects an error, not silently wrong output.
  TempDir dir;
  write_file(dir.file("sorted.bin"), keyed_records({1, 5, 9}));
  write_file(dir.file("unsorted.bin"), keyed_records({3, 1, 2}));
  const std::vector<std::string> args = {"--record-size", "8", "--key", "0:u32", "-m", "-o",
                                         dir.file("out.bin"), dir.file("sorted.bin"),
                                         dir.file("unsorted.bin")};
  const ProcessResult r = run_gsort(args);
  expect_clean_error(r, {"unsorted.bin"}, command_line(gsort_argv(args)));
  EXPECT_FALSE(path_exists(dir.file("out.bin")));
}

// -------------------------------------------------------------- gensort

std::string generate_gensort(size_t records, uint64_t seed, bool ascii) {
  std::vector<std::string> args = {"--format", "gensort", "--records", std::to_string(records),
                                   "--seed", std::to_string(seed)};
  if (ascii) args.push_back("--ascii");
  const ProcessResult r = run_gsort_gen(args);
  EXPECT_EQ(r.status(), "exit 0") << command_line(gsort_gen_argv(args)) << ": " << r.err;
  EXPECT_EQ(r.out.size(), records * 100) << "gsort-gen wrote the wrong size";
  return r.out;
}

const RefSpec kGensortSpec = {100, {RefKey{0, 10, RefKind::kBytes, false, false}}, false, false};

TEST(CliGensort, SortsGeneratedBinaryRecords) {
  TempDir dir;
  const std::string data = generate_gensort(20000, 1, false);
  ASSERT_FALSE(data.empty());
  write_file(dir.file("in.bin"), data);
  ProcessResult r = run_gsort({"--format", "gensort", "-S", "256K", "-T", dir.subdir("tmp"), "-o",
                               dir.file("out.bin"), dir.file("in.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const std::string out = read_file(dir.file("out.bin"));
  EXPECT_EQ(describe_difference(out, reference_sort(data, kGensortSpec), 100), "");
  r = run_gsort({"--format", "gensort", "-c", dir.file("out.bin")});
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  r = run_gsort({"--format", "gensort", "-C", dir.file("in.bin")});
  EXPECT_EQ(r.status(), "exit 1") << r.err;
}

TEST(CliGensort, SortsGeneratedAsciiRecords) {
  const std::string data = generate_gensort(10000, 2, true);
  ASSERT_FALSE(data.empty());
  EXPECT_EQ(data.substr(98, 2), "\r\n");
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = data;
  const ProcessResult r = run_gsort({"--format", "gensort"}, in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(r.out, reference_sort(data, kGensortSpec), 100), "");
}

TEST(CliGensort, SameSeedSameData) {
  EXPECT_EQ(generate_gensort(100, 5, false), generate_gensort(100, 5, false));
  EXPECT_NE(generate_gensort(100, 5, false), generate_gensort(100, 6, false));
}

// ------------------------------------------------------- empty and help

TEST(CliSort, EmptyInput) {
  TempDir dir;
  write_file(dir.file("empty.bin"), "");
  ProcessResult r =
      run_gsort({"--record-size", "16", "-o", dir.file("out.bin"), dir.file("empty.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.err, "");
  ASSERT_TRUE(path_exists(dir.file("out.bin")));
  EXPECT_EQ(read_file(dir.file("out.bin")), "");
  r = run_gsort({"--record-size", "16"});  // stdin is /dev/null
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, "");
  r = run_gsort({"--record-size", "16", "-c", dir.file("empty.bin")});
  EXPECT_EQ(r.status(), "exit 0") << r.err;
}

TEST(CliInfo, HelpMentionsStability) {
  const ProcessResult r = run_gsort({"--help"});
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_NE(lower(r.out).find("stable"), std::string::npos) << "--help: " << r.out;
  EXPECT_NE(r.out.find("--record-size"), std::string::npos);
}

TEST(CliInfo, Version) {
  const ProcessResult r = run_gsort({"--version"});
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_NE(r.out.find("gsort"), std::string::npos) << r.out;
  EXPECT_TRUE(std::any_of(r.out.begin(), r.out.end(), ::isdigit)) << r.out;
  // What was built in (src/cli/build_info.cpp).
#ifdef GSORT_HAVE_CUDA
  EXPECT_NE(r.out.find("GPU support: built (CUDA "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nGPU devices: "), std::string::npos) << "built is not found: " << r.out;
#else
  EXPECT_NE(r.out.find("GPU support: not built"), std::string::npos) << r.out;
#endif
#ifdef GSORT_HAVE_MPI
  EXPECT_NE(r.out.find("MPI: yes"), std::string::npos) << r.out;
#else
  EXPECT_NE(r.out.find("MPI: no"), std::string::npos) << r.out;
#endif
#ifdef GSORT_HAVE_NCCL
  EXPECT_NE(r.out.find("NCCL: yes"), std::string::npos) << r.out;
#else
  EXPECT_NE(r.out.find("NCCL: no"), std::string::npos) << r.out;
#endif
  EXPECT_NE(r.out.find("zstd 1."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Boost 1."), std::string::npos) << r.out;
}

// --------------------------------------------------------- verbose, temp

TEST(CliTemp, TinyMemorySpillsAndLeavesTempDirEmpty) {
  TempDir dir;
  Rng rng(20);
  const std::string data = random_records(rng, 30000, 100);  // 3 MB
  write_file(dir.file("in.bin"), data);
  const std::string tmp = dir.subdir("tmp");
  const std::string out = dir.subdir("out");
  // The CPU backend: a GPU host's device tier would hold the whole input.
  const ProcessResult r = run_gsort({"--record-size", "100", "-S", "64K", "--backend", "cpu", "-T", tmp, "-v", "-o",
                                     out + "/sorted.bin", dir.file("in.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_GE(verbose_count(r.err, "runs"), 16) << "-S 64K over 3 MB must spill many runs: "
                                              << r.err;
  EXPECT_GE(verbose_count(r.err, "merge passes"), 2) << r.err;
  EXPECT_EQ(describe_difference(read_file(out + "/sorted.bin"),
                                reference_sort(data, {100, {}, false, false}), 100),
            "");
  EXPECT_EQ(list_tree(tmp), std::vector<std::string>{}) << "temp dir not empty after success";
  EXPECT_EQ(list_tree(out), std::vector<std::string>{"sorted.bin"});
}

TEST(CliTemp, TmpdirEnvironmentIsTheDefaultTempDir) {
  TempDir dir;
  Rng rng(21);
  const std::string data = random_records(rng, 20000, 100);
  const std::string tmp = dir.subdir("tmp");
  Process child(gsort_argv({"--record-size", "100", "-S", "64K"}),
                ProcessOptions{StdinKind::kPipe, "", data, {"TMPDIR=" + tmp}});
  // Spilled runs must land under $TMPDIR while it works (unnamed files:
  // seen through the child's descriptors).
  const bool spilled = wait_for_run_files(tmp, 1, child, 60);
  const ProcessResult r = child.wait(120);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(spilled) << "no run files appeared under $TMPDIR";
  EXPECT_EQ(describe_difference(r.out, reference_sort(data, {100, {}, false, false}), 100), "");
  EXPECT_EQ(list_tree(tmp), std::vector<std::string>{});
}

TEST(CliTemp, VerboseReportsPhasesOnStderrOnly) {
  TempDir dir;
  Rng rng(22);
  const std::string data = random_records(rng, 1000, 8);
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = data;
  const ProcessResult r = run_gsort({"--record-size", "8", "-v", "-T", dir.path()}, in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(describe_difference(r.out, reference_sort(data, {8, {}, false, false}), 8), "")
      << "-v must not touch stdout";
  EXPECT_GE(verbose_count(r.err, "runs"), 0) << r.err;
  EXPECT_GE(verbose_count(r.err, "merge passes"), 0) << r.err;
}

// ---------------------------------------------------------------- errors

// The table-driven error cases (exit code, the one stderr line, nothing
// left behind) are text files: tests/cli/cases/*.case, run by
// cli_cases_test.cpp.

TEST(CliErrorDiskFull, TempDirectoryFillsUp) {
  TempDir dir;
  const std::string tmp = dir.subdir("tiny");
  Tmpfs tmpfs(tmp, "1m");
  if (!tmpfs.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here: " << tmpfs.error();
  Rng rng(40);
  // 4 MB of incompressible records against a 1 MB temp dir; the room check
  // (cli_room_check_test.cpp) would refuse it before any run.
  write_file(dir.file("in.bin"), rng.bytes(40000 * 100));
  const std::string out = dir.subdir("out");
  const std::vector<std::string> args = {"--record-size", "100", "-S", "64K", "--backend", "cpu", "--no-space-check",
                                         "-T", tmp, "-o", out + "/result.bin", dir.file("in.bin")};
  const ProcessResult r = run_gsort(args);
  expect_clean_error(r, {"no space left"}, command_line(gsort_argv(args)));
  EXPECT_EQ(list_tree(tmp), std::vector<std::string>{}) << "temp dir not emptied";
  EXPECT_EQ(list_tree(out), std::vector<std::string>{}) << "output left behind";
}

// --------------------------------------------------------------- signals

class CliSignal : public testing::TestWithParam<int> {};

TEST_P(CliSignal, StopsCleanlyWhileSpilling) {
  const int sig = GetParam();
  TempDir dir;
  const std::string tmp = dir.subdir("tmp");
  const std::string out = dir.subdir("out");
  Process child(gsort_argv({"--record-size", "100", "-S", "1M", "-T", tmp, "-o",
                            out + "/result.bin"}),
                ProcessOptions{StdinKind::kPipe, "", "", {}});
  // Feed records until the child dies (EPIPE) or a few hundred MB have
  // gone: the input never ends on its own.
  const int fd = child.take_stdin();
  std::atomic<bool> stop{false};
  std::thread feeder([fd, &stop] {
    Rng rng(50);
    const std::string block = rng.bytes(1000 * 100);
    size_t sent = 0;
    while (!stop && sent < (400u << 20)) {
      const ssize_t n = write(fd, block.data(), block.size());
      if (n < 0 && errno != EINTR) break;
      if (n > 0) sent += static_cast<size_t>(n);
    }
    close(fd);
  });
  const bool spilled = wait_for_run_files(tmp, 2, child, 60);
  if (spilled) {
    child.send_signal(sig);  // stdin stays open: only the signal can end it
  } else {
    stop = true;  // closing stdin lets it finish, to report what happened
  }
  const ProcessResult r = child.wait(60);
  stop = true;
  feeder.join();
  ASSERT_TRUE(spilled) << "no run files appeared in -T before the child " << r.status() << ": "
                       << r.err;
  EXPECT_FALSE(r.timed_out) << "gsort ignored signal " << sig;
  EXPECT_TRUE(r.term_signal == sig || (r.exited() && r.exit_code != 0))
      << "after signal " << sig << ": " << r.status();
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(list_tree(tmp), std::vector<std::string>{}) << "leftovers in -T after signal";
  EXPECT_EQ(list_tree(out), std::vector<std::string>{}) << "output left after signal";
}

INSTANTIATE_TEST_SUITE_P(CliSignals, CliSignal, testing::Values(SIGINT, SIGTERM),
                         [](const testing::TestParamInfo<int>& p) {
                           return std::string(p.param == SIGINT ? "SIGINT" : "SIGTERM");
                         });

}  // namespace
}  // namespace gsort_test
