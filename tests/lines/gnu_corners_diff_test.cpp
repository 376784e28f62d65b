// GNU sort's last corners (issue 52), found by a differential run against
// LC_ALL=C sort: each case is run by GNU sort and by gsort with the same
// arguments, input, environment and files, in a scratch directory, and
// must give the same output, exit status and standard error (gsort's name
// where sort says its own). Where coreutils 9.2 and later differ from the
// GNU sort installed (9.1 on the development machine), gsort follows the
// newest release, and the case says what that gives.
#include <gtest/gtest.h>

#include <unistd.h>

#include <string>
#include <vector>

#include "tests/lines/gnu_diff.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

const char* const kGnuSort = "/usr/bin/sort";

bool have_gnu_sort() { return ::access(kGnuSort, X_OK) == 0; }

struct Corner {
  std::vector<std::string> args;  // run in the scratch directory
  std::string in;                 // standard input
  std::vector<std::string> env;   // beside LC_ALL=C
};

struct Outcome {
  int exit_code = -1;
  std::string out, err;
};

// `program` with the corner's arguments, in `dir`.
Outcome run_in(const std::string& dir, const std::string& program, const Corner& c) {
  ProcessOptions options = c_locale(c.in);
  options.env.insert(options.env.end(), c.env.begin(), c.env.end());
  std::vector<std::string> argv = {"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", dir, program};
  argv.insert(argv.end(), c.args.begin(), c.args.end());
  const ProcessResult r = run_process(argv, options);
  return {r.exit_code, r.out, r.err};
}

// GNU sort's messages in gsort's name: "/usr/bin/sort: " at a line's start,
// and in "Try '/usr/bin/sort --help'".
std::string as_gsort(std::string err) {
  const std::string program = kGnuSort;
  for (size_t at = 0; (at = err.find(program, at)) != std::string::npos;) {
    const bool names_it = at == 0 || err[at - 1] == '\n' || err[at - 1] == '\'';
    if (names_it) err.replace(at, program.size(), "gsort");
    at += names_it ? 5 : program.size();
  }
  return err;
}

std::string described(const Corner& c) {
  std::string text = "sort";
  for (const std::string& a : c.args) text += " '" + a + "'";
  for (const std::string& e : c.env) text = e + " " + text;
  return text;
}

// The corner run by both: the same exit status, output and messages.
void expect_as_gnu(const TempDir& dir, const Corner& c) {
  const Outcome gnu = run_in(dir.path(), kGnuSort, c);
  const Outcome ours = run_in(dir.path(), gsort_argv({}).front(), c);
  EXPECT_EQ(ours.exit_code, gnu.exit_code) << described(c) << "\ngsort's stderr: " << ours.err;
  EXPECT_EQ(ours.out, gnu.out) << described(c);
  EXPECT_EQ(ours.err, as_gsort(gnu.err)) << described(c);
}

// The corner as coreutils 9.2 and later run it: `newest` where the GNU sort
// installed is older (`current`: whether it is as new), else GNU's own.
void expect_as_newest(const TempDir& dir, const Corner& c, bool current, const Outcome& newest) {
  if (current) return expect_as_gnu(dir, c);
  const Outcome ours = run_in(dir.path(), gsort_argv({}).front(), c);
  EXPECT_EQ(ours.exit_code, newest.exit_code) << described(c) << "\ngsort's stderr: " << ours.err;
  EXPECT_EQ(ours.out, newest.out) << described(c);
  EXPECT_EQ(ours.err, newest.err) << described(c);
}

// Whether the GNU sort installed knows -h's units R and Q (9.2 and later).
bool gnu_sort_knows_r_and_q() {
  static const bool knows = run_process({kGnuSort, "-h"}, c_locale("1Q\n2\n")).out == "2\n1Q\n";
  return knows;
}

