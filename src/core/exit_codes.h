#pragma once

namespace gsort {

// The exit codes are part of gsort's interface (README, "Exit codes").
enum ExitCode : int {
  kExitOk = 0,
  kExitDisorder = 1,  // --check found the input out of order
  kExitError = 2,     // any error
};

}  // namespace gsort
