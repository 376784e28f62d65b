#include "io/temp/process_gone.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace gsort {
namespace {

// The state letter of /proc/<pid>/stat (after the name in parentheses,
// which may hold spaces and parentheses itself); 0 where it cannot be read.
char proc_state(pid_t pid) {
  const std::string path = "/proc/" + std::to_string(pid) + "/stat";
  std::FILE* f = std::fopen(path.c_str(), "re");
  if (f == nullptr) return 0;
  char buf[512];
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  const char* close = std::strrchr(buf, ')');
  return close != nullptr && close[1] == ' ' ? close[2] : 0;
}

}  // namespace

bool process_gone(pid_t pid) {
  if (pid <= 0 || pid == ::getpid()) return false;
  if (::kill(pid, 0) != 0) return errno == ESRCH;
  return proc_state(pid) == 'Z';
}

}  // namespace gsort
