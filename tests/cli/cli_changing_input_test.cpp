// An input written over in place (same size) while gsort runs (issue 52):
// the output is a sorted permutation of one snapshot of it, or gsort exits 2
// saying the input changed, and the destination is as it was. gsort reads a
// file that fits memory through a mapping and applies the order it found to
// the same pages when it gathers the output; it reads others in pieces. The
// hooks binary writes the other version over the input at one moment:
// before a chunk is read, once the input is mapped (before the sort), or
// when the output's writer starts (during the gather); for records and
// lines, mapped and read, sorted, merged (-m) and checked (-c).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

#ifdef GSORT_HOOKS_BINARY

constexpr const char* kChanged = "changed while gsort read it";

// `n` lines of a log's shape; `seed` picks them. Lines differ in length, so
// two versions of one size split into different lines.
std::string log_lines(size_t n, uint64_t seed) {
  Rng rng(seed);
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += "2026-12-0" + std::to_string(1 + rng.below(9)) + " host" + std::to_string(rng.below(50)) + " ";
    s += std::string(1 + rng.below(60), static_cast<char>('a' + rng.below(26))) + "\n";
  }
  return s;
}

std::string sorted_records(std::string bytes) {
  std::vector<std::string> recs;
  for (size_t i = 0; i < bytes.size(); i += 100) recs.push_back(bytes.substr(i, 100));
  std::stable_sort(recs.begin(), recs.end(), [](const std::string& a, const std::string& b) {
    return a.compare(0, 10, b, 0, 10) < 0;
  });
  std::string out;
  for (const std::string& r : recs) out += r;
  return out;
}

class ChangingInput : public testing::Test {
 protected:
  void SetUp() override {
    if (::access("/usr/bin/sort", X_OK) != 0) GTEST_SKIP() << "no GNU sort";
    // Records: two versions of 4 MB of gensort records (keys: the first 10 bytes).
    Rng rng(52);
    versions_["records"] = {rng.bytes(40000 * 100), rng.bytes(40000 * 100)};
    // Lines: the second cut to the first's size, ending with a terminator.
    const std::string a = log_lines(60000, 4);
    std::string b = log_lines(70000, 5).substr(0, a.size());
    b.back() = '\n';
    versions_["lines"] = {a, b};
    for (const auto& [kind, v] : versions_) {
      write_file(dir_.file(kind + ".b"), v.second);
      if (kind == "records") {
        sorted_[kind] = {sorted_records(v.first), sorted_records(v.second)};
      } else {
        sorted_[kind] = {gnu_sorted(v.first), gnu_sorted(v.second)};
      }
    }
  }

  static std::string gnu_sorted(const std::string& text) { return run_process({"/usr/bin/sort"}, c_locale(text)).out; }

  // gsort-test-hooks `args` (INPUT stands for the input), the other version
  // written over the input at `moment`. Fails the test unless gsort wrote a
  // sorted snapshot with exit 0, or exited 2 saying the input changed and
  // left no output; returns whether it exited 2.
  bool expect_snapshot_or_exit_2(const std::string& kind, std::vector<std::string> args, const std::string& moment) {
    const std::string input = dir_.file(kind + ".in"), out = dir_.file("out");
    write_file(input, versions_[kind].first);
    ::unlink(out.c_str());
    for (std::string& a : args) {
      if (a == "INPUT") a = input;
    }
    if (kind == "records") args.insert(args.begin(), {"--format", "gensort"});
    args.insert(args.end(), {"-o", out});
    ProcessOptions o = c_locale();
    o.env.push_back("GSORT_TEST_REWRITE_INPUT=" + moment + ":" + input + ":" + dir_.file(kind + ".b"));
    args.insert(args.begin(), GSORT_HOOKS_BINARY);
    const ProcessResult r = run_process(args, o);
    const std::string what = kind + " at " + moment + ": " + command_line(args);
    if (r.status() == "exit 2") {
      // One error line, the last (-v's lines come before it).
      const size_t line = r.err.rfind('\n', r.err.size() - 2) + 1;
      EXPECT_NE(r.err.find(kChanged, line), std::string::npos) << what << ": " << r.err;
      EXPECT_EQ(r.err.find(kChanged), r.err.find(kChanged, line)) << what << ": " << r.err;
      EXPECT_NE(::access(out.c_str(), F_OK), 0) << what << ": an output was left";
      return true;
    }
    EXPECT_EQ(r.status(), "exit 0") << what << ": " << r.err;
    const std::string got = read_file(out);
    EXPECT_TRUE(got == sorted_[kind].first || got == sorted_[kind].second)
        << what << ": the output is no sorted snapshot of the input (" << got.size() << " bytes)";
    return false;
  }

