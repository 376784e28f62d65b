// The command line (src/cli/): sizes as GNU sort reads -S, and
// parse_command_line's translation of arguments into a SortConfig, with a
// UsageError for anything malformed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include "src/cli/options.h"
#include "src/cli/size_parse.h"
#include "src/core/errors.h"
#include "src/config/sort_config.h"
#include "tests/support/parse_args.h"

namespace gsort {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB << 10, kGiB = kMiB << 10, kTiB = kGiB << 10, kPiB = kTiB << 10,
                   kEiB = kPiB << 10;

// ------------------------------------------------------------- parse_size

TEST(ParseSize, SuffixesAndBareNumbers) {
  struct Case {
    const char* text;
    uint64_t bytes;
  };
  const Case cases[] = {
      {"0", 0},          {"1", kKiB},           {"100", 100 * kKiB},   {"0b", 0},
      {"1b", 1},         {"4097b", 4097},       {"K", kKiB},           {"1K", kKiB},
      {"1k", kKiB},      {"3K", 3 * kKiB},      {"1M", kMiB},          {"512m", 512 * kMiB},
      {"1G", kGiB},      {"2g", 2 * kGiB},      {"1T", kTiB},          {"7t", 7 * kTiB},
      {"007M", 7 * kMiB},
      {"18446744073709551615b", UINT64_MAX},               // the largest byte count
      {"18014398509481983", 18014398509481983ull * kKiB},  // the largest bare KiB count
      {"16777215T", 16777215ull * kTiB},                   // the largest TiB count
      {"1P", kPiB},      {"16383P", 16383 * kPiB},  // GNU sort's P and E
      {"1E", kEiB},      {"15E", 15 * kEiB},        // the largest EiB count
      {"0Z", 0},  {"0R", 0},  {"0Q", 0},  // GNU's larger suffixes: only 0 fits
      // As GNU sort's xstrtoumax reads them: a unit alone is one of it,
      // blanks and a '+' may come first.
      {"M", kMiB},       {"g", kGiB},           {" 1", kKiB},          {"+2", 2 * kKiB},
  };
  for (const Case& c : cases) {
    uint64_t got = 0;
    ASSERT_NO_THROW(got = parse_size(c.text, "-S")) << c.text;
    EXPECT_EQ(got, c.bytes) << c.text;
  }
}

TEST(ParseSize, PercentOfPhysicalMemory) {
  const uint64_t ram = physical_memory_bytes();
  ASSERT_GT(ram, 0u);
  EXPECT_EQ(parse_size("100%", "-S"), ram / 100 * 100);
  EXPECT_EQ(parse_size("50%", "-S"), ram / 100 * 50);
  EXPECT_EQ(parse_size("1%", "-S"), ram / 100);
  EXPECT_LE(parse_size("100%", "-S"), ram);
  // Over 100%, as GNU sort allows: -S bounds memory, it does not take it.
  EXPECT_EQ(parse_size("101%", "-S"), ram / 100 * 101);
  EXPECT_EQ(parse_size("250%", "-S"), ram / 100 * 250);
  EXPECT_EQ(parse_size("0%", "-S"), 0u);  // the least budget, as -S 0
  EXPECT_THROW(parse_size("99999999999999999%", "-S"), UsageError);  // past 2^64 bytes
  EXPECT_THROW(parse_size("%", "-S"), UsageError);
  EXPECT_THROW(parse_size("50%%", "-S"), UsageError);
}

// GNU sort says "invalid suffix" for a letter it does not know, and "too
// large" for a size that does not fit: Z, Y and, since coreutils 9.2, R and Q.
TEST(ParseSize, AnUnknownSuffixIsCalledInvalidNotTooLarge) {
  for (const char* text : {"12X", "1p", "1B", "1KB"}) {
    try {
      parse_size(text, "-S");
      ADD_FAILURE() << text << " accepted";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()), std::string("invalid suffix in -S argument '") + text + "'");
    }
  }
  for (const char* text : {"1Z", "10Q", "1R", "Y"}) {
    try {
      parse_size(text, "-S");
      ADD_FAILURE() << text << " accepted";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()), std::string("-S argument '") + text + "' too large");
    }
  }
}

