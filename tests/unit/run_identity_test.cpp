// Run identity (io/run/run_file.h): a run file carries the job id and the run
// number it was written with; a reader expecting another job or another
// run refuses it with DataError, plain and compressed alike. This is what
// catches a run file swapped for another valid one.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "io/run/run_file.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

class RunIdentityTest : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    const char* t = std::getenv("TMPDIR");
    std::string templ = std::string(t && *t ? t : "/tmp") + "/gsort-identity-test.XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    ::unlink(path().c_str());
    ::rmdir(dir_.c_str());
  }
  std::string path() const { return dir_ + "/run.3"; }

  // Writes 100 8-byte records as run `identity`.
  void write(const RunIdentity& identity) {
    RunCompression compression;
    compression.enabled = GetParam();
    compression.frame_bytes = 256;
    RunWriter w(path(), 8, compression, identity);
    std::vector<uint8_t> records(800);
    for (size_t i = 0; i < records.size(); ++i) records[i] = static_cast<uint8_t>(i);
    w.append(records.data(), 100);
    w.finish();
  }
  // The message of the DataError a reader expecting `expected` raises, or
  // "" when it reads the whole run without one.
  std::string open_error(const RunIdentity& expected) {
    try {
      RunReader r(path(), 8, nullptr, false, expected);
      std::vector<uint8_t> buf(800);
      while (r.read(buf.data(), 100) > 0) {
      }
      return "";
    } catch (const DataError& e) {
      return e.what();
    }
  }

  std::string dir_;
};

TEST_P(RunIdentityTest, TheRightJobAndIndexReadBack) {
  const RunIdentity id{0x1234567890abcdefull, 3};
  write(id);
  EXPECT_EQ(open_error(id), "");
}

TEST_P(RunIdentityTest, AnotherIndexOfTheSameJobIsRefused) {
  write(RunIdentity{77, 4});  // run.4's content where run.3 is expected
  const std::string error = open_error(RunIdentity{77, 3});
  EXPECT_NE(error.find("belongs to another run or job"), std::string::npos) << error;
  EXPECT_NE(error.find(path()), std::string::npos) << "the message names the file: " << error;
}

TEST_P(RunIdentityTest, AnotherJobsRunIsRefused) {
  write(RunIdentity{78, 3});
  EXPECT_NE(open_error(RunIdentity{77, 3}).find("belongs to another run or job"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(PlainAndCompressed, RunIdentityTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& p) {
                           return std::string(p.param ? "Compressed" : "Plain");
                         });

TEST(RunIdentity, JobIdsAreRandomAndNonZero) {
  const uint64_t a = new_job_id(), b = new_job_id();
  EXPECT_NE(a, 0u);
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace gsort
