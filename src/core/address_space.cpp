#include "src/core/address_space.h"

#include <malloc.h>
#include <pthread.h>
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

bool address_space_limited() { return soft_limit(RLIMIT_AS) != UINT64_MAX || soft_limit(RLIMIT_DATA) != UINT64_MAX; }

// The stack a new thread is given: the process's default attributes.
uint64_t thread_stack_bytes() {
  pthread_attr_t attr;
  size_t bytes = 0;
  if (::pthread_getattr_default_np(&attr) != 0) return uint64_t{8} << 20;
  const int rc = ::pthread_attr_getstacksize(&attr, &bytes);
  ::pthread_attr_destroy(&attr);
  return rc == 0 && bytes > 0 ? bytes : uint64_t{8} << 20;
}

}  // namespace

void fit_threads_to_address_limits() {
  if (!address_space_limited()) return;
  ::mallopt(M_ARENA_MAX, 1);
  pthread_attr_t attr;
  if (::pthread_getattr_default_np(&attr) != 0) return;
  size_t bytes = 0;
  if (::pthread_attr_getstacksize(&attr, &bytes) == 0 && bytes > kLimitedThreadStackBytes) {
    // A failure keeps the larger stacks; address_space_left() counts them.
    if (::pthread_attr_setstacksize(&attr, kLimitedThreadStackBytes) == 0) ::pthread_setattr_default_np(&attr);
  }
  ::pthread_attr_destroy(&attr);
}

uint64_t address_space_left(unsigned threads) {
  const uint64_t as = soft_limit(RLIMIT_AS), data = soft_limit(RLIMIT_DATA);
  if (as == UINT64_MAX && data == UINT64_MAX) return UINT64_MAX;
  const std::string status = read_status();
  const uint64_t stacks = uint64_t{threads} * thread_stack_bytes();
  const auto left = [&](uint64_t limit, uint64_t used) {
    if (limit == UINT64_MAX) return UINT64_MAX;
    return limit > used + stacks ? limit - used - stacks : 0;
  };
  return std::min(left(as, vm_figure(status, "VmSize")), left(data, vm_figure(status, "VmData")));
}

uint64_t address_space_limit() { return soft_limit(RLIMIT_AS); }

uint64_t process_status_bytes(const std::string& name) { return vm_figure(read_status(), name); }

}  // namespace gsort
