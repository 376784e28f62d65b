// coreutils' own tests of sort's other orderings, ported: the cases of
// tests/sort/sort.pl for -g -M -V -d -i -R (02q-02s, 09a, 09d, 14a-15e,
// 22a-22b, incompat1-3 and 7, sort-gennum) and the shell tests that need no
// locale: sort-version.sh, sort-float.sh (-g over the float limits),
// sort-rand.sh (-R is a permutation, a different one each run),
// sort-NaN-infloop.sh, and sort-month.sh's C-locale part. Each case runs
// the gsort program on a file and on a pipe with the same arguments and
// expects the same output, exit status and message (gsort's name in place
// of sort's); sorted outputs are then checked with -C.
#include <gtest/gtest.h>

#include <cfloat>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/lines/sort_pl_case.h"
#include "tests/support/line_reference.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

const std::vector<SortPlCase>& ordering_cases() {
  static const std::vector<SortPlCase> cases = {
      // -c takes these as sorted: the keys fold (and drop '.') to one key,
      // so the whole lines decide, and they are in order.
      {"02q", {"-c", "-k", "1,1fR"}, "ABC\nABc\nAbC\nAbc\naBC\naBc\nabC\nabc\n", ""},
      {"02r", {"-c", "-k", "1,1fV"}, "ABC\nABc\nAbC\nAbc\naBC\naBc\nabC\nabc\n", ""},
      {"02s", {"-c", "-k", "1,1dfR"}, ".ABC\n.ABc.\nA.bC\nA.bc.\naB.C\naB.c.\nabC.\nabc..\n", ""},
      {"09a", {"-g"}, "1e2\n2e1\n", "2e1\n1e2\n"},
      {"09d", {"-k2g"}, "a 1e2\nb 2e1\n", "b 2e1\na 1e2\n"},
      {"14a", {"-d", "-u"}, "mal\nmal-\nmala\n", "mal\nmala\n"},
      {"14b", {"-f", "-d", "-u"}, "mal\nmal-\nmala\n", "mal\nmala\n"},
      {"15a", {"-i", "-u"}, "a\na\1\n", "a\n"},
      {"15b", {"-i", "-u"}, "a\n\1a\n", "a\n"},
      {"15c", {"-i", "-u"}, "a\1\na\n", "a\1\n"},
      {"15d", {"-i", "-u"}, "\1a\na\n", "\1a\n"},
      {"15e", {"-i", "-u"}, "a\n\1\1\1\1\1a\1\1\1\1\n", "a\n"},
      {"22a", {"-k", "2,2fd", "-k", "1,1r"}, "3 b\n4 B\n", "4 B\n3 b\n"},
      {"22b", {"-k", "2,2d", "-k", "1,1r"}, "3 b\n4 b\n", "4 b\n3 b\n"},
      {"incompat1", {"-in"}, "", "", 2, "gsort: options '-in' are incompatible\n"},
      {"incompat2", {"-nR"}, "", "", 2, "gsort: options '-nR' are incompatible\n"},
      {"incompat3", {"-dfgiMnR"}, "", "", 2, "gsort: options '-dfgMnR' are incompatible\n"},
      {"incompat7", {"--sort=random", "-n"}, "", "", 2, "gsort: options '-nR' are incompatible\n"},
      {"sort-gennum", {"--sort=general-numeric"}, "1e2\n2e1\n", "2e1\n1e2\n"},
  };
  return cases;
}

TEST(SortPl, OrderingCasesOnAPipeAndAFile) {
  TempDir dir;
  for (const SortPlCase& c : ordering_cases()) {
    const ProcessResult piped = run_gsort_on_pipe(c.args, c.in);
    EXPECT_EQ(piped.exit_code, c.exit_code) << c.name << ": " << piped.err;
    EXPECT_EQ(piped.out, c.out) << c.name;
    EXPECT_EQ(piped.err, c.err) << c.name;
    const std::string in = dir.file(std::string(c.name) + ".in");
    write_file(in, c.in);
    std::vector<std::string> args = c.args;
    args.push_back(in);
    const ProcessResult from_file = run_gsort_on_pipe(args, "");
    EXPECT_EQ(from_file.exit_code, c.exit_code) << c.name << " (file): " << from_file.err;
    EXPECT_EQ(from_file.out, c.out) << c.name << " (file)";
    if (c.exit_code != 0 || c.out.empty()) continue;
    const std::string sorted = dir.file(std::string(c.name) + ".sorted");
    write_file(sorted, c.out);
    args = c.args;
    args.insert(args.end(), {"-C", sorted});
    EXPECT_EQ(run_gsort_on_pipe(args, "").exit_code, 0) << c.name << ": its output is in order";
  }
}

