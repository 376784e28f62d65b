// Wall time since a point, in seconds, for phase timings.
#pragma once

#include <chrono>

namespace gsort {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace gsort