  TempDir dir_;
  std::map<std::string, std::pair<std::string, std::string>> versions_, sorted_;
};

// Mapped (in memory, its pages in the cache): written over before the
// read, before the sort, or during the gather. The last two can give no
// snapshot: the order found in one version is applied to the other.
TEST_F(ChangingInput, AMappedInputGivesASnapshotOrExit2) {
  for (const std::string kind : {"records", "lines"}) {
    for (const std::string moment : {"chunk-0", "mapped", "output"}) {
      const bool failed = expect_snapshot_or_exit_2(kind, {"-v", "--page-cache", "keep", "INPUT"}, moment);
      if (moment == "output") EXPECT_TRUE(failed) << kind << ": written over during the gather, with exit 0";
    }
  }
}

// Read in pieces and spilled: written over between two chunks (a mix of
// both versions) or once everything was read (a snapshot of the first).
TEST_F(ChangingInput, AnInputReadInPiecesGivesASnapshotOrExit2) {
  for (const std::string kind : {"records", "lines"}) {
    EXPECT_TRUE(expect_snapshot_or_exit_2(kind, {"-S", "1M", "-T", dir_.path(), "INPUT"}, "chunk-1"))
        << kind << ": written over between two chunks, with exit 0";
    expect_snapshot_or_exit_2(kind, {"-S", "1M", "-T", dir_.path(), "INPUT"}, "output");
  }
}

// -m reads its inputs as it merges: written over when the output starts.
// The input is sorted first, and so is the other version written over it.
TEST_F(ChangingInput, AMergedInputGivesASnapshotOrExit2) {
  for (const std::string kind : {"records", "lines"}) {
    versions_[kind] = sorted_[kind];
    write_file(dir_.file(kind + ".b"), versions_[kind].second);
    EXPECT_TRUE(expect_snapshot_or_exit_2(kind, {"-m", "-S", "1M", "INPUT"}, "output"))
        << kind << ": written over while merged, with exit 0";
  }
}

// -c on a sorted file written over with another sorted version between two
// of its reads: the verdict would be of neither, so it is exit 2.
TEST_F(ChangingInput, ACheckedInputChangedWhileReadIsExit2) {
  for (const std::string kind : {"records", "lines"}) {
    const std::string input = dir_.file(kind + ".in");
    write_file(input, sorted_[kind].first);
    write_file(dir_.file(kind + ".b"), sorted_[kind].second);
    std::vector<std::string> args = {GSORT_HOOKS_BINARY, "-c", input};
    if (kind == "records") args.insert(args.begin() + 1, {"--format", "gensort"});
    ProcessOptions o = c_locale();
    o.env.push_back("GSORT_TEST_REWRITE_INPUT=chunk-1:" + input + ":" + dir_.file(kind + ".b"));
    const ProcessResult r = run_process(args, o);
    EXPECT_EQ(r.status(), "exit 2") << kind << ": " << r.err;
    EXPECT_NE(r.err.find(kChanged), std::string::npos) << kind << ": " << r.err;
  }
}

#endif

}  // namespace
}  // namespace gsort_test
