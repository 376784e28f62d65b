// Diagnostics on stderr under -v. gsort is quiet unless asked.
#pragma once

#include <cstdio>
#include <string>

namespace gsort {

// Prints one line on stderr, first clearing the progress line if one is
// drawn (pipeline/progress.cpp).
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

}  // namespace gsort
