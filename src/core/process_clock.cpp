#include "src/core/process_clock.h"

#include <chrono>

namespace gsort {

double process_seconds() {
  static const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace gsort
