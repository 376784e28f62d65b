// The command line in line mode (src/cli/line_values.h): lines are the
// default; GNU sort's options map onto LineOptions; what gsort lacks is
// refused with the closest option; GNU keys and record keys each get a
// clear message in the other mode.
#include <gtest/gtest.h>

#include <string>

#include "src/cli/options.h"
#include "tests/support/parse_args.h"

namespace gsort {
namespace {

using gsort_test::config_of;
using gsort_test::usage_error_of;

TEST(LineOptions, LinesAreTheDefault) {
  const SortConfig c = config_of({});
  EXPECT_TRUE(c.lines.enabled);
  EXPECT_FALSE(config_of({"--record-size", "8"}).lines.enabled);
  EXPECT_FALSE(config_of({"--format", "gensort"}).lines.enabled);
}

TEST(LineOptions, GnuOptions) {
  const SortConfig c = config_of({"-t", ",", "-k2,2n", "-k", "1", "-n", "-f", "-b", "-z", "-s", "-r", "-u"});
  EXPECT_EQ(c.lines.separator, ',');
  EXPECT_EQ(c.lines.keys, (std::vector<std::string>{"2,2n", "1"}));
  EXPECT_TRUE(c.lines.numeric && c.lines.fold && c.lines.ignore_blanks && c.lines.zero_terminated && c.lines.stable);
  EXPECT_TRUE(c.reverse && c.unique);
  EXPECT_EQ(config_of({"-t", "\\0"}).lines.separator, 0);
  EXPECT_EQ(config_of({"--field-separator=:"}).lines.separator, ':');
  EXPECT_EQ(config_of({"--sort=numeric"}).lines.numeric, true);
  EXPECT_EQ(config_of({}).lines.separator, -1);
}

TEST(LineOptions, TabErrorsAsGnuWordsThem) {
  EXPECT_EQ(usage_error_of({"-t", ""}), "empty tab");
  EXPECT_EQ(usage_error_of({"-t", "ab"}), "multi-character tab 'ab'");
  EXPECT_EQ(usage_error_of({"-t", ",", "-t:"}), "incompatible tabs");
  EXPECT_EQ(usage_error_of({"--field-separator="}), "empty tab") << "an empty value after '='";
  EXPECT_EQ(usage_error_of({"--field-sep="}), "empty tab");
  EXPECT_EQ(config_of({"-t", ",", "-t,"}).lines.separator, ',') << "the same one twice is fine";
}

TEST(LineOptions, BadKeysFailAtParse) {
  EXPECT_EQ(usage_error_of({"-k0"}), "field number is zero: invalid field specification '0'");
  EXPECT_EQ(usage_error_of({"-k", "1,2x"}), "stray character in field spec: invalid field specification '1,2x'");
  EXPECT_EQ(usage_error_of({"-k", "0:10"}),
            "-k '0:10' is gsort's record key (OFFSET:TYPE), which needs --record-size or --format; lines take GNU "
            "sort's -k POS1[,POS2], e.g. -k 2,2n");
}

TEST(LineOptions, UnsupportedGnuOptionsAreRefusedByName) {
  const std::pair<std::vector<const char*>, const char*> cases[] = {
      {{"--sort=bogus"}, "invalid argument 'bogus' for '--sort'"},
      {{"--record-size", "4", "-g"}, "-g is for text lines"},
      {{"--record-size", "4", "-k0:4", "--random-source=x"}, "--random-source is for text lines"},
  };
  for (const auto& [args, message] : cases) {
    const std::string e = usage_error_of(std::vector<const char*>(args));
    EXPECT_NE(e.find(message), std::string::npos) << args.front() << ": " << e;
  }
}

TEST(LineOptions, LineOptionsInRecordModeAreTold) {
  for (const char* opt : {"-n", "-f", "-b", "-z"}) {
    const std::string e = usage_error_of({"--record-size", "8", opt});
    EXPECT_NE(e.find(std::string(opt) + " is for text lines, not records"), std::string::npos) << e;
  }
  EXPECT_NE(usage_error_of({"--record-size", "8", "-t", ","}).find("-t is for text lines"), std::string::npos);
  EXPECT_NE(usage_error_of({"--format", "gensort", "-k", "1,1"}).find("GNU sort's field key, for text lines"),
            std::string::npos);
}

TEST(LineOptions, HelpSaysLinesAreTheDefault) {
  const std::string help = help_text();
  EXPECT_NE(help.find("Sort text lines (the default)"), std::string::npos);
  EXPECT_NE(help.find("\nText lines (the default):\n"), std::string::npos);
  EXPECT_NE(help.find("\n  -t, --field-separator=SEP "), std::string::npos);
  EXPECT_NE(help.find("\n  -h, --human-numeric-sort "), std::string::npos);
  EXPECT_NE(help.find("\n      --help "), std::string::npos) << "--help has no short name";
  EXPECT_NE(help.find("\n  -M, --month-sort "), std::string::npos);
  EXPECT_NE(help.find("\n      --compress-program=PROG\n"), std::string::npos);
  EXPECT_EQ(help.find("Other options"), std::string::npos) << "every option has its group";
}

// -h is GNU sort's: human-numeric, not --help (du -h | gsort -h).
TEST(LineOptions, HumanNumericIsH) {
  for (const std::vector<const char*>& args : std::vector<std::vector<const char*>>{
           {"-h"}, {"--human-numeric-sort"}, {"--sort=human-numeric"}, {"-rh"}}) {
    const SortConfig c = config_of(args);
    EXPECT_TRUE(c.lines.human_numeric) << args.front();
    EXPECT_FALSE(c.lines.numeric) << args.front();
  }
  EXPECT_EQ(usage_error_of({"--record-size", "8", "-h"}),
            "-h is for text lines, not records (--record-size, --format): records take typed keys, -k OFFSET:TYPE");
}

// GNU sort's check_ordering_compatibility and its -c/-C check, in its words.
TEST(LineOptions, IncompatibleOptionsAsGnuWordsThem) {
  const std::pair<std::vector<const char*>, const char*> cases[] = {
      {{"-hn"}, "options '-hn' are incompatible"},
      {{"-n", "--human-numeric-sort"}, "options '-hn' are incompatible"},
      {{"--sort=human-numeric", "-n"}, "options '-hn' are incompatible"},
      {{"-hn", "-k1,1"}, "options '-hn' are incompatible"},
      {{"-k1,1", "-k2,2nh"}, "options '-hn' are incompatible"},
      {{"-hM"}, "options '-hM' are incompatible"},
      {{"-fhg"}, "options '-fgh' are incompatible"},
      {{"-n", "--sort=month"}, "options '-Mn' are incompatible"},
      {{"-hd"}, "options '-dh' are incompatible"},
      {{"-cC"}, "options '-cC' are incompatible"},
      {{"-C", "-k1,1hn", "-c"}, "options '-cC' are incompatible"},
  };
  for (const auto& [args, message] : cases) {
    EXPECT_EQ(usage_error_of(std::vector<const char*>(args)), message) << args.front();
  }
  EXPECT_EQ(config_of({"-hn", "-k1,1r"}).lines.keys.size(), 1u) << "no key takes -hn: GNU sort accepts it";
  EXPECT_EQ(config_of({"-c", "-c"}).mode, Mode::kCheck);
  EXPECT_TRUE(config_of({"--sort=n"}).lines.numeric) << "a prefix of one word names it";
  EXPECT_TRUE(config_of({"--sort=mon"}).lines.month);
  EXPECT_EQ(config_of({"-Mg", "-k1,1r"}).lines.keys.size(), 1u) << "no key takes -Mg: GNU sort accepts it";
  EXPECT_EQ(usage_error_of({"-k1,1", "-gM"}), "options '-gM' are incompatible");
  EXPECT_EQ(usage_error_of({"-dM"}), "options '-dM' are incompatible");
  EXPECT_EQ(usage_error_of({"-i", "--sort=general"}), "options '-gi' are incompatible");
  EXPECT_EQ(usage_error_of({"-diRVf"}), "") << "one of d i R V, with f";
}

}  // namespace
}  // namespace gsort
