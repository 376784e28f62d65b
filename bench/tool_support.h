// What the standalone I/O floor tools of bench/ share (pipe_floor_bench,
// spill_floor_bench, output_write_bench, run_release_bench): they link
// nothing of gsort, so that their figures are the system's alone.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace bench_tool {

// perror(what), then exit 1: a floor tool has nothing to clean up.
[[noreturn]] inline void die(const char* what) {
  std::perror(what);
  std::exit(1);
}

// Seconds on the steady clock.
inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace bench_tool
