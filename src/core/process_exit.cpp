#include "src/core/process_exit.h"

#include <cstdio>
#include <cstdlib>

#include "src/core/exit_codes.h"
#include "src/core/teardown_helper.h"

namespace gsort {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kRunExitHandlers = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kRunExitHandlers = true;
#else
constexpr bool kRunExitHandlers = false;
#endif
#else
constexpr bool kRunExitHandlers = false;
#endif

}  // namespace

void end_process(int exit_code) {
  if (std::fflush(stdout) != 0 && exit_code == kExitOk) {
    std::fputs("gsort: write error on standard output\n", stderr);
    exit_code = kExitError;
  }
  std::fflush(stderr);
  hand_to_teardown_helper();  // the GPU driver's files, where a helper was started
  if (kRunExitHandlers) std::exit(exit_code);
  std::_Exit(exit_code);
}

}  // namespace gsort