TEST(ParseSize, OverflowAndGarbageAreUsageErrors) {
  const char* bad[] = {
      "",                       // nothing
      "b",                      // bytes, but no digits
      "-1",                     // sign
      "- 1",                    // sign
      " K",                     // a blank before a unit alone
      "1 ",                     // blank after
      "1.5G",                   // fraction
      "1e3",                    // exponent
      "0x10",                   // hex
      "1KB",                    // two-letter suffix
      "1KiB",                   // IEC spelling
      "1p",                     // GNU sort has no lower-case p, e
      "1e",                     // (nor 1e3 above)
      "1X",                     // unknown suffix
      "16E",                    // 2^64 bytes
      "16384P",                 // 2^64 bytes
      "1Z",                     // 2^70 bytes
      "1Q",                     // 2^100 bytes
      "12abc",                  // junk
      "18446744073709551616b",  // 2^64 bytes
      "99999999999999999999999",  // more digits than 64 bits hold
      "18014398509481984",      // 2^54 KiB = 2^64 bytes
      "17592186044416M",        // 2^44 MiB = 2^64 bytes
      "17179869184G",           // 2^34 GiB = 2^64 bytes
      "16777216T",              // 2^24 TiB = 2^64 bytes
  };
  for (const char* text : bad) {
    try {
      const uint64_t v = parse_size(text, "--memory");
      ADD_FAILURE() << "accepted '" << text << "' as " << v;
    } catch (const UsageError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("--memory"), std::string::npos) << "the message should name the option: " << msg;
      EXPECT_NE(msg.find(std::string("'") + text + "'"), std::string::npos) << "and quote the text: " << msg;
    }
  }
}

// --------------------------------------------------------- parse_command_line

ParsedCommand parse(std::initializer_list<const char*> args) { return gsort_test::parse_args(args); }
SortConfig config(std::initializer_list<const char*> args) { return gsort_test::config_of(args); }

// Sets or clears an environment variable for one scope.
class EnvVar {
 public:
  EnvVar(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) {
      had_ = true;
      old_ = old;
    }
    if (value) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~EnvVar() {
    if (had_) {
      ::setenv(name_.c_str(), old_.c_str(), 1);
    } else {
      ::unsetenv(name_.c_str());
    }
  }

 private:
  std::string name_;
  bool had_ = false;
  std::string old_;
};

TEST(CommandLine, GensortFormatSetsRecordSizeAndKey) {
  const SortConfig c = config({"--format", "gensort"});
  EXPECT_EQ(c.record_size, 100u);
  ASSERT_EQ(c.keys.size(), 1u);
  EXPECT_EQ(c.keys[0].offset, 0u);
  EXPECT_EQ(c.keys[0].length, 10u);
  EXPECT_EQ(c.keys[0].kind, KeyKind::kBytes);
  EXPECT_FALSE(c.keys[0].descending);
  EXPECT_EQ(c.mode, Mode::kSort);
  EXPECT_EQ(c.inputs, std::vector<std::string>{"-"});
  EXPECT_EQ(c.output, "-");
  // An explicit key replaces the format's.
  const SortConfig k = config({"--format", "gensort", "--key", "10:u32be"});
  ASSERT_EQ(k.keys.size(), 1u);
  EXPECT_EQ(k.keys[0].offset, 10u);
  EXPECT_EQ(k.keys[0].kind, KeyKind::kUnsigned);
  // The format's record size may be repeated, not contradicted.
  EXPECT_EQ(config({"--format", "gensort", "--record-size", "100"}).record_size, 100u);
  EXPECT_THROW(config({"--format", "gensort", "--record-size", "50"}), UsageError);
  EXPECT_THROW(config({"--format", "nosuch"}), UsageError);
}

TEST(CommandLine, RecordSizeIsBounded) {
  // Without a record layout the input is text lines (issue 31).
  EXPECT_TRUE(config({}).lines.enabled);
  EXPECT_TRUE(config({"input.txt"}).lines.enabled);
  EXPECT_THROW(config({"--record-size", "abc"}), UsageError);
  EXPECT_THROW(config({"--record-size", "-4"}), UsageError);
  EXPECT_THROW(config({"--record-size", "67108865"}), UsageError);  // over 64 MiB
  EXPECT_EQ(config({"--record-size", "67108864"}).record_size, 67108864u);
  EXPECT_EQ(config({"--record-size", "1"}).record_size, 1u);
  EXPECT_EQ(config({"--record-size=12"}).record_size, 12u);
  EXPECT_TRUE(config({"--record-size", "12"}).keys.empty()) << "no --key: the whole record";
  EXPECT_EQ(config({"--record-size", "4", "--record-size", "5"}).record_size, 5u) << "the last one counts";
}

