// GNU sort's habits on gsort's command line (issue 14): -k, -s and -h; an
// option given twice takes its last value, except --key (a list) and -o (one
// file); --compress-output LEVEL with a blank is refused with the right
// spelling; --help lists its options in groups, GNU style.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "src/cli/options.h"
#include "src/cli/size_parse.h"
#include "src/core/errors.h"
#include "tests/support/parse_args.h"

namespace gsort {
namespace {

SortConfig config(std::initializer_list<const char*> args) { return gsort_test::config_of(args); }
std::string usage_error(std::initializer_list<const char*> args) { return gsort_test::usage_error_of(args); }

TEST(GnuHabits, ShortKeyIsKeyInGsortsSyntax) {
  const SortConfig c = config({"--record-size", "16", "-k", "8:u64", "-k0:4:desc", "--key", "4:i32"});
  ASSERT_EQ(c.keys.size(), 3u) << "-k and --key add to one list";
  EXPECT_EQ(c.keys[0].offset, 8u);
  EXPECT_EQ(c.keys[0].kind, KeyKind::kUnsigned);
  EXPECT_EQ(c.keys[1].offset, 0u);
  EXPECT_TRUE(c.keys[1].descending);
  EXPECT_EQ(c.keys[2].kind, KeyKind::kSigned);
  // GNU sort's field syntax is not gsort's, and the message says so.
  EXPECT_EQ(usage_error({"--record-size", "16", "-k", "2,2n"}),
            "-k '2,2n' is GNU sort's field key, for text lines (without --record-size or --format); records take "
            "-k OFFSET:LENGTH or OFFSET:TYPE[:desc], byte offsets");
}

TEST(GnuHabits, StableIsAcceptedAndChangesNothing) {
  const SortConfig plain = config({"--record-size", "4", "-r"});
  for (const char* s : {"-s", "--stable", "-rs"}) {
    const SortConfig c = config({"--record-size", "4", "-r", s});
    EXPECT_TRUE(c.reverse) << s;
    EXPECT_EQ(c.mode, plain.mode) << s;
    EXPECT_EQ(c.keys.size(), plain.keys.size()) << s;
  }
}

// As in GNU sort, -h is --human-numeric-sort: only --help prints the help.
TEST(GnuHabits, HelpIsLongOnly) {
  testing::internal::CaptureStdout();
  std::vector<const char*> argv = {"gsort", "--help"};
  ParsedCommand cmd = parse_command_line(2, argv.data());
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(cmd.done);
  EXPECT_EQ(out, help_text());
  testing::internal::CaptureStdout();
  argv = {"gsort", "-h"};
  cmd = parse_command_line(2, argv.data());
  out = testing::internal::GetCapturedStdout();
  EXPECT_FALSE(cmd.done);
  EXPECT_EQ(out, "");
  EXPECT_TRUE(cmd.config.lines.human_numeric);
}

TEST(GnuHabits, RepeatedOptionTakesTheLastValue) {
  EXPECT_EQ(config({"--record-size", "4", "-S", "4G", "-S", "8G"}).memory_bytes, uint64_t{8} << 30);
  EXPECT_EQ(config({"--record-size", "4", "-S", "8G", "--memory=4G"}).memory_bytes, uint64_t{4} << 30)
      << "the last, not the largest";
  EXPECT_EQ(config({"--record-size", "4", "-T", "/a", "-T", "/b"}).temp_dir, "/b");
  EXPECT_EQ(config({"--record-size", "4", "--parallel", "3", "--parallel", "2"}).threads, 2u);
  EXPECT_EQ(config({"--record-size", "4", "--backend", "gpu", "--backend", "cpu"}).backend, BackendChoice::kCpu);
  EXPECT_EQ(config({"--record-size", "4", "--record-size", "8"}).record_size, 8u);
  EXPECT_EQ(config({"--record-size", "4", "--stats", "a.json", "--stats", "b.json"}).stats_path, "b.json");
  EXPECT_EQ(config({"--record-size", "4", "--compress-output=5", "--compress-output"}).output_level, 3);
  EXPECT_TRUE(config({"--record-size", "4", "-r", "-r"}).reverse) << "a switch twice is the switch";
}

TEST(GnuHabits, OfAnOptionAndItsNegationTheLaterCounts) {
  EXPECT_FALSE(config({"--record-size", "4", "--verify", "--no-verify"}).verify);
  EXPECT_TRUE(config({"--record-size", "4", "--no-verify", "--verify"}).verify);
  EXPECT_EQ(config({"--record-size", "4", "--progress", "--no-progress"}).progress, ProgressMode::kOff);
  EXPECT_EQ(config({"--record-size", "4", "--no-progress", "--progress"}).progress, ProgressMode::kOn);
}

TEST(GnuHabits, InputsAndKeysAreListsNotOverridden) {
  const SortConfig c = config({"--record-size", "8", "a", "-k", "0:4", "b", "-k", "4:4"});
  EXPECT_EQ(c.inputs, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(c.keys.size(), 2u);
}

TEST(GnuHabits, OutputTwiceMustBeTheSameFile) {
  EXPECT_EQ(config({"--record-size", "4", "-o", "x", "--output=x"}).output, "x");
  EXPECT_EQ(usage_error({"--record-size", "4", "-o", "x", "-o", "y"}),
            "two output files given: 'x' and 'y' (give -o once)");
}

TEST(GnuHabits, CompressLevelAfterABlankIsRefusedWithTheSpelling) {
  EXPECT_EQ(usage_error({"--record-size", "4", "--compress-output", "19", "in"}),
            "--compress-output takes its level after '=': write --compress-output=19 (or ./19 for an input file "
            "of that name)");
  EXPECT_EQ(usage_error({"--record-size", "4", "--compress-temp", "-5"}),
            "--compress-temp takes its level after '=': write --compress-temp=-5 (or ./-5 for an input file of "
            "that name)");
  // A name that is not a number is an input, as before; after --, so is 19.
  EXPECT_EQ(config({"--record-size", "4", "--compress-output", "in19"}).inputs, std::vector<std::string>{"in19"});
  EXPECT_EQ(config({"--record-size", "4", "--compress-output", "--", "19"}).inputs, std::vector<std::string>{"19"});
  EXPECT_EQ(config({"--record-size", "4", "--compress-output=19"}).output_level, 19);
}

TEST(GnuHabits, TerminalOutputNeedsToTerminal) {
  EXPECT_FALSE(config({"--record-size", "4"}).to_terminal);
  EXPECT_TRUE(config({"--record-size", "4", "--to-terminal"}).to_terminal);
}

// Five groups, each option once, GNU's "-o, --output=FILE" layout (not
// Boost's "-o [ --output ] arg"), and a few examples.
TEST(GnuHabits, HelpIsGroupedWithExamples) {
  const std::string help = help_text();
  size_t at = 0;
  for (const char* group : {"\nInput and keys:\n", "\nMemory and temporary files:\n", "\nBackends:\n", "\nOutput:\n",
                            "\nReporting:\n", "\nExamples:\n"}) {
    const size_t found = help.find(group);
    ASSERT_NE(found, std::string::npos) << group;
    EXPECT_GT(found, at) << group << " out of order";
    at = found;
  }
  EXPECT_EQ(help.find("Other options"), std::string::npos) << "an option is in no group (src/cli/help_text.cpp)";
  EXPECT_EQ(help.find("[ --"), std::string::npos);
  EXPECT_EQ(help.find(" arg"), std::string::npos);
  for (const char* line : {"\n  -o, --output=FILE ", "\n  -k, --key=SPEC ", "\n  -S, --memory=SIZE ",
                           "\n      --compress-output[=LEVEL]\n", "\n  -s, --stable ", "\n      --help ",
                           "\n  -h, --human-numeric-sort ",
                           "\n  -C ", "\n      --to-terminal "}) {
    EXPECT_NE(help.find(line), std::string::npos) << line;
  }
  EXPECT_EQ(help.find("--output=FILE"), help.rfind("--output=FILE")) << "listed once";
  for (size_t start = 0, end; start < help.size(); start = end + 1) {
    end = help.find('\n', start);
    EXPECT_LE(end - start, 79u) << help.substr(start, end - start);
  }
}

}  // namespace
}  // namespace gsort
