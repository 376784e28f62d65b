// Tests of gsort-gen, run as a program: determinism, sizes, layouts, the
// order each distribution promises (judged by gsort's own KeyLayout), and
// one-line errors with exit code 2. (Its number encoding on the library:
// unit/gen_field_bytes_test.cpp.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "src/keys/key_layout.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

using gsort::KeyField;
using gsort::KeyKind;
using gsort::KeyLayout;

// Runs gsort-gen with args plus "-o <path>" and returns the file's bytes;
// fails the test if the generator does not succeed.
std::string generate(const TempDir& dir, std::vector<std::string> args) {
  const std::string path = dir.file("out.dat");
  args.push_back("-o");
  args.push_back(path);
  const ProcessResult r = run_gsort_gen(args);
  EXPECT_EQ(r.exit_code, 0) << command_line(gsort_gen_argv(args)) << ": " << r.status() << "\n"
                            << r.err;
  return r.exit_code == 0 ? read_file(path) : std::string();
}

const uint8_t* record_at(const std::string& data, uint32_t record_size, size_t i) {
  return reinterpret_cast<const uint8_t*>(data.data()) + i * record_size;
}

std::vector<KeyField> parse_keys(const std::vector<std::string>& specs) {
  std::vector<KeyField> fields;
  for (const std::string& s : specs) fields.push_back(gsort::parse_key_spec(s));
  return fields;
}

// gsort-gen arguments for a raw layout with these key specs.
std::vector<std::string> raw_args(uint32_t record_size, const std::vector<std::string>& specs,
                                  uint64_t records, const std::string& distribution) {
  std::vector<std::string> args = {"--records", std::to_string(records), "--record-size",
                                   std::to_string(record_size), "--distribution", distribution};
  for (const std::string& s : specs) {
    args.push_back("--key");
    args.push_back(s);
  }
  return args;
}

// Each record compared with the next by gsort's order: the signs seen.
struct OrderSummary {
  size_t less = 0, equal = 0, greater = 0;
};

OrderSummary summarise_order(const std::string& data, const KeyLayout& layout) {
  OrderSummary s;
  const uint32_t size = layout.record_size();
  const size_t n = data.size() / size;
  for (size_t i = 1; i < n; ++i) {
    const int c = layout.compare(record_at(data, size, i - 1), record_at(data, size, i));
    (c < 0 ? s.less : c == 0 ? s.equal : s.greater)++;
  }
  return s;
}

size_t distinct_keys(const std::string& data, const KeyLayout& layout) {
  std::set<std::string> keys;
  std::string key(layout.width(), '\0');
  for (size_t i = 0; i < data.size() / layout.record_size(); ++i) {
    layout.normalise(record_at(data, layout.record_size(), i), reinterpret_cast<uint8_t*>(key.data()));
    keys.insert(key);
  }
  return keys.size();
}

// Key layouts covering every field kind, both byte orders, descending
// fields, multi-field keys, and keys too narrow for unique values.
const std::vector<std::vector<std::string>> kKeySets = {
    {"0:10"},  {"3:u8"},           {"0:u16"},         {"4:u32be"},       {"0:u64:desc"},
    {"1:i8"},  {"2:i16be"},        {"0:i32"},         {"8:i64be:desc"},  {"0:f32"},
    {"4:f64be"}, {"0:f32:desc"},   {"0:u8", "1:f64"}, {"16:3:desc", "0:i16"}, {"0:24"},
};

// ---------------------------------------------------------------- basics

TEST(GenTest, SameSeedSameBytesAndDifferentSeedDifferentBytes) {
  TempDir dir;
  const std::vector<std::vector<std::string>> layouts = {
      {"--format", "gensort"},
      {"--format", "gensort", "--ascii"},
      {"--record-size", "32", "--key", "0:f64", "--key", "8:i32be:desc"},
      {"--record-size", "32", "--key", "0:u16", "--distribution", "few"},
  };
  for (const auto& layout : layouts) {
    std::vector<std::string> args = layout;
    args.insert(args.end(), {"--records", "5000", "--seed"});
    const std::string a = generate(dir, [&] { auto x = args; x.push_back("7"); return x; }());
    const std::string b = generate(dir, [&] { auto x = args; x.push_back("7"); return x; }());
    const std::string c = generate(dir, [&] { auto x = args; x.push_back("8"); return x; }());
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, b) << command_line(args);
    EXPECT_NE(a, c) << command_line(args);
  }
}

