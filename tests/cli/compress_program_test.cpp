// --compress-program (issue 52): a `PROG -d` that fails is named as sort
// names it, exit 2, with no temporary file left. For text lines and for
// records, whose pipelines share the run files (src/merge/temp_runs.h).
// The programs are shell scripts in the test's scratch directory.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

enum class Pipeline { kLines, kRecords };

std::string pipeline_name(Pipeline p) { return p == Pipeline::kLines ? "Lines" : "Records"; }

// A scratch directory with an input that spills under -S `memory` (lines:
// `count` numbers of 7 digits, in reverse; records: `count` of 16 random
// bytes), -T in it, and the programs written there.
class Scene {
 public:
  Scene(Pipeline pipeline, int count, std::string memory)
      : pipeline_(pipeline), memory_(std::move(memory)), tmp_(dir_.subdir("tmp")), input_(dir_.file("in")) {
    std::string data;
    if (pipeline == Pipeline::kLines) {
      char line[16];
      for (int i = count; i > 0; --i) {
        data.append(line, static_cast<size_t>(std::snprintf(line, sizeof line, "%07d\n", i)));
      }
    } else {
      Rng rng(52);
      data = rng.bytes(static_cast<size_t>(count) * 16);
    }
    write_file(input_, data);
  }
  // Some tens of runs of one file each: lines 100000, records 300000, -S 1M.
  explicit Scene(Pipeline pipeline) : Scene(pipeline, pipeline == Pipeline::kLines ? 100000 : 300000, "1M") {}

  const TempDir& dir() const { return dir_; }
  const std::string& tmp() const { return tmp_; }

  // An executable script called `name` in the directory; its path.
  std::string program(const std::string& name, const std::string& text) const {
    const std::string path = dir_.file(name);
    write_file(path, "#!/bin/sh\n" + text);
    if (chmod(path.c_str(), 0755) != 0) throw std::runtime_error("chmod " + path);
    return path;
  }

  // gsort's arguments: the pipeline's, then `more`, then the input.
  std::vector<std::string> args(const std::vector<std::string>& more) const {
    std::vector<std::string> a = {"-S", memory_, "-T", tmp_};
    if (pipeline_ == Pipeline::kRecords) a.insert(a.end(), {"--record-size", "16", "--key", "0:u64"});
    a.insert(a.end(), more.begin(), more.end());
    a.push_back(input_);
    return a;
  }

 private:
  const Pipeline pipeline_;
  const std::string memory_;
  TempDir dir_;
  const std::string tmp_;
  const std::string input_;
};

class CompressProgram : public testing::TestWithParam<Pipeline> {};

// PROG -d exiting 1 without a byte: sort's message, naming the program,
// one line, exit 2, no output and no temporary file (gsort used to call
// the run file truncated).
TEST_P(CompressProgram, AFailingDecompressorIsNamedWithExit2) {
  Scene scene(GetParam());
  const std::string program = scene.program("fails-d", "if [ \"$1\" = -d ]; then exit 1; fi\nexec cat\n");
  const std::string out = scene.dir().file("out");
  const ProcessResult r = run_gsort(scene.args({"--compress-program=" + program, "-o", out}), c_locale());
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err, "gsort: '" + program + "' [-d] terminated abnormally\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(path_exists(out));
  EXPECT_EQ(list_tree(scene.tmp()), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Pipelines, CompressProgram, testing::Values(Pipeline::kLines, Pipeline::kRecords),
                         [](const testing::TestParamInfo<Pipeline>& p) { return pipeline_name(p.param); });

}  // namespace
}  // namespace gsort_test