// sort-version.sh: -V over package names and version strings, also with
// NUL-terminated lines in place of newlines.
TEST(SortPl, VersionSortShellTest) {
  const std::string in =
      "gcc-c++-10.fc9.tar.gz\n"
      "gcc-c++-10.8.12-0.7rc2.fc9.tar.bz2\n"
      "glibc-2-0.1.beta1.fc10.rpm\n"
      "glibc-common-5-0.2.beta2.fc9.ebuild\n"
      "glibc-common-5-0.2b.deb\n"
      "glibc-common-11b.ebuild\n"
      "glibc-common-11-0.6rc2.ebuild\n"
      "libstdc++-0.5.8.11-0.7rc2.fc10.tar.gz\n"
      "libstdc++-4a.fc8.tar.gz\n"
      "libstdc++-4.10.4.20040204svn.rpm\n"
      "libstdc++-devel-3.fc8.ebuild\n"
      "libstdc++-devel-3a.fc9.tar.gz\n"
      "libstdc++-devel-8.fc8.deb\n"
      "libstdc++-devel-8.6.2-0.4b.fc8\n"
      "nss_ldap-1-0.2b.fc9.tar.bz2\n"
      "nss_ldap-1-0.6rc2.fc8.tar.gz\n"
      "nss_ldap-1.0-0.1a.tar.gz\n"
      "nss_ldap-10beta1.fc8.tar.gz\n"
      "nss_ldap-10.11.8.6.20040204cvs.fc10.ebuild\n"
      "string start 5.0.0 end of str\n"
      "string start 5.1.0 end of str\n"
      "string start 5.10.0 end of str\n"
      "string start 5.2.0 end of str\n"
      "string start 5.20.0 end of str\n"
      "string start 5.3.0 end of str\n"
      "string start 5.30.0 end of str\n"
      "string start 5.4.0 end of str\n"
      "string start 5.40.0 end of str\n"
      "string start 5.5.0 end of str\n"
      "string start 5.50.0 end of str\n"
      "string start 5.6.0 end of str\n"
      "string start 5.60.0 end of str\n"
      "string start 5.7.0 end of str\n"
      "string start 5.70.0 end of str\n"
      "string start 5.8.0 end of str\n"
      "string start 5.80.0 end of str\n"
      "string start 5.9.0 end of str\n"
      "string start 5.90.0 end of str\n"
      "string start 5.04.0 end of str\n";
  const std::string expected =
      "gcc-c++-10.fc9.tar.gz\n"
      "gcc-c++-10.8.12-0.7rc2.fc9.tar.bz2\n"
      "glibc-2-0.1.beta1.fc10.rpm\n"
      "glibc-common-5-0.2.beta2.fc9.ebuild\n"
      "glibc-common-5-0.2b.deb\n"
      "glibc-common-11b.ebuild\n"
      "glibc-common-11-0.6rc2.ebuild\n"
      "libstdc++-0.5.8.11-0.7rc2.fc10.tar.gz\n"
      "libstdc++-4a.fc8.tar.gz\n"
      "libstdc++-4.10.4.20040204svn.rpm\n"
      "libstdc++-devel-3.fc8.ebuild\n"
      "libstdc++-devel-3a.fc9.tar.gz\n"
      "libstdc++-devel-8.fc8.deb\n"
      "libstdc++-devel-8.6.2-0.4b.fc8\n"
      "nss_ldap-1-0.2b.fc9.tar.bz2\n"
      "nss_ldap-1-0.6rc2.fc8.tar.gz\n"
      "nss_ldap-1.0-0.1a.tar.gz\n"
      "nss_ldap-10beta1.fc8.tar.gz\n"
      "nss_ldap-10.11.8.6.20040204cvs.fc10.ebuild\n"
      "string start 5.0.0 end of str\n"
      "string start 5.1.0 end of str\n"
      "string start 5.2.0 end of str\n"
      "string start 5.3.0 end of str\n"
      "string start 5.4.0 end of str\n"
      "string start 5.04.0 end of str\n"
      "string start 5.5.0 end of str\n"
      "string start 5.6.0 end of str\n"
      "string start 5.7.0 end of str\n"
      "string start 5.8.0 end of str\n"
      "string start 5.9.0 end of str\n"
      "string start 5.10.0 end of str\n"
      "string start 5.20.0 end of str\n"
      "string start 5.30.0 end of str\n"
      "string start 5.40.0 end of str\n"
      "string start 5.50.0 end of str\n"
      "string start 5.60.0 end of str\n"
      "string start 5.70.0 end of str\n"
      "string start 5.80.0 end of str\n"
      "string start 5.90.0 end of str\n";
  const ProcessResult r = run_gsort_on_pipe({"--stable", "--sort=version"}, in);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  std::string in0 = in, expected0 = expected;
  for (char& ch : in0) ch = ch == ' ' ? '\0' : ch;
  const ProcessResult z = run_gsort_on_pipe({"--stable", "--sort=version"}, in0);
  std::string back = z.out;
  for (char& ch : back) ch = ch == '\0' ? ' ' : ch;
  EXPECT_EQ(back, expected0) << "spaces as NULs";
}