TEST(GenTest, DefaultSeedIsOne) {
  TempDir dir;
  const std::vector<std::string> args = {"--records", "100", "--record-size", "16"};
  auto with_seed = args;
  with_seed.insert(with_seed.end(), {"--seed", "1"});
  EXPECT_EQ(generate(dir, args), generate(dir, with_seed));
}

TEST(GenTest, StandardOutputGetsTheSameBytesAsAFile) {
  TempDir dir;
  const std::vector<std::string> args = {"--records", "3000", "--format", "gensort"};
  const ProcessResult r = run_gsort_gen(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, generate(dir, args));
}

TEST(GenTest, OutputSizeIsRecordsTimesRecordSize) {
  TempDir dir;
  EXPECT_EQ(generate(dir, {"--records", "1234", "--format", "gensort"}).size(), 123400u);
  EXPECT_EQ(generate(dir, {"--records", "1234", "--format", "gensort", "--ascii"}).size(), 123400u);
  EXPECT_EQ(generate(dir, {"--records", "777", "--record-size", "1"}).size(), 777u);
  EXPECT_EQ(generate(dir, {"--records", "333", "--record-size", "37", "--key", "5:i16"}).size(),
            333u * 37);
  // Records larger than the generator's write buffer.
  EXPECT_EQ(generate(dir, {"--records", "3", "--record-size", "9437185", "--key", "0:8"}).size(),
            3u * 9437185);
}