// An explicit --record-size 0 is a bad value, not a missing option; the
// message should say so rather than ask for a --record-size that was given.
TEST(CommandLine, RecordSizeZeroSaysAtLeastOne) {
  try {
    config({"--record-size", "0"});
    ADD_FAILURE() << "--record-size 0 accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("at least 1"), std::string::npos) << e.what();
  }
}

TEST(CommandLine, KeysInOrderAndValidatedAgainstTheRecord) {
  const SortConfig c =
      config({"--record-size", "32", "--key", "0:u32", "--key", "4:8:desc", "--key=12:f64be", "--key", "20:i16"});
  ASSERT_EQ(c.keys.size(), 4u);
  EXPECT_EQ(c.keys[0].offset, 0u);
  EXPECT_EQ(c.keys[0].kind, KeyKind::kUnsigned);
  EXPECT_EQ(c.keys[0].length, 4u);
  EXPECT_EQ(c.keys[1].offset, 4u);
  EXPECT_EQ(c.keys[1].kind, KeyKind::kBytes);
  EXPECT_EQ(c.keys[1].length, 8u);
  EXPECT_TRUE(c.keys[1].descending);
  EXPECT_EQ(c.keys[2].offset, 12u);
  EXPECT_EQ(c.keys[2].kind, KeyKind::kFloat);
  EXPECT_TRUE(c.keys[2].big_endian);
  EXPECT_EQ(c.keys[3].offset, 20u);
  EXPECT_EQ(c.keys[3].kind, KeyKind::kSigned);
  EXPECT_FALSE(c.reverse);
  // -r is kept apart from the keys' own directions.
  const SortConfig r = config({"--record-size", "8", "--key", "0:u32", "-r"});
  EXPECT_TRUE(r.reverse);
  EXPECT_FALSE(r.keys[0].descending);
  EXPECT_THROW(config({"--record-size", "8", "--key", "4:u64"}), UsageError);  // past the record
  EXPECT_THROW(config({"--record-size", "8", "--key", "0:u128"}), UsageError);
  EXPECT_THROW(config({"--record-size", "8", "--key", "0:4", "--key", "8:1"}), UsageError);
  EXPECT_THROW(config({"--record-size", "8", "--key"}), UsageError);  // missing value
}

TEST(CommandLine, ModesAndTheirConflicts) {
  EXPECT_EQ(config({"--record-size", "4"}).mode, Mode::kSort);
  EXPECT_EQ(config({"--record-size", "4", "-c"}).mode, Mode::kCheck);
  EXPECT_EQ(config({"--record-size", "4", "--check"}).mode, Mode::kCheck);
  const SortConfig quiet = config({"--record-size", "4", "-C"});
  EXPECT_EQ(quiet.mode, Mode::kCheck);
  EXPECT_TRUE(quiet.check_quiet);
  EXPECT_FALSE(config({"--record-size", "4", "-c"}).check_quiet);
  EXPECT_EQ(config({"--record-size", "4", "-m", "a", "b"}).mode, Mode::kMerge);
  EXPECT_EQ(config({"--record-size", "4", "--merge"}).mode, Mode::kMerge);
  // As GNU sort: -c and -C check, whether or not -m is given too.
  EXPECT_EQ(config({"--record-size", "4", "-c", "-m"}).mode, Mode::kCheck);
  EXPECT_EQ(config({"--record-size", "4", "-m", "-c"}).mode, Mode::kCheck);
  EXPECT_TRUE(config({"--record-size", "4", "-C", "--merge"}).check_quiet);
  EXPECT_THROW(config({"--record-size", "4", "-c", "a", "b"}), UsageError);  // one input to check
  EXPECT_EQ(config({"--record-size", "4", "-c", "a"}).inputs, std::vector<std::string>{"a"});
  const SortConfig flags = config({"--record-size", "4", "-u", "-v", "-r"});
  EXPECT_TRUE(flags.unique);
  EXPECT_TRUE(flags.verbose);
  EXPECT_TRUE(flags.reverse);
  const SortConfig plain = config({"--record-size", "4"});
  EXPECT_FALSE(plain.unique);
  EXPECT_FALSE(plain.verbose);
  EXPECT_FALSE(plain.reverse);
  // Short flags bundle, as in GNU sort.
  const SortConfig bundled = config({"--record-size", "4", "-ru"});
  EXPECT_TRUE(bundled.reverse);
  EXPECT_TRUE(bundled.unique);
}

