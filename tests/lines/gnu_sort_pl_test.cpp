// coreutils' own tests of sort's -h (tests/sort/sort.pl, cases h1 to h10,
// and incompat6 for -cC), ported: each runs the gsort program with the
// same arguments and input and expects the same output, exit status and
// message (gsort's name in place of sort's). The sorted outputs are then
// checked with -c and merged with -m under the same options, and a few
// cases of gsort's own add -u, -s and -r.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/lines/sort_pl_case.h"
#include "tests/support/line_reference.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

const std::vector<SortPlCase>& human_cases() {
  static const std::vector<SortPlCase> cases = {
      // sort.pl as of coreutils 9.2, which added R and Q; an older GNU sort
      // (9.1, on the development machine) takes them for no unit and sorts
      // this case otherwise. gsort follows sort.pl (and sort 9.4 agrees).
      {"h1", {"-h"},
       "1Q\n1R\n1Y\n1Z\n1E\n1P\n1T\n1G\n1M\n1K\n02\n1\nY\n-1k\n-1M\n-1G\n-1T\n-1P\n-1E\n-1Z\n-1Y\n-1Q\n-1R\n",
       "-1Q\n-1R\n-1Y\n-1Z\n-1E\n-1P\n-1T\n-1G\n-1M\n-1k\nY\n1\n02\n1K\n1M\n1G\n1T\n1P\n1E\n1Z\n1Y\n1R\n1Q\n"},
      {"h2", {"-h"}, "1M\n-2G\n-3K", "-2G\n-3K\n1M\n"},
      // Powers of 1024: the unit decides.
      {"h3", {"-k", "2,2h", "-k", "1,1"}, "a 1G\nb 1023M\n", "b 1023M\na 1G\n"},
      // A decimal point at the end still takes a unit.
      {"h4", {"-h"}, "1.E\n2.M\n", "2.M\n1.E\n"},
      // A second decimal point: no unit.
      {"h5", {"-h"}, "1..2E\n2..2M\n", "1..2E\n2..2M\n"},
      // M sorts before G whatever the number.
      {"h6", {"-h"}, "1GiB\n1030MiB\n", "1030MiB\n1GiB\n"},
      {"h7", {"-hn"}, "", "", 2, "gsort: options '-hn' are incompatible\n"},
      // A key with its own option takes none of the global ones.
      {"h8", {"-n", "-k2,2h"}, "1 1E\n2 2M\n", "2 2M\n1 1E\n"},
      // SI and IEC units on separate keys.
      {"h9", {"-h", "-k1,1", "-k2,2"}, "1M 1Mi\n1M 1Mi\n", "1M 1Mi\n1M 1Mi\n"},
      {"h10", {"-h", "-k1,1", "-k2,2"}, "1M 2M\n2M 1Mi\n", "1M 2M\n2M 1Mi\n"},
      {"incompat6", {"-cC"}, "", "", 2, "gsort: options '-cC' are incompatible\n"},
      // gsort's own: k and K are one unit, so -u keeps the first, -s keeps
      // input order, and the last resort (reversed by -r) tells them apart.
      {"unique", {"-hu"}, "1K\n1k\n2\n", "2\n1K\n"},
      {"stable", {"-hs"}, "1k\n1K\n", "1k\n1K\n"},
      {"last_resort", {"-h"}, "1k\n1K\n", "1K\n1k\n"},
      {"reverse", {"-hr"}, "1k\n1K\n", "1k\n1K\n"},
      {"reversed_key", {"-k2,2hr", "-k1,1n"}, "10 1K\n2 1M\n3 1k\n", "2 1M\n3 1k\n10 1K\n"},
  };
  return cases;
}

std::string lines_of(const std::string& text) {
  return text.empty() || text.back() == '\n' ? text : text + "\n";
}

TEST(SortPl, HumanNumericCases) {
  for (const SortPlCase& c : human_cases()) {
    const ProcessResult r = run_gsort_on_pipe(c.args, c.in);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.name << ": " << r.err;
    EXPECT_EQ(r.out, c.out) << c.name;
    EXPECT_EQ(r.err, c.err) << c.name;
  }
}

TEST(SortPl, HumanNumericOutputsCheckAndMerge) {
  TempDir dir;
  for (const SortPlCase& c : human_cases()) {
    if (c.exit_code != 0) continue;
    // Merged with itself, a sorted output has each line twice in a row,
    // unless lines tie but differ (-s) or ties go (-u).
    const bool merges_twice = c.args.front() != "-hu" && c.args.front() != "-hs";
    const std::string sorted = dir.file(std::string(c.name) + ".sorted");
    const std::string given = dir.file(std::string(c.name) + ".in");
    write_file(sorted, c.out);
    write_file(given, c.in);
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"-C", sorted});
    EXPECT_EQ(run_gsort_on_pipe(args, "").exit_code, 0) << c.name << ": its output is in order";
    args.back() = given;
    const bool in_order = lines_of(c.in) == c.out;
    EXPECT_EQ(run_gsort_on_pipe(args, "").exit_code, in_order ? 0 : 1) << c.name << ": its input";
    if (!merges_twice) continue;
    args = c.args;
    args.insert(args.end(), {"-m", sorted, sorted});
    std::string twice;
    for (const std::string& line : split_lines(c.out, '\n')) twice += line + "\n" + line + "\n";
    EXPECT_EQ(run_gsort_on_pipe(args, "").out, twice) << c.name << ": merged with itself";
  }
}

}  // namespace
}  // namespace gsort_test
