// Files whose size reads wrong (most of /proc reads 0 bytes, sysfs a page)
// are read to their end, as cat reads them: the same records as through a
// pipe, never an empty output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string sorted_bytes(std::string s) {
  std::stable_sort(s.begin(), s.end(), [](char a, char b) { return static_cast<uint8_t>(a) < static_cast<uint8_t>(b); });
  return s;
}

TEST(CliPseudoFile, ProcFileOfSizeZeroIsReadToItsEnd) {
  const std::string content = slurp("/proc/version");
  ASSERT_FALSE(content.empty());
  TempDir dir;
  const ProcessResult r = run_gsort({"--record-size", "1", "-T", dir.path(), "/proc/version", "-o", dir.file("out")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(read_file(dir.file("out")), sorted_bytes(content));
}

// /proc/self/auxv is binary, 16 bytes an entry: whole records of 16 bytes.
TEST(CliPseudoFile, BinaryProcFileSortsAsRecords) {
  TempDir dir;
  const ProcessResult r = run_gsort({"--record-size", "16", "--key", "0:u64", "-T", dir.path(), "/proc/self/auxv",
                                     "-o", dir.file("out")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const std::string out = read_file(dir.file("out"));
  EXPECT_GT(out.size(), 0u);
  EXPECT_EQ(out.size() % 16, 0u);
}

TEST(CliPseudoFile, SysfsFileIsReadToItsEnd) {
  const std::string path = "/sys/kernel/mm/transparent_hugepage/enabled";
  const std::string content = slurp(path);
  if (content.empty()) GTEST_SKIP() << "no " << path;
  TempDir dir;
  const ProcessResult r = run_gsort({"--record-size", "1", "-T", dir.path(), path, "-o", dir.file("out")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(read_file(dir.file("out")), sorted_bytes(content));
}

// A truly empty regular file still sorts to an empty output.
TEST(CliPseudoFile, EmptyRegularFileIsEmpty) {
  TempDir dir;
  write_file(dir.file("in"), "");
  const ProcessResult r = run_gsort({"--record-size", "4", "-T", dir.path(), dir.file("in"), "-o", dir.file("out")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(read_file(dir.file("out")), "");
}

}  // namespace
}  // namespace gsort_test