TEST(CommandLine, BackendAndDevice) {
  EXPECT_EQ(config({"--record-size", "4"}).backend, BackendChoice::kAuto);
  EXPECT_EQ(config({"--record-size", "4", "--backend", "auto"}).backend, BackendChoice::kAuto);
  EXPECT_EQ(config({"--record-size", "4", "--backend", "cpu"}).backend, BackendChoice::kCpu);
  EXPECT_EQ(config({"--record-size", "4", "--backend", "gpu"}).backend, BackendChoice::kGpu);
  EXPECT_THROW(config({"--record-size", "4", "--backend", "tpu"}), UsageError);
  EXPECT_THROW(config({"--record-size", "4", "--backend", "CPU"}), UsageError);
  EXPECT_THROW(config({"--record-size", "4", "--backend", ""}), UsageError);
  EXPECT_EQ(config({"--record-size", "4", "--device", "3"}).device, 3);
  EXPECT_EQ(config({"--record-size", "4"}).device, 0);
  EXPECT_THROW(config({"--record-size", "4", "--device", "-1"}), UsageError);
  EXPECT_EQ(config({"--record-size", "4"}).gpu_memory, 0u);
  EXPECT_EQ(config({"--record-size", "4", "--gpu-memory", "2G"}).gpu_memory, 2 * kGiB);
  EXPECT_EQ(config({"--record-size", "4", "--gpu-memory", "64"}).gpu_memory, 64 * kKiB);
  EXPECT_THROW(config({"--record-size", "4", "--gpu-memory", "0"}), UsageError);
  EXPECT_THROW(config({"--record-size", "4", "--gpu-memory", "lots"}), UsageError);
}

TEST(CommandLine, MemoryOption) {
  EXPECT_EQ(config({"--record-size", "4", "-S", "2G"}).memory_bytes, 2 * kGiB);
  EXPECT_EQ(config({"--record-size", "4", "-S", "100"}).memory_bytes, 100 * kKiB);
  EXPECT_EQ(config({"--record-size", "4", "-S1M"}).memory_bytes, kMiB);
  EXPECT_EQ(config({"--record-size", "4", "--memory", "5000b"}).memory_bytes, 5000u);
  EXPECT_EQ(config({"--record-size", "4", "--memory=3M"}).memory_bytes, 3 * kMiB);
  EXPECT_EQ(config({"--record-size", "4", "-S", "25%"}).memory_bytes, physical_memory_bytes() / 100 * 25);
  // As sort: 0 is the least budget.
  EXPECT_GE(config({"--record-size", "4", "-S", "0"}).memory_bytes, 1u);
  EXPECT_GE(config({"--record-size", "4", "-S", "0b"}).memory_bytes, 1u);
  EXPECT_EQ(config({"--record-size", "4", "--buffer-size", "3M"}).memory_bytes, 3 * kMiB);
  EXPECT_EQ(config({"--record-size", "4", "--bu=3M"}).memory_bytes, 3 * kMiB);
  EXPECT_THROW(config({"--record-size", "4", "-S", "many"}), UsageError);
  EXPECT_THROW(config({"--record-size", "4", "-S", "1.5G"}), UsageError);
  EXPECT_THROW(config({"--record-size", "4", "-S"}), UsageError);
  // Default: half the physical memory.
  const uint64_t ram = physical_memory_bytes();
  EXPECT_EQ(config({"--record-size", "4"}).memory_bytes, ram ? ram / 2 : kGiB);
}