// sort-float.sh: -g orders the float types' limits, and 10 and 1e1 are one number.
TEST(SortPl, GeneralNumericFloatLimits) {
  char buf[64];
  const auto ld = [&](long double x) { std::snprintf(buf, sizeof buf, "%.21Lg", x); return std::string(buf); };
  const auto d = [&](double x) { std::snprintf(buf, sizeof buf, "%.17g", x); return std::string(buf); };
  const auto f = [&](float x) { std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(x)); return std::string(buf); };
  const std::vector<std::string> ascending = {"-" + ld(LDBL_MAX), "-" + d(DBL_MAX), "-" + f(FLT_MAX), "-" + f(FLT_MIN),
                                              "-" + d(DBL_MIN),  "-" + ld(LDBL_MIN), "0", ld(LDBL_MIN), d(DBL_MIN),
                                              f(FLT_MIN),        f(FLT_MAX),         d(DBL_MAX), ld(LDBL_MAX)};
  std::string exp, reversed;
  for (const std::string& x : ascending) exp += x + "\n";
  for (auto it = ascending.rbegin(); it != ascending.rend(); ++it) reversed += *it + "\n";
  EXPECT_EQ(run_gsort_on_pipe({"-sg"}, reversed).out, exp);
  EXPECT_EQ(run_gsort_on_pipe({"-gu"}, "10\n1e1\n").out, "10\n");
}

// sort-rand.sh: -R puts 1..100 in an order that is not the input's, and a
// permutation of it; two runs without --random-source differ.
TEST(SortPl, RandomSortIsARandomPermutation) {
  std::string in;
  for (int i = 1; i <= 100; ++i) in += std::to_string(i) + "\n";
  const ProcessResult once = run_gsort_on_pipe({"--random-sort"}, in), again = run_gsort_on_pipe({"-R"}, in);
  ASSERT_EQ(once.exit_code, 0) << once.err;
  EXPECT_NE(once.out, in) << "not random?";
  EXPECT_NE(once.out, again.out) << "the same order twice without --random-source";
  EXPECT_EQ(run_gsort_on_pipe({"-n"}, once.out).out, in) << "not a permutation";
}

// sort-NaN-infloop.sh: NaNs merge and sort (they looped in GNU sort before 9.2).
TEST(SortPl, GeneralNumericNaNsMergeAndSort) {
  TempDir dir;
  write_file(dir.file("F"), "nan\n");
  EXPECT_EQ(run_gsort_on_pipe({"-g", "-m", dir.file("F"), dir.file("F")}, "").out, "nan\nnan\n");
  std::string many;
  for (int i = 0; i < 128095; ++i) many += "nan\n";
  const ProcessResult r = run_gsort_on_pipe({"-g"}, many);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.out == many);
}

// sort-month.sh in the C locale: the months, shuffled, sort back by -k2,2M.
TEST(SortPl, MonthSortOfShuffledMonths) {
  const std::vector<std::string> months = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                           "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
  const int shuffled[] = {7, 2, 11, 0, 5, 9, 1, 4, 10, 3, 8, 6};
  std::string in, expected;
  for (int i = 0; i < 12; ++i) in += std::to_string(i + 1) + "\t" + months[shuffled[i]] + "\n";
  const ProcessResult r = run_gsort_on_pipe({"-k2,2M"}, in);
  for (const std::string& line : split_lines(r.out, '\n')) expected += line.substr(line.find('\t') + 1) + ";";
  EXPECT_EQ(expected, "JAN;FEB;MAR;APR;MAY;JUN;JUL;AUG;SEP;OCT;NOV;DEC;");
}

}  // namespace
}  // namespace gsort_test