TEST(GenTest, ZeroRecordsGiveAnEmptyFile) {
  TempDir dir;
  const std::string path = dir.file("out.dat");
  write_file(path, "old content");
  const ProcessResult r = run_gsort_gen({"--records", "0", "--format", "gensort", "-o", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(path_exists(path));
  EXPECT_EQ(read_file(path), "");
}

TEST(GenTest, HelpDocumentsTheOptionsAndExitsZero) {
  const ProcessResult r = run_gsort_gen({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* word : {"--records", "--seed", "--format", "gensort", "--ascii", "--record-size",
                           "--key", "--distribution", "lowentropy", "--distinct", "--float-specials"}) {
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  }
}

// gsort's layout (issue 32): the usage line, options in named groups as
// "-o, --output=FILE" with no Boost defaults in the names, every option in
// a group, lines within 79 columns, and the exit status.
TEST(GenTest, HelpHasGsortsLayout) {
  const ProcessResult r = run_gsort_gen({"--help"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("Usage: gsort-gen --records N", 0), 0u) << r.out;
  for (const char* line : {"\nWhat to write:\n", "\nLayout:\n", "\nKeys:\n", "\nInformation:\n",
                           "\n  -o, --output=FILE ", "\n      --float-specials[=on|off]\n", "Exit status: 0 success"}) {
    EXPECT_NE(r.out.find(line), std::string::npos) << line;
  }
  EXPECT_EQ(r.out.find("Other options"), std::string::npos);
  EXPECT_EQ(r.out.find("(=1)"), std::string::npos) << "Boost's default shown in an option's name";
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 79u) << line;
}

// ---------------------------------------------------------------- gensort

std::string row_hex(uint64_t row) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llX%016llX", 0ull, static_cast<unsigned long long>(row));
  return buf;
}

TEST(GenTest, GensortBinaryLayout) {
  TempDir dir;
  const std::string data = generate(dir, {"--records", "1000", "--format", "gensort"});
  ASSERT_EQ(data.size(), 100000u);
  for (size_t i = 0; i < 1000; ++i) {
    const std::string r = data.substr(i * 100, 100);
    EXPECT_EQ(r.substr(10, 2), std::string("\x00\x11", 2));
    EXPECT_EQ(r.substr(12, 32), row_hex(i));
    EXPECT_EQ(r.substr(44, 4), "\x88\x99\xAA\xBB");
    for (size_t g = 48; g < 96; g += 4) {
      EXPECT_TRUE(std::isxdigit(static_cast<unsigned char>(r[g])));
      EXPECT_EQ(r.substr(g, 4), std::string(4, r[g]));
    }
    EXPECT_EQ(r.substr(96, 4), "\xCC\xDD\xEE\xFF");
  }
}

TEST(GenTest, GensortAsciiRecordsArePrintableLines) {
  TempDir dir;
  const std::string data = generate(dir, {"--records", "20000", "--format", "gensort", "--ascii"});
  ASSERT_EQ(data.size(), 2000000u);
  std::set<char> key_chars;
  for (size_t i = 0; i < 20000; ++i) {
    const std::string r = data.substr(i * 100, 100);
    for (size_t b = 0; b < 98; ++b) {
      ASSERT_TRUE(r[b] >= ' ' && r[b] <= '~') << "record " << i << " byte " << b;
    }
    ASSERT_EQ(r.substr(98), "\r\n") << "record " << i;
    EXPECT_EQ(r.substr(10, 2), "  ");
    EXPECT_EQ(r.substr(12, 32), row_hex(i));
    EXPECT_EQ(r.substr(44, 2), "  ");
    for (size_t b = 0; b < 10; ++b) key_chars.insert(r[b]);
  }
  EXPECT_EQ(key_chars.size(), 95u) << "keys should use every printable character";
}

TEST(GenTest, GensortDistributionsKeepTheirOrder) {
  TempDir dir;
  const KeyLayout layout(parse_keys({"0:10"}), 100, false);
  for (const char* ascii : {"", "--ascii"}) {
    std::vector<std::string> base = {"--records", "5000", "--format", "gensort"};
    if (*ascii) base.push_back(ascii);
    auto sorted = base;
    sorted.insert(sorted.end(), {"--distribution", "sorted"});
    auto reverse = base;
    reverse.insert(reverse.end(), {"--distribution", "reverse"});
    const OrderSummary up = summarise_order(generate(dir, sorted), layout);
    EXPECT_EQ(up.greater, 0u);
    EXPECT_EQ(up.equal, 0u);
    const OrderSummary down = summarise_order(generate(dir, reverse), layout);
    EXPECT_EQ(down.less, 0u);
    EXPECT_EQ(down.equal, 0u);
  }
}

// ---------------------------------------------------------------- distributions

TEST(GenTest, SortedAndReverseFollowGsortsOrderForEveryKeyKind) {
  TempDir dir;
  // 3000 records: more than a u8 key can hold, so ties must appear there.
  const uint64_t n = 3000;
  for (const auto& specs : kKeySets) {
    const KeyLayout layout(parse_keys(specs), 32, false);
    const std::string up = generate(dir, raw_args(32, specs, n, "sorted"));
    const std::string down = generate(dir, raw_args(32, specs, n, "reverse"));
    ASSERT_EQ(up.size(), n * 32);
    const OrderSummary su = summarise_order(up, layout);
    const OrderSummary sd = summarise_order(down, layout);
    EXPECT_EQ(su.greater, 0u) << command_line(specs);
    EXPECT_EQ(sd.less, 0u) << command_line(specs);
    if (layout.width() >= 2) {
      EXPECT_EQ(su.equal, 0u) << command_line(specs) << ": keys with room should be unique";
    } else {
      EXPECT_GT(su.less, 200u) << command_line(specs) << ": keys should use the whole range";
    }
  }
}

TEST(GenTest, SortedKeysSpanTheKeySpace) {
  TempDir dir;
  const std::string data = generate(dir, raw_args(8, {"0:u32"}, 1000, "sorted"));
  uint32_t first, last;
  std::memcpy(&first, record_at(data, 8, 0), 4);
  std::memcpy(&last, record_at(data, 8, 999), 4);
  EXPECT_EQ(first, 0u);
  EXPECT_GT(last, 0xFF000000u);
}

TEST(GenTest, EqualGivesOneKey) {
  TempDir dir;
  for (const auto& specs : kKeySets) {
    const KeyLayout layout(parse_keys(specs), 32, false);
    const std::string data = generate(dir, raw_args(32, specs, 2000, "equal"));
    const OrderSummary s = summarise_order(data, layout);
    EXPECT_EQ(s.less + s.greater, 0u) << command_line(specs);
    EXPECT_EQ(s.equal, 1999u);
  }
}

TEST(GenTest, FewGivesAtMostDistinctKeys) {
  TempDir dir;
  for (const char* k : {"1", "5", "16", "100"}) {
    for (const auto& specs : kKeySets) {
      const KeyLayout layout(parse_keys(specs), 32, false);
      auto args = raw_args(32, specs, 5000, "few");
      args.insert(args.end(), {"--distinct", k});
      const size_t distinct = distinct_keys(generate(dir, args), layout);
      const size_t want = std::stoul(k);
      EXPECT_LE(distinct, want) << command_line(specs) << " --distinct " << k;
      // Narrow keys may draw the same value twice; wide ones should not.
      if (layout.width() >= 4) {
        EXPECT_EQ(distinct, want) << command_line(specs);
      }
    }
  }
  // K far beyond the record count costs no memory.
  const KeyLayout wide(parse_keys({"0:16"}), 16, false);
  auto huge = raw_args(16, {"0:16"}, 1000, "few");
  huge.insert(huge.end(), {"--distinct", "1000000000000"});
  EXPECT_GT(distinct_keys(generate(dir, huge), wide), 990u);
  // The default K is 16.
  const KeyLayout layout(parse_keys({"0:u64"}), 8, false);
  EXPECT_EQ(distinct_keys(generate(dir, raw_args(8, {"0:u64"}, 5000, "few")), layout), 16u);
}

TEST(GenTest, LowEntropyKeysAreSkewedAndRepeat) {
  TempDir dir;
  const std::string data = generate(dir, raw_args(16, {"0:u16"}, 20000, "lowentropy"));
  size_t ones = 0;
  for (size_t i = 0; i < 20000; ++i) {
    uint16_t v;
    std::memcpy(&v, record_at(data, 16, i), 2);
    ones += static_cast<size_t>(__builtin_popcount(v));
  }
  const double bit_probability = static_cast<double>(ones) / (20000.0 * 16);
  EXPECT_NEAR(bit_probability, 0.125, 0.02);
  const KeyLayout layout(parse_keys({"0:u16"}), 16, false);
  EXPECT_LT(distinct_keys(data, layout), 12000u) << "expected many duplicates";
}

TEST(GenTest, UniformKeysLookRandom) {
  TempDir dir;
  const KeyLayout layout(parse_keys({"2:u32be"}), 16, false);
  const std::string data = generate(dir, raw_args(16, {"2:u32be"}, 4000, "uniform"));
  const OrderSummary s = summarise_order(data, layout);
  EXPECT_GT(s.less, 1700u);
  EXPECT_GT(s.greater, 1700u);
  EXPECT_GT(distinct_keys(data, layout), 3990u);
}

// ---------------------------------------------------------------- floats

struct FloatCensus {
  size_t pos_nan = 0, neg_nan = 0, pos_inf = 0, neg_inf = 0, pos_zero = 0, neg_zero = 0,
         subnormal = 0;
};

template <typename T>
FloatCensus census(const std::string& data, uint32_t record_size, uint32_t offset) {
  FloatCensus c;
  for (size_t i = 0; i < data.size() / record_size; ++i) {
    T v;
    std::memcpy(&v, record_at(data, record_size, i) + offset, sizeof v);
    const bool neg = std::signbit(v);
    if (std::isnan(v)) (neg ? c.neg_nan : c.pos_nan)++;
    if (std::isinf(v)) (neg ? c.neg_inf : c.pos_inf)++;
    if (v == 0) (neg ? c.neg_zero : c.pos_zero)++;
    if (std::fpclassify(v) == FP_SUBNORMAL) c.subnormal++;
  }
  return c;
}

TEST(GenTest, UniformFloatKeysIncludeSpecialValues) {
  TempDir dir;
  const std::string f32 = generate(dir, raw_args(16, {"0:f32", "8:f64"}, 20000, "uniform"));
  for (const FloatCensus& c : {census<float>(f32, 16, 0), census<double>(f32, 16, 8)}) {
    EXPECT_GT(c.pos_nan, 0u);
    EXPECT_GT(c.neg_nan, 0u);
    EXPECT_GT(c.pos_inf, 0u);
    EXPECT_GT(c.neg_inf, 0u);
    EXPECT_GT(c.pos_zero, 0u);
    EXPECT_GT(c.neg_zero, 0u);
    EXPECT_GT(c.subnormal, 0u);
  }
}

TEST(GenTest, FloatSpecialsOffGivesFiniteNumbers) {
  TempDir dir;
  for (const char* off : {"--float-specials=off", "--no-float-specials"}) {
    auto args = raw_args(16, {"0:f32", "8:f64be"}, 20000, "uniform");
    args.push_back(off);
    const std::string data = generate(dir, args);
    for (size_t i = 0; i < 20000; ++i) {
      float f;
      std::memcpy(&f, record_at(data, 16, i), 4);
      uint8_t be[8];
      std::memcpy(be, record_at(data, 16, i) + 8, 8);
      uint64_t bits = 0;
      for (uint8_t b : be) bits = (bits << 8) | b;
      double d;
      std::memcpy(&d, &bits, 8);
      ASSERT_TRUE(std::isfinite(f)) << off << " record " << i;
      ASSERT_TRUE(std::isfinite(d)) << off << " record " << i;
    }
  }
}

// ---------------------------------------------------------------- filler

TEST(GenTest, RecordNumberSitsInTheFirstFreeEightBytes) {
  TempDir dir;
  // Bytes 0-3 and 8-9 are keys, so the first free 8 bytes are 10-17.
  const std::string data = generate(dir, raw_args(24, {"0:u32", "8:u16"}, 500, "equal"));
  for (uint64_t i = 0; i < 500; ++i) {
    uint64_t stored = 0;
    for (int b = 0; b < 8; ++b) stored = (stored << 8) | record_at(data, 24, i)[10 + b];
    ASSERT_EQ(stored, i);
  }
}

TEST(GenTest, FillerIsRandomAndKeysDoNotDependOnIt) {
  TempDir dir;
  const std::string narrow = generate(dir, raw_args(12, {"0:u32"}, 1000, "uniform"));
  const std::string wide = generate(dir, raw_args(40, {"0:u32"}, 1000, "uniform"));
  std::set<std::string> tails;
  for (size_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(std::memcmp(record_at(narrow, 12, i), record_at(wide, 40, i), 4), 0);
    tails.insert(wide.substr(i * 40 + 12, 28));
  }
  EXPECT_EQ(tails.size(), 1000u);
}

// ---------------------------------------------------------------- errors

void expect_usage_error(const std::vector<std::string>& args, const std::string& needle) {
  const ProcessResult r = run_gsort_gen(args);
  const std::string cmd = command_line(gsort_gen_argv(args));
  EXPECT_EQ(r.exit_code, 2) << cmd << ": " << r.status();
  EXPECT_EQ(r.err.rfind("gsort-gen: ", 0), 0u) << cmd << ": " << r.err;
  ASSERT_FALSE(r.err.empty()) << cmd;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << cmd << ": not one line: " << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << cmd << ": " << r.err;
  EXPECT_TRUE(r.out.empty()) << cmd;
}

// The usage errors of gsort-gen are CLI cases: tests/cli/cases/gen.case.

TEST(GenTest, UnwritableOutputNamesThePath) {
  TempDir dir;
  const std::string path = dir.file("missing/out.dat");
  expect_usage_error({"--records", "1", "--format", "gensort", "-o", path},
                     path + ": No such file or directory");
}

TEST(GenTest, WriteErrorNamesThePath) {
  if (!path_exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  expect_usage_error({"--records", "100000", "--format", "gensort", "-o", "/dev/full"},
                     "/dev/full: No space left on device");
}

}  // namespace
}  // namespace gsort_test