TEST(CommandLine, TempDirDefaultsToTmpdirThenTmp) {
  {
    EnvVar env("TMPDIR", "/some/where/else");
    EXPECT_EQ(config({"--record-size", "4"}).temp_dir, "/some/where/else");
    EXPECT_EQ(config({"--record-size", "4", "-T", "/fast"}).temp_dir, "/fast");
    EXPECT_EQ(config({"--record-size", "4", "--temporary-directory", "/x"}).temp_dir, "/x");
  }
  {
    EnvVar env("TMPDIR", nullptr);
    EXPECT_EQ(config({"--record-size", "4"}).temp_dir, "/tmp");
  }
  {
    EnvVar env("TMPDIR", "");
    EXPECT_EQ(config({"--record-size", "4"}).temp_dir, "/tmp");
  }
}

TEST(CommandLine, PositionalInputsAndOutput) {
  EXPECT_EQ(config({"--record-size", "4"}).inputs, std::vector<std::string>{"-"});
  const SortConfig c = config({"a.bin", "--record-size", "4", "-", "b.bin"});
  EXPECT_EQ(c.inputs, (std::vector<std::string>{"a.bin", "-", "b.bin"}));
  EXPECT_EQ(config({"--record-size", "4", "-"}).inputs, std::vector<std::string>{"-"});
  // After "--", names that look like options are inputs.
  EXPECT_EQ(config({"--record-size", "4", "--", "-r", "x"}).inputs, (std::vector<std::string>{"-r", "x"}));
  EXPECT_FALSE(config({"--record-size", "4", "--", "-r"}).reverse);
  EXPECT_EQ(config({"--record-size", "4", "-o", "out.bin"}).output, "out.bin");
  EXPECT_EQ(config({"--record-size", "4", "--output=out.bin"}).output, "out.bin");
  EXPECT_EQ(config({"--record-size", "4", "-o", "-"}).output, "-");
  EXPECT_THROW(config({"--record-size", "4", "-o", ""}), UsageError);
  EXPECT_THROW(config({"--record-size", "4", "-o"}), UsageError);
}

TEST(CommandLine, UnknownOptionsAreUsageErrorsAndUnambiguousPrefixesAreTaken) {
  EXPECT_THROW(config({"--record-size", "4", "--frobnicate"}), UsageError);
  EXPECT_THROW(config({"--record-size", "4", "-Z"}), UsageError);
  // As every GNU tool: an unambiguous prefix of a long name is that name.
  EXPECT_TRUE(config({"--record-size", "4", "--rev"}).reverse);
  EXPECT_EQ(config({"--record-s", "4"}).record_size, 4u);
  EXPECT_THROW(config({"--record-size", "4", "--s"}), UsageError);  // --stable, --stats, --sequential...
}

TEST(CommandLine, Threads) {
  EXPECT_EQ(config({"--record-size", "4", "--parallel", "3"}).threads, 3u);
  EXPECT_GE(config({"--record-size", "4"}).threads, 1u);
  EXPECT_THROW(config({"--record-size", "4", "--parallel", "0"}), UsageError) << "GNU sort refuses 0 too";
  EXPECT_THROW(config({"--record-size", "4", "--parallel", "many"}), UsageError);
  // As sort, any number is taken; the threads started are capped.
  EXPECT_LE(config({"--record-size", "4", "--parallel", "99999999999"}).threads, 4096u);
}

// A negative thread count must be refused, not wrapped around to 2^32 - 1
// threads (which the thread pool would then try to start).
TEST(CommandLine, NegativeThreadCountIsAUsageError) {
  try {
    const SortConfig c = config({"--record-size", "4", "--parallel", "-1"});
    ADD_FAILURE() << "--parallel -1 accepted as " << c.threads << " threads";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "invalid --parallel argument '-1'");
  }
}

TEST(CommandLine, HelpAndVersionFinishEarly) {
  testing::internal::CaptureStdout();
  const ParsedCommand help = parse({"--help"});
  const std::string help_out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(help.done);
  EXPECT_NE(help_out.find("--record-size"), std::string::npos);
  EXPECT_NE(help_out.find("stable"), std::string::npos);
  testing::internal::CaptureStdout();
  const ParsedCommand version = parse({"--version"});
  const std::string version_out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(version.done);
  EXPECT_EQ(version_out.rfind("gsort ", 0), 0u) << version_out;
  EXPECT_FALSE(parse({"--record-size", "4"}).done);
}

}  // namespace
}  // namespace gsort
