// -o naming something other than a plain file: a device is written, never
// replaced (gsort once renamed its temporary file over /dev/null); a
// symbolic link is followed, and a FIFO receives the records.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

std::string records() {
  std::string r;
  for (int i = 40; i-- > 0;) r += std::string(15, 'a' + i % 26) + static_cast<char>('0' + i % 10);
  return r;
}

TEST(CliOutputKinds, DevNullStaysADevice) {
  TempDir dir;
  write_file(dir.file("in.bin"), records());
  const ProcessResult r = run_gsort({"--record-size", "16", "-o", "/dev/null", dir.file("in.bin")});
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  struct stat st;
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null is no longer a character device";
}

TEST(CliOutputKinds, SymlinkIsFollowedAndKept) {
  TempDir dir;
  write_file(dir.file("in.bin"), records());
  write_file(dir.file("real.bin"), "old");
  ASSERT_EQ(symlink("real.bin", dir.file("link.bin").c_str()), 0);
  const ProcessResult r = run_gsort({"--record-size", "16", "-o", dir.file("link.bin"), dir.file("in.bin")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  struct stat st;
  ASSERT_EQ(lstat(dir.file("link.bin").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link was replaced by a file";
  const std::string out = read_file(dir.file("real.bin"));
  EXPECT_EQ(out.size(), records().size());
  EXPECT_EQ(out.substr(0, 16), std::string(15, 'a') + "0");
}

TEST(CliOutputKinds, FifoReceivesTheRecords) {
  TempDir dir;
  write_file(dir.file("in.bin"), records());
  ASSERT_EQ(mkfifo(dir.file("fifo").c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] {
    const int fd = open(dir.file("fifo").c_str(), O_RDONLY);
    if (fd < 0) return;
    char buf[4096];
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) received.append(buf, static_cast<size_t>(n));
    close(fd);
  });
  const ProcessResult r = run_gsort({"--record-size", "16", "-o", dir.file("fifo"), dir.file("in.bin")});
  reader.join();
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(received.size(), records().size());
  struct stat st;
  ASSERT_EQ(stat(dir.file("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

// --fsync flushes whatever the output is, where it can: a file (and its
// directory), standard output, a pipe (which cannot be flushed: not an
// error), a device.
TEST(CliOutputKinds, FsyncWorksForFilesPipesAndDevices) {
  TempDir dir;
  write_file(dir.file("in.bin"), records());
  const ProcessResult plain = run_gsort({"--record-size", "16", "-o", dir.file("plain.bin"), dir.file("in.bin")});
  ASSERT_EQ(plain.status(), "exit 0") << plain.err;
  const std::string expected = read_file(dir.file("plain.bin"));
  ASSERT_EQ(expected.size(), records().size());

  const ProcessResult to_file =
      run_gsort({"--fsync", "--record-size", "16", "-o", dir.file("synced.bin"), dir.file("in.bin")});
  EXPECT_EQ(to_file.status(), "exit 0") << to_file.err;
  EXPECT_EQ(to_file.err, "");
  EXPECT_EQ(read_file(dir.file("synced.bin")), expected);

  const ProcessResult to_stdout = run_gsort({"--fsync", "--record-size", "16", dir.file("in.bin")});
  EXPECT_EQ(to_stdout.status(), "exit 0") << to_stdout.err;
  EXPECT_EQ(to_stdout.out, expected);

  // gsort's exit code comes back on stderr, past the pipe.
  const std::string gsort = command_line(gsort_argv({"--fsync", "--record-size", "16", dir.file("in.bin")}));
  const ProcessResult to_pipe = run_process({"/bin/sh", "-c", "{ " + gsort + "; echo \"rc=$?\" >&2; } | cat"});
  EXPECT_EQ(to_pipe.err, "rc=0\n");
  EXPECT_EQ(to_pipe.out, expected);

  const ProcessResult to_device =
      run_gsort({"--fsync", "--record-size", "16", "-o", "/dev/null", dir.file("in.bin")});
  EXPECT_EQ(to_device.status(), "exit 0") << to_device.err;
}

}  // namespace
}  // namespace gsort_test
