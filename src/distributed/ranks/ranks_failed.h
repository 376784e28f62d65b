// What every rank throws when some rank failed (RankFence::agree): without
// MPI's types, so that main() can catch it.
#pragma once

#include <string>

#include "src/core/errors.h"

namespace gsort {

// Only one rank (the lowest that failed) prints its line, so a refusal that
// every rank makes is printed once.
class RanksFailed : public Error {
 public:
  RanksFailed(const std::string& line, bool print) : Error(line), print_(print) {}
  bool should_print() const { return print_; }

 private:
  bool print_;
};

}  // namespace gsort
