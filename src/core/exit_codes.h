#pragma once

namespace gsort {

// The exit codes are part of gsort's interface (README, "Exit codes").
enum ExitCode : int {
  kExitOk = 0,
  kExitDisorder = 1,  // --check found the input out of order
  kExitBadWord = 1,   // as GNU sort: a word --sort= or --check= does not take (src/cli/argmatch.h)
  kExitError = 2,     // any error
};

}  // namespace gsort
