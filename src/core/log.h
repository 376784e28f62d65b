// Diagnostics on stderr under -v (gsort is quiet unless asked), and the
// lock that keeps them apart from a line redrawn in place on stderr (the
// progress meter, src/report/progress.h).
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace gsort {

// Prints one line on stderr, first clearing the in-place line if one is
// drawn.
void print_diagnostic(const std::string& line);

class Log {
 public:
  explicit Log(bool verbose) : verbose_(verbose) {}
  bool verbose() const { return verbose_; }
  void info(const std::string& line) const {
    if (verbose_) print_diagnostic("gsort: " + line);
  }

 private:
  bool verbose_;
};

// "1 record", "3 runs": for -v's lines.
std::string plural(uint64_t n, const char* word);
// "1.234 s": for -v's lines.
std::string seconds_text(double seconds);
// "1234 MiB": bytes in MiB, rounded, for messages.
std::string mebibytes_text(uint64_t bytes);

// Held by whoever writes to stderr, so that lines never interleave.
std::mutex& stderr_mutex();
// Writes s whole to stderr (file descriptor 2); call with stderr_mutex() held.
void write_stderr(const std::string& s);
// The in-place line's owner registers how to clear it (print_diagnostic
// calls `clear` first), and removes it when done; call with
// stderr_mutex() held. Removing is a no-op unless `owner` registered last.
void set_in_place_line_locked(const void* owner, std::function<void()> clear);
void remove_in_place_line_locked(const void* owner);

}  // namespace gsort
