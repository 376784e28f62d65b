// Before any work, gsort refuses a sort whose output (or uncompressed runs)
// the file system has no room for, naming the figures; --no-space-check
// starts anyway, and the full disk is then an error of its own, before any
// byte of a mapped output. Either way the destination is as it was and
// nothing is left. Needs root for the small tmpfs; skipped otherwise.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tmpfs.h"

namespace gsort_test {
namespace {

std::string random_data(uint64_t seed, size_t bytes) {
  Rng rng(seed);
  const std::vector<uint8_t> b = random_bytes(bytes, rng);
  return std::string(b.begin(), b.end());
}

TEST(CliRoomCheck, AnOutputTheDiskCannotHoldIsRefusedBeforeAnyWork) {
  TempDir dir;
  const std::string small = dir.subdir("small");
  Tmpfs tmpfs(small, "4m");
  if (!tmpfs.mounted()) GTEST_SKIP() << "no tmpfs: " << tmpfs.error();
  write_file(dir.file("in"), random_data(11, 10000000));
  write_file(small + "/out", "old");
  ProcessResult r = run_gsort({"--record-size", "100", "-T", dir.subdir("tmp"), "-o", small + "/out", dir.file("in")});
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err.rfind("gsort: not enough room: the output needs 10.0 MB (10000000 bytes) in the file system of " +
                            small + "/out, which has ",
                        0),
            0u)
      << r.err;
  EXPECT_NE(r.err.find("--no-space-check"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(small + "/out"), "old");
  EXPECT_EQ(entry_names(small), std::vector<std::string>{"out"});
  // Started anyway: the reservation of the output fails before any byte.
  r = run_gsort({"--no-space-check", "--record-size", "100", "-T", dir.subdir("tmp"), "-o", small + "/out",
                 dir.file("in")});
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_NE(r.err.find("no space left on device"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(small + "/out"), "old");
  EXPECT_EQ(entry_names(small), std::vector<std::string>{"out"});
}

TEST(CliRoomCheck, RunsTheTempDirectoryCannotHoldAreRefused) {
  TempDir dir;
  const std::string small = dir.subdir("small");
  Tmpfs tmpfs(small, "4m");
  if (!tmpfs.mounted()) GTEST_SKIP() << "no tmpfs: " << tmpfs.error();
  write_file(dir.file("in"), random_data(12, 10000000));
  const ProcessResult r = run_gsort({"--record-size", "100", "-S", "1M", "--compress-temp=off", "-T", small, "-o",
                                     dir.file("out"), dir.file("in")});
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err.rfind("gsort: not enough room: the runs need 10.0 MB (10000000 bytes) in " + small, 0), 0u) << r.err;
  EXPECT_TRUE(entry_names(small).empty());
}

}  // namespace
}  // namespace gsort_test
