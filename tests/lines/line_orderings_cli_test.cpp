// GNU sort's other orderings (-d -i -M -g -V -R, as global options and as
// key modifiers, with -f -b -r, -u and -s) through the gsort program beside
// GNU sort (LC_ALL=C): in memory from a pipe, spilled under a small -S,
// merged (-m), checked (-c and -C, in GNU's words), and from a gzip input;
// every output byte for byte GNU sort's. Also --random-source's errors and
// -g, -R and -V under --backend gpu (the CPU sorts them).
#include <gtest/gtest.h>

#include <unistd.h>

#include <string>
#include <vector>

#include "tests/lines/gnu_diff.h"
#include "tests/support/line_gen.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

ProcessResult run(const char* program, std::vector<std::string> args, const ProcessOptions& p = c_locale()) {
  args.insert(args.begin(), program);
  return run_process(args, p);
}
ProcessResult gsort(std::vector<std::string> args, const ProcessOptions& p = c_locale()) {
  return run(GSORT_BINARY, std::move(args), p);
}
ProcessResult gnu(std::vector<std::string> args, const ProcessOptions& p = c_locale()) {
  return run("/usr/bin/sort", std::move(args), p);
}

// Lines of fields these orderings read: months, general numbers, versions,
// words with punctuation and control bytes; many duplicates.
std::string ordering_lines(Rng& rng, size_t bytes) {
  static const char* const kFields[] = {
      "jan", "Feb", " MAR", "apr", "mayday", "JUN", "jul", "aug", "sep", "oct", "nov", "dec", "xyz", "",
      "1e3", "-2.5", "0x10", "inf", "-inf", "1e-400", "7", "+3", "0", "-0", "abc", "1.2.10", "1.2.9",
      "foo-1.0.tar.gz", "foo-1.0~rc1.tar.gz", ".hidden", "v10", "v9a", "a-b", "a_b", "A.B", "a\x01" "b", "\x7f" "z",
      "caf\xc3\xa9", "tab\there"};
  std::string s;
  while (s.size() < bytes) {
    const uint64_t fields = rng.range(1, 4);
    for (uint64_t f = 0; f < fields; ++f) {
      if (f > 0) s += ' ';
      s += kFields[rng.below(sizeof kFields / sizeof kFields[0])];
      if (rng.chance(30)) s += std::to_string(rng.below(50));
    }
    s += '\n';
  }
  return s;
}

class LineOrderingsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::access("/usr/bin/sort", X_OK) != 0) GTEST_SKIP() << "no GNU sort";
    write_file(dir.file("seed"), "0123456789abcdef-and-more");
  }
  // The option sets, -R's with the same --random-source for both sorts.
  std::vector<std::vector<std::string>> option_sets() const {
    const std::string source = "--random-source=" + dir.file("seed");
    std::vector<std::vector<std::string>> sets = {
        {"-d"}, {"-i", "-r"}, {"-df", "-b"}, {"-M"}, {"-k2,2M", "-k1,1"}, {"-g"}, {"-k1,1gr", "-k2"}, {"-R", source},
        {"-k2,2di", "-k1,1fR", source}};
    if (gnu_sort_has_current_version_order()) {  // else GNU's -V is 9.1's (gnu_diff.h)
      sets.insert(sets.end(), {{"-V"}, {"-Vf", "-r"}, {"-k1,1R", "-k2,2V", source}});
    }
    return sets;
  }
  TempDir dir;
  Rng rng{2037};
};

TEST_F(LineOrderingsCli, InMemoryFromAPipeWithUniqueAndStable) {
  const std::string data = ordering_lines(rng, 200 << 10);
  for (const std::vector<std::string>& set : option_sets()) {
    for (const char* extra : {"", "-u", "-s"}) {
      std::vector<std::string> args = set;
      if (*extra) args.push_back(extra);
      const ProcessResult ours = gsort(args, c_locale(data));
      ASSERT_EQ(ours.exit_code, 0) << join_args(args) << ": " << ours.err;
      EXPECT_TRUE(ours.out == gnu(args, c_locale(data)).out) << join_args(args);
    }
  }
}

TEST_F(LineOrderingsCli, SpilledAndMergedRuns) {
  write_file(dir.file("in"), ordering_lines(rng, 1200 << 10));  // chunks of about half a megabyte under -S 1M
  for (const std::vector<std::string>& set : option_sets()) {
    std::vector<std::string> args = set;
    args.insert(args.end(), {"-u", dir.file("in")});
    const std::string expected = gnu(args).out;
    args.insert(args.end(), {"-S", "1M", "-T", dir.path()});
    const ProcessResult ours = gsort(args);
    ASSERT_EQ(ours.exit_code, 0) << join_args(args) << ": " << ours.err;
    EXPECT_TRUE(ours.out == expected) << join_args(args);
  }
}

