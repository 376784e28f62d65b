// src/core/teardown_helper: what is handed to the helper stays open there
// until this process's end of the socket closes, and then closes; the
// helper holds none of the descriptors it inherited (a pipe's reader sees
// its end as soon as gsort's own copy closes); without a helper, nothing
// is handed.
#include "src/core/teardown_helper.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace gsort {
namespace {

constexpr int kBoundMs = 10000;  // a bound on the wait, never the synchronisation itself

std::string link_of(int fd) {
  char link[256];
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  const ssize_t n = ::readlink(path.c_str(), link, sizeof link - 1);
  return n > 0 ? std::string(link, static_cast<size_t>(n)) : std::string();
}

// Whether fd's peer has closed (its reader sees the end) within the bound,
// or at once with wait_ms 0.
bool peer_closed(int fd, int wait_ms) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, wait_ms) <= 0) return false;
  char byte;
  return (p.revents & (POLLHUP | POLLIN)) && ::read(fd, &byte, 1) == 0;
}

TEST(TeardownHelper, HoldsWhatItIsHandedUntilReleased) {
  int ends[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends), 0);
  ASSERT_TRUE(start_teardown_helper());
  const std::string handed = link_of(ends[1]);  // each end of a socket pair has its own inode
  ASSERT_FALSE(handed.empty());
  EXPECT_EQ(hand_to_teardown_helper(handed), 1);
  ::close(ends[1]);
  EXPECT_FALSE(peer_closed(ends[0], 0)) << "the helper holds the other end";
  release_teardown_helper();
  EXPECT_TRUE(peer_closed(ends[0], kBoundMs)) << "released, the helper closes it";
  ::close(ends[0]);
}

TEST(TeardownHelper, HoldsNoDescriptorItInherited) {
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);  // inherited by the helper's fork
  ASSERT_TRUE(start_teardown_helper());
  ::close(pipe_ends[1]);
  EXPECT_TRUE(peer_closed(pipe_ends[0], kBoundMs)) << "the helper kept a copy of the pipe's writer";
  release_teardown_helper();
  ::close(pipe_ends[0]);
}

TEST(TeardownHelper, HandsNothingWithoutAHelper) {
  release_teardown_helper();
  int ends[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends), 0);
  EXPECT_EQ(hand_to_teardown_helper(link_of(ends[1])), 0);
  ::close(ends[1]);
  EXPECT_TRUE(peer_closed(ends[0], 0));
  ::close(ends[0]);
}

}  // namespace
}  // namespace gsort
