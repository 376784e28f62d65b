#include "src/core/log.h"

#include <unistd.h>

#include <cstdio>

namespace gsort {
namespace {

// The in-place line, under stderr_mutex().
const void* g_line_owner = nullptr;
std::function<void()> g_clear_line;

}  // namespace

std::string plural(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string mebibytes_text(uint64_t bytes) { return std::to_string((bytes + (1 << 19)) >> 20) + " MiB"; }

std::string seconds_text(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", seconds);
  return buf;
}

std::mutex& stderr_mutex() {
  static std::mutex m;
  return m;
}

void write_stderr(const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(2, s.data() + done, s.size() - done);
    if (n <= 0) return;  // nothing sensible to do about a failing stderr
    done += static_cast<size_t>(n);
  }
}

void set_in_place_line_locked(const void* owner, std::function<void()> clear) {
  g_line_owner = owner;
  g_clear_line = std::move(clear);
}

void remove_in_place_line_locked(const void* owner) {
  if (g_line_owner != owner) return;
  g_line_owner = nullptr;
  g_clear_line = nullptr;
}

void print_diagnostic(const std::string& line) {
  std::lock_guard<std::mutex> lock(stderr_mutex());
  if (g_clear_line) g_clear_line();
  std::fflush(stderr);
  write_stderr(line + "\n");
}

}  // namespace gsort
