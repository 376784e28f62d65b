#include "src/core/address_space.h"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace gsort {
namespace {

std::string read_status() {
  std::ifstream in("/proc/self/status");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A "Vm...:  N kB" figure of /proc/self/status in bytes; 0 when absent.
uint64_t vm_figure(const std::string& status, const std::string& name) {
  const size_t at = status.find("\n" + name + ":");
  if (at == std::string::npos) return 0;
  try {
    return std::stoull(status.substr(at + name.size() + 2)) * 1024;
  } catch (const std::exception&) {
    return 0;
  }
}

// A limit's soft value; UINT64_MAX when unlimited or unknown.
uint64_t soft_limit(int resource) {
  struct rlimit r {};
  if (::getrlimit(resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return UINT64_MAX;
  return static_cast<uint64_t>(r.rlim_cur);
}

}  // namespace

uint64_t address_space_left(unsigned threads) {
  const uint64_t as = soft_limit(RLIMIT_AS), data = soft_limit(RLIMIT_DATA);
  if (as == UINT64_MAX && data == UINT64_MAX) return UINT64_MAX;
  const std::string status = read_status();
  // A new thread's stack is mapped at RLIMIT_STACK's size (8 MiB by default).
  const uint64_t stack = std::min<uint64_t>(soft_limit(RLIMIT_STACK), uint64_t{8} << 20);
  const uint64_t stacks = uint64_t{threads} * stack;
  const auto left = [&](uint64_t limit, uint64_t used) {
    if (limit == UINT64_MAX) return UINT64_MAX;
    return limit > used + stacks ? limit - used - stacks : 0;
  };
  return std::min(left(as, vm_figure(status, "VmSize")), left(data, vm_figure(status, "VmData")));
}

}  // namespace gsort
