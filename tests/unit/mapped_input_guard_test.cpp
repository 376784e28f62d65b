// The mapped-input guard (io/temp/temp_registry.h): a file cut short while it is
// mapped makes the next access fault (SIGBUS). Inside a registered range
// gsort prints one line, removes its registered temporary paths and exits 2;
// outside one, SIGBUS keeps its default action (the process dies by it).
// Each case runs in a child process (gtest death tests).
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "io/temp/temp_registry.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

namespace fs = std::filesystem;

constexpr size_t kBytes = size_t{1} << 20;

// The scratch directory of a death test, one for the test and its child.
// The "threadsafe" style runs the test body again in a new process, where
// a TempDir of its own would be a second directory that the child, dying,
// never removes. The test makes the directory and names it in the
// environment; the child, which inherits that, uses it.
class DeathTestDir {
 public:
  DeathTestDir() {
    if (const char* inherited = std::getenv(kVariable)) {
      path_ = inherited;
      return;
    }
    dir_ = std::make_unique<gsort_test::TempDir>();
    path_ = dir_->path();
    ::setenv(kVariable, path_.c_str(), 1);
  }
  ~DeathTestDir() {
    if (dir_) ::unsetenv(kVariable);
  }
  DeathTestDir(const DeathTestDir&) = delete;
  DeathTestDir& operator=(const DeathTestDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  static constexpr const char* kVariable = "GSORT_TEST_DEATH_TEST_DIR";
  std::unique_ptr<gsort_test::TempDir> dir_;  // in the test, not in its child
  std::string path_;
};

// Maps a 1 MiB file of `path`, then cuts the file to nothing.
volatile const unsigned char* map_then_truncate(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || ::ftruncate(fd, kBytes) != 0) ::_exit(90);
  void* base = ::mmap(nullptr, kBytes, PROT_READ, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED || ::ftruncate(fd, 0) != 0) ::_exit(91);
  return static_cast<volatile const unsigned char*>(base);
}

TEST(MappedInputGuardDeathTest, AFileCutShortEndsWithOneLineExitTwoAndNoTempFiles) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  DeathTestDir dir;
  const std::string input = dir.path() + "/input", temp = dir.path() + "/run.0";
  EXPECT_EXIT(
      {
        install_cleanup_signal_handlers();
        const int t = ::open(temp.c_str(), O_WRONLY | O_CREAT, 0600);
        if (t < 0) ::_exit(92);
        register_temp_path(temp, false);
        volatile const unsigned char* p = map_then_truncate(input);
        const void* base = const_cast<const unsigned char*>(p);
        register_mapped_input(base, kBytes);
        (void)p[kBytes / 2];  // past the file's end now
        ::_exit(93);  // not reached
      },
      ::testing::ExitedWithCode(2), "an input file was cut short while gsort was reading it");
  EXPECT_FALSE(fs::exists(temp)) << "the registered temporary file outlived the error";
}

// In a child: maps a file, cuts it short, and reads past its new end, with
// the range guarded and unguarded again first where asked.
[[noreturn]] void read_past_the_end(const std::string& input, bool guarded_then_released) {
  install_cleanup_signal_handlers();
  volatile const unsigned char* p = map_then_truncate(input);
  if (guarded_then_released) {
    unregister_mapped_input(register_mapped_input(const_cast<const unsigned char*>(p), kBytes));
  }
  (void)p[kBytes / 2];
  ::_exit(93);  // not reached
}

TEST(MappedInputGuardDeathTest, AFaultOutsideRegisteredInputsKeepsTheDefaultAction) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  DeathTestDir dir;
  EXPECT_EXIT(read_past_the_end(dir.path() + "/input", false), ::testing::KilledBySignal(SIGBUS), "");
}

TEST(MappedInputGuardDeathTest, AnUnregisteredRangeIsNoLongerGuarded) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  DeathTestDir dir;
  EXPECT_EXIT(read_past_the_end(dir.path() + "/input", true), ::testing::KilledBySignal(SIGBUS), "");
}

}  // namespace
}  // namespace gsort
