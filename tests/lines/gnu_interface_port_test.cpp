// coreutils' own tests of sort's interface beside the orderings, ported:
// tests/sort/sort.pl (the obsolete +POS1 -POS2 keys, --p= and -S32b),
// sort-files0-from.pl (every case) and sort-debug-warn.sh (sort-debug-keys.sh
// is gnu_debug_keys_port_test.cpp's). Each runs the
// gsort program with the same arguments and input and expects the same
// output, exit status and message (gsort's name in place of sort's).
// Where the suite (coreutils 9.11) and sort 9.1 differ, these follow the
// suite, as gsort follows the newest release: its note on the decimal point
// reads "numbers use '.' as a decimal point in this locale", where 9.1 to
// 9.6 put "note " first (the differential test reads an older sort's note
// as the newest's).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/lines/sort_pl_case.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

std::string repeated(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

void expect_cases(const std::vector<SortPlCase>& cases, const std::vector<std::string>& env = {}) {
  for (const SortPlCase& c : cases) {
    const ProcessResult r = run_gsort_on_pipe(c.args, c.in, env);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.name << ": " << r.err;
    EXPECT_EQ(r.out, c.out) << c.name;
    EXPECT_EQ(r.err, c.err) << c.name;
  }
}

TEST(SortPlInterface, ObsoleteKeys) {
  expect_cases({
      {"07d", {"+1", "-3"}, "y k b\nz k a\n", "z k a\ny k b\n"},
      {"07i", {"-s", "+0", "-1"}, "a c\na b\n", "a c\na b\n"},
      {"07j", {"-s", "+0", "-1.0"}, "a c\na b\n", "a c\na b\n"},
      {"07k", {"-s", "+0", "-1.1"}, "a c\na b\n", "a c\na b\n"},
      {"07l", {"-s", "+0", "-1.2"}, "a c\na b\n", "a b\na c\n"},
      {"07m", {"-s", "+0", "-1.1b"}, "a c\na b\n", "a b\na c\n"},
      {"12b", {"-n", "-t:", "+1"}, "b:-\na:1\n", "b:-\na:1\n"},
      {"12c", {"-n", "-t:", "+1"}, "a:1\nb:X\n", "b:X\na:1\n"},
      {"12d", {"-n", "-t:", "+1"}, "b:X\na:1\n", "b:X\na:1\n"},
      {"13a", {"+0.1n"}, "axx\nb-1\n", "b-1\naxx\n"},
      {"13b", {"+0.1n"}, "b-1\naxx\n", "b-1\naxx\n"},
      {"19a", {"+0", "+1nr"}, "b 2\nb 1\nb 3\n", "b 1\nb 2\nb 3\n"},
      // An operand that is no valid +POS1 is a file.
      {"obs-inval", {"+1x"}, "", "", 2, "gsort: cannot open +1x: No such file or directory\n"},
  });
}

// Under _POSIX2_VERSION 200112 a +POS1 is a key only before a -POS2, and
// not at all with POSIXLY_CORRECT: otherwise an input file.
TEST(SortPlInterface, ObsoleteKeysUnderPosix2001) {
  expect_cases({{"alone", {"+1"}, "", "", 2, "gsort: cannot open +1: No such file or directory\n"},
                {"with-end", {"+1", "-2"}, "a 2\nb 1\n", "b 1\na 2\n"}},
               {"_POSIX2_VERSION=200112"});
  expect_cases({{"posixly", {"+1", "-2"}, "", "", 2, "gsort: cannot open +1: No such file or directory\n"}},
               {"_POSIX2_VERSION=200112", "POSIXLY_CORRECT=1"});
}

TEST(SortPlInterface, AbbreviationsAndTinyBuffers) {
  expect_cases({
      {"unique-1", {"--p=1", "-S32b", "-u"}, repeated("7\n", 11) + "1\n",
       "1\n7\n"},
      {"unique-key", {"-u", "-k2,2", "--p=1", "-S32b"}, repeated("a 7\n", 11) + "b 1\n",
       "b 1\na 7\n"},
      {"S0", {"-S", "0"}, "b\na\n", "a\nb\n"},
      {"buffer-size", {"--buffer-size=1M", "--bu=2M"}, "b\na\n", "a\nb\n"},
      {"parallel-beyond", {"--parallel=100000"}, "b\na\n", "a\nb\n"},
      {"y-ignored", {"-y", "5", "-r"}, "a\nb\n", "b\na\n"},
      {"y-attached", {"-y0"}, "b\na\n", "a\nb\n"},
      {"st-is-stable", {"--st", "-k1,1"}, "a 2\na 1\n", "a 2\na 1\n"},
      {"me-is-merge", {"--me"}, "b\na\n", "b\na\n"},
      {"o-is-output", {"--o=/dev/stdout"}, "b\na\n", "a\nb\n"},
      {"ba-is-batch-size", {"--ba=2"}, "b\na\n", "a\nb\n"},
  });
}

TEST(SortPlInterface, CheckWordsAndMessages) {
  expect_cases({
      {"quiet", {"--check=quiet"}, "b\na\n", "", 1, ""},
      {"silent", {"--check=silent"}, "b\na\n", "", 1, ""},
      {"s-prefix", {"--check=s"}, "b\na\n", "", 1, ""},
      {"diagnose-first", {"--check=diagnose-first"}, "b\na\n", "", 1, "gsort: -:2: disorder: a\n"},
      {"bare", {"--check"}, "b\na\n", "", 1, "gsort: -:2: disorder: a\n"},
      // Under -z the line ends with its NUL, as sort writes it.
      {"zero", {"-cz"}, std::string("b\0a\0", 4), "", 1, std::string("gsort: -:2: disorder: a\0", 24)},
      {"extra", {"-c", "x", "y"}, "", "", 2, "gsort: extra operand 'y' not allowed with -c\n"},
      {"extra-C", {"--check=quiet", "x", "y"}, "", "", 2, "gsort: extra operand 'y' not allowed with -C\n"},
      // argmatch's usage error: exit 1, with the valid words.
      {"invalid", {"--check=x"}, "", "", 1,
       "gsort: invalid argument 'x' for '--check'\nValid arguments are:\n  - 'quiet', 'silent'\n"
       "  - 'diagnose-first'\nTry 'gsort --help' for more information.\n"},
  });
}

TEST(SortFiles0From, EveryCase) {
  TempDir dir;
  write_file(dir.file("g"), "a");
  write_file(dir.file("empty"), "");
  const std::string g = dir.file("g");
  expect_cases({
      {"f-extra-arg", {"--files0-from=-", "no-such"}, "a", "", 2,
       "gsort: extra operand 'no-such'\nfile operands cannot be combined with --files0-from\n"},
      {"missing", {"--files0-from=" + dir.file("missing")}, "", "", 2,
       "gsort: open failed: " + dir.file("missing") + ": No such file or directory\n"},
      {"minus-in-stdin", {"--files0-from=-"}, "-", "", 2,
       "gsort: when reading file names from stdin, no file name of '-' allowed\n"},
      {"empty", {"--files0-from=" + dir.file("empty")}, "", "", 2, "gsort: no input from '" + dir.file("empty") + "'\n"},
      {"empty-nonreg", {"--files0-from=/dev/null"}, "", "", 2, "gsort: no input from '/dev/null'\n"},
      {"nul-1", {"--files0-from=-"}, std::string(1, '\0'), "", 2, "gsort: -:1: invalid zero-length file name\n"},
      {"nul-2", {"--files0-from=-"}, std::string(2, '\0'), "", 2, "gsort: -:1: invalid zero-length file name\n"},
      {"1", {"--files0-from=-"}, g, "a\n"},
      {"1a", {"--files0-from=-"}, g + std::string(1, '\0'), "a\n"},
      {"2", {"--files0-from=-"}, g + std::string(1, '\0') + g, "a\na\n"},
      {"2a", {"--files0-from=-"}, g + std::string(1, '\0') + g + std::string(1, '\0'), "a\na\n"},
      {"zero-len", {"--files0-from=-"}, std::string(1, '\0') + g + std::string(1, '\0'), "", 2,
       "gsort: -:1: invalid zero-length file name\n"},
      {"abbreviated", {"--files0=-"}, g, "a\n"},
  });
}

std::string debug_notes(std::vector<std::string> args) {
  args.push_back("--debug");
  args.push_back("/dev/null");
  const ProcessResult r = run_gsort_on_pipe(args, "");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.err;
}

const std::string kBytes = "gsort: text ordering performed using simple byte comparison\n";
const std::string kNote = "gsort: numbers use '.' as a decimal point in this locale\n";

TEST(SortDebugWarn, KeyNotes) {
  EXPECT_EQ(debug_notes({"-s", "-k2,1"}), kBytes + "gsort: key 1 has zero width and will be ignored\n");
  EXPECT_EQ(debug_notes({"-s", "-k2,1n"}), kBytes + "gsort: key 1 has zero width and will be ignored\n" + kNote);
  EXPECT_EQ(debug_notes({"-s", "-k1,2n"}), kBytes + "gsort: key 1 is numeric and spans multiple fields\n" + kNote);
  EXPECT_EQ(debug_notes({"-s", "-rhb", "-k1,1n"}), kBytes + kNote + "gsort: options '-bhr' are ignored\n");
  EXPECT_EQ(debug_notes({"-rhb", "-k1,1n"}), kBytes + kNote + "gsort: options '-bh' are ignored\n" +
                                                 "gsort: option '-r' only applies to last-resort comparison\n");
  EXPECT_EQ(debug_notes({"-r", "-k1,1n"}), kBytes + kNote + "gsort: option '-r' only applies to last-resort comparison\n");
  EXPECT_EQ(debug_notes({"-b", "-k1b,1bn"}), kBytes + kNote);
  EXPECT_EQ(debug_notes({"-b", "-k1,1bn"}), kBytes + kNote + "gsort: option '-b' is ignored\n");
  EXPECT_EQ(debug_notes({"-b", "-k1,1bn", "-k2b,2"}), kBytes + kNote);
  EXPECT_EQ(debug_notes({"-r", "-k1,1r"}),
            kBytes + "gsort: leading blanks are significant in key 1; consider also specifying 'b'\n");
  EXPECT_EQ(debug_notes({"-r"}), kBytes);
  EXPECT_EQ(debug_notes({"-rb", "-k2n", "+2.2", "-1b"}),
            kBytes + "gsort: key 1 is numeric and spans multiple fields\n" +
                "gsort: obsolescent key '+2 -1' used; consider '-k 3,1' instead\n" +
                "gsort: key 2 has zero width and will be ignored\n" + kNote + "gsort: option '-b' is ignored\n" +
                "gsort: option '-r' only applies to last-resort comparison\n");
  EXPECT_EQ(debug_notes({"-nk1", "-t."}), kBytes + "gsort: key 1 is numeric and spans multiple fields\n" +
                                              "gsort: field separator '.' is treated as a decimal point in numbers\n");
  EXPECT_EQ(debug_notes({"-nk1", "-t-"}), kBytes + "gsort: key 1 is numeric and spans multiple fields\n" +
                                              "gsort: field separator '-' is treated as a minus sign in numbers\n" + kNote);
}

TEST(SortDebugWarn, RefusedWhereSortRefusesIt) {
  expect_cases({{"output", {"--debug", "-o", "x"}, "", "", 2, "gsort: options '-o --debug' are incompatible\n"},
                {"check", {"--debug", "-c"}, "", "", 2, "gsort: options '-c --debug' are incompatible\n"}});
}

}  // namespace
}  // namespace gsort_test