// 10. -h with f folds the key first, so q and r are the units Q and R, as
// coreutils 9.2 and later read them (9.1 knew neither, folded or not).
TEST(GnuCorners, HumanNumericWithFoldTakesQAndRAsUnits) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no " << kGnuSort;
  TempDir dir;
  const bool current = gnu_sort_knows_r_and_q();
  expect_as_newest(dir, {{"-hf"}, "9q\n10\n"}, current, {0, "10\n9q\n", ""});
  expect_as_newest(dir, {{"-hf"}, "1r\n1Y\n1q\n1k\n"}, current, {0, "1k\n1Y\n1r\n1q\n", ""});
  expect_as_newest(dir, {{"-k1,1hf"}, "1q a\n1r b\n-1q c\n"}, current, {0, "-1q c\n1r b\n1q a\n", ""});
  // Unfolded, lower-case q and r are no units in any version.
  expect_as_gnu(dir, {{"-h"}, "9q\n10\n"});
  expect_as_gnu(dir, {{"-h"}, "1r\n1q\n1k\n"});
}

// 11. --sort given twice sets both letters, as -R -V does: random (which
// wins over version); numeric and month are refused together.
TEST(GnuCorners, SortWordGivenTwiceSetsBothOrderings) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no " << kGnuSort;
  TempDir dir;
  write_file(dir.file("seed"), "0123456789abcdef0123456789abcdef");
  const std::string lines = "1.10\n1.9\n1.2\nb\na\n1.0\nc\n";
  expect_as_gnu(dir, {{"--sort=random", "--sort=version", "--random-source=seed"}, lines});
  expect_as_gnu(dir, {{"--sort=version", "--sort=random", "--random-source=seed"}, lines});
  expect_as_gnu(dir, {{"--sort=random", "--sort=version", "--random-source=/dev/zero"}, lines});
  expect_as_gnu(dir, {{"--sort=numeric", "--sort=month"}, "1\n"});
  expect_as_gnu(dir, {{"--sort", "month", "--sort=h"}, "1\n"});
  expect_as_gnu(dir, {{"--sort=n", "--sort=numeric"}, "10\n9\n"});
  expect_as_gnu(dir, {{"--so=gen", "-r"}, "1e3\n20\n"});
}

// 12. Once a +POS1 -POS2 pair has been met, a +POS1 alone is a key too,
// even where _POSIX2_VERSION makes a lone one a file.
TEST(GnuCorners, PlusPosAfterAPairIsAKey) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no " << kGnuSort;
  TempDir dir;
  const std::vector<std::string> posix2001 = {"_POSIX2_VERSION=200112"};
  expect_as_gnu(dir, {{"+0", "-1", "+1"}, "b 2\na 3\nb 1\n", posix2001});
  expect_as_gnu(dir, {{"+1", "-2", "+0r"}, "x 2\ny 1\nz 2\n", posix2001});
  expect_as_gnu(dir, {{"+0", "-1", "+1", "-2", "+2n"}, "a b 3\na b 20\na a 1\n", posix2001});
  expect_as_gnu(dir, {{"+0", "-1", "+1"}, "b 2\na 3\nb 1\n"});
}

// 13. -m of as many inputs as --batch-size merges them at once: no
// temporary file, so a -T that cannot be used is never tried.
TEST(GnuCorners, MergeOfBatchSizeInputsNeedsNoTemporaryDirectory) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no " << kGnuSort;
  TempDir dir;
  write_file(dir.file("m1"), "a\nc\n");
  write_file(dir.file("m2"), "b\nd\n");
  write_file(dir.file("m3"), "e\n");
  expect_as_gnu(dir, {{"-m", "--batch-size=2", "-T", "/nonexistent", "m1", "m2"}, ""});
  expect_as_gnu(dir, {{"-m", "--batch-size=3", "-T", "/nonexistent", "m1", "m2", "m3"}, ""});
  // Up to 16 (GNU's default batch) whatever -S: no temporary file either.
  std::vector<std::string> sixteen = {"-m", "-S", "1K", "-T", "/nonexistent"};
  for (int i = 0; i < 16; ++i) sixteen.push_back(i % 2 ? "m1" : "m2");
  expect_as_gnu(dir, {sixteen, ""});
  // One more than the batch needs a temporary file, where -T fails.
  const std::vector<std::string> three = {"-m", "--batch-size=2", "-T", "/nonexistent", "m1", "m2", "m3"};
  EXPECT_EQ(run_in(dir.path(), kGnuSort, {three, ""}).exit_code, 2);
  EXPECT_EQ(run_in(dir.path(), gsort_argv({}).front(), {three, ""}).exit_code, 2);
}

