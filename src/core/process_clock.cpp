#include "src/core/process_clock.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace gsort {
namespace {

// The process's age now: /proc/uptime less its start time (/proc/self/stat's
// 22nd field, in clock ticks since boot); negative where unreadable.
double process_age() {
  std::ifstream stat_file("/proc/self/stat"), uptime_file("/proc/uptime");
  std::string stat;
  double uptime = 0;
  if (!std::getline(stat_file, stat) || !(uptime_file >> uptime)) return -1;
  // The command name (field 2) may hold spaces: count fields after its ')'.
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22; ++i) {
    if (!(fields >> field)) return -1;
  }
  const long ticks = ::sysconf(_SC_CLK_TCK);
  if (ticks <= 0) return -1;
  return uptime - std::strtod(field.c_str(), nullptr) / static_cast<double>(ticks);
}

double& age_at_start() {
  static double age = -1;
  return age;
}

}  // namespace

double process_seconds() {
  static const std::chrono::steady_clock::time_point start = [] {
    age_at_start() = process_age();
    return std::chrono::steady_clock::now();
  }();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double seconds_before_main() {
  process_seconds();
  return age_at_start();
}

}  // namespace gsort
