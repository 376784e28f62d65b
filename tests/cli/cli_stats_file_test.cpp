// --stats FILE: never an input or the output (also through a link), and the
// one failure after the output's commit (the stats file's rename) says that
// the output was written. More cases in cases/stats.case.
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

const std::string kInput = "dddcccbbbaaa", kSorted = "aaabbbcccddd";

ProcessResult sort_into(const std::string& dir, const std::string& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--record-size", "3", "-T", dir, "-o", out, dir + "/in.bin"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_gsort(args);
}

TEST(CliStatsFile, StatsThroughALinkToAnInputIsRefused) {
  TempDir dir;
  write_file(dir.file("in.bin"), kInput);
  ASSERT_EQ(symlink("in.bin", dir.file("s.json").c_str()), 0);
  const ProcessResult r = sort_into(dir.path(), dir.file("out.bin"), {"--stats", dir.file("s.json")});
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err, "gsort: --stats file " + dir.file("s.json") + " is also an input\n");
  EXPECT_EQ(read_file(dir.file("in.bin")), kInput);
  EXPECT_FALSE(path_exists(dir.file("out.bin")));
}

#ifdef GSORT_HOOKS_BINARY
// The one failure after the output's commit: the message says it was written.
TEST(CliStatsFile, StatsRenameFailureSaysTheOutputWasWritten) {
  TempDir dir;
  write_file(dir.file("in.bin"), kInput);
  ProcessOptions options;
  options.env.push_back("GSORT_TEST_BLOCK_STATS_RENAME=1");
  const ProcessResult r = run_process({GSORT_HOOKS_BINARY, "--record-size", "3", "-o", dir.file("out.bin"), "--stats",
                                       dir.file("s.json"), dir.file("in.bin")},
                                      options);
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err, "gsort: output " + dir.file("out.bin") +
                       " was written, but not the --stats file: cannot rename --stats file into place: " +
                       dir.file("s.json") + ": Is a directory\n");
  EXPECT_EQ(read_file(dir.file("out.bin")), kSorted);
  EXPECT_EQ(list_tree(dir.path()), (std::vector<std::string>{"in.bin", "out.bin", "s.json"}));
}
#endif

}  // namespace
}  // namespace gsort_test
