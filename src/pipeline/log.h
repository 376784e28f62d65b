// Diagnostics on stderr under -v. gsort is quiet unless asked.
#pragma once

#include <cstdio>
#include <string>

namespace gsort {

class Log {
 public:
  explicit Log(bool verbose) : verbose_(verbose) {}
  bool verbose() const { return verbose_; }
  void info(const std::string& line) const {
    if (verbose_) std::fprintf(stderr, "gsort: %s\n", line.c_str());
  }

 private:
  bool verbose_;
};

}  // namespace gsort