// 15. -c and -C check, with -m or without: -m changes nothing.
TEST(GnuCorners, CheckWithMergeChecks) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no " << kGnuSort;
  TempDir dir;
  write_file(dir.file("sorted"), "a\nb\n");
  expect_as_gnu(dir, {{"-cm"}, "b\na\n"});
  expect_as_gnu(dir, {{"-cm"}, "a\nb\n"});
  expect_as_gnu(dir, {{"-Cm"}, "a\nb\n"});
  expect_as_gnu(dir, {{"-Cm"}, "b\na\n"});
  expect_as_gnu(dir, {{"-m", "--check=quiet", "sorted"}, ""});
  expect_as_gnu(dir, {{"-c", "-m", "sorted", "sorted"}, ""});
}

// 16. -S takes a unit without a number (K is 1K), as sort does.
TEST(GnuCorners, BufferSizeUnitWithoutANumber) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no " << kGnuSort;
  TempDir dir;
  for (const char* size : {"K", "M", "k", "G", " 1", "+1", "0%", "0b", "5%"}) {
    expect_as_gnu(dir, {{"-S", size}, "b\na\n"});
  }
  expect_as_gnu(dir, {{"-SK"}, "b\na\n"});
  expect_as_gnu(dir, {{"--buffer-size=M"}, "b\na\n"});
  for (const char* bad : {"b", "%", "", "-1", "1B", "1Ki", "1KB", "Kx", "1x", "0x10", "1Z", "18014398509481984",
                          "100000000000000000000%", "99999999999999999999b"}) {
    expect_as_gnu(dir, {{"-S", bad}, "b\na\n"});
  }
  expect_as_gnu(dir, {{"--buffer-size=1x"}, "b\na\n"});
  expect_as_gnu(dir, {{"--bu=1Y"}, "b\na\n"});
}

// 16. sort checks each value of -S, --parallel and --batch-size as it
// meets it: a wrong one is refused though a later one would replace it.
TEST(GnuCorners, EveryRepeatedValueIsChecked) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no " << kGnuSort;
  TempDir dir;
  const std::vector<std::vector<std::string>> cases = {
      {"-S", "1x", "-S", "1K"},         {"-S1K", "-S", "1x"},
      {"--parallel=0", "--parallel=1"}, {"--parallel=x", "--parallel=1"},
      {"--batch-size=1", "--batch-size=2"}, {"--batch-size=2", "--batch-size=x"},
      {"--batch-size=99999999999999999999", "--batch-size=2"}, {"-S", "1x", "--parallel=0"},
      {"--parallel=0", "-S", "1x"},     {"--parallel=-1"},
      {"--parallel=3k"},                {"--parallel= 3"},
      {"--parallel=+3"},                {"--parallel=100000"},
      {"--batch-size= 3"},              {"--batch-size=3k"},
      {"--batch-size=-2"},              {"--batch-size="},
  };
  for (const std::vector<std::string>& args : cases) expect_as_gnu(dir, {args, "b\na\n"});
}

// 16. A word --sort= or --check= does not take is argmatch's usage error:
// exit 1, with the list of words.
TEST(GnuCorners, WrongSortOrCheckWordExitsOneWithTheValidWords) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no " << kGnuSort;
  TempDir dir;
  for (const char* word : {"", "x", "numerical", "it's", "a\tb\x80\\"}) {
    expect_as_gnu(dir, {{std::string("--sort=") + word}, "b\na\n"});
    expect_as_gnu(dir, {{std::string("--check=") + word}, "b\na\n"});
  }
  expect_as_gnu(dir, {{"--sort", "x"}, "b\na\n"});
  expect_as_gnu(dir, {{"--so=x"}, "b\na\n"});
  // The first wrong option is the one reported, as sort meets them.
  expect_as_gnu(dir, {{"--sort=x", "-S", "1x"}, "b\na\n"});
  expect_as_gnu(dir, {{"-S", "1x", "--sort=x"}, "b\na\n"});
  expect_as_gnu(dir, {{"--check=x", "--sort=x"}, "b\na\n"});
}

