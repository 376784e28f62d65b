// Which names are terminals, for the progress line (io/file/terminal.h):
// descriptors on a pseudo-terminal, paths to it, and files that are not.
#include "io/file/terminal.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <unistd.h>

#include <string>

#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

struct Pty {
  Pty() {
    char name[256];
    if (::openpty(&master, &slave, name, nullptr, nullptr) == 0) path = name;
  }
  ~Pty() {
    ::close(master);
    ::close(slave);
  }
  int master = -1, slave = -1;
  std::string path;
};

std::string fd_name(int fd) { return "/dev/fd/" + std::to_string(fd); }

TEST(Terminal, InputNamesThatAreTerminals) {
  Pty pty;
  ASSERT_FALSE(pty.path.empty());
  gsort_test::TempDir dir;
  gsort_test::write_file(dir.file("f"), "x\n");
  const int file = ::open(dir.file("f").c_str(), O_RDONLY);
  EXPECT_TRUE(input_is_terminal(fd_name(pty.slave)));
  EXPECT_FALSE(input_is_terminal(fd_name(file)));
  EXPECT_FALSE(input_is_terminal(dir.file("f")));
  EXPECT_FALSE(input_is_terminal("/dev/null"));
  ::close(file);
}

TEST(Terminal, OutputToTheSameTerminalOnly) {
  Pty one, other;
  ASSERT_FALSE(one.path.empty());
  ASSERT_FALSE(other.path.empty());
  const int again = ::open(one.path.c_str(), O_RDWR | O_NOCTTY);
  ASSERT_GE(again, 0);
  EXPECT_TRUE(output_is_terminal_of(fd_name(again), one.slave));
  EXPECT_TRUE(output_is_terminal_of(one.path, one.slave));
  EXPECT_FALSE(output_is_terminal_of(fd_name(other.slave), one.slave));
  EXPECT_FALSE(output_is_terminal_of(other.path, one.slave));
  EXPECT_FALSE(output_is_terminal_of("/dev/null", one.slave));
  gsort_test::TempDir dir;
  const int file = ::open(dir.file("f").c_str(), O_WRONLY | O_CREAT, 0600);
  EXPECT_FALSE(output_is_terminal_of(fd_name(again), file)) << "no terminal to draw on";
  EXPECT_FALSE(output_is_terminal_of(dir.file("f"), one.slave));
  ::close(file);
  ::close(again);
}

}  // namespace
}  // namespace gsort
