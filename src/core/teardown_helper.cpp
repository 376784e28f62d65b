#include "src/core/teardown_helper.h"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace gsort {
namespace {

int helper_socket = -1;  // this process's end; -1: no helper

constexpr int kMaxPerMessage = 250;  // under the kernel's SCM_MAX_FD (253)
constexpr int kMaxHeld = 4096;

// Every descriptor but `keep` closed.
void close_all_but(int keep) {
  if (keep > 0 && ::close_range(0, static_cast<unsigned>(keep - 1), 0) != 0) {
    for (int fd = 0; fd < keep; ++fd) ::close(fd);
  }
  if (::close_range(static_cast<unsigned>(keep + 1), ~0u, 0) != 0) {
    for (int fd = keep + 1; fd < 1024; ++fd) ::close(fd);
  }
}

// The helper's life, after the second fork: only calls that are safe in
// the child of a process with threads (no allocation, no locks).
[[noreturn]] void serve(int sock) {
  ::prctl(PR_SET_NAME, "gsort-teardown", 0, 0, 0);
  struct sigaction dfl;
  std::memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);  // not gsort's cleanup handler
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  close_all_but(sock);
  static int held[kMaxHeld];
  int count = 0;
  for (;;) {
    char byte;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxPerMessage)];
    iovec io{&byte, 1};
    msghdr msg{};
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    const ssize_t got = ::recvmsg(sock, &msg, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // the end: gsort has exited (or released us)
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      const int n = static_cast<int>((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
      for (int i = 0; i < n; ++i) {
        int fd;
        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
        if (count < kMaxHeld) {
          held[count++] = fd;
        } else {
          ::close(fd);  // gsort's own copy is then the last: it closes with gsort
        }
      }
    }
  }
  for (int i = 0; i < count; ++i) ::close(held[i]);
  ::_exit(0);
}

// The descriptors whose link begins with prefix.
std::vector<int> descriptors_named(const std::string& prefix) {
  std::vector<int> found;
  DIR* dir = ::opendir("/proc/self/fd");
  if (!dir) return found;
  const int own = ::dirfd(dir);
  while (const dirent* entry = ::readdir(dir)) {
    char* end = nullptr;
    const long fd = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0' || fd == own || fd == helper_socket) continue;
    char link[512];
    const std::string path = std::string("/proc/self/fd/") + entry->d_name;
    const ssize_t n = ::readlink(path.c_str(), link, sizeof link - 1);
    if (n <= 0) continue;
    if (static_cast<size_t>(n) >= prefix.size() && std::memcmp(link, prefix.data(), prefix.size()) == 0) {
      found.push_back(static_cast<int>(fd));
    }
  }
  ::closedir(dir);
  return found;
}

bool send_descriptors(const int* fds, int n) {
  char byte = 'd';
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxPerMessage)];
  std::memset(control, 0, sizeof control);
  iovec io{&byte, 1};
  msghdr msg{};
  msg.msg_iov = &io;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = CMSG_SPACE(sizeof(int) * n);
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int) * n);
  std::memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
  for (;;) {
    if (::sendmsg(helper_socket, &msg, MSG_NOSIGNAL) == 1) return true;
    if (errno != EINTR) return false;  // the helper is gone (killed): nothing handed
  }
}

}  // namespace

bool gpu_device_files_present() { return ::access("/dev/nvidiactl", F_OK) == 0; }

bool start_teardown_helper() {
  if (helper_socket >= 0) return true;
  int ends[2];
  // Close-on-exec: a compressor gsort starts must not hold the helper open.
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return false;
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(ends[0]);
    ::close(ends[1]);
    return false;
  }
  if (child == 0) {
    if (::fork() == 0) serve(ends[1]);  // the grandchild: init reaps it
    ::_exit(0);
  }
  ::close(ends[1]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  helper_socket = ends[0];
  return true;
}

int hand_to_teardown_helper(const std::string& prefix) {
  if (helper_socket < 0) return 0;
  const std::vector<int> fds = descriptors_named(prefix);
  int handed = 0;
  for (size_t at = 0; at < fds.size(); at += kMaxPerMessage) {
    const int n = static_cast<int>(std::min<size_t>(kMaxPerMessage, fds.size() - at));
    if (!send_descriptors(fds.data() + at, n)) break;
    handed += n;
  }
  return handed;
}

void release_teardown_helper() {
  if (helper_socket < 0) return;
  ::close(helper_socket);
  helper_socket = -1;
}

}  // namespace gsort