// 17. A -S below the least a line sort takes (1 MiB) is raised to it, for
// speed: where GNU sort under -S 1K spills even a small input (and so fails
// on a -T it cannot use), gsort sorts what a chunk of 1 MiB holds in
// memory, and succeeds. The output is the same; a larger input spills, and
// fails there too.
TEST(GnuCorners, TinyBufferSizeIsRaisedToTheLeastLineBudget) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no " << kGnuSort;
  TempDir dir;
  std::string small, large;
  for (int i = 3000; i > 0; --i) small += std::to_string(i) + "\n";
  for (int i = 30000; i > 0; --i) large += std::to_string(i) + "\n";
  expect_as_gnu(dir, {{"-S", "1K", "-T", "."}, small});
  const Outcome gnu = run_in(dir.path(), kGnuSort, {{"-S", "1K", "-T", "/nonexistent"}, small});
  const Outcome ours = run_in(dir.path(), gsort_argv({}).front(), {{"-S", "1K", "-T", "/nonexistent"}, small});
  EXPECT_EQ(gnu.exit_code, 2) << "GNU sort spills 3000 lines under -S 1K";
  EXPECT_EQ(ours.exit_code, 0) << ours.err;
  EXPECT_EQ(ours.out, run_in(dir.path(), kGnuSort, {{"-S", "1K", "-T", "."}, small}).out);
  EXPECT_EQ(run_in(dir.path(), gsort_argv({}).front(), {{"-S", "1K", "-T", "/nonexistent"}, large}).exit_code, 2);
}

// 18. -S's units R and Q are sizes in coreutils 9.2 and later (too large
// ones), where 9.1 called them invalid suffixes.
TEST(GnuCorners, BufferSizeRAndQAreTooLarge) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no " << kGnuSort;
  TempDir dir;
  const bool current = gnu_sort_knows_r_and_q();
  expect_as_newest(dir, {{"-S", "1R"}, "b\na\n"}, current, {2, "", "gsort: -S argument '1R' too large\n"});
  expect_as_newest(dir, {{"--buffer-size=0Q"}, "b\na\n"}, current, {0, "a\nb\n", ""});
  expect_as_newest(dir, {{"-S", "R"}, "b\na\n"}, current, {2, "", "gsort: -S argument 'R' too large\n"});
}

// 18. No byte is a thousands separator for -n, as in coreutils 9.5 and
// later: 9.1 to 9.4 on x86 skipped 0x80 among the digits (1\x809 was 19).
TEST(GnuCorners, NumericReadsNoThousandsSeparator) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no " << kGnuSort;
  TempDir dir;
  const bool current = !gnu_sort_reads_0x80_as_a_separator();
  expect_as_newest(dir, {{"-n"}, "1\x80" "9\n13\n-\x80" "2\n"}, current, {0, "-\x80" "2\n1\x80" "9\n13\n", ""});
  expect_as_newest(dir, {{"-h"}, "1\x80" "9K\n13\n"}, current, {0, "1\x80" "9K\n13\n", ""});
  expect_as_newest(dir, {{"-s", "-k2n"}, "a 2\x80" "5\nb 3\n"}, current, {0, "a 2\x80" "5\nb 3\n", ""});
}

// 18. --debug's note on the decimal point without "note ", as in coreutils
// 9.7 and later.
TEST(GnuCorners, DebugNoteOnTheDecimalPoint) {
  if (!have_gnu_sort()) GTEST_SKIP() << "no " << kGnuSort;
  TempDir dir;
  const bool current = run_process({kGnuSort, "--debug", "-n"}, c_locale("1\n")).err.find("note ") == std::string::npos;
  expect_as_newest(dir, {{"--debug", "-n"}, "1\n"}, current,
                   {0, "1\n_\n_\n",
                    "gsort: text ordering performed using simple byte comparison\n"
                    "gsort: numbers use '.' as a decimal point in this locale\n"});
}

}  // namespace
}  // namespace gsort_test
