#include "src/report/anonymous_peak.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace gsort {

uint64_t anonymous_bytes_now() {
  std::FILE* f = std::fopen("/proc/self/status", "re");
  if (f == nullptr) return 0;
  char line[256];
  unsigned long long kib = 0;
  bool found = false;
  while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "RssAnon: %llu kB", &kib) == 1;
  std::fclose(f);
  return found ? static_cast<uint64_t>(kib) * 1024 : 0;
}

AnonymousPeak::AnonymousPeak()
    : thread_([this] {
        std::unique_lock<std::mutex> lock(mutex_);
        do {
          sample();
        } while (!stop_.wait_for(lock, std::chrono::milliseconds(20), [this] { return stopping_; }));
      }) {}

AnonymousPeak::~AnonymousPeak() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  stop_.notify_all();
  thread_.join();
}

void AnonymousPeak::sample() {
  const uint64_t now = anonymous_bytes_now();
  uint64_t seen = peak_.load();
  while (now > seen && !peak_.compare_exchange_weak(seen, now)) {
  }
}

uint64_t AnonymousPeak::bytes() {
  sample();
  return peak_.load();
}

}  // namespace gsort