TEST_F(LineOrderingsCli, MergedCheckedAndCompressed) {
  const std::string data = ordering_lines(rng, 300 << 10);
  write_file(dir.file("in"), data);
  ASSERT_EQ(run_process({"/bin/sh", "-c", "gzip -c < " + dir.file("in") + " > " + dir.file("in.gz")}).exit_code, 0);
  for (const std::vector<std::string>& set : option_sets()) {
    std::vector<std::string> parts;
    for (int k = 0; k < 3; ++k) {  // three sorted thirds of the input
      const size_t from = data.find('\n', k * data.size() / 3) + 1, to = data.find('\n', (k + 1) * data.size() / 3) + 1;
      parts.push_back(dir.file("part" + std::to_string(k)));
      std::vector<std::string> args = set;
      args.insert(args.end(), {"-o", parts.back()});
      gnu(args, c_locale(data.substr(k == 0 ? 0 : from, (k == 2 ? data.size() : to) - (k == 0 ? 0 : from))));
    }
    std::vector<std::string> merge = set;
    merge.push_back("-m");
    merge.insert(merge.end(), parts.begin(), parts.end());
    EXPECT_TRUE(gsort(merge).out == gnu(merge).out) << "-m " << join_args(set);
    std::vector<std::string> check = set;
    check.insert(check.end(), {"-c", parts[1]});
    EXPECT_EQ(gsort(check).exit_code, 0) << "-c " << join_args(set);
    check.back() = dir.file("in");
    const ProcessResult ours = gsort(check), theirs = gnu(check);
    EXPECT_EQ(ours.exit_code, 1) << "-c " << join_args(set) << ": " << ours.err;
    EXPECT_EQ(ours.err.substr(ours.err.find(':')), theirs.err.substr(theirs.err.find(':'))) << join_args(set);
    check[check.size() - 2] = "-C";
    EXPECT_EQ(gsort(check).exit_code, 1);
    std::vector<std::string> packed = set;
    packed.push_back(dir.file("in.gz"));
    std::vector<std::string> plain = set;
    plain.push_back(dir.file("in"));
    EXPECT_TRUE(gsort(packed).out == gnu(plain).out) << join_args(set) << " from .gz";
  }
}

TEST_F(LineOrderingsCli, RandomSourceErrorsInGnuWords) {
  write_file(dir.file("short"), "short");
  write_file(dir.file("in"), "b\na\n");
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"-R", "--random-source=" + dir.file("none")},
       "gsort: open failed: " + dir.file("none") + ": No such file or directory\n"},
      {{"-R", "--random-source=" + dir.file("short")}, "gsort: '" + dir.file("short") + "': end of file\n"},
      {{"-R", "--random-source=" + dir.path()}, "gsort: '" + dir.path() + "': read error: Is a directory\n"},
      {{"-R", "--random-source=" + dir.file("in"), "--random-source=" + dir.file("short")},
       "gsort: multiple random sources specified\n"},
  };
  for (const auto& [args, message] : cases) {
    std::vector<std::string> with_input = args;
    with_input.push_back(dir.file("in"));
    const ProcessResult r = gsort(with_input);
    EXPECT_EQ(r.exit_code, 2) << join_args(args);
    EXPECT_EQ(r.err, message) << join_args(args);
    EXPECT_EQ(r.out, "");
  }
  // No -R: the source is not read (GNU sort's need_random).
  EXPECT_EQ(gsort({"--random-source=" + dir.file("none"), dir.file("in")}).out, "a\nb\n");
}

// The GPU sorter makes the first key's image, which -g -R -V take from the
// host: with --backend gpu (where there is one) the CPU sorts them, the
// same lines.
TEST_F(LineOrderingsCli, HostOnlyOrderingsUnderTheGpuBackend) {
  const ProcessResult probe = gsort({"--backend", "gpu", dir.file("seed")});
  if (probe.exit_code != 0) GTEST_SKIP() << "no usable GPU: " << probe.err;
  const std::string data = ordering_lines(rng, 1 << 20);
  for (const std::vector<std::string>& set : option_sets()) {
    std::vector<std::string> args = set;
    args.insert(args.end(), {"--backend", "gpu"});
    const ProcessResult ours = gsort(args, c_locale(data));
    ASSERT_EQ(ours.exit_code, 0) << join_args(args) << ": " << ours.err;
    EXPECT_TRUE(ours.out == gnu(set, c_locale(data)).out) << join_args(args);
  }
}

}  // namespace
}  // namespace gsort_test
